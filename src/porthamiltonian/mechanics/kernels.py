r"""Compiled kernels of the rigid mechanism's midpoint step (issue 15).

The step of :class:`~porthamiltonian.simulate.dae.midpoint.DAEMidpoint` for a
:class:`~.assembly.MechanismDAE` solves, for :math:`w = (\delta, \mu)`,
:math:`\bar x = x + \delta/2`, :math:`\bar z = z(\bar x)`, :math:`\lambda = \mu/h`,

.. math::
    F(w) = \begin{bmatrix}\delta - h\,f(\bar x, \bar z, \lambda, \bar u)\\
    B(\bar x)^\top\bar z\end{bmatrix} = 0,

with ``f`` and ``B`` those of :mod:`.assembly` (same equations, same sign conventions:
``J_b w = (R w_v, R w̃_ω, −Kᵀw_q + 𝒫(P) w_P)`` per body, constraint wrench
:math:`D_i(X)^\top Y + D_i(Y)^\top X` per row ``g = X·Y``, actuator columns, dampers and
springs).  Here every piece is a loop over scalars compiled by Numba
(:func:`porthamiltonian.jit.njit`), fused over all bodies and rows: one call evaluates
``F``, one call (:func:`march`) takes a whole block of steps — first guesses, the
simplified-Newton policy, the iterations and each step's energy bookkeeping.

The Newton matrix

.. math::
    A = \begin{bmatrix} I - \tfrac h2\partial_x f - \tfrac h2 (J-R)D_z & -B\\
    \tfrac12 \partial_x c + \tfrac12 B^\top D_z & 0\end{bmatrix}

is the exact one of the generic step.  Its pose rows are local to one body (the pose
rates ``K(q)T`` involve that body only), so the pose unknowns ``δq_b`` (12 per body)
are eliminated body by body:

.. math::
    \delta q_b = A_{qq,b}^{-1}(r_{q,b} - A_{qP,b}\,\delta P_b),\qquad
    (A_{oo} - A_{oq}C)\,\delta o = r_o - A_{oq}A_{qq}^{-1}r_q,\quad C_b = A_{qq,b}^{-1}A_{qP,b},

leaving the "outer" unknowns ``o`` = momenta (6 per body), spring states and
multipliers.  That reduced matrix couples only bodies and rows that share a joint; in a
bandwidth-reducing order (reverse Cuthill–McKee, chosen once) it is banded, and a band
LU with partial pivoting (LAPACK's ``gbtf2``) costs ``O(n·bw²)`` per factorization and
``O(n·bw)`` per solve: linear in the number of bodies for chains.

Layout: body ``b`` occupies state entries ``18b … 18b+17`` = ``p`` (3), ``R`` (9,
row-major), ``P = (P_ω, P_v)`` (6); spring ``s`` is entry ``18·nb + s``.  Outer
unknown indices: ``P_b`` at ``6b``, spring ``s`` at ``6·nb + s``, multiplier ``r`` at
``6·nb + ns + r``.  Index ``nb`` is ground (``p = 0``, ``R = I``, no unknowns).

Packed model data (built by :class:`.fused.FusedMidpoint`):

``bdat`` (nb × 48)
    ``M⁻¹`` (36, row-major) and the constant pose efforts ``z_q = (−m g, −m g cᵀ)`` (12).
``rdat`` (k × 22), ``rint`` (k × 2)
    per constraint row: ``s_X`` (2), ``a_X`` (2 × 3), ``c_X`` (3), the same for ``Y``;
    the two end bodies.
``adat`` (m × 18), ``aint`` (m × 3)
    per actuator direction: direction feature ``s`` (2), ``a`` (2 × 3), ``c`` (3), child
    anchor (3), damping, translational flag, spring stiffness, set point; the two end
    bodies and the spring index (−1: none).

Compile time: Numba compiles a jitted callee once per *literal* argument value, so the
flags given to the shared helpers are run-time values (``nb < 0`` for false, ``nb >= 0``
for true), :func:`residual` and :func:`factor` are called from one site each, and
Newton's iteration is written out inside :func:`march` (LLVM re-optimizes a linked
callee at every call site and at every level of nesting).
"""

from __future__ import annotations

import numpy as np

from ..jit import njit
from ..simulate.dae.midpoint import REFRESH_AFTER
from ..simulate.kernels.stopping import at_floor, full_converged, residual_accepted
from ..simulate.linalg.newton import SimplifiedNewton

__all__ = ["residual", "factor", "energy", "ports", "point", "points",
           "step_outputs", "march", "reduced_dense", "OK", "FAILED", "SINGULAR", "NONFINITE"]

#: status codes of :func:`factor` and :func:`march` (NONFINITE: Newton converged to a
#: state or multiplier that is not finite)
OK, FAILED, SINGULAR, NONFINITE = 0, 1, 2, 3
#: most consecutive full-Newton solves after simplified Newton failed twice in a row
#: (as :class:`~porthamiltonian.simulate.linalg.newton.SimplifiedNewton`)
MAX_BACKOFF = SimplifiedNewton.MAX_BACKOFF
#: iterations a simplified-Newton attempt may take before it counts as failed
SIMPLIFIED_ITER = 8


# ---------------------------------------------------------------- small pieces
@njit
def _frames(x: np.ndarray, nb: int, pos: np.ndarray, rot: np.ndarray) -> None:
    """Positions (nb+1 × 3) and rotations (nb+1 × 3 × 3) of ``x``, ground last."""
    for b in range(nb):
        o = 18 * b
        for i in range(3):
            pos[b, i] = x[o + i]
            for j in range(3):
                rot[b, i, j] = x[o + 3 + 3 * i + j]
    for i in range(3):
        pos[nb, i] = 0.0
        for j in range(3):
            rot[nb, i, j] = 1.0 if i == j else 0.0


@njit
def _twists(x: np.ndarray, nb: int, bdat: np.ndarray, T: np.ndarray) -> None:
    """Body twists ``T = M⁻¹P`` (nb+1 × 6, ground 0)."""
    for b in range(nb):
        o = 18 * b + 12
        for i in range(6):
            s = 0.0
            for j in range(6):
                s += bdat[b, 6 * i + j] * x[o + j]
            T[b, i] = s
    for i in range(6):
        T[nb, i] = 0.0


@njit
def _feature(pos: np.ndarray, rot: np.ndarray, e0: int, e1: int, nb: int, s: np.ndarray,
             a: np.ndarray, c: np.ndarray, v: np.ndarray, d: np.ndarray,
             deriv: bool) -> None:
    r""":math:`X = s_0p_0 + R_0a_0 + s_1p_1 + R_1a_1 + c` (``s`` (2), ``a`` (6), ``c``
    (3)) and ``∂X/∂y`` (3 × 24) in the raw pose entries of the two ends."""
    for j in range(3):
        t = c[j] + s[0] * pos[e0, j] + s[1] * pos[e1, j]
        for m in range(3):
            t += rot[e0, j, m] * a[m] + rot[e1, j, m] * a[3 + m]
        v[j] = t
    if deriv:
        d[:, :] = 0.0
        for side in range(2):
            if (e0 if side == 0 else e1) >= nb:
                continue
            o = 12 * side
            for j in range(3):
                d[j, o + j] = s[side]
                for m in range(3):
                    d[j, o + 3 + 3 * j + m] = a[3 * side + m]


