"""The workbench in a real browser (Debian's Chromium driven by Playwright).

One server for the module (a thread on a free loopback port, its folder a temporary
copy of two example models) and one browser for the session.  The tests click and drag
as a user does and check what the page shows against independent answers: the causal
strokes of the series RLC derived by hand, the command line's ``simulate`` on the file
the browser saved, the causality analysis run directly on the same graph, and
``porthamiltonian phs`` on the example file.

Set ``PORTHAMILTONIAN_SCREENSHOTS=1`` to write the screenshots of docs/workbench.md
(``docs/img/workbench-*.png``); without it nothing in the checkout changes.
"""

from __future__ import annotations

import contextlib
import io
import os
import pathlib
import shutil

import pytest

CHROMIUM = next((p for p in ("/usr/bin/chromium", shutil.which("chromium") or "",
                             shutil.which("chromium-browser") or "") if p and
                 os.access(p, os.X_OK)), None)
if CHROMIUM is None:
    pytest.skip("no Chromium binary (/usr/bin/chromium): the browser tests need Debian's "
                "chromium package (.ci/run installs it)", allow_module_level=True)
pytest.importorskip("dash", reason="the web extra is not installed")
pytest.importorskip("dash_cytoscape", reason="the web extra is not installed")
sync_api = pytest.importorskip("playwright.sync_api",
                               reason="playwright (the test extra) is not installed")
PlaywrightTimeout = sync_api.TimeoutError

from porthamiltonian.bondgraph.causality import analyze_causality  # noqa: E402
from porthamiltonian.bondgraph.graph import BondGraph  # noqa: E402
from porthamiltonian.cli.app import main  # noqa: E402
from porthamiltonian.web.server import Server  # noqa: E402

ROOT = pathlib.Path(__file__).resolve().parents[2]
SHOTS = ROOT / "docs" / "img"
CHROMIUM_ARGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic",
                 "--no-first-run", "--disable-background-networking",
                 "--disable-component-update", "--disable-sync"]
TIMEOUT = 20_000  # ms: a callback that imports SymPy the first time takes seconds


def _cli(*argv: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(argv))
    return code, out.getvalue(), err.getvalue()


@pytest.fixture(scope="module")
def folder(tmp_path_factory):
    path = tmp_path_factory.mktemp("workbench")
    shutil.copy(ROOT / "examples" / "models" / "elevator.yaml", path)
    return path


@pytest.fixture(scope="module")
def server(folder):
    with Server(root=folder) as s:
        yield s


@pytest.fixture(scope="session")
def browser():
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
        yield b
        b.close()


@pytest.fixture(scope="module")
def session(browser, server):
    """One page for the module (loading Dash's bundles takes seconds); tests start from
    an empty graph with the New button."""
    context = browser.new_context(viewport={"width": 1500, "height": 1050},
                                  accept_downloads=True)
    pg = context.new_page()
    pg.set_default_timeout(TIMEOUT)
    _IN_FLIGHT.clear()
    pg.on("request", _track)
    pg.on("requestfinished", _untrack)
    pg.on("requestfailed", _untrack)
    pg.goto(server.url)
    pg.wait_for_selector("#messages div")  # the first callback answered
    yield pg
    context.close()


@pytest.fixture
def page(session):
    session.click("#new")
    session.wait_for_function("document.querySelectorAll('#elements-table "
                              "td[data-dash-column=\"name\"]').length == 0")
    session.click("text=move/select")
    return session


def _screenshot(pg, name: str) -> None:
    if os.environ.get("PORTHAMILTONIAN_SCREENSHOTS"):
        SHOTS.mkdir(parents=True, exist_ok=True)
        pg.screenshot(path=str(SHOTS / f"workbench-{name}.png"), full_page=True)
        # a full-page shot resizes the window and back; Cytoscape.js keeps the canvas's
        # old place on the page until told, and would miss later clicks
        pg.evaluate("window.cy && cy.resize()")


