r"""Sparse matrices affine in the state: :math:`A(x) = A_0 + \sum_k x_k A_k`.

Modulated Dirac structures of mechanics (the strain–velocity couplings of a
geometrically exact beam, the :math:`p\wedge\omega` gyroscopic terms) have an
interconnection matrix :math:`J(x)` and an input matrix :math:`G(x)` whose entries are
linear in the state.  :class:`AffineMatrix` stores them as a constant sparse part and a
list of entries :math:`(i, j, k, c)` meaning :math:`A_{ij}(x) \mathrel{+}= c\,x_k`, and
evaluates

* :math:`A(x)` as a CSR matrix of fixed pattern, ``data = d_0 + T x`` (one sparse
  matrix–vector product; no re-sorting per call);
* the derivative of the product with a vector,
  :math:`\partial_x\big(A(x)\,z\big)_{ik} = \sum_{(i,j,k,c)} c\,z_j` — the term Newton
  needs besides :math:`A(x)\,\partial_x z` (e.g. :math:`\partial_x[J(x)\nabla H(x)]
  = J(x)\nabla^2 H(x) + \partial_x(J(x)z)|_{z=\nabla H}`), sparse.

Skew symmetry of :math:`J(x)` for every ``x`` means :math:`A_0` and every
:math:`A_k` skew; :meth:`AffineMatrix.check_skew` verifies it on the entry list.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sps

from ..errors import ModelError

__all__ = ["AffineMatrix"]


class AffineMatrix:
    r"""A sparse matrix :math:`A(x) = A_0 + \sum_k x_k A_k` (module docstring).

    Parameters
    ----------
    constant:
        :math:`A_0`, shape ``(rows, cols)`` (dense or sparse).
    rows, cols, states, coefs:
        Equal-length arrays of entries: :math:`A_{\mathrm{rows}[e],\mathrm{cols}[e]}
        \mathrel{+}= \mathrm{coefs}[e]\,x_{\mathrm{states}[e]}`; repeated entries add up.
    n_states:
        Length of the state vector ``x``.
    """

    def __init__(self, constant: Any, rows: Any, cols: Any, states: Any, coefs: Any,
                 n_states: int) -> None:
        A0 = sps.csr_array(constant)
        self.shape: tuple[int, int] = (int(A0.shape[0]), int(A0.shape[1]))
        self.n_states = int(n_states)
        r, c, k = (np.asarray(a, dtype=np.int64).ravel() for a in (rows, cols, states))
        v = np.asarray(coefs, dtype=float).ravel()
        if not (r.size == c.size == k.size == v.size):
            raise ModelError("AffineMatrix: rows, cols, states and coefs must have equal length")
        nr, nc = self.shape
        for name, a, top in (("rows", r, nr), ("cols", c, nc), ("states", k, self.n_states)):
            if a.size and (a.min() < 0 or a.max() >= top):
                raise ModelError(f"AffineMatrix: an entry of {name} is outside 0 … {top - 1}")
        if not np.all(np.isfinite(v)):
            raise ModelError("AffineMatrix: coefs must be finite")
        self.constant = A0
        self.entries = (r, c, k, v)
        # the fixed CSR pattern: union of A0's and the modulated entries
        A0c = A0.tocoo()
        keys0 = A0c.row.astype(np.int64) * nc + A0c.col
        keys = np.unique(np.concatenate([keys0, r * nc + c]))
        self._prow, self._pcol = keys // nc, keys % nc
        self._indptr = np.searchsorted(self._prow, np.arange(nr + 1)).astype(np.int64)
        self._indices = self._pcol.astype(np.int64)
        self._d0 = np.zeros(keys.size)
        np.add.at(self._d0, np.searchsorted(keys, keys0), A0c.data)
        pos = np.searchsorted(keys, r * nc + c)
        self._T = sps.csr_array((v, (pos, k)), shape=(keys.size, self.n_states))

    @property
    def nnz(self) -> int:
        """Number of stored entries of :math:`A(x)` (the fixed pattern)."""
        return int(self._d0.size)

    def __call__(self, x: Any) -> sps.csr_array:
        """:math:`A(x)`, a CSR matrix (its pattern is the same for every ``x``)."""
        data = self._d0 + self._T @ np.asarray(x, dtype=float)
        return sps.csr_array((data, self._indices, self._indptr), shape=self.shape)

    def derivative(self, z: Any) -> sps.csr_array:
        r""":math:`\partial_x (A(x) z)` for a fixed vector ``z`` (shape ``(rows, n_states)``).

        Independent of ``x`` because :math:`A` is affine in it.
        """
        r, c, k, v = self.entries
        z = np.asarray(z, dtype=float)
        return sps.csr_array((v * z[c], (r, k)), shape=(self.shape[0], self.n_states))

    def check_skew(self, name: str = "J", tol: float = 0.0) -> None:
        """Raise :class:`ModelError` unless :math:`A_0` and every :math:`A_k` are skew."""
        if self.shape[0] != self.shape[1]:
            raise ModelError(f"{name}(x) must be square, got shape {self.shape}")
        A0 = self.constant
        asym = (A0 + A0.T).data
        if asym.size and np.max(np.abs(asym)) > tol * max(1.0, np.max(np.abs(A0.data))):
            raise ModelError(f"{name}(x): the constant part is not skew-symmetric")
        r, c, k, v = self.entries
        n, ns = self.shape[0], self.n_states
        # A_k + A_kᵀ = 0 for all k: the entries and their transposes cancel per (i, j, k)
        keys = np.concatenate([(r * n + c) * ns + k, (c * n + r) * ns + k])
        uniq, inv = np.unique(keys, return_inverse=True)
        total = np.bincount(inv, weights=np.concatenate([v, v]), minlength=uniq.size)
        scale = max(1.0, float(np.max(np.abs(v), initial=0.0)))
        bad = np.abs(total) > tol * scale
        if np.any(bad):
            key = int(uniq[np.argmax(bad)])
            i, j, kk = key // ns // n, key // ns % n, key % ns
            raise ModelError(f"{name}(x) is not skew-symmetric: the coefficient of x[{kk}] in "
                             f"entry ({i}, {j}) is not minus that in ({j}, {i})")
