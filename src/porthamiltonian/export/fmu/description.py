r"""``modelDescription.xml`` (FMI 3.0 or 2.0) and ``sources/buildDescription.xml``.

The variables, in value-reference order (:mod:`.layout`):

======================  ===========  ===========  ======================================
variable                causality    variability  notes
======================  ===========  ===========  ======================================
``time``                independent  continuous
states (model names)    local        continuous   ``initial="exact"``, start ``start=``
``der(<state>)``        local        continuous   Model Exchange only (``derivative=``)
parameters              parameter    tunable      start: the model's value
a parameter without     input        continuous   start 0 (a switch the model file
a value                                           modulates)
inputs u                input        continuous   start ``u=`` (0); held over a step
outputs y               output       continuous   :math:`(G+P)^\top\nabla H + (M+S)u`
``H``                   output       continuous   stored energy (J)
``supplied_power``      output       continuous   :math:`u^\top y` (W), into the system
``dissipated_power``    output       continuous   :math:`d \ge 0` (W)
``energy_residual``     output       continuous   Co-Simulation only: :math:`H_{k+1} -
                                                  H_k - (W_\mathrm{supplied} -
                                                  W_\mathrm{dissipated})` of the last
                                                  communication step (J)
======================  ===========  ===========  ======================================

Model names go into XML attributes only, escaped by :mod:`xml.etree.ElementTree`
(characters XML 1.0 cannot hold at all are dropped).  FMI 3.0: §2.4 of the standard
(``fmiModelDescription``, ``<Float64>``, ``<ModelStructure>`` with ``<Output>``,
``<ContinuousStateDerivative>``, ``<InitialUnknown>``) and §2.5.2 (build description);
FMI 2.0: §2.2 (``<ScalarVariable>``/``<Real>``, ``<ModelStructure>`` with 1-based
indices) and §2.3 (``<SourceFiles>``).
"""

from __future__ import annotations

import re
import xml.etree.ElementTree as ET
from dataclasses import dataclass

from .layout import Layout
from .model import FmuModel
from .units import base_units, derivative_unit

__all__ = ["FmiVariable", "variables", "model_description", "build_description",
           "clean_text"]

_INVALID_XML = re.compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def clean_text(text: str) -> str:
    """``text`` without the characters XML 1.0 cannot represent (escaping of ``<&"``
    is ElementTree's)."""
    return _INVALID_XML.sub("", str(text))


@dataclass(frozen=True)
class FmiVariable:
    """One Float64/Real variable of the model description."""

    name: str
    vr: int
    causality: str
    variability: str = "continuous"
    initial: str | None = None
    start: float | None = None
    unit: str = ""
    description: str = ""
    derivative_of: int | None = None  # value reference of the state


def _unique(name: str, taken: set[str]) -> str:
    out = name
    while out in taken:
        out = f"pH.{out}"
    taken.add(out)
    return out


def variables(model: FmuModel, layout: Layout, kind: str) -> list[FmiVariable]:
    """The FMU's variables in value-reference order (see the module docstring)."""
    taken = {v.name for v in (*model.states, *model.parameters, *model.inputs,
                              *model.outputs)}
    out = [FmiVariable(_unique("time", taken), layout.time, "independent",
                       description="time (s)", unit="s")]
    for i, (v, x0) in enumerate(zip(model.states, model.start, strict=True)):
        out.append(FmiVariable(v.name, layout.x + i, "local", initial="exact", start=x0,
                               unit=v.unit, description=v.description))
    if kind == "me":
        for i, v in enumerate(model.states):
            out.append(FmiVariable(_unique(f"der({v.name})", taken), layout.dx + i, "local",
                                   unit=derivative_unit(v.unit), derivative_of=layout.x + i,
                                   description=f"time derivative of {v.name}"))
    for j, (v, value) in enumerate(zip(model.parameters, model.parameter_values, strict=True)):
        if v.name in model.modulated:  # a switch the model modulates: an input signal
            out.append(FmiVariable(v.name, layout.p + j, "input", start=value, unit=v.unit,
                                   description=v.description))
        else:
            out.append(FmiVariable(v.name, layout.p + j, "parameter", "tunable", "exact",
                                   value, v.unit, v.description))
    for k, (v, u0) in enumerate(zip(model.inputs, model.input_start, strict=True)):
        out.append(FmiVariable(v.name, layout.u + k, "input", start=u0, unit=v.unit,
                               description=v.description))
    for k, v in enumerate(model.outputs):
        out.append(FmiVariable(v.name, layout.y + k, "output", unit=v.unit,
                               description=v.description))
    out += [
        FmiVariable(_unique("H", taken), layout.H, "output", unit="J",
                    description="stored energy H(x)"),
        FmiVariable(_unique("supplied_power", taken), layout.supplied, "output", unit="W",
                    description="power u^T y supplied to the system through its ports"),
        FmiVariable(_unique("dissipated_power", taken), layout.dissipated, "output", unit="W",
                    description="dissipated power [dH; u]^T [[R, P], [P^T, S]] [dH; u] >= 0"),
    ]
    if kind == "cs":
        out.append(FmiVariable(
            _unique("energy_residual", taken), layout.residual, "output", unit="J",
            description="energy balance residual of the last communication step: "
                        "H(end) - H(start) - (supplied work - dissipated work)"))
    return out


