"""Energy and co-energy (porthamiltonian.energy; docs/energy.md).

Each test checks a fact against something independent: a closed form derived by hand
(the co-energy of the sinh capacitor, the ideal gas's F, H, G), the definition (the
Legendre identity, ∂E/∂q = e), or a second implementation in the library
(thermo.properties for the ideal gas).
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest
import sympy as sp

from porthamiltonian.bondgraph import BondGraph
from porthamiltonian.energy import (
    check_legendre_identity,
    check_storage_law,
    coenergy,
    energy_from_law,
    euler_residual,
    gibbs_duhem_residual,
    ideal_gas_energy,
    intrinsic_stability,
    is_homogeneous,
    legendre,
    maxwell_reciprocity,
    potentials,
)
from porthamiltonian.errors import ModelError, ModelWarning

q, q1, q2 = sp.symbols("q q1 q2", real=True)
C, C0, V0, a = sp.symbols("C C0 V0 a", positive=True)


# ---------------------------------------------------------------- Legendre / co-energy
def test_coenergy_of_the_sinh_capacitor_is_its_closed_form():
    # E = C0 V0² (cosh(q/(C0 V0)) − 1)  →  e = V0 sinh(q/(C0 V0)),  q(e) = C0 V0 asinh(e/V0);
    # by hand: E*(e) = e q(e) − E(q(e)) = C0 V0 e asinh(e/V0) − C0 V0² (√(1 + e²/V0²) − 1)
    E = C0 * V0**2 * (sp.cosh(q / (C0 * V0)) - 1)
    ce = coenergy(E, q)
    e = ce.efforts[0]
    by_hand = C0 * V0 * e * sp.asinh(e / V0) - C0 * V0**2 * (sp.sqrt(1 + e**2 / V0**2) - 1)
    assert sp.simplify(ce.coenergy - by_hand) == 0
    assert sp.simplify(ce.inverse[0] - C0 * V0 * sp.asinh(e / V0)) == 0
    assert ce.check()  # E + E* = e q and ∂E*/∂e = q, symbolically
    # a wrong co-energy (the linear capacitor's, C0 e²/2) fails the identity
    assert not check_legendre_identity(E, C0 * e**2 / 2, q, e)


def test_linear_storage_coenergy_equals_energy():
    ce = coenergy(q**2 / (2 * C), q)
    e = ce.efforts[0]
    assert sp.simplify(ce.coenergy - C * e**2 / 2) == 0  # E*(e) = C e²/2
    assert sp.simplify(ce.coenergy.subs(e, q / C) - ce.energy) == 0  # E*(e(q)) = E(q)
    assert sp.expand(ce.residual()) == 0


def test_vector_legendre_of_a_quadratic_form_is_its_inverse_form():
    Q = sp.Matrix([[2, 1], [1, 3]])
    x = sp.Matrix([q1, q2])
    ce = coenergy((x.T * Q * x)[0, 0] / 2, [q1, q2])
    e = sp.Matrix(ce.efforts)
    assert sp.expand(ce.coenergy - (e.T * Q.inv() * e)[0, 0] / 2) == 0
    assert ce.check()


def test_legendre_without_a_closed_inverse_or_unique_branch_says_so():
    with pytest.raises(ModelError, match="no unique solution"):
        legendre(5 * q, q)  # linear E: e does not determine q
    with pytest.raises(ModelError, match="real inverses"):
        legendre(q**4 / 4 - q**2 / 2, q)  # double well: three real branches


# ---------------------------------------------------------------- reciprocity
def test_non_reciprocal_law_is_flagged_with_its_pair():
    law = [q1 + 2 * q2, q1 + q2]  # ∂e0/∂q2 = 2, ∂e1/∂q1 = 1
    r = maxwell_reciprocity(law, [q1, q2], names=["F1", "F2"], where="spring K")
    assert not r.holds and len(r.pairs) == 1
    i, j, dij, dji = r.pairs[0]
    assert (i, j, dij, dji) == (0, 1, 2, 1)
    assert "spring K is not reciprocal: ∂F1/∂q2 = 2 but ∂F2/∂q1 = 1" in r.message
    with pytest.raises(ModelError, match="not reciprocal"):
        energy_from_law(law, [q1, q2])


def test_energy_of_a_reciprocal_law_is_recovered():
    k, g = sp.symbols("k g", positive=True)
    E_true = k * (q1**2 + q1 * q2 + q2**2) / 2 + g * sp.cos(q1 - q2) + a * q2**4 / 4
    law = [sp.diff(E_true, x) for x in (q1, q2)]
    assert maxwell_reciprocity(law, [q1, q2]).holds
    E = energy_from_law(law, [q1, q2])
    assert sp.simplify(E - (E_true - E_true.subs({q1: 0, q2: 0}))) == 0  # E(0) = 0


# ---------------------------------------------------------------- intrinsic stability
def test_convexity_symbolic_and_sampled():
    k1, k2 = sp.symbols("k1 k2", positive=True)
    pd = intrinsic_stability(k1 * q1**2 / 2 + k2 * q2**2 / 2 + k1 * q1**4, [q1, q2])
    assert pd.stable is True and pd.method == "symbolic"
    const = intrinsic_stability(q1**2 + q1 * q2 + q2**2, [q1, q2])
    assert const.stable is True
    saddle = intrinsic_stability(q1**2 - q2**2, [q1, q2])
    assert saddle.stable is False and saddle.eigenvalues == (-2.0, 2.0)


def test_double_well_is_not_intrinsically_stable_and_the_point_is_named():
    E = -q**2 / 2 + q**4 / 4  # E'' = 3q² − 1 < 0 for |q| < 1/√3
    res = intrinsic_stability(E, q, domain={q: (-2, 2)}, samples=41)
    assert res.stable is False and res.method == "sampled"
    assert "numerically at a grid of 41 points over [-2, 2]" in res.message
    assert res.point == {"q": 0.0} and res.eigenvalues == pytest.approx((-1.0,))
    assert "not intrinsically stable" in res.message and "q = 0" in res.message
    outside = intrinsic_stability(E, q, points=[[1.0], [-1.5]])  # E'' = 2, 5.75
    assert outside.stable is True and outside.method == "at given points"
    assert "numerically at a grid of 41 points over [-2, 2]" in res.message


# ---------------------------------------------------------------- thermodynamics
@pytest.fixture(scope="module")
def gas():
    U, s = ideal_gas_energy()
    return U, s, potentials(U, s["S"], s["V"])


def test_ideal_gas_is_homogeneous_and_obeys_euler_and_gibbs_duhem(gas):
    U, s, _ = gas
    ext = [s["S"], s["V"], s["N"]]
    assert is_homogeneous(U, ext, 1)
    assert not is_homogeneous(U, ext, 2)
    assert euler_residual(U, ext) == 0
    assert list(gibbs_duhem_residual(U, ext)) == [0, 0, 0]
    # and T = U/(cNR), pV = NRT from the same U (Callen §3.4)
    T = sp.diff(U, s["S"])
    assert sp.simplify(T - U / (s["c"] * s["N"] * s["R"])) == 0
    assert sp.simplify(-sp.diff(U, s["V"]) * s["V"] - s["N"] * s["R"] * T) == 0
    # a non-homogeneous energy (a fixed offset volume) breaks Euler's relation
    assert euler_residual(U.subs(s["V"], s["V"] + 1), ext) != 0


def _at(expr, point):
    return complex(sp.N(expr.xreplace(point), 30))


def test_ideal_gas_potentials_match_their_closed_forms(gas):
    U, s, P = gas
    S, V, N, c, R, U0, V0, N0, s0 = (s[k] for k in "S V N c R U0 V0 N0 s0".split())
    T, p = P.T, P.p
    # by hand: T0 = U0/(c N0 R), p0 = N0 R T0/V0 (the reference state's temperature and
    # pressure), then with Callen's S(U, V, N) and U = cNRT, pV = NRT:
    T0 = U0 / (c * N0 * R)
    p0 = N0 * R * T0 / V0
    F = c * N * R * T - N * T * s0 - N * R * T * sp.log((T / T0) ** c * V * N0 / (V0 * N))
    G = N * T * ((c + 1) * R - s0 - R * sp.log((T / T0) ** (c + 1) * p0 / p))
    H = (c + 1) * N * R * T0 * (p / p0) ** (1 / (c + 1)) * sp.exp((S / N - s0) / ((c + 1) * R))
    rng = np.random.default_rng(3)
    for _ in range(3):
        vals = dict(zip((S, V, N, c, R, U0, V0, N0, s0, T, p),
                        map(sp.Float, rng.uniform(0.5, 3.0, 11)), strict=True))
        for mine, ref in ((P.F, F), (P.G, G), (P.H, H)):
            assert _at(mine, vals) == pytest.approx(_at(ref, vals), rel=1e-20)
    # F and G come out free of exp/powers of logs: sums of N R T log(…) terms
    assert not P.F.has(sp.exp) and not P.G.has(sp.exp)


def _thermo_point(s, model):
    """Callen's constants for thermo.properties' ideal gas: c = c_v/R, N0 = 1 mol,
    V0 = v_ref, U0 = c_v T_ref (so that T0 = T_ref), s0 = s (module docstrings)."""
    vals = {str(k): v for k, v in model.values.items()}
    return {s["c"]: vals["c"] / vals["R"], s["R"]: vals["R"], s["N0"]: 1.0,
            s["V0"]: vals["v_ref"], s["U0"]: vals["c"] * vals["T_ref"], s["s0"]: vals["s"]}


def test_ideal_gas_energy_is_thermo_properties_ideal_gas():
    # second implementation of the same fundamental relation (thermo.properties)
    from porthamiltonian.thermo import properties

    model = properties.ideal_gas()
    U, s = ideal_gas_energy()
    state = {"S": 150.0, "V": 0.03, "N": 1.3}
    mine = float(U.xreplace({**_thermo_point(s, model), **{s[k]: v for k, v in state.items()}}))
    ref = float(model.U.subs(model.values).xreplace(
        {model.S: state["S"], model.V: state["V"], model.N[0]: state["N"]}))
    assert mine == pytest.approx(ref, rel=1e-12)


@pytest.mark.slow
def test_ideal_gas_helmholtz_agrees_with_thermo_properties(gas):
    from porthamiltonian.thermo import properties

    U, s, P = gas
    model = properties.ideal_gas()
    F_ref, (T_ref, V_ref, N_ref) = properties.legendre(model, "F")
    mine = float(P.F.xreplace({**_thermo_point(s, model), P.T: 350.0, s["V"]: 0.02,
                               s["N"]: 1.3}))
    ref = float(F_ref.subs(model.values).xreplace({T_ref: 350.0, V_ref: 0.02, N_ref: 1.3}))
    assert mine == pytest.approx(ref, rel=1e-12)


# ---------------------------------------------------------------- the storage-law check
def _graph(energy: str) -> BondGraph:
    bg = BondGraph("spring", parameters={"k": 2.0, "a": 0.5, "m": 1.0})
    bg.add("K", "C", hamiltonian=energy)
    bg.add("M", "I", i="m")
    bg.add("v", "1")
    bg.connect("v", "K")
    bg.connect("v", "M")
    return bg


def test_storage_check_warns_on_a_non_convex_bond_graph_C():
    with pytest.warns(ModelWarning, match=r"element 'K' \(C\) is not intrinsically stable: "
                      r"the second derivative of its energy is negative at K = 0 \(value -2\)"):
        _graph("-k*K**2/2 + a*K**4/4").resolve()


def test_storage_check_is_silent_on_linear_and_convex_storages():
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        _graph("k*K**2/2").resolve()  # quadratic: left to the structure checks
        _graph("k*K**2/2 + a*K**4/4").resolve()  # hardening Duffing spring: convex
        bg = BondGraph("lin", parameters={"c": 1e-3})
        bg.add("C1", "C", c="c")
        bg.resolve()


def test_storage_check_errors_on_an_energy_undefined_at_the_initial_state():
    x = sp.Symbol("K", real=True)
    with pytest.raises(ModelError, match=r"spring: its energy .* is not a real number .* "
                                         r"at the initial state K = -1"):
        check_storage_law(x**3 * sp.sqrt(x), [x], at=[-1.0], where="spring")
    with pytest.raises(ModelError, match="undefined at the initial state K = 0"):
        check_storage_law(1 / x + x**2, [x], at=[0.0], where="spring")
    # the rest state outside the energy's domain is not an error (q log q at q = 0)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert check_storage_law(x * sp.log(x), [x], where="Ce-like") is None


def test_phs_section_and_model_file_storages_are_checked():
    from porthamiltonian.io import load_model

    text = ("name: dw\nparameters: {k: 1.0, a: 0.5}\nphs: {states: [q, p], J: [[0, 1], "
            "[-1, 0]], hamiltonian: '-k*q**2/2 + a*q**4/4 + p**2/2'}\n")
    with pytest.warns(ModelWarning, match=r"<string>:3: phs.hamiltonian is not intrinsically "
                      r"stable: the Hessian .* indefinite at \(q, p\) = \(0, 0\)"):
        load_model(text)
    bond = """name: bad
parameters: {a: 0.5, m: 1.0}
bondgraph:
  elements:
    - {name: v, type: "1"}
    - {name: K1, type: C, hamiltonian: "a*K1**2*sqrt(K1)"}
    - {name: M1, type: I, i: m}
  bonds: [[v, K1], [v, M1]]
simulate: {t_end: 1, dt: 0.01, initial: {K1: -1.0, M1: 0}}
"""
    with pytest.raises(ModelError, match=r"element 'K1' \(C\) at line 6: its energy .* is not a "
                                         r"real number"):
        BondGraph.from_model(load_model(bond))


@pytest.mark.slow
def test_example_prints_the_identities_and_its_figure_is_labelled(monkeypatch, tmp_path, capsys):
    from test_example_plots import _check, _run

    _check(_run(monkeypatch, tmp_path, "energy_coenergy", "--out", "{out}"))
    out = capsys.readouterr().out
    assert "hold symbolically: True" in out
    assert "H = 6235.847 J ((5/2) N R T = 6235.847)" in out
