r"""Numeric functions of a :class:`~porthamiltonian.DescriptorPHS`, generated once.

For the pH-DAE (Beattie, Mehrmann, Xu & Zwart, *MCSS* 30, 2018)

.. math::
    E\dot x = f(x, z, \lambda, u) := (J-R)(x)\,z + B(x)\,\lambda + (G-P)(x)\,u,
    \qquad 0 = c(x, z) := B(x)^\top z,\qquad z = z(x),

an implicit DAE solver needs, at any state ``x`` and for an *independent* effort
vector ``w`` (the midpoint rule and the discrete gradient evaluate the structure at
:math:`\bar x` but the effort at :math:`\bar z`):

* ``z(x)`` and its Jacobian ``Dz(x)``; ``H(x)`` (J);
* ``f(x, w, λ, u)`` and :math:`\partial f/\partial x` at fixed ``(w, λ, u)`` — the
  derivative of state-dependent structure matrices and of ``B(x)``;
* ``c(x, w) = B(x)ᵀw`` and :math:`\partial c/\partial x` at fixed ``w``.

Symbolic models are differentiated with SymPy and turned into NumPy functions by
:func:`sympy.lambdify` once; SymPy is never called while stepping.  Numeric models
(``Q`` given) are linear and all of these are constant matrices (sparse kept sparse).
``B`` may depend on the state (e.g. the direction of a pendulum rod); ``E`` may not.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import scipy.sparse as sps
import sympy as sp

from ..errors import ModelError
from .numeric import PowerBalance, without_impulses

__all__ = ["CompiledDescriptor"]

_MATS = ("J", "R", "G", "P", "M", "S")


def _dense(A: Any) -> np.ndarray:
    return A.toarray() if sps.issparse(A) else np.asarray(A, dtype=float)


def is_identity(E: Any) -> bool:
    """Whether the (dense or sparse) matrix ``E`` is exactly the square identity,
    without densifying a sparse one."""
    if sps.issparse(E):
        n, m = E.shape
        return n == m and (sps.csr_matrix(E) - sps.identity(n, format="csr")).count_nonzero() == 0
    E = np.asarray(E)
    return E.ndim == 2 and E.shape[0] == E.shape[1] and np.array_equal(E, np.eye(E.shape[0]))


def _invertible(E: Any) -> bool:
    """Whether the sparse square ``E`` has a sparse LU without a (numerically) zero pivot."""
    from scipy.sparse.linalg import splu

    try:
        d = np.abs(splu(sps.csc_matrix(E)).U.diagonal())
    except RuntimeError:  # exactly singular
        return False
    return bool(d.size == 0 or d.min() > 1e-12 * d.max())


class CompiledDescriptor:
    """Fast evaluation of a descriptor PHS (build with ``DescriptorPHS.compile()``).

    Attributes
    ----------
    n, k, m:
        Numbers of states, constraints (multipliers) and inputs.
    E:
        Descriptor matrix (dense, or CSR when the model is sparse).
    linear:
        Constant ``J, R, G, P, B`` and linear ``z = Qx``: the implicit-midpoint step
        equations are affine (one LU factorization per step size).
    sparse:
        The model's matrices are sparse (step Jacobians are assembled sparse).
    algebraic:
        Orthonormal basis ``N`` (n × a) of ``ker E``: directions of algebraic states.
    left_kernel:
        Orthonormal basis ``L`` (n × a) of ``ker Eᵀ``: the algebraic equations are
        ``Lᵀ f = 0``.
    """

    #: simulated as a DAE (:mod:`.protocol`)
    problem_kind = "dae"

    def __init__(self, system: Any) -> None:
        core = system.core
        self.n, self.k, self.m = core.n_states, system.n_constraints, core.n_inputs
        self.states, self.inputs = list(core.states), list(core.inputs)
        self.outputs, self.multipliers = list(core.outputs), list(system.multipliers)
        self._num = core.compile()  # the structure matrices J … S (efforts are ours)
        self.sparse = core.kind == "sparse"
        if core.kind == "symbolic":
            self._build_symbolic(system)
        else:
            self._build_linear(system)
        self._kernels()
        self._constant = self._constant_blocks()

    # ------------------------------------------------------------------ construction
    def _build_linear(self, system: Any) -> None:
        Q = system.core.Q
        E = system.E if sps.issparse(system.E) else system._E_num  # never densify a sparse E
        B = system._B_num
        if self.sparse:
            E, B, Q = sps.csr_array(E), sps.csr_array(B), sps.csr_array(Q)
        self.E, self._B, self.Q = E, B, Q
        self._EQ = E.T @ Q  # symmetric: H = ½ xᵀ EᵀQ x
        self.linear = True
        self.z = lambda x: np.asarray(Q @ x, dtype=float)
        self.Dz = lambda x: Q
        self.energy = lambda x: 0.5 * float(x @ (self._EQ @ x))
        zero = sps.csr_array((self.n, self.n)) if self.sparse else np.zeros((self.n, self.n))
        self.f_x = lambda x, w, lam, u: zero
        zk = sps.csr_array((self.k, self.n)) if self.sparse else np.zeros((self.k, self.n))
        self.c_x = lambda x, w: zk
        self.B = lambda x: B

    def _build_symbolic(self, system: Any) -> None:
        core = system.core
        values = core.parameter_values()
        xs = list(core.x)
        by_name = {s.name: s for s in xs}

        def prep(A: sp.MatrixBase) -> sp.Matrix:
            # user symbols named like a state are that state (whatever their assumptions)
            ren = {s: by_name[s.name] for s in A.free_symbols if s.name in by_name}
            return sp.Matrix(A).xreplace(ren).xreplace(values)

        E, B, zexpr = prep(system.E), prep(system.B), prep(system.efforts)
        H = core.hamiltonian.xreplace(values)
        mats = {k: prep(A) for k, A in core.matrices().items()}
        free = set().union(E.free_symbols, B.free_symbols, zexpr.free_symbols, H.free_symbols,
                           *(A.free_symbols for A in mats.values())) - set(xs)
        if free:
            names = ", ".join(sorted(s.name for s in free))
            raise ModelError(f"parameters without a value: {names}; give them numeric values "
                             "(parameters={...}) before simulating the descriptor system")
        if E.free_symbols:
            raise ModelError("E depends on the state; the DAE solvers need a constant E "
                             "(move the state dependence into J, R or the efforts z(x))")
        n, k, m = self.n, self.k, self.m
        self.E = np.array(E.tolist(), dtype=float).reshape(n, n)
        w = sp.Matrix(n, 1, list(sp.symbols(f"w0:{n}", real=True)))
        lam = sp.Matrix(k, 1, list(sp.symbols(f"lam0:{k}", real=True)))
        u = sp.Matrix(m, 1, list(sp.symbols(f"u0:{m}", real=True)))
        f = (mats["J"] - mats["R"]) * w + B * lam + (mats["G"] - mats["P"]) * u
        c = B.T * w
        Dz = without_impulses(zexpr.jacobian(xs)) if n else sp.zeros(0, 0)
        args4 = [xs, list(w), list(lam), list(u)]
        self.z = _vec(sp.lambdify([xs], list(zexpr), "numpy", cse=True), n)
        self.Dz = _mat(sp.lambdify([xs], Dz, "numpy", cse=True), (n, n))
        hf = sp.lambdify([xs], H, "numpy", cse=True)
        self.energy = lambda x: float(hf(x))
        self.f_x = _mat(sp.lambdify(args4, without_impulses(f.jacobian(xs)), "numpy",
                                    cse=True), (n, n))
        self.c_x = _mat(sp.lambdify([xs, list(w)], without_impulses(c.jacobian(xs)), "numpy",
                                          cse=True), (k, n))
        self.B = _mat(sp.lambdify([xs], B, "numpy", cse=True), (n, k))
        state_dependent = bool(B.free_symbols) or any(A.free_symbols for A in mats.values())
        self.linear = not state_dependent and not any(e.free_symbols for e in Dz)
        self.Q = np.array(Dz.tolist(), dtype=float).reshape(n, n) if self.linear else None

    def _kernels(self) -> None:
        if self.sparse and _invertible(self.E):  # e.g. an SPD mass matrix: no dense SVD
            self.algebraic = self.left_kernel = np.zeros((self.n, 0))
            return
        E = _dense(self.E) if self.n <= 3000 or not self.sparse else None
        if E is None or np.count_nonzero(E - np.diag(np.diag(E))) == 0:
            d = np.diag(E) if E is not None else self.E.diagonal()
            zero = np.flatnonzero(d == 0.0)
            N = np.zeros((self.n, zero.size))
            N[zero, np.arange(zero.size)] = 1.0
            self.algebraic = self.left_kernel = N
            return
        U, s, Vt = np.linalg.svd(E)
        r = int(np.sum(s > 1e-12 * max(1.0, s[0])))
        self.algebraic, self.left_kernel = Vt[r:].T, U[:, r:]

    def _constant_blocks(self) -> dict[str, Any] | None:
        """``J−R``, ``G−P``, ``G+P``, ``M+S``, ``Bᵀ`` … evaluated once when constant
        (sparse arithmetic per call would dominate a step of an LTI model)."""
        const = self._num.constant_matrices
        if not all(k in const for k in _MATS) or (self.k and not self.linear):
            return None
        J, R, G, P, M, S = (const[k] for k in _MATS)
        B = self.B(np.zeros(self.n)) if self.k else np.zeros((self.n, 0))
        return {"JR": J - R, "GP": G - P, "GpPT": (G + P).T, "MS": M + S, "R": R, "P": P,
                "S": S, "B": B, "BT": B.T.tocsr() if sps.issparse(B) else B.T}

    # ------------------------------------------------------------------ evaluation
    def matrix(self, name: str, x: np.ndarray) -> Any:
        """``J, R, G, P, M, S`` or ``B`` at state ``x``."""
        return self.B(x) if name == "B" else self._num.matrix(name, x)

    def f(self, x: np.ndarray, w: np.ndarray, lam: np.ndarray, u: np.ndarray) -> np.ndarray:
        """``(J−R)(x) w + B(x) λ + (G−P)(x) u``."""
        c = self._constant
        if c is not None:
            out = c["JR"] @ w + c["GP"] @ u
            return out + c["B"] @ lam if self.k else out
        num = self._num
        out = (num.matrix("J", x) - num.matrix("R", x)) @ w
        out = out + (num.matrix("G", x) - num.matrix("P", x)) @ u
        return out + self.B(x) @ lam if self.k else out

    def c(self, x: np.ndarray, w: np.ndarray) -> np.ndarray:
        """``B(x)ᵀ w`` (the constraint ``0 = Bᵀz`` for ``w = z(x)``)."""
        if self._constant is not None:
            return np.asarray(self._constant["BT"] @ w, dtype=float).reshape(self.k)
        return np.asarray(self.B(x).T @ w, dtype=float).reshape(self.k)

    def constraint_jacobian(self, x: np.ndarray) -> Any:
        r"""Total derivative :math:`d/dx\,[B(x)^\top z(x)] = \partial_x c + B^\top Dz`."""
        B = self.B(x)
        return self.c_x(x, self.z(x)) + B.T @ self.Dz(x)

    def output(self, x: np.ndarray, u: np.ndarray, z: np.ndarray | None = None) -> np.ndarray:
        """``y = (G+P)ᵀ z + (M+S) u`` (with ``z = z(x)`` unless given)."""
        num = self._num
        z = self.z(x) if z is None else z
        if self._constant is not None:
            return self._constant["GpPT"] @ z + self._constant["MS"] @ u
        return (num.matrix("G", x) + num.matrix("P", x)).T @ z + (
            num.matrix("M", x) + num.matrix("S", x)) @ u

    def port_powers(self, x: np.ndarray, z: np.ndarray, u: np.ndarray) -> tuple[float, float]:
        """``(uᵀy, d)`` in W with ``d = zᵀRz + 2zᵀPu + uᵀSu`` (structure at ``x``)."""
        c = self._constant
        R, P, S = ((c[k] for k in "RPS") if c is not None else
                   (self._num.matrix(k, x) for k in "RPS"))
        supplied = float(u @ self.output(x, u, z)) if self.m else 0.0
        d = float(z @ (R @ z))
        if self.m:
            d += float(2.0 * z @ (P @ u) + u @ (S @ u))
        return supplied, d

    def power_balance(self, x: np.ndarray, u: np.ndarray) -> PowerBalance:
        r"""Stored :math:`z^\top E\dot x`, supplied and dissipated power at ``(x, u)``.

        The constraint force does no work (:math:`z^\top B\lambda = 0` on the
        constraint), so :math:`z^\top E\dot x = z^\top[(J-R)z + (G-P)u]`.
        """
        z = self.z(x)
        stored = float(z @ self.f(x, z, np.zeros(self.k), u))
        supplied, dissipated = self.port_powers(x, z, u)
        return PowerBalance(stored, supplied, dissipated)


def _vec(f: Callable[..., Any], n: int) -> Callable[[np.ndarray], np.ndarray]:
    return lambda x: np.asarray(f(x), dtype=float).reshape(n)


def _mat(f: Callable[..., Any], shape: tuple[int, int]) -> Callable[..., np.ndarray]:
    return lambda *a: np.asarray(f(*a), dtype=float).reshape(shape)