@njit
def _rt(R: np.ndarray, o: int, X: np.ndarray, dX: np.ndarray, sign: float, v: np.ndarray,
        d: np.ndarray, deriv: bool) -> None:
    r"""``sign · RᵀX`` and its derivative (``∂(RᵀX)_l/∂R_{jl} = X_j``; ``o``: the
    column of ``R``'s first entry in ``d``, −1 for ground)."""
    for m in range(3):
        v[m] = sign * (R[0, m] * X[0] + R[1, m] * X[1] + R[2, m] * X[2])
    if deriv:
        for m in range(3):
            for q in range(d.shape[1]):
                d[m, q] = sign * (R[0, m] * dX[0, q] + R[1, m] * dX[1, q]
                                  + R[2, m] * dX[2, q])
            if o >= 0:
                for j in range(3):
                    d[m, o + 3 * j + m] += sign * X[j]


@njit
def _cross_add(a: np.ndarray, v: np.ndarray, dv: np.ndarray, out: np.ndarray,
               dout: np.ndarray, deriv: bool) -> None:
    """``out += a × v`` for a constant ``a`` (and ``dout += ã dv``)."""
    out[0] += a[1] * v[2] - a[2] * v[1]
    out[1] += a[2] * v[0] - a[0] * v[2]
    out[2] += a[0] * v[1] - a[1] * v[0]
    if deriv:
        for q in range(dout.shape[1]):
            dout[0, q] += a[1] * dv[2, q] - a[2] * dv[1, q]
            dout[1, q] += a[2] * dv[0, q] - a[0] * dv[2, q]
            dout[2, q] += a[0] * dv[1, q] - a[1] * dv[0, q]


@njit
def _con_wrench(r: int, pos: np.ndarray, rot: np.ndarray, nb: int, rdat: np.ndarray,
                rint: np.ndarray, W: np.ndarray, dW: np.ndarray, deriv: bool,
                sc: np.ndarray, dsc: np.ndarray) -> None:
    r"""Wrenches :math:`D_i(X)^\top Y + D_i(Y)^\top X` (2 × 6) of constraint row ``r`` on
    its two ends, :math:`D_i(X)^\top Y = (a_i\times R_i^\top Y,\ s_i R_i^\top Y)`, and
    with ``deriv`` their derivatives (2 × 6 × 24).  ``sc`` (≥ 6 × 3), ``dsc`` (≥ 6 × 3 ×
    24): scratch."""
    e0, e1 = rint[r, 0], rint[r, 1]
    X, Y, RX, RY = sc[0], sc[1], sc[2], sc[3]
    dX, dY, dRX, dRY = dsc[0], dsc[1], dsc[2], dsc[3]
    _feature(pos, rot, e0, e1, nb, rdat[r, 0:2], rdat[r, 2:8], rdat[r, 8:11], X, dX, deriv)
    _feature(pos, rot, e0, e1, nb, rdat[r, 11:13], rdat[r, 13:19], rdat[r, 19:22], Y, dY,
             deriv)
    for side in range(2):
        e = e0 if side == 0 else e1
        live = e < nb
        o = 12 * side + 3 if live else -1
        _rt(rot[e], o, Y, dY, 1.0, RY, dRY, deriv)
        _rt(rot[e], o, X, dX, 1.0, RX, dRX, deriv)
        sx, sy = rdat[r, side], rdat[r, 11 + side]
        tau, dtau = sc[4], dsc[4]
        tau[:] = 0.0
        if deriv:
            dtau[:, :] = 0.0
        _cross_add(rdat[r, 2 + 3 * side:5 + 3 * side], RY, dRY, tau, dtau, deriv)
        _cross_add(rdat[r, 13 + 3 * side:16 + 3 * side], RX, dRX, tau, dtau, deriv)
        for i in range(3):
            W[side, i] = tau[i]
            W[side, 3 + i] = sx * RY[i] + sy * RX[i]
            if deriv:
                for q in range(dW.shape[2]):
                    dW[side, i, q] = dtau[i, q]
                    dW[side, 3 + i, q] = sx * dRY[i, q] + sy * dRX[i, q]


@njit
def _con_value(r: int, pos: np.ndarray, rot: np.ndarray, rdat: np.ndarray,
               rint: np.ndarray, W: np.ndarray) -> None:
    """The wrenches of :func:`_con_wrench` without derivatives, in scalars (the
    residual's hot loop: no scratch arrays, no calls; the same operations in the same
    order)."""
    e0, e1 = rint[r, 0], rint[r, 1]
    d = rdat[r]
    P0, P1, R0, R1 = pos[e0], pos[e1], rot[e0], rot[e1]
    X0 = d[8] + d[0] * P0[0] + d[1] * P1[0]
    X1 = d[9] + d[0] * P0[1] + d[1] * P1[1]
    X2 = d[10] + d[0] * P0[2] + d[1] * P1[2]
    Y0 = d[19] + d[11] * P0[0] + d[12] * P1[0]
    Y1 = d[20] + d[11] * P0[1] + d[12] * P1[1]
    Y2 = d[21] + d[11] * P0[2] + d[12] * P1[2]
    for m in range(3):
        X0 += R0[0, m] * d[2 + m] + R1[0, m] * d[5 + m]
        X1 += R0[1, m] * d[2 + m] + R1[1, m] * d[5 + m]
        X2 += R0[2, m] * d[2 + m] + R1[2, m] * d[5 + m]
        Y0 += R0[0, m] * d[13 + m] + R1[0, m] * d[16 + m]
        Y1 += R0[1, m] * d[13 + m] + R1[1, m] * d[16 + m]
        Y2 += R0[2, m] * d[13 + m] + R1[2, m] * d[16 + m]
    for side in range(2):
        R = R0 if side == 0 else R1
        ry0 = R[0, 0] * Y0 + R[1, 0] * Y1 + R[2, 0] * Y2
        ry1 = R[0, 1] * Y0 + R[1, 1] * Y1 + R[2, 1] * Y2
        ry2 = R[0, 2] * Y0 + R[1, 2] * Y1 + R[2, 2] * Y2
        rx0 = R[0, 0] * X0 + R[1, 0] * X1 + R[2, 0] * X2
        rx1 = R[0, 1] * X0 + R[1, 1] * X1 + R[2, 1] * X2
        rx2 = R[0, 2] * X0 + R[1, 2] * X1 + R[2, 2] * X2
        o, q = 2 + 3 * side, 13 + 3 * side
        W[side, 0] = (d[o + 1] * ry2 - d[o + 2] * ry1) + (d[q + 1] * rx2 - d[q + 2] * rx1)
        W[side, 1] = (d[o + 2] * ry0 - d[o] * ry2) + (d[q + 2] * rx0 - d[q] * rx2)
        W[side, 2] = (d[o] * ry1 - d[o + 1] * ry0) + (d[q] * rx1 - d[q + 1] * rx0)
        sx, sy = d[side], d[11 + side]
        W[side, 3] = sx * ry0 + sy * rx0
        W[side, 4] = sx * ry1 + sy * rx1
        W[side, 5] = sx * ry2 + sy * rx2


