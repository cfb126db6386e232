"""The workbench without a browser: where it listens, which files it touches, the model
files it writes, the runs it refuses, and what ``serve`` says without the web extra.

Each fact is checked against something independent of the workbench: the command line's
own loader and ``simulate`` on the same file, the operating system's view of the files,
and the causal strokes derived by hand for the series RLC circuit.
"""

from __future__ import annotations

import contextlib
import importlib.util
import io
import pathlib

import pytest

from porthamiltonian.cli.app import build_parser, main
from porthamiltonian.errors import ModelError
from porthamiltonian.io import load_model
from porthamiltonian.io.build import build_system
from porthamiltonian.web import canvas
from porthamiltonian.web.files import Workspace
from porthamiltonian.web.history import History
from porthamiltonian.web.overlay import overlay

MODELS = pathlib.Path(__file__).resolve().parents[2] / "examples" / "models"


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


# ------------------------------------------------------------------ listening
def test_serve_listens_on_loopback_by_default():
    pytest.importorskip("dash")
    pytest.importorskip("dash_cytoscape")
    from porthamiltonian.web.server import host_warning, is_loopback, make_server

    args = build_parser().parse_args(["serve"])
    assert (args.host, args.port, args.model) == ("127.0.0.1", 8765, None)
    assert host_warning(args.host) is None and is_loopback("::1") and is_loopback("localhost")
    assert "warning" in host_warning("0.0.0.0") and not is_loopback("192.168.1.2")
    server = make_server(None, args.host, 0, root=MODELS)
    try:
        host, port = server.server_address[:2]
        assert host == "127.0.0.1" and port > 0
        client = server.app.test_client()
        # a page elsewhere reaching 127.0.0.1 through its own DNS name is refused
        assert client.get("/", headers={"Host": "attacker.example"}).status_code == 403
        assert client.get("/", headers={"Host": f"127.0.0.1:{port}"}).status_code == 200
    finally:
        server.server_close()


# ------------------------------------------------------------------ files
@pytest.mark.parametrize("name", ["../outside.yaml", "sub/../../outside.yaml", "/etc/passwd",
                                  "~/x.yaml", "notes.txt", "model.py", ".hidden.yaml", ""])
def test_names_outside_the_folder_or_not_models_are_refused(tmp_path, name):
    root = tmp_path / "root"
    root.mkdir()
    space = Workspace(root)
    with pytest.raises(ModelError) as err:
        space.write(name, "name: x\n")
    assert str(err.value)  # a sentence, not an empty error
    assert sorted(p.name for p in tmp_path.rglob("*")) == ["root"]  # nothing was written


def test_a_link_leading_outside_is_refused_and_inside_names_work(tmp_path):
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    secret = tmp_path / "secret.yaml"
    secret.write_text("name: secret\n")
    (root / "link.yaml").symlink_to(secret)
    space = Workspace(root)
    with pytest.raises(ModelError, match="outside"):
        space.read("link.yaml")
    with pytest.raises(ModelError, match="outside"):
        space.write("link.yaml", "name: changed\n")
    assert secret.read_text() == "name: secret\n"
    path = space.write("sub/ok.yaml", "name: ok\n")
    assert path == root / "sub" / "ok.yaml" and space.read("sub/ok.yaml")[0] == "name: ok\n"
    assert space.names() == ["link.yaml", "sub/ok.yaml"]


# ------------------------------------------------------------------ model files
def test_saved_file_is_the_model_the_cli_reads(tmp_path):
    """Open → save gives a file the command line loads to the same model as the original."""
    for name in ("series_rlc.yaml", "dc_motor.yaml"):
        state = canvas.from_text((MODELS / name).read_text(), name)
        assert all(50 <= e["x"] <= 510 and 50 <= e["y"] <= 330 for e in state["elements"])
        saved = tmp_path / name
        saved.write_text(canvas.to_yaml(state))
        a, b = load_model(MODELS / name), load_model(saved)
        assert a.name == b.name and dict(a.parameters) == dict(b.parameters)
        for key in ("states", "inputs", "outputs", "bonds"):
            assert [(x if key != "bonds" else (x["from"], x["to"])) for x in a.section[key]] \
                == [(x if key != "bonds" else (x["from"], x["to"])) for x in b.section[key]]
        assert [{k: e.get(k) for k in ("name", "type", "c", "i", "r", "ratio")}
                for e in a.section["elements"]] == \
            [{k: e.get(k) for k in ("name", "type", "c", "i", "r", "ratio")}
             for e in b.section["elements"]]
        assert a.simulate["inputs"] == b.simulate["inputs"]
    rlc = canvas.from_text((MODELS / "series_rlc.yaml").read_text())
    saved = tmp_path / "series_rlc.yaml"
    assert build_system(load_model(MODELS / "series_rlc.yaml")).to_dict() == \
        build_system(load_model(saved)).to_dict()
    assert canvas.from_text(saved.read_text())["elements"] == rlc["elements"]


