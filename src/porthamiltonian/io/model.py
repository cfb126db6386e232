"""Loading and validating model files (docs/model-files.md).

A model file is YAML or JSON with the top-level keys ``name``, ``description``
(optional), ``parameters`` (optional), exactly one model section (one of
:data:`SECTIONS`: ``bondgraph``, ``phs``, ...) and ``simulate`` (optional).
A file holding just the object that ``porthamiltonian phs --json`` prints
(top-level ``states``, ``J``, ...) is read as a ``phs`` model.

Every problem is collected; :func:`load_model` raises one
:class:`~porthamiltonian.errors.SchemaError` carrying all of them in
``.problems`` (the first is the message), :func:`validate_model` returns them.
Each message starts with ``<file>:<line>: ``.
"""

from __future__ import annotations

import pathlib
import stat
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Any

import sympy

from ..errors import ModelError, SchemaError
from ..naming import parameter_values
from .bondgraph_section import check_bondgraph
from .distributed_section import check_distributed
from .limits import allowing, current, excerpt, raised
from .mechanism_section import check_mechanism
from .network_section import check_network
from .parameters import check_parameters
from .phs_section import check_phs
from .reactions_section import check_reactions
from .schema import Checker, KeyPath, Section, SectionValidator
from .simulate_section import check_simulate
from .yamlmarks import read_document

__all__ = ["Model", "SECTIONS", "load_model", "load_dict", "validate_model", "register_section"]

#: Model sections: name -> validator.  A new front-end adds its section here
#: (:func:`register_section`); a model file has exactly one of them.
SECTIONS: dict[str, SectionValidator] = {"bondgraph": check_bondgraph, "phs": check_phs,
                                         "network": check_network,
                                         "mechanism": check_mechanism,
                                         "distributed": check_distributed,
                                         "reactions": check_reactions}

_TOP_KEYS = ("name", "description", "parameters", "simulate")
_BARE_PHS_KEYS = ("states", "J", "R", "hamiltonian", "Q")


def register_section(name: str, validator: SectionValidator) -> None:
    """Make ``name`` a model section checked by ``validator``."""
    SECTIONS[name] = validator


