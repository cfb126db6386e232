"""Notebook views and progress: a result's HTML summary (units, no arrays) and
``simulate(progress=True)``'s tqdm bar."""

from __future__ import annotations

import io
import re

import numpy as np
import pytest
from test_dae_models import parallel_capacitors_numeric
from test_result_export import rlc

from porthamiltonian import ModelError
from porthamiltonian.simulate import simulate
from porthamiltonian.simulate.output import progress as progress_module
from porthamiltonian.simulate.output.progress import TqdmProgress


@pytest.fixture(scope="module")
def res():
    return simulate(rlc(), (0.0, 2.0), [0.0, 0.0], u=1.0, dt=0.001)


def _cells(html: str) -> list[str]:
    return [re.sub(r"<[^>]+>", "", c) for c in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", html)]


def test_html_summary_has_the_run_and_final_values_with_units(res):
    html = res._repr_html_()
    cells = _cells(html)
    row = {cells[k]: cells[k + 1] for k in range(0, len(cells) - 1)}
    assert row["model"] == "rlc" and row["method"] == res.method
    assert row["steps"] == f"{res.nsteps} ({len(res.t)} saved points)"
    assert row["time"] == "0 … 2 s"
    assert "completed" in row["status"]
    # final values of the shown variables, with unit and kind
    k = cells.index("C1.v")
    assert cells[k:k + 4] == ["C1.v", f"{res['C1.v'][-1]:.6g}", "V", "voltage"]
    k = cells.index("L1.i")
    assert cells[k:k + 4] == ["L1.i", f"{res['L1.i'][-1]:.6g}", "A", "current"]
    assert f"{res.H[-1]:.6g} J" in row["energy H"]


def test_html_summary_is_short_and_dumps_no_array(res):
    html = res._repr_html_()
    assert len(res.t) == 2001
    assert "array(" not in html and "[" not in html and "..." not in html
    # no series appears: a value from the middle of the run is not in the table
    assert f"{res['C1.v'][1000]:.6g}" not in html
    assert len(html) < 4000
    assert len(repr(res)) < 200 and "array" not in repr(res)


def test_html_of_a_failed_run_and_a_dae():
    d = parallel_capacitors_numeric(1.0, 2.0, 3.0)
    res = simulate(d, (0.0, 0.1), {"q1": 1.0, "q2": 2.0}, u=0.5, dt=0.01)
    html = res._repr_html_()
    assert "<strong>DAEResult</strong>" in html
    cells = _cells(html)
    assert cells[cells.index("constraints") + 1] == \
        f"max ‖Bᵀz‖ {np.max(np.abs(res.constraint_residual)):.6g}"
    res.success, res.message = False, "Newton failed <at> t = 0.05 s"
    html = res._repr_html_()
    assert "✘ Newton failed &lt;at&gt; t = 0.05 s" in html  # escaped


def test_progress_true_draws_a_tqdm_bar_to_the_end(monkeypatch):
    stream = io.StringIO()
    made: list[TqdmProgress] = []

    def bar(t0, t1):
        made.append(TqdmProgress(t0, t1, file=stream, mininterval=0.0))
        return made[-1]

    monkeypatch.setattr("porthamiltonian.simulate.run.progress_bar",
                        lambda p, t0, t1: bar(t0, t1) if p in (True, "tqdm") else None)
    for option in (True, "tqdm"):
        simulate(rlc(), (0.0, 2.0), [0.0, 0.0], u=1.0, dt=0.01, progress=option)
    assert len(made) == 2
    for b in made:
        assert b.bar.n == pytest.approx(2.0) and b.bar.total == pytest.approx(2.0)
    text = stream.getvalue()
    assert "100%" in text and "t = 2/2 s" in text


def test_progress_bar_reaches_the_end_for_methods_that_report_no_steps(monkeypatch):
    made = []
    real = progress_module.TqdmProgress

    def bar(t0, t1):
        made.append(real(t0, t1, file=io.StringIO()))
        return made[-1]

    monkeypatch.setattr("porthamiltonian.simulate.run.progress_bar",
                        lambda p, t0, t1: bar(t0, t1) if p is True else None)
    simulate(rlc(), (0.0, 1.0), [0.0, 0.0], u=1.0, method="RK45", progress=True)
    assert made[0].bar.n == pytest.approx(1.0)


def test_progress_option_values():
    calls: list[float] = []
    simulate(rlc(), (0.0, 0.1), [0.0, 0.0], u=1.0, dt=0.01, method="rk4",
             progress=calls.append)
    assert calls and calls[-1] == pytest.approx(0.1)
    res = simulate(rlc(), (0.0, 0.1), [0.0, 0.0], u=1.0, dt=0.01, progress=False)
    assert res.success
    with pytest.raises(ModelError, match="progress must be True or \"tqdm\""):
        simulate(rlc(), (0.0, 0.1), [0.0, 0.0], progress="yes")


def test_progress_bar_factory_and_updates():
    assert progress_module.progress_bar(None, 0.0, 1.0) is None
    assert progress_module.progress_bar(print, 0.0, 1.0) is None
    for option in (True, "tqdm"):
        made = progress_module.progress_bar(option, 0.0, 1.0)
        assert isinstance(made, TqdmProgress) and made.bar.total == 1.0
        made.close()
    b = TqdmProgress(1.0, 3.0, file=io.StringIO())
    updates = []
    real_update = b.bar.update
    b.bar.update = lambda n: (updates.append(n), real_update(n))
    for t in np.linspace(1.0, 3.0, 100_001):
        b(float(t))
    assert b.bar.n == pytest.approx(2.0)
    # updated once per 1/1000 of the span, not at every one of 10⁵ calls
    assert 990 <= len(updates) <= 1001
    b(5.0)  # past the end: clipped
    assert b.bar.n == pytest.approx(2.0)
    b.close()
