r"""Compiled discrete-gradient steps of a mass-action reaction network's numeric form
(:class:`~porthamiltonian.thermo.reactions.phs_form.ReactionFunctionPHS`).

The model comes in as arrays (``net``, see :func:`unpack`): the species' standard
potentials :math:`\mu^\circ` (J/mol), :math:`RT` (J/mol) and the volume scale
:math:`Vc^\circ` (mol) of the log law
:math:`h_i(n) = n(\mu^\circ_i + RT(\ln(n/Vc^\circ) - 1))`, :math:`h_i' = \mu_i`,
:math:`h_i'' = RT/n`; the stoichiometry of the free species :math:`N_s` (CSR, and its
transpose), the forward/backward orders :math:`\nu^{fT}, \nu^{bT}` of the free species
(CSR, reactions × species) with the chemostats' constant share of the affinities
:math:`A^f_0, A^b_0`, the rates :math:`\kappa` (mol/s), :math:`N_c^T` (CSR) and the free
species' index of each flow source.  A step of size :math:`h` solves

.. math::

    F(\delta) = \delta - h\,\big[N_s\,v + E_f u_f\big] = 0,\qquad
    v_r = -\gamma_r(\bar x)\,\big(N_s^T\bar z + N_c^T u_c\big)_r,

the discrete-gradient step of :mod:`..ode.discrete_gradient` with
:math:`R(\bar x) = N_s\Gamma(\bar x)N_s^T` at the midpoint :math:`\bar x = x + \delta/2`
and :math:`\bar z` Gonzalez's discrete gradient (``kind`` :data:`GONZALEZ`) or the AVF
integral (:data:`AVF`), both by the same Gauss–Legendre rule as the NumPy step, so
that the two engines give the same steps to the Newton tolerance.  :math:`\gamma_r` is
the log-mean conductance of :func:`porthamiltonian.special.reaction_conductance`: with
:math:`a = A^f/RT`, :math:`b = A^b/RT`, :math:`d = a - b`,
:math:`\gamma = \frac{\kappa}{RT}e^b\,\mathrm{expm1}(d)/d`, the series
:math:`1 + d/2 + d^2/6` for :math:`|d| < 10^{-5}`.

Newton is simplified: the matrix :math:`I - \tfrac h2\,\partial_n(N_s v)(x_\mathrm{ref})`
is factored by SuperLU in Python (:mod:`.reactions`) and applied here by
:func:`.sparse_steps.lu_solve`; a Newton update that would make an amount non-positive
is shortened (the logarithms need :math:`n > 0`; the solution is unchanged).  The stopping
test is that of :mod:`..linalg.newton` (to the round-off floor, then a small residual),
the residual's own rounding allowed (:func:`_rounding`).

Bookkeeping per step (J): supplied :math:`h\,u^T\bar y`, dissipated
:math:`h\sum_r\gamma_r s_r^2` with :math:`s = N_s^T\bar z + N_c^T u_c` (:math:`= h\,\bar
z^T R\bar z + 2\bar z^T P u + u^T S u`), and the residual :math:`\Delta H -
(\text{supplied} - \text{dissipated})` with :math:`\Delta H = \sum_i h_i(n_{1,i}) -
h_i(n_{0,i})` (a sum of differences, no cancellation of two large totals).
"""
from __future__ import annotations

import math

import numpy as np

from ...jit import njit
from .sparse_steps import FAILED, OK, REFACTOR, csr_add, lu_solve, max_abs
from .stopping import at_floor, residual_accepted

__all__ = ["GONZALEZ", "AVF", "OK", "REFACTOR", "FAILED", "step", "block", "points"]

GONZALEZ, AVF = 1, 2
_EPS = 2.220446049250313e-16
_TINY = 1e-300


@njit
def potentials(x: np.ndarray, net: tuple, out: np.ndarray) -> None:
    r""":math:`\mu_i = \mu^\circ_i + RT\ln(n_i/Vc^\circ)` (J/mol)."""
    mu0, par = net[0], net[1]
    RT, scale = par[0], par[1]
    for i in range(x.size):
        out[i] = mu0[i] + RT * math.log(x[i] / scale)