@dataclass(frozen=True)
class Model:
    """A checked model file.

    A model is immutable (docs/phs.md, "Models are immutable"): its fields cannot be
    re-assigned and :attr:`parameters` and :attr:`symbols` are read-only mappings;
    :meth:`with_parameters` checks the document again with other values.

    Attributes
    ----------
    name, description:
        From the file.
    path:
        The file, or ``None`` when loaded from text or a dict.
    parameters:
        Parameter name -> value (read-only): a number, an expression in symbolic
        parameters, or the parameter's own symbol when it is symbolic.
    symbols:
        Parameter name -> ``Symbol(name, positive=True)``.  Expressions in
        ``section`` and ``simulate`` use these symbols (and the state symbols,
        ``Symbol(name, real=True)``), not the values: substitute
        :meth:`parameter_values` to get numbers.
    kind:
        The model section: ``"bondgraph"``, ``"phs"``, ...
    section:
        The checked section, expressions parsed into SymPy (see the section's module).
    simulate:
        The checked ``simulate`` section, or ``None``.
    """

    name: str
    path: pathlib.Path | None
    parameters: Mapping[str, sympy.Expr]
    symbols: Mapping[str, sympy.Symbol]
    kind: str
    section: dict[str, Any]
    simulate: dict[str, Any] | None
    description: str = ""
    lines: dict[KeyPath, int] = field(default_factory=dict, repr=False)
    #: the document as read (plain data) and its name in messages, for with_parameters
    document: Any = field(default=None, repr=False, compare=False)
    source: str = field(default="<dict>", repr=False, compare=False)
    #: the folder ``bondgraph.include`` files are read from (the file's own; ``load_dict``'s
    #: ``folder``; else the working directory)
    folder: pathlib.Path | None = field(default=None, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "parameters", MappingProxyType(dict(self.parameters)))
        object.__setattr__(self, "symbols", MappingProxyType(dict(self.symbols)))

    def __reduce__(self) -> tuple[Any, tuple[Any, ...]]:
        # read-only mappings do not pickle: send plain dicts (the constructor wraps them
        # again), so a model can go to the worker processes of an ensemble
        return type(self), tuple(dict(v) if isinstance(v, MappingProxyType) else v
                                 for v in (getattr(self, f.name) for f in fields(self)))

    def with_parameters(self, values: Mapping[str, Any] | None = None, /,
                        **kw: Any) -> Model:
        """The model the document gives with some parameter values replaced; this one is
        unchanged.

        Values are written as in the file (a number, an expression text in other
        parameters, ``None`` or ``"symbolic"``), ``values`` (a mapping) and keywords
        merged, keywords last.  The whole document is checked again, so parameters given
        as expressions in the changed ones, and every number derived from them, follow.

        Raises :class:`ModelError` for a name that is not a parameter of the model
        (listing them), :class:`SchemaError` if the new values make the document invalid.
        """
        values = parameter_values(values, kw, self.parameters, "the model")
        if not values:
            return self
        if not isinstance(self.document, Mapping):
            raise ModelError("this Model was not read from a document (load_model or "
                             "load_dict); build it again with the values")
        data = dict(self.document)
        nested = (self.kind == "phs" and "parameters" not in data
                  and isinstance(data.get("phs"), Mapping) and "parameters" in data["phs"])
        if nested:
            data["phs"] = {**data["phs"], "parameters": {**data["phs"]["parameters"],
                                                         **values}}
        else:
            data["parameters"] = {**(data.get("parameters") or {}), **values}
        ck = Checker(self.source, self.lines)
        ck.folder = self.folder
        model = _check(ck, data, self.path, self.source)
        if ck.problems or model is None:
            raise SchemaError(ck.problems[0], problems=ck.problems)
        return model

    def line_of(self, *keypath: str | int) -> int | None:
        """1-based line of a key in the file, e.g. ``line_of("bondgraph", "elements", 2, "c")``.

        ``None`` if the key is not in the file (or the model did not come from text).
        """
        return self.lines.get(tuple(keypath))

    def parameter_values(self) -> dict[sympy.Symbol, sympy.Expr]:
        """Symbol -> value for every parameter that is not symbolic (for ``xreplace``)."""
        return {s: self.parameters[n] for n, s in self.symbols.items() if self.parameters[n] != s}

    @property
    def symbolic_parameters(self) -> list[str]:
        """Names of the parameters left symbolic."""
        return [n for n, s in self.symbols.items() if self.parameters[n] == s]

    def parameter_settings(self) -> dict[str, sympy.Expr | None]:
        """Name -> value, ``None`` for a parameter left symbolic (as PHS/BondGraph take them)."""
        return {n: (None if self.parameters[n] == s else self.parameters[n])
                for n, s in self.symbols.items()}


def load_model(path_or_text: str | pathlib.Path, *, fmt: str | None = None,
               limits: Mapping[str, Any] | None = None,
               allow_paths: Sequence[str | pathlib.Path] | None = None) -> Model:
    """Load and check a model file.

    Parameters
    ----------
    path_or_text:
        A path, or the model text itself (a ``str`` containing a newline or
        starting with ``{``).
    fmt:
        ``"yaml"`` or ``"json"``; by default from the file suffix (``.json`` is
        JSON, anything else YAML; JSON is valid YAML, too).
    limits:
        Limits to raise for this file (:mod:`.limits`, e.g. ``{"file_mb": 50}``).
    allow_paths:
        Folders besides the model's own from which it may read files (CSV inputs).

    Raises
    ------
    ModelError
        If the file cannot be read.
    SchemaError
        With every problem in ``.problems``, if the model is not valid.
    """
    with raised(limits), allowing(allow_paths):
        model, problems = _check_source(path_or_text, fmt)
    if problems or model is None:
        raise SchemaError(problems[0], problems=problems)
    return model


def validate_model(path: str | pathlib.Path, *, fmt: str | None = None,
                   limits: Mapping[str, Any] | None = None,
                   allow_paths: Sequence[str | pathlib.Path] | None = None) -> list[str]:
    """Every problem in a model file, ``[]`` if it is valid (``limits`` and
    ``allow_paths`` as for :func:`load_model`).

    Raises :class:`ModelError` only if the file cannot be read.
    """
    with raised(limits), allowing(allow_paths):
        return _check_source(path, fmt)[1]


