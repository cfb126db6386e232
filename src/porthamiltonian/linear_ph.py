r"""The matrices of a linear port-Hamiltonian (descriptor) system, as the community uses them.

A linear pH descriptor system in the layout of the pH benchmark collection
(PortHamiltonianBenchmarkSystems; Mehrmann & Unger, *Control of port-Hamiltonian
differential-algebraic systems and applications*, Acta Numerica 32, 2023) and of pyMOR's
``PHLTIModel``:

.. math::
    E\dot x = (J - R)\,Q x + (G - P)\,u, \qquad y = (G + P)^\top Q x + (S - N)\,u,

with :math:`J = -J^\top`, :math:`N = -N^\top`, :math:`E^\top Q = Q^\top E \succeq 0` (the
energy :math:`H = \tfrac12 x^\top E^\top Q x`, in J) and
:math:`W = [[R, P], [P^\top, S]] = W^\top \succeq 0`.  Along solutions
:math:`\dot H = u^\top y - [Qx; u]^\top W [Qx; u]`.

It is the library's explicit form (docs/design.md, "Conventions") with the skew
feed-through written :math:`M = -N`.  A :class:`~porthamiltonian.DescriptorPHS` with
constraints :math:`E\dot x = (J-R)z + B\lambda + (G-P)u,\; 0 = B^\top z` enters this layout
with the multipliers appended to the state: :math:`E' = \mathrm{diag}(E, 0)`,
:math:`J' = [[J, B], [-B^\top, 0]]`, :math:`Q' = \mathrm{diag}(Q, I)` (so the effort of a
multiplier is the multiplier itself and :math:`E'^\top Q' = \mathrm{diag}(E^\top Q, 0)`).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sps

from ._matrices import to_dense
from .descriptor import DescriptorPHS
from .errors import ModelError
from .phs import PHS

__all__ = ["LinearPH", "linear_ph", "is_identity"]

#: the matrices in the order of the benchmark collection
NAMES = ("E", "J", "R", "Q", "G", "P", "S", "N")


@dataclass(frozen=True)
class LinearPH:
    """``E, J, R, Q`` (n × n), ``G, P`` (n × m), ``S, N`` (m × m), dense or SciPy sparse,
    with the names of the states, inputs and outputs (see the module docstring)."""

    E: Any
    J: Any
    R: Any
    Q: Any
    G: Any
    P: Any
    S: Any
    N: Any
    states: tuple[str, ...] = ()
    inputs: tuple[str, ...] = ()
    outputs: tuple[str, ...] = ()
    name: str = ""
    #: the states that came from multipliers of a DescriptorPHS (algebraic variables)
    multipliers: tuple[str, ...] = field(default=())

    def __post_init__(self) -> None:
        n, m = self.n_states, self.n_inputs
        shapes = {"E": (n, n), "J": (n, n), "R": (n, n), "Q": (n, n), "G": (n, m),
                  "P": (n, m), "S": (m, m), "N": (m, m)}
        for key, shape in shapes.items():
            got = getattr(self, key).shape
            if tuple(got) != shape:
                raise ModelError(f"matrix {key} is {got[0]}×{got[1]}; a system with {n} "
                                 f"states and {m} inputs needs {shape[0]}×{shape[1]}")
        for what, names, size in (("states", self.states, n), ("inputs", self.inputs, m),
                                  ("outputs", self.outputs, m)):
            if names and len(names) != size:
                raise ModelError(f"{len(names)} names of {what} for {size} {what}")

    @property
    def n_states(self) -> int:
        return int(self.J.shape[0])

    @property
    def n_inputs(self) -> int:
        return int(self.G.shape[1])

    def matrices(self) -> dict[str, Any]:
        """``{"E": E, "J": J, …, "N": N}`` in the order of the benchmark collection."""
        return {k: getattr(self, k) for k in NAMES}

    def dense(self) -> LinearPH:
        """A copy with dense NumPy matrices."""
        mats = {k: to_dense(v) for k, v in self.matrices().items()}
        return LinearPH(**mats, states=self.states, inputs=self.inputs, outputs=self.outputs,
                        name=self.name, multipliers=self.multipliers)

    @property
    def descriptor(self) -> bool:
        """Whether ``E`` is not the identity."""
        return not is_identity(self.E)

    def transfer(self, s: complex) -> np.ndarray:
        r""":math:`G(s) = (G+P)^\top Q\,(sE - (J-R)Q)^{-1}(G-P) + S - N` at one ``s``."""
        d = self.dense()
        A = s * d.E - (d.J - d.R) @ d.Q
        X = np.linalg.solve(A, d.G - d.P)
        return (d.G + d.P).T @ d.Q @ X + d.S - d.N

    def state_space(self) -> tuple[Any, Any, Any, Any]:
        """``(A, B, C, D)`` with ``E ẋ = A x + B u``, ``y = C x + D u`` (``E`` aside)."""
        return ((self.J - self.R) @ self.Q, self.G - self.P, (self.G + self.P).T @ self.Q,
                self.S - self.N)

    def to_system(self, *, check: bool = True) -> PHS | DescriptorPHS:
        """The library's model: a numeric :class:`PHS` when ``E = I``, else a
        :class:`DescriptorPHS` with this ``E`` (multipliers stay states: ``E`` singular)."""
        names = {"states": list(self.states) or None, "inputs": list(self.inputs) or None,
                 "outputs": list(self.outputs) or None, "name": self.name, "check": check}
        mats = {"J": self.J, "R": self.R, "G": self.G, "P": self.P, "M": -self.N, "S": self.S,
                "Q": self.Q}
        if not self.descriptor:
            return PHS(**mats, **names)
        return DescriptorPHS(E=to_dense(self.E), **{k: to_dense(v) for k, v in mats.items()},
                             **names)


def linear_ph(system: Any) -> LinearPH:
    """The :class:`LinearPH` of a linear ``PHS`` or ``DescriptorPHS`` (or a ``LinearPH``).

    A symbolic system must have constant matrices, a quadratic energy and values for all
    its parameters.  Raises :class:`ModelError` otherwise, pointing to ``linearize``.
    """
    if isinstance(system, LinearPH):
        return system
    if isinstance(system, DescriptorPHS):
        return _from_descriptor(system)
    if not isinstance(system, PHS):
        raise ModelError(
            f"a linear pH model is built from a PHS or DescriptorPHS, not a "
            f"{type(system).__name__}; linearize a nonlinear model first "
            "(system.linearize(x0)), and compile front-ends (bond graphs, networks) "
            "with .to_phs()")
    num = _numeric(system)
    n = num.n_states
    eye = sps.eye_array(n, format="csr") if num.kind == "sparse" else np.eye(n)
    return LinearPH(E=eye, J=num.J, R=num.R, Q=num.Q, G=num.G, P=num.P, S=num.S, N=-num.M,
                    states=tuple(num.states), inputs=tuple(num.inputs),
                    outputs=tuple(num.outputs), name=system.name)


def _numeric(system: PHS) -> PHS:
    if not system.symbolic:
        return system
    missing = [p for p in system.free_parameters() if system.parameters.get(p) is None]
    if missing:
        raise ModelError(f"parameters without a value: {', '.join(missing)}; give them with "
                         "system.with_parameters(...)")
    try:
        return system.numeric()
    except ModelError as exc:
        raise ModelError(
            f"{system.name or 'the system'} is not linear (its energy is not quadratic or a "
            "matrix depends on the state); linearize it at an operating point first: "
            "system.linearize(x0)") from exc


def _from_descriptor(system: DescriptorPHS) -> LinearPH:
    core = _numeric(system.core)
    n, k = core.n_states, system.n_constraints
    if not k and core.kind == "sparse" and sps.issparse(system.E):  # kept sparse
        return LinearPH(E=sps.csr_array(system.E, dtype=float), J=core.J, R=core.R, Q=core.Q,
                        G=core.G, P=core.P, S=core.S, N=-core.M, states=tuple(core.states),
                        inputs=tuple(core.inputs), outputs=tuple(core.outputs),
                        name=system.name)
    E = np.asarray(system._E_num, dtype=float)
    dense = {key: to_dense(getattr(core, key)) for key in ("J", "R", "G", "P", "S", "M", "Q")}
    states: Sequence[str] = tuple(core.states)
    if k:
        B = np.asarray(system._B_num, dtype=float)
        zk = np.zeros((k, k))
        E = np.block([[E, np.zeros((n, k))], [np.zeros((k, n)), zk]])
        dense["J"] = np.block([[dense["J"], B], [-B.T, zk]])
        dense["R"] = np.block([[dense["R"], np.zeros((n, k))], [np.zeros((k, n)), zk]])
        dense["Q"] = np.block([[dense["Q"], np.zeros((n, k))], [np.zeros((k, n)), np.eye(k)]])
        m = dense["G"].shape[1]
        dense["G"] = np.vstack([dense["G"], np.zeros((k, m))])
        dense["P"] = np.vstack([dense["P"], np.zeros((k, m))])
        states = (*states, *system.multipliers)
    return LinearPH(E=E, J=dense["J"], R=dense["R"], Q=dense["Q"], G=dense["G"],
                    P=dense["P"], S=dense["S"], N=-dense["M"], states=tuple(states),
                    inputs=tuple(core.inputs), outputs=tuple(core.outputs), name=system.name,
                    multipliers=tuple(system.multipliers))


def is_identity(M: Any) -> bool:
    """Whether the square ``M`` (dense or SciPy sparse) is exactly the identity."""
    if sps.issparse(M):
        return not (M != sps.eye_array(M.shape[0])).nnz
    return np.array_equal(np.asarray(M), np.eye(M.shape[0]))
