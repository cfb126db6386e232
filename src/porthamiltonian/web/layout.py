"""The workbench page: its panels, and how a graph state is drawn on the canvas.

Panels (docs/workbench.md): the file bar (open/save in the workbench folder), the
palette and tools (elements, bond drawing, delete, undo/redo, auto-layout), the canvas
(Cytoscape.js through dash-cytoscape), the checks (causality in words, problems tied to
elements), the parameter and element tables, the equations, and the simulation (settings,
inputs, initial values, progress, plots, downloads).

The canvas notation is that of ``porthamiltonian draw`` (:mod:`porthamiltonian.bondgraph.draw`):
an element is ``TYPE:name``, a junction ``0``/``1`` with its name; a bond ends in an
arrowhead at its head (the direction of positive power; Cytoscape.js has no half-arrow,
so a full one stands for it) and carries a causal stroke (a bar across the bond) at the
end where the effort is imposed on the element; problem elements are coloured as in the
drawings (:data:`.overlay.PROBLEM_COLORS`).
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from typing import Any

from .canvas import PALETTE, VALUE_KEYS, port_offset
from .overlay import PROBLEM_COLORS, Overlay

__all__ = ["page", "cytoscape_elements", "STYLESHEET", "element_rows", "sim_rows",
           "blank_figure"]

#: the canvas size (px), also the frame :func:`.canvas.layout` fills
CANVAS_STYLE = {"width": "620px", "height": "430px", "border": "1px solid #bbb",
                "background": "#fcfcfc"}


def _css_class(kind: str) -> str:
    return kind.replace(" ", "-")


STYLESHEET: list[dict[str, Any]] = [
    {"selector": "node", "style": {
        "label": "data(label)", "shape": "round-rectangle", "background-color": "#ffffff",
        "border-width": 1, "border-color": "#444", "width": "label", "height": 26,
        "padding": "6px", "text-valign": "center", "text-halign": "center",
        "font-size": 14, "font-family": "sans-serif"}},
    {"selector": "node.junction", "style": {"shape": "ellipse", "width": 30, "height": 30,
                                            "font-weight": "bold"}},
    {"selector": "node:selected", "style": {"border-width": 3, "border-color": "#1f77b4"}},
    {"selector": "node.invalid", "style": {"border-width": 2, "border-style": "dashed",
                                           "border-color": PROBLEM_COLORS["invalid"]}},
    *[{"selector": f"node.{_css_class(kind)}",
       "style": {"background-color": color, "color": "#ffffff", "border-color": color,
                 "border-width": 3}}
      for kind, color in PROBLEM_COLORS.items() if kind != "invalid"],
    # a sub-graph block: a compound node (label on top) holding one small node per port
    {"selector": "node.block", "style": {
        "shape": "round-rectangle", "background-color": "#eef3fb", "border-color": "#4a6fa5",
        "border-width": 2, "text-valign": "top", "text-halign": "center", "padding": "12px",
        "font-weight": "bold"}},
    {"selector": "node.port", "style": {
        "shape": "ellipse", "background-color": "#ffffff", "border-color": "#4a6fa5",
        "border-width": 2, "height": 24, "font-size": 12, "padding": "4px"}},
    {"selector": "node.pending", "style": {"border-width": 3, "border-color": "#17becf",
                                           "border-style": "double"}},  # last: wins
    {"selector": "edge", "style": {
        "curve-style": "straight", "width": 2, "line-color": "#333",
        "target-arrow-shape": "vee", "target-arrow-color": "#333",
        "source-arrow-color": "#333", "arrow-scale": 1.3}},
    # the causal stroke: a bar across the bond next to the element receiving the effort
    {"selector": "edge.stroke-head", "style": {"target-arrow-shape": "triangle-tee"}},
    {"selector": "edge.stroke-tail", "style": {"source-arrow-shape": "tee"}},
    {"selector": "edge:selected", "style": {"line-color": "#1f77b4", "width": 4}},
]


def cytoscape_elements(state: Mapping[str, Any], ov: Overlay, pending: str | None = None,
                       placed: frozenset[str] = frozenset()) -> list[dict[str, Any]]:
    """The canvas elements of ``state`` with the overlay's strokes and highlights.

    Elements in ``placed`` are sent without a position: the canvas keeps the one it
    shows (the user may have dragged them since the page last reported positions)."""
    out: list[dict[str, Any]] = []
    for e in state["elements"]:
        kind = str(e["type"])
        junction = kind in ("0", "1")
        classes = ["junction" if junction else "element", f"type-{kind}"]
        if e["name"] in ov.problems:
            classes.append(_css_class(ov.problems[e["name"]]))
        if e["name"] in ov.faulty:
            classes.append("invalid")
        if e["name"] == pending:
            classes.append("pending")
        label = kind if junction else f"{kind}:{e['name']}"
        node = {"data": {"id": e["name"], "label": label, "type": kind,
                         "problem": ov.problems.get(e["name"], "")},
                "classes": " ".join(classes)}
        if e["name"] not in placed:
            node["position"] = {"x": e["x"], "y": e["y"]}
        out.append(node)
    for b in state.get("blocks") or []:
        name = b["name"]
        # a problem inside the block (its storage m1.La dependent, …) colours the block
        inner = [kind for el, kind in ov.problems.items() if el.startswith(f"{name}.")]
        classes = ["block", *([_css_class(inner[0])] if inner else []),
                   *(["invalid"] if name in ov.faulty else [])]
        out.append({"data": {"id": name, "label": f"block:{name}", "type": "block",
                             "file": b["file"], "problem": inner[0] if inner else ""},
                    "classes": " ".join(classes)})
        for k, port in enumerate(b["ports"]):
            pid = f"{name}.{port}"
            node = {"data": {"id": pid, "label": port, "parent": name, "type": "port"},
                    "classes": "port" + (" pending" if pid == pending else "")}
            if pid not in placed:
                node["position"] = {"x": b["x"] + port_offset(k, len(b["ports"])),
                                    "y": b["y"]}
            out.append(node)
    for k, b in enumerate(state["bonds"]):
        stroke = ov.strokes.get(k)
        out.append({"data": {"id": f"bond{k}", "source": b["from"], "target": b["to"],
                             "index": k, "stroke": stroke or ""},
                    "classes": f"bond stroke-{stroke}" if stroke else "bond"})
    return out


def element_rows(state: Mapping[str, Any], ov: Overlay) -> list[dict[str, Any]]:
    """One row per element: name, type, its value key and value, its problems."""
    rows = []
    for e in state["elements"]:
        keys = [k for k in e.get("values", {})] or ([VALUE_KEYS[e["type"]][0]]
                                                    if VALUE_KEYS.get(e["type"]) else [])
        key = keys[0] if keys else ""
        value = e.get("values", {}).get(key, "") if key else ""
        problems = ([ov.problems[e["name"]]] if e["name"] in ov.problems else []) \
            + ov.faulty.get(e["name"], [])
        rows.append({"name": e["name"], "type": str(e["type"]), "key": key,
                     "value": "" if value is None else str(value),
                     "problem": "; ".join(problems)})
    for b in state.get("blocks") or []:  # after the elements: the file it includes
        rows.append({"name": b["name"], "type": "block", "key": "file", "value": b["file"],
                     "problem": "; ".join(ov.faulty.get(b["name"], []))})
    return rows


def sim_rows(state: Mapping[str, Any]) -> list[dict[str, Any]]:
    """The inputs (one per source) and the initial values (one per storage)."""
    sim = state.get("simulate") or {}
    inputs, initial = sim.get("inputs") or {}, sim.get("initial") or {}
    rows = [{"what": "input", "name": e["name"],
             "value": "" if inputs.get(e["name"]) is None else str(inputs[e["name"]])}
            for e in state["elements"] if e["type"] in ("Se", "Sf")]
    rows += [{"what": "input", "name": n,
              "value": "" if inputs.get(n) is None else str(inputs[n])}
             for b in state.get("blocks") or [] for n in
             (f"{b['name']}.{u}" for u in b.get("inputs", []))]
    rows += [{"what": "initial", "name": e["name"],
              "value": "" if initial.get(e["name"]) is None else str(initial[e["name"]])}
             for e in state["elements"] if e["type"] in ("C", "I")]
    rows += [{"what": "initial", "name": n,
              "value": "" if initial.get(n) is None else str(initial[n])}
             for b in state.get("blocks") or [] for n in
             (f"{b['name']}.{x}" for x in b.get("states", []))]
    return rows


def blank_figure() -> dict[str, Any]:
    """An empty figure (no axes) until a run is done."""
    return {"data": [], "layout": {
        "xaxis": {"visible": False}, "yaxis": {"visible": False}, "height": 120,
        "margin": {"l": 10, "r": 10, "t": 10, "b": 10},
        "annotations": [{"text": "simulate to see the results here", "showarrow": False,
                         "font": {"color": "#888"}}]}}


def page(file_name: str, methods: list[str], domains: list[str],
         blocks: list[dict[str, str]] | None = None) -> Any:
    """The page (a new session id on each load)."""
    import warnings

    with warnings.catch_warnings():
        # Dash 4 announces that DataTable will move out of Dash in a later major version
        # (pyproject pins dash < 5)
        warnings.filterwarnings("ignore", message=".*DataTable will be removed",
                                category=DeprecationWarning)
        return _page(file_name, methods, domains, blocks or [])


def _page(file_name: str, methods: list[str], domains: list[str],
          blocks: list[dict[str, str]]) -> Any:
    import dash_cytoscape as cyto
    from dash import dash_table, dcc, html

    button = {"margin": "2px", "padding": "4px 9px", "font-size": "14px"}
    panel = {"border": "1px solid #ddd", "border-radius": "4px", "padding": "8px",
             "margin": "6px 0"}
    table_style = {"style_cell": {"font-family": "monospace", "font-size": "13px",
                                  "text-align": "left", "padding": "2px 6px",
                                  "whiteSpace": "normal", "height": "auto",
                                  "maxWidth": "420px"},
                   "style_header": {"font-weight": "bold", "background": "#f0f0f0"}}
    return html.Div(style={"font-family": "sans-serif", "margin": "8px 12px"}, children=[
        dcc.Store(id="session", data=uuid.uuid4().hex),
        dcc.Store(id="state"), dcc.Store(id="pending"), dcc.Store(id="run-id"),
        dcc.Download(id="download"),
        html.Div(style={"display": "flex", "align-items": "center", "gap": "8px"}, children=[
            html.H2("porthamiltonian workbench", style={"margin": "4px 16px 4px 0"}),
            dcc.Input(id="file-name", value=file_name, placeholder="model.yaml",
                      list="file-list", debounce=False, style={"width": "220px"}),
            html.Datalist(id="file-list"),
            html.Button("New", id="new", style=button, title="an empty bond graph"),
            html.Button("Open", id="open", style=button),
            html.Button("Save", id="save", style=button),
            html.Label(["energy domain ", dcc.Dropdown(
                id="domain", options=domains, value="generic", clearable=False,
                style={"width": "150px", "display": "inline-block",
                       "vertical-align": "middle"})],
                title="the bonds' default domain: units and names (C1.v, L1.i) follow it"),
            html.Span(id="status", style={"margin-left": "12px", "color": "#333"}),
        ]),
        html.Div(style={"display": "flex", "gap": "16px", "align-items": "flex-start"},
                 children=[
            html.Div(children=[
                html.Div(style={"display": "flex", "flex-wrap": "wrap",
                                "align-items": "center"}, children=[
                    html.Span("Add: ", style={"margin-right": "4px"}),
                    *[html.Button(k, id=f"add-{k}", title=f"add a {k} element",
                                  style=button) for k in PALETTE],
                ]),
                html.Div(style={"display": "flex", "align-items": "center", "gap": "4px"},
                         title="sub-graph blocks: bond-graph model files that expose "
                               "ports (this folder's, and the library's)", children=[
                    html.Span("Blocks: "),
                    dcc.Dropdown(id="block-file", options=blocks, placeholder="a block file",
                                 clearable=False, style={"width": "330px"}),
                    html.Button("Add block", id="add-block", style=button),
                ]),
                html.Div(style={"display": "flex", "align-items": "center",
                                "flex-wrap": "wrap"}, children=[
                    dcc.RadioItems(id="mode", value="move", inline=True,
                                   options=[{"label": " move/select ", "value": "move"},
                                            {"label": " draw bonds (tail, then head) ",
                                             "value": "bond"}]),
                    html.Button("Delete", id="delete", style=button),
                    html.Button("Undo", id="undo", style=button),
                    html.Button("Redo", id="redo", style=button),
                    html.Button("Auto-layout", id="relayout", style=button),
                ]),
                cyto.Cytoscape(id="canvas", elements=[], stylesheet=STYLESHEET,
                               layout={"name": "preset", "fit": False}, zoom=1,
                               pan={"x": 0, "y": 0}, minZoom=0.3, maxZoom=3,
                               userZoomingEnabled=False, userPanningEnabled=False,
                               boxSelectionEnabled=False,
                               style=CANVAS_STYLE),
                html.Div(style=panel, children=[
                    html.B("Causality and checks"),
                    html.Div(id="messages", style={"max-width": "600px"}),
                ]),
            ]),
            html.Div(style={"flex": "1", "min-width": "480px"}, children=[
                html.Details(open=True, style=panel, children=[
                    html.Summary(html.B("Parameters and element values")),
                    html.Div("Values are numbers or expressions in the parameters "
                             "(+ - * / ** and functions such as sqrt, sin, exp); a value "
                             "may carry a unit: 10 mH, 3000 rpm."),
                    dash_table.DataTable(id="params", editable=True, row_deletable=True,
                                         columns=[{"name": "parameter", "id": "name"},
                                                  {"name": "value (unit)", "id": "value"}],
                                         data=[], **table_style),
                    html.Button("Add parameter", id="add-param", style=button),
                    dash_table.DataTable(
                        id="elements-table", editable=True, data=[],
                        columns=[{"name": "element", "id": "name"},
                                 {"name": "type", "id": "type", "editable": False},
                                 {"name": "key", "id": "key", "editable": False},
                                 {"name": "value", "id": "value"},
                                 {"name": "problem", "id": "problem", "editable": False}],
                        style_data_conditional=[{
                            "if": {"filter_query": '{problem} != ""'},
                            "backgroundColor": "#fde0e0"}],
                        **table_style),
                ]),
                html.Details(open=True, style=panel, children=[
                    html.Summary(html.B("Equations")),
                    dcc.Markdown(id="latex", mathjax=True),
                    html.Pre(id="summary", style={"font-size": "12px"}),
                    html.Details([html.Summary("LaTeX source"),
                                  html.Pre(id="latex-source",
                                           style={"white-space": "pre-wrap",
                                                  "font-size": "11px"})]),
                ]),
                html.Details(open=True, style=panel, children=[
                    html.Summary(html.B("Simulation")),
                    html.Div(style={"display": "flex", "gap": "10px", "align-items": "center",
                                    "flex-wrap": "wrap"}, children=[
                        html.Label(["t_end (s) ", dcc.Input(id="t-end", type="text", debounce=True,
                                                            style={"width": "70px"})]),
                        html.Label(["dt (s, blank: adaptive) ",
                                    dcc.Input(id="dt", type="text", debounce=True,
                                              style={"width": "70px"})]),
                        html.Label(["method ", dcc.Dropdown(
                            id="method", options=methods, value="auto", clearable=False,
                            style={"width": "150px", "display": "inline-block",
                                   "vertical-align": "middle"})]),
                    ]),
                    dash_table.DataTable(id="sim-table", editable=True, data=[],
                                         columns=[{"name": "", "id": "what",
                                                   "editable": False},
                                                  {"name": "name", "id": "name",
                                                   "editable": False},
                                                  {"name": "expression of t / value",
                                                   "id": "value"}], **table_style),
                    html.Div(style={"display": "flex", "gap": "8px", "align-items": "center",
                                    "margin-top": "6px"}, children=[
                        html.Button("Simulate", id="simulate", style=button),
                        html.Progress(id="progress", value="0", max="1",
                                      style={"width": "200px"}),
                        html.Span(id="run-status"),
                        html.Button("Download CSV", id="download-csv", style=button),
                        html.Button("Download netCDF", id="download-nc", style=button),
                    ]),
                    dcc.Interval(id="poll", interval=300, disabled=True),
                    dcc.Dropdown(id="plot-vars", multi=True, placeholder="variables to plot"),
                    dcc.Graph(id="plot", style={"height": "300px"}, figure=blank_figure()),
                    dcc.Graph(id="energy", style={"height": "260px"}, figure=blank_figure()),
                ]),
            ]),
        ]),
    ])
