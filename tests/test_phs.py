"""The explicit PHS: construction, structure checks, numerics, symbolic views, linearization."""

from __future__ import annotations

import json

import numpy as np
import pytest
import scipy.sparse as sps
import sympy as sp
from hypothesis import given, settings
from hypothesis import strategies as st

from porthamiltonian import ModelError, StructureError
from porthamiltonian.phs import PHS
from strategies import random_phs


def msd(symbolic: bool = True) -> PHS:
    """Mass-spring-damper: q spring elongation, p momentum, F force input."""
    q, p = sp.symbols("q p", real=True)
    k, m, c = sp.symbols("k m c", positive=True)
    return PHS(
        J=[[0, 1], [-1, 0]], R=[[0, 0], [0, c]], G=[[0], [1]],
        hamiltonian=k * q**2 / 2 + p**2 / (2 * m), states=["q", "p"], inputs=["F"],
        outputs=["v"], parameters={"k": 3.0, "m": 2.0, "c": 0.5},
    )


def test_mass_spring_damper_reproduces_newton():
    sys = msd()
    q, p, F = sp.symbols("q p F", real=True)
    k, m, c = sp.symbols("k m c", positive=True)
    # Newton: q' = v = p/m, p' = -k q - c v + F; output: the velocity (power F v)
    expected = sp.Matrix([p / m, -k * q - c * p / m + F])
    assert sp.simplify(sys.rhs_expr() - expected) == sp.zeros(2, 1)
    assert sp.simplify(sys.output_expr() - sp.Matrix([p / m])) == sp.zeros(1, 1)
    x, u = np.array([0.3, -1.2]), np.array([0.7])
    num = np.array([x[1] / 2.0, -3.0 * x[0] - 0.5 * x[1] / 2.0 + u[0]])
    np.testing.assert_allclose(sys.rhs(x, u), num, rtol=1e-14)
    np.testing.assert_allclose(sys.output(x, u), [x[1] / 2.0], rtol=1e-14)


def test_power_balance_terms_for_the_mass_spring_damper():
    sys = msd()
    x, u = np.array([0.3, -1.2]), np.array([0.7])
    pb = sys.power_balance(x, u)
    v = x[1] / 2.0
    assert pb.supplied == pytest.approx(u[0] * v)
    assert pb.dissipated == pytest.approx(0.5 * v**2)
    assert pb.residual == pytest.approx(0.0, abs=1e-14)


def test_numeric_quadratic_path_agrees_with_symbolic():
    sym = msd().subs(k=3.0, m=2.0, c=0.5)
    num = sym.numeric()
    assert num.kind == "dense"
    np.testing.assert_allclose(num.Q, np.diag([3.0, 0.5]))
    rng = np.random.default_rng(1)
    for _ in range(5):
        x, u = rng.normal(size=2), rng.normal(size=1)
        np.testing.assert_allclose(num.rhs(x, u), sym.rhs(x, u), rtol=1e-13)
        np.testing.assert_allclose(num.output(x, u), sym.output(x, u), rtol=1e-13)


def test_missing_parameter_values_are_named():
    sys = msd().with_parameters(c=None)
    with pytest.raises(ModelError, match="parameters without a value: c"):
        sys.rhs([0, 0])


def test_subs_of_unknown_parameter_is_refused():
    with pytest.raises(ModelError, match="unknown parameter"):
        msd().subs(kk=1.0)


@pytest.mark.parametrize(
    ("kwargs", "pattern"),
    [
        ({"J": [[0, 1], [1, 0]]}, r"J is not skew-symmetric: J\[x0, x1\]"),
        ({"R": [[1, 2], [0, 1]]}, r"R is not symmetric: R\[x0, x1\]"),
        ({"R": [[1, 0], [0, -2]]}, r"diagonal entry at x1 is -2 < 0"),
        ({"R": [[1, 3], [3, 1]]}, r"not positive semi-definite: it has the eigenvalue -2"),
    ],
)
def test_numeric_structure_violations_name_block_and_entry(kwargs, pattern):
    with pytest.raises(StructureError, match=pattern):
        PHS(**kwargs, Q=np.eye(2))