def test_rlc_strokes_and_two_sources_on_a_zero_junction():
    """Hand derivation (SCAP): the Se imposes the effort on the 1-junction; the junction's
    flow is the inductor's (integral: the I takes its effort from the junction), so the C
    and the R take that flow and impose their efforts on the junction; two Se on one
    0-junction contradict each other."""
    s = canvas.new_state("rlc")
    for kind, name in (("Se", "u"), ("1", "j"), ("R", "R1"), ("C", "C1"), ("I", "L1")):
        s = canvas.add_element(s, kind, 0, 0, name)
    for tail, head in (("u", "j"), ("j", "R1"), ("j", "C1"), ("j", "L1")):
        s = canvas.add_bond(s, tail, head)
    ov = overlay(s)
    # stroke at the end whose element receives the effort
    assert ov.strokes == {0: "head", 1: "tail", 2: "tail", 3: "head"}
    assert ov.ok and not ov.messages
    s = canvas.new_state("two-sources")
    for kind in ("Se", "Se", "0"):
        s = canvas.add_element(s, kind, 0, 0)
    s = canvas.add_bond(canvas.add_bond(s, "Se1", "j1"), "Se2", "j1")
    ov = overlay(s)
    assert set(ov.problems.values()) == {"dependent source"}
    assert any("Se1" in m and "Se2" in m and "0-junction j1" in m for m in ov.messages)


def test_a_bad_value_is_tied_to_its_element():
    s = canvas.add_element(canvas.new_state(), "C", 0, 0)
    s["elements"][0]["values"]["c"] = "2*nope"
    ov = overlay(s)
    assert "C1" in ov.faulty and any("nope" in m for m in ov.faulty["C1"])


def test_undo_redo_history():
    h = History({"n": 0})
    for n in (1, 2, 3):
        h.push({"n": n})
    assert h.undo() == {"n": 2} and h.undo() == {"n": 1} and h.redo() == {"n": 2}
    h.push({"n": 9})  # a change after an undo drops the states ahead
    assert h.redo() is None and h.undo() == {"n": 2}
    assert [h.undo(), h.undo(), h.undo()] == [{"n": 1}, {"n": 0}, None]


# ------------------------------------------------------------------ runs
def test_a_run_too_long_is_refused_as_the_cli_refuses_it(tmp_path):
    from porthamiltonian.web.runs import start_run

    state = canvas.from_text((MODELS / "series_rlc.yaml").read_text())
    state["simulate"].update({"t_end": 1.0e3, "dt": 1.0e-7})  # 10^10 steps > max_steps
    run = start_run(state)
    run.thread.join(timeout=30)
    assert run.done and run.result is None and "max_steps" in run.error
    saved = tmp_path / "long.yaml"
    saved.write_text(canvas.to_yaml(state))
    code, _, err = _cli("simulate", str(saved), "--no-progress")
    assert code == 2 and " ".join(run.error.split()) in err


def test_downloads_are_the_files_simulate_writes(tmp_path):
    """The CSV is ``simulate --out x.csv``'s; the netCDF holds the same series."""
    xr = pytest.importorskip("xarray")
    pytest.importorskip("netCDF4")
    from porthamiltonian.web.runs import energy_balance, result_bytes, start_run

    state = canvas.from_text((MODELS / "series_rlc.yaml").read_text())
    state["simulate"].update({"t_end": "0.01", "dt": "1e-4"})
    run = start_run(state)
    run.thread.join(timeout=60)
    assert run.error is None and run.progress == 1.0
    res = run.result
    (tmp_path / "a.nc").write_bytes(result_bytes(res, ".nc"))
    with xr.open_dataset(tmp_path / "a.nc") as ds:
        assert ds["H"].values.tolist() == res.H.tolist()
    saved = tmp_path / "rlc.yaml"
    saved.write_text(canvas.to_yaml(state))
    code, _, err = _cli("simulate", str(saved), "--out", str(tmp_path / "cli.csv"),
                        "--no-progress")
    assert code == 0, err
    assert result_bytes(res, ".csv") == (tmp_path / "cli.csv").read_bytes()
    bal = energy_balance(res)  # the integrator's power balance: H − H0 = ∫uᵀy − ∫d
    assert abs(bal["balance"]).max() <= 1e-9 * max(1.0, abs(bal["supplied"]).max())


# ------------------------------------------------------------------ without the extra
def test_serve_without_the_web_extra_says_how_to_install_it(monkeypatch):
    real = importlib.util.find_spec
    monkeypatch.setattr(importlib.util, "find_spec",
                        lambda name, *a: None if name in ("dash", "dash_cytoscape")
                        else real(name, *a))
    code, out, err = _cli("serve", "--no-browser")
    assert code == 2 and out == ""
    assert err.count("\n") == 1 and err.startswith("error:")
    assert 'pip install "porthamiltonian[web]"' in err


def test_serve_refuses_a_missing_model(tmp_path):
    pytest.importorskip("dash")
    pytest.importorskip("dash_cytoscape")
    code, _, err = _cli("serve", str(tmp_path / "none.yaml"), "--no-browser", "--port", "0")
    assert code == 2 and "not found" in err
