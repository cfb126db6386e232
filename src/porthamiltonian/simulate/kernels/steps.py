r"""The compiled steps: implicit midpoint, discrete gradients (Gonzalez, AVF) and
Gauss–Legendre collocation, with their Newton iteration, LU and energy bookkeeping,
written over scalars and small dense arrays so that Numba compiles them.

The steps do not depend on the model: its functions come in as the tuple ``fns`` of
first-class function values — ``(ham, grad, hess, jr, gmp, ports, jacf)`` of fixed
signatures (:mod:`.codegen`, :mod:`.build`), ``p`` the parameter vector — so they are
compiled once per machine and cached, and a block of steps makes no Python call.
Scratch arrays are allocated once per block and passed down as the workspace ``ws``
(:func:`workspace`): allocations, not arithmetic, dominate a small model's step.

The equations are those of :mod:`..ode.midpoint`, :mod:`..ode.discrete_gradient` and
:mod:`..ode.gauss` (same predictor, Newton test and bookkeeping), so both engines give
the same trajectories to round-off:

- midpoint: :math:`F(\delta) = \delta - h f(x + \delta/2, u_{k+1/2})`;
- Gonzalez / AVF: :math:`F(\delta) = \delta - h[(J-R)(\bar x)\bar\nabla H + (G-P)(\bar
  x)u]` with the discrete gradient :math:`\bar\nabla H(x, x+\delta)` (Gonzalez 1996;
  Quispel & McLaren 2008);
- Gauss: :math:`F(K)_i = K_i - f(x + h\sum_j a_{ij}K_j, u_i)`.

Newton is *simplified* across steps (Hairer & Wanner, *Solving ODEs II*, §IV.8): the
step matrix factored at an earlier step of the same size is reused, iterating down to
the round-off floor and accepting on the residual; a fresh factorization, then full
Newton, when that fails.  Each step ends with :math:`W = (h u^\top\bar y,\ h\bar d,\
\Delta H - h u^\top \bar y + h\bar d)` in joules.
"""
from __future__ import annotations

import math

import numpy as np

from ...jit import njit
from .stopping import at_floor, full_converged, residual_accepted

MIDPOINT, GONZALEZ, AVF, GAUSS = 0, 1, 2, 3
#: status codes of a step
OK, NEWTON_FAILED = 0, 1
_TINY = 1e-300


# -- dense linear algebra ------------------------------------------------------------------
@njit
def lu_factor(a: np.ndarray, piv: np.ndarray) -> bool:
    """In-place LU with partial pivoting (PA = LU); False when a pivot is zero or not
    finite."""
    n = a.shape[0]
    for k in range(n):
        best, imax = abs(a[k, k]), k
        for i in range(k + 1, n):
            v = abs(a[i, k])
            if v > best:
                best, imax = v, i
        piv[k] = imax
        if not (best > 0.0) or not math.isfinite(best):
            return False
        if imax != k:
            for j in range(n):
                a[k, j], a[imax, j] = a[imax, j], a[k, j]
        inv = 1.0 / a[k, k]
        for i in range(k + 1, n):
            a[i, k] *= inv
            f = a[i, k]
            if f != 0.0:
                for j in range(k + 1, n):
                    a[i, j] -= f * a[k, j]
    return True


@njit
def lu_solve(a: np.ndarray, piv: np.ndarray, b: np.ndarray) -> None:
    """Solve in place with the factors of :func:`lu_factor`."""
    n = a.shape[0]
    for k in range(n):
        j = piv[k]
        if j != k:
            b[k], b[j] = b[j], b[k]
    for i in range(n):
        s = b[i]
        for j in range(i):
            s -= a[i, j] * b[j]
        b[i] = s
    for i in range(n - 1, -1, -1):
        s = b[i]
        for j in range(i + 1, n):
            s -= a[i, j] * b[j]
        b[i] = s / a[i, i]


@njit
def matvec_add(a: np.ndarray, v: np.ndarray, out: np.ndarray) -> None:
    """out += a @ v."""
    for i in range(a.shape[0]):
        s = 0.0
        for j in range(a.shape[1]):
            s += a[i, j] * v[j]
        out[i] += s


@njit
def max_abs(v: np.ndarray) -> float:
    m = 0.0
    for i in range(v.size):
        a = abs(v[i])
        if not (a <= m):  # also propagates NaN
            m = a
    return m