@njit
def energies(x: np.ndarray, net: tuple, out: np.ndarray) -> None:
    r""":math:`h_i(n_i) = n_i(\mu^\circ_i + RT(\ln(n_i/Vc^\circ) - 1))` (J)."""
    mu0, par = net[0], net[1]
    RT, scale = par[0], par[1]
    for i in range(x.size):
        out[i] = x[i] * (mu0[i] + RT * (math.log(x[i] / scale) - 1.0))


@njit
def affinities(mu: np.ndarray, net: tuple, af: np.ndarray, ab: np.ndarray) -> None:
    r"""The forward and backward affinities :math:`A^{f,b} = \nu^{f,bT}\mu + A^{f,b}_0`
    (J/mol) of every reaction, into ``af`` and ``ab``."""
    fp, fi, fv, bp, bi, bv = net[5], net[6], net[7], net[8], net[9], net[10]
    af0, ab0 = net[11], net[12]
    for r in range(af.size):
        a = af0[r]
        for q in range(fp[r], fp[r + 1]):
            a += fv[q] * mu[fi[q]]
        af[r] = a
        b = ab0[r]
        for q in range(bp[r], bp[r + 1]):
            b += bv[q] * mu[bi[q]]
        ab[r] = b


@njit
def conductances(mu: np.ndarray, net: tuple, g: np.ndarray) -> None:
    r""":math:`\gamma_r` (mol²/(J·s)) from the affinities (:func:`affinities`; module
    docstring).  The gathers of the affinities and the exponentials are separate loops:
    the second then runs on whole vectors."""
    RT, kappa = net[1][0], net[13]
    nr = g.size
    af, b = np.empty(nr), np.empty(nr)
    affinities(mu, net, af, b)  # b: A^b, scaled to A^b/RT below
    d = np.empty(nr)
    for r in range(nr):
        b[r] /= RT
        d[r] = af[r] / RT - b[r]
    _log_mean(d, b, kappa, RT, g)


@njit
def _log_mean(d: np.ndarray, b: np.ndarray, kappa: np.ndarray, RT: float,
              g: np.ndarray) -> None:
    """g = κ/RT e^b expm1(d)/d (the series 1 + d/2 + d²/6 for |d| < 1e-5): branch-free
    loops over whole vectors."""
    nr = g.size
    em, eb = np.empty(nr), np.empty(nr)
    for r in range(nr):
        eb[r] = math.exp(b[r])
    for r in range(nr):
        em[r] = math.expm1(d[r])
    for r in range(nr):
        dr = d[r]
        small = abs(dr) < 1e-5
        ratio = 1.0 + dr / 2.0 + dr * dr / 6.0
        quotient = em[r] / (1.0 if small else dr)
        g[r] = kappa[r] / RT * eb[r] * (ratio if small else quotient)


@njit
def drives(z: np.ndarray, u: np.ndarray, net: tuple, s: np.ndarray) -> None:
    r""":math:`s = N_s^T z + N_c^T u_c` (J/mol): minus each reaction's affinity."""
    tp, ti, tv, cp, ci, cv = net[2], net[3], net[4], net[14], net[15], net[16]
    for r in range(s.size):
        acc = 0.0
        for q in range(tp[r], tp[r + 1]):
            acc += tv[q] * z[ti[q]]
        for q in range(cp[r], cp[r + 1]):
            acc += cv[q] * u[ci[q]]
        s[r] = acc


@njit
def field(z: np.ndarray, u: np.ndarray, g: np.ndarray, net: tuple, s: np.ndarray,
          v: np.ndarray, f: np.ndarray) -> None:
    r""":math:`f = N_s v + E_f u_f` (mol/s) with the fluxes :math:`v = -\Gamma s`; leaves
    :math:`s` in ``s`` and :math:`v` in ``v``."""
    np_, ni, nv, fidx = net[17], net[18], net[19], net[20]
    nc = u.size - fidx.size
    drives(z, u, net, s)
    for r in range(s.size):
        v[r] = -g[r] * s[r]
    f[:] = 0.0
    csr_add(np_, ni, nv, v, 1.0, f)
    for k in range(fidx.size):
        f[fidx[k]] += u[nc + k]


