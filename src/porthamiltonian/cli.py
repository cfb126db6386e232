"""Command line: ``porthamiltonian`` (also ``python -m porthamiltonian``), DESIGN.md §3.

Error discipline (contract): a user error prints exactly one line ``error: …`` on
stderr and exits with status 2 — never a traceback.  ``validate`` lists every
problem it finds, one per line, then the one ``error:`` line.  Set
``PORTHAMILTONIAN_DEBUG=1`` to see tracebacks of internal errors.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
from collections.abc import Callable, Sequence

from . import __version__
from .errors import ModelError

EXIT_USER_ERROR = 2


class _Parser(argparse.ArgumentParser):
    """argparse with the one-line ``error:`` discipline."""

    def error(self, message: str) -> None:  # type: ignore[override]
        sys.stderr.write(f"error: {message} (see '{self.prog} --help')\n")
        raise SystemExit(EXIT_USER_ERROR)


def _cmd_validate(args: argparse.Namespace) -> int:
    from .errors import SchemaError
    from .io import load_model

    try:
        problems, note = _build_problems(load_model(args.model))
    except SchemaError as err:  # the file format: every problem found
        problems, note = err.problems, ""
    if problems:
        for p in problems:
            print(f"  {p}", file=sys.stderr)
        n = len(problems)
        raise ModelError(f"{args.model}: {n} problem{'s' if n > 1 else ''} found (listed above)")
    print(f"{args.model}: valid{note}")
    return 0


def _build_problems(model) -> tuple[list[str], str]:  # noqa: ANN001 - io.Model
    """Problems found when compiling a schema-valid model to the IR (structure checks).

    Returns the problems (located by the compiler) and a note for the success line.
    """
    from .build import COMPILERS, build_system

    if model.kind not in COMPILERS:
        return [], (f" (file format checked; this version does not yet compile "
                    f"'{model.kind}' models to a port-Hamiltonian system)")
    try:
        build_system(model)
    except ModelError as err:
        return err.problems, ""
    return [], ""


def _cmd_phs(args: argparse.Namespace) -> int:
    from .build import build_system
    from .descriptor import DescriptorPHS
    from .errors import NoExplicitFormError
    from .io import load_model
    from .serialize import phs_to_latex

    system = build_system(load_model(args.model))
    if not (isinstance(system, DescriptorPHS) or hasattr(system, "to_dict")):
        # a numeric-only model (a mechanism with flexible links)
        return _numeric_only(system, args)
    if isinstance(system, DescriptorPHS):
        try:
            system = system.to_phs()
        except NoExplicitFormError as err:  # e.g. a mechanism: show the pH-DAE itself
            return _descriptor(system, args, str(err))
    if args.json:
        print(json.dumps(system.to_dict(), indent=2))
    elif args.latex:
        print(phs_to_latex(system, max_size=10**9))
    else:
        _print_phs(system)
    return 0


def _numeric_only(system, args: argparse.Namespace) -> int:  # noqa: ANN001
    """A model assembled numerically only (no symbolic matrices to print): its names."""
    if args.json or args.latex:
        raise ModelError(f"{args.model}: this model is assembled numerically only (a "
                         "mechanism with flexible links has no symbolic form), so there are "
                         "no matrices to print as JSON or LaTeX; simulate it instead")
    states, lam = list(system.states), list(getattr(system, "multipliers", []))
    print(f"{args.model}: a numeric port-Hamiltonian DAE with {len(states)} states, "
          f"{len(lam)} constraints, {len(getattr(system, 'inputs', []))} ports")
    print(f"  multipliers λ = {lam}")
    print(f"  inputs  u = {list(getattr(system, 'inputs', []))}")
    print(f"  outputs y = {list(getattr(system, 'outputs', []))}")
    print("  note: assembled numerically (flexible links have no symbolic form); "
          "`porthamiltonian simulate` runs it")
    return 0


def _descriptor(system, args: argparse.Namespace, why: str) -> int:  # noqa: ANN001
    """A DescriptorPHS without explicit form (``E ẋ = (J − R)z + Bλ + (G − P)u``,
    ``0 = Bᵀz``): with ``--json`` the ``phs --json`` object of its ``(J, R, G, P, M, S,
    H)`` part plus ``E``, ``B`` and ``multipliers``; else a summary."""
    from .printing import entry_to_json

    if args.latex:
        raise ModelError(f"{args.model}: --latex prints explicit models only, and {why}")
    d = system.core.to_dict()
    if args.json:
        for key in ("E", "B"):
            d[key] = [[entry_to_json(v) for v in row] for row in getattr(system, key).tolist()]
        d["multipliers"] = list(system.multipliers)
        print(json.dumps(d, indent=2))
        return 0
    print(f"{d['name'] or 'model'}: a port-Hamiltonian DAE with {len(d['states'])} states, "
          f"{len(system.multipliers)} constraints, {len(d['inputs'])} ports")
    print("  E ẋ = (J − R) ∇H + B λ + (G − P) u,  0 = Bᵀ ∇H,  y = (G + P)ᵀ ∇H + (M + S) u")
    print(f"  states  x = {d['states']}")
    print(f"  multipliers λ = {list(system.multipliers)}")
    print(f"  inputs  u = {d['inputs']}")
    print(f"  outputs y = {d['outputs']}")
    print(f"  H = {d['hamiltonian']}")
    print(f"  note: no explicit form ({why})")
    return 0


def _print_phs(system) -> None:  # noqa: ANN001 - PHS
    d = system.to_dict()
    print(f"{d['name'] or 'model'}: {len(d['states'])} states, {len(d['inputs'])} ports")
    print(f"  states  x = {d['states']}")
    print(f"  inputs  u = {d['inputs']}")
    print(f"  outputs y = {d['outputs']}")
    for k in ("J", "R", "G", "P", "M", "S"):
        if any(v not in (0, 0.0) for row in d[k] for v in row):
            print(f"  {k} = {d[k]}")
    print(f"  H = {d['hamiltonian']}")
    for a in system.assumptions:
        print(f"  assuming {a}")
    if getattr(system, "reduction", None):
        print(f"  note: {system.reduction}")


def _cmd_check(args: argparse.Namespace) -> int:
    from .bondgraph.check_command import run_check

    return run_check(args.model)


def _cmd_draw(args: argparse.Namespace) -> int:
    from .bondgraph.draw_command import run_draw

    return run_draw(args.model, args.out, causality=not args.no_causality)


def _cmd_demo(args: argparse.Namespace) -> int:
    from .demo import run

    run(out=args.out, plot=not args.no_plot)
    return 0


def build_parser() -> argparse.ArgumentParser:
    p = _Parser(
        prog="porthamiltonian",
        description="Port-based modeling, simulation and control of multi-physics systems.",
    )
    p.add_argument("--version", action="version", version=f"porthamiltonian {__version__}")
    sub = p.add_subparsers(dest="command", metavar="COMMAND", parser_class=_Parser)

    v = sub.add_parser("validate", help="check a model file and report every problem found")
    v.add_argument("model", help="model file (.yaml, .yml or .json)")
    v.set_defaults(func=_cmd_validate)

    ph = sub.add_parser("phs", help="print the explicit port-Hamiltonian model")
    ph.add_argument("model", help="model file (.yaml, .yml or .json)")
    fmt = ph.add_mutually_exclusive_group()
    fmt.add_argument("--json", action="store_true", help="one JSON object (DESIGN.md §3)")
    fmt.add_argument("--latex", action="store_true", help="LaTeX equations")
    ph.set_defaults(func=_cmd_phs)

    from .simulate.command import add_arguments, run_command

    sim = sub.add_parser("simulate", help="simulate a model file; time series to CSV/JSON")
    add_arguments(sim)
    sim.set_defaults(func=run_command)

    ck = sub.add_parser("check", help="causality of a bond graph, in words (SCAP)")
    ck.add_argument("model", help="model file (.yaml, .yml or .json) with a bondgraph section")
    ck.set_defaults(func=_cmd_check)

    dr = sub.add_parser("draw", help="draw a bond graph: half-arrows, causal strokes, problems")
    dr.add_argument("model", help="model file (.yaml, .yml or .json) with a bondgraph section")
    dr.add_argument("--out", required=True, help="image file (.svg, .png or .pdf)")
    dr.add_argument("--no-causality", action="store_true",
                    help="draw the graph only (no causal strokes, no highlighting)")
    dr.set_defaults(func=_cmd_draw)

    d = sub.add_parser("demo", help="run the main worked example (DC motor) and plot it")
    d.add_argument("--out", default="porthamiltonian-demo.png", help="plot file (PNG/SVG/PDF)")
    d.add_argument("--no-plot", action="store_true", help="print only")
    d.set_defaults(func=_cmd_demo)
    return p


def main(argv: Sequence[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "command", None):
        parser.print_help()
        return 0
    func: Callable[[argparse.Namespace], int] = args.func
    try:
        return func(args)
    except ModelError as err:
        print(f"error: {_one_line(str(err))}", file=sys.stderr)
        return EXIT_USER_ERROR
    except FileNotFoundError as err:
        print(f"error: file not found: {err.filename}", file=sys.stderr)
        return EXIT_USER_ERROR
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except Exception as err:  # an internal bug: still one line unless debugging
        if os.environ.get("PORTHAMILTONIAN_DEBUG"):
            raise
        print(
            f"error: internal error ({type(err).__name__}: {_one_line(str(err))}); please "
            "report it with the model file (PORTHAMILTONIAN_DEBUG=1 shows the traceback)",
            file=sys.stderr,
        )
        return 1


def _one_line(text: str) -> str:
    return " ".join(text.split())


if __name__ == "__main__":  # pragma: no cover
    raise SystemExit(main())
