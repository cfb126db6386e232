"""The method registry: ``METHODS = {name: method class}``, as SciPy's ``solve_ivp`` has.

Every entry honours the contract of :mod:`.method` (``name``, ``order``, ``problems``,
``energy``, ``solve``).  ``simulate(..., method=...)`` takes a registered name or a method
class itself; :func:`register_method` adds a user's own class under its name, after which
the contract tests (``tests/simulate/test_method_contract.py``) cover it like ours.

=====================  =====  ========  ====================================================
name                   order  problems  exact energy balance
=====================  =====  ========  ====================================================
``auto`` (default)     2      ODE, DAE  any H: midpoint for quadratic H, else the discrete
                                        gradient (:mod:`.auto`)
``midpoint``           2      ODE, DAE  quadratic H (symplectic)
``discrete_gradient``  2      ODE, DAE  any H (Gonzalez 1996)
``avf``                2      ODE       any H (Quispel & McLaren 2008)
``avf4``, ``avf6``     4, 6   ODE       any H (AVF composed: Yoshida 1990, Kahan & Li
                                        1997; backward substeps, see
                                        :mod:`.ode.composition`)
``gauss1``–``gauss6``  2s     ODE       quadratic H (Gauss–Legendre collocation)
``rk4``                4      ODE       none
``ida``                ≤ 5    DAE       none (SUNDIALS IDA, variable-order BDF)
SciPy ``RK45`` …       —      ODE       none (``solve_ivp``: RK45, DOP853, Radau, BDF,
                                        LSODA, RK23)
=====================  =====  ========  ====================================================
"""

from __future__ import annotations

from typing import Any

from ..errors import ModelError
from .auto import Auto
from .dae.ida import IDA
from .method import ENERGY_CLASSES, Method
from .ode.composition import AVF4, AVF6
from .ode.discrete_gradient import AVF, DiscreteGradient
from .ode.explicit import RK4
from .ode.gauss import GAUSS_METHODS
from .ode.midpoint import Midpoint
from .ode.scipy_ivp import SCIPY_CLASSES
from .problem.problem import PROBLEM_KINDS

__all__ = ["METHODS", "register_method", "resolve_method", "methods_for"]

#: every registered method, by name
METHODS: dict[str, type[Method]] = {
    cls.name: cls for cls in (Auto, Midpoint, DiscreteGradient, AVF, AVF4, AVF6,
                              *GAUSS_METHODS, RK4, IDA,
                              *SCIPY_CLASSES)
}


def _check_class(cls: Any) -> type[Method]:
    """``cls`` if it honours the method contract, else a :class:`ModelError` naming what
    is missing."""
    if not (isinstance(cls, type) and issubclass(cls, Method)):
        raise ModelError(f"a method must be a subclass of porthamiltonian.simulate.Method "
                         f"(or OneStepMethod), got {cls!r}")
    problems = set(getattr(cls, "problems", ()))
    bad = [p for p in problems if p not in PROBLEM_KINDS]
    if not cls.name or not problems or bad or cls.energy not in ENERGY_CLASSES \
            or int(cls.order) < 1:
        raise ModelError(f"method class {cls.__name__}: set name (non-empty), order (≥ 1), "
                         f"problems (a subset of {sorted(PROBLEM_KINDS)}) and energy (one of "
                         f"{', '.join(ENERGY_CLASSES)})")
    if "dae" in problems and getattr(cls, "dae_step", "solve") is None:
        raise ModelError(f"method class {cls.__name__} lists 'dae' in problems but has no "
                         "dae_step")
    return cls


def register_method(cls: type[Method], *, replace: bool = False) -> type[Method]:
    """Add ``cls`` to :data:`METHODS` under ``cls.name`` (usable as a decorator).

    A name already taken raises :class:`ModelError` unless ``replace=True``.
    """
    cls = _check_class(cls)
    if cls.name in METHODS and METHODS[cls.name] is not cls and not replace:
        raise ModelError(f"a method named {cls.name!r} is already registered; pass "
                         "replace=True to replace it")
    METHODS[cls.name] = cls
    return cls


def methods_for(kind: str) -> list[str]:
    """Names of the registered methods that solve problems of ``kind``."""
    return [name for name, cls in METHODS.items() if kind in cls.problems]


def resolve_method(method: Any, kind: str) -> type[Method]:
    """The method class for ``method`` (a registered name or a class) on a problem of
    ``kind``; :class:`ModelError` for an unknown name or a method that cannot solve it."""
    if isinstance(method, str):
        cls = METHODS.get(method)
        if cls is None:
            raise ModelError(f"unknown simulation method {method!r}; choose one of "
                             f"{', '.join(METHODS)}")
    else:
        cls = _check_class(method)
    if kind not in cls.problems:
        if kind == "dae":
            raise ModelError(f"method {cls.name!r} cannot simulate a DescriptorPHS (a DAE); "
                             f"choose one of {', '.join(methods_for('dae'))}, or reduce the "
                             "system with system.to_phs() when an explicit form exists")
        raise ModelError(f"method {cls.name!r} cannot simulate {PROBLEM_KINDS[kind]}; choose "
                         f"one of {', '.join(methods_for(kind))}")
    return cls
