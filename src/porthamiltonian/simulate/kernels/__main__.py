"""``python -m porthamiltonian.simulate.kernels``: compile the simulation steps now (once
per machine, tens of seconds), so that no later run waits for it."""

from __future__ import annotations

from .build import precompile, steps_marker

if __name__ == "__main__":
    seconds = precompile()
    print(f"compiled steps ready ({seconds:.1f} s); marker {steps_marker()}")
