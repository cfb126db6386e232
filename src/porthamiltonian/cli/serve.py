"""``porthamiltonian serve [MODEL] [--port 8765] [--host H]``: the browser workbench.

Starts a local web server (:mod:`porthamiltonian.web.server`; loopback only unless
``--host`` says otherwise, with a warning), opens the workbench in a browser and serves
until interrupted.  The web framework (the ``web`` extra: Dash, dash-cytoscape) is
imported only here, so ``porthamiltonian --help`` stays fast; without it the command
says how to install it (docs/workbench.md).
"""

from __future__ import annotations

import argparse
import importlib.util
import sys

from ..errors import ModelError

__all__ = ["run_command", "WEB_EXTRA"]

#: what to install for the workbench
WEB_EXTRA = 'pip install "porthamiltonian[web]"'


def run_command(args: argparse.Namespace) -> int:
    missing = [m for m in ("dash", "dash_cytoscape") if importlib.util.find_spec(m) is None]
    if missing:
        raise ModelError(f"the workbench needs the web extra ({', '.join(missing)} not "
                         f"installed): {WEB_EXTRA}")
    from ..web.server import host_warning, make_server

    warning = host_warning(args.host)
    if warning:
        print(warning, file=sys.stderr)
    server = make_server(args.model, args.host, args.port)
    host = f"[{args.host}]" if ":" in args.host else args.host
    url = f"http://{host}:{server.port}/"
    print(f"porthamiltonian workbench at {url} (Ctrl-C stops it)", flush=True)
    if not args.no_browser:
        import webbrowser

        webbrowser.open(url)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        print("stopped", file=sys.stderr)
    finally:
        server.server_close()
    return 0