def test_dissipative_input_coupling_must_keep_W_psd():
    # W = [[R, P], [P^T, S]] = [[1, 2], [2, 1]] is indefinite
    with pytest.raises(StructureError, match=r"eigenvalue .* along"):
        PHS(R=[[1.0]], G=[[1.0]], P=[[2.0]], S=[[1.0]], Q=[[1.0]], states=["q"], inputs=["u"])
    # ... while P = 1 gives W = [[1, 1], [1, 1]] ⪰ 0
    PHS(R=[[1.0]], G=[[1.0]], P=[[1.0]], S=[[1.0]], Q=[[1.0]], states=["q"], inputs=["u"])


def test_feedthrough_M_must_be_skew():
    with pytest.raises(StructureError, match=r"M is not skew-symmetric: M\[a, a\]"):
        PHS(G=[[1.0, 0.0]], M=[[1.0, 0.0], [0.0, 0.0]], Q=[[1.0]], inputs=["a", "b"])


def test_symbolic_structure_violations():
    a, b = sp.symbols("a b", positive=True)
    q = sp.Symbol("q", real=True)
    with pytest.raises(StructureError, match=r"J is not skew-symmetric"):
        PHS(J=[[0, a], [a, 0]], hamiltonian=q**2, states=["q", "p"])
    with pytest.raises(StructureError, match=r"diagonal entry at q is -a"):
        PHS(R=[[-a]], hamiltonian=q**2, states=["q"])
    # undecidable sign: accepted, the condition is reported in words
    c = sp.Symbol("c", real=True)
    sys = PHS(R=[[c]], hamiltonian=q**2, states=["q"])
    assert sys.assumptions and "could not be decided" in sys.assumptions[0]


def test_euler_rigid_body_conserves_energy_and_casimir():
    """Free rigid body: J(p) = skew(p), H = Σ p_i²/(2 I_i); |p|² is a Casimir."""
    p = sp.symbols("p1 p2 p3", real=True)
    inertia = (1.0, 2.0, 3.5)
    Jp = sp.Matrix([[0, -p[2], p[1]], [p[2], 0, -p[0]], [-p[1], p[0], 0]])
    H = sum(pi**2 / (2 * Ii) for pi, Ii in zip(p, inertia, strict=True))
    sys = PHS(J=Jp, hamiltonian=H, states=["p1", "p2", "p3"])
    rng = np.random.default_rng(0)
    for _ in range(5):
        x = rng.normal(size=3)
        xdot = sys.rhs(x)
        assert sys.gradient(x) @ xdot == pytest.approx(0, abs=1e-13)
        assert 2 * x @ xdot == pytest.approx(0, abs=1e-13)  # d|p|²/dt
        # Euler's equations: I1 ω1' = (I2 − I3) ω2 ω3 with ω = p / I
        w = x / np.array(inertia)
        assert xdot[0] == pytest.approx(
            (inertia[1] - inertia[2]) * w[1] * w[2], rel=1e-12
        )


def test_exact_jacobian_matches_finite_differences():
    p = sp.symbols("p1 p2 p3", real=True)
    Jp = sp.Matrix([[0, -p[2], p[1]], [p[2], 0, -p[0]], [-p[1], p[0], 0]])
    H = p[0] ** 2 / 2 + p[1] ** 2 / 4 + p[2] ** 4 / 8
    sys = PHS(J=Jp, R=sp.diag(0, 0.1, 0), hamiltonian=H, states=["p1", "p2", "p3"])
    x = np.array([0.4, -0.2, 0.9])
    A = sys.jacobian(x)
    eps = 1e-6
    fd = np.column_stack([(sys.rhs(x + eps * e) - sys.rhs(x - eps * e)) / (2 * eps)
                          for e in np.eye(3)])
    np.testing.assert_allclose(A, fd, atol=1e-8)