@njit
def effort(kind: int, x: np.ndarray, w: np.ndarray, net: tuple, qs: np.ndarray,
           qw: np.ndarray, z: np.ndarray, mu_m: np.ndarray, xq: np.ndarray,
           mq: np.ndarray) -> None:
    r"""``z`` = the discrete gradient at :math:`(x, x + w)`, ``mu_m`` = :math:`\nabla H(x +
    w/2)`.  Gonzalez: :math:`\nabla H(\bar x) + e\,w/w^Tw` with :math:`e = \int_0^1(\nabla
    H(x + sw) - \nabla H(\bar x))^T w\,ds` by the Gauss rule; AVF: :math:`\int_0^1 \nabla
    H(x + sw)\,ds` by the same rule."""
    n = x.size
    for i in range(n):
        xq[i] = x[i] + 0.5 * w[i]
    potentials(xq, net, mu_m)
    if kind == AVF:
        z[:] = 0.0
        for j in range(qs.size):
            for i in range(n):
                xq[i] = x[i] + qs[j] * w[i]
            potentials(xq, net, mq)
            for i in range(n):
                z[i] += qw[j] * mq[i]
        return
    nn = 0.0
    for i in range(n):
        nn += w[i] * w[i]
    z[:] = mu_m
    if nn == 0.0:
        return
    e = 0.0
    for j in range(qs.size):
        for i in range(n):
            xq[i] = x[i] + qs[j] * w[i]
        potentials(xq, net, mq)
        acc = 0.0
        for i in range(n):
            acc += (mq[i] - mu_m[i]) * w[i]
        e += qw[j] * acc
    c = e / nn
    for i in range(n):
        z[i] += c * w[i]


@njit
def port_powers(z: np.ndarray, u: np.ndarray, g: np.ndarray, net: tuple, s: np.ndarray,
                y: np.ndarray) -> tuple:
    r"""``(uᵀy, d)`` (W) with :math:`s = N_s^Tz + N_c^Tu_c` given, outputs written to ``y``:
    :math:`y_c = N_c\Gamma s`, :math:`y_f = z_f`; :math:`d = \sum_r\gamma_r s_r^2`."""
    cp, ci, cv, fidx = net[14], net[15], net[16], net[20]
    nc = u.size - fidx.size
    d = 0.0
    y[:] = 0.0
    for r in range(s.size):
        gs = g[r] * s[r]
        d += gs * s[r]
        for q in range(cp[r], cp[r + 1]):
            y[ci[q]] += cv[q] * gs
    supplied = 0.0
    for c in range(nc):
        supplied += u[c] * y[c]
    for k in range(fidx.size):
        y[nc + k] = z[fidx[k]]
        supplied += u[nc + k] * y[nc + k]
    return supplied, d


@njit
def residual(kind: int, x: np.ndarray, w: np.ndarray, h: float, u: np.ndarray, net: tuple,
             meth: tuple, wk: tuple, r: np.ndarray) -> None:
    """r = F(w); leaves z, ∇H(x̄), γ(x̄) and s in the work arrays ``wk``."""
    z, mu_m, xq, mq, g, s, f, v = wk
    effort(kind, x, w, net, meth[0], meth[1], z, mu_m, xq, mq)
    conductances(mu_m, net, g)
    field(z, u, g, net, s, v, f)
    for i in range(x.size):
        r[i] = w[i] - h * f[i]


@njit
def _rounding(w: np.ndarray, h: float, u: np.ndarray, net: tuple, wk: tuple) -> float:
    r"""The round-off floor of the residual :math:`w - hN_sv`, :math:`v = -\Gamma s`:
    :math:`8\epsilon\max_i(|w_i| + h\sum_r|N_{ir}|\gamma_r m_r)` with
    :math:`m_r = \sum_j|N_{jr}z_j| + |N_c^Tu_c|_r` — a fast reaction near its
    equilibrium has a drive :math:`s_r` that is a difference of large potentials, whose
    rounding its large :math:`\gamma_r` carries into the residual."""
    tp, ti, tv, cp, ci, cv = net[2], net[3], net[4], net[14], net[15], net[16]
    np_, ni, nv = net[17], net[18], net[19]
    z, g, mag = wk[0], wk[4], wk[7]  # wk[7] (the fluxes) is free once the step is solved
    for r in range(g.size):
        acc = 0.0
        for q in range(tp[r], tp[r + 1]):
            acc += abs(tv[q] * z[ti[q]])
        for q in range(cp[r], cp[r + 1]):
            acc += abs(cv[q] * u[ci[q]])
        mag[r] = g[r] * acc
    worst = 0.0
    for i in range(w.size):
        acc = 0.0
        for q in range(np_[i], np_[i + 1]):
            acc += abs(nv[q]) * mag[ni[q]]
        worst = max(worst, abs(w[i]) + h * acc)
    return 8.0 * _EPS * worst