@njit
def combine(x: np.ndarray, c: float, d: np.ndarray, out: np.ndarray) -> np.ndarray:
    """out = x + c d (a loop: cheaper to compile than the array expression)."""
    for i in range(x.size):
        out[i] = x[i] + c * d[i]
    return out


@njit
def workspace(n: int, m: int, N: int) -> tuple:
    """Scratch arrays of a step, passed down as four arrays (a tuple argument costs a
    reference count per member at every call): vectors ``V`` (rows of n), matrices ``M``
    (n × n), ``G`` (n × m), vectors ``VN`` of the unknowns (size N).  Rows 0–4 of V
    belong to the discrete gradients, 5–7 to the residual/step matrix/bookkeeping, 8–9
    to the predictor; M[0] to the field, M[1–4] to the step matrix."""
    return np.empty((10, n)), np.empty((5, n, n)), np.empty((n, m)), np.empty((2, N))


# -- the model's vector field ----------------------------------------------------------------
@njit
def field(fns: tuple, x: np.ndarray, z: np.ndarray, u: np.ndarray, p: np.ndarray,
          out: np.ndarray, V: np.ndarray, M: np.ndarray, G: np.ndarray, VN: np.ndarray) -> None:
    """out = (J − R)(x) z + (G − P)(x) u for a given effort z."""
    ham, grad, grad_line, hess, jr, gmp, ports, jacf = fns
    a, g = M[0], G
    jr(x, p, a)
    out[:] = 0.0
    matvec_add(a, z, out)
    if u.size:
        gmp(x, p, g)
        matvec_add(g, u, out)


@njit
def port_powers(fns: tuple, x: np.ndarray, z: np.ndarray, u: np.ndarray, p: np.ndarray,
                y: np.ndarray) -> tuple:
    """(uᵀy, d) in W with the output y = (G+P)ᵀz + (M+S)u (written into ``y``) and the
    dissipation d = zᵀRz + 2zᵀPu + uᵀSu, matrices at x."""
    ham, grad, grad_line, hess, jr, gmp, ports, jacf = fns
    n, m = x.size, u.size
    gpp, ms, rr = np.empty((n, m)), np.empty((m, m)), np.empty((n, n))
    pp, ss = np.empty((n, m)), np.empty((m, m))
    ports(x, p, gpp, ms, rr, pp, ss)
    d = 0.0
    for i in range(n):
        s = 0.0
        for j in range(n):
            s += rr[i, j] * z[j]
        d += z[i] * s
    supplied = 0.0
    for k in range(m):
        yk, pu, su = 0.0, 0.0, 0.0
        for i in range(n):
            yk += gpp[i, k] * z[i]
            pu += pp[i, k] * z[i]
        for j in range(m):
            yk += ms[k, j] * u[j]
            su += ss[k, j] * u[j]
        y[k] = yk
        supplied += u[k] * yk
        d += 2.0 * pu * u[k] + u[k] * su
    return supplied, d


# -- discrete gradients ------------------------------------------------------------------------
@njit
def gonzalez(fns: tuple, x: np.ndarray, d: np.ndarray, p: np.ndarray, qs: np.ndarray,
             qw: np.ndarray, line: np.ndarray, z: np.ndarray, dz: np.ndarray,
             derivative: bool, V: np.ndarray) -> None:
    r"""Gonzalez's discrete gradient z at (x, x + d) and (if asked) ∂z/∂d in dz; the
    energy difference is the quadrature of gradient differences (no cancellation).
    ``line`` = (quadrature nodes, ½, 1): ∇H on the segment in one call."""
    ham, grad, grad_line, hess, jr, gmp, ports, jacf = fns
    n, nq = x.size, qs.size
    gl = np.empty((nq + 2, n))
    grad_line(x, d, line, p, gl)
    g, de = gl[nq], V[4]
    nn = 0.0
    for i in range(n):
        nn += d[i] * d[i]
    if derivative:
        hess(combine(x, 0.5, d, V[0]), p, dz)
    if nn == 0.0:
        z[:] = g
        if derivative:
            for i in range(n):
                for j in range(n):
                    dz[i, j] *= 0.5
        return
    e = 0.0
    for q in range(nq):
        acc = 0.0
        for i in range(n):
            acc += (gl[q, i] - g[i]) * d[i]
        e += qw[q] * acc
    for i in range(n):
        z[i] = g[i] + (e / nn) * d[i]
    if not derivative:
        return
    for i in range(n):
        s = 0.0
        for j in range(n):
            s += dz[i, j] * d[j]
        de[i] = gl[nq + 1, i] - (g[i] + 0.5 * s)
    for i in range(n):
        for j in range(n):
            v = 0.5 * dz[i, j] + (d[i] * de[j] - 2.0 * e * d[i] * d[j] / nn) / nn
            if i == j:
                v += e / nn
            dz[i, j] = v


