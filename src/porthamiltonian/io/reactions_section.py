"""The ``reactions`` section of a model file: a mass-action reaction network.

::

    reactions:
      temperature: 310 K              # or RT: 2.577 kJ/mol (default 298.15 K)
      volume: 1e-15 m^3               # V (default 1 m^3)
      standard_concentration: 1000    # c° in mol/m^3 (default 1; 1000 = 1 mol/L)
      basis: concentration            # or mole_fraction
      species:                        # name: {mu0: J/mol} (or a list of names: mu0 = 0)
        A: {mu0: 0}
        B: {mu0: -2 kJ/mol}
      reactions:                      # name: {equation, kappa (mol/s)} or
        r1: {equation: "A <=> B", kappa: 1.0}   # {equation, k_forward, k_backward}
      chemostats: {C: -1 kJ/mol}      # species held at this potential (input mu_C,
                                      # default this value; parameter chemostat_C)
      flow_sources: [X]               # species with an inflow input (ports flow_X)
      form: auto                      # symbolic | numeric | auto (symbolic ≤ 12 reactions)

Either every reaction gives ``kappa`` (with the species' ``mu0``: consistent by
construction) or every reaction gives rate constants (``k_backward`` for ``<=>`` only;
``mu0`` then follows from them and must not be given; Wegscheider's condition is
checked).  Initial amounts (mol, > 0) go under ``simulate: initial:`` like any state.
Numbers may carry units (converted to SI).  Errors name the line: the equation's for a
parse error, the section's for a network-level one (an inconsistent cycle).

The checked section is ``{"network": keyword arguments of ReactionNetwork, "form": str}``.
"""

from __future__ import annotations

from typing import Any

from ..errors import ModelError
from ..thermo.reactions.parse import parse_reaction
from .schema import Checker, KeyPath, Section, label_of

__all__ = ["check_reactions", "build_reactions", "held_inputs"]

_KEYS = ("temperature", "RT", "volume", "standard_concentration", "basis", "species",
         "reactions", "chemostats", "flow_sources", "form")
_REACTION_KEYS = ("equation", "kappa", "k_forward", "k_backward")


def check_reactions(ck: Checker, value: Any, path: KeyPath) -> Section:
    """Check a ``reactions`` section (see the module docstring)."""
    from ..thermo.reactions.network import BASES, ReactionNetwork
    from ..thermo.reactions.phs_form import port_names

    label = label_of(path)
    start = len(ck.problems)
    section = ck.mapping(value, path, label)
    if section is None:
        return Section({}, None, None)
    ck.keys(section, path, label, _KEYS, ("species", "reactions"), "in a reactions section")
    kw: dict[str, Any] = {}
    for key, arg in (("temperature", "temperature"), ("RT", "RT"), ("volume", "volume"),
                     ("standard_concentration", "c_standard")):
        if key in section:
            x = ck.number(section[key], (*path, key), f"{label}.{key}", positive=True)
            if x is not None:
                kw[arg] = x
    basis = section.get("basis", "concentration")
    if basis not in BASES:
        ck.error((*path, "basis"), f"{label}.basis", f"{basis!r}: use {' or '.join(BASES)}")
    kw["basis"] = basis
    species, mu0 = _species(ck, section.get("species"), (*path, "species"), f"{label}.species")
    rates = _reactions(ck, section.get("reactions"), (*path, "reactions"),
                       f"{label}.reactions")
    kw.update(rates)
    if mu0 and "k_forward" in rates:
        ck.error((*path, "species"), f"{label}.species", "mu0 given with rate constants; "
                 "rate constants fix mu0 (give kappa per reaction to set mu0)")
    elif "k_forward" not in rates:
        kw["mu0"] = mu0
    chem = section.get("chemostats") or {}
    if ck.mapping(chem, (*path, "chemostats"), f"{label}.chemostats") is not None:
        kw["chemostats"] = [str(c) for c in chem]
        kw["chemostat_mu"] = {str(c): ck.number(v, (*path, "chemostats", c),
                                                f"{label}.chemostats.{c}") for c, v in chem.items()}
    flows = section.get("flow_sources") or []
    if ck.sequence(flows, (*path, "flow_sources"), f"{label}.flow_sources") is not None:
        kw["flow_sources"] = [str(s) for s in flows]
    form = section.get("form", "auto")
    if form not in ("auto", "symbolic", "numeric"):
        ck.error((*path, "form"), f"{label}.form", f"{form!r}: use auto, symbolic or numeric")
    data = {"network": {"species": species, **kw}, "form": form}
    try:
        if len(ck.problems) == start and species is not None and rates.get("reactions"):
            net = ReactionNetwork(**data["network"])
            inputs, outputs = port_names(net)
            return Section(data, list(net.free), inputs, outputs)
    except (ModelError, TypeError, ValueError) as err:
        ck.error(path, label, str(err))
    return Section(data, None, None)


