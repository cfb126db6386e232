"""Choice of the independent constraint rows of a closed chain (`independent_rows`):
the incremental orthonormal basis keeps exactly the rows of the former rule — one SVD of
the kept rows plus the candidate per row, kept when every singular value exceeds the
tolerance (`svd_rows` in benchmarks/iftomm.py) — on the library's closed chains and on
matrices built to sit at the tolerance."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

import numpy as np
import pytest
from mechanics_models import four_bar
from threadpoolctl import threadpool_limits

from porthamiltonian.io import load_model
from porthamiltonian.io.mechanism_run import _mechanism, joint_values
from porthamiltonian.mechanics import Mechanism
from porthamiltonian.mechanics.assembly import MechanismDAE
from porthamiltonian.mechanics.mechanism import independent_rows

ROOT = Path(__file__).resolve().parents[2]
MODELS = ROOT / "examples" / "models"
sys.path.insert(0, str(ROOT / "benchmarks"))
from iftomm import a02_model, svd_rows  # noqa: E402


def _rows(mech: Mechanism, q0: dict | None) -> tuple[np.ndarray, float]:
    """All constraint wrench rows at q0 and the tolerance `Mechanism._independent` uses."""
    C = MechanismDAE(mech).wrench_matrix(mech._configuration(q0))
    return C, 1e-9 * max(1.0, float(np.abs(C).max()))


def _from_file(path: Path) -> tuple[Mechanism, dict | None]:
    model = load_model(path)
    return _mechanism(model), joint_values((model.simulate or {}).get("initial") or {}) or None


@pytest.mark.parametrize("name, dropped", [
    ("iftomm_a02_n_four_bar.yaml", 12),            # 3 out-of-plane rows per window
    ("iftomm_a02_n_four_bar_12", 36),
    ("iftomm_a03_andrews_squeezer.yaml", 12),
    ("iftomm_a03_andrews_squeezer_spring.yaml", 9),
    ("iftomm_a04_bricard.yaml", 1),                # Bricard's one redundant row
    ("four_bar", 3),
    ("manipulator", 3),                            # examples/mechanics_flexible_manipulator.py
])
def test_closed_chains_keep_the_rows_of_the_svd_rule(tmp_path: Path, name: str,
                                                     dropped: int) -> None:
    if name == "four_bar":
        mech, q0 = four_bar(), {"O": 0.5}
    elif name == "manipulator":
        spec = importlib.util.spec_from_file_location(
            "mechanics_flexible_manipulator",
            ROOT / "examples" / "mechanics_flexible_manipulator.py")
        example = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(example)
        mech, q0 = example.manipulator(elements=3, upper_arm="rigid"), None
    elif name.endswith("_12"):
        path = tmp_path / "a02.yaml"
        path.write_text(a02_model(12))
        mech, q0 = _from_file(path)
    else:
        mech, q0 = _from_file(MODELS / name)
    C, tol = _rows(mech, q0)
    keep = independent_rows(C, tol)
    with threadpool_limits(limits=1):    # a loop of small SVDs: threads only slow it down
        assert keep == svd_rows(C, tol)
    assert len(C) - len(keep) == dropped
    assert mech._independent(q0) == keep and len(mech._dropped) == dropped


def test_rows_at_the_tolerance_follow_the_singular_values() -> None:
    """Rows whose distance from the kept span exceeds the tolerance, yet which make the
    kept block's smallest singular value fall below it, are dropped (the SVD rule), and
    rows just above it are kept: Gram–Schmidt distances alone would keep both."""
    tol = 1e-9
    e = np.eye(4)
    C = np.array([e[0],
                  e[0] + 1.5e-9 * e[1],              # σ_min ≈ 1.06e-9 > tol: kept
                  1.2e-9 * e[2] + 2e-9 * e[1],       # distance 1.2e-9 > tol, σ_min < tol
                  2e-9 * e[2],                       # σ_min ≈ 1.05e-9: kept
                  1e-3 * e[3] + 1e-13 * e[1],        # well above: kept
                  e[0] + 2e-10 * e[1]])              # distance 0: dropped
    sv = [np.linalg.svd(C[rows], compute_uv=False)[-1] for rows in ([0, 1], [0, 1, 2])]
    assert sv[0] > tol > sv[1]
    assert independent_rows(C, tol) == svd_rows(C, tol) == [0, 1, 3, 4]


@pytest.mark.parametrize("seed", range(6))
def test_rank_deficient_matrices_keep_the_rows_of_the_svd_rule(seed: int) -> None:
    """Random rank-r products with repeated and combined rows, scaled over six decades."""
    rng = np.random.default_rng(seed)
    m, n, r = 40, 30, 18
    C = rng.standard_normal((m, r)) @ rng.standard_normal((r, n))
    C[5] = 2 * C[3] - C[1]
    C[17] = C[2]
    C *= 10.0 ** rng.uniform(-3, 3, size=(m, 1))
    tol = 1e-9 * np.abs(C).max()
    keep = independent_rows(C, tol)
    assert keep == svd_rows(C, tol) and len(keep) == r and 5 not in keep

