"""The commands of ``porthamiltonian``: name, one-line help, options, and how each runs.

This module is what ``porthamiltonian --help`` (and every ``COMMAND --help``) imports:
argparse and nothing else — no SymPy, SciPy, Matplotlib, nor the model files.  A
command's implementation (the sibling module of the same name, which imports
:mod:`porthamiltonian.io`, the simulator, …) is imported only when that command runs
(docs/cli.md, "Start-up").

A new command is one :class:`Command` in :data:`COMMANDS` — its options here, its work in
a new sibling module with ``run_command(args) -> int`` (docs/design.md).
"""

from __future__ import annotations

import argparse
import importlib
from collections.abc import Callable
from dataclasses import dataclass

__all__ = ["Command", "COMMANDS", "METHOD_NAMES"]

#: the simulation methods ``simulate --help`` lists: the names of
#: ``porthamiltonian.simulate.METHODS`` in its order, kept here so that the help needs no
#: simulator (``tests/test_startup.py`` checks that they are the same)
METHOD_NAMES: tuple[str, ...] = (
    "auto", "midpoint", "discrete_gradient", "avf", "avf4", "avf6", "gauss1", "gauss2",
    "gauss3", "gauss4", "gauss5", "gauss6", "rk4", "ida", "RK45", "DOP853", "Radau", "BDF",
    "LSODA", "RK23",
)


@dataclass(frozen=True)
class Command:
    """One command: ``name`` and ``help`` (its line in ``--help``) and ``add_arguments``
    (its options, declared without importing anything heavy); :meth:`run` imports the
    implementation, the sibling module called ``name``."""

    name: str
    help: str
    add_arguments: Callable[[argparse.ArgumentParser], None]

    def run(self, args: argparse.Namespace) -> int:
        """Import the command's module, run it, return the exit status."""
        return importlib.import_module(f".{self.name}", __package__).run_command(args)


# ----------------------------------------------------------------------------- validate
def _validate_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", nargs="+",
                   help="model file(s) (.yaml, .yml or .json); several are checked in one "
                        "process (one start-up)")
    _limit_argument(p)
    p.add_argument("--strict", action="store_true",
                   help="treat warnings (negative storage values, an energy not bounded "
                        "below) as errors")
    p.add_argument("--watch", action="store_true",
                   help="check again whenever a model file or a file of its folder "
                        "changes, until Ctrl-C")
    p.add_argument("--interval", type=float, default=None, metavar="S",
                   help="with --watch: seconds between looks for changes (default 0.5)")



# ---------------------------------------------------------------------------------- phs
def _phs_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", help="model file (.yaml, .yml or .json)")
    _limit_argument(p)
    fmt = p.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="one JSON object (docs/cli.md)")
    fmt.add_argument("--latex", action="store_true", help="LaTeX equations")



def _limit_argument(p: argparse.ArgumentParser) -> None:
    p.add_argument("--limit", action="append", metavar="NAME=VALUE",
                   help="raise a safety limit for this file: file_mb, nodes, dimension, "
                        "table_mb (docs/model-files.md, \"Limits and safety\")")
    p.add_argument("--allow-path", action="append", metavar="DIR",
                   help="let the model read files (CSV inputs) in DIR too; by default only "
                        "its own folder")


# ----------------------------------------------------------------------------- simulate
def _run_arguments(p: argparse.ArgumentParser) -> None:
    """What overrides a model file's ``simulate:`` section (``simulate`` and ``sweep``)."""
    p.add_argument("--t-end", type=float, help="end time in s (default: simulate.t_end)")
    p.add_argument("--dt", type=float,
                   help="fixed step in s (default: simulate.dt; without one, adaptive steps)")
    p.add_argument("--method", help=f"one of {', '.join(METHOD_NAMES)} "
                   "(default: simulate.method or auto)")


