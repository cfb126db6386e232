"""What the helper modules read from a Dirac structure: the :class:`Structure` protocol.

:class:`~._structure.DiracStructure` delegates to ``_checks`` (Dirac conditions),
``_forms`` (input-output and constraint forms), ``_compose`` (interconnection) and
``_library`` (junctions, transformer, gyrator).  Those take the structure — or its
class, to make new ones — typed by this protocol instead of importing the class, so
the package's imports run one way: ``_linalg`` → ``_protocol`` → helpers →
``_structure`` (docs/design.md: no import circles).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol, TypeVar

from ._linalg import Kind

__all__ = ["Structure", "DiracT"]

#: a structure type: the helpers return what they are given (a ``DiracStructure``)
DiracT = TypeVar("DiracT", bound="Structure")


class Structure(Protocol):
    """A linear Dirac structure in kernel representation ``F f + E e = 0``."""

    @property
    def F(self) -> Any:
        """Flow matrix (k × n)."""
        ...

    @property
    def E(self) -> Any:
        """Effort matrix (k × n)."""
        ...

    @property
    def ports(self) -> tuple[str, ...]:
        """Scalar port names, one per column of ``F`` and ``E``."""
        ...

    @property
    def n(self) -> int:
        """Number of scalar ports."""
        ...

    @property
    def kind(self) -> Kind:
        """``"dense"``, ``"sparse"`` or ``"symbolic"``."""
        ...

    @property
    def symbolic(self) -> bool: ...

    @property
    def free_symbols(self) -> set[Any]: ...

    def _stacked(self) -> Any:
        """``[F | E]``."""
        ...

    def _problems(self, tol: float | None) -> list[str]:
        """Messages for every Dirac condition violated (empty when Dirac)."""
        ...

    def reorder(self: DiracT, ports: Sequence[str]) -> DiracT: ...

    def check(self: DiracT, tol: float | None = None) -> DiracT: ...

    @classmethod
    def _make(cls: type[DiracT], F: Any, E: Any, ports: Sequence[str], kind: Kind) -> DiracT:
        """Fast internal constructor: no validation."""
        ...
