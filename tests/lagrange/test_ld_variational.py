"""Hamilton–Pontryagin and Lagrange–d'Alembert–Pontryagin action functionals: their
stationarity conditions (SymPy's euler_equations) are the implicit Lagrange–Dirac
equations (Yoshimura & Marsden 2006, Part II), and for an interconnection the sum of
the parts' actions with the interaction constraint gives the tensor-product system
(Jacobs & Yoshimura 2014, Thm. 6.6)."""

import pytest
import sympy
from ld_models import (
    motor,
    rolling_disk,
    series_rlc_monolithic,
    series_rlc_torn,
    spring_mono,
    spring_torn,
    t,
    table_torn,
)
from sympy.physics.mechanics import dynamicsymbols

from porthamiltonian import ModelError, lagrange

MODELS = {
    "mass-spring torn": spring_torn,
    "mass-spring monolithic": spring_mono,
    "RLC torn": lambda: series_rlc_torn(0.4, 0.5, 0.2),
    "LC torn": lambda: series_rlc_torn(0.0, 0.5, 0.2),
    "RLC monolithic": lambda: series_rlc_monolithic(0.4, 0.5, 0.2),
    "DC motor (two-form)": motor,
    "rolling disk (nonholonomic)": rolling_disk,
    "ball on geared tables (3 parts)": table_torn,
}


@pytest.mark.parametrize("name", list(MODELS))
def test_ldap_stationarity_is_the_implicit_lagrange_dirac_system(name):
    sys = MODELS[name]()
    check = lagrange.check_variational(sys)
    assert check.ok, check.differences


def test_stationarity_blocks_have_the_textbook_form():
    """δp: q̇ = v;  δv: p = ∂L/∂v;  δq: ṗ = ∂L/∂q + F + A λ, written out by hand for the
    torn RLC circuit (L = ½ L q̇_L² − q_C²/(2C), F_R = −R q̇_R)."""
    sys = series_rlc_torn(0.4, 0.5, 0.2)
    eqs = lagrange.stationarity(lagrange.lagrange_dalembert_pontryagin(sys))
    qL, qR, qC = eqs.q
    vL, vR, vC = eqs.v
    pL, pR, pC = eqs.p
    l0, l1 = eqs.lam
    Lind, Ccap, Rres = sympy.symbols("L C R", positive=True)
    expected_dynamic = [pL.diff(t) - l0, pR.diff(t) + Rres * vR + l0 - l1,
                        pC.diff(t) + qC / Ccap + l1]
    expected = {
        "kinematic": [qL.diff(t) - vL, qR.diff(t) - vR, qC.diff(t) - vC],
        "legendre": [pL - Lind * vL, pR, pC],
        "dynamic": expected_dynamic,
        "constraints": [vL - vR, vR - vC],  # circuit A's KCL, the cut's current continuity
    }
    for block, rows in expected.items():
        got = getattr(eqs, block)
        assert [sympy.simplify(a - b) for a, b in zip(got, rows, strict=True)] == [0] * len(rows)


@pytest.mark.parametrize("make", [spring_torn, lambda: series_rlc_torn(0.4, 0.5, 0.2)])
def test_interconnected_action_is_the_sum_of_the_parts_actions(make):
    """Jacobs & Yoshimura Def. 6.4: integrand Σ ℓ_i, forces ⊕ F_i, forms
    [diag(A_i) | A_Σ] — and its stationarity equals both the system's equations and
    the stationarity of the directly written LDAP action of the same Lagrangian."""
    sys = make()
    action = lagrange.lagrange_dalembert_pontryagin(sys)
    assert len(action.parts) == len(sys.subsystems)
    total = sum((p.integrand for p in action.parts), sympy.Integer(0))
    assert sympy.expand(action.integrand - total) == 0
    n_parts = sum(p.m for p in action.parts)
    assert action.m == n_parts + sys._A_int.shape[1]
    assert action.owners[-1] == sys.interaction.name
    flat = lagrange.LagrangeDiracSystem(
        sys.coordinates, sys.lagrangian, velocities=sys.velocities,
        constraints=[list(sys.constraint_forms[:, j]) for j in range(sys.m)],
        forces=list(sys.forces), parameters=dict(sys.parameters), name="flat")
    check = lagrange.compare_equations(lagrange.stationarity(action),
                                       lagrange.stationarity(
                                           lagrange.lagrange_dalembert_pontryagin(flat)))
    assert check.ok, check.differences


