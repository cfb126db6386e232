"""Explicit PHS generation from bond graphs, checked against hand derivations and
against a direct solve of all element equations (independent of the generator)."""

from __future__ import annotations

import numpy as np
import pytest
import sympy as sp
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

from porthamiltonian import NoExplicitFormError
from porthamiltonian.bondgraph import BondGraph
from porthamiltonian.bondgraph.generate import to_descriptor, to_phs


def S(name: str) -> sp.Symbol:
    return sp.Symbol(name, real=True)


def P(name: str) -> sp.Symbol:
    return sp.Symbol(name, positive=True)


def graph(elements, bonds, parameters=None, name="g") -> BondGraph:
    bg = BondGraph(name, parameters=parameters or {})
    for e in elements:
        bg.add(*e[:2], **(e[2] if len(e) > 2 else {}))
    for a, b in bonds:
        bg.connect(a, b)
    return bg


def same(a, b) -> bool:
    return sp.simplify(sp.Matrix(a) - sp.Matrix(b)) == sp.zeros(*sp.Matrix(a).shape)


def series_rlc():
    return graph([("u", "Se"), ("j", "1"), ("R1", "R", {"r": "R"}), ("C1", "C", {"c": "C"}),
                  ("L1", "I", {"i": "L"})],
                 [("u", "j"), ("j", "R1"), ("j", "C1"), ("j", "L1")],
                 {"R": 10, "L": 0.1, "C": 1e-3})


def test_series_rlc_by_hand():
    sys = to_phs(series_rlc())
    q, p, u = S("C1"), S("L1"), S("u")
    R, L, C = P("R"), P("L"), P("C")
    i = p / L  # loop current
    assert same(sys.rhs_expr(), [i, u - R * i - q / C])  # KVL
    assert same(sys.output_expr(), [i])  # the source sees the current: power u·i
    assert same(sys.J, [[0, 1], [-1, 0]]) and same(sys.R, [[0, 0], [0, R]])


def test_parallel_rc_driven_by_a_current_source_uses_an_admittance():
    bg = graph([("i", "Sf"), ("j", "0"), ("R1", "R", {"r": "R"}), ("C1", "C", {"c": "C"})],
               [("i", "j"), ("j", "R1"), ("j", "C1")], {"R": 2.0, "C": 0.5})
    sys = to_phs(bg)
    q, i = S("C1"), S("i")
    R, C = P("R"), P("C")
    v = q / C
    assert same(sys.rhs_expr(), [i - v / R])  # KCL
    assert same(sys.output_expr(), [v])
    assert same(sys.R, [[1 / R]])


def test_dc_motor_with_a_gyrator():
    bg = graph([("V", "Se"), ("je", "1"), ("R1", "R", {"r": "Ra"}), ("L1", "I", {"i": "La"}),
                ("K", "GY", {"ratio": "k"}), ("jm", "1"), ("J1", "I", {"i": "Jr"}),
                ("b1", "R", {"r": "b"})],
               [("V", "je"), ("je", "R1"), ("je", "L1"), ("je", "K"), ("K", "jm"),
                ("jm", "J1"), ("jm", "b1")],
               {"Ra": 1.0, "La": 1e-3, "k": 0.05, "Jr": 1e-4, "b": 1e-4})
    sys = to_phs(bg)
    phi, p, V = S("L1"), S("J1"), S("V")
    Ra, La, k, Jr, b = P("Ra"), P("La"), P("k"), P("Jr"), P("b")
    i, w = phi / La, p / Jr
    assert same(sys.rhs_expr(), [V - Ra * i - k * w, k * i - b * w])
    assert same(sys.output_expr(), [i])


