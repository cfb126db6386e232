"""Each library component's PHS against its textbook constitutive law (derived
independently here), evaluated symbolically."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp

from porthamiltonian.library import electrical as E
from porthamiltonian.library import electromechanical as EM
from porthamiltonian.library import hydraulic as H
from porthamiltonian.library import mechanical as M


def S(name: str) -> sp.Symbol:
    return sp.Symbol(name, real=True)


def P(name: str) -> sp.Symbol:
    return sp.Symbol(name, positive=True)


def zero(expr) -> bool:
    return sp.simplify(sp.Matrix(expr)) == sp.zeros(*sp.Matrix(expr).shape)


def test_storages_receive_their_integral_causality_input():
    # capacitor: q̇ = i, v = q/C
    c = E.Capacitor(C=None).system()
    assert zero(c.rhs_expr() - sp.Matrix([S("p")]))
    assert zero(c.output_expr() - sp.Matrix([S("q") / P("C")]))
    # inductor: φ̇ = v, i = φ/L
    ind = E.Inductor(L=None).system()
    assert zero(ind.rhs_expr() - sp.Matrix([S("p")]))
    assert zero(ind.output_expr() - sp.Matrix([S("phi") / P("L")]))
    # mass: ṗ = F, v = p/m; inertia likewise
    m = M.Mass(m=None).system()
    assert zero(m.output_expr() - sp.Matrix([S("p") / P("m")]))
    assert zero(M.Inertia(J=None).system().output_expr() - sp.Matrix([S("p") / P("J")]))


def test_resistors_and_dampers():
    r = E.Resistor(R=None).system()
    assert zero(r.output_expr() - sp.Matrix([P("R") * S("p")]))  # v = R i
    d = M.Damper(b=None).system()  # F = b (v_a − v_b) at both flanges (b oriented out)
    va, vb_in = S("a"), S("b")  # flows into the damper; f_in,b = −v_b
    F = P("b") * (va + vb_in)
    assert zero(d.output_expr() - sp.Matrix([F, F]))


def test_springs_linear_and_duffing():
    k = M.Spring(k=None).system()
    assert zero(k.rhs_expr() - sp.Matrix([S("a") + S("b")]))  # q̇ = v_a − v_b
    assert zero(k.output_expr() - sp.Matrix([P("k") * S("q")] * 2))
    nl = M.NonlinearSpring(k=100.0, k3=1e4).system()
    q = S("q")
    force = nl.output_expr()[0]
    assert zero([force - (P("k") * q + P("k3") * q**3)])
    tors = M.TorsionSpring(k=None).system()
    assert tors.hamiltonian == P("k") * S("q") ** 2 / 2


def test_sources_deliver_what_their_input_says():
    v = E.VoltageSource().system()  # inputs [p (= f_in), u]; outputs [e, current out]
    fin, u = S("p"), S("u")
    assert zero(v.output_expr() - sp.Matrix([u, -fin]))
    i = E.CurrentSource().system()  # inputs [p (= e), u]; outputs [f_in = −u, e]
    e = S("p")
    assert zero(i.output_expr() - sp.Matrix([-u, e]))
    for sys in (v, i):  # lossless: uᵀy = 0
        uu = sp.Matrix(sys.input_symbols)
        assert sp.simplify((uu.T * sys.output_expr())[0]) == 0


@pytest.mark.parametrize("comp, m", [
    (E.IdealTransformer(n=3.0), 3.0),
    (M.Gear(n=5.0), 1 / 5.0),          # ω_b = ω_a/n, τ_b = n τ_a
    (M.Lever(la=0.2, lb=0.6), 3.0),    # v_b = (lb/la) v_a
    (M.Rack(r=0.05), 0.05),            # v = r ω, τ = r F
    (H.Piston(A=0.01), 100.0),         # p = F/A, v = Q/A
])
def test_transformers(comp, m):
    sys = comp.system(symbolic=False)
    fa, eb = 0.7, -1.3  # inputs: flow into a, effort at b
    ea, fin_b = sys.compile().output(np.zeros(0), np.array([fa, eb]))
    assert ea == pytest.approx(m * eb)  # e_a = m e_b
    assert -fin_b == pytest.approx(m * fa)  # f_b (out) = m f_a


def test_gear_in_its_own_words():
    n = 4.0
    sys = M.Gear(n=n).system(symbolic=False)
    omega_a, tau_b = 100.0, 8.0  # motor speed, torque delivered at the output shaft
    tau_a, fin_b = sys.compile().output(np.zeros(0), np.array([omega_a, tau_b]))
    assert -fin_b == pytest.approx(omega_a / n)  # output speed
    assert tau_a == pytest.approx(tau_b / n)  # the motor sees the torque divided by n


def test_dc_motor_textbook_equations():
    sys = EM.DCMotor(R=None, L=None, k=None, J=None, b=None).system()
    phi, p, v, tau = S("phi"), S("p"), S("electrical"), S("shaft")
    R, L, k, J, b = (P(n) for n in "RLkJb")
    i, w = phi / L, p / J
    assert zero(sys.rhs_expr() - sp.Matrix([v - R * i - k * w, k * i - b * w - tau]))
    assert zero(sys.output_expr() - sp.Matrix([i, -w]))


def test_loudspeaker_thiele_small_equations():
    sys = EM.Loudspeaker(Re=None, Le=None, Bl=None, m=None, k=None, c=None).system()
    phi, p, q, v, F = S("phi"), S("p"), S("q"), S("electrical"), S("cone")
    Re, Le, Bl, m, k, c = (P(n) for n in ("Re", "Le", "Bl", "m", "k", "c"))
    i, xd = phi / Le, p / m
    expected = [v - Re * i - Bl * xd, Bl * i - c * xd - k * q - F, xd]
    assert zero(sys.rhs_expr() - sp.Matrix(expected))


def test_electromagnet_force_is_the_coenergy_derivative():
    """At the same current, ∂H/∂q|_φ = −∂W*/∂q|_i with the co-energy W* = ½ L(q) i²
    (Duindam et al. 2009, §3.1): the pull towards closing the gap is ½ i² |L'(q)|."""
    comp = EM.Electromagnet(L0=None, L1=None, a=None, R=None)
    sys = comp.system()
    phi, q, i = S("phi"), S("q"), sp.Symbol("i", real=True)
    L0, L1, a = P("L0"), P("L1"), P("a")
    Lq = L1 + L0 / (1 + q / a)
    dH = sys.gradient_expr
    assert sp.simplify(dH[0] - phi / Lq) == 0  # i = φ/L(q)
    coenergy = Lq * i**2 / 2
    force = dH[1].subs(phi, Lq * i)
    assert sp.simplify(force + sp.diff(coenergy, q)) == 0
    assert sp.simplify(force - L0 * a * i**2 / (2 * (a + q) ** 2)) == 0  # > 0: a pull


