r"""Compiled sparse steps for separable Hamiltonians: AVF (and midpoint) substeps, their
symmetric compositions, simplified Newton with sparse LU factors, and the bookkeeping.

The model comes in as the law functions ``fns = (avf, grad, energies, curv)`` of
:mod:`.laws` with their term layout ``(idx, starts, par)``, and the constant structure as
CSR arrays ``mats = (J−R, G−P, R, G+P, P: three arrays each; M+S, S dense; J−R by
diagonals when it has few: offsets, values)``.  A step of size :math:`h` is the
composition of substeps of sizes :math:`\gamma_i h`
(:mod:`..ode.composition`; one substep :math:`\gamma = (1)` for AVF or midpoint); each
solves

.. math::

    F(\delta) = \delta - \gamma_i h\,\big[(J-R)\,z(x, \delta) + (G-P)\,u_i\big] = 0,

:math:`z` the AVF discrete gradient (state by state, :mod:`.laws`) or :math:`\nabla
H(x + \delta/2)` (midpoint), by simplified Newton with the frozen matrix
:math:`I - \tfrac{\gamma_i h}{2}(J-R)\,\mathrm{diag}(h''(x_\mathrm{ref}))`, factored by
SuperLU in Python (:func:`porthamiltonian._matrices.sparse_lu`) and applied here by the
triangular solves of its factors (CSR rows) with the row and column permutations
(:math:`P_r A P_c = LU`) — or, for a substep that is not stiff, with the Neumann series
of :math:`(I - \gamma_i h(J-R)\,\mathrm{diag}(d))^{-1}`, :math:`d` the derivative of
the discrete gradient at Newton's guess (:func:`neumann`).  Newton stops as
:mod:`..linalg.newton` does: iterate to the round-off floor, then accept on the
residual.  A slow convergence (≥ ``slow_after`` iterations) or a failure returns to
Python, which refactors at the current state (:mod:`.separable`).

Bookkeeping per substep, in J: supplied :math:`\gamma_i h\,u^\top\bar y`, dissipated
:math:`\gamma_i h(z^\top Rz + 2z^\top Pu + u^\top Su)` and the residual :math:`\Delta H
- (\text{supplied} - \text{dissipated})` with :math:`\Delta H = \sum_k h(x_{1,k}) -
h(x_{0,k})` (a sum of differences: no cancellation of two large totals); a step's row
is the sum over its substeps.
"""
from __future__ import annotations

import math
from typing import Any

import numpy as np

from ...jit import njit
from .stopping import at_floor, residual_accepted

MIDPOINT, AVF = 0, 2
#: status of a block: all steps done / refactor, then go on / the step failed
OK, REFACTOR, FAILED = 0, 1, 2
_TINY = 1e-300


@njit(fastmath={"reassoc", "nnan", "ninf", "nsz"})
def _largest(v: np.ndarray) -> float:
    """max |v_i| for finite v (vectorized: the relaxations only let the compiler reorder
    an exact maximum)."""
    m = 0.0
    for i in range(v.size):
        m = max(m, abs(v[i]))
    return m


@njit(fastmath={"reassoc"})
def _total(v: np.ndarray) -> float:
    """Σ|v_i|: finite exactly when every v_i is (short of overflow), vectorized."""
    s = 0.0
    for i in range(v.size):
        s += abs(v[i])
    return s


@njit
def max_abs(v: np.ndarray) -> float:
    """max |v_i|, or NaN when some v_i is not finite."""
    if not math.isfinite(_total(v)):
        return np.nan
    return _largest(v)


@njit
def csr_add(ptr: np.ndarray, idx: np.ndarray, val: np.ndarray, v: np.ndarray, c: float,
            out: np.ndarray) -> None:
    """out += c A v (A in CSR)."""
    for i in range(ptr.size - 1):
        s = 0.0
        for q in range(ptr[i], ptr[i + 1]):
            s += val[q] * v[idx[q]]
        out[i] += c * s


@njit
def csr_t_add(ptr: np.ndarray, idx: np.ndarray, val: np.ndarray, v: np.ndarray,
              out: np.ndarray) -> None:
    """out += Aᵀ v (A in CSR)."""
    for i in range(ptr.size - 1):
        vi = v[i]
        for q in range(ptr[i], ptr[i + 1]):
            out[idx[q]] += val[q] * vi


