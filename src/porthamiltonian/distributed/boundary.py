r"""Boundary port causality: what each end of a 1-D domain imposes.

For every field pair (flow field φ in H¹: velocity, current, temperature; effort
field in L²: force, voltage, heat flux) each end takes one of four conditions:

========== ============================ =========================================
condition  imposed                      discrete port
========== ============================ =========================================
``free``   effort = 0 (natural)         none
``force``  effort = input (natural)     input: effort into the body, output: flow
``fixed``  flow = 0 (essential)         none; the boundary node is removed
``velocity`` flow = input (essential)   input: flow, output: effort on the body
========== ============================ =========================================

"Effort into the body" is :math:`\sigma\,n\,e` with the outward normal ``n`` (−1 at
s = 0, +1 at s = L) and σ the sign of the derivative in the balance law, so that in
every case ``u·y`` is the power delivered *into* the domain (docs/design.md).
Each model maps its own words (``"clamped"``, ``"pinned"``, ``"open"``…) to a tuple
of these conditions, one per field pair.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from enum import Enum

from ..errors import ModelError

__all__ = ["Condition", "parse_end", "parse_ends", "END_NAMES"]

END_NAMES = ("left", "right")


class Condition(Enum):
    FREE = "free"
    FORCE = "force"
    FIXED = "fixed"
    VELOCITY = "velocity"

    @property
    def essential(self) -> bool:
        """True when the flow (the H¹ trace) is imposed: the boundary node is removed."""
        return self in (Condition.FIXED, Condition.VELOCITY)

    @property
    def port(self) -> bool:
        """True when the condition leaves an input/output pair."""
        return self in (Condition.FORCE, Condition.VELOCITY)


def parse_end(spec: str | Sequence[str], keywords: Mapping[str, Sequence[Condition]],
              end: str, model: str) -> tuple[Condition, ...]:
    """The conditions of one end: a model keyword, or one condition name per field.

    ``spec`` is a key of ``keywords`` (``"clamped"``) or a tuple of the names in
    :class:`Condition` (``("velocity", "free")``: translation driven, rotation free).
    Raises :class:`ModelError` listing the choices.
    """
    n = len(next(iter(keywords.values())))
    if isinstance(spec, (tuple, list)):
        names = [c.value for c in Condition]
        if len(spec) != n or any(s not in names for s in spec):
            raise ModelError(
                f"{model}: {end}={tuple(spec)!r} must name {n} condition(s), one per field, "
                f"each one of {', '.join(repr(v) for v in names)}"
            )
        return tuple(Condition(s) for s in spec)
    if not isinstance(spec, str) or spec not in keywords:
        raise ModelError(
            f"{model}: {end}={spec!r} is not a boundary condition of this model; choose one of "
            f"{', '.join(repr(k) for k in keywords)}, or a tuple of {n} of "
            f"{', '.join(repr(c.value) for c in Condition)}"
        )
    return tuple(keywords[spec])


def parse_ends(left: str | Sequence[str], right: str | Sequence[str],
               keywords: Mapping[str, Sequence[Condition]],
               model: str) -> dict[str, tuple[Condition, ...]]:
    """``{"left": …, "right": …}`` from the two end arguments of a model."""
    return {"left": parse_end(left, keywords, "left", model),
            "right": parse_end(right, keywords, "right", model)}
