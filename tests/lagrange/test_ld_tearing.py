"""Tearing and interconnection: the mass–spring chain (seed §7 I), the tensor
product against the induced structure of Δ ∩ Σ, and the clean-intersection error."""

import numpy as np
import pytest
import sympy
from ld_models import (
    SPRING_PARAMS,
    accelerations,
    spring_lagrangian,
    spring_mono,
    spring_torn,
    sympy_accelerations,
    t,
    x1,
    x2,
)
from sympy.physics.mechanics import dynamicsymbols

from porthamiltonian import ModelError, lagrange
from porthamiltonian.lagrange.canonical import induced


def test_torn_chain_has_the_monolithic_equations():
    torn = spring_torn()
    rng = np.random.default_rng(1)
    for _ in range(4):
        a, b = rng.normal(size=2)
        va, vb = rng.normal(size=2)
        # a consistent state: y1 = x1 and ẏ1 = ẋ1
        ours = accelerations(torn, [a, a, b], [va, va, vb])
        ref = sympy_accelerations(spring_lagrangian(), [x1, x2], [a, b], [va, vb],
                                  SPRING_PARAMS)
        assert np.allclose(ours[[0, 2]], ref, rtol=1e-12, atol=1e-12)
        assert np.isclose(ours[1], ours[0], rtol=1e-12)  # the cut point moves with mass 1
        # the interaction multiplier is the force spring 2 exerts on mass 1
        assert np.isclose(ours[3], SPRING_PARAMS[sympy.Symbol("k2", positive=True)] * (b - a))


def test_torn_chain_trajectory_matches_monolithic():
    torn, mono = spring_torn(), spring_mono()
    rt = torn.simulate(10.0, [0.1, 0.1, -0.2], [0.3, 0.3, 0.0], dt=0.05)
    rm = mono.simulate(10.0, [0.1, -0.2], [0.3, 0.0], dt=0.05)
    assert np.max(np.abs(rt["x1"] - rm["x1"])) < 1e-8
    assert np.max(np.abs(rt["x2"] - rm["x2"])) < 1e-8
    # configuration constraint y1 = x1 holds although only its velocity form is imposed
    assert np.max(np.abs(rt["y1"] - rt["x1"])) < 1e-9
    assert np.max(np.abs(rt.constraint_residual)) < 1e-9
    assert np.max(np.abs(rt.energy - rt.energy[0])) < 1e-9 * rt.energy[0]
    assert np.allclose(rt.energy, rm.energy, rtol=1e-9)


def test_tensor_product_recovers_the_monolithic_structure():
    torn = spring_torn()
    # (D_mass1 ⊕ D_spring2) ⊠ D_Σ computed by DiracStructure.tensor ...
    D = torn.dirac_structure(at=[0.1, 0.1, 0.3])
    assert D.is_dirac()
    # ... equals the induced structure of Δ ∩ Σ (here Σ: ẋ1 = ẏ1), built directly
    A = np.array([[1.0], [-1.0], [0.0]])
    assert D.equals(induced(["x1", "y1", "x2"], A, at={}))
    # and differs from the uncoupled direct sum
    assert not D.equals(induced(["x1", "y1", "x2"], None, at={}))


def test_tensor_product_symbolic_and_modulated():
    """Knife edge torn into a planar body and a heading; the one-form sin φ dx − cos φ dy
    as interaction: the symbolic tensor product is generically the induced structure."""
    x, y, ph = dynamicsymbols("x y phi")
    body = lagrange.LagrangeDiracSystem([x, y], (x.diff(t) ** 2 + y.diff(t) ** 2) / 2,
                                        name="body")
    head = lagrange.LagrangeDiracSystem([ph], ph.diff(t) ** 2 / 2, name="heading")
    knife = lagrange.interconnect(
        [body, head], lagrange.interaction([sympy.sin(ph) * x.diff(t) - sympy.cos(ph) * y.diff(t)]))
    D = knife.dirac_structure()
    assert D.symbolic and D.is_dirac()
    direct = induced(knife.names, knife.constraint_forms)
    assert D.equals(direct)
    for val in (0.2, 1.3):
        pointwise = knife.dirac_structure(at=[0.0, 0.0, val])
        assert pointwise.equals(direct.subs({knife.coordinates[2]: val}))


def _unclean():
    x, y, z = dynamicsymbols("x y z")
    s1 = lagrange.LagrangeDiracSystem([x, y], (x.diff(t) ** 2 + y.diff(t) ** 2) / 2,
                                      constraints=[{x: 1}], name="slider")
    s2 = lagrange.LagrangeDiracSystem([z], z.diff(t) ** 2 / 2, name="rotor")
    # Σ annihilated by dx + z dy: at z = 0 it contains Δ_slider's annihilator dx
    return lagrange.interconnect([s1, s2], lagrange.interaction([{x: 1, y: z}]))


