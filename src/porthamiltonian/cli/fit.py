"""``porthamiltonian fit MODEL --data FILE.csv --param NAME=…`` (docs/ensembles.md):
fit parameters of a model file to measured time series.

The data file has a column ``t`` (s) and one column per measured variable, named as in
the results (``spring``, ``mass.v``, ``L1.i``; a header ``q [mm]`` gives a unit, checked
and converted to SI).  Each ``--param`` is ``NAME=GUESS``, ``NAME=LOW:HIGH`` or
``NAME=LOW:HIGH:GUESS``; ``--starts N`` runs N starts (the guess and a seeded Latin
hypercube in the bounds) on local processes (``--workers``) or a Dask cluster
(``--scheduler``).  The summary table (values, standard errors, 95 % intervals) is
printed; ``--out`` writes it as JSON (:meth:`FitResult.to_dict`), ``--plot`` the fit
against the data.  Every user error is a :class:`ModelError` (one ``error:`` line, exit
status 2), checked before the fit starts where it can be.
"""

from __future__ import annotations

import argparse
import json
import pathlib
import sys
from typing import Any

from ..errors import ModelError

__all__ = ["run_command"]


def run_command(args: argparse.Namespace) -> int:
    """Run the subcommand; user errors raise :class:`ModelError` (exit 2 in ``cli.main``)."""
    from ..ensemble.fit import fit
    from ..ensemble.fit_data import parse_fit_param
    from ..io import load_model

    if args.out:
        _check_file(args.out, (".json",), "--out")
    if args.plot:
        _check_file(args.plot, (".png", ".svg", ".pdf"), "--plot")
    if args.starts < 1:
        raise ModelError(f"--starts must be a positive integer, got {args.starts}")
    params: dict[str, Any] = {}
    for text in args.param:
        name, spec = parse_fit_param(text)
        if name in params:
            raise ModelError(f"--param {name} is given twice; give each parameter once")
        params[name] = spec
    model = load_model(args.model)
    if not params:
        raise ModelError("give the parameters to fit with --param NAME=GUESS or "
                         f"NAME=LOW:HIGH[:GUESS]; the model's parameters: "
                         f"{', '.join(model.parameters) or '(none)'}")
    if args.scheduler:
        executor: Any = args.scheduler
    else:
        executor = "serial" if args.workers == 1 else "processes"
    show = not args.no_progress and args.starts > 1 and sys.stderr.isatty()
    result = fit(model, args.data, params, starts=args.starts, seed=args.seed,
                 executor=executor, workers=args.workers,
                 progress=_progress if show else None)
    if show:
        sys.stderr.write("\r" + " " * 60 + "\r")
    print(result.summary())
    if args.out:
        try:
            pathlib.Path(args.out).write_text(json.dumps(result.to_dict(), indent=2) + "\n",
                                              encoding="utf-8")
        except OSError as err:
            raise ModelError(f"--out {args.out}: cannot write it "
                             f"({err.strerror or err})") from None
    if args.plot:
        result.plot(args.plot)
    return 0


def _progress(done: int, total: int, cost: float) -> None:
    sys.stderr.write(f"\rfit: {done}/{total} starts done (last cost {cost:.4g}) ")
    sys.stderr.flush()


def _check_file(path: str, suffixes: tuple[str, ...], option: str) -> None:
    """Before the fit: a known suffix and a folder that exists (never an error after
    minutes of computing)."""
    p = pathlib.Path(path)
    if p.suffix.lower() not in suffixes:
        raise ModelError(f"{option} {path}: give a file ending in {', '.join(suffixes)}")
    if p.is_dir():
        raise ModelError(f"{option} {path}: it is a folder; give a file name")
    if not p.parent.is_dir():
        raise ModelError(f"{option} {path}: the folder {p.parent} does not exist")