@njit
def _act_wrench(a: int, pos: np.ndarray, rot: np.ndarray, nb: int, adat: np.ndarray,
                aint: np.ndarray, W: np.ndarray, dW: np.ndarray, deriv: bool,
                sc: np.ndarray, dsc: np.ndarray) -> None:
    r"""Wrenches (2 × 6) of actuator direction ``a`` (those of
    ``MechanismDAE._actuator_wrenches``): with ``n`` the direction feature, a rotation
    applies the torques ``R₂ᵀn`` to the child and ``−R₁ᵀn`` to the parent; a translation
    the forces ``±Rᵢᵀn`` at the child anchor ``a₂`` with the torques ``a₂ × R₂ᵀn`` and
    ``(R₁ᵀ gap) × (−R₁ᵀn)``, ``gap = p₂ + R₂a₂ − p₁``."""
    e0, e1 = aint[a, 0], aint[a, 1]
    N, m2, m1, gap, g0 = sc[0], sc[1], sc[2], sc[3], sc[4]
    dN, dm2, dm1, dgap, dg0 = dsc[0], dsc[1], dsc[2], dsc[3], dsc[4]
    _feature(pos, rot, e0, e1, nb, adat[a, 0:2], adat[a, 2:8], adat[a, 8:11], N, dN, deriv)
    # run-time offsets (int64): literal arguments would compile _rt once per value
    o0, o1 = 3 if e0 < nb else -1, 15 if e1 < nb else -1
    _rt(rot[e1], o1, N, dN, 1.0, m2, dm2, deriv)
    _rt(rot[e0], o0, N, dN, -1.0, m1, dm1, deriv)
    W[:, :] = 0.0
    if deriv:
        dW[:, :, :] = 0.0
    if adat[a, 15] == 0.0:  # rotation: torques only
        for i in range(3):
            W[1, i], W[0, i] = m2[i], m1[i]
            if deriv:
                for q in range(dW.shape[2]):
                    dW[1, i, q], dW[0, i, q] = dm2[i, q], dm1[i, q]
        return
    anchor = adat[a, 11:14]
    gs = sc[5]  # gap feature coefficients: s = (−1, 1), a = (0, a₂), c = 0
    gs[0], gs[1], gs[2] = -1.0, 1.0, 0.0
    ga = np.zeros(6)
    ga[3:] = anchor
    _feature(pos, rot, e0, e1, nb, gs[0:2], ga, np.zeros(3), gap, dgap, deriv)
    _rt(rot[e0], o0, gap, dgap, 1.0, g0, dg0, deriv)
    tau1, dtau1 = np.zeros(3), np.zeros((3, 24))
    _cross_add(anchor, m2, dm2, tau1, dtau1, deriv)
    # g0 × m1, both varying: d(a × b) = a × db − b × da
    tau0 = np.zeros(3)
    tau0[0] = g0[1] * m1[2] - g0[2] * m1[1]
    tau0[1] = g0[2] * m1[0] - g0[0] * m1[2]
    tau0[2] = g0[0] * m1[1] - g0[1] * m1[0]
    for i in range(3):
        W[1, i], W[1, 3 + i] = tau1[i], m2[i]
        W[0, i], W[0, 3 + i] = tau0[i], m1[i]
    if deriv:
        for q in range(dW.shape[2]):
            dW[0, 0, q] = (g0[1] * dm1[2, q] - g0[2] * dm1[1, q]
                           - m1[1] * dg0[2, q] + m1[2] * dg0[1, q])
            dW[0, 1, q] = (g0[2] * dm1[0, q] - g0[0] * dm1[2, q]
                           - m1[2] * dg0[0, q] + m1[0] * dg0[2, q])
            dW[0, 2, q] = (g0[0] * dm1[1, q] - g0[1] * dm1[0, q]
                           - m1[0] * dg0[1, q] + m1[1] * dg0[0, q])
            for i in range(3):
                dW[1, i, q], dW[1, 3 + i, q] = dtau1[i, q], dm2[i, q]
                dW[0, 3 + i, q] = dm1[i, q]


@njit
def _velocity(W: np.ndarray, T: np.ndarray, e0: int, e1: int) -> float:
    """``colᵀ w``: the wrench column against the two ends' twists."""
    s = 0.0
    for i in range(6):
        s += W[0, i] * T[e0, i] + W[1, i] * T[e1, i]
    return s


@njit
def _velocity_gradient(T: np.ndarray, dW: np.ndarray, e0: int, e1: int, nb: int,
                       gw: np.ndarray) -> None:
    """``gw`` = ∂(colᵀ w)/∂q at fixed twists: the two ends' twists against the derivative
    of the wrench column (ground ends, ``e ≥ nb``, contribute nothing)."""
    gw[:] = 0.0
    for side in range(2):
        e = e0 if side == 0 else e1
        if e < nb:
            for c in range(6):
                for q in range(gw.size):
                    gw[q] += T[e, c] * dW[side, c, q]


@njit
def _wrench_times_inverse_mass(W: np.ndarray, side: int, bdat: np.ndarray, e: int,
                               out: np.ndarray) -> None:
    """``out`` = W[side]ᵀ M_e⁻¹: one end's wrench column through body ``e``'s inverse
    mass matrix (stored in ``bdat[e, :36]``)."""
    Minv = bdat[e, :36].reshape(6, 6)
    for c in range(6):
        t = 0.0
        for j in range(6):
            t += W[side, j] * Minv[j, c]
        out[c] = t


# ---------------------------------------------------------------- residual
@njit
def residual(x: np.ndarray, w: np.ndarray, h: float, u: np.ndarray, nb: int, ns: int,
             bdat: np.ndarray, rdat: np.ndarray, rint: np.ndarray, adat: np.ndarray,
             aint: np.ndarray, F: np.ndarray) -> None:
    r"""The step residual ``F(w)`` (module docstring) into ``F`` (n + k)."""
    n = 18 * nb + ns
    k, m = rdat.shape[0], adat.shape[0]
    xm = x + 0.5 * w[:n]
    pos, rot = np.empty((nb + 1, 3)), np.empty((nb + 1, 3, 3))
    T = np.empty((nb + 1, 6))
    _frames(xm, nb, pos, rot)
    _twists(xm, nb, bdat, T)
    f = np.zeros(n)
    # bodies: J_b z̄ with z̄ = (z_q, T)
    for b in range(nb):
        o = 18 * b
        R = rot[b]
        zq = bdat[b, 36:48]
        ww, wv = T[b, 0:3], T[b, 3:6]
        Po, Pv = xm[o + 12:o + 15], xm[o + 15:o + 18]
        for i in range(3):
            f[o + i] = R[i, 0] * wv[0] + R[i, 1] * wv[1] + R[i, 2] * wv[2]
            r0, r1, r2 = R[i, 0], R[i, 1], R[i, 2]
            f[o + 3 + 3 * i] = r1 * ww[2] - r2 * ww[1]        # row i of R ω̃ = R_i × ω
            f[o + 4 + 3 * i] = r2 * ww[0] - r0 * ww[2]
            f[o + 5 + 3 * i] = r0 * ww[1] - r1 * ww[0]
        # −Kᵀ z_q: Σ_i R_i × W_i (ω part), −Rᵀ w_p (v part)
        tw0 = tw1 = tw2 = 0.0
        for i in range(3):
            r0, r1, r2 = R[i, 0], R[i, 1], R[i, 2]
            W0, W1, W2 = zq[3 + 3 * i], zq[4 + 3 * i], zq[5 + 3 * i]
            tw0 += r1 * W2 - r2 * W1
            tw1 += r2 * W0 - r0 * W2
            tw2 += r0 * W1 - r1 * W0
        f[o + 12] = tw0 + Po[1] * ww[2] - Po[2] * ww[1] + Pv[1] * wv[2] - Pv[2] * wv[1]
        f[o + 13] = tw1 + Po[2] * ww[0] - Po[0] * ww[2] + Pv[2] * wv[0] - Pv[0] * wv[2]
        f[o + 14] = tw2 + Po[0] * ww[1] - Po[1] * ww[0] + Pv[0] * wv[1] - Pv[1] * wv[0]
        for j in range(3):
            f[o + 15 + j] = -(R[0, j] * zq[0] + R[1, j] * zq[1] + R[2, j] * zq[2])
        f[o + 15] += Pv[1] * ww[2] - Pv[2] * ww[1]
        f[o + 16] += Pv[2] * ww[0] - Pv[0] * ww[2]
        f[o + 17] += Pv[0] * ww[1] - Pv[1] * ww[0]
    W = np.empty((2, 6))
    dW = np.empty((2, 6, 24))
    sc, dsc = np.empty((6, 3)), np.empty((6, 3, 24))
    # constraint rows: f += B λ, c = Bᵀ z̄
    for r in range(k):
        _con_value(r, pos, rot, rdat, rint, W)
        e0, e1 = rint[r, 0], rint[r, 1]
        lam = w[n + r] / h
        for side in range(2):
            e = e0 if side == 0 else e1
            if e < nb:
                for i in range(6):
                    f[18 * e + 12 + i] += lam * W[side, i]
        F[n + r] = _velocity(W, T, e0, e1)
    # actuators: coef = u − c v − k(s − s_ref) on the column, v on the spring row
    for a in range(m):
        _act_wrench(a, pos, rot, nb, adat, aint, W, dW, nb < 0, sc, dsc)
        e0, e1, sp = aint[a, 0], aint[a, 1], aint[a, 2]
        v = _velocity(W, T, e0, e1)
        coef = u[a] - adat[a, 14] * v
        if sp >= 0:
            coef -= adat[a, 16] * (xm[18 * nb + sp] - adat[a, 17])
            f[18 * nb + sp] += v
        for side in range(2):
            e = e0 if side == 0 else e1
            if e < nb:
                for i in range(6):
                    f[18 * e + 12 + i] += coef * W[side, i]
    for i in range(n):
        F[i] = w[i] - h * f[i]


