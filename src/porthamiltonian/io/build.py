"""Compile a loaded model file to the IR (a :class:`PHS` or :class:`DescriptorPHS`).

Each model section (``phs``, ``bondgraph``, …) has one compiler, registered in
:data:`COMPILERS` by the front-end that owns it.  Its users (the command line, a model's
simulation in :mod:`.simulation`) only ever call :func:`build_system`.  It lives in
``io/`` (layer 4, docs/design.md) because it reads the model-file sections and calls the
front-ends below; the compilers import their front-end when first called.
"""

from __future__ import annotations

from collections.abc import Callable
from importlib.metadata import PackageNotFoundError, version
from typing import Any

import sympy as sp

from ..bounded import SymbolicLimit, bounded, budget_seconds
from ..descriptor import DescriptorPHS
from ..errors import ModelError
from ..phs import MATRIX_NAMES, PHS
from .located import located

System = PHS | DescriptorPHS
COMPILERS: dict[str, Callable[[Any], System]] = {}


def register(kind: str) -> Callable[[Callable[[Any], System]], Callable[[Any], System]]:
    """Decorator: register the compiler of a model-file section."""

    def deco(func: Callable[[Any], System]) -> Callable[[Any], System]:
        COMPILERS[kind] = func
        return func

    return deco


def build_system(model: Any) -> System:
    """The IR of a loaded :class:`~porthamiltonian.io.Model`."""
    try:
        compiler = COMPILERS[model.kind]
    except KeyError:
        raise ModelError(
            f"{model.path or model.name}: '{model.kind}' models cannot be compiled by "
            f"porthamiltonian {_version()} (it compiles: {', '.join(sorted(COMPILERS))})"
        ) from None
    # the whole symbolic build within a budget (each check inside has its own, smaller one)
    total = BUILD_BUDGET_FACTOR * budget_seconds()
    try:
        with bounded("building the model", total):
            return compiler(model)
    except SymbolicLimit as limit:
        raise ModelError(
            f"{model.path or model.name}: {limit} — the symbolic work did not finish; "
            "simplify the expressions (floats such as 1.0 inside log/exp slow SymPy down), "
            "or allow more time with PORTHAMILTONIAN_SYMBOLIC_SECONDS (now "
            f"{budget_seconds():g} s per step, {total:g} s for the whole model)") from None


#: the whole model build may take this many single-step budgets
BUILD_BUDGET_FACTOR = 24


def _version() -> str:
    """The installed version (as ``porthamiltonian.__version__``, which sits above ``io``)."""
    try:
        return version("porthamiltonian")
    except PackageNotFoundError:  # running from a source tree that was not installed
        return "0.0.0+unknown"


#: kept under its old name for the section compilers here
_located = located


def _plain(value: Any) -> Any:
    """Matrices and parsed expressions back to the list/str/number form of PHS.from_dict."""
    if isinstance(value, sp.MatrixBase):
        return [[_plain(v) for v in row] for row in value.tolist()]
    if isinstance(value, (list, tuple)):
        return [_plain(v) for v in value]
    if isinstance(value, sp.Basic):
        return value
    if isinstance(value, dict) and "expr" in value:  # parsed entry kept with its source
        return value["expr"]
    return value


@register("phs")
def _compile_phs(model: Any) -> PHS:
    section = dict(model.section)
    data: dict[str, Any] = {"name": model.name}
    for key in ("states", "inputs", "outputs", "hamiltonian", "Q", *MATRIX_NAMES):
        if section.get(key) is not None:
            data[key] = _plain(section[key])
    data["parameters"] = model.parameter_settings()
    with _located(model, "phs: "):
        return PHS.from_dict(data)


@register("bondgraph")
def _compile_bondgraph(model: Any) -> System:
    from ..bondgraph import BondGraph
    from ..bondgraph.generate import to_phs

    with _located(model):
        return to_phs(BondGraph.from_model(model))


@register("network")
def _compile_network(model: Any) -> System:
    from ..network import Network

    with _located(model, "network: "):
        return Network.from_model(model).system()


@register("mechanism")
def _compile_mechanism(model: Any) -> System:
    from .mechanism_run import compile_mechanism

    with _located(model, "mechanism: "):
        return compile_mechanism(model)


@register("distributed")
def _distributed(model: Any) -> System:
    from .distributed_build import build_domain_model

    return build_domain_model(model).system


@register("reactions")
def _reactions(model: Any) -> Any:
    from .reactions_section import build_reactions

    with _located(model, "reactions: "):
        return build_reactions(model)