def test_pendulum_linearization_has_the_small_angle_frequency():
    q, p = sp.symbols("q p", real=True)
    m, g, ell = 0.5, 9.81, 0.8
    H = p**2 / (2 * m * ell**2) + m * g * ell * (1 - sp.cos(q))
    sys = PHS(J=[[0, 1], [-1, 0]], hamiltonian=H, states=["q", "p"])
    lin = sys.linearize([0.0, 0.0])
    np.testing.assert_allclose(lin.Q, np.diag([m * g * ell, 1 / (m * ell**2)]), rtol=1e-12)
    eig = np.linalg.eigvals(lin.compile().A)
    np.testing.assert_allclose(sorted(np.abs(eig.imag)), [np.sqrt(g / ell)] * 2, rtol=1e-12)
    with pytest.raises(ModelError, match="not an equilibrium"):
        sys.linearize([0.3, 0.0])


def test_linearization_refuses_when_modulation_adds_terms():
    # J depends on q and ∇H(x0) ≠ 0 at a forced equilibrium: no pH linearization there
    q, p = sp.symbols("q p", real=True)
    sys = PHS(J=[[0, 1 + q], [-(1 + q), 0]], G=[[0], [1]],
              hamiltonian=q**2 / 2 + p**2 / 2, states=["q", "p"], inputs=["F"])
    # equilibrium with p = 0 and F = (1 + q) q
    q0 = 0.5
    with pytest.raises(ModelError, match="differs from the Jacobian"):
        sys.linearize([q0, 0.0], [(1 + q0) * q0])
    A, B, C, D = sys.state_space([q0, 0.0], [(1 + q0) * q0])
    assert A.shape == (2, 2) and B.shape == (2, 1) and C.shape == (1, 2) and D.shape == (1, 1)


def test_sparse_large_chain_matches_dense_and_is_lossless():
    """Chain of N masses and springs, numerically in sparse form (no SymPy)."""
    N = 2000
    n = 2 * N
    # states: q_1..q_N (spring elongations), p_1..p_N (momenta); q_i' = v_i − v_{i+1}
    D = sps.eye_array(N) - sps.eye_array(N, k=1)
    Z = sps.csr_array((N, N))
    J = sps.block_array([[Z, D], [-D.T, Z]]).tocsr()
    Q = sps.diags_array(np.r_[np.full(N, 4.0), np.full(N, 0.5)])
    G = sps.csr_array(([1.0], ([n - 1], [0])), shape=(n, 1))
    sys = PHS(J=J, G=G, Q=Q, inputs=["F"])
    assert sys.kind == "sparse"
    rng = np.random.default_rng(3)
    x = rng.normal(size=n)
    pb = sys.power_balance(x, [0.0])
    assert abs(pb.stored) < 1e-10 * np.abs(x).sum()
    small = 30
    Ds = np.eye(small) - np.eye(small, k=1)
    Zs = np.zeros((small, small))
    dense = PHS(J=np.block([[Zs, Ds], [-Ds.T, Zs]]), Q=np.diag(np.r_[[4.0] * small, [0.5] * small]))
    xs = rng.normal(size=2 * small)
    sparse_small = PHS(J=sps.csr_array(np.block([[Zs, Ds], [-Ds.T, Zs]])),
                       Q=sps.diags_array(np.r_[[4.0] * small, [0.5] * small]))
    np.testing.assert_allclose(sparse_small.rhs(xs), dense.rhs(xs), rtol=1e-14)


def test_sparse_negative_damping_is_refused():
    R = sps.diags_array(np.r_[np.ones(5000), -1.0]).tocsr()
    with pytest.raises(StructureError, match="x5000 is -1"):
        PHS(R=R, Q=sps.eye_array(5001))


