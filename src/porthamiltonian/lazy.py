"""Public names of a package imported on first use (PEP 562).

A package lists each public name with the submodule that defines it; importing the
package then imports none of them, so a caller that needs one submodule (a bond-graph
element needs ``thermo.reactions.laws`` alone) does not pay for the others::

    __getattr__, __dir__ = lazy.exports(__name__, {"legendre": "legendre_transform"},
                                        globals())

A submodule must not be named like one of its functions: importing it would put the
module, not the function, on the package.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable, Mapping
from typing import Any

__all__ = ["exports"]


def exports(package: str, where: Mapping[str, str],
            namespace: dict[str, Any]) -> tuple[Callable[[str], Any], Callable[[], list[str]]]:
    """The module-level ``__getattr__`` and ``__dir__`` of ``package``.

    ``where`` maps each public name to its submodule (relative, dotted; a leading dot
    climbs one package up, as in a relative import);
    ``namespace`` is the package's ``globals()``, where a name once imported is kept
    so that later look-ups do not come back here.
    """

    def __getattr__(name: str) -> Any:  # noqa: N807 - the PEP 562 hook's name
        if name not in where:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(f".{where[name]}", package), name)
        namespace[name] = value
        return value

    def __dir__() -> list[str]:  # noqa: N807
        return sorted(set(namespace) | set(where))

    return __getattr__, __dir__
