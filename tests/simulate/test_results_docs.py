"""The examples of docs/results.md run and say what the page says: the motor + gear +
load drive gives the load speed in rad/s at the closed-form steady state, the tables and
files carry the units."""

from __future__ import annotations

import re

import numpy as np
import pandas as pd
import pytest
import xarray as xr

from conftest import ROOT

K, V, R, B, N = 0.05, 12.0, 1.0, 1e-5, 10.0


@pytest.fixture(scope="module")
def page(tmp_path_factory):
    text = (ROOT / "docs" / "results.md").read_text(encoding="utf-8")
    blocks = re.findall(r"```python\n(.*?)```", text, re.S)
    assert len(blocks) == 4
    where = tmp_path_factory.mktemp("results-doc")
    ns: dict = {}
    with pytest.MonkeyPatch.context() as mp:
        mp.chdir(where)
        for k, code in enumerate(blocks):
            exec(compile(code, f"docs/results.md block {k + 1}", "exec"), ns)
    return ns, where


def test_the_load_speed_is_the_closed_form_steady_state(page):
    ns, _ = page
    res = ns["res"]
    # DC motor at steady state: ω_motor = K V / (R b + K²); the gear divides it by n.
    # Time constant (J_motor + J_load/n²) R / (K² + R b) = 0.12 s: at 2 s the transient
    # is e^(−16.7) ≈ 6e-8 of the step
    assert res["load.w"][-1] == pytest.approx(K * V / (R * B + K**2) / N, rel=2e-7)
    assert res.unit("load.w") == "rad/s" and res.unit("motor.i") == "A"
    assert res.states == ["motor.phi", "load.p"]
    assert res.shown == ["motor.i", "motor.w", "load.w"]
    np.testing.assert_allclose(res["motor.w"], N * res["load.w"], rtol=1e-12, atol=1e-12)
    np.testing.assert_array_equal(res.coenergy("motor"), res["motor.i"])


def test_the_tables_and_files_of_the_page(page):
    ns, where = page
    res = ns["res"]
    assert ns["df"].attrs["units"]["load.w"] == "rad/s"
    assert ns["ds"]["load.w"].attrs["units"] == "rad/s"
    with xr.open_dataset(where / "drive.nc") as back:
        np.testing.assert_array_equal(back["load.w"].to_numpy(), res["load.w"])
    back = pd.read_parquet(where / "drive.parquet")
    np.testing.assert_array_equal(back["load.w"].to_numpy(), res["load.w"])
    header = (where / "drive.csv").read_text().splitlines()[0]
    assert header.startswith("t [s],x:motor.phi [Wb],x:load.p [N*m*s],")


def test_the_transfer_function_line(page):
    ns, _ = page
    assert ns["tf"].latex().startswith(r"\frac{\mathrm{V.i}(s)}{\mathrm{V.u}(s)} = \frac{")
