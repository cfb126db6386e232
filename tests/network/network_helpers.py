"""Shared helpers of the network tests: compare two linear systems by physics, not by
representation (state names and bases may differ)."""

from __future__ import annotations

import numpy as np


def A_matrix(sys) -> np.ndarray:
    """``(J − R) Q`` of a linear PHS (numeric or symbolic with values)."""
    num = sys.compile()
    A = num.A
    return A.toarray() if hasattr(A, "toarray") else np.asarray(A, dtype=float)


def same_eigenvalues(a, b, rtol: float = 1e-9) -> bool:
    ea = np.sort_complex(np.linalg.eigvals(A_matrix(a)))
    eb = np.sort_complex(np.linalg.eigvals(A_matrix(b)))
    scale = max(1.0, float(np.max(np.abs(ea))))
    return ea.shape == eb.shape and bool(np.max(np.abs(ea - eb)) <= rtol * scale)


def same_rhs(a, b, rename: dict[str, str], rng: np.random.Generator, trials: int = 5,
             rtol: float = 1e-10) -> bool:
    """``ẋ`` and ``y`` of ``a`` and ``b`` agree at random states and inputs, states of
    ``b`` matched to those of ``a`` through ``rename`` (name in b → name in a) and
    inputs in order."""
    order = [b.states.index(next(k for k, v in rename.items() if v == s)) for s in a.states]
    for _ in range(trials):
        xa = rng.normal(size=a.n_states)
        xb = np.empty(b.n_states)
        xb[order] = xa
        u = rng.normal(size=a.n_inputs)
        fa, fb = a.rhs(xa, u), b.rhs(xb, u)[order]
        ya, yb = a.output(xa, u), b.output(xb, u)
        scale = max(1.0, float(np.max(np.abs(fa))))
        if np.max(np.abs(fa - fb)) > rtol * scale or np.max(np.abs(ya - yb)) > rtol * max(
                1.0, float(np.max(np.abs(ya)))):
            return False
    return True