def test_state_modulated_transformer():
    """Se–1a{I1, R1}–MTF(m(q))–1b{C, R2}: a lever whose ratio depends on the spring state."""
    bg = graph([("F", "Se"), ("ja", "1"), ("I1", "I", {"i": "m1"}), ("R1", "R", {"r": "c1"}),
                ("T", "MTF", {"ratio": "cos(Kq)"}), ("jb", "1"), ("Kq", "C", {"c": "1/k"}),
                ("R2", "R", {"r": "c2"})],
               [("F", "ja"), ("ja", "I1"), ("ja", "R1"), ("ja", "T"), ("T", "jb"),
                ("jb", "Kq"), ("jb", "R2")],
               dict.fromkeys(["m1", "c1", "c2", "k"]))  # symbolic parameters
    sys = to_phs(bg)
    p, q, F = S("I1"), S("Kq"), S("F")
    m1, c1, c2, k = P("m1"), P("c1"), P("c2"), P("k")
    m = sp.cos(q)
    v1 = p / m1
    v2 = m * v1  # TF: f2 = m f1
    e2 = k * q + c2 * v2  # 1b: effort of the TF's bond 2
    assert same(sys.rhs_expr(), [F - c1 * v1 - m * e2, v2])  # states in element order
    J = sys.J
    assert any(e.has(q) for e in J)  # modulated interconnection


def test_two_dimensional_multibond_mass_spring_damper():
    Kst = np.array([[3.0, 1.0], [1.0, 5.0]])
    Mass = np.array([[2.0, 0.5], [0.5, 1.0]])
    Dmp = np.array([[0.4, 0.1], [0.1, 0.3]])
    bg = graph([("F", "Se", {"dim": 2}), ("j", "1", {"dim": 2}),
                ("m", "I", {"dim": 2, "i": sp.Matrix(Mass)}),
                ("k", "C", {"dim": 2, "c": sp.Matrix(np.linalg.inv(Kst))}),
                ("d", "R", {"dim": 2, "r": sp.Matrix(Dmp)})],
               [("F", "j"), ("j", "m"), ("j", "k"), ("j", "d")])
    for symbolic in (True, False):
        sys = to_phs(bg, symbolic=symbolic)
        assert list(sys.states) == ["m[0]", "m[1]", "k[0]", "k[1]"]
        rng = np.random.default_rng(0)
        p, q, F = rng.normal(size=2), rng.normal(size=2), rng.normal(size=2)
        v = np.linalg.solve(Mass, p)
        expected = np.r_[F - Kst @ q - Dmp @ v, v]  # Newton, matrix form
        np.testing.assert_allclose(sys.rhs(np.r_[p, q], F), expected, rtol=1e-10)
        np.testing.assert_allclose(sys.output(np.r_[p, q], F), v, rtol=1e-10)


def test_a_storage_named_like_a_parameter_has_the_qualified_state():
    """``i: L`` reads the parameter L; the storage L's state is ``L.p`` (tests/io/test_names.py
    for the whole rule)."""
    bg = graph([("u", "Se"), ("L", "I", {"i": "L"})], [("u", "L")], {"L": 2.0})
    sys = to_phs(bg)
    assert list(sys.states) == ["L.p"] and sys.free_parameters() == ["L"]
    np.testing.assert_allclose(sys.gradient([3.0]), [1.5])


def test_numeric_and_symbolic_paths_agree_on_the_dc_motor():
    bg = graph([("V", "Se"), ("je", "1"), ("Ra", "R", {"r": 1.5}), ("La", "I", {"i": 2e-3}),
                ("K", "GY", {"ratio": 0.05}), ("jm", "1"), ("Jm", "I", {"i": 1e-4}),
                ("b", "R", {"r": 1e-4})],
               [("V", "je"), ("je", "Ra"), ("je", "La"), ("je", "K"), ("K", "jm"),
                ("jm", "Jm"), ("jm", "b")])
    a, b = to_phs(bg, symbolic=True), to_phs(bg, symbolic=False)
    x, u = np.array([0.01, -0.002]), np.array([3.0])
    np.testing.assert_allclose(a.rhs(x, u), b.rhs(x, u), rtol=1e-12)
    np.testing.assert_allclose(a.output(x, u), b.output(x, u), rtol=1e-12)


