r"""Linear models for analysis: operating points, linearization and the :class:`LinearSystem`.

Every analysis function (transfer functions, Bode plots, time responses, poles and
zeros, passivity) works on the state-space quadruple of the deviations from an
operating point :math:`(x_0, u_0)` with :math:`\dot x_0 = 0`:

.. math::
    \delta\dot x = A\,\delta x + B\,\delta u, \qquad \delta y = C\,\delta x + D\,\delta u .

For a PHS with quadratic :math:`H = \tfrac12 x^\top Q x` and constant matrices
(Duindam et al., *Modeling and Control of Complex Physical Systems*, 2009, App. A.2):
:math:`A = (J-R)Q`, :math:`B = G-P`, :math:`C = (G+P)^\top Q`, :math:`D = M+S`.
For a nonlinear PHS the port-Hamiltonian linearization (:meth:`PHS.linearize`: matrices
frozen at :math:`x_0`, :math:`Q = \nabla^2 H(x_0)`) is kept in :attr:`LinearSystem.phs`
when it exists; the quadruple is always the exact Jacobian (:meth:`PHS.state_space`).

Outputs of an analysis may be the port outputs ``y``, states (``"p1"``) or co-energy
variables written ``"dH/d<state>"`` (the effort of a C element, the flow of an I
element, e.g. ``"dH/dp1"`` the velocity of mass 1), linearized as
:math:`\delta(\partial H/\partial x_i) = [\nabla^2 H(x_0)]_{i,:}\,\delta x`.
"""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import numpy as np
import scipy.optimize as so
import scipy.sparse as sps
import sympy as sp

from .. import _matrices as mx
from ..descriptor import DescriptorPHS
from ..errors import ModelError
from ..phs import PHS
from .selection import COENERGY, Selector, output_tokens, positions, state_row
from .symbolic import sym_numbers, symbolic_quadruple


@dataclass(frozen=True)
class LinearSystem:
    r"""The quadruple :math:`(A, B, C, D)` of a linear(ized) system, with names.

    Attributes
    ----------
    A, B, C, D:
        State-space matrices (``A`` may be a SciPy sparse array for large systems).
    states, inputs, outputs:
        Names of the state, input and output components.
    Q:
        Hessian of :math:`H` at the operating point (``None`` for a system given as a
        bare quadruple), used for ``"dH/d<state>"`` outputs.
    phs:
        The port-Hamiltonian linearization (a :class:`~porthamiltonian.PHS`) when the
        model is one; ``None`` for a bare quadruple or when no pH linearization exists.
    x0, u0:
        The operating point.
    """

    A: Any
    B: np.ndarray
    C: np.ndarray
    D: np.ndarray
    states: tuple[str, ...]
    inputs: tuple[str, ...]
    outputs: tuple[str, ...]
    Q: Any = None
    phs: PHS | None = None
    x0: np.ndarray | None = None
    u0: np.ndarray | None = None
    source: Any = field(default=None, repr=False)
    # (input positions, output tokens) applied to the source, replayed by symbolic()
    selection: tuple[tuple[int, ...], tuple[tuple[str, int], ...]] | None = field(
        default=None, repr=False
    )

    @property
    def n_states(self) -> int:
        return self.A.shape[0]

    @property
    def sparse(self) -> bool:
        return sps.issparse(self.A)

    def dense_A(self) -> np.ndarray:
        return mx.to_dense(self.A)

    def select(self, inputs: Selector = None, outputs: Selector = None) -> LinearSystem:
        """The subsystem from the chosen inputs to the chosen outputs.

        ``inputs``: input names (or base names of multi-dimensional ports) or indices.
        ``outputs``: output names, state names, ``"dH/d<state>"`` or indices into the
        outputs.  ``None`` keeps all.
        """
        base_in, base_out = self.selection or (
            tuple(range(len(self.inputs))), tuple(("y", i) for i in range(len(self.outputs)))
        )
        cols = positions(inputs, self.inputs, "input")
        tokens = output_tokens(outputs, self.outputs, self.states, self.Q is not None)
        rows_C, rows_D, names = [], [], []
        for kind, i in tokens:
            if kind == "y":
                rows_C.append(np.asarray(self.C[i]).ravel())
                rows_D.append(self.D[i])
                names.append(self.outputs[i])
            else:
                rows_C.append(state_row(self, kind, i))
                rows_D.append(np.zeros(len(self.inputs)))
                names.append(self.states[i] if kind == "x" else COENERGY + self.states[i])
        n, m = self.n_states, len(self.inputs)
        C = np.array(rows_C, dtype=float).reshape(len(tokens), n)
        D = np.array(rows_D, dtype=float).reshape(len(tokens), m)
        out_tokens = tuple(base_out[i] if k == "y" else (k, i) for k, i in tokens)
        return replace(
            self, B=np.asarray(self.B)[:, cols], C=C, D=D[:, cols],
            inputs=tuple(self.inputs[j] for j in cols), outputs=tuple(names),
            selection=(tuple(base_in[j] for j in cols), out_tokens),
        )

    def symbolic_matrices(self) -> tuple[sp.Matrix, sp.Matrix, sp.Matrix, sp.Matrix]:
        """``(A, B, C, D)`` as SymPy matrices; parameters of a symbolic PHS stay symbols."""
        src = self.source
        if isinstance(src, PHS) and src.symbolic:
            cols, tokens = self.selection or (
                tuple(range(len(self.inputs))), tuple(("y", i) for i in range(len(self.outputs)))
            )
            return symbolic_quadruple(src, self.x0, self.u0, list(cols), tokens)
        if self.n_states > 60:
            raise ModelError(
                f"{self.n_states} states: too many for a symbolic transfer function; "
                "evaluate it numerically"
            )
        # numeric matrices: the selection is already applied to B, C, D
        return tuple(sym_numbers(mx.to_dense(M)) for M in (self.A, self.B, self.C, self.D))