# ---------------------------------------------------------------- energy and ports
@njit
def energy(x: np.ndarray, nb: int, bdat: np.ndarray, adat: np.ndarray,
           aint: np.ndarray) -> float:
    r""":math:`H = \sum_b \tfrac12 P^\top M^{-1}P + z_q\cdot q + \sum_s \tfrac12 k(s -
    s_{ref})^2` (J)."""
    H = 0.0
    for b in range(nb):
        o = 18 * b
        for i in range(6):
            t = 0.0
            for j in range(6):
                t += bdat[b, 6 * i + j] * x[o + 12 + j]
            H += 0.5 * x[o + 12 + i] * t
        for i in range(12):
            H += bdat[b, 36 + i] * x[o + i]
    for a in range(adat.shape[0]):
        sp = aint[a, 2]
        if sp >= 0:
            d = x[18 * nb + sp] - adat[a, 17]
            H += 0.5 * adat[a, 16] * d * d
    return H


@njit
def ports(x: np.ndarray, nb: int, bdat: np.ndarray, adat: np.ndarray, aint: np.ndarray,
          y: np.ndarray) -> None:
    """``y = G(x)ᵀ z(x)``: the actuated joint velocities (m,)."""
    pos, rot = np.empty((nb + 1, 3)), np.empty((nb + 1, 3, 3))
    T = np.empty((nb + 1, 6))
    _frames(x, nb, pos, rot)
    _twists(x, nb, bdat, T)
    W, dW = np.empty((2, 6)), np.empty((2, 6, 24))
    sc, dsc = np.empty((6, 3)), np.empty((6, 3, 24))
    for a in range(adat.shape[0]):
        _act_wrench(a, pos, rot, nb, adat, aint, W, dW, nb < 0, sc, dsc)
        y[a] = _velocity(W, T, aint[a, 0], aint[a, 1])


@njit
def step_outputs(x: np.ndarray, w: np.ndarray, h: float, u: np.ndarray, nb: int, ns: int,
                 bdat: np.ndarray, rdat: np.ndarray, rint: np.ndarray, adat: np.ndarray,
                 aint: np.ndarray, F: np.ndarray, fresh: bool = False
                 ) -> tuple[float, float, float, float]:
    """What a step reports: power supplied ``uᵀȳ`` and dissipated ``Σ c ȳ²`` (W) at the
    midpoint, ``H(x + δ) − H(x)`` (J), and the constraint residual ``|B(x̄)ᵀz̄|∞``
    (from ``F`` = the step residual at ``w`` if ``fresh``, else evaluated here)."""
    n = 18 * nb + ns
    if not fresh:
        residual(x, w, h, u, nb, ns, bdat, rdat, rint, adat, aint, F)
    res = 0.0
    for r in range(n, F.size):
        res = max(res, abs(F[r]))
    m = adat.shape[0]
    y = np.empty(m)
    ports(x + 0.5 * w[:n], nb, bdat, adat, aint, y)
    sup = dis = 0.0
    for a in range(m):
        sup += u[a] * y[a]
        dis += adat[a, 14] * y[a] * y[a]
    dH = energy(x + w[:n], nb, bdat, adat, aint) - energy(x, nb, bdat, adat, aint)
    return sup, dis, dH, res


@njit
def point(x: np.ndarray, u: np.ndarray, nb: int, ns: int, bdat: np.ndarray,
          rdat: np.ndarray, rint: np.ndarray, adat: np.ndarray, aint: np.ndarray,
          y: np.ndarray, c: np.ndarray) -> tuple[float, float, float, float]:
    """What is recorded at a saved point: ``H`` (J), the stored power ``zᵀ f(x, z, 0,
    u)``, supplied ``uᵀy`` and dissipated ``Σ c y²`` (W); ``y`` (m) and the constraint
    velocities ``c = B(x)ᵀz(x)`` (k) into the arrays given.  (The step residual at
    ``δ = 0``, ``h = 1`` is ``(−f(x, z, 0, u), c)``.)"""
    n = 18 * nb + ns
    F = np.empty(n + rdat.shape[0])
    residual(x, np.zeros(F.size), 1.0, u, nb, ns, bdat, rdat, rint, adat, aint, F)
    stored = 0.0
    for b in range(nb):
        for i in range(12):
            stored -= bdat[b, 36 + i] * F[18 * b + i]
        for i in range(6):
            t = 0.0
            for j in range(6):
                t += bdat[b, 6 * i + j] * x[18 * b + 12 + j]
            stored -= t * F[18 * b + 12 + i]
    for a in range(adat.shape[0]):
        sp = aint[a, 2]
        if sp >= 0:
            stored -= adat[a, 16] * (x[18 * nb + sp] - adat[a, 17]) * F[18 * nb + sp]
    for r in range(c.size):
        c[r] = F[n + r]
    ports(x, nb, bdat, adat, aint, y)
    sup = dis = 0.0
    for a in range(adat.shape[0]):
        sup += u[a] * y[a]
        dis += adat[a, 14] * y[a] * y[a]
    return energy(x, nb, bdat, adat, aint), stored, sup, dis


