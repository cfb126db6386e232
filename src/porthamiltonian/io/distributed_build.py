"""Building the ``distributed`` section's model (:mod:`.distributed_section` checks it).

The domain (a generated shape or a mesh file inside the model's folder), the model of
:mod:`porthamiltonian.distributed.domains` with the file's coefficients (numbers, or
expressions of x, y, z made NumPy functions), and the initial state from field
expressions (``simulate.initial``): continuous fields interpolated at the nodes,
discontinuous ones L²-projected with the energy's weight.
"""

from __future__ import annotations

import pathlib
from collections.abc import Mapping
from typing import Any

import sympy

from ..errors import ModelError
from .distributed_section import _COORDS
from .located import located

__all__ = ["build_domain_model", "initial_state"]


def _root(model: Any) -> pathlib.Path:
    return model.path.parent if model.path is not None else pathlib.Path.cwd()


def _make_domain(model: Any) -> Any:
    from ..distributed import domains as dd

    spec = model.section["domain"]
    if "mesh" in spec:
        return dd.load_mesh(spec["mesh"], root=_root(model), scale=spec["scale"])
    if spec["shape"] == "rectangle":
        return dd.rectangle(*spec["size"], spec["elements"], cell=spec["cell"],
                            origin=spec["origin"])
    if spec["shape"] == "box":
        return dd.box(spec["size"], spec["elements"], cell=spec["cell"],
                      origin=spec["origin"])
    return dd.disk(spec["radius"], spec["refine"])


def _function(value: Any) -> Any:
    """A coefficient for the model functions: a float, or a NumPy function of x, y(, z)."""
    if not isinstance(value, sympy.Basic):
        return value
    import numpy as np

    symbols = [sympy.Symbol(c, real=True) for c in _COORDS]
    f = sympy.lambdify(symbols, value, modules="numpy")

    def coefficient(*xyz: Any) -> Any:
        xyz = list(xyz) + [np.zeros_like(xyz[0])] * (3 - len(xyz))
        return np.asarray(f(*xyz), dtype=float) * np.ones_like(xyz[0])

    return coefficient


def build_domain_model(model: Any) -> Any:
    """The :class:`~porthamiltonian.distributed.domains.DomainModel` of a loaded model
    with a ``distributed`` section (its ``.system`` is what :func:`build_system` gives);
    a :class:`ModelError` names the file and the fault."""
    with located(model, "distributed: "):
        return _build(model)


def _build(model: Any) -> Any:
    from ..distributed import domains as dd

    section = model.section
    spec = section["model"]
    kind = spec["kind"]
    domain = _make_domain(model)
    params = {k: _function(v) for k, v in spec["parameters"].items()}
    options: dict[str, Any] = {"name": model.name or kind}
    if spec["degree"] is not None:  # else the model's own default
        options["degree"] = spec["degree"]
    if section["boundary"] is not None:
        options["boundary"] = section["boundary"]
    if section["points"]:
        options["points"] = section["points"]
    if kind == "wave":
        return dd.wave(domain, params.pop("density"), params.pop("stiffness"), **params,
                       **options)
    if kind == "membrane":
        return dd.membrane(domain, params.pop("rho"), params.pop("tension"), **params,
                           **options)
    if kind == "heat":
        return dd.heat(domain, params["capacity"], params["conductivity"], **options)
    if kind in ("maxwell_te", "maxwell_tm"):
        fn = dd.maxwell_te if kind == "maxwell_te" else dd.maxwell_tm
        return fn(domain, params["epsilon"], params["mu"], **options)
    fn = dd.mindlin if kind == "mindlin" else dd.kirchhoff
    try:
        return fn(domain, **params, **options)
    except TypeError as exc:
        import inspect

        takes = ", ".join(p for p in inspect.signature(fn).parameters if p != "domain")
        raise ModelError(f"model: a {kind} takes {takes}; {exc}") from None


