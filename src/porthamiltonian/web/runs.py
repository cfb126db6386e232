r"""Simulating the graph on the canvas: the path of ``porthamiltonian simulate``, in a thread.

A run reads everything from the state's ``simulate:`` section (end time, step, method,
inputs as expressions of ``t``, initial values), so the file the browser saves runs
unchanged and gives the same series from the command line.  The steps are those of the
command: :func:`porthamiltonian.io.preflight.value_problems` (singular values refused,
warnings kept), :func:`porthamiltonian.io.simulation.simulation_system`,
:func:`porthamiltonian.io.simulation.simulation_arguments`, then
:func:`porthamiltonian.simulate` with the command's tolerances (``rtol = 1e-6``,
``atol = 1e-9``) and its limits — ``max_steps`` (default :math:`10^8`) refuses a run
that would take too long before it starts, with the simulator's own message.

Each run is a :class:`Run` in a worker thread; the page polls :attr:`Run.progress`
(simulated time over the span) and, when it is done, reads the result.  The energy
balance is :math:`H(t) - H(0)` against the supplied work :math:`\int u^\top y\,dt` and the
dissipated work :math:`\int d\,dt` (J), the integrator's own quadratures.
"""

from __future__ import annotations

import itertools
import pathlib
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Mapping
from typing import Any

import numpy as np

from ..errors import ModelError
from .canvas import to_document

__all__ = ["Run", "start_run", "get_run", "energy_balance", "result_bytes", "RTOL", "ATOL"]

#: the command line's default tolerances (``simulate --rtol/--atol``)
RTOL, ATOL = 1e-6, 1e-9
#: runs kept for their results (the oldest finished ones are dropped)
KEPT_RUNS = 16

_RUNS: OrderedDict[str, Run] = OrderedDict()
_LOCK = threading.Lock()
_IDS = itertools.count(1)


class Run:
    """One simulation of a graph state in a worker thread.

    ``progress`` goes from 0 to 1; when ``done``, either ``result`` (a
    :class:`~porthamiltonian.simulate.SimulationResult`) or ``error`` (one sentence) is
    set; ``warnings`` are those ``porthamiltonian simulate`` prints."""

    def __init__(self, state: Mapping[str, Any], max_steps: int | None = None,
                 folder: str | pathlib.Path | None = None) -> None:
        self.id = f"run{next(_IDS)}"
        self.document = to_document(state)
        self.folder = folder  # where the blocks' files are (the workbench folder)
        self.max_steps = max_steps
        self.progress = 0.0
        self.done = False
        self.result: Any = None
        self.error: str | None = None
        self.warnings: list[str] = []
        self.thread = threading.Thread(target=self._work, name=f"workbench-{self.id}",
                                       daemon=True)

    def _work(self) -> None:
        try:
            self.result = self._simulate()
        except ModelError as err:
            self.error = str(err)
        except Exception as err:  # an internal error: reported on the page, not lost
            self.error = f"internal error ({type(err).__name__}: {err})"
        finally:
            self.done = True

    def _simulate(self) -> Any:
        from ..io import load_dict
        from ..io.preflight import value_problems
        from ..io.simulation import simulation_arguments, simulation_system
        from ..simulate.run import simulate

        model = load_dict(self.document, source="model", folder=self.folder)
        errors, self.warnings = value_problems(model)
        if errors:
            raise ModelError(errors[0])
        system = simulation_system(model)
        run = simulation_arguments(model, system)
        if self.max_steps is not None:
            run["max_steps"] = self.max_steps
        t0, t1 = run["t_span"]

        def progress(t: float) -> None:
            self.progress = min(1.0, max(0.0, (t - t0) / (t1 - t0))) if t1 > t0 else 1.0

        res = simulate(system, **run, rtol=RTOL, atol=ATOL, progress=progress)
        if not res.model:
            res.model = model.name
        self.progress = 1.0
        return res


def start_run(state: Mapping[str, Any], max_steps: int | None = None,
              folder: str | pathlib.Path | None = None) -> Run:
    """Start simulating ``state`` (its blocks' files in ``folder``) in a thread; the
    :class:`Run` to poll."""
    run = Run(state, max_steps, folder)
    with _LOCK:
        _RUNS[run.id] = run
        while len(_RUNS) > KEPT_RUNS:
            oldest = next((k for k, r in _RUNS.items() if r.done), None)
            if oldest is None:
                break
            _RUNS.pop(oldest)
    run.thread.start()
    return run


def get_run(run_id: str | None) -> Run | None:
    """The run ``run_id``, or ``None`` when unknown (or dropped)."""
    with _LOCK:
        return _RUNS.get(run_id or "")


def energy_balance(res: Any) -> dict[str, np.ndarray]:
    """``t`` (s), ``stored`` :math:`H - H_0`, ``supplied`` and ``dissipated`` work (J),
    and ``balance`` = supplied − dissipated − stored (≈ 0)."""
    supplied = np.cumsum(res.work_supplied)
    dissipated = np.cumsum(res.work_dissipated)
    stored = res.H - res.H[0]
    return {"t": res.t, "stored": stored, "supplied": supplied, "dissipated": dissipated,
            "balance": supplied - dissipated - stored}


def result_bytes(res: Any, suffix: str) -> bytes:
    """The result as the file ``porthamiltonian simulate --out FILE.<suffix>`` writes
    (``.csv``, ``.json``, ``.nc``)."""
    from ..simulate.output.export import write_result

    with tempfile.TemporaryDirectory(prefix="workbench-") as tmp:
        path = pathlib.Path(tmp, f"result{suffix}")
        write_result(res, path)
        return path.read_bytes()
