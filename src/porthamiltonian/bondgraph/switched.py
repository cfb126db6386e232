r"""Switched junctions ``0s`` / ``1s``: an ideal switch as a junction modulated by a signal.

A switched junction (Breedveld, Appendix A.1.4 of Duindam et al., *Modeling and Control
of Complex Physical Systems*, Springer 2009; the "controlled junctions" of hybrid bond
graphs, Mosterman & Biswas 1998; 20-sim's switching junctions) is a 0- or 1-junction
some of whose bonds — the **switched bonds**, named by ``switched:`` — are connected
only while the switch signal ``s`` (``switch:``, an expression in the parameters, 1 =
on, 0 = off) is on.  With the reference bond ``r`` (the first bond that is not
switched), bond signs :math:`\sigma_i = +1` in, :math:`-1` out, ``U`` the unswitched
and ``W`` the switched bonds:

=============  ===============================================  ==========================
junction       equations                                         off (``s = 0``)
=============  ===============================================  ==========================
``0s``         :math:`e_i = e_r\ (i\in U)`, :math:`e_k = s\,e_r\   a switched bond has zero
               (k \in W)`, :math:`\sum_U \sigma_i f_i + s\sum_W     effort and its flow
               \sigma_k f_k = 0`                                  leaves the balance
``1s``         :math:`f_i = f_r\ (i\in U)`, :math:`f_k = s\,f_r\   a switched bond has zero
               (k \in W)`, :math:`\sum_U \sigma_i e_i + s\sum_W     flow and its effort
               \sigma_k e_k = 0`                                  leaves the balance
=============  ===============================================  ==========================

Power is conserved for every ``s``: :math:`\sum_i \sigma_i e_i f_i = e_r(\sum_U \sigma_i
f_i + s\sum_W \sigma_k f_k) = 0` for ``0s`` (dually for ``1s``).  Each switched bond is
thus attached through a transformer of modulus ``s`` (bond 1 on the junction's side,
:math:`e_1 = s e_2`, :math:`f_2 = s f_1` in graph.py's convention) — the
power-conserving equivalent of the switch, *modulated by a signal, not by a state*: the
generated PHS has ``J(s)`` skew for every ``s`` and ``s`` appears linearly, exactly as in
a hand-written switched PHS (the boost converter's ``J(S)``).

Physics assumed (ideal switch).  In a ``1s`` (a series loop, one current) a switched bond
off carries no flow and the loop closes without it: a change-over switch, the ideal
transistor–diode pair of a power converter (on: the branch is in the loop; off: bypassed).
A ``0s`` is its dual (a node; off, the branch is shorted, zero effort, and cut from the
node).  The switch is lossless and instantaneous; no storage is forced by the switch (at
least one bond of the junction stays unswitched, so the junction's common variable is
always defined): a model in which the switch would force a storage's state to jump
(Mosterman's fully-off junction: an impulse) is outside this form.  Values of ``s``
between 0 and 1 are the averaged (duty-ratio) model.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import sympy as sp

# Types of graph.py, which imports this module (the element types and the checks):
# spelled Any here so that the two modules do not import each other.
BondGraph = Element = Bond = Any

#: the switched junction types (graph.py adds them to its element TYPES)
SWITCHED = ("0s", "1s")

__all__ = ["SWITCHED", "switched_bonds", "switched_flags", "switch_problems",
           "switched_rows", "switched_structure"]


def switched_bonds(bg: BondGraph, el: Element) -> list[bool]:
    """For each bond of ``el`` (in :meth:`BondGraph.bonds_of` order): is it switched?

    ``switched:`` names neighbour elements (every bond to them is switched) or bonds.
    """
    return switched_flags(el, bg.bonds_of(el.name))


def switched_flags(el: Element, bonds: list[Bond]) -> list[bool]:
    """For each of ``bonds`` (the bonds of ``el``): is it switched?"""
    names = set(el.params.get("switched", ()))
    return [b.name in names or (b.head if b.tail == el.name else b.tail) in names
            for b in bonds]


def switch_problems(bg: BondGraph, el: Element, bonds: list[Bond]) -> Iterable[str]:
    """What is wrong with the switch signal or the switched bonds of ``el``, with the fix."""
    s = el.params.get("switch")
    if s is None:
        yield (f"{el.where()} has no switch signal; give switch: (a parameter driven by "
               "simulate.modulation, e.g. switch: S, or an expression such as 1 - S)")
    elif isinstance(s, sp.MatrixBase) or not isinstance(s, sp.Expr):
        yield f"{el.where()}: switch must be one scalar expression, got {s!r}"
    else:
        states = {sp.Symbol(n, real=True) for n in bg.state_names()}
        if s.free_symbols & states:
            bad = ", ".join(sorted(str(x) for x in s.free_symbols & states))
            yield (f"{el.where()}: switch {s} depends on the state(s) {bad}; a switched "
                   "junction is driven by a signal (a parameter, modulated in simulate:); "
                   "a state-dependent ratio is an MTF")
        unknown = sorted(str(x) for x in s.free_symbols - states
                         if str(x) not in bg.parameters)
        if unknown:
            yield (f"{el.where()}: switch {s} uses the unknown name(s) {', '.join(unknown)}; "
                   f"declare them as parameters (e.g. {unknown[0]}: null, set by "
                   "simulate.modulation)")
        value = _number(s, bg.parameters)
        if value is not None and not 0 <= value <= 1:
            shown = f"{value:g}" if s.is_number else f"{s} = {value:g}"
            yield (f"{el.where()}: switch {shown} is outside [0, 1]; a switch is 1 "
                   "(on) or 0 (off), a value in between the duty ratio of an averaged model")
    names = el.params.get("switched")
    if not names:
        yield (f"{el.where()} has no switched bonds; give switched: [the neighbour(s) it "
               "connects and disconnects]")
        return
    if isinstance(names, str) or not all(isinstance(n, str) for n in names):
        yield f"{el.where()}: switched must be a list of element or bond names, got {names!r}"
        return
    ends = {b.name for b in bonds} | {b.head if b.tail == el.name else b.tail for b in bonds}
    stray = [n for n in names if n not in ends]
    if stray:
        yield (f"{el.where()}: switched names {', '.join(map(repr, stray))}, which is not a "
               f"neighbour or bond of it; its neighbours are "
               f"{', '.join(sorted(ends - {b.name for b in bonds}))}")
    flags = switched_bonds(bg, el)
    if flags and all(flags):
        yield (f"{el.where()}: every bond is switched; keep at least one bond unswitched "
               "(the junction's common variable), e.g. the one to the source side")


def _number(s: sp.Expr, parameters: dict[str, Any]) -> float | None:
    """The switch's value when every parameter in it has a number, else None."""
    values = {}
    for x in s.free_symbols:
        v = parameters.get(str(x))
        if v is None:
            return None
        values[x] = v
    try:
        return float(s.xreplace({k: sp.sympify(v) for k, v in values.items()}))
    except (TypeError, ValueError, sp.SympifyError):
        return None