@njit
def average_vector_field(fns: tuple, x: np.ndarray, d: np.ndarray, p: np.ndarray,
                         qs: np.ndarray, qw: np.ndarray, z: np.ndarray, dz: np.ndarray,
                         derivative: bool, V: np.ndarray, M: np.ndarray) -> None:
    r"""AVF discrete gradient :math:`\int_0^1\nabla H(x + s d)ds` and its derivative
    :math:`\int_0^1 s\nabla^2H(x + sd)ds` by Gauss–Legendre quadrature."""
    ham, grad, grad_line, hess, jr, gmp, ports, jacf = fns
    n, nq = x.size, qs.size
    gl = np.empty((nq, n))
    grad_line(x, d, qs, p, gl)
    z[:] = 0.0
    for q in range(nq):
        for i in range(n):
            z[i] += qw[q] * gl[q, i]
    if derivative:
        xs, hs = V[3], M[0]
        dz[:, :] = 0.0
        for q in range(nq):
            hess(combine(x, qs[q], d, xs), p, hs)
            c = qw[q] * qs[q]
            for i in range(n):
                for j in range(n):
                    dz[i, j] += c * hs[i, j]


@njit
def effort(fns: tuple, kind: int, x: np.ndarray, w: np.ndarray, p: np.ndarray,
           meth: tuple, z: np.ndarray, V: np.ndarray, M: np.ndarray) -> None:
    """The effort of a midpoint-type step: ∇H(x̄) (midpoint, x̄ in V[5]) or the discrete
    gradient."""
    ham, grad, grad_line, hess, jr, gmp, ports, jacf = fns
    qs, qw, ba, bb, line = meth
    if kind == MIDPOINT:
        grad(V[5], p, z)
    elif kind == GONZALEZ:
        gonzalez(fns, x, w, p, qs, qw, line, z, M[4], False, V)
    else:
        average_vector_field(fns, x, w, p, qs, qw, z, M[4], False, V, M)


@njit
def stage_state(x: np.ndarray, w: np.ndarray, h: float, ba: np.ndarray, i: int,
                out: np.ndarray) -> np.ndarray:
    """Gauss stage state X_i = x + h Σ_j a_ij K_j (K stacked in w)."""
    n, s = x.size, ba.shape[0]
    for k in range(n):
        acc = 0.0
        for j in range(s):
            acc += ba[i, j] * w[j * n + k]
        out[k] = x[k] + h * acc
    return out


# -- step equations ----------------------------------------------------------------------------
@njit
def residual(fns: tuple, kind: int, x: np.ndarray, w: np.ndarray, h: float, us: np.ndarray,
             p: np.ndarray, meth: tuple, r: np.ndarray, V: np.ndarray, M: np.ndarray,
             G: np.ndarray, VN: np.ndarray) -> None:
    """r = F(w) of the method ``kind`` (w: increment δ, or stacked stage derivatives)."""
    ham, grad, grad_line, hess, jr, gmp, ports, jacf = fns
    qs, qw, ba, bb, line = meth
    n = x.size
    xi, z, f = V[5], V[6], V[7]
    if kind == GAUSS:
        for i in range(us.shape[0]):
            stage_state(x, w, h, ba, i, xi)
            grad(xi, p, z)
            field(fns, xi, z, us[i], p, f, V, M, G, VN)
            for k in range(n):
                r[i * n + k] = w[i * n + k] - f[k]
        return
    combine(x, 0.5, w, xi)
    effort(fns, kind, x, w, p, meth, z, V, M)
    field(fns, xi, z, us[0], p, f, V, M, G, VN)
    for k in range(n):
        r[k] = w[k] - h * f[k]


