r"""Reactions in stoichiometric notation: ``"2 H2 + O2 -> 2 H2O"``, ``"A + E <=> C"``.

Grammar (spaces are free between tokens)::

    reaction := side arrow side
    arrow    := "->" | "→"                    (irreversible: backward flux dropped)
              | "<=>" | "<->" | "⇌"           (reversible)
    side     := term ("+" term)*
    term     := [coefficient] species
    coefficient := positive integer or decimal ("2", "0.5", "1.5"), kept exact
    species  := identifier ([A-Za-z_][A-Za-z0-9_]*)

A species may appear on both sides (a catalyst, ``"E + S -> E + P"``); repeated terms on
one side add up.  There are no source or sink terms (``"A -> 0"``): a reaction network
is closed, and exchange with the environment is written with a *chemostat* (a species
held at a fixed chemical potential, a port of the PHS), which keeps the Gibbs energy
balance explicit (docs/thermo-chemistry.md).  Errors are :class:`ModelError` naming the
reaction text and the 1-based character position of the fault, with a caret under it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from fractions import Fraction

from ...errors import ModelError

__all__ = ["Reaction", "parse_reaction"]

_TOKEN = re.compile(
    r"\s*(?:(?P<arrow><=>|<->|⇌|->|→)|(?P<plus>\+)"
    r"|(?P<num>\d+(?:\.\d*)?(?:[eE][+-]?\d+)?|\.\d+)"
    r"|(?P<name>[A-Za-z_][A-Za-z0-9_]*)|(?P<bad>\S))"
)
_REVERSIBLE = {"<=>", "<->", "⇌"}


@dataclass(frozen=True)
class Reaction:
    """One parsed reaction.

    Attributes
    ----------
    text : the equation as written.
    reactants, products : ``{species: coefficient}`` (exact positive ``Fraction``) of the
        left and right sides: the forward and backward stoichiometry :math:`\nu^f`,
        :math:`\nu^b`.
    reversible : ``False`` for ``->`` (the backward term of the flux is dropped).
    """

    text: str
    reactants: dict[str, Fraction]
    products: dict[str, Fraction]
    reversible: bool

    @property
    def species(self) -> list[str]:
        """The species of the reaction, in order of appearance."""
        return list(dict.fromkeys([*self.reactants, *self.products]))


def _fail(text: str, pos: int, what: str, where: str) -> ModelError:
    caret = " " * pos + "^"
    return ModelError(f"reaction {where}{text!r}, position {pos + 1}: {what}\n"
                      f"    {text}\n    {caret}")


def parse_reaction(text: str, name: str | None = None) -> Reaction:
    """Parse ``text`` (see the module docstring); ``name`` is quoted in errors."""
    if not isinstance(text, str):
        raise ModelError(f"reaction {name or ''}: the equation must be a string, got "
                         f"{type(text).__name__}")
    where = f"{name} " if name else ""
    tokens: list[tuple[str, str, int]] = []
    for m in _TOKEN.finditer(text):
        kind = m.lastgroup
        if kind is None:
            continue
        tokens.append((kind, m.group(kind), m.start(kind)))
        if kind == "bad":
            raise _fail(text, m.start(kind), f"unexpected character {m.group(kind)!r}", where)
    end = len(text.rstrip())
    arrows = [t for t in tokens if t[0] == "arrow"]
    if not arrows:
        raise _fail(text, end, "no arrow ('->' or '<=>')", where)
    if len(arrows) > 1:
        raise _fail(text, arrows[1][2], "a second arrow", where)
    k = tokens.index(arrows[0])
    left = _side(tokens[:k], text, where, arrows[0][2])
    right = _side(tokens[k + 1:], text, where, end)
    return Reaction(text, left, right, arrows[0][1] in _REVERSIBLE)


def _side(tokens: list[tuple[str, str, int]], text: str, where: str,
          end: int) -> dict[str, Fraction]:
    """``{species: coefficient}`` of one side; ``end`` is where the side stops."""
    out: dict[str, Fraction] = {}
    i = 0
    if not tokens:
        raise _fail(text, end, "a side without species (sources and sinks such as "
                    "'A -> 0' are not reactions: hold a species with 'chemostats')", where)
    while True:
        coef = Fraction(1)
        if i < len(tokens) and tokens[i][0] == "num":
            _, value, pos = tokens[i]
            coef = Fraction(value)
            followed = i + 1 < len(tokens) and tokens[i + 1][0] == "name"
            if coef == 0 and not followed:
                raise _fail(text, pos, "'0' (a source or sink) is not a species; hold a "
                            "species at fixed potential with 'chemostats' instead", where)
            if coef <= 0:
                raise _fail(text, pos, f"coefficient {value} is not positive", where)
            i += 1
        if i >= len(tokens) or tokens[i][0] != "name":
            pos = tokens[i][2] if i < len(tokens) else end
            raise _fail(text, pos, "expected a species name", where)
        species = tokens[i][1]
        out[species] = out.get(species, Fraction(0)) + coef
        i += 1
        if i == len(tokens):
            return out
        if tokens[i][0] != "plus":
            raise _fail(text, tokens[i][2], "expected '+' or the arrow", where)
        i += 1
        if i == len(tokens):
            raise _fail(text, end, "a '+' without a term after it", where)
