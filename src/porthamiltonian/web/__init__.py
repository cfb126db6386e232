"""The browser workbench of ``porthamiltonian serve`` (docs/workbench.md).

Draw a bond graph, see its causality checked as it grows, set parameters, read the
generated port-Hamiltonian equations, simulate and plot — and open and save the same
model files as the command line.  Modules, one idea each:

* :mod:`.canvas` — the graph state the page edits ↔ the model file's document (YAML);
* :mod:`.overlay` — causal strokes, problem elements and messages (structure, SCAP,
  the model-file checks);
* :mod:`.equations` — the explicit model (``porthamiltonian phs``'s output);
* :mod:`.runs` — simulations in worker threads, the path of ``porthamiltonian simulate``;
* :mod:`.files` — open/save restricted to one folder;
* :mod:`.history` — undo/redo per browser session;
* :mod:`.layout`, :mod:`.app` — the page and its callbacks (Dash, dash-cytoscape: the
  ``web`` extra, imported only by these two and :mod:`.server`);
* :mod:`.server` — the local web server (loopback by default).

Nothing here is imported by ``import porthamiltonian``: the command line imports it when
``serve`` runs.
"""

from __future__ import annotations

__all__: list[str] = []
