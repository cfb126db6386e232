"""Sealed models: the attributes that define a model cannot be re-assigned once it is built.

A model's compiled form (and every number derived from it) is cached on the model, so a
model must not change after construction (docs/design.md, "Models are immutable").  A
class lists its defining attributes in ``_DEFINING``; once ``_sealed`` is set at the end of
``__init__``, assigning one of them raises :class:`~porthamiltonian.errors.ModelError`
naming it and what to do instead (``_ADVICE``).
"""

from __future__ import annotations

from typing import Any, ClassVar

from .errors import ModelError

__all__ = ["Sealed"]


class Sealed:
    """Mixin: refuse to re-assign the attributes in ``_DEFINING`` after ``seal()``."""

    _DEFINING: ClassVar[frozenset[str]] = frozenset()
    #: what to use instead, appended to the error message
    _ADVICE: ClassVar[str] = "construct a new model"

    def seal(self) -> None:
        """End of construction: from now on the defining attributes are read-only."""
        self.__dict__["_sealed"] = True

    def __setattr__(self, name: str, value: Any) -> None:
        if name in self._DEFINING and self.__dict__.get("_sealed"):
            raise ModelError(
                f"{type(self).__name__}.{name} cannot be re-assigned: a model is immutable "
                f"(its compiled form is derived from it); {self._ADVICE}"
            )
        object.__setattr__(self, name, value)