def split_lu(lu: Any, n: int) -> tuple[list[tuple[np.ndarray, ...]], np.ndarray]:
    """SuperLU factors ``lu`` of an n × n matrix in the layout :func:`lu_solve` takes:
    ``[(ptr, columns, values, 1/diagonal) of L, the same of U]`` — strictly triangular
    CSR with ascending columns — and the inverse of ``perm_r``."""
    import scipy.sparse as sps

    parts = []
    for T in (lu.L, lu.U):
        T = sps.csr_matrix(T)
        T.sort_indices()  # ascending columns (the reaction steps' refactorization needs it)
        rows = np.repeat(np.arange(n), np.diff(T.indptr))
        diag = T.indices == rows
        inv = np.empty(n)
        inv[rows[diag]] = 1.0 / T.data[diag]
        keep = ~diag
        ptr = np.concatenate([[0], np.cumsum(np.bincount(rows[keep], minlength=n))])
        parts.append((ptr.astype(np.int64), T.indices[keep].astype(np.int64),
                      np.ascontiguousarray(T.data[keep], dtype=float), inv))
    ipr = np.empty(n, dtype=np.int64)
    ipr[lu.perm_r] = np.arange(n)
    return parts, ipr


@njit
def lu_solve(fac: tuple, f: int, b: np.ndarray, y: np.ndarray) -> None:
    """b ← A⁻¹ b with factor ``f`` of ``fac`` = (L ptr, L columns, L values, 1/diag L,
    U ptr, U columns, U values, 1/diag U, inverse perm_r, perm_c), one row per factor;
    L, U strictly triangular in CSR (their diagonals apart).  With P_r A P_c = LU:
    y = P_r b (y[i] = b[iperm_r[i]]), L U y' = y by rows (gathers, no scatter), b =
    y'[perm_c]."""
    lp, li, lv, ld, up, ui, uv, ud, ipr, pc = fac
    lpf, lif, lvf, ldf = lp[f], li[f], lv[f], ld[f]
    upf, uif, uvf, udf = up[f], ui[f], uv[f], ud[f]
    iprf, pcf = ipr[f], pc[f]
    n = b.size
    for i in range(n):
        acc = b[iprf[i]]
        for q in range(lpf[i], lpf[i + 1]):
            acc -= lvf[q] * y[lif[q]]
        y[i] = acc * ldf[i]
    for i in range(n - 1, -1, -1):
        acc = y[i]
        for q in range(upf[i], upf[i + 1]):
            acc -= uvf[q] * y[uif[q]]
        y[i] = acc * udf[i]
    for i in range(n):
        b[i] = y[pcf[i]]


@njit
def dia_add(off: np.ndarray, data: np.ndarray, v: np.ndarray, out: np.ndarray) -> None:
    """out += A v, A by diagonals: data[d, i] = A[i, i + off[d]] (a chain's or a ladder's
    structure has a handful of diagonals; on slices the loops vectorize, 4× faster than
    indexing v[i + o])."""
    n = out.size
    for d in range(off.size):
        o = off[d]
        lo, hi = max(0, -o), min(n, n - o)
        row, vv, oo = data[d, lo:hi], v[lo + o:hi + o], out[lo:hi]
        for i in range(hi - lo):
            oo[i] += row[i] * vv[i]


@njit
def effort(fns: tuple, kind: int, x: np.ndarray, w: np.ndarray, lay: tuple,
           z: np.ndarray, xm: np.ndarray) -> None:
    """z = the AVF discrete gradient at (x, x + w), or ∇H(x + w/2) (midpoint)."""
    avf, grad, energies, curv = fns
    idx, starts, par = lay
    if kind == AVF:
        avf(x, w, idx, starts, par, z)
    else:
        for i in range(x.size):
            xm[i] = x[i] + 0.5 * w[i]
        grad(xm, idx, starts, par, z)


@njit
def field(mats: tuple, z: np.ndarray, u: np.ndarray, f: np.ndarray) -> None:
    """f = (J − R) z + (G − P) u."""
    f[:] = 0.0
    if mats[17].size:
        dia_add(mats[17], mats[18], z, f)
    else:
        csr_add(mats[0], mats[1], mats[2], z, 1.0, f)
    if u.size:
        csr_add(mats[3], mats[4], mats[5], u, 1.0, f)


@njit
def residual(fns: tuple, kind: int, x: np.ndarray, w: np.ndarray, hs: float, u: np.ndarray,
             lay: tuple, mats: tuple, r: np.ndarray, z: np.ndarray, f: np.ndarray,
             xm: np.ndarray) -> None:
    """r = F(w); leaves the effort in z."""
    effort(fns, kind, x, w, lay, z, xm)
    field(mats, z, u, f)
    for i in range(x.size):
        r[i] = w[i] - hs * f[i]


@njit
def neumann(mats: tuple, hs: float, dvec: np.ndarray, terms: int, r: np.ndarray,
            t: np.ndarray, f: np.ndarray) -> None:
    r"""r ← :math:`\sum_{j=0}^{K}(h_sM)^j r` with :math:`M = (J-R)\,\mathrm{diag}(d)`:
    the inverse of the step matrix :math:`I - h_sM` to :math:`O(\|h_sM\|^{K+1})`.  For
    a non-stiff step (:math:`\|h_sM\| \lesssim 0.3`) a few sparse products cost less
    than the two triangular solves, which are a chain of dependent operations; and
    :math:`d` is taken at the guess of this substep, never stale."""
    t[:] = r
    for _ in range(terms):
        for i in range(t.size):
            t[i] *= dvec[i]
        field(mats, t, np.zeros(0), f)
        for i in range(t.size):
            t[i] = hs * f[i]
            r[i] += t[i]


