r"""The numeric system of a geometrically exact beam, with fused evaluations.

Both beams (:mod:`.planar_beam`, :mod:`.spatial_beam`) are explicit PHS with a
quadratic, diagonal Hamiltonian :math:`H = \tfrac12\sum_i q_i x_i^2`, constant
:math:`R`, :math:`P`, :math:`S` and a structure affine in the state,
:math:`J(x) = J_0 + \sum_k x_k J_k`, :math:`G(x) = G_0 + \sum_k x_k G_k`
(:class:`~porthamiltonian.compiled.affine.AffineMatrix`).  Joining the two into one
affine matrix :math:`K(x) = [\,J(x) - R,\ G(x) - P\,]` acting on :math:`w = (Qx, u)`,

.. math::
    \dot x = K(x)\,w,\qquad K(x)_{ij} = d_{0,p} + \sum_{s \in p} c_s\,x_{k_s}
    \quad(p\text{: the stored entry }(i, j)),

is one pass over the fixed pattern of :math:`K` in which every entry is formed on the
fly — a fused Numba kernel (:func:`porthamiltonian.jit.njit`; without Numba the same
product as two SciPy sparse mat-vecs, equal to round-off).  The Jacobian of the step,

.. math::
    \partial_x\dot x = K(x)_{:, :n}\,Q + \partial_x\big(K(x)w\big)\big|_{w},\qquad
    \partial_x\big(K(x)w\big)_{ik} = \sum_{(i, j, k, c)} c\,w_j,

is scattered into a CSC pattern fixed once (so SuperLU gets it without a format
conversion), and the port quantities :math:`y = (G(x) + P)^\top Qx + (M + S)u`,
:math:`u^\top y` and :math:`d = z^\top R z + 2z^\top P u + u^\top S u` skip the sparse
matrix sums of the generic :class:`~porthamiltonian.compiled.NumericPHS`.  What is
computed is unchanged: the step equations of the implicit midpoint rule, and with them
its exact energy balance for the quadratic :math:`H`, are those of the plain
:class:`~porthamiltonian.functional.FunctionPHS`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import scipy.sparse as sps

from .. import jit
from ..compiled import NumericPHS
from ..compiled.affine import AffineMatrix
from ..compiled.numeric import PowerBalance
from ..functional import FunctionPHS
from .beam_step import _affine_matvec

__all__ = ["BeamPHS", "BeamNumeric"]


class BeamPHS(FunctionPHS):
    """A :class:`~porthamiltonian.functional.FunctionPHS` with affine ``J(x)``, ``G(x)``,
    constant ``R``, ``P``, ``S`` and :math:`H = \\tfrac12\\sum_i q_i x_i^2` (``q`` in the
    units of the co-energy per state); it compiles to a :class:`BeamNumeric`."""

    def __init__(self, J: AffineMatrix, R: Any, G: AffineMatrix, P: Any, S: Any,
                 q: np.ndarray, *, states: Sequence[str], inputs: Sequence[str],
                 outputs: Sequence[str]) -> None:
        q = np.asarray(q, dtype=float)
        Q = sps.diags_array(q).tocsr()
        super().__init__(J=J, R=R, G=G, P=P, S=S, energy=lambda x: 0.5 * float(x @ (q * x)),
                         gradient=lambda x: q * x, hessian=lambda x: Q, degree=2,
                         states=states, inputs=inputs, outputs=outputs)
        self.q = q

    def compile(self) -> NumericPHS:
        """The fused numeric interface (built once)."""
        if self._numeric is None:
            self._numeric = BeamNumeric(self)
        return self._numeric


def _pattern(A: AffineMatrix) -> tuple[np.ndarray, ...]:
    """``(rows, cols, d0, T)`` of ``A``: its fixed CSR pattern (row-major, sorted), the
    constant part on it and ``T`` (pattern entries × states, CSR) with data = d0 + T x."""
    ncol = A.shape[1]
    r, c, k, v = A.entries
    A0 = A.constant.tocoo()
    keys0 = A0.row.astype(np.int64) * ncol + A0.col
    keys = np.unique(np.concatenate([keys0, r * ncol + c]))
    d0 = np.zeros(keys.size)
    np.add.at(d0, np.searchsorted(keys, keys0), A0.data)
    T = sps.csr_array((v, (np.searchsorted(keys, r * ncol + c), k)),
                      shape=(keys.size, A.n_states))
    T.sort_indices()
    return keys // ncol, keys % ncol, d0, T


class BeamNumeric(NumericPHS):
    """Numeric interface of a :class:`BeamPHS` (module docstring): the
    :class:`~porthamiltonian.compiled.NumericPHS` contract with fused ``rhs``,
    ``jacobian``, ``output``, ``power_balance`` and ``port_powers``."""

    #: H = ½ xᵀQx: the midpoint rule balances it exactly (``method="auto"`` reads this)
    quadratic_energy = True

    def __init__(self, system: BeamPHS) -> None:
        n, m = system.n_states, system.n_inputs
        super().__init__(n, m)
        q = self.q = system.q
        const = dict(system.matrices())
        Jx, Gx = system.J, system.G
        if not isinstance(Jx, AffineMatrix):
            Jx = AffineMatrix(Jx, [], [], [], [], n_states=n)
        if not isinstance(Gx, AffineMatrix):
            Gx = AffineMatrix(sps.csr_array(Gx) if m else sps.csr_array((n, 0)),
                              [], [], [], [], n_states=n)
        self._mats = {"J": Jx, "G": Gx}
        self._const = {k: const[k] for k in ("R", "P", "M", "S")}
        Q = sps.diags_array(q).tocsr()
        self._H = lambda x: 0.5 * float(x @ (q * x))
        self._grad = lambda x: q * x
        self._hess = lambda x: Q
        R, P = (sps.csr_array(const[k]) for k in ("R", "P"))
        self._R = R if R.count_nonzero() else None
        self._P = P if P.count_nonzero() else None
        MS = sps.csr_array(const["M"]) + sps.csr_array(const["S"])
        self._MS = MS.toarray() if MS.count_nonzero() else None
        S = sps.csr_array(const["S"])
        self._S = S.toarray() if S.count_nonzero() else None
        # K(x) = [J(x) − R, G(x) − P] on w = (Qx, u): one affine matrix
        Jr, Jc, Jk, Jv = Jx.entries
        Gr, Gc, Gk, Gv = Gx.entries
        K0 = sps.hstack([sps.csr_array(Jx.constant) - R, sps.csr_array(Gx.constant) - P])
        K = AffineMatrix(K0, np.concatenate([Jr, Gr]), np.concatenate([Jc, Gc + n]),
                         np.concatenate([Jk, Gk]), np.concatenate([Jv, Gv]), n_states=n)
        self._K_entries = K.entries
        rows, cols, d0, T = _pattern(K)
        indptr = np.searchsorted(rows, np.arange(n + 1))
        # where the G columns start in each row (the pattern is sorted row-major)
        split = np.searchsorted(rows * (n + m) + cols, np.arange(n) * (n + m) + n)
        self._T, self._indptr, self._indices = T, indptr, cols
        # the kernel's constants in two arrays (each argument costs a Numba dispatch):
        # ints = [indptr (n+1) | split (n) | cols (nnz) | T.indptr (nnz+1) | T.indices],
        # reals = [d0 (nnz) | T.data]
        self._ints = np.concatenate([indptr, split, cols, T.indptr, T.indices]).astype(np.int64)
        self._reals = np.concatenate([d0, T.data]).astype(float)
        self._d0 = d0
        self._w = np.zeros(n + m)
        self._jacobian_pattern(K, rows, cols)
        self._G_pattern = _pattern(Gx)
        self._compiled = jit.enabled()

    # -- the fused evaluations -------------------------------------------------------
    def _jacobian_pattern(self, K: AffineMatrix, rows: np.ndarray, cols: np.ndarray) -> None:
        """CSC pattern of ∂ẋ/∂x and where each term lands in it (module docstring)."""
        n = self.n
        inner = cols < n  # entries of K acting on Qx
        r, c, k, v = K.entries
        keys_a = cols[inner] * n + rows[inner]  # column-major keys: CSC order
        keys_b = k * n + r
        keys = np.unique(np.concatenate([keys_a, keys_b]))
        self._jac_inner = inner
        self._jac_qcol = self.q[cols[inner]]
        self._jac_a = np.searchsorted(keys, keys_a)
        self._jac_b = np.searchsorted(keys, keys_b)
        self._jac_coef, self._jac_wcol = v, c
        self._jac_indices = (keys % n).astype(np.int32)
        self._jac_indptr = np.searchsorted(keys // n, np.arange(n + 1)).astype(np.int32)

    def _data(self, x: np.ndarray) -> np.ndarray:
        """The values of K(x) on its pattern."""
        return self._d0 + self._T @ x

    def rhs(self, x: np.ndarray, u: Any = None) -> np.ndarray:
        """``ẋ = (J(x) − R)∇H + (G(x) − P)u``."""
        x = np.asarray(x, dtype=float)
        w = self._w
        np.multiply(self.q, x, out=w[:self.n])
        if self.m:
            w[self.n:] = self._u(u)
        out = np.empty(self.n)
        if self._compiled:
            _affine_matvec(self._ints, self._reals, x, w, out)
        else:
            K = sps.csr_array((self._data(x), self._indices, self._indptr),
                              shape=(self.n, self.n + self.m))
            out[:] = K @ w
        return out

    def jacobian(self, x: np.ndarray, u: Any = None) -> sps.csc_array:
        r"""Sparse :math:`\partial\dot x/\partial x` (CSC, module docstring)."""
        x = np.asarray(x, dtype=float)
        w = np.concatenate([self.q * x, self._u(u)])
        size = self._jac_indices.size
        data = np.bincount(self._jac_a, self._data(x)[self._jac_inner] * self._jac_qcol,
                           minlength=size)
        data += np.bincount(self._jac_b, self._jac_coef * w[self._jac_wcol], minlength=size)
        return sps.csc_array((data, self._jac_indices, self._jac_indptr),
                             shape=(self.n, self.n))

    def _GPt(self, x: np.ndarray, z: np.ndarray) -> np.ndarray:
        """:math:`(G(x) + P)^\\top z`."""
        rows, cols, d0, T = self._G_pattern
        y = np.bincount(cols, (d0 + T @ x) * z[rows], minlength=self.m)
        if self._P is not None:
            y += self._P.T @ z
        return y

    def output(self, x: np.ndarray, u: Any = None) -> np.ndarray:
        """``y = (G(x) + P)ᵀ∇H + (M + S)u``."""
        x = np.asarray(x, dtype=float)
        y = self._GPt(x, self.q * x)
        if self._MS is not None:
            y += self._MS @ self._u(u)
        return y

    def port_powers(self, x: np.ndarray, z: np.ndarray, u: np.ndarray) -> tuple[float, float]:
        """``(uᵀy, d)`` in W at state ``x`` (for the matrices) with effort ``z``."""
        dissipated = float(z @ (self._R @ z)) if self._R is not None else 0.0
        if not self.m:
            return 0.0, dissipated
        y = self._GPt(x, z)
        if self._MS is not None:
            y += self._MS @ u
        if self._P is not None:
            dissipated += 2.0 * float(z @ (self._P @ u))
        if self._S is not None:
            dissipated += float(u @ (self._S @ u))
        return float(u @ y), dissipated

    def fused_midpoint(self, base: Any, problem: Any, options: Any) -> Any:
        """The compiled midpoint step of this model (:mod:`.beam_step`), or ``None``
        when it does not apply (see :meth:`.beam_step.FusedBeamMidpoint.create`)."""
        from .beam_step import FusedBeamMidpoint

        return FusedBeamMidpoint.create(base, self, problem, options)

    def power_balance(self, x: np.ndarray, u: Any = None) -> PowerBalance:
        """Stored, supplied and dissipated power at ``(x, u)``."""
        x = np.asarray(x, dtype=float)
        u = self._u(u)
        z = self.q * x
        supplied, dissipated = self.port_powers(x, z, u)
        return PowerBalance(float(z @ self.rhs(x, u)), supplied, dissipated)