def _number(v: float) -> str:
    return repr(float(v))


def _units(parent: ET.Element, vs: list[FmiVariable]) -> None:
    names = sorted({v.unit for v in vs if v.unit})
    if not names:
        return
    defs = ET.SubElement(parent, "UnitDefinitions")
    for name in names:
        unit = ET.SubElement(defs, "Unit", name=clean_text(name))
        exps = base_units(name)
        if exps:
            ET.SubElement(unit, "BaseUnit", {k: str(v) for k, v in exps.items()})


def _root(tag: str, attrs: dict[str, str]) -> ET.Element:
    return ET.Element(tag, {k: clean_text(v) for k, v in attrs.items() if v is not None})


def _header(model: FmuModel, fmi: str, token: str, version: str) -> ET.Element:
    name = clean_text(model.name) or "porthamiltonian model"
    attrs = {"fmiVersion": fmi, "modelName": name,
             "description": f"port-Hamiltonian model {name}: dx/dt = (J-R) dH + (G-P) u, "
                            "y = (G+P)^T dH + (M+S) u",
             "generationTool": f"porthamiltonian {version}",
             "variableNamingConvention": "flat"}
    attrs["instantiationToken" if fmi == "3.0" else "guid"] = token
    if fmi == "2.0":
        attrs["numberOfEventIndicators"] = "0"
    return _root("fmiModelDescription", attrs)


def _experiment(root: ET.Element, model: FmuModel, dt: float) -> None:
    attrs = {"startTime": "0.0", "stepSize": _number(dt)}
    if model.t_end is not None:
        attrs["stopTime"] = _number(model.t_end)
    ET.SubElement(root, "DefaultExperiment", attrs)


def _log_categories(root: ET.Element) -> None:
    cats = ET.SubElement(root, "LogCategories")
    ET.SubElement(cats, "Category", name="logStatusError",
                  description="errors: a failed step, a refused call")


def model_description(model: FmuModel, layout: Layout, *, kind: str, fmi: str, token: str,
                      identifier: str, dt: float, sources: list[str], version: str) -> bytes:
    """The bytes of ``modelDescription.xml`` (UTF-8)."""
    vs = variables(model, layout, kind)
    root = _header(model, fmi, token, version)
    if fmi == "3.0":
        _fmi3(root, vs, kind, identifier, model, dt)
    else:
        _fmi2(root, vs, kind, identifier, model, dt, sources)
    ET.indent(root)
    return ET.tostring(root, encoding="UTF-8", xml_declaration=True) + b"\n"


def _attributes(v: FmiVariable) -> dict[str, str]:
    """The attributes a variable has in both FMI versions (its element differs)."""
    attrs = {"name": clean_text(v.name), "valueReference": str(v.vr),
             "causality": v.causality, "variability": v.variability}
    if v.description:
        attrs["description"] = clean_text(v.description)
    if v.initial:
        attrs["initial"] = v.initial
    return attrs


