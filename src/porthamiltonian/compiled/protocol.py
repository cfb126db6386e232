r"""The contracts between compiled systems and the simulator.

The simulator (:mod:`porthamiltonian.simulate`) never asks which front-end built a system:
it reads a model's ``problem_kind`` (``"ode"`` or ``"dae"``), calls ``model.compile()``
and from then on uses only what is written here.  A new kind of model (a bond graph, a
mesh, a multibody assembly) is simulated as soon as its compiled form honours one of
these protocols; :func:`check_compiled` verifies the attributes at run time and names
what is missing.

Notation and units: ``x`` (n,) state, ``u`` (m,) input, ``z`` or ``w`` (n,) effort,
``λ`` (k,) multipliers; energies in J, powers in W; all arrays float64.

**CompiledODE** — an explicit PHS :math:`\dot x = (J-R)(x)\nabla H + (G-P)(x)u`,
:math:`y = (G+P)^\top(x)\nabla H + (M+S)(x)u`
(:class:`~porthamiltonian.compiled.NumericPHS` is the reference implementation):

``n``, ``m``
    numbers of states and inputs.
``linear``
    constant matrices and :math:`H = \tfrac12 x^\top Q x`; then ``A = (J-R)Q``,
    ``B = G-P``, ``C = (G+P)^\top Q``, ``D = M+S`` and ``Q`` are set (dense or sparse).
``constant_matrices``
    ``{name: matrix}`` for those of ``J R G P M S`` that do not depend on the state.
``matrix(name, x)``
    ``J R G P M S`` at ``x``.
``energy(x)``, ``gradient(x)``, ``hessian(x)``
    :math:`H`, :math:`\nabla H`, :math:`\nabla^2 H` (dense or sparse).
``rhs(x, u)``, ``jacobian(x, u)``, ``output(x, u)``
    :math:`\dot x`, :math:`\partial\dot x/\partial x`, :math:`y`.
``power_balance(x, u)``
    a :class:`~porthamiltonian.compiled.PowerBalance` with a zero residual.
``port_powers(x, z, u)`` (optional)
    ``(uᵀy, dissipated)`` (W) for an effort ``z``, computed by the model itself (e.g. the
    beams' fused form), instead of from ``matrix``.
``fused_midpoint(base, problem, options)`` (optional)
    the model's own compiled implicit-midpoint stepper (same step equations; ``base`` is
    the NumPy stepper for the steps it cannot take), or ``None``; asked by
    :meth:`~porthamiltonian.simulate.ode.midpoint.Midpoint.create` unless
    ``engine="numpy"``, the input feeds back the state or the structure is modulated.
    Such a stepper may carry ``engine_report`` (what ``result.extra["engine"]`` says).

**CompiledDAE** — a descriptor PHS
:math:`E\dot x = (J-R)(x)z + B(x)\lambda + (G-P)(x)u`, :math:`0 = B(x)^\top z`,
:math:`z = z(x)` (:class:`~porthamiltonian.compiled.descriptor.CompiledDescriptor` and
the mechanism assemblies are implementations):

``n``, ``k``, ``m``; ``states``, ``inputs``, ``outputs``, ``multipliers``
    sizes and names.
``E``
    the constant descriptor matrix; ``algebraic`` (n × a) and ``left_kernel`` (n × a):
    orthonormal bases of :math:`\ker E` and :math:`\ker E^\top`.
``linear``, ``sparse``
    the step equations are affine (then ``Q`` with :math:`z = Qx`); matrices are sparse.
``z(x)``, ``Dz(x)``, ``energy(x)``
    efforts, their Jacobian, :math:`H`.
``f(x, w, λ, u)``, ``f_x(x, w, λ, u)``
    the right-hand side with an independent effort ``w`` and its ``x``-derivative at
    fixed ``(w, λ, u)`` (the midpoint rule and discrete gradients evaluate the structure
    at :math:`\bar x` and the effort at :math:`\bar z`).
``c(x, w)``, ``c_x(x, w)``, ``B(x)``, ``constraint_jacobian(x)``
    :math:`B(x)^\top w`, its ``x``-derivative, :math:`B`, and
    :math:`\partial(B^\top z(x))/\partial x`.
``matrix(name, x)``, ``output(x, u, z=None)``, ``port_powers(x, z, u)``, ``power_balance(x, u)``
    structure matrices, :math:`y`, ``(uᵀy, dissipated)`` for an effort ``z``, and the
    instantaneous balance.
``simplified_newton`` (optional, default ``False``)
    the model prefers a reused step matrix in Newton's method.
``fused_midpoint(signal, newton_tol=, max_newton=, simplified_newton=)`` (optional)
    the model's own compiled implicit-midpoint step (same step equations; an object with
    ``step(t, x, h) → (x_new, λ_mid, StepInfo, residual)`` and optionally
    ``advance(t, h, save, x, acc) → StepBlock``, many steps per call:
    :mod:`porthamiltonian.simulate.dae.blocks`), or ``None``; used by
    :meth:`~porthamiltonian.simulate.dae.midpoint.DAEMidpoint.create` without state
    feedback unless ``engine="numpy"`` (the rigid mechanism assembly has one).
``consistent_point(t, x, signal, lam_guess)`` (optional)
    the model's own consistent ``(x, λ, ẋ)`` at ``t`` (what
    :func:`porthamiltonian.simulate.dae.initialize.consistent_point` returns), for
    models whose constraints involve their algebraic states (slender bodies of
    :mod:`porthamiltonian.mechanics.slender`), which the generic solve does not assume.
``points(X, U)`` (optional)
    the saved points' outputs (K × m), ``H``, stored, supplied and dissipated power and
    :math:`\|B(x)^\top z(x)\|_\infty` (K each) for the rows of ``X`` and ``U``, in one
    call (what the DAE loop records; else point by point from the functions above).

Both may declare ``quadratic_energy`` (optional): :math:`H` is a polynomial of degree ≤ 2
in the state, so the midpoint rule balances it exactly — what ``method="auto"`` reads
when the form is not ``linear`` and the model has no symbolic :math:`H` to inspect.
"""