# ---------------------------------------------------------------------- construction
def operating_point(system: Any, u0: Any = None, x_guess: Any = None,
                    tol: float = 1e-10) -> np.ndarray:
    r"""A state :math:`x_0` with :math:`\dot x = 0` at the constant input ``u0``.

    Solves :math:`(J-R)\nabla H(x_0) + (G-P)u_0 = 0` by least squares from ``x_guess``
    (default: the origin).  Equilibria need not be unique (a free mass rests
    anywhere): the one nearest the guess is returned.  Raises :class:`ModelError`
    naming the state whose equation is not satisfied when no equilibrium is found.
    """
    phs = _explicit(system)
    n = phs.n_states
    u0 = np.zeros(phs.n_inputs) if u0 is None else np.asarray(u0, float).reshape(-1)
    x = np.zeros(n) if x_guess is None else np.asarray(x_guess, float).reshape(n)
    num = phs.compile()
    sol = so.least_squares(lambda z: num.rhs(z, u0), x,
                           jac=lambda z: mx.to_dense(num.jacobian(z, u0)),
                           xtol=1e-15, ftol=1e-15, gtol=1e-15)
    res = num.rhs(sol.x, u0)
    scale = max(1.0, float(np.max(np.abs(num.gradient(sol.x)), initial=0.0)))
    if np.max(np.abs(res), initial=0.0) > tol * scale:
        worst = int(np.argmax(np.abs(res)))
        raise ModelError(
            f"no equilibrium found for u0 = {u0.tolist()} near x_guess: "
            f"d{phs.states[worst]}/dt = {res[worst]:.3g} at best; check that an equilibrium "
            "exists for this input or give a better x_guess"
        )
    return sol.x


def linearize(system: Any, x0: Any = None, u0: Any = None, x_guess: Any = None) -> PHS:
    r"""The port-Hamiltonian linearization at an operating point (a numeric PHS).

    ``system`` is a :class:`~porthamiltonian.PHS` or a
    :class:`~porthamiltonian.DescriptorPHS` (reduced with ``to_phs()``).  Without
    ``x0`` the operating point is found with :func:`operating_point` from ``x_guess``.
    See :meth:`PHS.linearize` for when a pH linearization exists.
    """
    phs = _explicit(system)
    if x0 is None:
        x0 = operating_point(phs, u0, x_guess)
    return phs.linearize(x0, u0)


def linear_system(system: Any, x0: Any = None, u0: Any = None) -> LinearSystem:
    """The :class:`LinearSystem` of ``system`` at the operating point ``(x0, u0)``.

    ``system`` may be a :class:`~porthamiltonian.PHS`, a
    :class:`~porthamiltonian.DescriptorPHS`, a :class:`LinearSystem`, a tuple
    ``(A, B, C, D)`` or any object with ``A, B, C, D`` attributes (a
    ``scipy.signal.StateSpace``, a python-control ``StateSpace``).  A linear PHS needs
    no operating point; a nonlinear one is linearized at ``x0`` (default: the origin),
    which must be an equilibrium for ``u0``.
    """
    if isinstance(system, LinearSystem):
        return system
    if isinstance(system, (PHS, DescriptorPHS)):
        return _from_phs(_explicit(system), x0, u0)
    return _from_quadruple(system)