def _fmi3(root: ET.Element, vs: list[FmiVariable], kind: str, identifier: str,
          model: FmuModel, dt: float) -> None:
    if kind == "me":
        ET.SubElement(root, "ModelExchange", modelIdentifier=identifier,
                      needsCompletedIntegratorStep="false")
    else:
        ET.SubElement(root, "CoSimulation", modelIdentifier=identifier,
                      canHandleVariableCommunicationStepSize="true", hasEventMode="false")
    _units(root, vs)
    _log_categories(root)
    _experiment(root, model, dt)
    mv = ET.SubElement(root, "ModelVariables")
    for v in vs:
        attrs = _attributes(v)
        if v.unit:
            attrs["unit"] = clean_text(v.unit)
        if v.derivative_of is not None:
            attrs["derivative"] = str(v.derivative_of)
        if v.start is not None:
            attrs["start"] = _number(v.start)
        ET.SubElement(mv, "Float64", attrs)
    ms = ET.SubElement(root, "ModelStructure")
    for v in vs:
        if v.causality == "output":
            ET.SubElement(ms, "Output", valueReference=str(v.vr))
    for v in vs:
        if v.derivative_of is not None:
            ET.SubElement(ms, "ContinuousStateDerivative", valueReference=str(v.vr))
    for v in vs:
        if v.causality == "output" or v.derivative_of is not None:
            ET.SubElement(ms, "InitialUnknown", valueReference=str(v.vr))


def _fmi2(root: ET.Element, vs: list[FmiVariable], kind: str, identifier: str,
          model: FmuModel, dt: float, sources: list[str]) -> None:
    if kind == "me":
        el = ET.SubElement(root, "ModelExchange", modelIdentifier=identifier,
                           completedIntegratorStepNotNeeded="true")
    else:
        el = ET.SubElement(root, "CoSimulation", modelIdentifier=identifier,
                           canHandleVariableCommunicationStepSize="true")
    files = ET.SubElement(el, "SourceFiles")
    for name in sources:
        ET.SubElement(files, "File", name=name)
    _units(root, vs)
    _log_categories(root)
    _experiment(root, model, dt)
    mv = ET.SubElement(root, "ModelVariables")
    index = {v.vr: i + 1 for i, v in enumerate(vs)}  # FMI 2.0 refers by 1-based position
    for v in vs:
        attrs = _attributes(v)
        sv = ET.SubElement(mv, "ScalarVariable", attrs)
        real: dict[str, str] = {}
        if v.start is not None:
            real["start"] = _number(v.start)
        if v.derivative_of is not None:
            real["derivative"] = str(index[v.derivative_of])
        if v.unit:
            real["unit"] = clean_text(v.unit)
        ET.SubElement(sv, "Real", real)
    ms = ET.SubElement(root, "ModelStructure")
    outputs = [index[v.vr] for v in vs if v.causality == "output"]
    derivs = [index[v.vr] for v in vs if v.derivative_of is not None]
    for tag, idx in (("Outputs", outputs), ("Derivatives", derivs),
                     ("InitialUnknowns", sorted(outputs + derivs))):
        if idx:
            group = ET.SubElement(ms, tag)
            for i in idx:
                ET.SubElement(group, "Unknown", index=str(i))


def build_description(identifier: str, sources: list[str], fmi: str) -> bytes:
    """``sources/buildDescription.xml`` (FMI 3.0 §2.5.2; FMI 2.0.4 admits the same file):
    the C99 files to compile into the shared library ``identifier``, linked with libm."""
    root = ET.Element("fmiBuildDescription", fmiVersion=fmi)
    conf = ET.SubElement(root, "BuildConfiguration", modelIdentifier=identifier)
    files = ET.SubElement(conf, "SourceFileSet", language="C99")
    for name in sources:
        if name.endswith(".c"):
            ET.SubElement(files, "SourceFile", name=name)
    ET.SubElement(conf, "Library", name="m", description="the C math library (libm)")
    ET.indent(root)
    return ET.tostring(root, encoding="UTF-8", xml_declaration=True) + b"\n"
