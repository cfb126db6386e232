r"""A mechanism's pH-DAE with force elements (:mod:`.forces`, :mod:`.contact`).

:class:`ForcedMechanismDAE` wraps the rigid assembly (:class:`~.assembly.MechanismDAE`,
NumPy engine, dense) and adds, per element on ends ``(i, j)``:

.. math::
    \mathcal H \mathrel{+}= V(q_i, q_j),\qquad
    z_{q} \mathrel{+}= \partial V/\partial q,\qquad
    \mathcal R \mathrel{+}= \textstyle\sum_k r_k(x)\,c_k c_k^\top,\qquad
    G \leftarrow [\,G\ \ G_e(x)\,],\quad y_e = G_e^\top z,

with the columns on the two ends' momentum rows.  The structure ``J`` is the rigid
one: the body rows :math:`-K(q)^\top z_q` turn the potential gradient into the spring
wrenches, as they do for gravity.  So the discrete power balance of the DAE steps
(:mod:`porthamiltonian.simulate.dae.midpoint`) carries over: ``ΔH = h(ūᵀȳ −
z̄ᵀ𝓡(x̄)z̄)`` to round-off — with the implicit midpoint rule when every ``V`` is
quadratic in the raw pose entries (a wrench port, a zero-length spring), with the
Gonzalez discrete gradient otherwise (``quadratic_energy`` is then ``False``, and
``method="auto"`` chooses it).  The dissipation coefficients may depend on the whole
state (a contact's dashpot on the penetration, its friction on the normal force and the
slip velocity, i.e. on the momenta): ``𝓡(x) ⪰ 0`` is all the balance needs.

Newton's matrix needs ``∂z/∂x`` and ``∂f/∂x`` of the elements.  ``∂z/∂x`` adds each
element's Hessian (:meth:`~.forces.ForceElement.hessian`: closed forms for the spring
and the contact, the Gauss–Newton part for the bushing).  ``∂f/∂x`` adds each element's
:meth:`~.forces.ForceElement.term_jacobian` — ``∂term/∂q`` on its ends' pose columns and
``∂term/∂T · M_b⁻¹`` on their momentum columns (``T_b = M_b⁻¹p_b``): closed forms for
the spring–damper (the column's derivative through ``n = d/|d|``), the bushing and the
wrench port (the relative-twist columns through ``R₂ᵀR₁``), central differences of the
element's 2 × 6 term over its 36 local entries for the contact (step
``1e-6·max(1, |·|)``, error ~1e-12 relative).  They only steer Newton's iteration; the
step equations themselves are evaluated exactly.  ``z`` and ``H`` of the last few states
are kept (the discrete-gradient effort asks for them at the step's ends at every
residual).  The compiled step (:mod:`.kernels`) does not know force elements: a
mechanism with force elements runs the generic NumPy step (``engine`` is ``"numpy"``).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from ..compiled import PowerBalance
from ..errors import ModelError
from .forces import GROUND, ForceElement

__all__ = ["ForcedMechanismDAE"]

_IDENTITY_POSE = np.concatenate([np.zeros(3), np.eye(3).ravel()])


class ForcedMechanismDAE:
    """Rigid mechanism + force elements (module docstring); the interface of the DAE
    integrators (:mod:`porthamiltonian.compiled.protocol`).  Inputs and outputs: the
    joint actuators', then each element's (``<element>.W[i]``/``<element>.T[i]`` of a
    wrench port)."""

    linear = False
    Q = None
    problem_kind = "dae"
    simplified_newton = True
    points = None
    engine = "numpy"

    def __init__(self, rigid: Any, elements: Sequence[ForceElement],
                 bodies: Sequence[str]) -> None:
        if rigid.sparse or rigid.engine != "numpy":
            raise ModelError("ForcedMechanismDAE: build the rigid part dense with "
                             "engine='numpy'")
        self.rigid = rigid
        self.elements = list(elements)
        index = {b: i for i, b in enumerate(bodies)}
        for e in self.elements:
            for end in e.ends:
                if end != GROUND and end not in index:
                    raise ModelError(f"force element {e.name!r}: unknown body {end!r}")
        self._ends = [[None if end == GROUND else index[end] for end in e.ends]
                      for e in self.elements]
        self.n, self.k, self.nb = rigid.n, rigid.k, rigid.nb
        self.states, self.multipliers = rigid.states, rigid.multipliers
        self._mr = rigid.m
        self.inputs = list(rigid.inputs) + [s for e in self.elements for s in e.inputs]
        self.outputs = list(rigid.outputs) + [s for e in self.elements for s in e.outputs]
        self.m = len(self.inputs)
        self._uslice = []
        o = self._mr
        for e in self.elements:
            self._uslice.append(slice(o, o + len(e.inputs)))
            o += len(e.inputs)
        self.sparse = False
        self.E = np.eye(self.n)
        self.algebraic = self.left_kernel = np.zeros((self.n, 0))
        self.quadratic_energy = all(e.quadratic for e in self.elements)
        self._Dz0 = np.asarray(rigid.Dz(np.zeros(self.n)), dtype=float)
        self._Dz_memo: tuple[np.ndarray, np.ndarray] | None = None
        self._cache: dict[tuple[str, bytes], Any] = {}
        # per element: the state indices of its ends' poses (2 × 12) and momenta (2 × 6)
        self._pose_idx, self._mom_idx = [], []
        for ends in self._ends:
            self._pose_idx.append([None if b is None else slice(18 * b, 18 * b + 12)
                                   for b in ends])
            self._mom_idx.append([None if b is None else slice(18 * b + 12, 18 * b + 18)
                                  for b in ends])

    # ------------------------------------------------------------------ local views
    def compile(self) -> ForcedMechanismDAE:
        return self

    @property
    def n_constraints(self) -> int:
        return self.k

    def fused_midpoint(self, signal: Any, **newton: Any) -> None:
        """No compiled step with force elements (module docstring)."""
        return None

    def _q(self, i: int, x: np.ndarray) -> np.ndarray:
        a, b = (_IDENTITY_POSE if idx is None else x[idx] for idx in self._pose_idx[i])
        out = np.empty((2, 12))
        out[0], out[1] = a, b
        return out

    def _T(self, i: int, x: np.ndarray) -> np.ndarray:
        out = np.zeros((2, 6))
        for s, b in enumerate(self._ends[i]):
            if b is not None:
                out[s] = self.rigid.Minv[b] @ x[18 * b + 12:18 * b + 18]
        return out

    def _wP(self, i: int, w: np.ndarray) -> np.ndarray:
        return np.stack([np.zeros(6) if idx is None else w[idx] for idx in self._mom_idx[i]])

    def _scatter(self, out: np.ndarray, idx: list, values: np.ndarray) -> None:
        for s, rows in enumerate(idx):
            if rows is not None:
                out[rows] += values[s]

    def _columns(self, i: int, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """Damper columns and coefficients of element ``i`` at ``x``."""
        return self.elements[i].dampers(self._q(i, x), self._T(i, x))

    def _add_term(self, out: np.ndarray, i: int, x: np.ndarray, w: np.ndarray,
                  u: np.ndarray) -> None:
        """Add element ``i``'s part of ``f``, ``−𝓡_e(x) w + G_e(x) u_e``, to ``out``."""
        acc = self.elements[i].term(self._q(i, x), self._T(i, x), self._wP(i, w),
                                    u[self._uslice[i]])
        self._scatter(out, self._mom_idx[i], acc)

    # ------------------------------------------------------------------ efforts, energy
    def _memo(self, kind: str, x: np.ndarray) -> Any:
        """The last few values of ``z`` and ``energy`` by state: the discrete-gradient
        effort asks for them at the step's start and end at every residual."""
        key = (kind, np.asarray(x, dtype=float).tobytes())
        hit = self._cache.get(key)
        if hit is None:
            hit = self._z(x) if kind == "z" else self._energy(x)
            if len(self._cache) >= 6:
                del self._cache[next(iter(self._cache))]
            self._cache[key] = hit
        return hit

    def z(self, x: np.ndarray) -> np.ndarray:
        return self._memo("z", x).copy()

    def _z(self, x: np.ndarray) -> np.ndarray:
        out = np.array(self.rigid.z(x), dtype=float)
        for i, e in enumerate(self.elements):
            if e.has_energy:
                self._scatter(out, self._pose_idx[i], e.gradient(self._q(i, x)))
        return out

    def Dz(self, x: np.ndarray) -> np.ndarray:
        """``∂z/∂x``: the rigid part's plus the elements' Hessians (the last one cached:
        the discrete-gradient effort asks for it at every residual)."""
        memo = self._Dz_memo
        if memo is not None and np.array_equal(memo[0], x):
            return memo[1]
        out = self._Dz0.copy()
        for i, e in enumerate(self.elements):
            if not e.has_energy:
                continue
            Hq = e.hessian(self._q(i, x))
            for s, rs in enumerate(self._pose_idx[i]):
                for t, rt in enumerate(self._pose_idx[i]):
                    if rs is not None and rt is not None:
                        out[rs, rt] += Hq[s, :, t, :]
        self._Dz_memo = (np.array(x, dtype=float), out)
        return out

    def energy(self, x: np.ndarray) -> float:
        return self._memo("H", x)

    def _energy(self, x: np.ndarray) -> float:
        out = float(self.rigid.energy(x))
        for i, e in enumerate(self.elements):
            if e.has_energy:
                out += e.energy(self._q(i, x))
        return out

    def element_energy(self, name: str, x: np.ndarray) -> float:
        """The energy (J) stored in element ``name`` at ``x``."""
        i = self._index(name)
        return self.elements[i].energy(self._q(i, x))

    def element_dissipation(self, name: str, x: np.ndarray, z: np.ndarray | None = None
                            ) -> float:
        """The power (W) element ``name`` dissipates at ``x`` (efforts ``z``, default
        ``z(x)``)."""
        i = self._index(name)
        z = self.z(x) if z is None else z
        C, r = self._columns(i, x)
        v = np.einsum("ksi,si->k", C, self._wP(i, z))
        return float(r @ (v * v))

    def _index(self, name: str) -> int:
        for i, e in enumerate(self.elements):
            if e.name == name:
                return i
        raise ModelError(f"unknown force element {name!r}; elements: "
                         f"{', '.join(e.name for e in self.elements)}")

    # ------------------------------------------------------------------ structure
    def f(self, x: np.ndarray, w: np.ndarray, lam: np.ndarray, u: np.ndarray) -> np.ndarray:
        u = np.asarray(u, dtype=float).reshape(self.m)
        out = np.array(self.rigid.f(x, w, lam, u[:self._mr]), dtype=float)
        for i in range(len(self.elements)):
            self._add_term(out, i, x, w, u)
        return out

    def f_x(self, x: np.ndarray, w: np.ndarray, lam: np.ndarray, u: np.ndarray) -> np.ndarray:
        """The rigid part's plus each element's ``∂term/∂q`` on its ends' pose columns and
        ``∂term/∂T · M⁻¹`` on their momentum columns (``T_b = M_b⁻¹ p_b``)."""
        u = np.asarray(u, dtype=float).reshape(self.m)
        out = np.array(self.rigid.f_x(x, w, lam, u[:self._mr]), dtype=float)
        Minv = self.rigid.Minv
        for i, e in enumerate(self.elements):
            dq, dT = e.term_jacobian(self._q(i, x), self._T(i, x), self._wP(i, w),
                                     u[self._uslice[i]])
            ends, moving = self._ends[i], bool(dT.any())
            for s, a in enumerate(ends):
                if a is None:
                    continue
                rows = slice(18 * a + 12, 18 * a + 18)
                for t, b in enumerate(ends):
                    if b is not None:
                        out[rows, 18 * b:18 * b + 12] += dq[s, :, t]
                        if moving:  # coefficients that depend on the twists (friction)
                            out[rows, 18 * b + 12:18 * b + 18] += dT[s, :, t] @ Minv[b]
        return out

    def matrix(self, name: str, x: np.ndarray) -> np.ndarray:
        """``J, R, G, P, M, S`` or ``B`` at ``x`` (dense)."""
        if name in ("J", "B"):
            return np.asarray(self.rigid.matrix(name, x), dtype=float)
        if name == "R":
            out = np.array(self.rigid.matrix("R", x), dtype=float)
            for i in range(len(self.elements)):
                C, r = self._columns(i, x)
                if not r.size:
                    continue
                blocks = np.einsum("k,ksi,ktj->sitj", r, C, C)  # Σ r_k c_k c_kᵀ by ends
                for s, rs in enumerate(self._mom_idx[i]):
                    for t, rt in enumerate(self._mom_idx[i]):
                        if rs is not None and rt is not None:
                            out[rs, rt] += blocks[s, :, t]
            return out
        if name == "G":
            return self._G(x)
        if name in ("P", "M", "S"):
            return np.zeros((self.n, self.m) if name == "P" else (self.m, self.m))
        raise ModelError(f"unknown matrix {name!r}; one of J, R, G, P, M, S, B")

    def _G(self, x: np.ndarray) -> np.ndarray:
        out = np.zeros((self.n, self.m))
        out[:, :self._mr] = np.asarray(self.rigid.matrix("G", x), dtype=float)
        for i, e in enumerate(self.elements):
            if not e.inputs:
                continue
            for k, col in enumerate(e.ports(self._q(i, x))):
                v = np.zeros(self.n)
                self._scatter(v, self._mom_idx[i], col)
                out[:, self._uslice[i].start + k] = v
        return out

    def B(self, x: np.ndarray) -> np.ndarray:
        return np.asarray(self.rigid.B(x), dtype=float)

    def c(self, x: np.ndarray, w: np.ndarray) -> np.ndarray:
        return self.rigid.c(x, w)

    def c_x(self, x: np.ndarray, w: np.ndarray) -> np.ndarray:
        return np.asarray(self.rigid.c_x(x, w), dtype=float)

    def constraint(self, x: np.ndarray) -> np.ndarray:
        return self.c(x, self.z(x))

    def constraint_jacobian(self, x: np.ndarray) -> np.ndarray:
        return self.c_x(x, self.z(x)) + self.B(x).T @ self.Dz(x)

    def position_residual(self, x: np.ndarray) -> np.ndarray:
        return self.rigid.position_residual(x)

    # ------------------------------------------------------------------ ports
    def output(self, x: np.ndarray, u: np.ndarray, z: np.ndarray | None = None) -> np.ndarray:
        """``y = Gᵀz``: joint rates, then each element's port outputs."""
        u = np.asarray(u, dtype=float).reshape(self.m)
        z = self.z(x) if z is None else z
        parts = [np.asarray(self.rigid.output(x, u[:self._mr], z), dtype=float)]
        for i, e in enumerate(self.elements):
            if e.inputs:
                parts.append(np.einsum("ksi,si->k", e.ports(self._q(i, x)), self._wP(i, z)))
        return np.concatenate(parts) if parts else np.zeros(0)

    def port_powers(self, x: np.ndarray, z: np.ndarray, u: np.ndarray) -> tuple[float, float]:
        """``(uᵀy, zᵀ𝓡z)`` in W: actuators and wrench ports; actuator dampers and the
        elements' dampers, contacts and friction."""
        u = np.asarray(u, dtype=float).reshape(self.m)
        supplied = float(u @ self.output(x, u, z)) if self.m else 0.0
        dissipated = self.rigid.port_powers(x, z, u[:self._mr])[1]
        for i in range(len(self.elements)):
            C, r = self._columns(i, x)
            if r.size:
                v = np.einsum("ksi,si->k", C, self._wP(i, z))
                dissipated += float(r @ (v * v))
        return supplied, dissipated

    def power_balance(self, x: np.ndarray, u: np.ndarray) -> PowerBalance:
        z = self.z(x)
        stored = float(z @ self.f(x, z, np.zeros(self.k), u))
        return PowerBalance(stored, *self.port_powers(x, z, u))
