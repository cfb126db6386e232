"""Models shared by the Lagrange–Dirac tests, and an independent evaluation of
accelerations from SymPy's own ``LagrangesMethod``."""

from __future__ import annotations

import numpy as np
import sympy
from sympy.physics.mechanics import LagrangesMethod, dynamicsymbols

from porthamiltonian import lagrange

t = dynamicsymbols._t


def accelerations(sys: lagrange.LagrangeDiracSystem, q, v, time: float = 0.0) -> np.ndarray:
    """``(v̇, λ)`` of our acceleration form at a numeric state."""
    M, r = sys.acceleration_form()
    pt = dict(zip(sys.coordinates, q, strict=True)) | dict(zip(sys.velocities, v, strict=True))
    pt |= sys.parameters | {sympy.Symbol("t"): time}
    Mn = np.array(M.xreplace(pt).evalf(), dtype=float)
    rn = np.array(r.xreplace(pt).evalf(), dtype=float).ravel()
    return np.linalg.solve(Mn, rn)


def sympy_accelerations(L, qs, q, v, params, nonhol=(), hol=()) -> np.ndarray:
    """``q̈`` from ``sympy.physics.mechanics.LagrangesMethod`` (independent derivation
    of the constrained Euler–Lagrange / Lagrange–d'Alembert equations)."""
    lm = LagrangesMethod(L, qs, nonhol_coneqs=list(nonhol) or None,
                         hol_coneqs=list(hol) or None)
    lm.form_lagranges_equations()
    qd = [qi.diff(t) for qi in qs]
    sub = dict(zip(qd, v, strict=True)) | dict(zip(qs, q, strict=True)) | params
    Mf = lm.mass_matrix_full.subs(sub)
    ff = lm.forcing_full.subs(sub)
    sol = np.linalg.solve(np.array(Mf.evalf(), dtype=float), np.array(ff.evalf(), dtype=float))
    n = len(qs)
    return sol.ravel()[n:2 * n]


# ---------------------------------------------------------------- mass–spring chain

m1, m2, k1, k2 = sympy.symbols("m1 m2 k1 k2", positive=True)
SPRING_PARAMS = {m1: 1.0, m2: 2.0, k1: 3.0, k2: 5.0}
x1, y1, x2 = dynamicsymbols("x1 y1 x2")


def spring_torn() -> lagrange.InterconnectedSystem:
    """Mass 1 on a wall spring | spring 2 (left end y1) with mass 2, joined by the
    continuity condition ``y1 = x1`` (interaction one-form ``dx1 − dy1``)."""
    a = lagrange.LagrangeDiracSystem(
        [x1], m1 * x1.diff(t) ** 2 / 2 - k1 * x1**2 / 2,
        parameters={m1: SPRING_PARAMS[m1], k1: SPRING_PARAMS[k1]}, name="mass1")
    b = lagrange.LagrangeDiracSystem(
        [y1, x2], m2 * x2.diff(t) ** 2 / 2 - k2 * (x2 - y1) ** 2 / 2,
        parameters={m2: SPRING_PARAMS[m2], k2: SPRING_PARAMS[k2]}, name="spring2+mass2")
    return lagrange.interconnect([a, b], lagrange.interaction([{x1: 1, y1: -1}]))


def spring_lagrangian():
    return (m1 * x1.diff(t) ** 2 / 2 + m2 * x2.diff(t) ** 2 / 2 - k1 * x1**2 / 2
            - k2 * (x2 - x1) ** 2 / 2)


def spring_mono() -> lagrange.LagrangeDiracSystem:
    return lagrange.LagrangeDiracSystem([x1, x2], spring_lagrangian(),
                                        parameters=SPRING_PARAMS, name="chain")


# ---------------------------------------------------------------- vertical rolling disk

X, Y, TH, PH = dynamicsymbols("x y theta phi")
md, Id, Jd, Rd = sympy.symbols("m I J R", positive=True)
DISK_PARAMS = {md: 2.0, Id: 0.3, Jd: 0.2, Rd: 0.5}
DISK_L = (md * (X.diff(t) ** 2 + Y.diff(t) ** 2) / 2 + Id * TH.diff(t) ** 2 / 2
          + Jd * PH.diff(t) ** 2 / 2)
DISK_CONSTRAINTS = [X.diff(t) - Rd * sympy.cos(PH) * TH.diff(t),
                    Y.diff(t) - Rd * sympy.sin(PH) * TH.diff(t)]


def rolling_disk() -> lagrange.LagrangeDiracSystem:
    """Vertical disk rolling without slipping (Yoshimura & Marsden 2006, Part I)."""
    return lagrange.LagrangeDiracSystem([X, Y, TH, PH], DISK_L, constraints=DISK_CONSTRAINTS,
                                        parameters=DISK_PARAMS, name="disk")


# ---------------------------------------------------------------- circuits

Lind, Ccap, Rres = sympy.symbols("L C R", positive=True)


def series_rlc_monolithic(R, L, C):
    q = dynamicsymbols("q")
    return lagrange.LagrangeDiracSystem(
        [q], Lind * q.diff(t) ** 2 / 2 - q**2 / (2 * Ccap), forces={q: -Rres * q.diff(t)},
        parameters={Lind: L, Ccap: C, Rres: R}, name="rlc")