@njit
def newton(kind: int, x: np.ndarray, w: np.ndarray, h: float, u: np.ndarray, net: tuple,
           meth: tuple, fac: tuple, tol: float, max_iter: int, counts: np.ndarray,
           wk: tuple, r: np.ndarray, y: np.ndarray) -> int:
    """Simplified Newton on F(w) = 0 from the guess ``w`` (in place); the iterations, or
    −1 when it fails.  Updates are shortened to keep every amount positive."""
    bound = max_abs(x) + max_abs(w) + _TINY
    prev = np.inf
    for k in range(1, max_iter + 1):
        residual(kind, x, w, h, u, net, meth, wk, r)
        counts[1] += 1
        lu_solve(fac, 0, r, y)
        size = max_abs(r)
        counts[0] += 1
        if not math.isfinite(size):
            return -1
        alpha = 1.0  # the longest update keeping x + w > 0 (with a margin)
        for i in range(x.size):
            left = x[i] + w[i]
            if r[i] > 0.9 * left:
                alpha = min(alpha, 0.9 * left / r[i])
        for i in range(w.size):
            w[i] -= alpha * r[i]
        if alpha < 1.0:
            prev = np.inf
            continue
        if at_floor(size, prev, bound, tol):
            residual(kind, x, w, h, u, net, meth, wk, r)
            counts[1] += 1
            rmax = max_abs(r)
            # the shared residual test, or the residual's own round-off floor
            if (residual_accepted(rmax, max_abs(w), bound, tol)
                    or rmax <= _rounding(w, h, u, net, wk)):
                return k
        if k > 3 and size > prev:
            return -1
        prev = size
    return -1


@njit
def step(kind: int, x: np.ndarray, w: np.ndarray, h: float, u: np.ndarray, net: tuple,
         meth: tuple, fac: tuple, tol: float, max_iter: int, counts: np.ndarray,
         x_new: np.ndarray, out: np.ndarray) -> int:
    """One step from ``x`` with the guess ``w`` (the increment on return) into ``x_new``;
    ``out`` = (supplied, dissipated, residual) in J.  Returns Newton's iterations, −1 on
    failure."""
    n, nr, m = x.size, net[13].size, u.size
    wk = (np.empty(n), np.empty(n), np.empty(n), np.empty(n), np.empty(nr), np.empty(nr),
          np.empty(n), np.empty(nr))
    r, y = np.empty(n), np.empty(n)
    for i in range(n):  # a guess leaving the positive amounts: start from no change
        if not x[i] + w[i] > 0.0:
            w[:] = 0.0
            break
    it = newton(kind, x, w, h, u, net, meth, fac, tol, max_iter, counts, wk, r, y)
    if it < 0:
        return -1
    z, g, s = wk[0], wk[4], wk[5]
    yout = np.empty(m)
    sup, dis = port_powers(z, u, g, net, s, yout)
    e0, e1 = np.empty(n), np.empty(n)
    for i in range(n):
        x_new[i] = x[i] + w[i]
    energies(x, net, e0)
    energies(x_new, net, e1)
    dh = 0.0
    for i in range(n):
        dh += e1[i] - e0[i]
    out[0], out[1], out[2] = h * sup, h * dis, dh - h * (sup - dis)
    return it


@njit
def block(kind: int, X: np.ndarray, U: np.ndarray, h: float, net: tuple, meth: tuple,
          fac: tuple, tol: float, max_iter: int, slow_after: int, W: np.ndarray,
          counts: np.ndarray, w: np.ndarray) -> tuple:
    """Steps of size h from X[0] with inputs U[k] into the rows of X and W; Newton starts
    from the last increment ``w`` (kept for the next block).  Returns (steps done,
    status): ``REFACTOR`` after a slow step, ``FAILED`` when step ``done`` failed."""
    out = np.zeros(3)
    for k in range(U.shape[0]):
        guess = w.copy()
        it = step(kind, X[k], guess, h, U[k], net, meth, fac, tol, max_iter, counts,
                  X[k + 1], out)
        if it < 0:
            return k, FAILED
        w[:] = guess
        W[k, 0], W[k, 1], W[k, 2] = out[0], out[1], out[2]
        if it >= slow_after:
            return k + 1, REFACTOR
    return U.shape[0], OK