def _simulate_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", help="model file (.yaml, .yml or .json)")
    _limit_argument(p)
    _run_arguments(p)
    p.add_argument("--rtol", type=float, default=1e-6,
                   help="relative local error tolerance of adaptive steps (default 1e-6)")
    p.add_argument("--atol", type=float, default=1e-9,
                   help="absolute local error tolerance of adaptive steps (default 1e-9)")
    p.add_argument("--save-every", type=int, default=1, metavar="N",
                   help="save every N-th step (and the last); default 1")
    p.add_argument("--out", help="write the time series to FILE.csv (streamed), FILE.json, FILE.nc "
                        "(netCDF) or FILE.parquet (the last two need the data extra)")
    p.add_argument("--plot", help="save a plot (PNG/SVG/PDF)")
    p.add_argument("--max-steps", type=int, default=None, metavar="N",
                   help="most steps the run may take (default 1e8; longer runs are refused "
                        "before they start)")
    p.add_argument("--strict", action="store_true",
                   help="treat warnings (negative storage values, an energy not bounded "
                        "below) as errors")
    p.add_argument("--plot-vars", metavar="NAMES",
                   help="comma-separated variables to plot (e.g. L1.i,C1.v; default: the "
                        "co-energies, or a mechanism's joint angles and rates)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")



# -------------------------------------------------------------------------------- check
def _check_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", help="model file (.yaml, .yml or .json) with a bondgraph section")
    _limit_argument(p)



# --------------------------------------------------------------------------------- draw
def _draw_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", help="model file (.yaml, .yml or .json) with a bondgraph section")
    _limit_argument(p)
    p.add_argument("--out", required=True, help="image file (.svg, .png or .pdf)")
    p.add_argument("--no-causality", action="store_true",
                   help="draw the graph only (no causal strokes, no highlighting)")



# --------------------------------------------------------------------------------- demo
def _demo_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--out", default="porthamiltonian-demo.png", help="plot file (PNG/SVG/PDF)")
    p.add_argument("--no-plot", action="store_true", help="print only")



# -------------------------------------------------------------------------------- sweep
def _executor_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("--scheduler", metavar="ADDRESS",
                   help="run on a Dask cluster, e.g. tcp://host:8786 (the cluster extra); "
                        "default: a pool of local processes")
    p.add_argument("--workers", type=int, metavar="N",
                   help="local worker processes (default: the CPUs available; 1 = this "
                        "process only)")
    p.add_argument("--no-progress", action="store_true", help="no progress bar on stderr")


def _sweep_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", help="model file (.yaml, .yml or .json)")
    _limit_argument(p)
    p.add_argument("--param", action="append", default=[], metavar="NAME=VALUES",
                   help="a swept parameter: NAME=a,b,c (values), NAME=start:stop:count (a "
                        "linear range) or, with --samples, NAME=low:high (sampled range); "
                        "repeat for each parameter (the grid is their product)")
    p.add_argument("--samples", type=int, metavar="N",
                   help="draw N points in the --param ranges instead of the full grid")
    p.add_argument("--sampling", choices=("lhs", "random"), default="lhs",
                   help="with --samples: Latin hypercube (default) or plain Monte Carlo")
    p.add_argument("--seed", type=int, default=0, help="random seed of --samples (default 0)")
    p.add_argument("--table", metavar="FILE.csv",
                   help="the parameter points as a CSV table, one column per parameter")
    _run_arguments(p)
    p.add_argument("--points", type=int, default=None, metavar="N",
                   help="saved times per run, evenly spaced (default 501)")
    p.add_argument("--keep", choices=("series", "summary"), default="series",
                   help="series: every variable over time (default); summary: final "
                        "values and statistics only")
    p.add_argument("--out", help="write the dataset (dimensions run × time) to FILE.nc "
                        "(netCDF, streamed while the runs finish; the data extra)")
    _executor_arguments(p)


# ---------------------------------------------------------------------------------- fit
def _fit_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", help="model file (.yaml, .yml or .json)")
    _limit_argument(p)
    p.add_argument("--data", required=True, metavar="FILE.csv",
                   help="measured time series: a column t (s) and one column per measured "
                        "variable, named as in the results (e.g. q, mass.v, L1.i)")
    p.add_argument("--param", action="append", default=[], metavar="NAME=GUESS|LOW:HIGH",
                   help="a parameter to fit: NAME=guess, NAME=low:high or "
                        "NAME=low:high:guess; repeat for each")
    p.add_argument("--starts", type=int, default=1, metavar="N",
                   help="multi-start: N starting points in the bounds (default 1)")
    p.add_argument("--seed", type=int, default=0, help="random seed of the starts (default 0)")
    p.add_argument("--out", help="write the fit (values, standard errors, 95%% intervals) "
                        "to FILE.json")
    p.add_argument("--plot", help="save a plot of the fit against the data (PNG/SVG/PDF)")
    _executor_arguments(p)


