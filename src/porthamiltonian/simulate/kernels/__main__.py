"""``python -m porthamiltonian.simulate.kernels``: compile the simulation steps now (once
per machine, tens of seconds) — the dense steps of symbolic models and the sparse steps of
separable ones — so that no later run waits for it."""

from __future__ import annotations

import time

from .build import precompile, steps_marker
from .separable import separable_marker


def precompile_separable() -> float:
    """Compile the sparse steps of separable models now with a two-state model; returns
    the seconds it took."""
    import numpy as np
    import sympy as sp

    from ...functional import SeparablePHS
    from ..run import simulate

    x, y = sp.symbols("x y")
    model = SeparablePHS(J=np.array([[0.0, 1.0], [-1.0, 0.0]]),
                         terms=[(x**4 / 4, [0], {}), (y**2 / 2, [1], {})])
    t0 = time.perf_counter()
    simulate(model, (0.0, 0.1), [1.0, 0.0], method="avf", dt=0.05, engine="compiled")
    return time.perf_counter() - t0


if __name__ == "__main__":
    seconds = precompile()
    print(f"compiled steps ready ({seconds:.1f} s); marker {steps_marker()}")
    seconds = precompile_separable()
    print(f"compiled sparse steps of separable models ready ({seconds:.1f} s); marker "
          f"{separable_marker()}")