# ---------------------------------------------------------------- Newton matrix
@njit
def _put(band: np.ndarray, kl: int, ku: int, iperm: np.ndarray, i: int, j: int,
         v: float) -> bool:
    """``A[i, j] += v`` in the (transposed LAPACK) band storage of the permuted matrix
    (False: outside the band, i.e. the pattern was wrong)."""
    pi, pj = iperm[i], iperm[j]
    if pi - pj > kl or pj - pi > ku:
        return v == 0.0
    band[pj, kl + ku + pi - pj] += v
    return True


@njit
def _hat(v: np.ndarray, out: np.ndarray) -> None:
    """``out = ṽ`` (the 3 × 3 matrix of ``v ×``)."""
    out[0, 0], out[0, 1], out[0, 2] = 0.0, -v[2], v[1]
    out[1, 0], out[1, 1], out[1, 2] = v[2], 0.0, -v[0]
    out[2, 0], out[2, 1], out[2, 2] = -v[1], v[0], 0.0


@njit
def _pair(pstart: np.ndarray, pbody: np.ndarray, o: int, b: int) -> int:
    for p in range(pstart[o], pstart[o + 1]):
        if pbody[p] == b:
            return p
    return -1


@njit
def _assemble(x: np.ndarray, w: np.ndarray, h: float, u: np.ndarray, nb: int, ns: int,
              bdat: np.ndarray, rdat: np.ndarray, rint: np.ndarray, adat: np.ndarray,
              aint: np.ndarray, pstart: np.ndarray, pbody: np.ndarray, iperm: np.ndarray,
              kl: int, ku: int, band: np.ndarray, Aqq: np.ndarray, AqP: np.ndarray,
              Aoq: np.ndarray) -> bool:
    """The Newton matrix at ``w`` split as in the module docstring: local pose blocks
    ``Aqq`` (nb × 12 × 12), ``AqP`` (nb × 12 × 6), outer-row × pose blocks ``Aoq``
    (pairs × 12) and the outer × outer part added into ``band``."""
    n = 18 * nb + ns
    k, m = rdat.shape[0], adat.shape[0]
    hh = 0.5 * h
    xm = x + 0.5 * w[:n]
    pos, rot = np.empty((nb + 1, 3)), np.empty((nb + 1, 3, 3))
    T = np.empty((nb + 1, 6))
    _frames(xm, nb, pos, rot)
    _twists(xm, nb, bdat, T)
    band[:, :] = 0.0
    Aqq[:, :, :] = 0.0
    AqP[:, :, :] = 0.0
    Aoq[:, :] = 0.0
    ok = True
    # per-body scratch, allocated once (small temporaries in the body loop cost more
    # than the arithmetic)
    K = np.zeros((12, 6))
    PP, D, A = np.zeros((6, 6)), np.zeros((6, 6)), np.empty((6, 6))
    hw, hv, hPo, hPv = np.empty((3, 3)), np.empty((3, 3)), np.empty((3, 3)), np.empty((3, 3))
    row = np.empty(3)
    for b in range(nb):
        R = rot[b]
        Minv = bdat[b, :36].reshape(6, 6)
        zq = bdat[b, 36:48]
        ww, wv = T[b, 0:3], T[b, 3:6]
        Po, Pv = xm[18 * b + 12:18 * b + 15], xm[18 * b + 15:18 * b + 18]
        for i in range(12):
            Aqq[b, i, i] = 1.0
        for i in range(3):  # ∂(R w_v)_i/∂R_ik = w_v,k
            for kk in range(3):
                Aqq[b, i, 3 + 3 * i + kk] -= hh * wv[kk]
        # ∂(R ω̃)_ij/∂R_ik = ω̃_kj, ω̃ = hat(ω)
        _hat(ww, hw)
        for i in range(3):
            for j in range(3):
                for kk in range(3):
                    Aqq[b, 3 + 3 * i + j, 3 + 3 * i + kk] -= hh * hw[kk, j]
        # K: q rows × twist cols; K[(i,j), l] = −Σ_a R_ia ε_laj, K[i, 3+c] = R_ic
        K[:, :] = 0.0
        for i in range(3):
            for c in range(3):
                K[i, 3 + c] = R[i, c]
            K[3 + 3 * i + 0, 1] = -R[i, 2]
            K[3 + 3 * i + 0, 2] = R[i, 1]
            K[3 + 3 * i + 1, 0] = R[i, 2]
            K[3 + 3 * i + 1, 2] = -R[i, 0]
            K[3 + 3 * i + 2, 0] = -R[i, 1]
            K[3 + 3 * i + 2, 1] = R[i, 0]
        for i in range(12):  # AqP = −h/2 K M⁻¹
            for j in range(6):
                t = 0.0
                for l in range(6):
                    t += K[i, l] * Minv[l, j]
                AqP[b, i, j] = -hh * t
        # P rows × own R cols: ∂(Σ R_i × W_i)_l/∂R_ia = Σ_c ε_lac W_ic; ∂(−Rᵀw_p)_j/∂R_ij
        o = 6 * b
        for mm in range(3):
            W0, W1, W2 = zq[3 + 3 * mm], zq[4 + 3 * mm], zq[5 + 3 * mm]
            for l in range(3):
                # ε_lac W_c for a = 0..2
                row[:] = 0.0
                if l == 0:
                    row[1], row[2] = W2, -W1
                elif l == 1:
                    row[0], row[2] = -W2, W0
                else:
                    row[0], row[1] = W1, -W0
                p = _pair(pstart, pbody, o + l, b)
                for a in range(3):
                    Aoq[p, 3 + 3 * mm + a] -= hh * row[a]
            for j in range(3):
                p = _pair(pstart, pbody, o + 3 + j, b)
                Aoq[p, 3 + 3 * mm + j] -= hh * (-zq[mm])
        # P rows × own P cols: 1 − h/2 (∂(𝒫(P)w)/∂P at w = z̄) − h/2 𝒫(P̄) M⁻¹
        _hat(wv, hv)
        _hat(Po, hPo)
        _hat(Pv, hPv)
        for i in range(3):
            for j in range(3):
                D[i, j], D[i, 3 + j], D[3 + i, 3 + j] = -hw[i, j], -hv[i, j], -hw[i, j]
                PP[i, j], PP[i, 3 + j], PP[3 + i, j] = hPo[i, j], hPv[i, j], hPv[i, j]
        for i in range(6):
            for j in range(6):
                t = 0.0
                for l in range(6):
                    t += PP[i, l] * Minv[l, j]
                A[i, j] = -hh * (D[i, j] + t)
        for i in range(6):
            A[i, i] += 1.0
            for j in range(6):
                ok &= _put(band, kl, ku, iperm, o + i, o + j, A[i, j])
    for s in range(ns):
        ok &= _put(band, kl, ku, iperm, 6 * nb + s, 6 * nb + s, 1.0)
    W = np.empty((2, 6))
    dW = np.empty((2, 6, 24))
    sc, dsc = np.empty((6, 3)), np.empty((6, 3, 24))
    gw = np.empty(24)
    WM, WM2 = np.empty(6), np.empty(6)
    for r in range(k):
        _con_wrench(r, pos, rot, nb, rdat, rint, W, dW, nb >= 0, sc, dsc)
        e0, e1 = rint[r, 0], rint[r, 1]
        lam = w[n + r] / h
        orow = 6 * nb + ns + r
        _velocity_gradient(T, dW, e0, e1, nb, gw)
        for side in range(2):
            e = e0 if side == 0 else e1
            if e >= nb:
                continue
            for c in range(6):  # −B column, ½ Bᵀ D_z row
                ok &= _put(band, kl, ku, iperm, 6 * e + c, orow, -W[side, c])
            _wrench_times_inverse_mass(W, side, bdat, e, WM)
            for c in range(6):
                ok &= _put(band, kl, ku, iperm, orow, 6 * e + c, 0.5 * WM[c])
            for side2 in range(2):
                e2 = e0 if side2 == 0 else e1
                if e2 >= nb:
                    continue
                for c in range(6):  # −h/2 λ ∂W/∂q
                    p = _pair(pstart, pbody, 6 * e + c, e2)
                    for q in range(12):
                        Aoq[p, q] -= hh * lam * dW[side, c, 12 * side2 + q]
            p = _pair(pstart, pbody, orow, e)  # ½ ∂c/∂q
            for q in range(12):
                Aoq[p, q] += 0.5 * gw[12 * side + q]
    for a in range(m):
        _act_wrench(a, pos, rot, nb, adat, aint, W, dW, nb >= 0, sc, dsc)
        e0, e1, sp = aint[a, 0], aint[a, 1], aint[a, 2]
        damp = adat[a, 14]
        v = _velocity(W, T, e0, e1)
        coef = u[a] - damp * v
        if sp >= 0:
            coef -= adat[a, 16] * (xm[18 * nb + sp] - adat[a, 17])
        _velocity_gradient(T, dW, e0, e1, nb, gw)
        for side in range(2):
            e = e0 if side == 0 else e1
            if e >= nb:
                continue
            _wrench_times_inverse_mass(W, side, bdat, e, WM)
            for side2 in range(2):
                e2 = e0 if side2 == 0 else e1
                if e2 >= nb:
                    continue
                for c in range(6):  # −h/2 (coef ∂W/∂q − c W (wᵀ∂W/∂q))
                    p = _pair(pstart, pbody, 6 * e + c, e2)
                    for q in range(12):
                        Aoq[p, q] -= hh * (coef * dW[side, c, 12 * side2 + q]
                                           - damp * W[side, c] * gw[12 * side2 + q])
                # +h/2 R D_z: c W_i (W_jᵀ M_j⁻¹)
                _wrench_times_inverse_mass(W, side2, bdat, e2, WM2)
                for c2 in range(6):
                    t = WM2[c2]
                    for c in range(6):
                        ok &= _put(band, kl, ku, iperm, 6 * e + c, 6 * e2 + c2,
                                   hh * damp * W[side, c] * t)
            if sp >= 0:
                srow = 6 * nb + sp
                p = _pair(pstart, pbody, srow, e)  # −h/2 ∂v/∂q on the spring row
                for q in range(12):
                    Aoq[p, q] -= hh * gw[12 * side + q]
                for c in range(6):  # −h/2 J D_z: row s ← W M⁻¹, column s ← −k W
                    ok &= _put(band, kl, ku, iperm, srow, 6 * e + c, -hh * WM[c])
                    ok &= _put(band, kl, ku, iperm, 6 * e + c, srow,
                               hh * adat[a, 16] * W[side, c])
    return ok