# ---------------------------------------------------------------------------------------
# Independent check: solve every element equation at once (all bond efforts and flows)
def solve_elements(bg: BondGraph, x: dict[str, float], u: dict[str, float]):
    """ẋ and y from the element laws and junction laws by one linear solve."""
    bonds = bg.bonds
    idx = {b.name: k for k, b in enumerate(bonds)}
    nb = len(bonds)
    rows, rhs = [], []

    def row():
        r = np.zeros(2 * nb)  # [f_0..f_nb-1, e_0..]
        rows.append(r)
        return r

    for el in bg.elements.values():
        bs = bg.bonds_of(el.name)
        k = el.kind
        if k == "0":
            r = row()
            for b in bs:
                r[idx[b.name]] = 1 if b.head == el.name else -1
            rhs.append(0)
            for b in bs[1:]:
                r = row()
                r[nb + idx[bs[0].name]], r[nb + idx[b.name]] = 1, -1
                rhs.append(0)
        elif k == "1":
            r = row()
            for b in bs:
                r[nb + idx[b.name]] = 1 if b.head == el.name else -1
            rhs.append(0)
            for b in bs[1:]:
                r = row()
                r[idx[bs[0].name]], r[idx[b.name]] = 1, -1
                rhs.append(0)
        elif k in ("TF", "GY"):
            b1 = next(b for b in bs if b.head == el.name)
            b2 = next(b for b in bs if b.tail == el.name)
            m = float(el.params["ratio"])
            i1, i2 = idx[b1.name], idx[b2.name]
            r1, r2 = row(), row()
            if k == "TF":  # e1 = m e2, f2 = m f1
                r1[nb + i1], r1[nb + i2] = 1, -m
                r2[i2], r2[i1] = 1, -m
            else:  # e1 = m f2, e2 = m f1
                r1[nb + i1], r1[i2] = 1, -m
                r2[nb + i2], r2[i1] = 1, -m
            rhs += [0, 0]
        else:
            i = idx[bs[0].name]
            r = row()
            if k == "C":
                r[nb + i] = 1
                rhs.append(x[el.name] / float(el.params["c"]))
            elif k == "I":
                r[i] = 1
                rhs.append(x[el.name] / float(el.params["i"]))
            elif k == "R":
                r[nb + i], r[i] = 1, -float(el.params["r"])
                rhs.append(0)
            elif k == "Se":
                r[nb + i] = 1
                rhs.append(u[el.name])
            elif k == "Sf":
                r[i] = 1
                rhs.append(u[el.name])
    A = np.array(rows)
    sol = np.linalg.solve(A, np.array(rhs, dtype=float))
    f, e = sol[:nb], sol[nb:]
    xdot, y = {}, {}
    for el in bg.elements.values():
        if el.kind in ("C", "I", "Se", "Sf"):
            i = idx[bg.bonds_of(el.name)[0].name]
            if el.kind == "C":
                xdot[el.name] = f[i]
            elif el.kind == "I":
                xdot[el.name] = e[i]
            elif el.kind == "Se":
                y[el.name] = f[i]
            else:
                y[el.name] = e[i]
    return xdot, y


