"""Property tests of porthamiltonian.dirac with random numeric Dirac structures."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from porthamiltonian.dirac import DiracStructure as D
from porthamiltonian.errors import CausalityError

NAME_POOL = ["a", "b", "c", "x1", "y_2", "w[0]", "w[1]", "q.dot", "p", "z", "u", "v"]

SETTINGS = settings(max_examples=60, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow])

small = st.integers(-4, 4).map(lambda k: k / 2.0)


@st.composite
def mixing(draw, n: int, extra: int) -> np.ndarray:
    """An invertible n×n row mixing (P L U), plus ``extra`` redundant combinations."""
    L = np.eye(n)
    U = np.diag([draw(st.sampled_from([1.0, -1.0, 2.0, 0.5])) for _ in range(n)])
    for i in range(n):
        for j in range(n):
            if i > j:
                L[i, j] = draw(small)
            elif i < j:
                U[i, j] = draw(small)
    perm = draw(st.permutations(range(n)))
    T = (L @ U)[list(perm)]
    if extra:
        C = np.array([[draw(small) for _ in range(n)] for _ in range(extra)])
        T = np.vstack([T, C @ T])
    return T


@st.composite
def dirac_structures(draw, n: int | None = None, names: list[str] | None = None,
                     min_n: int = 1, max_n: int = 4) -> D:
    """Random Dirac structure: skew K with random causality, then rows mixed."""
    if names is not None:
        n = len(names)
    if n is None:
        n = draw(st.integers(min_n, max_n))
    if names is None:
        names = draw(st.lists(st.sampled_from(NAME_POOL), min_size=n, max_size=n,
                              unique=True))
    A = np.array([[draw(small) for _ in range(n)] for _ in range(n)])
    K = np.triu(A, 1) - np.triu(A, 1).T
    kinds = [draw(st.sampled_from(["effort", "flow"])) for _ in range(n)]
    base = D.from_input_output(K, list(zip(names, kinds, strict=True)))
    T = draw(mixing(n, draw(st.integers(0, 2))))
    return D(T @ base.F, T @ base.E, base.ports)


def rename_all(d: D, prefix: str) -> D:
    return d.rename({p: f"{prefix}{i}" for i, p in enumerate(d.ports)})


def random_element(d: D, rng: np.random.Generator) -> tuple[np.ndarray, np.ndarray]:
    Ff, Ee = d.image()
    lam = rng.normal(size=Ff.shape[1])
    return Ff @ lam, Ee @ lam


@SETTINGS
@given(dirac_structures(), st.integers(0, 2**32 - 1))
def test_random_structures_are_dirac_and_lossless(d, seed):
    assert d.is_dirac()
    f, e = random_element(d, np.random.default_rng(seed))
    assert d.contains(f, e)
    assert abs(d.power(f, e)) <= 1e-9 * (1 + np.linalg.norm(f) * np.linalg.norm(e))


@SETTINGS
@given(dirac_structures())
def test_image_kernel_round_trip(d):
    Ff, Ee = d.image()
    assert D.from_image(Ff, Ee, d.ports) == d


@SETTINGS
@given(dirac_structures())
def test_automatic_input_output_represents_structure(d):
    io = d.input_output()
    assert np.allclose(io.K, -io.K.T, atol=1e-12)
    assert [p for p, _ in io.inputs] == list(d.ports)
    assert D.from_input_output(io.K, io.inputs) == d


@SETTINGS
@given(dirac_structures(), st.data())
def test_requested_causality_is_kept_or_refused(d, data):
    chosen = data.draw(st.lists(st.sampled_from(d.ports), unique=True))
    request = {p: data.draw(st.sampled_from(["effort", "flow"])) for p in chosen}
    try:
        io = d.input_output(request)
    except CausalityError as exc:
        # the message names requested ports only
        assert any(p in str(exc) for p in chosen)
        return
    assert all(dict(io.inputs)[p] == k for p, k in request.items())
    assert D.from_input_output(io.K, io.inputs) == d


@st.composite
def connected_pair(draw):
    d1 = rename_all(draw(dirac_structures(min_n=1, max_n=4)), "l")
    d2 = rename_all(draw(dirac_structures(min_n=1, max_n=4)), "r")
    m = draw(st.integers(1, min(d1.n, d2.n)))
    left = draw(st.permutations(d1.ports))[:m]
    right = draw(st.permutations(d2.ports))[:m]
    return d1, d2, list(zip(left, right, strict=True))


@SETTINGS
@given(connected_pair())
def test_composition_is_dirac(args):
    d1, d2, connect = args
    c = d1.compose(d2, connect)
    joined = {p for pair in connect for p in pair}
    assert c.ports == tuple(p for p in d1.ports + d2.ports if p not in joined)
    assert c.is_dirac()
    assert D.compose_many([d1, d2], connect) == c


@SETTINGS
@given(connected_pair(), st.integers(0, 2**32 - 1))
def test_composition_contains_projected_elements(args, seed):
    """An element of D1 ⊕ D2 that satisfies the connection projects into D1 ∘ D2."""
    d1, d2, connect = args
    c = d1.compose(d2, connect)
    s = d1.direct_sum(d2)
    pos = {p: i for i, p in enumerate(s.ports)}
    # elements of the direct sum satisfying e_p = e_q, f_p = -f_q: kernel of a stack
    rows = []
    n = s.n
    for p, q in connect:
        r_e = np.zeros(2 * n)
        r_e[n + pos[p]], r_e[n + pos[q]] = 1.0, -1.0
        r_f = np.zeros(2 * n)
        r_f[pos[p]], r_f[pos[q]] = 1.0, 1.0
        rows += [r_e, r_f]
    M = np.vstack([np.hstack([s.F, s.E])] + [np.array(rows)])
    _, sv, vt = np.linalg.svd(M)
    rank = int(np.sum(sv > 1e-9 * sv[0]))
    basis = vt[rank:].T
    if basis.shape[1] == 0:
        return
    x = basis @ np.random.default_rng(seed).normal(size=basis.shape[1])
    keep = [pos[p] for p in c.ports]
    assert c.contains(x[:n][keep], x[n:][keep])


@SETTINGS
@given(dirac_structures(min_n=2, max_n=3), dirac_structures(min_n=2, max_n=3),
       dirac_structures(min_n=2, max_n=3))
def test_composition_is_associative(a, b, c):
    a, b, c = rename_all(a, "a"), rename_all(b, "b"), rename_all(c, "c")
    ab = [("a0", "b0")]
    bc = [("b1", "c0")]
    left = a.compose(b, ab).compose(c, bc)
    right = a.compose(b.compose(c, bc), ab)
    assert left.is_dirac() and right.is_dirac()
    assert left == right
    assert D.compose_many([a, b, c], ab + bc) == left


@SETTINGS
@given(dirac_structures(), dirac_structures())
def test_direct_sum_is_dirac(a, b):
    s = rename_all(a, "a").direct_sum(rename_all(b, "b"))
    assert s.is_dirac()
    assert s.n == a.n + b.n


@SETTINGS
@given(st.data())
def test_tensor_product_is_dirac(data):
    names = data.draw(st.lists(st.sampled_from(NAME_POOL), min_size=1, max_size=4, unique=True))
    d1 = data.draw(dirac_structures(names=names))
    d2 = data.draw(dirac_structures(names=names)).reorder(
        data.draw(st.permutations(names)))
    t = d1.tensor(d2)
    assert t.ports == d1.ports
    assert t.is_dirac()
    # every (f, e1 + e2) with (f, e1) ∈ D1, (f, e2) ∈ D2 is in the product: build one
    n = len(names)
    d2o = d2.reorder(d1.ports)
    M = np.block([[d1.F, d1.E, np.zeros_like(d1.E)], [d2o.F, np.zeros_like(d2o.E), d2o.E]])
    _, sv, vt = np.linalg.svd(M)
    rank = int(np.sum(sv > 1e-9 * sv[0]))
    basis = vt[rank:].T
    if basis.shape[1]:
        x = basis @ np.ones(basis.shape[1])
        f, e1, e2 = x[:n], x[n:2 * n], x[2 * n:]
        assert t.contains(f, e1 + e2)


@SETTINGS
@given(dirac_structures(), st.data())
def test_equality_ignores_representation_and_port_order(d, data):
    T = data.draw(mixing(d.F.shape[0], 0))
    same = D(T @ d.F, T @ d.E, d.ports)
    perm = data.draw(st.permutations(d.ports))
    assert same.reorder(perm) == d
    other = d.rename({d.ports[0]: "zz_other"})
    assert other != d


@pytest.mark.parametrize("n", [3, 5])
def test_perturbed_structure_is_not_dirac(n):
    rng = np.random.default_rng(n)
    A = rng.normal(size=(n, n))
    d = D.from_skew(A - A.T, [f"x{i}" for i in range(n)])
    bad = D(d.F + 1e-3 * rng.normal(size=(n, n)), d.E, d.ports, check=False)
    assert not bad.is_dirac()
