"""Sub-graph blocks in the workbench without a browser: the palette's list, the library
copied into the folder, the canvas state ↔ model file with ``include:``, and the checks
and equations run through the included graph.

Checked against independent answers: the operating system's view of the files, the
command line's loader and ``phs`` on the saved file, the series RLC branch's matrices
derived by hand (Kirchhoff: L di/dt = u − R i − q/C, dq/dt = i).
"""

from __future__ import annotations

import pathlib
from importlib import resources

import numpy as np
import pytest

from porthamiltonian.errors import ModelError
from porthamiltonian.io import load_model
from porthamiltonian.io.build import build_system
from porthamiltonian.web import canvas
from porthamiltonian.web.blocks import (
    block_info,
    block_options,
    library_names,
    place_library_block,
)
from porthamiltonian.web.equations import equations
from porthamiltonian.web.files import Workspace
from porthamiltonian.web.overlay import overlay

LIBRARY = resources.files("porthamiltonian") / "data" / "blocks"


@pytest.fixture
def ws(tmp_path) -> Workspace:
    return Workspace(tmp_path)


def _drive(ws: Workspace) -> dict:
    """Se1 → the library's RLC branch, placed as the page places it."""
    info = block_info(ws, place_library_block(ws, "rlc_branch_block.yaml"))
    state = canvas.add_block(canvas.new_state(), info, 200, 100)
    state = canvas.add_element(state, "Se", 90, 100)
    state["domain"] = "electrical"
    return canvas.add_bond(state, "Se1", "rlcbranch1.j")


def test_the_library_blocks_are_valid_and_copied_unchanged(ws):
    assert library_names() == ["dc_motor_block.yaml", "mass_spring_damper_block.yaml",
                               "rlc_branch_block.yaml"]
    for name in library_names():
        model = load_model(pathlib.Path(str(LIBRARY / name)))
        assert model.section["ports"], name
    # the library's motor is the block of examples/models/two_motor_drive.yaml
    examples = pathlib.Path(__file__).resolve().parents[2] / "examples" / "models"
    assert (LIBRARY / "dc_motor_block.yaml").read_text() == \
        (examples / "dc_motor_block.yaml").read_text()
    assert [o["value"] for o in block_options(ws)] == [f"lib:{n}" for n in library_names()]
    place_library_block(ws, "dc_motor_block.yaml")
    assert (ws.root / "dc_motor_block.yaml").read_text() == \
        (LIBRARY / "dc_motor_block.yaml").read_text()
    # the folder's copy is listed with its ports, instead of the library's entry
    assert block_options(ws)[0] == {"label": "dc_motor_block.yaml (elec, shaft)",
                                    "value": "dc_motor_block.yaml"}
    (ws.root / "rlc_branch_block.yaml").write_text("name: mine\nphs: {states: [x]}\n")
    with pytest.raises(ModelError, match="a different rlc_branch_block.yaml is in the "
                                         "workbench folder"):
        place_library_block(ws, "rlc_branch_block.yaml")
    with pytest.raises(ModelError, match="is not a block"):
        (ws.root / "plain.yaml").write_text((pathlib.Path(__file__).resolve().parents[2] /
                                            "examples/models/series_rlc.yaml").read_text())
        block_info(ws, "plain.yaml")


def test_a_saved_block_model_is_the_model_the_page_shows(ws):
    state = _drive(ws)
    ov = overlay(state, ws.root)
    # the source imposes the effort on the branch's 1-junction: the stroke at the port
    assert ov.ok and ov.strokes == {0: "head"}
    eq = equations(state, ws.root)
    assert eq.states == ["rlcbranch1.L", "rlcbranch1.C"] and eq.inputs == ["Se1"]
    ws.write("drive.yaml", canvas.to_yaml(state))
    system = build_system(load_model(ws.root / "drive.yaml"))
    d = system.to_dict()
    # by hand, x = (flux, charge): ẋ = [[-R, -1], [1, 0]] ∇H + [1, 0]ᵀ u, R = 10 Ω
    assert np.allclose(d["J"], [[0, -1], [1, 0]]) and np.allclose(d["R"], [[10, 0], [0, 0]])
    assert np.allclose(d["G"], [[1], [0]]) and eq.matrices["J"] == [
        [str(v) for v in row] for row in d["J"]]
    # back from the file: the same blocks, bonds and ports
    again = canvas.from_text((ws.root / "drive.yaml").read_text(), "drive.yaml",
                             blocks=lambda f: block_info(ws, f))
    assert [(b["name"], b["file"], b["ports"]) for b in again["blocks"]] == \
        [("rlcbranch1", "rlc_branch_block.yaml", ["j"])]
    assert again["bonds"] == state["bonds"]


def test_rename_and_delete_move_bonds_and_simulation_entries(ws):
    state = _drive(ws)
    state["simulate"] = {"initial": {"rlcbranch1.C": "1e-3"}, "inputs": {"Se1": "1"}}
    renamed = canvas.rename(state, "rlcbranch1", "branch")
    assert renamed["bonds"][0]["to"] == "branch.j"
    assert renamed["simulate"]["initial"] == {"branch.C": "1e-3"}
    assert canvas.to_document(renamed)["bondgraph"]["include"] == [
        {"name": "branch", "file": "rlc_branch_block.yaml"}]
    gone = canvas.remove(renamed, ["branch.j"], [])  # a port selected: its block goes
    assert gone["blocks"] == [] and gone["bonds"] == []
    assert gone["simulate"]["initial"] == {} and gone["simulate"]["inputs"] == {"Se1": "1"}
    with pytest.raises(ModelError, match="click one of the ports of the block"):
        canvas.add_bond(state, "Se1", "rlcbranch1")


def test_a_block_outside_the_folder_is_never_read(ws, tmp_path_factory):
    outside = tmp_path_factory.mktemp("outside")
    (outside / "secret.yaml").write_text((LIBRARY / "rlc_branch_block.yaml").read_text())
    state = _drive(ws)
    state["blocks"][0]["file"] = f"../{outside.name}/secret.yaml"  # as a page could send
    ov = overlay(state, ws.root)
    assert any("goes up with '..'" in m for m in ov.structure)
    assert any("goes up with '..'" in m for m in ov.model)
    with pytest.raises(ModelError, match="goes up with '..'"):
        equations(state, ws.root)
