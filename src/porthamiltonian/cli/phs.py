"""``porthamiltonian phs MODEL [--json | --latex]``: print the model's port-Hamiltonian form.

The explicit model when it exists (a summary, one JSON object, or LaTeX equations); a
descriptor model without explicit form (a mechanism) is shown as its pH-DAE, and a model
assembled numerically only (flexible links) by its names.
"""

from __future__ import annotations

import argparse
import json
from typing import Any

from ..errors import ModelError

__all__ = ["run_command"]


def run_command(args: argparse.Namespace) -> int:
    from ..descriptor import DescriptorPHS
    from ..errors import NoExplicitFormError
    from ..io import load_model
    from ..io.build import build_system
    from ..serialize import phs_to_latex

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


def _numeric_only(system: Any, args: argparse.Namespace) -> int:
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


def _descriptor(system: Any, args: argparse.Namespace, why: str) -> int:
    """A DescriptorPHS without explicit form (``E ẋ = (J − R)z + Bλ + (G − P)u``,
    ``0 = Bᵀz``): with ``--json`` the ``phs --json`` object of its ``(J, R, G, P, M, S,
    H)`` part plus ``E``, ``B`` and ``multipliers``; else a summary."""
    from ..printing import entry_to_json

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


def _print_phs(system: Any) -> None:
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
