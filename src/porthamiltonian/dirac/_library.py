"""Standard Dirac structures: 0- and 1-junctions, transformer, gyrator.

All ports count power *into* the structure (``e_i f_i`` enters at port ``i``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import sympy

from .. import naming
from ..errors import StructureError
from . import _linalg as la
from ._protocol import DiracT


def junction(cls: type[DiracT], ports: Sequence[str], *, zero: bool) -> DiracT:
    r"""0-junction (``zero``): ``e_1 = e_2 = … = e_n`` and ``Σ f_i = 0``;
    1-junction: ``f_1 = … = f_n`` and ``Σ e_i = 0``.

    Kernel rows: ``e_i − e_{i+1} = 0`` (``i < n``) and ``Σ f_i = 0`` for the
    0-junction, flows and efforts swapped for the 1-junction.
    """
    names = naming.check_names(list(ports), "ports")
    n = len(names)
    if n == 0:
        raise StructureError("a junction needs at least one port")
    diff = np.zeros((n, n))
    total = np.zeros((n, n))
    for i in range(n - 1):
        diff[i, i] = 1.0
        diff[i, i + 1] = -1.0
    total[n - 1, :] = 1.0
    F, E = (total, diff) if zero else (diff, total)
    return cls._make(F, E, names, "dense")


def _two_port(ports: Sequence[str]) -> tuple[str, ...]:
    names = naming.check_names(list(ports), "ports")
    if len(names) != 2:
        raise StructureError(f"a two-port needs exactly 2 port names, got {len(names)}")
    return names


def _matrices(a: list[list[Any]], b: list[list[Any]], ratio: Any) -> tuple[Any, Any, str]:
    kind = la.kind_of(ratio)
    if kind == "symbolic":
        return sympy.ImmutableMatrix(a), sympy.ImmutableMatrix(b), "symbolic"
    return np.array(a, dtype=float), np.array(b, dtype=float), "dense"


def transformer(cls: type[DiracT], m: Any, ports: Sequence[str]) -> DiracT:
    r"""``e_a − m e_b = 0`` and ``m f_a + f_b = 0``."""
    names = _two_port(ports)
    m = sympy.sympify(m) if la.kind_of(m) == "symbolic" else float(m)
    F, E, kind = _matrices([[0, 0], [m, 1]], [[1, -m], [0, 0]], m)
    return cls._make(F, E, names, kind)


def gyrator(cls: type[DiracT], r: Any, ports: Sequence[str]) -> DiracT:
    r"""``e_a + r f_b = 0`` and ``e_b − r f_a = 0``."""
    names = _two_port(ports)
    r = sympy.sympify(r) if la.kind_of(r) == "symbolic" else float(r)
    F, E, kind = _matrices([[0, r], [-r, 0]], [[1, 0], [0, 1]], r)
    return cls._make(F, E, names, kind)