def load_dict(data: dict[str, Any], *, source: str = "<dict>",
              folder: str | pathlib.Path | None = None) -> Model:
    """Check a model given as plain data (as a YAML file would give it); no line numbers.

    ``folder``: where the files of ``bondgraph.include`` are read from (default: the
    working directory), and the only folder they may come from.
    """
    ck = Checker(source)
    ck.folder = None if folder is None else pathlib.Path(folder)
    model = _check(ck, data, None, source)
    if ck.problems or model is None:
        raise SchemaError(ck.problems[0], problems=ck.problems)
    return model


# -- internals ------------------------------------------------------------------------
def _check_source(
    path_or_text: str | pathlib.Path, fmt: str | None,
    adjust: Callable[[Any], Any] | None = None,
) -> tuple[Model | None, list[str]]:
    """The checked model and its problems; ``adjust`` rewrites the parsed document
    before the checks (:func:`_load_include`)."""
    text, path, source = _read(path_or_text)
    if fmt is None:
        fmt = "json" if path is not None and path.suffix.lower() == ".json" else "yaml"
    if fmt not in ("yaml", "json"):
        raise ModelError(f"unknown model format {fmt!r}; use 'yaml' or 'json'")
    try:
        data, lines, problems = read_document(text, source, fmt)
    except SchemaError as err:
        return None, err.problems
    ck = Checker(source, lines)
    ck.problems.extend(problems)
    if adjust is not None:
        data = adjust(data)
    model = _check(ck, data, path, source)
    return model, sorted(ck.problems, key=lambda p: _line_in(p, len(source)))


def _line_in(problem: str, skip: int) -> int:
    """The line number of ``"<source>:<line>: ..."`` (0 if none), to list problems in file order."""
    head = problem[skip + 1 :].split(":", 1)[0]
    return int(head) if head.isdigit() else 0


def _read(path_or_text: str | pathlib.Path) -> tuple[str, pathlib.Path | None, str]:
    limit = current().file_bytes
    if isinstance(path_or_text, str) and (
        "\n" in path_or_text or path_or_text.lstrip().startswith("{")
    ):
        if len(path_or_text) > limit:
            raise ModelError(f"the model text has {len(path_or_text)} characters, more than "
                             f"the limit of {limit} (--limit file_mb=N raises it)")
        return path_or_text, None, "<string>"
    path = pathlib.Path(path_or_text)
    try:
        info = path.stat()
        if stat.S_ISDIR(info.st_mode):
            raise ModelError(f"'{path_or_text}' is a directory, not a model file")
        if not stat.S_ISREG(info.st_mode):
            raise ModelError(f"'{path_or_text}' is not a regular file (a device, pipe or "
                             "socket); give the path of a model file")
        if info.st_size > limit:
            raise ModelError(f"model file '{path_or_text}' has {info.st_size / 1e6:.1f} MB, "
                             f"more than the limit of {limit / 1e6:g} MB (--limit file_mb=N "
                             "raises it)")
        with open(path, "rb") as fh:
            raw = fh.read(limit + 1)  # never more than the limit, whatever stat said
        if len(raw) > limit:
            raise ModelError(f"model file '{path_or_text}' is larger than the limit of "
                             f"{limit / 1e6:g} MB (--limit file_mb=N raises it)")
        return raw.decode("utf-8"), path, str(path_or_text)
    except FileNotFoundError:
        raise ModelError(f"model file '{path_or_text}' not found; check the path") from None
    except IsADirectoryError:
        raise ModelError(f"'{path_or_text}' is a directory, not a model file") from None
    except UnicodeDecodeError:
        raise ModelError(f"model file '{path_or_text}' is not UTF-8 text") from None
    except OSError as err:
        raise ModelError(f"cannot read model file '{path_or_text}': {err.strerror}") from None