@njit
def step_matrix(fns: tuple, kind: int, x: np.ndarray, w: np.ndarray, h: float,
                us: np.ndarray, p: np.ndarray, meth: tuple, a: np.ndarray,
                V: np.ndarray, M: np.ndarray, G: np.ndarray, VN: np.ndarray) -> None:
    r"""a = F'(w): :math:`I - \tfrac h2\partial_x f(\bar x)` (midpoint),
    :math:`I - h[\tfrac12(\partial_x f - (J-R)\nabla^2H) + (J-R)D_z]` (discrete gradients),
    :math:`I - h\,\mathrm{blockdiag}(\partial_x f(X_i))(A\otimes I)` (Gauss)."""
    ham, grad, grad_line, hess, jr, gmp, ports, jacf = fns
    qs, qw, ba, bb, line = meth
    n = x.size
    xi, z = V[5], V[6]
    ji, struct, hm, dz = M[1], M[2], M[3], M[4]
    a[:, :] = 0.0
    if kind == GAUSS:
        s = us.shape[0]
        for i in range(s):
            jacf(stage_state(x, w, h, ba, i, xi), us[i], p, ji)
            for j in range(s):
                c = h * ba[i, j]
                for k in range(n):
                    for q in range(n):
                        a[i * n + k, j * n + q] -= c * ji[k, q]
        for k in range(s * n):
            a[k, k] += 1.0
        return
    jacf(combine(x, 0.5, w, xi), us[0], p, ji)
    if kind == MIDPOINT:
        for i in range(n):
            for j in range(n):
                a[i, j] = -0.5 * h * ji[i, j]
    else:
        jr(xi, p, struct)
        hess(xi, p, hm)
        if kind == GONZALEZ:
            gonzalez(fns, x, w, p, qs, qw, meth[4], z, dz, True, V)
        else:
            average_vector_field(fns, x, w, p, qs, qw, z, dz, True, V, M)
        for i in range(n):
            for j in range(n):
                s1, s2 = 0.0, 0.0
                for k in range(n):
                    s1 += struct[i, k] * hm[k, j]
                    s2 += struct[i, k] * dz[k, j]
                a[i, j] = -h * (0.5 * (ji[i, j] - s1) + s2)
    for k in range(n):
        a[k, k] += 1.0


# -- Newton ------------------------------------------------------------------------------------
@njit
def newton(fns: tuple, kind: int, x: np.ndarray, w: np.ndarray, h: float, us: np.ndarray,
           p: np.ndarray, meth: tuple, lu: np.ndarray, piv: np.ndarray, frozen: bool,
           tol: float, max_iter: int, counts: np.ndarray, V: np.ndarray, M: np.ndarray,
           G: np.ndarray, VN: np.ndarray) -> bool:
    """Newton on F(w) = 0 in place (the test of :mod:`..linalg.newton`): with the frozen
    factors ``lu`` (simplified: to the round-off floor, then a residual check) or with a
    fresh step matrix per iteration (written into ``lu``).  counts += (iterations, F
    evaluations).  Returns whether it converged."""
    N = w.size
    scale = max_abs(x)
    r = VN[0]
    prev = np.inf
    for k in range(1, max_iter + 1):
        residual(fns, kind, x, w, h, us, p, meth, r, V, M, G, VN)
        counts[1] += 1
        if not math.isfinite(max_abs(r)):
            return False
        if not frozen:
            step_matrix(fns, kind, x, w, h, us, p, meth, lu, V, M, G, VN)
            if not lu_factor(lu, piv):
                return False
        lu_solve(lu, piv, r)
        for i in range(N):
            w[i] -= r[i]
        counts[0] += 1
        size = max_abs(r)
        bound = scale + max_abs(w) + _TINY
        if not math.isfinite(size):
            return False
        if frozen:
            if at_floor(size, prev, bound, tol):
                residual(fns, kind, x, w, h, us, p, meth, r, V, M, G, VN)
                counts[1] += 1
                if residual_accepted(max_abs(r), max_abs(w), bound, tol):
                    return True
        elif full_converged(size, prev, bound, tol):
            return True
        if k > 3 and size > prev:
            return False
        prev = size
    return False