@njit
def points(X: np.ndarray, U: np.ndarray, net: tuple, Y: np.ndarray, H: np.ndarray,
           stored: np.ndarray, supplied: np.ndarray, dissipated: np.ndarray) -> None:
    r"""Outputs, :math:`H`, stored power :math:`z^T\dot x`, supplied and dissipated power
    of the rows of X with inputs U, :math:`z = \nabla H(x)`, :math:`\Gamma(x)`."""
    n, nr = X.shape[1], net[13].size
    z, e, f = np.empty(n), np.empty(n), np.empty(n)
    g, s, v = np.empty(nr), np.empty(nr), np.empty(nr)
    for k in range(X.shape[0]):
        x, u = X[k], U[k]
        potentials(x, net, z)
        energies(x, net, e)
        H[k] = e.sum()
        conductances(z, net, g)
        field(z, u, g, net, s, v, f)
        acc = 0.0
        for i in range(n):
            acc += z[i] * f[i]
        stored[k] = acc
        supplied[k], dissipated[k] = port_powers(z, u, g, net, s, Y[k])


@njit
def step_matrix(x: np.ndarray, h: float, net: tuple, trip: tuple, out: np.ndarray) -> None:
    r"""The entries of :math:`I - \tfrac h2\,\partial_n(N_sv)(x)` on their fixed pattern:
    :math:`\partial_{n_j}(N_sv)_i = \sum_r N_{ir}(e^f_r\nu^f_{jr} - e^b_r\nu^b_{jr})RT/n_j`,
    :math:`e^{f,b}_r = \kappa_re^{A^{f,b}_r/RT}/RT`.  ``trip`` = (entry, N_ir, r, j,
    ν^f_jr, ν^b_jr) per contribution, then the entries of the identity."""
    entry, coef, react, col, nuf, nub, diag = trip
    RT, kappa = net[1][0], net[13]
    n, nr = x.size, kappa.size
    mu = np.empty(n)
    potentials(x, net, mu)
    ef, eb = np.empty(nr), np.empty(nr)
    affinities(mu, net, ef, eb)
    for r in range(nr):
        ef[r] = kappa[r] * math.exp(ef[r] / RT) / RT
        eb[r] = kappa[r] * math.exp(eb[r] / RT) / RT
    out[:] = 0.0
    for q in range(diag.size):
        out[diag[q]] = 1.0
    for p in range(entry.size):
        r, j = react[p], col[p]
        out[entry[p]] -= 0.5 * h * coef[p] * (ef[r] * nuf[p] - eb[r] * nub[p]) * RT / x[j]


@njit
def refactor(vals: np.ndarray, amap: np.ndarray, pat: tuple, fac: tuple) -> bool:
    r"""LU factors of :math:`P_rAP_c` with the pivots and the pattern of an earlier
    SuperLU factorization (``pat`` = (B ptr, B columns), ``amap``: the position in B of
    each entry of A, ``vals``), row by row (Doolittle: row i of L from the rows of U
    above it, then row i of U), into ``fac`` (the arrays of :func:`.sparse_steps.lu_solve`,
    row 0).  False when a pivot is zero or not finite (SuperLU then pivots afresh)."""
    bptr, bcol = pat
    lp, li, lv, ld, up, ui, uv, ud = (fac[0][0], fac[1][0], fac[2][0], fac[3][0],
                                       fac[4][0], fac[5][0], fac[6][0], fac[7][0])
    n = bptr.size - 1
    bval = np.zeros(bcol.size)
    for p in range(vals.size):
        bval[amap[p]] = vals[p]
    w = np.zeros(n)
    for i in range(n):
        for q in range(bptr[i], bptr[i + 1]):
            w[bcol[q]] = bval[q]
        for q in range(lp[i], lp[i + 1]):
            k = li[q]
            lik = w[k] * ud[k]
            lv[q] = lik
            for t in range(up[k], up[k + 1]):
                w[ui[t]] -= lik * uv[t]
        d = w[i]
        if d == 0.0 or not math.isfinite(d):
            return False
        ld[i] = 1.0
        ud[i] = 1.0 / d
        for q in range(up[i], up[i + 1]):
            uv[q] = w[ui[q]]
        w[:] = 0.0  # fill outside the pattern (none with the same pivots) is dropped here
    return True
