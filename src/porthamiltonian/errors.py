"""Exceptions for everything a user can get wrong.

Every message names what is at fault (element, port, block and entry, file and
line) and what would fix it.  The command line prints ``error: <message>`` and
exits with status 2 for any :class:`ModelError`.
"""

from __future__ import annotations

from typing import Any


class ModelError(ValueError):
    """Base class of all user errors (bad model, bad structure, bad input).

    Parameters
    ----------
    message:
        What is wrong, naming the element/port/line at fault, and how to fix it.
    problems:
        Optional list of further messages when several problems were found at
        once (``porthamiltonian validate`` reports them all).
    """

    def __init__(self, message: str, *, problems: list[str] | None = None) -> None:
        super().__init__(message)
        self.problems: list[str] = list(problems) if problems else [message]


class StructureError(ModelError):
    """A matrix violates the port-Hamiltonian structure (skew-symmetry, symmetry,
    positive semi-definiteness, Dirac conditions) or dimensions do not agree."""


class ExpressionError(ModelError):
    """An expression in a model file is malformed or not allowed by the safe parser."""


class SchemaError(ModelError):
    """A model file does not follow the model-file format (docs/model-files.md)."""


class CausalityError(ModelError):
    """A requested causality (input/output split) is impossible.

    ``ports`` names the ports whose requested inputs conflict, so a caller can say
    which elements are at fault without parsing the message.
    """

    def __init__(
        self, message: str, *, ports: list[str] | None = None, problems: list[str] | None = None
    ) -> None:
        super().__init__(message, problems=problems)
        self.ports: list[str] = list(ports or [])


class NoExplicitFormError(ModelError):
    """No explicit input-state-output port-Hamiltonian form exists (or could be found)."""


class SimulationError(ModelError):
    """The numbers went bad during a simulation (NaN, Newton divergence, ...).

    ``t_reached`` is the last time for which results are valid and ``partial``
    holds whatever result object the integrator had built up to then.
    """

    def __init__(
        self,
        message: str,
        *,
        t_reached: float | None = None,
        partial: Any = None,
        problems: list[str] | None = None,
    ) -> None:
        super().__init__(message, problems=problems)
        self.t_reached = t_reached
        self.partial = partial


class ModelWarning(UserWarning):
    """A model that is legal but physically suspicious (e.g. a storage energy that is not
    convex near its rest state: not intrinsically stable); ``warnings.simplefilter("error",
    ModelWarning)`` makes such models errors."""


__all__ = [
    "ModelError",
    "StructureError",
    "ExpressionError",
    "SchemaError",
    "CausalityError",
    "NoExplicitFormError",
    "SimulationError",
    "ModelWarning",
]