@njit
def solve_step(fns: tuple, kind: int, x: np.ndarray, w: np.ndarray, h: float,
               us: np.ndarray, p: np.ndarray, meth: tuple, lu: np.ndarray, piv: np.ndarray,
               state: np.ndarray, tol: float, max_iter: int, counts: np.ndarray,
               V: np.ndarray, M: np.ndarray, G: np.ndarray, VN: np.ndarray) -> bool:
    """The step equation from the guess ``w`` by the strategy of
    :class:`..linalg.newton.SimplifiedNewton`.  ``state`` = (step size of the frozen
    factors or NaN, full-Newton solves still to skip, current back-off)."""
    w0 = VN[1]
    w0[:] = w
    if state[1] > 0:
        state[1] -= 1
        state[0] = np.nan  # full Newton overwrites the factors
        return newton(fns, kind, x, w, h, us, p, meth, lu, piv, False, tol, max_iter, counts,
                      V, M, G, VN)
    for attempt in range(2):
        if state[0] != h:
            step_matrix(fns, kind, x, w0, h, us, p, meth, lu, V, M, G, VN)
            counts[1] += attempt
            if not lu_factor(lu, piv):
                state[0] = np.nan
                break
            state[0] = h
        w[:] = w0
        if newton(fns, kind, x, w, h, us, p, meth, lu, piv, True, tol, 8, counts, V, M, G, VN):
            state[2] = 1.0
            return True
        state[0] = np.nan
    state[1], state[2] = state[2], min(2.0 * state[2], 64.0)
    w[:] = w0
    return newton(fns, kind, x, w, h, us, p, meth, lu, piv, False, tol, max_iter, counts, V, M, G,
                  VN)


# -- one step and blocks of steps ----------------------------------------------------------------
@njit
def bookkeeping(fns: tuple, kind: int, x: np.ndarray, w: np.ndarray, h: float,
                us: np.ndarray, p: np.ndarray, meth: tuple, x_new: np.ndarray,
                out: np.ndarray, V: np.ndarray, M: np.ndarray, G: np.ndarray,
                VN: np.ndarray) -> None:
    """x_new and out = (work supplied, work dissipated, balance residual) of a solved
    step, by the formulas of the NumPy steps."""
    ham, grad, grad_line, hess, jr, gmp, ports, jacf = fns
    qs, qw, ba, bb, line = meth
    n = x.size
    xi, z = V[5], V[6]
    y = np.empty(us.shape[1])
    supplied = dissipated = 0.0
    if kind == GAUSS:
        s = us.shape[0]
        for k in range(n):
            acc = 0.0
            for i in range(s):
                acc += bb[i] * w[i * n + k]
            x_new[k] = x[k] + h * acc
        for i in range(s):
            grad(stage_state(x, w, h, ba, i, xi), p, z)
            pin, pd = port_powers(fns, xi, z, us[i], p, y)
            supplied += h * bb[i] * pin
            dissipated += h * bb[i] * pd
    else:
        combine(x, 0.5, w, xi)
        effort(fns, kind, x, w, p, meth, z, V, M)
        pin, pd = port_powers(fns, xi, z, us[0], p, y)
        supplied, dissipated = h * pin, h * pd
        combine(x, 1.0, w, x_new)
    delta = ham(x_new, p) - ham(x, p)
    out[0], out[1], out[2] = supplied, dissipated, delta - (supplied - dissipated)


@njit
def predict(fns: tuple, kind: int, x: np.ndarray, h: float, us: np.ndarray, p: np.ndarray,
            w: np.ndarray, V: np.ndarray, M: np.ndarray, G: np.ndarray, VN: np.ndarray) -> None:
    """Newton's first guess: h f at the explicit midpoint (discrete gradients), h f(x)
    (midpoint), f(x) for every stage (Gauss)."""
    ham, grad, grad_line, hess, jr, gmp, ports, jacf = fns
    n = x.size
    z, f = V[8], V[9]
    grad(x, p, z)
    field(fns, x, z, us[0], p, f, V, M, G, VN)
    if kind == GAUSS:
        for i in range(us.shape[0]):
            for k in range(n):
                w[i * n + k] = f[k]
    elif kind == MIDPOINT:
        for k in range(n):
            w[k] = h * f[k]
    else:
        xm = V[5]
        combine(x, 0.5 * h, f, xm)
        grad(xm, p, z)
        field(fns, xm, z, us[0], p, f, V, M, G, VN)
        for k in range(n):
            w[k] = h * f[k]