@st.composite
def random_graph(draw):
    """A random tree of junctions (and TF/GY) with one-port elements hanging off it."""
    rng = np.random.default_rng(draw(st.integers(0, 2**31)))
    nj = draw(st.integers(1, 5))
    bg = BondGraph("random")
    junctions = []
    for k in range(nj):
        name = f"j{k}"
        bg.add(name, str(rng.integers(0, 2)))
        if junctions:
            parent = junctions[rng.integers(len(junctions))]
            if rng.random() < 0.3:
                t = f"t{k}"
                bg.add(t, "TF" if rng.random() < 0.5 else "GY", ratio=float(rng.uniform(0.5, 2)))
                a, b = (parent, name) if rng.random() < 0.5 else (name, parent)
                bg.connect(a, t)
                bg.connect(t, b)
            else:
                a, b = (parent, name) if rng.random() < 0.5 else (name, parent)
                bg.connect(a, b)
        junctions.append(name)
    n_ext = draw(st.integers(2, 7))
    kinds = ["C", "I", "R", "Se", "Sf"]
    for k in range(n_ext):
        kind = kinds[rng.integers(len(kinds))] if k > 0 else "Se"
        name = f"{kind}{k}"
        key = {"C": "c", "I": "i", "R": "r"}.get(kind)
        bg.add(name, kind, **({key: float(rng.uniform(0.5, 3))} if key else {}))
        j = junctions[rng.integers(len(junctions))]
        bg.connect(*((name, j) if kind in ("Se", "Sf") else (j, name)))
    for j in junctions:  # a junction needs two bonds
        if len(bg.bonds_of(j)) < 2:
            name = f"R_{j}"
            bg.add(name, "R", r=float(rng.uniform(0.5, 3)))
            bg.connect(j, name)
    return bg


@settings(max_examples=60, deadline=None)
@given(random_graph(), st.integers(0, 1000))
def test_random_graphs_match_the_element_equations(bg, seed):
    try:
        sys = to_phs(bg, symbolic=False)
    except NoExplicitFormError:
        assume(False)
    assume(not hasattr(sys, "merged"))  # dependent storages: next test
    assume(not hasattr(sys, "fixed"))  # storages fixed by sources: test_forced.py
    rng = np.random.default_rng(seed)
    x = dict(zip(sys.states, rng.normal(size=sys.n_states), strict=True))
    u = dict(zip(sys.inputs, rng.normal(size=sys.n_inputs), strict=True))
    try:
        xdot, y = solve_elements(bg, x, u)
    except np.linalg.LinAlgError:
        assume(False)
    xv, uv = np.array(list(x.values())), np.array(list(u.values()))
    np.testing.assert_allclose(sys.rhs(xv, uv), [xdot[s] for s in sys.states],
                               rtol=1e-8, atol=1e-8)
    np.testing.assert_allclose(sys.output(xv, uv), [y[s] for s in sys.inputs],
                               rtol=1e-8, atol=1e-8)


def _linear(sys):
    """(A, B, C, D) of a linear PHS: A = (J−R)Q, B = G−P, C = (G+P)ᵀQ, D = M+S."""
    m = {k: np.asarray(v.toarray() if hasattr(v, "toarray") else v, dtype=float)
         for k, v in sys.matrices().items()}
    Q = np.asarray(sys.Q.toarray() if hasattr(sys.Q, "toarray") else sys.Q, dtype=float)
    return (m["J"] - m["R"]) @ Q, m["G"] - m["P"], (m["G"] + m["P"]).T @ Q, m["M"] + m["S"]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.filter_too_much])
@given(random_graph(), st.integers(0, 10**6))
def test_merged_storages_match_the_descriptor_elimination(bg, seed):
    """The merged model (ξ = x_a − A_ad x_d) and DescriptorPHS.to_phs() (eliminating
    states by pivoting, independent code) are the same system: same transfer function.
    A twin storage is put beside a C on a 0-junction or an I on a 1-junction."""
    rng = np.random.default_rng(seed)
    bg.resolve()
    spots = [(el, b.tail) for el in bg.storages() for b in bg.bonds_of(el.name)
             if bg.elements[b.tail].type == {"C": "0", "I": "1"}[el.kind]]
    assume(spots)
    el, j = spots[rng.integers(len(spots))]
    bg.add(f"{el.name}x", el.kind, **{el.kind.lower(): float(rng.uniform(0.5, 3))})
    bg.connect(j, f"{el.name}x")
    try:
        sys = to_phs(bg, symbolic=False)
        ref = to_descriptor(bg, symbolic=False).to_phs()
    except NoExplicitFormError:
        assume(False)
    assume(hasattr(sys, "merged"))
    assert sys.n_states == ref.n_states
    A1, B1, C1, D1 = _linear(sys)
    A2, B2, C2, D2 = _linear(ref)
    for s_ in (0.3j, 1.0 + 2.0j, 7.0j):
        n = A1.shape[0]
        H1 = C1 @ np.linalg.solve(s_ * np.eye(n) - A1, B1) + D1
        H2 = C2 @ np.linalg.solve(s_ * np.eye(n) - A2, B2) + D2
        np.testing.assert_allclose(H1, H2, rtol=1e-7, atol=1e-9)