@njit
def newton(fns: tuple, kind: int, x: np.ndarray, w: np.ndarray, hs: float, u: np.ndarray,
           lay: tuple, mats: tuple, fac: tuple, which: int, terms: int, dvec: np.ndarray,
           tol: float, max_iter: int, counts: np.ndarray, r: np.ndarray, z: np.ndarray,
           f: np.ndarray, xm: np.ndarray, y: np.ndarray, scale: float) -> int:
    """Simplified Newton on F(w) = 0 in place from the guess ``w`` with factor ``which``
    (``terms`` = 0) or with ``terms`` terms of the Neumann series of the step matrix
    (:func:`neumann`); the iterations it took, or −1 when it fails.  The test of
    :mod:`..linalg.newton`:
    down to the round-off floor, then the residual must be small (it leaves the effort
    at the solution in ``z``)."""
    # the size of the state and of the increment set the floor of the test: taken once
    # (from the step's start and the guess), not per iteration — they are scales
    bound = scale + max_abs(w) + _TINY
    prev = np.inf
    for k in range(1, max_iter + 1):
        residual(fns, kind, x, w, hs, u, lay, mats, r, z, f, xm)
        counts[1] += 1
        if terms:
            neumann(mats, hs, dvec, terms, r, y, f)
        else:
            lu_solve(fac, which, r, y)
        for i in range(w.size):
            w[i] -= r[i]
        size = max_abs(r)  # NaN in r (a NaN residual too) shows here
        counts[0] += 1
        if not math.isfinite(size):
            return -1
        # at the round-off floor or stagnating.  Not earlier: stopping when the predicted
        # rest ρ/(1 − ρ)·size of the iteration is below the floor saves a solve, but the
        # rest has one sign step after step and H then drifts (1e-12 in 10⁴ avf6 steps)
        if at_floor(size, prev, bound, tol):
            residual(fns, kind, x, w, hs, u, lay, mats, r, z, f, xm)
            counts[1] += 1
            if residual_accepted(max_abs(r), max_abs(w), bound, tol):
                return k
        if k > 3 and size > prev:
            return -1
        prev = size
    return -1


@njit
def port_powers(mats: tuple, z: np.ndarray, u: np.ndarray, y: np.ndarray,
                tmp: np.ndarray) -> tuple:
    """(uᵀy, d) in W with y = (G+P)ᵀz + (M+S)u (written into y) and
    d = zᵀRz + 2zᵀPu + uᵀSu."""
    d = 0.0
    if mats[8].size:  # a lossless model has no R to apply
        tmp[:] = 0.0
        csr_add(mats[6], mats[7], mats[8], z, 1.0, tmp)
        for i in range(z.size):
            d += z[i] * tmp[i]
    m = u.size
    if m == 0:
        return 0.0, d
    ms, ss = mats[15], mats[16]
    y[:] = 0.0
    csr_t_add(mats[9], mats[10], mats[11], z, y)
    pz = np.zeros(m)
    csr_t_add(mats[12], mats[13], mats[14], z, pz)
    supplied = 0.0
    for a in range(m):
        acc, su = 0.0, 0.0
        for b in range(m):
            acc += ms[a, b] * u[b]
            su += ss[a, b] * u[b]
        y[a] += acc
        supplied += u[a] * y[a]
        d += 2.0 * pz[a] * u[a] + u[a] * su
    return supplied, d


@njit
def extrapolation(depth: int) -> np.ndarray:
    """Row p − 1: the weights of the last p values (newest first) in the polynomial
    extrapolation of degree p − 1 one step on, (−1)^(j) C(p, j+1) (error O(hᵖ))."""
    coef = np.zeros((depth, depth))
    for p in range(1, depth + 1):
        c = 1.0
        for j in range(p):
            c = c * (p - j) / (j + 1)  # C(p, j + 1)
            coef[p - 1, j] = c if j % 2 == 0 else -c
    return coef