@njit
def one_step(fns: tuple, kind: int, x: np.ndarray, h: float, us: np.ndarray, p: np.ndarray,
             meth: tuple, lu: np.ndarray, piv: np.ndarray, state: np.ndarray, tol: float,
             max_iter: int, w: np.ndarray, x_new: np.ndarray, out: np.ndarray,
             counts: np.ndarray, V: np.ndarray, M: np.ndarray, G: np.ndarray,
             VN: np.ndarray) -> int:
    """A step from x of size h with stage inputs ``us`` from the guess in ``w``; writes
    x_new and the bookkeeping ``out``.  Returns a status code."""
    if not solve_step(fns, kind, x, w, h, us, p, meth, lu, piv, state, tol, max_iter, counts,
                      V, M, G, VN):
        return NEWTON_FAILED
    bookkeeping(fns, kind, x, w, h, us, p, meth, x_new, out, V, M, G, VN)
    return OK


@njit
def single_step(fns: tuple, kind: int, x: np.ndarray, h: float, us: np.ndarray,
                p: np.ndarray, meth: tuple, lu: np.ndarray, piv: np.ndarray,
                state: np.ndarray, tol: float, max_iter: int, x_new: np.ndarray,
                out: np.ndarray, counts: np.ndarray) -> int:
    """One step from the predictor (adaptive steps and events call this from Python)."""
    N = lu.shape[0]
    V, M, G, VN = workspace(x.size, us.shape[1], N)
    w = np.empty(N)
    predict(fns, kind, x, h, us, p, w, V, M, G, VN)
    return one_step(fns, kind, x, h, us, p, meth, lu, piv, state, tol, max_iter, w, x_new,
                    out, counts, V, M, G, VN)


@njit
def block(fns: tuple, kind: int, X: np.ndarray, U: np.ndarray, h: float, p: np.ndarray,
          meth: tuple, lu: np.ndarray, piv: np.ndarray, state: np.ndarray, tol: float,
          max_iter: int, W: np.ndarray, counts: np.ndarray) -> int:
    """Steps of size h from X[0] with stage inputs U[k] (stages × m) of step k, into the
    rows of X and W.  The discrete gradients start each Newton iteration from the
    extrapolated increments of the last two steps (2δ_k − δ_{k−1}) as the NumPy step does.
    Returns the number of steps done (fewer when Newton failed)."""
    K, n = U.shape[0], X.shape[1]
    N = lu.shape[0]
    V, M, G, VN = workspace(n, U.shape[2], N)
    w = np.empty(N)
    d1, d2 = np.empty(n), np.empty(n)
    extrapolate = kind == GONZALEZ or kind == AVF
    for k in range(K):
        x = X[k]
        if extrapolate and k >= 2:
            for i in range(n):
                w[i] = 2.0 * d1[i] - d2[i]
        elif extrapolate and k == 1:
            w[:] = d1
        else:
            predict(fns, kind, x, h, U[k], p, w, V, M, G, VN)
        status = one_step(fns, kind, x, h, U[k], p, meth, lu, piv, state, tol, max_iter, w,
                          X[k + 1], W[k], counts, V, M, G, VN)
        if status != OK:
            return k
        if extrapolate:
            d2[:] = d1
            d1[:] = w[:n]
    return K


# -- saved points -------------------------------------------------------------------------------
@njit
def points(fns: tuple, X: np.ndarray, U: np.ndarray, p: np.ndarray, Y: np.ndarray,
           H: np.ndarray, stored: np.ndarray, supplied: np.ndarray,
           dissipated: np.ndarray) -> None:
    r"""Outputs :math:`y = (G+P)^\top z + (M+S)u`, energy :math:`H`, stored power
    :math:`z^\top\dot x`, supplied :math:`u^\top y` and dissipated
    :math:`z^\top Rz + 2z^\top Pu + u^\top Su` (W) of the rows of X with inputs U,
    :math:`z = \nabla H(x)` (the formulas of ``NumericPHS.power_balance``)."""
    ham, grad, grad_line, hess, jr, gmp, ports, jacf = fns
    n, m = X.shape[1], U.shape[1]
    V, M, G, VN = workspace(n, m, 0)
    z, f = V[0], V[1]
    for k in range(X.shape[0]):
        x, u = X[k], U[k]
        grad(x, p, z)
        H[k] = ham(x, p)
        field(fns, x, z, u, p, f, V, M, G, VN)
        acc = 0.0
        for i in range(n):
            acc += z[i] * f[i]
        stored[k] = acc
        supplied[k], dissipated[k] = port_powers(fns, x, z, u, p, Y[k])