from __future__ import annotations

from typing import Any, Protocol, runtime_checkable

import numpy as np

from ..errors import ModelError

__all__ = ["CompiledODE", "CompiledDAE", "ODE_ATTRIBUTES", "DAE_ATTRIBUTES", "check_compiled"]


@runtime_checkable
class CompiledODE(Protocol):
    """What an explicit PHS provides once compiled (see the module docstring)."""

    n: int
    m: int
    linear: bool

    @property
    def constant_matrices(self) -> dict[str, Any]: ...
    def matrix(self, name: str, x: np.ndarray) -> Any: ...
    def energy(self, x: np.ndarray) -> float: ...
    def gradient(self, x: np.ndarray) -> np.ndarray: ...
    def hessian(self, x: np.ndarray) -> Any: ...
    def rhs(self, x: np.ndarray, u: Any = None) -> np.ndarray: ...
    def jacobian(self, x: np.ndarray, u: Any = None) -> Any: ...
    def output(self, x: np.ndarray, u: Any = None) -> np.ndarray: ...
    def power_balance(self, x: np.ndarray, u: Any = None) -> Any: ...


@runtime_checkable
class CompiledDAE(Protocol):
    """What a descriptor PHS provides once compiled (see the module docstring)."""

    n: int
    k: int
    m: int
    linear: bool
    sparse: bool
    E: Any
    algebraic: np.ndarray
    left_kernel: np.ndarray
    states: list[str]
    inputs: list[str]
    outputs: list[str]
    multipliers: list[str]

    def z(self, x: np.ndarray) -> np.ndarray: ...
    def Dz(self, x: np.ndarray) -> Any: ...
    def energy(self, x: np.ndarray) -> float: ...
    def f(self, x: np.ndarray, w: np.ndarray, lam: np.ndarray, u: np.ndarray) -> np.ndarray: ...
    def f_x(self, x: np.ndarray, w: np.ndarray, lam: np.ndarray, u: np.ndarray) -> Any: ...
    def c(self, x: np.ndarray, w: np.ndarray) -> np.ndarray: ...
    def c_x(self, x: np.ndarray, w: np.ndarray) -> Any: ...
    def B(self, x: np.ndarray) -> Any: ...
    def constraint_jacobian(self, x: np.ndarray) -> Any: ...
    def matrix(self, name: str, x: np.ndarray) -> Any: ...
    def output(self, x: np.ndarray, u: np.ndarray, z: np.ndarray | None = None) -> np.ndarray: ...
    def port_powers(self, x: np.ndarray, z: np.ndarray, u: np.ndarray) -> tuple[float, float]: ...
    def power_balance(self, x: np.ndarray, u: np.ndarray) -> Any: ...


def _attributes(protocol: type) -> tuple[str, ...]:
    names = set(getattr(protocol, "__annotations__", {}))
    names |= {k for k, v in vars(protocol).items()
              if not k.startswith("_") and (callable(v) or isinstance(v, property))}
    return tuple(sorted(names))


#: attribute names of each contract, for error messages and the contract tests
ODE_ATTRIBUTES = _attributes(CompiledODE)
DAE_ATTRIBUTES = _attributes(CompiledDAE)


def check_compiled(compiled: Any, kind: str, what: str) -> None:
    """Raise :class:`ModelError` naming the attributes ``compiled`` lacks for ``kind``
    (``"ode"`` or ``"dae"``); ``what`` names the model in the message."""
    names = ODE_ATTRIBUTES if kind == "ode" else DAE_ATTRIBUTES
    missing = [a for a in names if not hasattr(compiled, a)]
    if missing:
        contract = "CompiledODE" if kind == "ode" else "CompiledDAE"
        raise ModelError(f"{what}: its compile() returned a {type(compiled).__name__} without "
                         f"{', '.join(missing)}; a compiled system must provide what "
                         f"porthamiltonian.compiled.protocol.{contract} lists")