def test_to_dict_round_trip_symbolic_and_json_contract():
    sys = msd()
    d = sys.to_dict()
    json.dumps(d)  # JSON-able
    assert d["states"] == ["q", "p"] and d["inputs"] == ["F"] and d["outputs"] == ["v"]
    # all parameters numeric -> numbers
    assert d["R"] == [[0, 0], [0, 0.5]]
    assert d["Q"] == [[3.0, 0], [0, 0.5]]
    back = PHS.from_dict(d)
    x, u = np.array([0.1, 0.2]), np.array([0.3])
    np.testing.assert_allclose(back.rhs(x, u), sys.rhs(x, u), rtol=1e-14)
    # symbolic parameters stay strings
    sym = msd().replace(parameters={})
    ds = sym.to_dict()
    assert ds["R"][1][1] == "c" and "k*q**2/2" in ds["hamiltonian"]
    assert ds["parameters"] == {"c": None, "k": None, "m": None}
    back = PHS.from_dict(ds)
    assert sp.simplify(back.hamiltonian - sym.hamiltonian) == 0


def test_from_dict_rejects_bad_shapes_and_unsafe_text():
    base = {"states": ["q"], "inputs": ["u"], "J": [[0]], "G": [[1, 2]], "hamiltonian": "q**2"}
    with pytest.raises(ModelError, match=r"G has shape 1×2; .* must be 1×1"):
        PHS.from_dict(base)
    bad = {**base, "G": [[1]], "hamiltonian": "__import__('os').system('true')"}
    with pytest.raises(ModelError, match="hamiltonian"):
        PHS.from_dict(bad)


def test_latex_representation():
    tex = msd()._repr_latex_()
    assert tex.startswith("$$") and r"\dot" in tex and "H &=" in tex


def test_rename_and_hamiltonian_follow_new_names():
    sys = msd().rename(prefix="a.")
    assert sys.states == ("a.q", "a.p") and sys.inputs == ("a.F",)
    assert {s.name for s in sys.hamiltonian.free_symbols} >= {"a.q", "a.p"}
    np.testing.assert_allclose(sys.rhs([1.0, 0.0]), msd().rhs([1.0, 0.0]))


def test_wrong_number_of_names():
    with pytest.raises(ModelError, match="1 state names given for 2 states"):
        PHS(J=[[0, 1], [-1, 0]], Q=np.eye(2), states=["a"])
    with pytest.raises(ModelError, match="appears twice"):
        PHS(J=[[0, 1], [-1, 0]], Q=np.eye(2), states=["a", "a"])


def test_time_dependent_hamiltonian_is_refused():
    q, t = sp.symbols("q t", real=True)
    with pytest.raises(ModelError, match="depends on time"):
        PHS(hamiltonian=q**2 * t, states=["q"])


@settings(max_examples=80, deadline=None)
@given(random_phs(), st.integers(0, 10_000))
def test_random_phs_power_balance_holds_to_round_off(sys, seed):
    rng = np.random.default_rng(seed)
    x, u = rng.normal(size=sys.n_states), rng.normal(size=sys.n_inputs)
    pb = sys.power_balance(x, u)
    # Ḣ computed independently as ∇Hᵀ ẋ with ∇H = Qx
    assert pb.stored == pytest.approx((sys.Q @ x) @ sys.rhs(x, u), rel=1e-12, abs=1e-12)
    assert pb.dissipated >= -1e-12
    scale = 1 + abs(pb.stored) + abs(pb.supplied) + abs(pb.dissipated)
    assert abs(pb.residual) < 1e-12 * scale


def test_hamiltonian_text_uses_the_parameter_symbol_rule():
    """Positive symbols for positive or symbolic parameters, real ones for values ≤ 0."""
    sys = PHS(G=[[1.0]], hamiltonian="k*(q - q0)**2/2", states=["q"], inputs=["F"],
              parameters={"k": 2.0, "q0": -0.5})
    syms = {s.name: s for s in sys.hamiltonian.free_symbols}
    assert syms["k"].is_positive and syms["q0"].is_positive is None
    assert sys.gradient([0.0])[0] == pytest.approx(2.0 * 0.5)
