"""Quantities with units in model files (``10 mH``, ``3000 rpm``), converted to SI with pint.

Syntax
------
A value with a unit is a number, optional spaces, then a unit: ``"10 mH"``, ``2.2 kohm``,
``"1e-4 kg*m^2"``, ``-5 V``, ``3000 rpm``; or the mapping ``{value: 10, unit: mH}``.
Plain numbers carry no unit and are taken as SI.  A number followed by a name is
always a quantity: there is no implicit product in expressions, so ``2 m`` is two metres
even if a parameter is called ``m`` (write ``2*m`` for the product).

Safety
------
The text is split here by a regular expression; the unit part is then tokenized by
:func:`_check_unit_syntax` (names, ``* / · ^ **``, small integer exponents, superscript
digits, parentheses) before pint sees it, and pint only ever parses that unit text
(:meth:`pint.UnitRegistry.parse_units`, its own tokenizer — nothing is evaluated as
Python).  pint is imported, and its registry built (about half a second), only when a
model contains a unit pint has not read before on this machine: its answers are kept in
``units-pint-VERSION.json`` in :func:`porthamiltonian.jit.cache_dir`.

Dimensions
----------
A :class:`Dim` is a product of powers of pint's base dimensions (``[length]``,
``[mass]``, ``[time]``, ``[current]``, ``[temperature]``, ``[substance]``, ...);
angles (rad, rpm's revolution) are dimensionless, as in SI.  :func:`dimension_of`
propagates the dimensions of parameters given with units through a parsed expression
(products, powers, sums of like terms); anything that depends on a value without a
unit is *unknown* and not checked.  :func:`role_dimension` gives what the field of a
bond-graph element must have: ``c`` = displacement/effort (a compliance: F, m/N, ...),
``i`` = momentum/flow (an inertia: H, kg, kg·m², ...), ``r`` = effort/flow (a
resistance: Ω, N·s/m, ...), from :data:`porthamiltonian.quantities.DOMAINS`.
"""

from __future__ import annotations

import contextlib
import decimal
import difflib
import json
import math
import os
import pathlib
import re
import tempfile
from collections.abc import Mapping
from dataclasses import dataclass
from fractions import Fraction
from functools import lru_cache
from typing import Any

import sympy

from ..errors import ModelError
from ..quantities import DOMAINS, pretty_unit

__all__ = ["Dim", "Given", "UnitError", "DimensionMismatch", "DIMENSIONLESS", "COMMON_DOMAINS",
           "is_quantity", "split_quantity", "convert", "dimension_of", "dim_of_unit",
           "describe", "suggestions", "role_dimension", "role_name", "state_dimension",
           "physical_domains"]


class UnitError(ModelError):
    """A unit that cannot be read (bad syntax or unknown to pint)."""


class DimensionMismatch(ModelError):
    """Terms of different dimensions added (``L + R``), or a function of a dimensional
    argument (``exp(L)``)."""


@dataclass(frozen=True)
class Dim:
    """A physical dimension: ``((base dimension, exponent), ...)``, sorted; ``()`` is
    dimensionless."""

    powers: tuple[tuple[str, Fraction], ...] = ()

    @staticmethod
    def of(mapping: Mapping[str, Any]) -> Dim:
        items = {k: Fraction(v).limit_denominator(1000) for k, v in mapping.items()}
        return Dim(tuple(sorted((k, v) for k, v in items.items() if v != 0)))

    def __mul__(self, other: Dim) -> Dim:
        out = dict(self.powers)
        for k, v in other.powers:
            out[k] = out.get(k, Fraction(0)) + v
        return Dim.of(out)

    def __pow__(self, exponent: Fraction) -> Dim:
        return Dim.of({k: v * exponent for k, v in self.powers})

    def __str__(self) -> str:
        return describe(self)


DIMENSIONLESS = Dim()


@dataclass(frozen=True)
class Given:
    """A value given with a unit: ``text`` as written (``"10 mH"``), its ``unit``
    (``"mH"``), the value in SI (``si``, here 0.01) and its dimension."""

    text: str
    unit: str
    si: float
    dim: Dim


# -- recognizing and converting ---------------------------------------------------------
_NUMBER = r"[-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?"
_UNIT_START = "A-Za-zµμΩ°%"
# the number is the longest one there (``1e-3`` is a number, not 1 of the unit e-3)
_QUANTITY = re.compile(rf"\s*(?P<number>{_NUMBER})(?![eE][-+]?\d)\s*"
                       rf"(?P<unit>[{_UNIT_START}].*?)\s*\Z", re.DOTALL)