@njit
def block(fns: tuple, kind: int, X: np.ndarray, U: np.ndarray, h: float, gam: np.ndarray,
          which: np.ndarray, terms: np.ndarray, lay: tuple, mats: tuple, fac: tuple,
          tol: float, max_iter: int, slow_after: int, W: np.ndarray, counts: np.ndarray,
          hist: np.ndarray, hstate: np.ndarray) -> tuple:
    """Steps of size h from X[0] (substeps γ_i h with inputs U[k, i]) into the rows of X
    and W (supplied, dissipated, residual per step, J).  Newton starts from the
    increments of the same substep in the last steps, extrapolated (``hist``, a ring of
    ``hstate[0]`` known rows, the newest at ``hstate[1]``: the polynomial through them,
    error O(h^(known+2)) in the state), else from the explicit midpoint predictor.
    Returns (steps done, status, substep): status
    ``REFACTOR`` after a step whose Newton was slow in that substep, ``FAILED`` when
    that substep of step ``done`` could not be solved with the current factors."""
    avf, grad, energies, curv = fns
    idx, starts, par = lay
    K, n, s = U.shape[0], X.shape[1], gam.size
    depth = hist.shape[0]
    coef = extrapolation(depth)
    r, z, f, xm, y = np.empty(n), np.empty(n), np.empty(n), np.empty(n), np.empty(n)
    e0, e1, xc, w, tmp = np.empty(n), np.empty(n), np.empty(n), np.empty(n), np.empty(n)
    dvec = np.empty(n)
    yout = np.empty(U.shape[2])
    new = np.empty((s, n))
    for k in range(K):
        xc[:] = X[k]
        scale = max_abs(xc)
        energies(xc, idx, starts, par, e0)
        sup = dis = res = 0.0
        slow = -1
        for i in range(s):
            hs = gam[i] * h
            u = U[k, i]
            known = hstate[0]
            if known > 0:  # the polynomial through the last `known` increments
                w[:] = 0.0
                for j in range(known):
                    c = coef[known - 1, j]
                    row = hist[(hstate[1] - j) % depth, i]
                    for q in range(n):
                        w[q] += c * row[q]
            else:  # h f(x + (h/2) f(x)): error O(h³)
                grad(xc, idx, starts, par, z)
                field(mats, z, u, f)
                for q in range(n):
                    xm[q] = xc[q] + 0.5 * hs * f[q]
                grad(xm, idx, starts, par, z)
                field(mats, z, u, f)
                for q in range(n):
                    w[q] = hs * f[q]
            if terms[i]:
                # d = ∂z/∂w of the guess: ∫₀¹ s h''(x + s w) ds ≈ h''(x + 2w/3)/2 (AVF),
                # h''(x + w/2)/2 (midpoint), exact to O(w²): Newton's contraction is then
                # the Neumann truncation, not a Jacobian taken at the substep's start
                a = 2.0 / 3.0 if kind == AVF else 0.5
                for q in range(n):
                    xm[q] = xc[q] + a * w[q]
                curv(xm, idx, starts, par, dvec)
                for q in range(n):
                    dvec[q] *= 0.5
            it = newton(fns, kind, xc, w, hs, u, lay, mats, fac, which[i], terms[i], dvec,
                        tol, max_iter, counts, r, z, f, xm, y, scale)
            if it < 0:
                return k, FAILED, i
            if it >= slow_after and slow < 0:
                slow = i
            pin, pd = port_powers(mats, z, u, yout, tmp)  # z: the effort at the solution
            dh = 0.0
            for q in range(n):
                xc[q] += w[q]
            energies(xc, idx, starts, par, e1)
            for q in range(n):
                dh += e1[q] - e0[q]
                e0[q] = e1[q]
            sup += hs * pin
            dis += hs * pd
            res += dh - hs * (pin - pd)
            new[i] = w
        X[k + 1] = xc
        W[k, 0], W[k, 1], W[k, 2] = sup, dis, res
        hstate[1] = (hstate[1] + 1) % depth
        hist[hstate[1]] = new
        hstate[0] = min(hstate[0] + 1, depth)
        if slow >= 0:
            return k + 1, REFACTOR, slow
    return K, OK, 0


@njit
def points(fns: tuple, X: np.ndarray, U: np.ndarray, lay: tuple, mats: tuple, Y: np.ndarray,
           H: np.ndarray, stored: np.ndarray, supplied: np.ndarray,
           dissipated: np.ndarray) -> None:
    r"""Outputs, energy :math:`H`, stored power :math:`z^\top\dot x`, supplied and
    dissipated power of the rows of X with inputs U, :math:`z = \nabla H(x)` (the
    formulas of ``NumericPHS.power_balance``)."""
    avf, grad, energies, curv = fns
    idx, starts, par = lay
    n = X.shape[1]
    z, f, e, tmp = np.empty(n), np.empty(n), np.empty(n), np.empty(n)
    for k in range(X.shape[0]):
        x, u = X[k], U[k]
        grad(x, idx, starts, par, z)
        energies(x, idx, starts, par, e)
        H[k] = e.sum()
        field(mats, z, u, f)
        acc = 0.0
        for i in range(n):
            acc += z[i] * f[i]
        stored[k] = acc
        supplied[k], dissipated[k] = port_powers(mats, z, u, Y[k], tmp)