@pytest.mark.parametrize("symbolic", [True, False])
def test_source_bonded_directly_to_a_storage(symbolic):
    """Sf → C with no junction: q̇ = i and the source sees the voltage q/C (also 2-D)."""
    bg = graph([("i", "Sf", {"dim": 2}), ("C1", "C", {"dim": 2, "c": sp.diag(2, 4)})],
               [("i", "C1")])
    sys = to_phs(bg, symbolic=symbolic)
    q, i = np.array([1.0, -3.0]), np.array([0.3, 0.5])
    np.testing.assert_allclose(sys.rhs(q, i), i)
    np.testing.assert_allclose(sys.output(q, i), q / np.array([2.0, 4.0]))


def test_latex_of_a_bond_graph_model_shows_the_symbolic_matrices(capsys):
    """Series RLC: J = [[0, 1], [−1, 0]], R = diag(0, R), H = q²/2C + p²/2L, in LaTeX."""
    from conftest import EXAMPLES
    from porthamiltonian.cli import main

    assert main(["phs", str(EXAMPLES / "models" / "series_rlc.yaml"), "--latex"]) == 0
    tex = capsys.readouterr().out
    assert r"\left[\begin{matrix}0 & 1\\-1 & 0\end{matrix}\right]" in tex
    assert r"\left[\begin{matrix}0 & 0\\0 & R\end{matrix}\right]" in tex
    assert r"\frac{L_{1}^{2}}{2 L}" in tex and r"\frac{C_{1}^{2}}{2 C}" in tex


@pytest.mark.parametrize("symbolic", [True, False])
def test_state_modulated_resistor(symbolic):
    """MSe F → 1{I m, C spring, MR r(q) = c0 + c1 q²}: q̇ = p/m, ṗ = F − k q − r(q) p/m;
    R(x) = diag(0, r(q)) ⪰ 0 depends on the state."""
    bg = graph([("F", "MSe"), ("j", "1"), ("m", "I", {"i": "M"}), ("q", "C", {"c": "1/k"}),
                ("d", "MR", {"r": "c0 + c1*q**2"})],
               [("F", "j"), ("j", "m"), ("j", "q"), ("j", "d")],
               {"M": 2.0, "k": 5.0, "c0": 0.1, "c1": 0.3})
    sys = to_phs(bg, symbolic=symbolic)
    assert sys.states == ("m", "q")
    p, q, F = 0.7, -1.3, 0.4
    r = 0.1 + 0.3 * q**2
    np.testing.assert_allclose(sys.rhs([p, q], [F]), [F - 5.0 * q - r * p / 2.0, p / 2.0],
                               rtol=1e-12)
    np.testing.assert_allclose(sys.output([p, q], [F]), [p / 2.0], rtol=1e-12)


def test_port_impedance_of_a_series_rlc_bond_graph():
    """The Se port of a series RLC has the impedance V(s)/I(s) = R + Ls + 1/(Cs); the
    generated model records that its input is an effort, so no hint is needed."""
    from porthamiltonian.analysis import impedance

    sys = to_phs(series_rlc(), symbolic=False)
    assert sys.port_kinds == {"u": "effort"}
    R, L, C = 10.0, 0.1, 1e-3
    for w in (3.0, 100.0, 1e4):
        s_ = 1j * w
        Z = complex(np.asarray(impedance(sys, "u")(s_)).ravel()[0])
        np.testing.assert_allclose(Z, R + L * s_ + 1 / (C * s_), rtol=1e-10)
