r"""``export_fmu``: a port-Hamiltonian system as a Functional Mock-up Unit.

An FMU is a zip (FMI 3.0 §2.5, FMI 2.0 §2.3) holding

- ``modelDescription.xml`` — the variables with names, units, causality (:mod:`.description`);
- ``sources/`` — the C code: ``model.c`` generated from the model (:mod:`.ccode`),
  ``solver.c`` (the co-simulation step), ``fmi3.c`` or ``fmi2.c`` (the FMI functions),
  the headers and ``buildDescription.xml``, so an importer can build it;
- ``binaries/<platform>/<identifier>.so`` (``.dylib``, ``.dll``) — compiled for this
  machine when a C compiler is found (:mod:`.build`).

Co-Simulation integrates with the library's structure-preserving step in C — implicit
midpoint (exact energy balance for quadratic :math:`H`) or Gonzalez's discrete gradient
(exact for any :math:`H`) — with inputs held constant over each communication step;
Model Exchange gives :math:`\dot x` and the outputs to the importer's solver.
"""

from __future__ import annotations

import hashlib
import math
import re
import uuid
import warnings
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ...errors import ModelError
from .build import compile_library, find_compiler, library_suffix, platform_folder, write_zip
from .ccode import model_c, nodes
from .description import build_description, model_description
from .layout import METHODS, Layout, config_h
from .model import fmu_model

__all__ = ["export_fmu", "ExportedFmu"]

_KINDS = {"me": "me", "cs": "cs", "modelexchange": "me", "cosimulation": "cs"}
_VERSIONS = {"3.0": "3.0", "3": "3.0", "2.0": "2.0", "2": "2.0"}
#: the internal step when none is given: one step per communication step
_NO_DT = 1e308


@dataclass(frozen=True)
class ExportedFmu:
    """What :func:`export_fmu` wrote: the ``path``, the ``identifier`` (name of the
    shared library), FMI version and kind, the co-simulation ``method``, the ``binary``
    inside the zip (``None``: sources only), the ``files`` of the zip and the model names
    of the states, inputs, outputs, tunable parameters and ``modulated`` parameters
    (those without a value, which are inputs of the FMU)."""

    path: Path
    identifier: str
    fmi: str
    kind: str
    method: str
    binary: str | None
    files: tuple[str, ...]
    states: tuple[str, ...] = ()
    inputs: tuple[str, ...] = ()
    outputs: tuple[str, ...] = ()
    parameters: tuple[str, ...] = ()
    modulated: tuple[str, ...] = ()

    @property
    def compiled(self) -> bool:
        return self.binary is not None