@njit
def _gbtrf(n: int, kl: int, ku: int, AB: np.ndarray, ipiv: np.ndarray) -> bool:
    """Band LU with partial pivoting in place (LAPACK ``gbtf2``; ``A[i, j]`` at
    ``AB[j, kl + ku + i − j]``, the first ``kl`` rows are fill-in space)."""
    kv = ku + kl
    ju = 0
    for j in range(n):
        km = min(kl, n - 1 - j)
        jp, best = 0, -1.0
        for i in range(km + 1):
            t = abs(AB[j, kv + i])
            if t > best:
                jp, best = i, t
        ipiv[j] = j + jp
        if best == 0.0 or not np.isfinite(best):
            return False
        ju = max(ju, min(j + ku + jp, n - 1))
        if jp != 0:
            for c in range(j, ju + 1):
                t = AB[c, kv + jp + j - c]
                AB[c, kv + jp + j - c] = AB[c, kv + j - c]
                AB[c, kv + j - c] = t
        piv = AB[j, kv]
        for i in range(1, km + 1):
            AB[j, kv + i] /= piv
        src = AB[j, kv + 1:kv + 1 + km]
        for c in range(j + 1, ju + 1):
            t = AB[c, kv + j - c]
            if t != 0.0:  # a slice, indices from range: vectorized (see _gbtrs)
                dst = AB[c, kv + j - c + 1:kv + j - c + 1 + km]
                for i in range(km):
                    dst[i] -= src[i] * t
    return True


@njit
def _gbtrs(n: int, kl: int, ku: int, AB: np.ndarray, ipiv: np.ndarray, b: np.ndarray
           ) -> None:
    """``b = A⁻¹b`` with the factors of :func:`_gbtrf`.  The inner loops run over slices
    with indices from ``range`` (non-negative: no wrap-around test, so LLVM vectorizes
    them; with offset indices this solve took 3× longer)."""
    kv = ku + kl
    for j in range(n - 1):
        km = min(kl, n - 1 - j)
        p = ipiv[j]
        if p != j:
            b[p], b[j] = b[j], b[p]
        t = b[j]
        seg, col = b[j + 1:j + 1 + km], AB[j, kv + 1:kv + 1 + km]
        for i in range(km):
            seg[i] -= col[i] * t
    for j in range(n - 1, -1, -1):
        t = b[j] / AB[j, kv]
        b[j] = t
        lo = max(0, j - kv)
        seg, col = b[lo:j], AB[j, kv - j + lo:kv]
        for i in range(j - lo):
            seg[i] -= col[i] * t


@njit
def _invert(A: np.ndarray, out: np.ndarray) -> bool:
    """``out = A⁻¹`` by Gauss–Jordan elimination with partial pivoting (``A`` is
    overwritten; False: singular).  Zero multipliers are skipped: the pose blocks are
    mostly zeros (identity plus O(h) couplings)."""
    n = A.shape[0]
    out[:, :] = 0.0
    for i in range(n):
        out[i, i] = 1.0
    for j in range(n):
        p, best = j, abs(A[j, j])
        for i in range(j + 1, n):
            if abs(A[i, j]) > best:
                p, best = i, abs(A[i, j])
        if best == 0.0 or not np.isfinite(best):
            return False
        if p != j:
            for c in range(n):
                A[j, c], A[p, c] = A[p, c], A[j, c]
                out[j, c], out[p, c] = out[p, c], out[j, c]
        inv = 1.0 / A[j, j]
        for c in range(n):
            A[j, c] *= inv
            out[j, c] *= inv
        for i in range(n):
            f = A[i, j]
            if i == j or f == 0.0:
                continue
            for c in range(n):
                A[i, c] -= f * A[j, c]
                out[i, c] -= f * out[j, c]
    return True


