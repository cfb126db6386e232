"""The workbench's Dash application: what each click does to the graph, and what follows.

One callback owns the graph state (:mod:`.canvas`): palette buttons, taps on the canvas
(two taps in "draw bonds" mode make a bond tail → head), delete, undo/redo
(:mod:`.history`), auto-layout, open/save (:mod:`.files`), and the edits of the parameter,
element and simulation tables all go through it, so that every change is checked once
(:mod:`.overlay`) and recorded once.  The equations (:mod:`.equations`) follow the state
in a second callback; a simulation (:mod:`.runs`) runs in a thread that the page polls.

Errors a user can make (a bad expression, a file outside the folder, a run refused as too
long) are shown on the page as the library's own messages; nothing a model file holds is
executed (the model-file loader parses it).
"""

from __future__ import annotations

import copy
from typing import Any

from ..errors import ModelError
from . import canvas
from .blocks import LIBRARY_PREFIX, block_info, block_options, place_library_block
from .files import Workspace
from .history import history_of
from .overlay import overlay

__all__ = ["create_app"]

#: where a new element goes: the next free slot of a grid on the canvas (px)
_GRID = (90.0, 70.0, 110.0, 90.0, 5)  # x0, y0, dx, dy, per row


#: the actions that place the elements anew (the canvas takes the server's positions)
_MOVES = ("relayout", "open", "new", "undo", "redo", None)
#: the actions after which the list of block files is read again (a file saved or copied)
_LISTS = ("save", "add-block", "open", None)