def _explicit(system: Any) -> PHS:
    if isinstance(system, DescriptorPHS):
        return system.to_phs()  # NoExplicitFormError explains why when impossible
    if isinstance(system, PHS):
        return system
    raise ModelError(
        f"expected a PHS or DescriptorPHS, got {type(system).__name__}; build the model with "
        "porthamiltonian.PHS (or a front-end that returns one)"
    )


def _from_phs(phs: PHS, x0: Any, u0: Any) -> LinearSystem:
    num = phs.compile()
    names = {"states": tuple(phs.states), "inputs": tuple(phs.inputs),
             "outputs": tuple(phs.outputs)}
    u0v = np.zeros(phs.n_inputs) if u0 is None else np.asarray(u0, float).reshape(-1)
    if num.linear:
        x0v = np.zeros(phs.n_states) if x0 is None else np.asarray(x0, float).reshape(-1)
        A = num.A if sps.issparse(num.A) else np.asarray(num.A, dtype=float)
        return LinearSystem(A, mx.to_dense(num.B), mx.to_dense(num.C), mx.to_dense(num.D),
                            Q=num.Q, phs=phs, x0=x0v, u0=u0v, source=phs, **names)
    x0v = np.zeros(phs.n_states) if x0 is None else np.asarray(x0, float).reshape(-1)
    f0 = num.rhs(x0v, u0v)
    scale = max(1.0, float(np.max(np.abs(num.gradient(x0v)), initial=0.0)))
    if np.max(np.abs(f0), initial=0.0) > 1e-9 * scale:
        worst = int(np.argmax(np.abs(f0)))
        raise ModelError(
            f"the operating point is not an equilibrium: d{phs.states[worst]}/dt = "
            f"{f0[worst]:.4g}; give x0 with ẋ = 0 for u0 (analysis.operating_point finds one)"
        )
    A, B, C, D = phs.state_space(x0v, u0v)
    try:
        lin = phs.linearize(x0v, u0v)
    except ModelError:  # no pH linearization: the Jacobians are still the right model
        lin = None
    Q = np.asarray(mx.to_dense(num.hessian(x0v)), dtype=float)
    return LinearSystem(A, B, C, D, Q=Q, phs=lin, x0=x0v, u0=u0v, source=phs, **names)


def _from_quadruple(system: Any) -> LinearSystem:
    if all(hasattr(system, k) for k in "ABCD"):
        A, B, C, D = (getattr(system, k) for k in "ABCD")
    elif isinstance(system, (tuple, list)) and len(system) == 4:
        A, B, C, D = system
    else:
        raise ModelError(
            f"cannot analyse a {type(system).__name__}: give a PHS, a DescriptorPHS, a "
            "LinearSystem or a state-space quadruple (A, B, C, D)"
        )
    A = sps.csr_array(A, dtype=float) if sps.issparse(A) else np.atleast_2d(
        np.asarray(A, dtype=float))
    n = A.shape[0]
    B = np.asarray(mx.to_dense(B), dtype=float).reshape(n, -1) if n else np.atleast_2d(
        np.asarray(B, float))
    m = B.shape[1]
    C = np.asarray(mx.to_dense(C), dtype=float).reshape(-1, n)
    p = C.shape[0]
    D = np.asarray(mx.to_dense(D), dtype=float)
    D = np.zeros((p, m)) if D.size == 0 else D.reshape(p, m)
    if A.shape != (n, n):
        raise ModelError(f"A has shape {A.shape}; it must be square")
    names = _labels(system, n, m, p)
    return LinearSystem(A, B, C, D, *names)


def _labels(system: Any, n: int, m: int, p: int) -> tuple[tuple[str, ...], ...]:
    """Names carried by a python-control system (``state_labels`` …) or defaults."""
    def get(attr: str, default: list[str]) -> tuple[str, ...]:
        labels = getattr(system, attr, None)
        return tuple(labels) if labels is not None and len(labels) == len(default) else tuple(
            default)

    return (get("state_labels", [f"x{i}" for i in range(n)]),
            get("input_labels", [f"u{i}" for i in range(m)]),
            get("output_labels", [f"y{i}" for i in range(p)]))