def test_clean_intersection_failure_names_the_subsystems():
    sys = _unclean()
    sys.check_constant_rank([0.0, 0.0, 1.0])  # fine away from z = 0
    with pytest.raises(ModelError, match="clean-intersection") as err:
        sys.check_constant_rank([0.0, 0.0, 0.0])
    msg = str(err.value)
    assert "slider" in msg and "interaction" in msg and "rotor" not in msg
    with pytest.raises(ModelError, match="slider, interaction"):
        sys.simulate(1.0, [0.0, 0.0, 0.0], [0.0, 0.0, 1.0])
    with pytest.raises(ModelError, match="clean-intersection"):
        sys.dirac_structure(at=[0.0, 0.0, 0.0])


def test_unclean_point_is_where_the_tensor_product_jumps():
    """Why the error: at z = 0 the pointwise product is Dirac but not the limit of the
    products at nearby points (the family is not a smooth Dirac bundle)."""
    sys = _unclean()
    near = sys.dirac_structure(at=[0.0, 0.0, 1e-7])
    s1, s2 = sys.subsystems
    at0 = s1.dirac_structure([0.0, 0.0]).direct_sum(s2.dirac_structure([0.0]))
    at0 = at0.reorder(sys.ports).tensor(sys.interaction_structure([0.0, 0.0, 0.0]))
    assert at0.is_dirac()
    assert not at0.equals(near, tol=1e-6)
    far = sys.dirac_structure(at=[0.0, 0.0, 2e-7])
    assert near.equals(far, tol=1e-6)


def test_interconnect_input_errors():
    x, y = dynamicsymbols("x y")
    a = lagrange.LagrangeDiracSystem([x], x.diff(t) ** 2 / 2, name="a")
    b = lagrange.LagrangeDiracSystem([x], x.diff(t) ** 2 / 2, name="b")
    with pytest.raises(ModelError, match="belongs to both 'a' and 'b'"):
        lagrange.interconnect([a, b], lagrange.interaction([{x: 1}]))
    c = lagrange.LagrangeDiracSystem([y], y.diff(t) ** 2 / 2, name="a")
    with pytest.raises(ModelError, match="names a repeat"):
        lagrange.interconnect([a, c], lagrange.interaction([{x: 1}]))
    c = lagrange.LagrangeDiracSystem([y], y.diff(t) ** 2 / 2, name="c")
    with pytest.raises(ModelError, match="not one of the coordinates"):
        lagrange.interconnect([a, c], lagrange.interaction([{"w": 1}]))
    with pytest.raises(ModelError, match="empty interaction"):
        lagrange.interaction([])
    sys = lagrange.interconnect([a, c], lagrange.interaction([{x: 1, y: -1}]))
    with pytest.raises(ModelError, match="violate constraint 0"):
        sys.simulate(1.0, [0, 0], [1.0, 0.0])


def test_single_form_may_be_given_without_a_list():
    x, y = dynamicsymbols("x y")
    a = lagrange.LagrangeDiracSystem([x], x.diff(t) ** 2 / 2, name="a")
    b = lagrange.LagrangeDiracSystem([y], y.diff(t) ** 2 / 2, name="b")
    one = lagrange.interconnect([a, b], lagrange.interaction({x: 1, y: -1}))
    listed = lagrange.interconnect([a, b], lagrange.interaction([x.diff(t) - y.diff(t)]))
    assert one.constraint_forms == listed.constraint_forms == sympy.Matrix([[1], [-1]])


def test_clean_intersection_failure_between_samples_is_caught():
    """Starting at z = −0.5 with ż = 1, the rotor passes z = 0 at t = 0.5, between the
    two output samples t = 0 and t = 1: the event monitor stops there and names the
    subsystems."""
    sys = _unclean()
    with pytest.raises(ModelError, match=r"at t = 0\.5.*slider, interaction"):
        sys.simulate(1.0, [0.0, 0.0, -0.5], [0.0, 0.0, 1.0], t_eval=[0.0, 1.0])


def test_knife_edge_heading_through_zero_is_not_a_rank_drop():
    """sin φ dx − cos φ dy keeps rank 1 as φ passes π (only its dx coefficient, the
    largest one at the start, vanishes there): the rank monitor re-chooses its minor
    and the simulation runs through, keeping the constraint and the energy."""
    x, y, ph = dynamicsymbols("x y phi")
    knife = lagrange.LagrangeDiracSystem(
        [x, y, ph], (x.diff(t) ** 2 + y.diff(t) ** 2 + ph.diff(t) ** 2) / 2,
        constraints=[sympy.sin(ph) * x.diff(t) - sympy.cos(ph) * y.diff(t)], name="knife")
    ph0 = 1.3
    res = knife.simulate(4.0, [0.0, 0.0, ph0], [np.cos(ph0), np.sin(ph0), 1.0],
                         t_eval=[0.0, 4.0])
    assert res.t[-1] == 4.0 and res["phi"][-1] > np.pi
    assert np.max(np.abs(res.constraint_residual)) < 1e-9
    assert abs(res.energy[-1] - res.energy[0]) < 1e-9
