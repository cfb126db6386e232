"""Serving the workbench: a local web server, on this machine only unless asked otherwise.

Security model (docs/workbench.md, "Security")
----------------------------------------------
* The server listens on the loopback address :data:`LOOPBACK` by default: only programs
  on this machine reach it.  Another ``host`` is allowed with a warning
  (:func:`host_warning`), since whoever reaches the port can read and write the model
  files of the workbench folder and use this machine's CPU for simulations.
* Bound to loopback, requests whose ``Host`` header is not a loopback name are refused
  (403): a web page elsewhere cannot reach the workbench through a DNS name that resolves
  to 127.0.0.1 (DNS rebinding).
* Files: only model files inside one folder (:class:`.files.Workspace`); model content is
  parsed by the model-file loader, never executed; runs have the command line's limits.
"""

from __future__ import annotations

import ipaddress
import pathlib
import threading
from typing import Any

from ..errors import ModelError
from .files import Workspace

__all__ = ["LOOPBACK", "Server", "is_loopback", "host_warning", "make_server", "workspace_for"]

#: the address the workbench listens on by default
LOOPBACK = "127.0.0.1"
_LOOPBACK_NAMES = ("localhost", "127.0.0.1", "[::1]", "::1")


def is_loopback(host: str) -> bool:
    """True for an address or name that only this machine reaches."""
    if host.strip("[]").lower() == "localhost":
        return True
    try:
        return ipaddress.ip_address(host.strip("[]")).is_loopback
    except ValueError:
        return False


def host_warning(host: str) -> str | None:
    """The warning for listening on ``host``, ``None`` for a loopback address."""
    if is_loopback(host):
        return None
    return (f"warning: listening on {host}: other machines that reach this address can "
            "use the workbench — open, change and save the model files of its folder and "
            "run simulations on this machine; there is no login. Use the default "
            f"(--host {LOOPBACK}) unless the network is yours")


def workspace_for(model: str | None, root: str | pathlib.Path | None = None
                  ) -> tuple[Workspace, str | None]:
    """The workspace folder (``root``, else the model's folder, else the working
    directory) and the model's name in it."""
    if model is None:
        return Workspace(root if root is not None else pathlib.Path.cwd()), None
    path = pathlib.Path(model).expanduser()
    if not path.is_file():
        raise ModelError(f"model file '{model}' not found; check the path")
    if root is None:
        return Workspace(path.resolve().parent), path.name
    space = Workspace(root)
    try:
        return space, path.resolve().relative_to(space.root).as_posix()
    except ValueError:
        raise ModelError(f"model file '{model}' is outside the workbench folder "
                         f"{str(space.root)!r}") from None


def make_server(model: str | None = None, host: str = LOOPBACK, port: int = 8765,
                root: str | pathlib.Path | None = None) -> Any:
    """A WSGI server (not yet serving) of the workbench; ``.port`` is the port it got.
    ``root`` is the workbench folder (default: the model's folder, else the working
    directory)."""
    import logging

    from werkzeug.serving import make_server as werkzeug_server

    from .app import create_app

    logging.getLogger("werkzeug").setLevel(logging.WARNING)  # no line per request
    workspace, name = workspace_for(model, root)
    app = create_app(workspace, name)
    if is_loopback(host):
        _loopback_hosts_only(app.server)
    try:
        return werkzeug_server(host, port, app.server, threaded=True)
    except OSError as err:
        raise ModelError(f"cannot listen on {host}:{port} ({err.strerror or err}); choose "
                         "another port with --port N") from None


def _loopback_hosts_only(flask_app: Any) -> None:
    from flask import abort, request

    @flask_app.before_request
    def _check_host() -> None:
        host = (request.host or "").rsplit(":", 1)[0] if not (request.host or "").startswith(
            "[") else (request.host or "").split("]")[0] + "]"
        if host.lower() not in _LOOPBACK_NAMES:
            abort(403)


class Server:
    """The workbench served from a thread (tests, notebooks): ``with Server(...) as s:``
    gives ``s.url``; leaving the block shuts it down."""

    def __init__(self, model: str | None = None, host: str = LOOPBACK, port: int = 0,
                 root: str | pathlib.Path | None = None) -> None:
        self.wsgi = make_server(model, host, port, root)
        self.url = f"http://{host}:{self.wsgi.port}/"
        self.thread = threading.Thread(target=self.wsgi.serve_forever, daemon=True,
                                       name="workbench-server")

    def __enter__(self) -> Server:
        self.thread.start()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.wsgi.shutdown()
        self.thread.join(timeout=5)