def test_torn_chain_variations_reduce_to_the_monolithic_chain():
    """Restricting the torn chain's LDAP conditions to Σ (y1 = x1) and pairing the
    dynamic rows with a basis of Δ ∩ Σ (δx1 = δy1) removes the interaction force and
    leaves the Euler–Lagrange equations of the monolithic chain, with p_x1 + p_y1
    the monolithic momentum of mass 1 (p_y1 = 0: the cut point is massless)."""
    torn = lagrange.stationarity(lagrange.lagrange_dalembert_pontryagin(spring_torn()))
    mono = spring_mono().equations()
    x1, y1, x2 = torn.q
    v1, w1, v2 = torn.v
    p1, r1, p2 = torn.p
    mx1, mx2 = mono.q
    mv1, mv2 = mono.v
    mp1, mp2 = mono.p
    on_sigma = {y1: x1, w1: v1, r1: 0}
    to_mono = {x1: mx1, x2: mx2, v1: mv1, v2: mv2, p1: mp1, p2: mp2}
    assert torn.legendre[1] == r1  # p_y1 = ∂L/∂ẏ1 = 0
    dyn = torn.dynamic
    rows = [dyn[0] + dyn[1], dyn[2]]  # δq = (1, 1, 0), (0, 0, 1) span Δ ∩ Σ
    params = spring_mono().parameters
    for got, want in zip(rows, mono.dynamic, strict=True):
        diff = got.subs(on_sigma).doit().xreplace(to_mono) - want
        assert sympy.simplify(diff.subs(params)) == 0


def test_hamilton_pontryagin_alone_misses_constraints_and_forces():
    """The HP action has no Lagrange–d'Alembert terms: it reproduces an unconstrained,
    unforced system, and the comparison names what it misses otherwise."""
    assert lagrange.check_variational(spring_mono(),
                                      lagrange.hamilton_pontryagin(spring_mono())).ok
    disk = rolling_disk()
    assert lagrange.check_variational(disk, lagrange.hamilton_pontryagin(disk)).differences \
        == ["constraints"]
    dc = motor()
    assert lagrange.check_variational(dc, lagrange.hamilton_pontryagin(dc)).differences \
        == ["dynamic"]


def test_comparison_detects_a_wrong_force_sign_and_wrong_constraints():
    q = dynamicsymbols("q")
    Lind, Ccap, Rres = sympy.symbols("L C R", positive=True)
    L = Lind * q.diff(t) ** 2 / 2 - q**2 / (2 * Ccap)
    good = lagrange.LagrangeDiracSystem([q], L, forces={q: -Rres * q.diff(t)}, name="good")
    bad = lagrange.LagrangeDiracSystem([q], L, forces={q: Rres * q.diff(t)}, name="bad")
    action = lagrange.lagrange_dalembert_pontryagin(bad)
    assert lagrange.check_variational(good, action).differences == ["dynamic"]
    torn = spring_torn()
    other = lagrange.LagrangeDiracSystem(
        torn.coordinates, torn.lagrangian, velocities=torn.velocities,
        constraints=[[1, 0, -1]], parameters=dict(torn.parameters), name="x1 = x2")
    assert lagrange.check_variational(torn, lagrange.lagrange_dalembert_pontryagin(other)
                                      ).differences == ["constraints"]
    with pytest.raises(ModelError, match="different curves"):
        lagrange.compare_equations(spring_mono().equations(), torn.equations())