def _check(ck: Checker, data: Any, path: pathlib.Path | None,
           source: str = "<dict>") -> Model | None:
    document = data
    ck.path = path
    ck.folder = path.parent if path is not None else ck.folder
    ck.include_loader = _load_include
    if data is None:
        ck.report((), "the model is empty; see docs/model-files.md for the format")
        return None
    if not isinstance(data, dict):
        ck.report(
            (),
            f"a model must be a mapping with keys {', '.join(_TOP_KEYS)}, ..., "
            f"got a {type(data).__name__}",
        )
        return None
    kinds = [k for k in data if k in SECTIONS]
    bare = not kinds and any(k in data for k in _BARE_PHS_KEYS)
    if bare:  # the object printed by 'porthamiltonian phs --json'
        kinds = ["phs"]
        section_value: Any = {k: v for k, v in data.items() if k not in _TOP_KEYS}
        section_path: KeyPath = ()
        data = {k: v for k, v in data.items() if k in _TOP_KEYS}
    else:
        _top_keys(ck, data)
    name = _name(ck, data, bare, path)
    description = data.get("description", "")
    if not isinstance(description, str):
        ck.report(("description",), f"description: must be text, got {excerpt(description)}")
    params, params_path = data.get("parameters"), ("parameters",)
    if (
        not bare
        and kinds == ["phs"]
        and isinstance(data["phs"], dict)
        and "parameters" in data["phs"]
    ):
        if params is not None:
            ck.report(
                ("phs", "parameters"),
                "phs.parameters: the parameters are given twice (also at the top level); keep one",
            )
        else:
            params, params_path = data["phs"]["parameters"], ("phs", "parameters")
    check_parameters(ck, params, params_path)
    if len(kinds) != 1:
        what = "no model section" if not kinds else f"{len(kinds)} model sections"
        ck.report(
            (kinds[1],) if kinds else (),
            f"{what}; a model has exactly one of: {', '.join(SECTIONS)}",
        )
        return None
    kind = kinds[0]
    if not bare:
        section_value, section_path = data[kind], (kind,)
    section: Section = SECTIONS[kind](ck, section_value, section_path)
    simulate = None
    if data.get("simulate") is not None:
        simulate = check_simulate(ck, data["simulate"], ("simulate",), section,
                                  None if path is None else path.parent)
    if ck.problems:
        return None
    return Model(
        name=name,
        path=path,
        parameters=dict(ck.values),
        symbols=dict(ck.symbols),
        kind=kind,
        section=section.data,
        simulate=simulate,
        description=description if isinstance(description, str) else "",
        lines=ck.lines,
        document=document,
        source=source,
        folder=ck.folder,
    )


def _load_include(path: pathlib.Path, symbolic: Sequence[str] = ()
                  ) -> tuple[Model | None, list[str]]:
    """An included model file (``bondgraph.include``, :mod:`.bondgraph_include`), checked
    without its ``simulate`` section and with the parameters ``symbolic`` left as free
    symbols (the including file binds them); the problems name this file and its lines.
    Raises :class:`ModelError` if the file cannot be read (the limits in force apply)."""
    def included(data: Any) -> Any:
        if not isinstance(data, dict):
            return data
        data = {k: v for k, v in data.items() if k != "simulate"}
        if symbolic:
            given = data.get("parameters")
            data["parameters"] = {**(given if isinstance(given, dict) else {}),
                                  **dict.fromkeys(symbolic)}
        return data

    return _check_source(path, None, included)


def _top_keys(ck: Checker, data: dict[Any, Any]) -> None:
    expected = [*_TOP_KEYS[:3], *SECTIONS, "simulate"]
    for key in data:
        if key not in expected:
            ck.report(
                (key,), f"unknown top-level key {key!r}; expected one of {', '.join(expected)}"
            )


def _name(ck: Checker, data: dict[Any, Any], bare: bool, path: pathlib.Path | None) -> str:
    name = data.get("name")
    if (name is None or name == "") and bare:
        return path.stem if path is not None else "model"
    if name is None:
        ck.report((), "missing key 'name'; give the model a name (name: my-model)")
        return ""
    if not isinstance(name, str) or not name.strip():
        ck.report(("name",), f"name: must be non-empty text, got {name!r}")
        return ""
    return name