_TOKEN = re.compile(
    rf"\s*(?:(?P<name>[{_UNIT_START}][A-Za-z0-9_µμΩ°]*)|(?P<op>\*\*|[*/·^⋅])"
    r"|(?P<int>[-+]?\d{1,2}(?![\d.]))|(?P<paren>[()])|(?P<sup>⁻?[⁰¹²³⁴⁵⁶⁷⁸⁹]{1,2}(?![⁰¹²³⁴⁵⁶⁷⁸⁹])))")
MAX_UNIT_LENGTH = 100
_MAPPING_KEYS = frozenset({"value", "unit"})


def is_quantity(value: Any) -> bool:
    """Whether ``value`` is written as a quantity with a unit (no pint needed)."""
    return split_quantity(value) is not None


def split_quantity(value: Any) -> tuple[str, str] | None:
    """``(number text, unit text)`` of ``"10 mH"`` or ``{value: 10, unit: mH}``, else
    ``None``.

    The mapping's value must be a plain number (an expression with a unit would be
    ambiguous about which parts are SI)."""
    if isinstance(value, dict) and set(value) == _MAPPING_KEYS:
        number, unit = value["value"], value["unit"]
        if isinstance(number, bool) or not isinstance(number, (int, float)):
            raise UnitError(f"'value' must be a plain number, got {number!r}")
        if not isinstance(unit, str) or not unit.strip():
            raise UnitError(f"'unit' must be a unit such as mH or N/m, got {unit!r}")
        return repr(number), unit.strip()
    if not isinstance(value, str):
        return None
    m = _QUANTITY.match(value)
    if m is None:
        return None
    return m.group("number"), m.group("unit")


def _check_unit_syntax(unit: str) -> None:
    """Only unit names, ``* / · ^ **``, integer exponents, superscripts and parentheses."""
    if len(unit) > MAX_UNIT_LENGTH:
        raise UnitError(f"the unit is longer than {MAX_UNIT_LENGTH} characters")
    pos, depth, previous = 0, 0, "op"
    while pos < len(unit):
        m = _TOKEN.match(unit, pos)
        if m is None or m.end() == pos:
            rest = unit[pos:].strip()
            raise UnitError(f"cannot read the unit {unit!r} at {rest[:10]!r}; write units "
                            "like mH, kg*m^2, N*s/m or rad/s")
        kind = m.lastgroup
        if kind == "name" and m.group("name").startswith("__"):
            raise UnitError(f"{m.group('name')!r} is not a unit")
        if kind == "int" and previous not in ("**", "^"):
            raise UnitError(f"a number in the unit {unit!r} may only be an exponent "
                            "(m^2, s**-1)")
        if previous in ("int", "sup") and kind in ("op", "sup") \
                and m.group("op") in (None, "**", "^"):
            raise UnitError(f"a power of a power in the unit {unit!r}; write one exponent "
                            "(m^4)")
        if kind == "paren":
            depth += 1 if m.group("paren") == "(" else -1
            if depth < 0:
                raise UnitError(f"unbalanced parentheses in the unit {unit!r}")
        previous = m.group("op") if kind == "op" else kind
        pos = m.end()
    if depth != 0:
        raise UnitError(f"unbalanced parentheses in the unit {unit!r}")


@lru_cache(maxsize=1)
def _registry() -> Any:
    import pint  # lazily: only models with units pay for it

    return pint.UnitRegistry()


@lru_cache(maxsize=256)
def _parse_unit(unit: str) -> tuple[float, float, Dim]:
    """``(scale, offset, dim)`` with SI value = scale·x + offset (offset: °C, °F)."""
    _check_unit_syntax(unit)
    known = _known_units().get(unit)
    if known is not None:
        return known
    parsed = _parse_with_pint(unit)
    _remember(unit, parsed)
    return parsed


def _parse_with_pint(unit: str) -> tuple[float, float, Dim]:
    """:func:`_parse_unit` done by pint (its import and registry: about half a second)."""
    ureg = _registry()
    import pint

    try:
        parsed = ureg.parse_units(unit.replace("⋅", "·"))
        zero = ureg.Quantity(0.0, parsed).to_base_units()
        one = ureg.Quantity(1.0, parsed).to_base_units()
        offset = float(zero.magnitude)
        scale = float(one.magnitude) - offset
        dim = Dim.of(dict(parsed.dimensionality))
    except pint.UndefinedUnitError as err:
        names = list(getattr(err, "unit_names", ()) or ())
        bad = str(names[0]) if names else unit
        hint = suggestions(bad)
        also = f"; did you mean {' or '.join(hint)}?" if hint else \
            " (pint's names: mH, kohm, uF, kg, N/m, rad/s, rpm, degC, ...)"
        raise UnitError(f"unknown unit {bad!r} in {unit!r}{also}") from None
    except (pint.errors.DefinitionSyntaxError, pint.errors.DimensionalityError,
            AttributeError, TypeError, ValueError, SyntaxError, ArithmeticError) as err:
        raise UnitError(f"cannot read the unit {unit!r} ({err})") from None
    if not (math.isfinite(scale) and math.isfinite(offset)) or scale == 0:
        raise UnitError(f"the unit {unit!r} is out of range of double precision")
    return scale, offset, dim