def initial_state(model: Any, system: Any, given: Mapping[str, Any]) -> Any:
    """The initial state vector of a distributed model from ``simulate.initial``: fields
    (``("field", [exprs])`` entries) evaluated at the dofs, then single states by name;
    the rest zero.  ``system`` is the system being simulated (the built one or its
    explicit form: the same states)."""
    import numpy as np

    given = dict(given or {})
    if not given:
        return None
    dm = build_domain_model(model)
    states = list(system.states)
    if states != list(dm.system.states):
        raise ModelError(f"{model.path or model.name}: the simulated system's states are "
                         "not those of the distributed model")
    values = model.parameter_values()
    fields = {n: v[1] for n, v in given.items() if isinstance(v, tuple) and v[0] == "field"}
    with located(model, "simulate.initial: "):
        x = _field_state(dm, {n: [e.xreplace(values) for e in ex] for n, ex in fields.items()})
    index = {s: i for i, s in enumerate(states)}
    for name, value in given.items():
        if name in fields:
            continue
        if name not in index:
            raise ModelError(f"{model.path or model.name}: simulate.initial: unknown state "
                             f"or field {name!r}; the fields: {', '.join(_FIELDS_OF(dm))}")
        x[index[name]] = float(value)
    return np.asarray(x, dtype=float)


def _FIELDS_OF(dm: Any) -> list[str]:  # noqa: N802 - a helper named like the table
    return [n for n, v in dm.views.items() if v.component is None]


def _field_state(dm: Any, fields: Mapping[str, list[sympy.Expr]]) -> Any:
    """States whose co-energy fields are ``fields`` (expressions of x, y, z)."""
    import numpy as np

    from .._matrices import block_inverse

    layout = dm.layout
    dofs: dict[str, np.ndarray] = {}
    symbols = [sympy.Symbol(c, real=True) for c in _COORDS]
    terms = {t.field: t for t in dm.energy_terms}
    for name, exprs in fields.items():
        view = dm.views.get(name)
        if view is None or view.component is not None:
            raise ModelError(f"the {dm.kind} has no field {name!r}; its fields: "
                             f"{', '.join(_FIELDS_OF(dm))}")
        block = layout.fields[view.field]
        fns = [sympy.lambdify(symbols, ex, modules="numpy") for ex in exprs]

        def at(points: Any, fns: list[Any] = fns) -> Any:
            xyz = [points[k] if k < points.shape[0] else np.zeros_like(points[0])
                   for k in range(3)]
            return np.stack([np.asarray(f(*xyz), dtype=float) * np.ones_like(xyz[0])
                             for f in fns])

        basis = block.basis
        if block.continuous:
            vals = at(basis.doflocs)[0]
        else:  # L² projection weighted as the energy: W e = ∫ c ψ·f
            b = _weighted_load(basis, terms.get(view.field), at)
            inverse = block_inverse(block.mass)
            vals = inverse @ b if inverse is not None else _solve(block.mass, b)
        if not np.all(np.isfinite(vals)):
            raise ModelError(f"the initial field {name!r} is not finite everywhere")
        dofs[name] = vals
    return dm.state(**dofs)  # placed in the co-energy vector, × W for the explicit form


def _weighted_load(basis: Any, term: Any, at: Any) -> Any:
    r""":math:`\int c\,\psi_i\cdot f` on a discontinuous basis, ``c`` the weight of the
    field's energy term (1/c when the term is inverted)."""
    import numpy as np
    import skfem

    @skfem.LinearForm
    def rhs(v: Any, w: Any) -> Any:
        c = 1.0 if term is None else term.weight(w.x)
        c = 1.0 / c if term is not None and term.inverse else c
        f = at(w.x)
        value = np.asarray(v)
        if value.ndim == f.ndim - 1:  # a scalar field
            return c * f[0] * value
        return c * (f * value).sum(0)

    return skfem.asm(rhs, basis)


def _solve(A: Any, b: Any) -> Any:
    from scipy.sparse.linalg import spsolve

    return spsolve(A.tocsc(), b)