@njit
def factor(x: np.ndarray, w: np.ndarray, h: float, u: np.ndarray, nb: int, ns: int,
           bdat: np.ndarray, rdat: np.ndarray, rint: np.ndarray, adat: np.ndarray,
           aint: np.ndarray, pstart: np.ndarray, pbody: np.ndarray, iperm: np.ndarray,
           kl: int, ku: int, band: np.ndarray, ipiv: np.ndarray, Aqi: np.ndarray,
           C: np.ndarray, Aoq: np.ndarray) -> int:
    """Assemble the Newton matrix at ``w``, eliminate the pose unknowns and factor the
    reduced band matrix; fills ``Aqi = A_qq⁻¹``, ``C``, ``Aoq``, ``band``, ``ipiv``."""
    AqP = np.empty((nb, 12, 6))
    if not _assemble(x, w, h, u, nb, ns, bdat, rdat, rint, adat, aint, pstart, pbody,
                     iperm, kl, ku, band, Aqi, AqP, Aoq):
        return FAILED  # an entry outside the band: the sparsity pattern is wrong
    work = np.empty((12, 12))
    for b in range(nb):
        work[:, :] = Aqi[b]
        if not _invert(work, Aqi[b]):
            return SINGULAR
        for i in range(12):  # C = A_qq⁻¹ A_qP
            for c in range(6):
                t = 0.0
                for q in range(12):
                    t += Aqi[b, i, q] * AqP[b, q, c]
                C[b, i, c] = t
    for o in range(pstart.size - 1):
        for p in range(pstart[o], pstart[o + 1]):
            b = pbody[p]
            for c in range(6):
                t = 0.0
                for q in range(12):
                    t += Aoq[p, q] * C[b, q, c]
                if not _put(band, kl, ku, iperm, o, 6 * b + c, -t):
                    return FAILED
    if not _gbtrf(band.shape[0], kl, ku, band, ipiv):
        return SINGULAR
    return OK


@njit
def _dot12(a: np.ndarray, b: np.ndarray) -> float:
    """``a · b`` of two 12-vectors with four partial sums (a single running sum waits
    on the latency of every addition; the order differs from it only by round-off)."""
    t0 = a[0] * b[0] + a[4] * b[4] + a[8] * b[8]
    t1 = a[1] * b[1] + a[5] * b[5] + a[9] * b[9]
    t2 = a[2] * b[2] + a[6] * b[6] + a[10] * b[10]
    t3 = a[3] * b[3] + a[7] * b[7] + a[11] * b[11]
    return (t0 + t1) + (t2 + t3)


@njit
def _solve(F: np.ndarray, nb: int, ns: int, pstart: np.ndarray, pbody: np.ndarray,
           iperm: np.ndarray, kl: int, ku: int, band: np.ndarray, ipiv: np.ndarray,
           Aqi: np.ndarray, C: np.ndarray, Aoq: np.ndarray, dw: np.ndarray) -> None:
    """``dw = A⁻¹F`` with the factors of :func:`factor` (module docstring)."""
    n = 18 * nb + ns
    nred = band.shape[0]
    yq = np.empty((nb, 12))
    for b in range(nb):
        Fq = F[18 * b:18 * b + 12]
        for i in range(12):
            yq[b, i] = _dot12(Aqi[b, i], Fq)
    ro = np.empty(nred)
    for b in range(nb):
        for c in range(6):
            ro[6 * b + c] = F[18 * b + 12 + c]
    for s in range(ns):
        ro[6 * nb + s] = F[18 * nb + s]
    for r in range(nred - 6 * nb - ns):
        ro[6 * nb + ns + r] = F[n + r]
    for o in range(nred):
        t = ro[o]
        for p in range(pstart[o], pstart[o + 1]):
            t -= _dot12(Aoq[p], yq[pbody[p]])
        ro[o] = t
    rp = np.empty(nred)
    for o in range(nred):
        rp[iperm[o]] = ro[o]
    _gbtrs(nred, kl, ku, band, ipiv, rp)
    for o in range(nred):
        ro[o] = rp[iperm[o]]
    for b in range(nb):
        for i in range(12):
            t = yq[b, i]
            for c in range(6):
                t -= C[b, i, c] * ro[6 * b + c]
            dw[18 * b + i] = t
        for c in range(6):
            dw[18 * b + 12 + c] = ro[6 * b + c]
    for s in range(ns):
        dw[18 * nb + s] = ro[6 * nb + s]
    for r in range(nred - 6 * nb - ns):
        dw[n + r] = ro[6 * nb + ns + r]


@njit
def _maxabs(v: np.ndarray) -> float:
    t = 0.0
    for i in range(v.size):
        a = abs(v[i])
        if not a <= t:  # also propagates NaN
            t = a
    return t


@njit
def _guess(hist_h: np.ndarray, hist_r: np.ndarray, nh: int, h: float, w0: np.ndarray
           ) -> None:
    """Newton's first guess into ``w0``, as
    :func:`porthamiltonian.simulate.dae.midpoint.extrapolated_guess`: the rates ``(δ,
    μ)/h`` of the last ``nh ≤ 3`` steps (``hist_r``, oldest first, their ``h`` in
    ``hist_h``) extrapolated quadratically when all three had this ``h``, the last two
    linearly, else the last rate (zero without one)."""
    if nh == 3 and hist_h[0] == h and hist_h[1] == h and hist_h[2] == h:
        for i in range(w0.size):
            w0[i] = h * (3.0 * hist_r[2, i] - 3.0 * hist_r[1, i] + hist_r[0, i])
    elif nh >= 2 and hist_h[nh - 2] == h and hist_h[nh - 1] == h:
        for i in range(w0.size):
            w0[i] = h * (2.0 * hist_r[nh - 1, i] - hist_r[nh - 2, i])
    elif nh >= 1:
        for i in range(w0.size):
            w0[i] = h * hist_r[nh - 1, i]
    else:
        w0[:] = 0.0


