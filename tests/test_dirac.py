"""Known facts and error messages of porthamiltonian.dirac.DiracStructure."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.sparse as sp
import sympy

from porthamiltonian.dirac import DiracStructure as D
from porthamiltonian.errors import CausalityError, ModelError, StructureError

# ------------------------------------------------------------------ construction


def test_attributes_and_repr():
    d = D.transformer(2.0, ("a", "b"))
    assert d.ports == ("a", "b")
    assert d.n == 2
    assert not d.symbolic and not d.is_sparse
    assert d.F.shape == d.E.shape == (2, 2)
    assert "a, b" in repr(d)


def test_default_port_names_and_multidimensional_ports():
    J = np.array([[0.0, 1.0], [-1.0, 0.0]])
    d = D.from_skew(J)
    assert d.ports == ("p[0]", "p[1]")
    io = d.input_output({"p": "flow"})  # base name selects every component
    assert io.inputs == [("p[0]", "flow"), ("p[1]", "flow")]


def test_bad_names_and_shapes():
    with pytest.raises(ModelError, match="twice"):
        D(np.eye(2), np.zeros((2, 2)), ["a", "a"], check=False)
    with pytest.raises(StructureError, match="2 columns but 3 ports"):
        D(np.eye(2), np.zeros((2, 2)), ["a", "b", "c"], check=False)
    with pytest.raises(StructureError, match="shape"):
        D(np.eye(2), np.zeros((3, 2)), ["a", "b"], check=False)


def test_check_not_power_conserving_names_entry():
    F = np.array([[1.0, 0.0], [0.0, 1.0]])
    E = np.array([[0.0, 0.5], [0.0, 0.0]])
    d = D(F, E, ["a", "b"], check=False)
    assert not d.is_dirac()
    expected = r"not power conserving: \(F Eᵀ \+ E Fᵀ\)\[0,1\] = 0.5"
    with pytest.raises(StructureError, match=expected):
        d.check()
    with pytest.raises(StructureError, match="not power conserving"):
        D(F, E, ["a", "b"])


def test_check_not_maximal_names_deficiency():
    F = np.array([[1.0, 1.0, 1.0]])  # only Kirchhoff's current law
    E = np.zeros((1, 3))
    d = D(F, E, ["a", "b", "c"], check=False)
    with pytest.raises(StructureError) as exc:
        d.check()
    msg = str(exc.value)
    assert "not maximal: rank [F | E] = 1 < 3 ports" in msg
    assert "leaves 2 port variables free" in msg


def test_check_symbolic_message():
    m = sympy.Symbol("m")
    F = sympy.Matrix([[0, 0], [m, 1]])
    E = sympy.Matrix([[1, -1], [0, 0]])  # should be -m
    d = D(F, E, ["a", "b"], check=False)
    assert d.symbolic
    with pytest.raises(StructureError, match=r"\[0,1\] = m - 1 ≠ 0"):
        d.check()


def test_redundant_rows_allowed():
    d = D.junction0(["a", "b", "c"])
    T = np.array([[1.0, 2.0, 0.0], [0.0, 1.0, 1.0], [1.0, 0.0, 3.0], [1.0, 3.0, 1.0]])
    d2 = D(T @ d.F, T @ d.E, d.ports)
    assert d2.F.shape == (4, 3)
    assert d2 == d


# ------------------------------------------------------------- standard elements


def test_transformer_signs():
    m = 3.0
    d = D.transformer(m, ("a", "b"))
    f_a, e_b = 0.7, -1.3
    f = [f_a, -m * f_a]
    e = [m * e_b, e_b]
    assert d.contains(f, e)
    assert abs(d.power(f, e)) < 1e-12
    assert not d.contains([f_a, m * f_a], e)


def test_gyrator_signs():
    r = 2.0
    d = D.gyrator(r, ("a", "b"))
    f_a, f_b = 0.4, 1.1
    assert d.contains([f_a, f_b], [-r * f_b, r * f_a])
    assert d.contains({"a": f_a, "b": f_b}, {"a": -r * f_b, "b": r * f_a})
    assert not d.contains([f_a, f_b], [r * f_b, r * f_a])


def test_junction_equations():
    j0 = D.junction0(["a", "b", "c"])
    assert j0.contains([1.0, 2.0, -3.0], [5.0, 5.0, 5.0])
    assert not j0.contains([1.0, 2.0, -2.0], [5.0, 5.0, 5.0])
    j1 = D.junction1(["a", "b", "c"])
    assert j1.contains([5.0, 5.0, 5.0], [1.0, 2.0, -3.0])
    assert j0.is_dirac() and j1.is_dirac()


def test_from_skew_sign_convention():
    J = np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, 2.0], [0.0, -2.0, 0.0]])
    d = D.from_skew(J, ["q", "p", "x"])
    e = np.array([0.3, -1.0, 2.0])
    assert d.contains(-J @ e, e)  # f = -J e, i.e. xdot = -f = J e
    assert not d.contains(J @ e, e)
    io = d.input_output()
    assert [k for _, k in io.inputs] == ["effort"] * 3
    np.testing.assert_allclose(io.K, -J, atol=1e-12)


def test_from_skew_rejects_non_skew():
    with pytest.raises(StructureError, match=r"J is not skew-symmetric: J\[0,1\] \+ J\[1,0\]"):
        D.from_skew(np.array([[0.0, 1.0], [1.0, 0.0]]), ["a", "b"])


def test_from_input_output_mixed():
    K = np.array([[0.0, 2.0], [-2.0, 0.0]])
    d = D.from_input_output(K, {"a": "effort", "b": "flow"})
    # y = K u: f_a = 2 f_b, e_b = -2 e_a
    assert d.contains([2.0, 1.0], [1.0, -2.0])
    with pytest.raises(StructureError, match="K is not skew-symmetric"):
        D.from_input_output(np.ones((2, 2)), {"a": "effort", "b": "flow"})
    with pytest.raises(ModelError, match="not 'effort' or 'flow'"):
        D.from_input_output(K, {"a": "voltage", "b": "flow"})


def test_from_input_output_port_order():
    K = np.array([[0.0, 2.0], [-2.0, 0.0]])
    d = D.from_input_output(K, [("a", "e"), ("b", "f")], ports=["b", "a"])
    assert d.ports == ("b", "a")
    assert d == D.from_input_output(K, {"a": "effort", "b": "flow"})


# --------------------------------------------------------------- composition


def test_transformer_composition_is_product():
    t = D.transformer(2.0, ("a", "b")).compose(D.transformer(-3.0, ("c", "d")), [("b", "c")])
    assert t.ports == ("a", "d")
    assert t == D.transformer(-6.0, ("a", "d"))
    assert t != D.transformer(6.0, ("a", "d"))


def test_gyrator_composition_is_transformer():
    g = D.gyrator(2.0, ("a", "b")).compose(D.gyrator(5.0, ("c", "d")), [("b", "c")])
    assert g == D.transformer(2.0 / 5.0, ("a", "d"))
    assert g != D.transformer(-2.0 / 5.0, ("a", "d"))


def test_symbolic_transformer_composition():
    m1, m2 = sympy.symbols("m1 m2", positive=True)
    t = D.transformer(m1, ("a", "b")).compose(D.transformer(m2, ("c", "d")), [("b", "c")])
    assert t.symbolic
    assert t.is_dirac()
    assert t == D.transformer(m1 * m2, ("a", "d"))
    assert t != D.transformer(m1 + m2, ("a", "d"))
    numeric = t.subs({m1: 2, m2: 3})
    assert not numeric.symbolic
    assert numeric == D.transformer(6.0, ("a", "d"))


def test_modulated_transformer_and_gyrator():
    q = sympy.Symbol("q")
    t = D.transformer(sympy.cos(q), ("a", "b"))
    g = D.gyrator(sympy.exp(q), ("c", "d"))
    c = t.compose(g, [("b", "c")])
    assert c.is_dirac()
    io = c.input_output({"a": "effort"})
    K = sympy.Matrix(io.K)
    assert sympy.simplify(K + K.T) == sympy.zeros(2, 2)


def test_zero_junction_with_one_junction():
    j0 = D.junction0(["a", "b", "c"])
    j1 = D.junction1(["d", "e", "g"])
    c = j0.compose(j1, [("c", "d")])
    assert c.ports == ("a", "b", "e", "g")
    #  e_a = e_b,  f_e = f_g,  f_a + f_b − f_e = 0,  e_a + e_e + e_g = 0
    F = np.array([[0, 0, 0, 0], [0, 0, 1, -1], [1, 1, -1, 0], [0, 0, 0, 0]], dtype=float)
    E = np.array([[1, -1, 0, 0], [0, 0, 0, 0], [0, 0, 0, 0], [1, 0, 1, 1]], dtype=float)
    expected = D(F, E, ["a", "b", "e", "g"])
    assert c == expected


def test_compose_multidimensional_ports():
    J = np.array([[0.0, 1.0], [-1.0, 0.0]])
    d1 = D.from_skew(J, ["x[0]", "x[1]"])
    d2 = D.junction0(["y[0]", "y[1]", "z"])
    c = d1.compose(d2, [("x", "y")])
    assert c.ports == ("z",)
    assert c.is_dirac()


def test_compose_errors():
    a = D.transformer(2.0, ("a", "b"))
    b = D.transformer(3.0, ("a", "c"))
    with pytest.raises(ModelError, match=r"port name.*twice.*rename"):
        a.compose(b, [("b", "c")])
    with pytest.raises(ModelError, match="unknown port 'zz'"):
        a.compose(b.rename({"a": "x"}), [("zz", "c")])
    j = D.junction0(["p", "q", "r"])
    with pytest.raises(ModelError, match="connected twice"):
        a.compose(j, [("b", "p"), ("b", "q")])


def test_compose_to_closed_system():
    t = D.transformer(2.0, ("a", "b"))
    g = D.gyrator(1.5, ("c", "d"))
    c = t.compose(g, [("a", "c"), ("b", "d")])
    assert c.n == 0 and c.is_dirac()


def test_compose_many_matches_successive():
    ds = [D.transformer(2.0, ("a0", "b0")), D.gyrator(3.0, ("a1", "b1")),
          D.junction0(["a2", "b2", "c2"]), D.transformer(0.5, ("a3", "b3"))]
    succ = ds[0].compose(ds[1], [("b0", "a1")]).compose(ds[2], [("b1", "a2")])
    succ = succ.compose(ds[3], [("b2", "a3")])
    many = D.compose_many(ds, [("b0", "a1"), ("b1", "a2"), ((2, "b2"), (3, "a3"))])
    assert many.ports == ("a0", "c2", "b3")
    assert many == succ
    with pytest.raises(ModelError, match="exists in structures 0, 1"):
        D.compose_many([D.transformer(1.0, ("a", "b")), D.transformer(1.0, ("a", "c"))],
                       [("a", "c")])


def test_compose_many_with_loop():
    # three transformers in a ring closed through a 0-junction on one port
    ds = [D.transformer(2.0, ("a0", "b0")), D.transformer(3.0, ("a1", "b1")),
          D.junction0(["x", "y", "z"])]
    c = D.compose_many(ds, [("b0", "a1"), ("b1", "x"), ("y", "a0")])
    assert c.ports == ("z",)
    assert c.is_dirac()


def test_sparse_composition_matches_dense():
    n = 300
    j0 = D.junction0([f"p{i}" for i in range(n)])
    sparse = D(sp.csr_array(j0.F), sp.csr_array(j0.E), j0.ports)
    assert sparse.is_sparse and sparse.is_dirac()
    t = D.transformer(2.0, ("a", "b"))
    c = sparse.compose(t, [("p0", "a")])
    assert c.is_sparse and c.is_dirac()
    assert c.ports == tuple(f"p{i}" for i in range(1, n)) + ("b",)
    # junction: f_p0 = −(f_p1 + …) = −1 → f_a = 1 → f_b = −2 f_a; e_a = e_p = 2 = 2 e_b
    f = np.zeros(n)
    f[0], f[-1] = 1.0, -2.0
    e = np.full(n, 2.0)
    e[-1] = 1.0
    assert c.contains(f, e)
    assert not c.contains(f, np.full(n, 2.0))
    dense_ref = j0.compose(t, [("p0", "a")]).to_dense()
    assert c == dense_ref
    large = D.junction1([f"q{i}" for i in range(1200)]).to_sparse()
    assert large.is_dirac()


def test_direct_sum():
    s = D.transformer(2.0, ("a", "b")).direct_sum(D.gyrator(1.0, ("c", "d")))
    assert s.ports == ("a", "b", "c", "d") and s.is_dirac()
    with pytest.raises(ModelError, match="rename"):
        s.direct_sum(D.gyrator(1.0, ("c", "x")))


# ------------------------------------------------------------ input-output


def test_input_output_automatic_prefers_efforts():
    d = D.junction1(["a", "b", "c"])
    io = d.input_output()
    assert [k for _, k in io.inputs] == ["effort", "effort", "flow"]
    assert np.allclose(io.K, -io.K.T)
    assert D.from_input_output(io.K, io.inputs) == d


def test_input_output_partial_and_full():
    d = D.junction0(["a", "b", "c"])
    io = d.input_output({"b": "effort"})
    kinds = dict(io.inputs)
    assert kinds == {"a": "flow", "b": "effort", "c": "flow"}
    assert dict(io.outputs) == {"a": "effort", "b": "flow", "c": "effort"}
    assert D.from_input_output(io.K, io.inputs) == d


def test_causality_error_names_ports():
    d = D.junction0(["a", "b", "c"])
    with pytest.raises(CausalityError) as exc:
        d.input_output({"a": "effort", "b": "effort"})
    msg = str(exc.value)
    assert "cannot impose the efforts of ports a, b as inputs" in msg
    assert "e_a = e_b" in msg
    j1 = D.junction1(["x", "y", "z"])
    with pytest.raises(CausalityError, match="flows of ports x, z"):
        j1.input_output({"x": "flow", "z": "flow"})
    t = D.transformer(2.0, ("a", "b"))
    with pytest.raises(CausalityError, match=r"0.5·e_a = e_b"):
        t.input_output({"a": "effort", "b": "effort"})


def test_symbolic_input_output():
    m = sympy.Symbol("m", positive=True)
    t = D.transformer(m, ("a", "b"))
    io = t.input_output({"a": "effort"})
    K = sympy.Matrix(io.K)
    assert dict(io.inputs) == {"a": "effort", "b": "flow"}
    # f_a = -f_b / m, e_b = e_a / m
    assert sympy.simplify(K - sympy.Matrix([[0, -1 / m], [1 / m, 0]])) == sympy.zeros(2, 2)
    assert D.from_input_output(K, io.inputs) == t


# ------------------------------------------------------------ forms and ports


def test_image_round_trip():
    d = D.gyrator(2.0, ("a", "b"))
    Ff, Ee = d.image()
    assert D.from_image(Ff, Ee, d.ports) == d
    lam = np.array([0.3, -0.8])
    assert d.contains(Ff @ lam, Ee @ lam)


def test_constraints_of_junctions():
    j0 = D.junction0(["a", "b", "c"])
    A, B = j0.constraints()
    assert A.shape == (3, 2) and B.shape == (3, 1)
    assert np.allclose(A.T @ np.ones(3), 0)  # equal efforts satisfy Aᵀe = 0
    assert np.allclose(B.ravel() / B[0, 0], 1)  # Σ f = 0
    assert j0.flow_space().shape == (3, 2)
    assert j0.effort_space().shape == (3, 1)
    q = sympy.Symbol("q")
    A_s = D.transformer(q, ("a", "b")).effort_constraints()  # e_a = q e_b
    assert A_s.shape == (2, 1)
    assert sympy.simplify((A_s.T * sympy.Matrix([q, 1]))[0]) == 0


def test_rename_reorder_and_equality_by_name():
    d = D.transformer(2.0, ("a", "b"))
    r = d.rename({"a": "x"})
    assert r.ports == ("x", "b")
    assert d.reorder(["b", "a"]) == d
    assert d != r
    with pytest.raises(ModelError, match="permutation"):
        d.reorder(["a"])
    w = D.from_skew(np.array([[0.0, 1.0], [-1.0, 0.0]]), ["w[0]", "w[1]"])
    assert w.rename({"w": "v"}).ports == ("v[0]", "v[1]")
    assert (d == 3) is False


def test_numeric_conversion_errors():
    q = sympy.Symbol("q")
    t = D.transformer(q, ("a", "b"))
    with pytest.raises(ModelError, match="depends on q"):
        t.numeric()
    assert t.subs({q: 2}).numeric() == D.transformer(2.0, ("a", "b"))
    assert D(sympy.Matrix([[0, 0], [2, 1]]), sympy.Matrix([[1, -2], [0, 0]]),
             ["a", "b"]).numeric() == D.transformer(2.0, ("a", "b"))


def test_power_symbolic():
    m = sympy.Symbol("m")
    t = D.transformer(m, ("a", "b"))
    fa, eb = sympy.symbols("fa eb")
    assert t.power([fa, -m * fa], [m * eb, eb]) == 0
    assert t.contains([fa, -m * fa], [m * eb, eb])


# ------------------------------------------------------------ tensor product


def test_tensor_of_graphs_adds():
    K1 = np.array([[0.0, 1.0, 0.0], [-1.0, 0.0, 2.0], [0.0, -2.0, 0.0]])
    K2 = np.array([[0.0, 0.5, -1.0], [-0.5, 0.0, 0.0], [1.0, 0.0, 0.0]])
    flows = [(p, "flow") for p in ("a", "b", "c")]
    d1 = D.from_input_output(K1, flows)  # e = K1 f
    d2 = D.from_input_output(K2, flows)
    assert d1.tensor(d2) == D.from_input_output(K1 + K2, flows)


def test_tensor_units():
    d = D.junction0(["a", "b", "c"])
    unit = D(np.zeros((3, 3)), np.eye(3), ["c", "a", "b"])  # e = 0, f free
    assert d.tensor(unit) == d
    absorbing = D(np.eye(3), np.zeros((3, 3)), ["a", "b", "c"])  # f = 0, e free
    assert d.tensor(absorbing) == absorbing


def test_tensor_symbolic_and_errors():
    m = sympy.Symbol("m")
    t = D.transformer(m, ("a", "b"))
    res = t.tensor(D.gyrator(1, ("a", "b")))
    assert res.symbolic and res.is_dirac()
    with pytest.raises(ModelError, match="same ports"):
        t.tensor(D.gyrator(1.0, ("a", "c")))
