"""``python -m porthamiltonian.simulate.kernels``: compile the simulation steps now (once
per machine, tens of seconds) — the dense steps of symbolic models and the sparse steps of
separable ones — so that no later run waits for it."""

from __future__ import annotations

from .build import precompile, steps_marker
from .separable import precompile_separable, separable_marker

if __name__ == "__main__":
    seconds = precompile()
    print(f"compiled steps ready ({seconds:.1f} s); marker {steps_marker()}")
    seconds = precompile_separable()
    print(f"compiled sparse steps of separable models ready ({seconds:.1f} s); marker "
          f"{separable_marker()}")