# ------------------------------------------------------------------------------- export
def _export_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", help="model file (.yaml, .yml or .json) with a phs, bondgraph "
                   "or network section")
    _limit_argument(p)
    p.add_argument("--fmu", metavar="FILE.fmu",
                   help="write a Functional Mock-up Unit (docs/export.md)")
    p.add_argument("--matrices", metavar="FILE.mat|FILE.npz",
                   help="write a linear model's E, J, R, Q, G, P, S, N in the layout of the "
                        "pH benchmark collection (docs/export.md)")
    p.add_argument("--kind", choices=("me", "cs"), default="cs",
                   help="cs: Co-Simulation, the FMU steps with the library's structure-"
                        "preserving method (default); me: Model Exchange, the importer's "
                        "solver integrates")
    p.add_argument("--fmi", choices=("2", "3", "2.0", "3.0"), default="3.0",
                   help="FMI version (default 3.0; 2.0 for older importers)")
    p.add_argument("--method", choices=("midpoint", "discrete_gradient"),
                   help="co-simulation step (default: simulate.method when it is one of "
                        "these, else midpoint)")
    p.add_argument("--dt", type=float,
                   help="largest internal co-simulation step in s (default: simulate.dt; "
                        "without one, one step per communication step)")
    p.add_argument("--no-compile", action="store_true",
                   help="write the C sources only (no binary for this machine)")
    p.add_argument("--json", action="store_true", help="report as one JSON object")


# -------------------------------------------------------------------------------- modes
def _modes_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", help="model file (.yaml, .yml or .json)")
    _limit_argument(p)
    p.add_argument("--count", type=int, default=6,
                   help="how many of the lowest natural frequencies (default 6)")
    p.add_argument("--json", action="store_true", help="one JSON object (docs/cli.md)")


# -------------------------------------------------------------------------------- serve
#: the workbench's default port (docs/workbench.md)
SERVE_PORT = 8765


def _serve_arguments(p: argparse.ArgumentParser) -> None:
    p.add_argument("model", nargs="?", default=None,
                   help="model file to open (.yaml, .yml or .json); its folder is the only "
                        "one the workbench reads and writes (default: the current folder)")
    p.add_argument("--port", type=int, default=SERVE_PORT,
                   help=f"port to listen on (default {SERVE_PORT}; 0: any free port)")
    p.add_argument("--host", default="127.0.0.1",
                   help="address to listen on (default 127.0.0.1, this machine only); "
                        "another address lets other machines use the workbench — and read "
                        "and write model files in its folder")
    p.add_argument("--no-browser", action="store_true",
                   help="do not open a browser window; print the address only")


#: every command, in the order ``--help`` lists them
COMMANDS: tuple[Command, ...] = (
    Command("validate", "check model files and report every problem found",
            _validate_arguments),
    Command("phs", "print the explicit port-Hamiltonian model", _phs_arguments),
    Command("simulate", "simulate a model file; time series to CSV/JSON",
            _simulate_arguments),
    Command("sweep", "run a model file for many parameter values; one netCDF dataset",
            _sweep_arguments),
    Command("fit", "fit parameters of a model file to measured time series",
            _fit_arguments),
    Command("export", "export a model file as an FMU (FMI 3.0/2.0, ME or CS) or as matrices",
            _export_arguments),
    Command("modes", "undamped natural frequencies of a model file (Hz, lowest first)",
            _modes_arguments),
    Command("check", "causality of a bond graph, in words (SCAP)", _check_arguments),
    Command("draw", "draw a bond graph: half-arrows, causal strokes, problems",
            _draw_arguments),
    Command("demo", "run the main worked example (DC motor) and plot it",
            _demo_arguments),
    Command("serve", "the browser workbench: draw, check, simulate and plot a bond graph",
            _serve_arguments),
)
