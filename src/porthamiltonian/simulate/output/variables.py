r"""Physical variables of a result: every series by name, with its kind and unit.

A :class:`~.result.SimulationResult` stores the states, inputs and outputs the
integrator produced.  The :class:`Observer` attached by :func:`~..run.simulate` adds, on
demand and cached, what a person reads:

* the co-energy of every state, :math:`e = \nabla H(x)` (ODE) or :math:`z(x)` (DAE) —
  current, voltage, speed, force — named by the model's
  :class:`~porthamiltonian.quantities.Quantities` (``"L1.i"``, ``"load.w"``) or
  generically ``"dH/d<state>"``;
* the model's observables: storages merged away (their state and co-energy from the
  kept states), joint angles and rates of a mechanism, constraint forces;
* the energy ``H`` (J) and the powers (W).

Units are SI strings in pint notation (``""`` when unknown).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np

from ...quantities import Observable, Quantities, Quantity, pretty_unit, quantities_of

__all__ = ["Variable", "Observer"]

#: above this many co-energies a result shows none by default (plots stay readable)
MAX_SHOWN = 12


@dataclass(frozen=True)
class Variable:
    """One named series: its ``role`` (``"state"``, ``"coenergy"``, ``"input"``,
    ``"output"``, ``"joint"``, ``"body"``, ``"force"``, ``"observable"``, ``"energy"``,
    ``"power"``, ``"multiplier"``), its ``kind`` and SI ``unit``, and the ``element`` it
    belongs to."""

    name: str
    kind: str
    unit: str
    role: str
    element: str = ""
    description: str = ""

    def label(self) -> str:
        """``"L1.i (A)"``: the name with its unit."""
        return f"{self.name} ({pretty_unit(self.unit)})" if self.unit else self.name


def _var(name: str, q: Quantity, role: str, element: str = "", description: str = "") -> Variable:
    return Variable(name, q.kind, q.unit, role, element, description)


class Observer:
    """The physical variables of results of ``system`` (see the module docstring)."""

    def __init__(self, system: Any, compiled: Any = None) -> None:
        self.system = system
        #: the run's compiled system (``None``: compile the model; ``False``: no co-energy)
        self.compiled = compiled
        self.name = str(getattr(system, "name", "") or "")
        self.quantities: Quantities = quantities_of(system) or Quantities()
        self._observables = {o.name: o for o in self.quantities.observables}
        self._functions: dict[str, Any] = {}

    # ------------------------------------------------------------------ the table
    def variables(self, res: Any) -> list[Variable]:
        """Every series of ``res`` with its meaning, in display order."""
        q = self.quantities
        out: list[Variable] = []
        for s in res.states:
            info = q.states.get(s)
            out.append(_var(s, info.quantity if info else Quantity("state"), "state",
                            info.element if info else ""))
        for s in res.states:
            info = q.states.get(s)
            if (info.coenergy_name if info else f"dH/d{s}") in self._observables:
                continue  # the model defines it (e.g. from the storages before a merge)
            if info is not None:
                out.append(_var(info.coenergy_name, info.coenergy, "coenergy", info.element,
                                f"∂H/∂{s}"))
            else:
                out.append(Variable(f"dH/d{s}", "co-energy", "", "coenergy", "",
                                    f"∂H/∂{s}"))
        for o in self.quantities.observables:
            out.append(_var(o.name, o.quantity, o.role, o.element, o.description))
        for role, names in (("input", res.inputs), ("output", res.outputs)):
            for p in names:
                out.append(_var(p, q.ports.get(p, Quantity(role)), role))
        for name in getattr(res, "multipliers", []):
            out.append(Variable(name, "constraint force", "", "multiplier"))
        out.append(Variable("H", "energy", "J", "energy", description="Hamiltonian"))
        for name, what in (("stored", "dH/dt"), ("supplied", "uᵀy"), ("dissipated", "d ≥ 0")):
            out.append(Variable(name, "power", "W", "power", description=what))
        return out

    def shown(self, res: Any) -> list[str]:
        """The names a summary and the default plot show: the observables marked
        ``shown`` and, unless the model shows only those, the co-energies (at most
        :data:`MAX_SHOWN`)."""
        q = self.quantities
        names = [o.name for o in q.observables if o.shown]
        if q.shown_only:
            return names
        co = [v.name for v in self.variables(res) if v.role == "coenergy"]
        return names + co if len(co) <= MAX_SHOWN else names

    def coenergy_of(self, res: Any, what: str) -> str:
        """The co-energy's series name of a state or storage element ``what``."""
        q = self.quantities
        if what in q.states:
            return q.states[what].coenergy_name
        for info in q.states.values():
            if info.element == what:
                return info.coenergy_name
        for o in q.observables:
            if o.role == "coenergy" and (o.element == what or o.name == what):
                return o.name
        if what in res.states:
            return f"dH/d{what}"
        raise KeyError(f"{what!r} is neither a state nor a storage element; states: "
                       f"{', '.join(res.states)}")

    # ------------------------------------------------------------------ evaluation
    def evaluate(self, res: Any, name: str) -> np.ndarray | None:
        """The series ``name`` over the saved points of ``res`` (``None``: not derived)."""
        if name in self._observables:
            return self._observable(res, self._observables[name])
        co = self._coenergy_index(res, name) \
            if self.system is not None and self.compiled is not False else None
        if co is not None:
            return self._coenergies(res)[:, co]
        return None

    def _coenergy_index(self, res: Any, name: str) -> int | None:
        for k, s in enumerate(res.states):
            info = self.quantities.states.get(s)
            if name == (info.coenergy_name if info else f"dH/d{s}"):
                return k
        return None

    def _coenergies(self, res: Any) -> np.ndarray:
        """∇H (or z for a DAE) at every saved state, one row per point."""
        cache = res.__dict__.setdefault("_derived", {})
        if "__coenergies__" not in cache:
            cache["__coenergies__"] = self._gradients(np.asarray(res.x, dtype=float))
        return cache["__coenergies__"]

    def _gradients(self, X: np.ndarray) -> np.ndarray:
        sysm = self.system
        Q = getattr(sysm, "Q", None) if getattr(sysm, "kind", "") in ("dense", "sparse") else None
        if Q is not None and getattr(sysm, "problem_kind", "ode") == "ode":
            return np.asarray((Q @ X.T).T, dtype=float)  # linear: one product for all points
        compiled = self.compiled or sysm.compile()
        grad = getattr(compiled, "gradient", None) or compiled.z
        out = np.empty_like(X)
        for k in range(X.shape[0]):
            out[k] = grad(X[k])
        return out

    def _observable(self, res: Any, o: Observable) -> np.ndarray:
        n = len(res.t)
        if o.func is not None:
            val = np.asarray(o.func(res), dtype=float)
        else:
            f, names = self._lambdified(o)
            cols = [res[name] for name in names]
            val = np.asarray(f(*cols), dtype=float)
        return np.broadcast_to(val, (n,)).copy() if val.ndim == 0 else val.reshape(n)

    def _lambdified(self, o: Observable) -> tuple[Any, list[str]]:
        if o.name not in self._functions:
            import sympy as sp

            params = {sp.Symbol(k, real=True): v for k, v in
                      dict(getattr(self.system, "parameters", {}) or {}).items() if v is not None}
            expr = o.expr.xreplace({s: params[sp.Symbol(s.name, real=True)]
                                    for s in o.expr.free_symbols
                                    if sp.Symbol(s.name, real=True) in params})
            syms = sorted(expr.free_symbols, key=lambda s: s.name)
            self._functions[o.name] = (sp.lambdify(syms, expr, modules="numpy"),
                                       [s.name for s in syms])
        return self._functions[o.name]