def test_diode_current_is_shockley_plus_capacitive():
    Is, VT, Cj = 1e-12, 0.02585, 1e-9
    sys = E.Diode(Is=Is, VT=VT, Cj=Cj).system()
    for v in (-0.5, 0.0, 0.3, 0.65):
        q = Cj * v
        i_in = 2e-3
        qdot = sys.rhs([q], [i_in])[0]
        assert qdot == pytest.approx(i_in - Is * np.expm1(v / VT), rel=1e-9, abs=1e-18)
        pb = sys.power_balance([q], [i_in])
        assert pb.dissipated >= 0  # v·i_D ≥ 0: a diode never delivers power


def test_hydraulic_pipe_and_tank():
    pipe = H.Pipe(I=None, R=None).system()
    G, pa, pb = S("Gamma"), S("a"), S("b")
    Q = G / P("I")
    assert zero(pipe.rhs_expr() - sp.Matrix([pa - pb - P("R") * Q]))
    assert zero(pipe.output_expr() - sp.Matrix([Q, -Q]))
    tank = H.Tank(A=2.0, rho=1000.0, g=9.81).system(symbolic=False)
    V = 3.0  # m³ in a 2 m² tank: 1.5 m of water
    assert tank.output([V], [0.0])[0] == pytest.approx(1000.0 * 9.81 * 1.5)


def test_boost_converter_matrices_and_averaged_equilibrium():
    sw = E.BoostConverter(L=None, C=None, R=None).system()
    Ssym = P("S")
    assert zero(sw.J - sp.Matrix([[0, -(1 - Ssym)], [1 - Ssym, 0]]))
    assert zero(sw.R - sp.Matrix([[0, 0], [0, 1 / P("R")]]))
    assert sw.G == sp.Matrix([[1], [0]])
    # averaged model: the classic boost steady state v_C = E/(1 − D), i_L = v_C/(R(1 − D))
    Ein, D, R = 12.0, 0.4, 10.0
    av = E.BoostConverter.averaged(L=1e-3, C=1e-4, R=R).system().subs(D=D).numeric()
    A, B = av.compile().A, av.compile().B
    x = np.linalg.solve(A, -B @ [Ein])
    vC = x[1] / 1e-4
    iL = x[0] / 1e-3
    assert vC == pytest.approx(Ein / (1 - D), rel=1e-12)
    assert iL == pytest.approx(vC / (R * (1 - D)), rel=1e-12)