def switched_rows(eq: Any, bg: BondGraph, el: Element, e: Callable, f: Callable,
                  coefficient: Callable[[Any], Any]) -> None:
    """Add the equations of a switched junction to ``eq`` (:mod:`.equations`)."""
    bonds = bg.bonds_of(el.name)
    signs = [1 if b.head == el.name else -1 for b in bonds]
    flags = switched_bonds(bg, el)
    s = coefficient(el.params["switch"])
    ref = bonds[flags.index(False)]
    summed, shared = (f, e) if el.kind == "0" else (e, f)
    for c in range(ref.dim):
        eq.add(el.name, {summed(b, c): (sg * s if w else sg)
                         for b, sg, w in zip(bonds, signs, flags, strict=True)})
        for b, w in zip(bonds, flags, strict=True):
            if b is not ref:
                eq.add(el.name, {shared(b, c): 1, shared(ref, c): -(s if w else 1)})


def switched_structure(el: Element, bonds: list[Bond], flags: list[bool], signs: list[int],
                       n: int) -> tuple[sp.Matrix, sp.Matrix]:
    """``(F, E)`` of one component of a switched junction in :mod:`.dirac_path`'s port
    variables (flows counted into the junction, ``F f + E e = 0``)."""
    s = el.params["switch"]
    r = flags.index(False)
    F, E = sp.zeros(n, n), sp.zeros(n, n)
    gain = [s if w else 1 for w in flags]
    rows = [i for i in range(n) if i != r]
    if el.kind == "0":  # Σ g_i f_i = 0 (flows already signed), e_i = g_i e_r
        F[0, :] = sp.Matrix([gain])
        for k, i in enumerate(rows, 1):
            E[k, i], E[k, r] = 1, -gain[i]
    else:  # Σ g_i σ_i e_i = 0, σ_i f_i = g_i σ_r f_r
        E[0, :] = sp.Matrix([[g * sg for g, sg in zip(gain, signs, strict=True)]])
        for k, i in enumerate(rows, 1):
            F[k, i], F[k, r] = signs[i], -gain[i] * signs[r]
    return F, E