# -- units pint has read before -------------------------------------------------------
# What pint makes of a unit text depends only on the text and on pint's version, so the
# answers are kept in a small JSON file beside the compiled kernels
# (:func:`porthamiltonian.jit.cache_dir`): a model file whose units were all read before
# is checked without importing pint.  A file that cannot be read or written, or an entry
# of the wrong shape, is ignored (pint is asked again).

#: at most this many units are kept in the file
MAX_KNOWN_UNITS = 2000


def _units_file() -> pathlib.Path | None:
    from importlib.metadata import PackageNotFoundError, version

    from ..jit import cache_dir

    try:
        return cache_dir() / f"units-pint-{version('pint')}.json"
    except PackageNotFoundError:  # pint missing: the import in _registry says so
        return None


@lru_cache(maxsize=1)
def _known_units() -> dict[str, tuple[float, float, Dim]]:
    path = _units_file()
    try:
        raw = json.loads(path.read_text(encoding="utf-8")) if path else {}
    except (OSError, ValueError):
        return {}
    known: dict[str, tuple[float, float, Dim]] = {}
    for unit, entry in (raw.items() if isinstance(raw, dict) else ()):
        try:
            scale, offset, powers = entry
            dim = Dim.of({str(name): Fraction(exponent) for name, exponent in powers})
            scale, offset = float(scale), float(offset)
        except (TypeError, ValueError, ZeroDivisionError):
            continue
        if math.isfinite(scale) and math.isfinite(offset) and scale != 0:  # as pint's
            known[str(unit)] = (scale, offset, dim)
    return known


def _remember(unit: str, parsed: tuple[float, float, Dim]) -> None:
    known = _known_units()
    path = _units_file()
    if path is None or len(known) >= MAX_KNOWN_UNITS:
        return
    known[unit] = parsed
    data = {u: [s, o, [[name, str(e)] for name, e in d.powers]] for u, (s, o, d) in known.items()}
    try:  # a whole new file, renamed into place: a reader never sees half of one
        path.parent.mkdir(parents=True, exist_ok=True)
        with tempfile.NamedTemporaryFile("w", dir=path.parent, suffix=".tmp", delete=False,
                                         encoding="utf-8") as fh:
            json.dump(data, fh)
        os.replace(fh.name, path)
    except OSError:  # a read-only or full disk: the next run asks pint again
        with contextlib.suppress(OSError, NameError):
            os.unlink(fh.name)


def convert(number: str | float, unit: str, text: str | None = None) -> Given:
    """The SI value and dimension of ``number`` ``unit``; :class:`UnitError` if the
    unit cannot be read (with suggestions for a misspelt one).

    The SI value is the correctly rounded product of the decimal number as written and
    the conversion factor (``10 mH`` gives exactly the double ``0.01``, as writing
    ``0.01`` would).
    """
    scale, offset, dim = _parse_unit(unit.strip())
    written = number if isinstance(number, str) else repr(float(number))
    with decimal.localcontext() as ctx:
        ctx.prec = 40
        si = float(decimal.Decimal(written) * decimal.Decimal(repr(scale))
                   + decimal.Decimal(repr(offset)))
    if not math.isfinite(si):
        raise UnitError(f"{written} {unit} is not a finite number in SI units")
    return Given(text if text is not None else f"{written} {unit}", unit.strip(), si, dim)


def dim_of_unit(unit: str) -> Dim:
    """The dimension of a unit text (``"N*m"``)."""
    return _parse_unit(unit)[2]


