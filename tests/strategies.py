"""Hypothesis strategies for random port-Hamiltonian systems."""

from __future__ import annotations

import numpy as np
from hypothesis import strategies as st

from porthamiltonian.phs import PHS


@st.composite
def random_phs(draw, prefix: str = "", max_states: int = 5, max_inputs: int = 3,
               feedthrough: bool = True) -> PHS:
    """A random numeric PHS with quadratic H = ½xᵀQx (Q ≻ 0)."""
    n = draw(st.integers(1, max_states))
    m = draw(st.integers(1, max_inputs))
    seed = draw(st.integers(0, 2**32 - 1))
    rng = np.random.default_rng(seed)
    A = rng.normal(size=(n, n))
    L = rng.normal(size=(n + m, n + m)) * draw(st.sampled_from([0.0, 0.3, 1.0]))
    W = L @ L.T
    if not feedthrough:
        W[n:, :] = 0.0
        W[:, n:] = 0.0
    B = rng.normal(size=(n, n))
    Mk = rng.normal(size=(m, m)) if feedthrough else np.zeros((m, m))
    return PHS(
        J=A - A.T, R=W[:n, :n], G=rng.normal(size=(n, m)), P=W[:n, n:],
        M=Mk - Mk.T, S=W[n:, n:], Q=B @ B.T + 0.5 * np.eye(n),
        states=[f"{prefix}x{i}" for i in range(n)],
        inputs=[f"{prefix}u{i}" for i in range(m)],
        outputs=[f"{prefix}y{i}" for i in range(m)],
    )