def _species(ck: Checker, raw: Any, path: KeyPath,
             label: str) -> tuple[list[str] | None, dict[str, float]]:
    mu0: dict[str, float] = {}
    if isinstance(raw, list):
        names = [ck.identifier(s, (*path, k), f"{label}[{k}]", "species")
                 for k, s in enumerate(raw)]
        return [n for n in names if n is not None], mu0
    entries = ck.mapping(raw, path, label)
    if entries is None:
        return None, mu0
    names = []
    for name, spec in entries.items():
        sname = ck.identifier(name, (*path, name), label, "species")
        if sname is None:
            continue
        names.append(sname)
        if spec is None:
            continue
        item = ck.mapping(spec, (*path, name), f"{label}.{name}")
        if item is None:
            continue
        ck.keys(item, (*path, name), f"{label}.{name}", ("mu0",), what="for a species")
        if "mu0" in item:
            x = ck.number(item["mu0"], (*path, name, "mu0"), f"{label}.{name}.mu0")
            if x is not None:
                mu0[sname] = x
    return names, mu0


def _reactions(ck: Checker, raw: Any, path: KeyPath, label: str) -> dict[str, Any]:
    entries = ck.mapping(raw, path, label)
    if entries is None:
        return {}
    eqs: dict[str, str] = {}
    kappa: dict[str, float] = {}
    kf: dict[str, float] = {}
    kb: dict[str, float] = {}
    for name, spec in entries.items():
        rname = ck.identifier(name, (*path, name), label, "reaction")
        rlabel = f"{label}.{name}"
        item = ck.mapping(spec, (*path, name), rlabel) if rname else None
        if item is None:
            continue
        ck.keys(item, (*path, name), rlabel, _REACTION_KEYS, ("equation",), "for a reaction")
        try:
            parse_reaction(item.get("equation"), rname)
            eqs[rname] = item.get("equation")
        except ModelError as err:
            ck.report((*path, name, "equation"), f"{rlabel}.equation: {err}")
        for key, store in (("kappa", kappa), ("k_forward", kf), ("k_backward", kb)):
            if key in item:
                x = ck.number(item[key], (*path, name, key), f"{rlabel}.{key}", positive=True)
                if x is not None:
                    store[rname] = x
    if kf or kb:
        if kappa:
            ck.error(path, label, "give kappa for every reaction or rate constants "
                     "(k_forward, k_backward) for every reaction, not a mix")
        return {"reactions": eqs, "k_forward": kf, "k_backward": kb}
    return {"reactions": eqs, "kappa": kappa}


def held_inputs(model: Any) -> dict[str, float]:
    """``{mu_<C>: potential}`` (J/mol) for every chemostat of a ``reactions`` model: the
    input a run uses when ``simulate: inputs:`` does not give it (the potential the
    chemostat holds, where its reactions' conductances are evaluated)."""
    net = model.section["network"]
    return {f"mu_{c}": float(v) for c, v in (net.get("chemostat_mu") or {}).items()}


def build_reactions(model: Any) -> Any:
    """The PHS of a checked ``reactions`` section."""
    from ..thermo.reactions.network import ReactionNetwork

    data = model.section
    net = ReactionNetwork(**data["network"])
    return net.to_phs(data["form"], name=model.name or "reactions")