class Canvas:
    """Clicks and drags on the Cytoscape canvas (zoom 1, no pan: graph coordinates are
    pixels from the canvas's corner).  dash-cytoscape keeps the Cytoscape.js instance in
    ``window.cy``: the helpers wait there for a node to be drawn before touching it and
    for a drag to have moved it."""

    def __init__(self, pg) -> None:
        self.pg = pg

    def at(self, name: str) -> tuple[float, float]:
        """Where node ``name`` is in the window now (the page may have scrolled)."""
        self.pg.wait_for_function(f"window.cy && cy.getElementById('{name}').length > 0")
        canvas = self.pg.locator("#canvas")
        canvas.scroll_into_view_if_needed()
        box = canvas.bounding_box()
        p = self.pg.evaluate(f"cy.getElementById('{name}').renderedPosition()")
        return box["x"] + p["x"], box["y"] + p["y"]

    def click(self, name: str) -> None:
        self.pg.mouse.click(*self.at(name))

    def drag(self, name: str, to: tuple[float, float]) -> None:
        moved = (f"Math.abs(cy.getElementById('{name}').position().x - {to[0]}) < 1 && "
                 f"Math.abs(cy.getElementById('{name}').position().y - {to[1]}) < 1")
        # on a loaded machine the browser may still be redrawing when the button goes
        # down and miss the grab: the gesture is made again, at most three times
        for attempt in range(3):
            (x, y), m = self.at(name), self.pg.mouse
            p = self.pg.evaluate(f"cy.getElementById('{name}').renderedPosition()")
            x1, y1 = x + to[0] - p["x"], y + to[1] - p["y"]  # graph → window coordinates
            m.move(x, y)
            m.down()
            for k in range(1, 6):
                m.move(x + (x1 - x) * k / 5, y + (y1 - y) * k / 5)
            m.up()
            try:
                self.pg.wait_for_function(moved, timeout=8000)
                break
            except PlaywrightTimeout:
                if attempt == 2:
                    raise
        # the canvas reports positions to the server 100 ms after a drag (debounced)
        self.pg.wait_for_timeout(300)


#: the page's callback requests still waiting for the server's answer
_IN_FLIGHT: set = set()


def _track(request) -> None:
    if "_dash-update-component" in request.url:
        _IN_FLIGHT.add(request)


def _untrack(request) -> None:
    _IN_FLIGHT.discard(request)


