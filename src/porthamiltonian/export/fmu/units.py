r"""SI units of FMU variables as FMI ``<Unit>`` definitions.

The library's units are pint-style strings of SI units (``"V"``, ``"N*m*s"``,
``"m**3/s"``; :mod:`porthamiltonian.quantities`).  FMI describes a unit by the
exponents of the SI base units kg, m, s, A, K, mol, cd and rad (``<BaseUnit>``, FMI 3.0
§2.4.3, FMI 2.0 §2.2.2), so an importer can check and convert them.  A unit this table
does not know is declared by its name only (allowed by both standards).
"""

from __future__ import annotations

import re

__all__ = ["base_units", "derivative_unit"]

_BASE = ("kg", "m", "s", "A", "K", "mol", "cd", "rad")


def _u(kg: int = 0, m: int = 0, s: int = 0, A: int = 0, K: int = 0, mol: int = 0,
       cd: int = 0, rad: int = 0) -> dict[str, int]:
    return {k: v for k, v in zip(_BASE, (kg, m, s, A, K, mol, cd, rad), strict=True) if v}


#: SI units and their base-unit exponents (BIPM, *The International System of Units*,
#: 9th ed., Tables 2 and 4)
_SI: dict[str, dict[str, int]] = {
    "kg": _u(kg=1), "m": _u(m=1), "s": _u(s=1), "A": _u(A=1), "K": _u(K=1),
    "mol": _u(mol=1), "cd": _u(cd=1), "rad": _u(rad=1),
    "N": _u(kg=1, m=1, s=-2), "J": _u(kg=1, m=2, s=-2), "W": _u(kg=1, m=2, s=-3),
    "Pa": _u(kg=1, m=-1, s=-2), "V": _u(kg=1, m=2, s=-3, A=-1), "C": _u(s=1, A=1),
    "Wb": _u(kg=1, m=2, s=-2, A=-1), "T": _u(kg=1, s=-2, A=-1), "Hz": _u(s=-1),
    "ohm": _u(kg=1, m=2, s=-3, A=-2), "Ω": _u(kg=1, m=2, s=-3, A=-2),
    "F": _u(kg=-1, m=-2, s=4, A=2), "H": _u(kg=1, m=2, s=-2, A=-2),
    "S": _u(kg=-1, m=-2, s=3, A=2),
}

_TOKEN = re.compile(r"\s*([A-Za-zΩ]+)\s*(?:\*\*\s*(-?\d+))?\s*")


def base_units(unit: str) -> dict[str, int] | None:
    """Exponents of the base units of ``unit`` (``"N*m"`` → ``{"kg": 1, "m": 2, "s": -2}``),
    ``{}`` for a dimensionless ``"1"``, ``None`` when a factor is unknown."""
    text = unit.strip()
    if text in ("", "1"):
        return {}
    out: dict[str, int] = {}
    sign = 1
    for part in re.split(r"([*/])", text):
        if part == "*":
            continue
        if part == "/":
            sign = -1
            continue
        match = _TOKEN.fullmatch(part)
        if part.strip() == "1":
            continue
        if not match or match.group(1) not in _SI:
            return None
        power = sign * int(match.group(2) or 1)
        for k, v in _SI[match.group(1)].items():
            out[k] = out.get(k, 0) + power * v
        # pint reads "a/b*c" as (a/b)*c: a division applies to the next factor only
        sign = 1
    return {k: v for k, v in out.items() if v}


def derivative_unit(unit: str) -> str:
    """The unit of a time derivative: ``"Wb"`` → ``"Wb/s"`` (``""`` stays unknown)."""
    if not unit:
        return ""
    if unit == "1":
        return "1/s"
    return f"{unit}/s"  # pint reads "m**3/s/s" as m³/s²: each "/" divides by one factor