def _slot(state: dict[str, Any]) -> tuple[float, float]:
    x0, y0, dx, dy, per_row = _GRID
    taken = {(round(e["x"]), round(e["y"])) for e in
             [*state["elements"], *(state.get("blocks") or [])]}
    k = 0
    while True:
        x, y = x0 + dx * (k % per_row), y0 + dy * (k // per_row)
        if (round(x), round(y)) not in taken:
            return x, y
        k += 1


def _number(text: Any) -> Any:
    """A table cell as the state holds it: its text (:func:`.canvas.to_document` makes
    number texts numbers), ``None`` when empty."""
    if text is None:
        return None
    s = canvas.as_text(text) if isinstance(text, float) else str(text).strip()
    return s or None


def create_app(workspace: Workspace, model: str | None = None) -> Any:
    """The Dash app of a workbench on ``workspace``, opening the model file ``model``
    (a name in the workspace) when given."""
    import plotly.graph_objects as go
    from dash import Dash, Input, Output, State, ctx, dcc, html, no_update

    from ..quantities import DOMAINS
    from ..simulate.registry import METHODS
    from .equations import equations
    from .layout import blank_figure, cytoscape_elements, element_rows, page, sim_rows
    from .runs import energy_balance, get_run, result_bytes, start_run

    def info(name: str) -> Any:  # a block file's ports, states and inputs
        return block_info(workspace, name)

    initial = canvas.new_state()
    opened = ""
    if model:
        text, _ = workspace.read(model)
        initial = canvas.from_text(text, model, blocks=info)
        opened = model

    app = Dash(__name__, title="porthamiltonian workbench", update_title=None,
               serve_locally=True)
    app.layout = lambda: page(opened, list(METHODS), list(DOMAINS), block_options(workspace))
    palette = [f"add-{k}" for k in canvas.PALETTE]

    # ------------------------------------------------------------ the graph state
    @app.callback(
        Output("state", "data"), Output("canvas", "elements"), Output("pending", "data"),
        Output("status", "children"), Output("params", "data"),
        Output("elements-table", "data"), Output("sim-table", "data"),
        Output("messages", "children"), Output("t-end", "value"), Output("dt", "value"),
        Output("method", "value"), Output("domain", "value"), Output("file-list", "children"),
        Output("block-file", "options"),
        *[Input(b, "n_clicks") for b in palette], Input("add-block", "n_clicks"),
        Input("canvas", "tapNodeData"), Input("delete", "n_clicks"),
        Input("undo", "n_clicks"), Input("redo", "n_clicks"), Input("relayout", "n_clicks"),
        Input("new", "n_clicks"), Input("open", "n_clicks"), Input("save", "n_clicks"),
        Input("add-param", "n_clicks"),
        Input("params", "data_timestamp"), Input("elements-table", "data_timestamp"),
        Input("sim-table", "data_timestamp"), Input("t-end", "value"), Input("dt", "value"),
        Input("method", "value"), Input("domain", "value"), Input("session", "data"),
        State("state", "data"), State("canvas", "elements"), State("pending", "data"),
        State("mode", "value"), State("file-name", "value"), State("params", "data"),
        State("elements-table", "data"), State("sim-table", "data"),
        State("canvas", "selectedNodeData"), State("canvas", "selectedEdgeData"),
        State("block-file", "value"),
    )
    def edit(*args: Any) -> tuple:
        n = len(palette) + 1
        (tap, _d, _u, _r, _l, _n, _o, _s, _p, _t1, _t2, _t3, t_end, dt, method, domain,
         session,
         state, shown, pending, mode, file_name, params, rows, sim_table, sel_nodes,
         sel_edges, block_file) = args[n:]
        trigger = ctx.triggered_id
        history = history_of(session, initial)
        if state is None:  # a new page: the session's current state
            state = history.current
        state = _with_positions(state, shown)
        status: Any = ""
        new = state
        try:
            if trigger in palette:
                new = canvas.add_element(state, trigger.removeprefix("add-"), *_slot(state))
                pending = None
            elif trigger == "add-block":
                if not block_file:
                    raise ModelError("choose a block file in the list first")
                name = str(block_file)
                if name.startswith(LIBRARY_PREFIX):  # copied in: the saved file's includes
                    name = place_library_block(workspace, name.removeprefix(LIBRARY_PREFIX))
                new = canvas.add_block(state, info(name), *_slot(state))
                status = f"block {new['blocks'][-1]['name']} ({name}): bond to its ports"
                pending = None
            elif trigger == "canvas" and tap:
                name = tap.get("id")
                if mode != "bond":
                    pending = None
                elif tap.get("type") == "block":
                    ports = [p for p, b in canvas.port_ends(state).items() if b == name]
                    status = f"block {name}: click one of its ports ({', '.join(ports)})"
                elif pending and pending != name:
                    new = canvas.add_bond(state, pending, name)
                    status = f"bond {pending} → {name}"
                    pending = None
                else:
                    pending = None if pending == name else name
                    status = f"bond from {name}: now click its head" if pending else ""
            elif trigger == "delete":
                new = canvas.remove(state, [d["id"] for d in sel_nodes or []],
                                    [int(d["index"]) for d in sel_edges or []])
                pending = None
            elif trigger in ("undo", "redo"):
                back = history.undo() if trigger == "undo" else history.redo()
                status = f"nothing to {trigger}" if back is None else f"{trigger} done"
                new = state if back is None else back
                pending = None
            elif trigger == "relayout":
                new = canvas.place(copy.deepcopy(state))
            elif trigger == "new":
                new = canvas.new_state()
                status = "new bond graph"
                pending = None
            elif trigger == "open":
                text, path = workspace.read(file_name)
                new = canvas.from_text(text, file_name, blocks=info)
                status = f"opened {path.name}"
                pending = None
            elif trigger == "save":
                if state.get("blocks") and "/" in str(file_name or "").replace("\\", "/"):
                    raise ModelError("a model with blocks is saved in the workbench folder "
                                     "itself: its include: files are named from there")
                path = workspace.write(file_name, canvas.to_yaml(state))
                status = f"saved {path.name} in {workspace.root}"
            elif trigger == "add-param":
                new = copy.deepcopy(state)
                k = 1
                while f"p{k}" in new["parameters"]:
                    k += 1
                new["parameters"][f"p{k}"] = 1
            elif trigger == "params":
                new = copy.deepcopy(state)
                new["parameters"] = {str(r["name"]).strip(): _number(r.get("value"))
                                     for r in params or [] if str(r.get("name", "")).strip()}
            elif trigger == "elements-table":
                new = _edit_elements(state, rows or [])
            elif trigger == "sim-table":
                new = _edit_sim(state, sim_table or [])
            elif trigger == "domain":
                new = {**state, "domain": None if domain in (None, "generic") else domain}
            elif trigger in ("t-end", "dt", "method"):
                new = copy.deepcopy(state)
                sim = new["simulate"] = dict(new.get("simulate") or {})
                for key, value in (("t_end", _number(t_end)), ("dt", _number(dt)),
                                   ("method", None if method == "auto" else method)):
                    if value is None:
                        sim.pop(key, None)
                    else:
                        sim[key] = value
        except ModelError as err:
            status = html.Span(f"error: {err}", style={"color": "#c00"})
        if trigger in ("undo", "redo"):
            pass
        elif new is state:  # nothing changed but the positions (drags are not steps)
            history.replace(new)
        else:
            history.push(new)
        ov = overlay(new, workspace.root)
        sim = new.get("simulate") or {}
        # positions are the canvas's own, except where the server moves the elements
        placed = frozenset() if trigger in _MOVES else frozenset(
            el["data"]["id"] for el in shown or [] if "source" not in el.get("data", {}))
        # what the page shows already is not sent again: a table sent back while the user
        # types in it would replace the newer edit with the server's older copy
        return (new, cytoscape_elements(new, ov, pending, placed), pending, status,
                _changed([{"name": k, "value": "" if v is None else str(v)}
                          for k, v in new["parameters"].items()], params),
                _changed(element_rows(new, ov), rows), _changed(sim_rows(new), sim_table),
                _messages(new, ov),
                _changed("" if sim.get("t_end") is None else str(sim["t_end"]), t_end),
                _changed("" if sim.get("dt") is None else str(sim["dt"]), dt),
                _changed(sim.get("method") or "auto", method),
                _changed(new.get("domain") or "generic", domain),
                [html.Option(value=f) for f in workspace.names()],
                block_options(workspace) if trigger in _LISTS else no_update)

    # ------------------------------------------------------------ equations
    @app.callback(Output("latex", "children"), Output("summary", "children"),
                  Output("latex-source", "children"), Input("state", "data"))
    def show_equations(state: Any) -> tuple:
        if not state or not state["elements"]:
            return "", "draw a bond graph: its port-Hamiltonian model appears here", ""
        try:
            eq = equations(state, workspace.root)
        except ModelError as err:
            return "", f"no model yet: {err}", ""
        if eq.note:
            return "", eq.note, ""
        return eq.latex, eq.summary, eq.latex

    # ------------------------------------------------------------ simulation
    @app.callback(Output("run-id", "data"), Output("poll", "disabled"),
                  Output("run-status", "children"), Input("simulate", "n_clicks"),
                  State("state", "data"), prevent_initial_call=True)
    def simulate(_n: Any, state: Any) -> tuple:
        run = start_run(state, folder=workspace.root)
        return run.id, False, "running …"

    @app.callback(Output("progress", "value"), Output("run-status", "children",
                                                      allow_duplicate=True),
                  Output("poll", "disabled", allow_duplicate=True),
                  Output("plot-vars", "options"), Output("plot-vars", "value"),
                  Output("plot", "figure"), Output("energy", "figure"),
                  Input("poll", "n_intervals"), Input("plot-vars", "value"),
                  State("run-id", "data"), prevent_initial_call=True)
    def poll(_n: Any, chosen: Any, run_id: Any) -> tuple:
        run = get_run(run_id)
        if run is None:
            return "0", "", True, no_update, no_update, blank_figure(), blank_figure()
        if not run.done:
            return (f"{run.progress:.3f}", f"running … {100 * run.progress:.0f} %", False,
                    no_update, no_update, no_update, no_update)
        if run.error:
            return ("0", html.Span(f"error: {run.error}", style={"color": "#c00"}), True,
                    [], [], blank_figure(), blank_figure())
        res = run.result
        units = {v.name: v.unit for v in res.variables}
        names = [v.name for v in res.variables if v.name in units]
        if ctx.triggered_id != "plot-vars" or not chosen:
            chosen = [n for n in (list(res.shown) or list(res.states)) if n in units]
        warn = "; ".join(f"warning: {w}" for w in run.warnings)
        done = (f"done: {res.method}, {res.nsteps} steps, t = {res.t[0]:g} … {res.t[-1]:g} s"
                + (f" ({warn})" if warn else ""))
        return ("1", done, True, names, chosen, _plot(go, res, chosen, units),
                _energy_plot(go, energy_balance(res)))

    @app.callback(Output("download", "data"), Input("download-csv", "n_clicks"),
                  Input("download-nc", "n_clicks"), State("run-id", "data"),
                  State("file-name", "value"), prevent_initial_call=True)
    def download(_a: Any, _b: Any, run_id: Any, file_name: Any) -> Any:
        run = get_run(run_id)
        if run is None or run.result is None:
            return no_update
        suffix = ".csv" if ctx.triggered_id == "download-csv" else ".nc"
        stem = (str(file_name or "result").rsplit("/", 1)[-1].rsplit(".", 1)[0]) or "result"
        try:
            data = result_bytes(run.result, suffix)
        except ModelError:  # netCDF without the data extra: the CSV is always there
            return no_update
        return dcc.send_bytes(data, f"{stem}{suffix}")

    return app


def _changed(value: Any, shown: Any) -> Any:
    """``value``, or Dash's ``no_update`` when the page shows it already."""
    from dash import no_update

    return no_update if value == shown else value


def _with_positions(state: dict[str, Any], shown: list[dict[str, Any]] | None
                    ) -> dict[str, Any]:
    """``state`` with the canvas positions after the user's drags."""
    where = {el["data"]["id"]: el["position"] for el in shown or []
             if "position" in el and "source" not in el.get("data", {})}
    # a block is where its first port is, less that port's offset (Cytoscape.js places a
    # compound node around its children)
    blocks = {b["name"]: (f"{b['name']}.{b['ports'][0]}",
                          canvas.port_offset(0, len(b["ports"])))
              for b in state.get("blocks") or [] if b["ports"]}
    if not any(e["name"] in where for e in state["elements"]) and \
            not any(port in where for port, _ in blocks.values()):
        return state
    new = copy.deepcopy(state)
    for e in new["elements"]:
        p = where.get(e["name"])
        if p:
            e["x"], e["y"] = float(p["x"]), float(p["y"])
    for b in new.get("blocks") or []:
        port, dx = blocks.get(b["name"], ("", 0.0))
        p = where.get(port)
        if p:
            b["x"], b["y"] = float(p["x"]) - dx, float(p["y"])
    return new


def _edit_elements(state: dict[str, Any], rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The state after edits of the element table (names, values)."""
    new = state
    items = [*state["elements"], *(state.get("blocks") or [])]  # the table's rows
    for e, row in zip(items, rows, strict=False):
        name = str(row.get("name") or "").strip()
        if name and name != e["name"]:
            new = canvas.rename(new, e["name"], name)
    new = copy.deepcopy(new)
    for e, row in zip(new["elements"], rows, strict=False):
        if row.get("key"):
            value = _number(row.get("value"))
            if value is None:
                e["values"].pop(row["key"], None)
            else:
                e["values"][row["key"]] = value
    return new


def _edit_sim(state: dict[str, Any], rows: list[dict[str, Any]]) -> dict[str, Any]:
    """The state after edits of the inputs and initial values."""
    new = copy.deepcopy(state)
    sim = new["simulate"] = dict(new.get("simulate") or {})
    for what, key in (("input", "inputs"), ("initial", "initial")):
        values = {r["name"]: _number(r.get("value")) for r in rows if r.get("what") == what}
        values = {k: v for k, v in values.items() if v is not None}
        if values:
            sim[key] = values
        else:
            sim.pop(key, None)
    return new


def _messages(state: dict[str, Any], ov: Any) -> Any:
    """The checks in words: the causality report, its messages, the causal stroke of
    each bond, the structure and model-file problems."""
    from dash import html

    items: list[Any] = []
    if ov.explanation:
        items.append(html.Pre(ov.explanation, id="explanation",
                              style={"white-space": "pre-wrap", "margin": "2px 0"}))
    for m in ov.messages:
        items.append(html.Div(m, className="causality-message",
                              style={"color": "#8c1c13", "margin": "3px 0"}))
    for m in ov.structure:
        items.append(html.Div(m, className="structure-message", style={"color": "#7a5200"}))
    for m in ov.model:
        items.append(html.Div(m, className="model-message", style={"color": "#7a0050"}))
    if ov.strokes:
        strokes = []
        for k, b in enumerate(state["bonds"]):
            end = ov.strokes.get(k)
            if end is None:
                continue
            at = b["to"] if end == "head" else b["from"]
            other = b["from"] if end == "head" else b["to"]
            strokes.append(html.Li(f"{b['from']} → {b['to']}: stroke at {at} ({other} "
                                   "imposes the effort)", className="bond-causality"))
        items.append(html.Details([html.Summary(f"causal strokes ({len(strokes)} bonds)"),
                                   html.Ul(strokes, style={"margin": "2px 0"})]))
    if not items:
        items.append(html.Div("add elements from the palette; in 'draw bonds' mode click a "
                              "bond's tail, then its head"))
    return items


def _plot(go: Any, res: Any, names: list[str], units: dict[str, str]) -> Any:
    from ..quantities import pretty_unit

    fig = go.Figure()
    for name in names:
        unit = pretty_unit(units.get(name, ""))
        fig.add_scatter(x=res.t, y=res[name], mode="lines",
                        name=f"{name} ({unit})" if unit else name)
    shown = sorted({pretty_unit(units.get(n, "")) for n in names} - {""})
    fig.update_layout(title=f"{res.model or 'model'}: simulated variables",
                      xaxis_title="t (s)",
                      yaxis_title=f"value ({', '.join(shown)})" if shown else "value",
                      margin={"l": 60, "r": 10, "t": 40, "b": 40})
    return fig


def _energy_plot(go: Any, bal: dict[str, Any]) -> Any:
    fig = go.Figure()
    for key, label in (("stored", "stored H − H(0)"), ("supplied", "supplied ∫uᵀy dt"),
                       ("dissipated", "dissipated ∫d dt")):
        fig.add_scatter(x=bal["t"], y=bal[key], mode="lines", name=label)
    fig.update_layout(title="energy balance: stored = supplied − dissipated",
                      xaxis_title="t (s)", yaxis_title="energy (J)",
                      margin={"l": 60, "r": 10, "t": 40, "b": 40})
    return fig