def _settle(pg) -> None:
    """Wait until no callback is in flight (twice in a row, 50 ms apart).  A Dash
    callback that answers with a whole table replaces it on the page: an edit typed
    while an earlier edit's callback is still out would be overwritten, so the tests,
    like a person, make one edit at a time."""
    quiet = 0
    for _ in range(TIMEOUT // 50):
        pg.wait_for_timeout(50)  # Playwright delivers the request events while it waits
        quiet = quiet + 1 if not _IN_FLIGHT else 0
        if quiet >= 2:
            return
    raise AssertionError(f"callbacks still running after {TIMEOUT} ms: {len(_IN_FLIGHT)}")


def _downloaded_as_cli(pg, model: pathlib.Path, tmp_path: pathlib.Path) -> str:
    """The page's Download CSV, checked byte for byte against
    ``porthamiltonian simulate MODEL --out FILE.csv`` of the saved file; returns it."""
    with pg.expect_download() as got:
        pg.click("#download-csv")
    web_csv = tmp_path / "web.csv"
    got.value.save_as(web_csv)
    code, _, err = _cli("simulate", str(model), "--out", str(tmp_path / "cli.csv"),
                        "--no-progress")
    assert code == 0, err
    cli = (tmp_path / "cli.csv").read_text()
    assert web_csv.read_text() == cli
    return cli


def _status(pg, text: str) -> None:
    pg.wait_for_selector(f"#status:has-text('{text}')")


def _edit_cell(pg, table: str, row: int, column: str, text: str) -> None:
    cell = pg.locator(f"#{table} td[data-dash-column='{column}']").nth(row)
    cell.click()
    pg.keyboard.type(text)
    pg.keyboard.press("Enter")
    _settle(pg)


def _add(pg, kind: str, count: int) -> None:
    pg.click(f"#add-{kind}")
    pg.wait_for_function(f"document.querySelectorAll('#elements-table td"
                         f"[data-dash-column=\"name\"]').length >= {count}")


def test_series_rlc_by_clicking_simulates_as_the_cli(page, folder, tmp_path):
    pg = page
    for k, kind in enumerate(("Se", "1", "R", "C", "I")):
        _add(pg, kind, k + 1)
    pg.click("#domain")  # electrical bonds: the source's output is its current Se1.i
    pg.get_by_role("option", name="electrical").click()
    cv = Canvas(pg)
    where = {"Se1": (90, 200), "j1": (270, 200), "R1": (270, 80), "C1": (450, 200),
             "I1": (270, 330)}
    for name in ("I1", "C1", "R1", "j1", "Se1"):  # drag each to its place
        cv.drag(name, where[name])
    pg.click("text=draw bonds")
    for n, (tail, head) in enumerate((("Se1", "j1"), ("j1", "R1"), ("j1", "C1"),
                                      ("j1", "I1"))):
        cv.click(tail)
        _status(pg, f"bond from {tail}")
        cv.click(head)
        _status(pg, f"bond {tail} → {head}")
        pg.wait_for_function(f"document.querySelectorAll('.bond-causality').length >= {n + 1}")
    # the strokes, derived by hand: the junction's flow is the inductor's (integral
    # causality), so the R and the C impose their efforts on the junction and the
    # source's effort goes into it
    strokes = pg.locator(".bond-causality").all_text_contents()
    assert strokes == ["Se1 → j1: stroke at j1 (Se1 imposes the effort)",
                       "j1 → R1: stroke at j1 (R1 imposes the effort)",
                       "j1 → C1: stroke at j1 (C1 imposes the effort)",
                       "j1 → I1: stroke at I1 (j1 imposes the effort)"]
    assert "integral causality (2): C1, I1" in pg.inner_text("#explanation")
    for row, value in ((2, "10"), (3, "1e-3"), (4, "0.1")):  # R1, C1, I1
        _edit_cell(pg, "elements-table", row, "value", value)
    pg.wait_for_selector("#summary:has-text('H = 500.0*C1**2 + 5.0*I1**2')")
    summary = pg.inner_text("#summary")  # J, R, G of the series RLC with R = 10 Ω
    assert "J = [[0, 1], [-1, 0]]" in summary and "R = [[0, 0], [0, 10]]" in summary
    assert "G = [[0], [1]]" in summary and "outputs y = ['Se1.i']" in summary
    _edit_cell(pg, "sim-table", 0, "value", "sin(2*pi*50*t)")
    for field, value in (("#t-end", "0.04"), ("#dt", "0.0001")):
        pg.fill(field, value)
        pg.press(field, "Enter")
        _settle(pg)
    pg.wait_for_function("document.querySelector('#sim-table').innerText.includes('sin')")
    pg.fill("#file-name", "rlc.yaml")
    pg.click("#save")
    _status(pg, "saved rlc.yaml")
    pg.click("#simulate")
    pg.wait_for_selector("#run-status:has-text('done')")
    pg.wait_for_selector("#energy .main-svg")
    _screenshot(pg, "rlc")
    cli = _downloaded_as_cli(pg, folder / "rlc.yaml", tmp_path)
    assert cli.splitlines()[0] == "t,x:C1,x:I1,u:Se1,y:Se1.i,H,power_residual"
    assert len(cli.splitlines()) == 402


def test_two_sources_on_a_zero_junction_are_a_conflict(page):
    pg = page
    for k, kind in enumerate(("Se", "Se", "0")):
        _add(pg, kind, k + 1)
    cv = Canvas(pg)
    cv.drag("j1", (200, 180))  # the junction below, between the sources
    pg.click("text=draw bonds")
    for tail in ("Se1", "Se2"):
        cv.click(tail)
        _status(pg, f"bond from {tail}")
        cv.click("j1")
        _status(pg, f"bond {tail} → j1")
    pg.wait_for_selector(".causality-message")
    shown = pg.locator(".causality-message").all_inner_texts()
    bg = BondGraph("untitled")  # the same graph, analysed directly
    for name, kind in (("Se1", "Se"), ("Se2", "Se"), ("j1", "0")):
        bg.add(name, kind)
    bg.connect("Se1", "j1")
    bg.connect("Se2", "j1")
    report = analyze_causality(bg)
    assert report.dependent_sources and shown == report.messages
    assert "dependent sources" in shown[0]
    rows = pg.locator("#elements-table td[data-dash-column='problem']").all_inner_texts()
    assert ["dependent source" in r for r in rows] == \
        [n in report.dependent_sources for n in ("Se1", "Se2", "j1")]
    # the canvas paints the dependent source in the drawings' colour (#8c564b)
    colors = pg.evaluate("['Se1', 'Se2', 'j1'].map(n => cy.getElementById(n)"
                         ".style('background-color'))")
    assert colors == ["rgb(140,86,75)" if n in report.dependent_sources else "rgb(255,255,255)"
                      for n in ("Se1", "Se2", "j1")]
    _screenshot(pg, "conflict")
    pg.click("#undo")  # the second bond goes: one source alone is no conflict
    pg.wait_for_selector(".causality-message", state="detached")
    assert pg.locator(".bond-causality").count() == 1
    pg.click("#redo")
    pg.wait_for_selector(".causality-message")
    assert pg.locator(".causality-message").all_inner_texts() == report.messages


def test_elevator_equations_are_those_of_phs(page, folder):
    pg = page
    pg.fill("#file-name", "elevator.yaml")
    pg.click("#open")
    _status(pg, "opened elevator.yaml")
    pg.wait_for_selector("#summary:has-text('elevator: 4 states')")
    pg.wait_for_selector("#latex mjx-container")  # rendered by MathJax
    _screenshot(pg, "elevator")
    code, text, _ = _cli("phs", str(folder / "elevator.yaml"))
    assert code == 0 and pg.inner_text("#summary").strip() == text.strip()
    code, latex, _ = _cli("phs", "--latex", str(folder / "elevator.yaml"))
    source = pg.locator("#latex-source").text_content()
    assert code == 0 and source.strip() == latex.strip()


def test_a_library_block_bonded_to_a_source_simulates_as_the_cli(page, folder, tmp_path):
    """A sub-graph block from the library (docs/workbench.md, "Blocks"): placed, bonded
    to a source at its port, checked and simulated through the graph it includes."""
    from importlib import resources

    pg = page
    pg.click("#block-file")
    pg.get_by_role("option", name="library: dc_motor_block.yaml").click()
    pg.click("#add-block")
    _status(pg, "block dcmotor1 (dc_motor_block.yaml)")
    # the library's file is copied into the folder, unchanged: the saved model includes it
    library = resources.files("porthamiltonian") / "data" / "blocks" / "dc_motor_block.yaml"
    assert (folder / "dc_motor_block.yaml").read_text() == library.read_text()
    # one compound node with a node per port
    pg.wait_for_function("window.cy && cy.getElementById('dcmotor1.shaft').length > 0")
    assert pg.evaluate("cy.getElementById('dcmotor1').data('label')") == "block:dcmotor1"
    assert pg.evaluate("cy.getElementById('dcmotor1').children().map(n => n.id())") == \
        ["dcmotor1.elec", "dcmotor1.shaft"]
    _add(pg, "Se", 1)
    pg.click("#domain")
    pg.get_by_role("option", name="electrical").click()
    cv = Canvas(pg)
    cv.drag("Se1", (60, 230))  # below the block: the bond goes up to the port
    pg.click("text=draw bonds")
    cv.click("Se1")
    _status(pg, "bond from Se1")
    cv.click("dcmotor1.elec")
    _status(pg, "bond Se1 → dcmotor1.elec")
    # by hand: the source imposes its effort on the armature's 1-junction, whose flow
    # the inductance sets; the motor's two inertias are both integral
    pg.wait_for_selector(".bond-causality", state="attached")
    assert pg.locator(".bond-causality").all_text_contents() == [
        "Se1 → dcmotor1.elec: stroke at dcmotor1.elec (Se1 imposes the effort)"]
    assert "integral causality (2): dcmotor1.La, dcmotor1.Jr" in \
        pg.inner_text("#explanation")
    # the included graph's equations: the gyrator K = 0.05 N m/A couples flux and momentum
    pg.wait_for_selector("#summary:has-text(\"states  x = ['dcmotor1.La', 'dcmotor1.Jr']\")")
    summary = pg.inner_text("#summary")
    assert "J = [[0, -0.05], [0.05, 0]]" in summary and "G = [[1], [0]]" in summary
    _edit_cell(pg, "sim-table", 0, "value", "12")
    for field, value in (("#t-end", "0.05"), ("#dt", "0.0001")):
        pg.fill(field, value)
        pg.press(field, "Enter")
        _settle(pg)
    pg.wait_for_function("document.querySelector('#sim-table').innerText.includes('12')")
    rows = pg.locator("#sim-table td[data-dash-column='name']").all_inner_texts()
    assert rows == ["Se1", "dcmotor1.La", "dcmotor1.Jr"]
    pg.fill("#file-name", "motor_drive.yaml")
    pg.click("#save")
    _status(pg, "saved motor_drive.yaml")
    assert "include:\n  - {name: dcmotor1, file: dc_motor_block.yaml}" in \
        (folder / "motor_drive.yaml").read_text()
    pg.click("#simulate")
    # this run's summary (500 steps; the page may still show an earlier run's), or an
    # error; on a loaded machine the page has been seen to start the run twice: the
    # summary must stay
    for _ in range(3):
        pg.wait_for_function("(s => s.includes('500 steps') || s.startsWith('error'))"
                             "(document.querySelector('#run-status').innerText)",
                             timeout=60_000)
        pg.wait_for_timeout(700)
        if pg.inner_text("#run-status").startswith(("done", "error")):
            break
    assert pg.inner_text("#run-status").startswith("done"), pg.inner_text("#run-status")
    pg.wait_for_selector("#energy .main-svg")
    _screenshot(pg, "blocks")
    cli = _downloaded_as_cli(pg, folder / "motor_drive.yaml", tmp_path)
    assert cli.splitlines()[0] == \
        "t,x:dcmotor1.La,x:dcmotor1.Jr,u:Se1,y:Se1.i,H,power_residual"
    assert len(cli.splitlines()) == 502