def series_rlc_torn(R, L, C):
    """Seed §7 II: circuit A (inductor and resistor branches, one internal KCL) and
    circuit B (capacitor branch), joined by current continuity at the cut."""
    qL, qR, qC = dynamicsymbols("qL qR qC")
    a = lagrange.LagrangeDiracSystem(
        [qL, qR], Lind * qL.diff(t) ** 2 / 2, constraints=[qL.diff(t) - qR.diff(t)],
        forces={qR: -Rres * qR.diff(t)}, parameters={Lind: L, Rres: R}, name="circuit A")
    b = lagrange.LagrangeDiracSystem([qC], -qC**2 / (2 * Ccap), parameters={Ccap: C},
                                     name="circuit B")
    return lagrange.interconnect([a, b], lagrange.interaction([{qR: 1, qC: -1}]))


# ---------------------------------------------------------------- DC motor

Lm, Rm, Jr, br, K, V = sympy.symbols("L_m R_m J_r b_r K V", positive=True)
VALUES = {Lm: 0.05, Rm: 1.2, Jr: 0.02, br: 0.01, K: 0.3, V: 6.0}


def motor():
    q, th = dynamicsymbols("q theta")
    circuit = lagrange.LagrangeDiracSystem(
        [q], Lm * q.diff(t) ** 2 / 2, forces={q: V - Rm * q.diff(t)},
        parameters={Lm: VALUES[Lm], Rm: VALUES[Rm], V: VALUES[V]}, name="circuit")
    rotor = lagrange.LagrangeDiracSystem(
        [th], Jr * th.diff(t) ** 2 / 2, forces={th: -br * th.diff(t)},
        parameters={Jr: VALUES[Jr], br: VALUES[br]}, name="rotor")
    coupling = lagrange.dc_motor(q, th, VALUES[K])
    return lagrange.interconnect([circuit, rotor], coupling, name="dc motor")


# ---------------------------------------------------------------- ball on rotating tables

BX, BY, BPH, BTH, BPS, A1, A2 = dynamicsymbols("x y phi theta psi alpha1 alpha2")
TABLE = dict(m=1.0, r=0.1, J1=1e6, J2=2e6, r1=0.2, r2=0.3)


def _d(s):
    return s.diff(t)


def ball_omega():
    """Spatial angular velocity of the ball in ZXZ Euler angles (φ, θ, ψ)."""
    wx = _d(BTH) * sympy.cos(BPH) + _d(BPS) * sympy.sin(BTH) * sympy.sin(BPH)
    wy = _d(BTH) * sympy.sin(BPH) - _d(BPS) * sympy.sin(BTH) * sympy.cos(BPH)
    wz = _d(BPH) + _d(BPS) * sympy.cos(BTH)
    return wx, wy, wz


def table_parts():
    """Seed §7 III: a uniform ball (mass m, radius r) rolling without slipping on
    table 1 (angle α1), geared to table 2 (α2); Lagrangians and interaction forms."""
    p = TABLE
    wx, wy, wz = ball_omega()
    inertia = 2 * p["m"] * p["r"] ** 2 / 5
    L_ball = p["m"] * (_d(BX) ** 2 + _d(BY) ** 2) / 2 + inertia * (wx**2 + wy**2 + wz**2) / 2
    L1 = p["J1"] * _d(A1) ** 2 / 2
    L2 = p["J2"] * _d(A2) ** 2 / 2
    # contact point of the ball = point of table 1 below it; meshing gears
    forms = [_d(BX) - p["r"] * wy + _d(A1) * BY,
             _d(BY) + p["r"] * wx - _d(A1) * BX,
             p["r1"] * _d(A1) + p["r2"] * _d(A2)]
    return L_ball, L1, L2, forms


def table_torn() -> lagrange.InterconnectedSystem:
    L_ball, L1, L2, forms = table_parts()
    ball = lagrange.LagrangeDiracSystem([BX, BY, BPH, BTH, BPS], L_ball, name="ball")
    t1 = lagrange.LagrangeDiracSystem([A1], L1, name="table 1")
    t2 = lagrange.LagrangeDiracSystem([A2], L2, name="table 2")
    return lagrange.interconnect([ball, t1, t2],
                                 lagrange.interaction(forms, name="rolling and gears"))


def table_mono() -> lagrange.LagrangeDiracSystem:
    L_ball, L1, L2, forms = table_parts()
    return lagrange.LagrangeDiracSystem([BX, BY, BPH, BTH, BPS, A1, A2], L_ball + L1 + L2,
                                        constraints=forms, name="ball and tables")


def table_state(q, w):
    """Velocities satisfying the constraints for given (φ̇, θ̇, ψ̇, α̇1)."""
    p = TABLE
    wx, wy, _ = ball_omega()
    sub = {BPH: q[2], BTH: q[3], BPS: q[4], _d(BPH): w[0], _d(BTH): w[1], _d(BPS): w[2]}
    wxn, wyn = float(wx.subs(sub)), float(wy.subs(sub))
    return np.array([p["r"] * wyn - w[3] * q[1], -p["r"] * wxn + w[3] * q[0], w[0], w[1],
                     w[2], w[3], -p["r1"] / p["r2"] * w[3]])
