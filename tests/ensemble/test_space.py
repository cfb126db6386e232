"""Parameter points and run statistics: designs and formulas checked against their
definitions."""

from __future__ import annotations

import numpy as np
import pytest
import scipy.stats

from porthamiltonian.ensemble import from_table, grid, latin_hypercube, monte_carlo, parse_param
from porthamiltonian.ensemble.stats import Moments
from porthamiltonian.errors import ModelError


def test_grid_is_the_product_with_the_last_parameter_fastest():
    pts = grid({"a": [1, 2], "b": [10, 20, 30]})
    assert pts.names == ("a", "b") and len(pts) == 6
    np.testing.assert_array_equal(pts.values[:, 0], [1, 1, 1, 2, 2, 2])
    np.testing.assert_array_equal(pts.values[:, 1], [10, 20, 30] * 2)
    assert pts.row(4) == {"a": 2.0, "b": 20.0}


def test_latin_hypercube_puts_one_point_in_each_stratum_of_every_parameter():
    n = 50
    pts = latin_hypercube({"R": (1.0, 11.0), "J": scipy.stats.norm(2.0, 0.1),
                           "k": [1.0, 2.0]}, n, seed=7)
    strata = np.floor((pts.values[:, 0] - 1.0) / (10.0 / n)).astype(int)
    assert sorted(strata) == list(range(n))
    # through the inverse CDF: the normal's strata are its quantiles
    u = scipy.stats.norm(2.0, 0.1).cdf(pts.values[:, 1])
    assert sorted(np.floor(u * n).astype(int)) == list(range(n))
    assert set(pts.values[:, 2]) == {1.0, 2.0}
    again = latin_hypercube({"R": (1.0, 11.0), "J": scipy.stats.norm(2.0, 0.1),
                             "k": [1.0, 2.0]}, n, seed=7)
    np.testing.assert_array_equal(pts.values, again.values)  # the seed decides
    assert pts.design == "latin_hypercube" and pts.seed == 7


def test_monte_carlo_is_uniform_in_the_range():
    pts = monte_carlo({"R": (2.0, 4.0)}, 4000, seed=1)
    r = pts.values[:, 0]
    assert r.min() >= 2.0 and r.max() < 4.0
    # Kolmogorov–Smirnov against U(2, 4): far from rejected
    assert scipy.stats.kstest(r, scipy.stats.uniform(2.0, 2.0).cdf).pvalue > 0.01


def test_tables_from_files_and_mappings(tmp_path):
    path = tmp_path / "p.csv"
    path.write_text("R, L\n1, 0.1\n\n2, 0.2\n")
    pts = from_table(path)
    assert pts.names == ("R", "L")
    np.testing.assert_array_equal(pts.values, [[1, 0.1], [2, 0.2]])
    path.write_text("R,L\n1\n")
    with pytest.raises(ModelError, match=r"p.csv:2: 1 values for 2 columns"):
        from_table(path)
    with pytest.raises(ModelError, match="same number of values"):
        from_table({"R": [1, 2], "L": [1]})
    path.write_bytes(b"\x89PNG\r\n\x1a\n\x00\x00")
    with pytest.raises(ModelError, match="p.csv: not a CSV text file"):
        from_table(path)
    from porthamiltonian.io.limits import raised

    with raised({"table_mb": 1e-6}), pytest.raises(ModelError, match=r"more than the limit "
                                                   r"of 1e-06 MB \(--limit table_mb=N"):
        from_table(path)


@pytest.mark.parametrize("text, sampled, expected", [
    ("R=1,2,5", False, [1.0, 2.0, 5.0]),
    ("R=0:1:5", False, [0.0, 0.25, 0.5, 0.75, 1.0]),
    ("R=3", False, [3.0]),
    ("R=1:4", True, (1.0, 4.0)),
    ("R=1:4:10", True, (1.0, 4.0)),
])
def test_parse_param(text, sampled, expected):
    name, spec = parse_param(text, sampled)
    assert name == "R"
    if isinstance(expected, tuple):
        assert spec == expected
    else:
        np.testing.assert_allclose(spec, expected)


@pytest.mark.parametrize("text, message", [
    ("R", "write NAME=a,b,c"), ("R=1:2", "low:high ranges are for --samples"),
    ("R=1:2:0", "count must be at least 1"), ("R=1:2:1e99", "must be a whole number"),
    ("R=nan", "not a finite number"), ("R=1:2:100000000000", "more than the"),
])
def test_bad_param_texts(text, message):
    with pytest.raises(ModelError, match=message):
        parse_param(text)


def test_merged_moments_equal_the_moments_of_all_runs():
    rng = np.random.default_rng(0)
    rows = rng.normal(3.0, 2.0, (37, 11))
    rows[5, 7:] = np.nan  # a run that ended early
    parts = [Moments.of(rows[a:b]) for a, b in ((0, 1), (1, 12), (12, 30), (30, 37))]
    merged = parts[0]
    for p in parts[1:]:
        merged = merged.merged(p)
    table = merged.table()
    np.testing.assert_array_equal(table[0], np.isfinite(rows).sum(axis=0))
    np.testing.assert_allclose(table[1], np.nanmean(rows, axis=0), rtol=1e-13)
    np.testing.assert_allclose(table[2], np.nanstd(rows, axis=0, ddof=1), rtol=1e-12)
    np.testing.assert_array_equal(table[3], np.nanmin(rows, axis=0))
    np.testing.assert_array_equal(table[4], np.nanmax(rows, axis=0))


def test_quantiles_by_block_equal_numpy_with_nan_and_blocks():
    from porthamiltonian.ensemble.stats import quantiles_by_block

    rng = np.random.default_rng(2)
    rows = rng.normal(size=(23, 40))
    rows[3, 10:] = np.nan
    rows[:, 39] = np.nan  # no run reached the last time
    ok = np.ones(23, dtype=bool)
    ok[7] = False  # a failed run does not count
    qs = (0.0, 0.05, 0.5, 0.95, 1.0)
    got = quantiles_by_block(lambda s: rows[:, s], 23, 40, qs, ok, block_bytes=8 * 23 * 7)
    with np.errstate(invalid="ignore"), pytest.warns(RuntimeWarning):
        expected = np.nanquantile(rows[ok], qs, axis=0)
    np.testing.assert_allclose(got, expected, rtol=1e-14, atol=1e-15)