def suggestions(name: str) -> list[str]:
    """Up to three unit names close to ``name``: ``kohms`` → ``kohm``, ``Ohm`` → ``ohm``."""
    ureg = _registry()
    names = [str(n) for n in ureg]
    lower = {n.lower(): n for n in names}
    found: list[str] = []
    if name.lower() in lower and lower[name.lower()] != name:
        found.append(lower[name.lower()])
    found += difflib.get_close_matches(name, names, n=3, cutoff=0.75)
    for prefix in ("k", "M", "G", "m", "u", "µ", "n", "p", "c"):
        rest = name[len(prefix):]
        if name.startswith(prefix) and len(rest) > 1:
            base = lower.get(rest.lower())
            close = [base] if base else difflib.get_close_matches(rest, names, n=1, cutoff=0.8)
            found += [prefix + c for c in close]
    out: list[str] = []
    for cand in found:
        if cand in out or cand == name:
            continue
        try:
            ureg.parse_units(cand)
        except Exception:  # noqa: BLE001 - a suggestion pint cannot read is dropped
            continue
        out.append(cand)
    return out[:3]


# -- describing dimensions ---------------------------------------------------------------
_BASE_SYMBOL = {"[mass]": "kg", "[length]": "m", "[time]": "s", "[current]": "A",
                "[temperature]": "K", "[substance]": "mol", "[luminosity]": "cd"}
_BASE_ORDER = {k: n for n, k in enumerate(_BASE_SYMBOL)}
_NAMED = (("henry", "H"), ("farad", "F"), ("ohm", "Ω"), ("siemens", "S"), ("volt", "V"),
          ("coulomb", "C"), ("weber", "Wb"), ("tesla", "T"), ("newton", "N"),
          ("joule", "J"), ("watt", "W"), ("pascal", "Pa"), ("ampere", "A"), ("kilogram", "kg"),
          ("meter", "m"), ("second", "s"), ("kelvin", "K"), ("mole", "mol"))
