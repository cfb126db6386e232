r"""Transfer functions :math:`G(s) = C(sI - A)^{-1}B + D` of linear(ized) PHS.

Duindam et al. (2009), App. A.2: for a linear PHS with :math:`H = \tfrac12 x^\top Qx`,

.. math::  G(s) = (G+P)^\top Q\,\bigl(sI - (J-R)Q\bigr)^{-1}(G-P) + M + S .

Numerically :math:`G(s)` is evaluated by solving :math:`(sI - A)X = B` at each ``s``
(batched dense LU for small systems, a sparse LU per frequency for sparse ones); no
inverse is ever formed.  Symbolically the same solve runs in SymPy and each entry is
cancelled and factored into a readable rational function of ``s``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sps
import scipy.sparse.linalg as spsla
import sympy as sp

from ..descriptor import DescriptorPHS
from ..errors import ModelError
from ..phs import PHS
from .linear import LinearSystem, linear_system
from .selection import Selector
from .symbolic import symbolic_state_space

#: Complex entries per batch of the dense evaluation (k·n² ≤ this): about 64 MB.
_BATCH_ENTRIES = 4_000_000
#: The Laplace variable of symbolic transfer functions.
LAPLACE_S = sp.Symbol("s")


class TransferFunction:
    """The transfer matrix of a linear(ized) system from ``inputs`` to ``outputs``.

    Call it at complex ``s`` (a number or an array of any shape): the result has shape
    ``s.shape + (n_outputs, n_inputs)``.  Build it with :func:`transfer_function`.

    Attributes
    ----------
    linear : LinearSystem
        The selected state-space model.
    inputs, outputs : tuple of str
        Names of the columns and rows.
    """

    def __init__(self, linear: LinearSystem) -> None:
        self.linear = linear
        self.inputs = linear.inputs
        self.outputs = linear.outputs

    @property
    def shape(self) -> tuple[int, int]:
        return (len(self.outputs), len(self.inputs))

    def __call__(self, s: Any) -> np.ndarray:
        s = np.asarray(s, dtype=complex)
        flat = s.reshape(-1)
        lin = self.linear
        if lin.n_states == 0:
            out = np.broadcast_to(lin.D.astype(complex), (flat.size, *self.shape)).copy()
        elif lin.sparse:
            out = _eval_sparse(lin, flat)
        else:
            out = _eval_dense(lin, flat)
        return out.reshape(s.shape + self.shape)

    def frequency_response(self, omega: Any) -> np.ndarray:
        """``G(jω)`` for angular frequencies ``omega`` (rad/s)."""
        return self(1j * np.asarray(omega, dtype=float))

    def dcgain(self) -> np.ndarray:
        """``G(0)``; raises :class:`ModelError` when ``s = 0`` is a pole (an integrator)."""
        return self(0.0).real

    def symbolic(self) -> sp.Matrix:
        """``G(s)`` as a SymPy matrix of rational functions in the symbol ``s``.

        Parameters of a symbolic PHS stay symbols.  Each entry is cancelled and factored.
        """
        return symbolic_transfer(*self.linear.symbolic_matrices())

    def poles(self) -> np.ndarray:
        """Eigenvalues of ``A`` (the poles, including uncontrollable/unobservable modes)."""
        from .modes import poles

        return poles(self.linear)

    def zeros(self) -> np.ndarray:
        """Invariant zeros (see :func:`porthamiltonian.analysis.zeros`)."""
        from .modes import zeros

        return zeros(self.linear)

    def __repr__(self) -> str:
        return (f"<TransferFunction {self.shape[0]}×{self.shape[1]} of order "
                f"{self.linear.n_states}: {list(self.inputs)} → {list(self.outputs)}>")


def transfer_function(
    system: Any,
    inputs: Selector = None,
    outputs: Selector = None,
    *,
    symbolic: bool = False,
    x0: Any = None,
    u0: Any = None,
) -> TransferFunction | sp.Matrix:
    """Transfer matrix of ``system`` from ``inputs`` to ``outputs``.

    Parameters
    ----------
    system:
        A PHS, DescriptorPHS, :class:`LinearSystem` or ``(A, B, C, D)``.
    inputs:
        Input names (a port's base name selects all its components) or indices;
        ``None``: all inputs.  The other inputs are held at zero.
    outputs:
        Output names, state names or ``"dH/d<state>"`` co-energy variables, or
        indices; ``None``: all outputs (the conjugates of the inputs of a PHS).
    symbolic:
        If true, return the SymPy matrix (:meth:`TransferFunction.symbolic`) instead.
    x0, u0:
        Operating point of a nonlinear system (see :func:`linear_system`).

    Returns
    -------
    TransferFunction or sympy.Matrix
    """
    if isinstance(system, DescriptorPHS):
        system = system.to_phs()
    if symbolic and isinstance(system, PHS) and system.symbolic:
        # parameters may have no values: stay in SymPy throughout
        return symbolic_transfer(*symbolic_state_space(system, x0, u0, inputs, outputs))
    lin = linear_system(system, x0, u0).select(inputs, outputs)
    tf = TransferFunction(lin)
    return tf.symbolic() if symbolic else tf


def symbolic_transfer(A: sp.Matrix, B: sp.Matrix, C: sp.Matrix, D: sp.Matrix) -> sp.Matrix:
    """:math:`C(sI - A)^{-1}B + D` by a SymPy LU solve, each entry cancelled and factored."""
    n = A.rows
    if n == 0:
        return sp.Matrix(D)
    X = (LAPLACE_S * sp.eye(n) - A).LUsolve(B)
    return (C * X + D).applyfunc(lambda e: sp.factor(sp.cancel(sp.together(e))))


def _pole_error(s: complex) -> ModelError:
    return ModelError(f"s = {s:.6g} is a pole of the system (sI − A is singular): G(s) is "
                      "infinite there; evaluate at another s")


def _eval_dense(lin: LinearSystem, s: np.ndarray) -> np.ndarray:
    A = np.asarray(lin.A, dtype=float)
    B = lin.B.astype(complex)
    n = A.shape[0]
    eye = np.eye(n)
    out = np.empty((s.size, *lin.D.shape), dtype=complex)
    step = max(1, _BATCH_ENTRIES // (n * n))
    for k0 in range(0, s.size, step):
        sk = s[k0:k0 + step]
        M = sk[:, None, None] * eye - A
        try:
            X = np.linalg.solve(M, np.broadcast_to(B, (sk.size, *B.shape)))
        except np.linalg.LinAlgError:
            bad = next(v for v, Mi in zip(sk, M, strict=True) if np.linalg.matrix_rank(Mi) < n)
            raise _pole_error(bad) from None
        out[k0:k0 + step] = lin.C @ X + lin.D
    return out


def _eval_sparse(lin: LinearSystem, s: np.ndarray) -> np.ndarray:
    A = sps.csc_array(lin.A, dtype=complex)
    eye = sps.identity(A.shape[0], dtype=complex, format="csc")
    B = lin.B.astype(complex)
    out = np.empty((s.size, *lin.D.shape), dtype=complex)
    for k, sk in enumerate(s):
        try:
            lu = spsla.splu(sps.csc_array(sk * eye - A))
        except RuntimeError:  # "Factor is exactly singular"
            raise _pole_error(sk) from None
        out[k] = lin.C @ lu.solve(B) + lin.D
    return out