def export_fmu(system: Any, path: str | Path, *, kind: str = "cs", fmi: str = "3.0",
               method: str = "midpoint", dt: float | None = None, start: Any = None,
               u: Any = None, compile: bool = True, name: str | None = None,
               t_end: float | None = None) -> ExportedFmu:
    r"""Write ``system`` as an FMU to ``path``.

    Parameters
    ----------
    system : PHS or DescriptorPHS
        A symbolic PHS (parameters become tunable FMU parameters, their values the start
        values; a parameter without a value, like a modulated switch, becomes an input
        of the FMU with start 0), a numeric linear PHS (dense or sparse matrices,
        written as constants), or a descriptor system with an explicit form
        (:meth:`DescriptorPHS.to_phs`).
    path : str or Path
        The ``.fmu`` file to write (replaced atomically).
    kind : ``"cs"`` or ``"me"``
        Co-Simulation (the FMU integrates) or Model Exchange (the importer integrates).
    fmi : ``"3.0"`` or ``"2.0"``
        The FMI version.
    method : ``"midpoint"`` or ``"discrete_gradient"``
        The co-simulation step: implicit midpoint (exact energy balance for quadratic
        :math:`H`) or Gonzalez's discrete gradient (exact for any :math:`H`); the same
        equations as :func:`porthamiltonian.simulate` with that method.
    dt : float, optional
        Largest internal step in s; a communication step of length :math:`h` is done in
        :math:`\lceil h/dt\rceil` equal steps.  Default: one step per communication step.
    start : sequence or mapping, optional
        Initial state (start values of the state variables, by name or in order); default 0.
    u : sequence or mapping, optional
        Start values of the inputs (constants; the importer sets them afterwards); default 0.
    compile : bool
        Compile the C code for this machine (needs ``$CC``, ``cc``, ``gcc`` or ``clang``);
        without a compiler, or with ``False``, the FMU carries its sources only (a warning
        says so when a compiler was wanted).
    name : str, optional
        Model name in the FMU (default: the system's name); the ``modelIdentifier`` is
        made of its letters, digits and underscores.
    t_end : float, optional
        Stop time of the FMU's default experiment.

    Returns
    -------
    ExportedFmu

    Raises
    ------
    ModelError
        For a system that cannot be exported (a mechanism, a function-defined energy, a
        descriptor system without explicit form), a function with no C equivalent, bad
        options, or a compiler failure (its first error line).
    """
    kind_, fmi_ = _choice(kind, _KINDS, "kind", "'me' or 'cs'"), \
        _choice(fmi, _VERSIONS, "fmi", "'3.0' or '2.0'")
    if method not in METHODS:
        raise ModelError(f"method={method!r} cannot run inside an FMU; choose one of "
                         f"{', '.join(METHODS)}")
    if dt is not None and not (isinstance(dt, (int, float)) and math.isfinite(dt) and dt > 0):
        raise ModelError(f"dt={dt!r}: the internal step must be a positive number of seconds")
    if t_end is not None and not (math.isfinite(float(t_end)) and float(t_end) > 0):
        raise ModelError(f"t_end={t_end!r}: the stop time must be a positive number of seconds")
    out = Path(path)
    if out.suffix.lower() != ".fmu":
        raise ModelError(f"{out}: an FMU file name ends in .fmu")
    model = fmu_model(system, start, u)
    if name is not None:
        model.name = str(name)
    model.t_end = None if t_end is None else float(t_end)
    identifier = model_identifier(model.name, out.stem)
    layout = Layout(model.n, model.m, len(model.parameters))

    code = model_c(model)
    token = _token(code, model, kind_, fmi_, method, dt)
    runtime = "fmi3.c" if fmi_ == "3.0" else "fmi2.c"
    sources = {
        "phx_config.h": config_h(model, layout, token=token, method=method,
                                 dt=_NO_DT if dt is None else dt, nq=nodes(model.degree)),
        "phx.h": _template("phx.h"),
        "model.c": code,
        "solver.c": _template("solver.c"),
        runtime: _template(runtime),
    }
    c_files = ["model.c", "solver.c", runtime]
    files: dict[str, bytes] = {
        "modelDescription.xml": model_description(
            model, layout, kind=kind_, fmi=fmi_, token=token, identifier=identifier,
            dt=_NO_DT if dt is None else dt, sources=c_files, version=_version()),
    }
    files.update({f"sources/{k}": v.encode() for k, v in sources.items()})
    files["sources/buildDescription.xml"] = build_description(identifier, c_files, fmi_)
    binary = None
    if compile:
        compiler = find_compiler()
        if compiler is None:
            warnings.warn("no C compiler found ($CC, cc, gcc, clang): the FMU carries its "
                          "sources only (sources/, buildDescription.xml); the importer must "
                          "build it", stacklevel=2)
        else:
            binary = f"binaries/{platform_folder(fmi_)}/{identifier}{library_suffix()}"
            files[binary] = compile_library(sources, identifier, compiler)
    write_zip(out, files)
    names = lambda vs: tuple(v.name for v in vs)  # noqa: E731
    return ExportedFmu(out, identifier, fmi_, kind_, method, binary, tuple(files),
                       names(model.states), names(model.inputs), names(model.outputs),
                       tuple(v.name for v in model.parameters if v.name not in model.modulated),
                       tuple(v.name for v in model.parameters if v.name in model.modulated))


def _choice(value: Any, table: dict[str, str], what: str, allowed: str) -> str:
    key = str(value).strip().lower().replace("-", "").replace("_", "").replace(" ", "")
    if key not in table:
        raise ModelError(f"{what}={value!r}: choose {allowed}")
    return table[key]


def model_identifier(name: str, fallback: str) -> str:
    """A C identifier and file name from the model's name (FMI: ``modelIdentifier``)."""
    for text in (name, fallback):
        ident = re.sub(r"[^A-Za-z0-9_]+", "_", text.encode("ascii", "ignore").decode())
        ident = ident.strip("_")[:64]
        if ident:
            return ident if not ident[0].isdigit() else f"m_{ident}"
    return "phs_model"


def _token(code: str, model: Any, kind: str, fmi: str, method: str, dt: Any) -> str:
    """The instantiation token (FMI 2.0 GUID): a UUID derived from the content, so the
    same model exported twice gives the same token."""
    h = hashlib.sha256()
    for part in (code, kind, fmi, method, repr(dt), model.name,
                 *(v.name for v in (*model.states, *model.inputs, *model.outputs,
                                    *model.parameters))):
        h.update(part.encode("utf-8", "replace") + b"\0")
    return "{" + str(uuid.UUID(bytes=h.digest()[:16], version=5)) + "}"


def _template(name: str) -> str:
    return resources.files(__package__).joinpath("templates", name).read_text(encoding="utf-8")


def _version() -> str:
    try:
        from importlib.metadata import version

        return version("porthamiltonian")
    except Exception:  # not installed (a source checkout)
        return "development version"