_SUPERSCRIPT = str.maketrans("0123456789-/", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻ᐟ")


@lru_cache(maxsize=1)
def _named() -> dict[Dim, str]:
    out: dict[Dim, str] = {}
    for name, symbol in _NAMED:
        out.setdefault(dim_of_unit(name), f"{name} ({symbol})")
    return out


def _power(symbol: str, exponent: Fraction) -> str:
    return symbol if exponent == 1 else symbol + str(exponent).translate(_SUPERSCRIPT)


def describe(dim: Dim) -> str:
    """``"henry (H)"`` for a dimension with a named SI unit, else SI base units
    (``"kg·m²"``, ``"m/s"``); ``"dimensionless"``."""
    if not dim.powers:
        return "dimensionless"
    named = _named().get(dim)
    if named:
        return named
    powers = sorted(dim.powers, key=lambda kv: _BASE_ORDER.get(kv[0], len(_BASE_ORDER)))
    num = [_power(_BASE_SYMBOL.get(k, k), v) for k, v in powers if v > 0]
    den = [_power(_BASE_SYMBOL.get(k, k), -v) for k, v in powers if v < 0]
    top = "·".join(num) or "1"
    if not den:
        return top
    return f"{top}/{den[0]}" if len(den) == 1 else f"{top}/({'·'.join(den)})"


# -- dimensions of expressions ------------------------------------------------------------
_DIMENSIONLESS_FUNCTIONS = (sympy.sin, sympy.cos, sympy.tan, sympy.asin, sympy.acos,
                            sympy.atan, sympy.sinh, sympy.cosh, sympy.tanh, sympy.asinh,
                            sympy.acosh, sympy.atanh, sympy.exp, sympy.log)


def dimension_of(expr: Any, dims: Mapping[sympy.Symbol, Dim]) -> Dim | None:
    """The dimension of a parsed expression whose symbols have the dimensions ``dims``;
    ``None`` when it depends on something without a unit (a plain number standing alone
    or added, a parameter or state without a unit).

    Raises :class:`DimensionMismatch` for a sum of terms of known, different dimensions
    or a dimensional argument of ``exp``, ``sin``, ...
    """
    if isinstance(expr, (int, float)) or (isinstance(expr, sympy.Basic) and expr.is_number):
        return None
    return _dim(sympy.sympify(expr), dims)


def _dim(e: sympy.Basic, dims: Mapping[sympy.Symbol, Dim]) -> Dim | None:
    if e.is_number:
        return DIMENSIONLESS
    if isinstance(e, sympy.Symbol):
        return dims.get(e)
    if isinstance(e, sympy.Mul):
        out = DIMENSIONLESS
        for factor in e.args:
            d = _dim(factor, dims)
            if d is None:
                return None
            out = out * d
        return out
    if isinstance(e, sympy.Pow):
        base, exponent = e.args
        if not exponent.is_Rational:
            d = _dim(base, dims)
            if d is not None and d != DIMENSIONLESS:
                raise DimensionMismatch(f"{base} ({describe(d)}) is raised to the power "
                                        f"{exponent}, which is not a fixed number")
            return None if d is None else DIMENSIONLESS
        d = _dim(base, dims)
        return None if d is None else d ** Fraction(int(exponent.p), int(exponent.q))
    if isinstance(e, (sympy.Add, sympy.Min, sympy.Max)):
        terms = [t for t in e.args if not t.is_number]
        found = [(t, _dim(t, dims)) for t in terms]
        known = [(t, d) for t, d in found if d is not None]
        for t, d in known[1:]:
            if d != known[0][1]:
                t0, d0 = known[0]
                raise DimensionMismatch(f"{t0} ({describe(d0)}) and {t} ({describe(d)}) "
                                        "are added but have different dimensions")
        if not known or len(known) < len(found):
            return None
        return known[0][1]
    if isinstance(e, (sympy.Abs, sympy.floor, sympy.ceiling)):
        return _dim(e.args[0], dims)
    if isinstance(e, _DIMENSIONLESS_FUNCTIONS) or isinstance(e, sympy.atan2):
        for arg in e.args:
            d = _dim(arg, dims)
            if d is not None and d != DIMENSIONLESS and not isinstance(e, sympy.atan2):
                raise DimensionMismatch(f"{type(e).__name__}({arg}) of a quantity in "
                                        f"{describe(d)}; its argument must be dimensionless")
        return DIMENSIONLESS
    if isinstance(e, (sympy.sign, sympy.Heaviside)):
        return DIMENSIONLESS
    return None


# -- what a bond-graph field must have ----------------------------------------------------
#: field -> (storage/resistor type, numerator variable, denominator variable)
_ROLE = {"c": ("displacement", "effort"), "i": ("momentum", "flow"), "r": ("effort", "flow")}
_ROLE_NAME = {
    "c": {"electrical": "capacitance", "translational": "compliance",
          "rotational": "torsional compliance", "hydraulic": "hydraulic capacitance",
          "thermal": "thermal capacitance", "": "compliance"},
    "i": {"electrical": "inductance", "translational": "mass",
          "rotational": "moment of inertia", "hydraulic": "inertance", "": "inertia"},
    "r": {"electrical": "resistance", "translational": "damping",
          "rotational": "rotational damping", "hydraulic": "hydraulic resistance",
          "": "resistance"},
}
#: display of the expected unit where it reads better than SI base units
_DISPLAY = {("translational", "c"): "m/N", ("translational", "r"): "N·s/m",
            ("rotational", "c"): "rad/(N·m)", ("rotational", "i"): "kg·m²",
            ("rotational", "r"): "N·m·s/rad", ("hydraulic", "c"): "m³/Pa",
            ("hydraulic", "i"): "Pa·s²/m³", ("hydraulic", "r"): "Pa·s/m³"}


def role_name(key: str, domain: str | None) -> str:
    """``("i", "electrical")`` → ``"inductance"``; ``("i", None)`` → ``"inertia"``."""
    names = _ROLE_NAME[key]
    return names.get(domain or "", names[""])


def _quotient(domain: str, top: str, bottom: str) -> Dim:
    d = DOMAINS[domain]
    return dim_of_unit(getattr(d, top).unit) * dim_of_unit(getattr(d, bottom).unit) ** -1


def role_dimension(key: str, domain: str) -> tuple[Dim, str]:
    """The dimension of field ``key`` (``c``, ``i``, ``r``) in ``domain`` and how to show
    it (``"henry (H)"``, ``"N·s/m"``)."""
    dim = _quotient(domain, *_ROLE[key])
    return dim, _DISPLAY.get((domain, key), describe(dim))


def state_dimension(kind: str, domain: str) -> tuple[Dim, str, str]:
    """Dimension, display and name of the state of a storage (``C``: displacement,
    ``I``: momentum) in ``domain``."""
    q = getattr(DOMAINS[domain], "displacement" if kind == "C" else "momentum")
    dim = dim_of_unit(q.unit)
    return dim, f"{q.kind} ({pretty_unit(q.unit)})" if q.unit else q.kind, q.kind


def physical_domains() -> list[str]:
    """Every domain of :data:`~porthamiltonian.quantities.DOMAINS` with units."""
    return [name for name, d in DOMAINS.items() if d.effort.unit]


#: the domains a value is checked against when its element declares none (a magnetic,
#: thermal or chemical element with units declares its domain)
COMMON_DOMAINS = ("electrical", "translational", "rotational", "hydraulic")