@njit
def march(x: np.ndarray, t: np.ndarray, h: np.ndarray, save: np.ndarray, U: np.ndarray,
          tol: float, max_newton: int, simplified: bool, nb: int, ns: int, bdat: np.ndarray,
          rdat: np.ndarray, rint: np.ndarray, adat: np.ndarray, aint: np.ndarray,
          pstart: np.ndarray, pbody: np.ndarray, iperm: np.ndarray, kl: int, ku: int,
          band: np.ndarray, ipiv: np.ndarray, Aqi: np.ndarray, C: np.ndarray,
          Aoq: np.ndarray, pol: np.ndarray, hist_h: np.ndarray, hist_r: np.ndarray,
          acc: np.ndarray, X: np.ndarray, LAM: np.ndarray, OUT: np.ndarray, w: np.ndarray,
          lam: np.ndarray) -> tuple[int, int, int]:
    r"""Midpoint steps ``j = 0, 1, …`` of lengths ``h[j]`` from ``x`` (updated in place),
    with the inputs ``U[j] = u(t_j + h_j/2)``: per step the extrapolated first guess
    (:func:`_guess`), Newton with the policy of
    :class:`~porthamiltonian.simulate.linalg.newton.SimplifiedNewton` (the factors of an
    earlier step while they serve, refreshed after more than ``REFRESH_AFTER``
    iterations; a fresh matrix when that fails; after two failures full Newton for
    ``1, 2, 4, … ≤ MAX_BACKOFF`` steps), and the step's reports (:func:`step_outputs`).

    State carried between calls: ``pol`` = (factors held: 0/1, steps of full Newton
    left, back-off, steps in the history), ``hist_h`` = the last three step lengths
    (oldest first) and the ``h`` of the held factors (``band`` … ``Aoq``), ``hist_r``
    their rates ``(δ, μ)/h``.
    ``acc`` (6) sums since the last saved point: work supplied ``h uᵀȳ`` and dissipated
    (J), ``ΔH`` (J), Newton iterations, residual evaluations, and holds the largest
    ``|B(x̄)ᵀz̄|∞``; at a step with ``save[j]`` the state, ``λ = μ/h`` and ``acc`` go to
    the next rows of ``X``, ``LAM``, ``OUT`` and ``acc`` restarts.  ``w``: the last
    step's ``(δ, μ)``; ``lam``: its ``μ/h``.

    Returns ``(steps done, status, iterations)``: status :data:`OK` after all steps, else
    that of the step ``done`` (not taken; ``x`` is the state before it):
    :data:`FAILED`/:data:`SINGULAR` from Newton (its iterations given; the policy state
    records the failure as the per-step path does) or :data:`NONFINITE` (``w`` and
    ``lam`` hold that step's values)."""
    n = x.size
    size_w = w.size
    k = size_w - n
    w0, F, dw = np.empty(size_w), np.empty(size_w), np.empty(size_w)
    row = 0
    for j in range(t.size):
        hj = h[j]
        u = U[j]
        _guess(hist_h, hist_r, pol[3], hj, w0)
        scale = _maxabs(x)
        # -------- Newton with the simplified-Newton policy (one Newton loop)
        if simplified and pol[1] == 0:
            mode = 0 if pol[0] == 1 and hist_h[3] == hj else 1
        else:
            if pol[1] > 0:
                pol[1] -= 1
            mode = 2
        attempt = 0
        while True:
            w[:] = w0
            if mode == 2:
                pol[0] = 0  # full Newton overwrites the factors
            max_iter = max_newton if mode == 2 else SIMPLIFIED_ITER
            # ---- Newton's iteration, with the convergence tests of
            # porthamiltonian.simulate.linalg.newton.newton: mode 0 reuses the factors, 1
            # factors at w0 first, 2 at every iterate (full Newton).  After a converged
            # simplified solve F holds the residual at the solution (its last test).
            prev, size, wmax, bound = np.inf, 0.0, 0.0, 0.0
            st, it, nfev = FAILED, 0, 0
            testing = False  # the residual just evaluated is the test of iteration `it`
            while True:
                residual(x, w, hj, u, nb, ns, bdat, rdat, rint, adat, aint, F)
                nfev += 1
                if testing:
                    testing = False
                    if residual_accepted(_maxabs(F), wmax, bound, tol):
                        st = OK
                        break
                    # not converged: this F serves the next iteration
                    if (it > 3 and size > prev) or it == max_iter:
                        break
                    prev = size
                it += 1
                if not np.isfinite(_maxabs(F)):
                    break
                if mode == 2 or (mode == 1 and it == 1):
                    st = factor(x, w, hj, u, nb, ns, bdat, rdat, rint, adat, aint, pstart,
                                pbody, iperm, kl, ku, band, ipiv, Aqi, C, Aoq)
                    if st != OK:
                        break
                    st = FAILED
                _solve(F, nb, ns, pstart, pbody, iperm, kl, ku, band, ipiv, Aqi, C, Aoq, dw)
                for i in range(size_w):
                    w[i] -= dw[i]
                size = _maxabs(dw)
                wmax = _maxabs(w)
                bound = scale + wmax + 1e-300
                if not np.isfinite(size):
                    break
                if mode != 2:  # linear convergence: to the round-off floor, then test F
                    if at_floor(size, prev, bound, tol):
                        testing = True
                        continue
                elif full_converged(size, prev, bound, tol):
                    st = OK
                    break
                if (it > 3 and size > prev) or it == max_iter:
                    break
                prev = size
            if st == OK:
                break
            if mode == 2:
                return j, st, it
            attempt += 1
            pol[0] = 0
            if attempt < 2:  # a fresh matrix
                mode = 1
            else:  # twice failed: full Newton for the next `back-off` steps
                pol[1], pol[2] = pol[2], min(2 * pol[2], MAX_BACKOFF)
                mode = 2
        simplified_ok = mode != 2
        if simplified_ok:
            if it > REFRESH_AFTER:
                pol[0] = 0
            else:
                pol[0] = 1
                hist_h[3] = hj
            pol[2] = 1
            nfev += attempt
        # -------- history of rates, reports, the new state
        if pol[3] == 3:
            hist_h[0], hist_h[1] = hist_h[1], hist_h[2]
            hist_r[0, :] = hist_r[1]
            hist_r[1, :] = hist_r[2]
        else:
            pol[3] += 1
        last = pol[3] - 1
        hist_h[last] = hj
        for i in range(size_w):
            hist_r[last, i] = w[i] / hj
        # a simplified solve ended with F at w (its last test); full Newton did not
        sup, dis, dH, res = step_outputs(x, w, hj, u, nb, ns, bdat, rdat, rint, adat, aint,
                                         F, simplified_ok)
        finite = True
        for i in range(k):
            lam[i] = w[n + i] / hj
            finite &= np.isfinite(lam[i])
        for i in range(n):
            finite &= np.isfinite(x[i] + w[i])
        if not finite:
            return j, NONFINITE, it
        for i in range(n):
            x[i] += w[i]
        acc[0] += hj * sup
        acc[1] += hj * dis
        acc[2] += dH
        acc[3] += it
        acc[4] += nfev
        if res > acc[5]:
            acc[5] = res
        if save[j]:
            X[row, :] = x
            LAM[row, :] = lam
            OUT[row, :] = acc
            acc[:] = 0.0
            row += 1
    return t.size, OK, 0


@njit
def points(X: np.ndarray, U: np.ndarray, nb: int, ns: int, bdat: np.ndarray,
           rdat: np.ndarray, rint: np.ndarray, adat: np.ndarray, aint: np.ndarray,
           Y: np.ndarray, Q: np.ndarray, node: np.ndarray) -> None:
    """:func:`point` at the rows of ``X`` and ``U``: outputs into ``Y``, ``(H, stored,
    supplied, dissipated)`` into the rows of ``Q``, ``|B(x)ᵀz(x)|∞`` into ``node``."""
    c = np.empty(rdat.shape[0])
    for i in range(X.shape[0]):
        Q[i, 0], Q[i, 1], Q[i, 2], Q[i, 3] = point(X[i], U[i], nb, ns, bdat, rdat, rint,
                                                   adat, aint, Y[i], c)
        node[i] = 0.0
        for r in range(c.size):
            a = abs(c[r])
            if not a <= node[i]:
                node[i] = a


def reduced_dense(x: np.ndarray, w: np.ndarray, h: float, u: np.ndarray, nb: int, ns: int,
                  data: tuple, pstart: np.ndarray, pbody: np.ndarray) -> np.ndarray:
    """The reduced (outer) Newton matrix as a dense array, unpermuted: what the band
    pattern and the ordering are chosen from."""
    nred = 6 * nb + ns + data[1].shape[0]
    band = np.zeros((nred, 3 * nred - 2)) if nred > 1 else np.zeros((1, 1))
    kl = ku = max(nred - 1, 0)
    ident = np.arange(nred)
    Aqi, AqP = np.empty((nb, 12, 12)), np.empty((nb, 12, 6))
    Aoq = np.empty((pbody.size, 12))
    _assemble(x, w, h, u, nb, ns, *data, pstart, pbody, ident, kl, ku, band, Aqi, AqP, Aoq)
    out = np.zeros((nred, nred))
    for j in range(nred):
        for i in range(nred):
            out[i, j] = band[j, kl + ku + i - j]
    for o in range(nred):
        for p in range(pstart[o], pstart[o + 1]):
            b = pbody[p]
            out[o, 6 * b:6 * b + 6] -= Aoq[p] @ np.linalg.solve(Aqi[b], AqP[b])
    return out
