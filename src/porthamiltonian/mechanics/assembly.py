r"""Numeric assembly of a mechanism's pH-DAE (NumPy/SciPy sparse, no SymPy).

:class:`MechanismDAE` evaluates the descriptor system of :mod:`.mechanism`,

.. math::
    \dot x = (J(x) - R(x))\,z + B(x)\lambda + G(x)\tau,\qquad 0 = B(x)^\top z,
    \qquad y = G(x)^\top z,\qquad z = \nabla\mathcal H(x),

directly from the poses and momenta, with the interface of
:class:`~porthamiltonian.compiled.descriptor.CompiledDescriptor` (what the DAE
integrators call: ``z, Dz, energy, f, f_x, c, c_x, B, matrix, output, …``), so it is
simulated by the same midpoint / discrete-gradient / IDA code.  All matrices are sparse
(CSR); the assembly and each evaluation are a handful of vectorized operations over the
bodies and the constraint rows, so the cost of a step grows with the sparse LU of the
step matrix, not with symbolic expression size.

Per body (state ``(p, R, P)``, Macchelli & Melchiorri 2008, eq. 6; :mod:`.rigid_body`):

* :math:`z = (-m g,\ -m\,g c^\top,\ M^{-1}P)` (the ``R`` part row-major), ``Dz`` the
  constant block :math:`M^{-1}`;
* :math:`J_b w = (R w_v,\ R\tilde w_\omega,\ -K^\top w_q + \mathcal P(P) w_P)` with
  :math:`K^\top w_q = (\mathrm{vee}(R^\top W - W^\top R),\ R^\top w_p)`, ``W`` the 3×3
  of ``w_R``, and :math:`\mathcal P(P)w_P = (P_\omega\times w_\omega + P_v\times w_v,\
  P_v\times w_\omega)`.

Per constraint row ``g = X·Y`` (:class:`~.joints.Feature`), the body wrench of column
``k`` of ``B`` on end ``i`` is :math:`D_i(X)^\top Y + D_i(Y)^\top X` with
:math:`D_i(X)^\top Y = (a_i\times R_i^\top Y,\ s_i R_i^\top Y)` — the chain rule
:math:`\dot g = \nabla g^\top K(q) T` written out, exact for any (also non-orthonormal)
``R``, so the midpoint rule keeps ``g`` to round-off as in the symbolic assembly.
Actuator columns are the wrenches of :meth:`.Mechanism.system` (torque :math:`\pm R_i^\top
n`, force along ``n`` at the child anchor).  Their derivatives come from :mod:`.dual`.

The values ``B(x)λ`` and ``B(x)ᵀw`` that every Newton residual needs take a shorter
route through the same chain rule.  Each feature is affine in the raw pose entries
``q`` (12 per body), :math:`X = L_X q + c_X` with a constant sparse :math:`L_X`
(ground ends fold into :math:`c_X`), so :math:`\nabla_q g = L_X^\top Y + L_Y^\top X`
and, with :math:`\dot q = K(q)T` (``ṗ = R v``, ``Ṙ = R ω̃`` per body),

.. math::
    B\lambda = K^\top\big(L_X^\top(\lambda\circ Y) + L_Y^\top(\lambda\circ X)\big),
    \qquad (B^\top w)_r = \dot X_r\cdot Y_r + X_r\cdot\dot Y_r,
    \quad \dot X = L_X K w,

two constant matrix–vector products and per-*body* (not per-row) 3×3 work: ``K^T`` is
the ``−Kᵀw_q`` term of ``J_b`` applied to the gradient, ``K w`` its ``q`` rows.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sps

from .. import jit
from ..compiled import PowerBalance
from ..errors import ModelError
from .dual import Ends, cross, cross_rows, feature, rt
from .graph import GROUND
from .protocols import MechanismModel
from .sparsity import DENSE_BELOW

__all__ = ["MechanismDAE", "DENSE_BELOW"]

# Levi-Civita symbol: (a × b)_l = ε_lij a_i b_j
_EPS = np.zeros((3, 3, 3))
for _i, _j, _k in ((0, 1, 2), (1, 2, 0), (2, 0, 1)):
    _EPS[_i, _j, _k], _EPS[_i, _k, _j] = 1.0, -1.0


def _hat(a: np.ndarray) -> np.ndarray:
    return -np.einsum("lij,...l->...ij", _EPS, a)


class _Pattern:
    """A fixed sparsity pattern: COO entries (repeats allowed) summed by one ``bincount``
    per evaluation into a CSR matrix, or into a dense array (``dense``: small models,
    where SciPy's per-call overhead of sparse matrices exceeds the arithmetic)."""

    def __init__(self, rows: np.ndarray, cols: np.ndarray, shape: tuple[int, int],
                 dense: bool) -> None:
        self.lin = rows.astype(np.int64) * shape[1] + cols
        self.shape, self.dense = shape, dense
        if not dense:
            uniq, self.inv = np.unique(self.lin, return_inverse=True)
            r, self.indices = np.divmod(uniq, shape[1])
            self.indptr = np.searchsorted(r, np.arange(shape[0] + 1))
            self.nnz = uniq.size

    def __call__(self, data: np.ndarray) -> Any:
        if self.dense:
            size = self.shape[0] * self.shape[1]
            return np.bincount(self.lin, weights=data, minlength=size).reshape(self.shape)
        d = np.bincount(self.inv, weights=data, minlength=self.nnz)
        return sps.csr_array((d, self.indices, self.indptr), shape=self.shape)


class _Columns:
    """Rows (constraint or actuator columns) acting on two ends: their global indices."""

    def __init__(self, ends: np.ndarray, nb: int) -> None:
        self.ends = ends                                   # (k, 2) body index, nb = ground
        self.live = (ends < nb).astype(float)
        k = ends.shape[0]
        base = 18 * np.where(ends < nb, ends, 0)           # (k, 2)
        self.wrench_rows = base[:, :, None] + 12 + np.arange(6)        # (k, 2, 6)
        loc = np.arange(24)
        self.local_cols = base[:, loc // 12] + loc % 12                # (k, 24)
        self.col_live = self.live[:, loc // 12] > 0                    # (k, 24)
        self.row_live = np.repeat(self.live[:, :, None] > 0, 6, axis=2)  # (k, 2, 6)
        # d(wrench)/dy scattered to (wrench row, pose column): (k, 2, 6, 24)
        self.d_rows = np.broadcast_to(self.wrench_rows[..., None], (k, 2, 6, 24))
        self.d_cols = np.broadcast_to(self.local_cols[:, None, None, :], (k, 2, 6, 24))
        self.d_live = self.row_live[..., None] & self.col_live[:, None, None, :]

    def gather(self, pos: np.ndarray, rot: np.ndarray) -> Ends:
        return Ends(pos[self.ends], rot[self.ends], self.live)


class MechanismDAE:
    """The numeric pH-DAE of a :class:`~.mechanism.Mechanism` (module docstring).

    ``rows``: indices of the constraint rows kept as multipliers (all by default; see
    :meth:`.Mechanism.assemble`).  ``compile()`` returns the object itself, so it can be
    handed to :func:`porthamiltonian.simulate.simulate`.
    """

    linear = False
    Q = None
    #: the step matrix moves little per step (poses change by O(h)), so the midpoint
    #: driver reuses its LU factors across Newton iterations and steps (simplified
    #: Newton, :class:`~porthamiltonian.simulate.linalg.newton.SimplifiedNewton`)
    simplified_newton = True
    #: simulated as a DAE (:mod:`porthamiltonian.compiled.protocol`)
    problem_kind = "dae"
    #: H is quadratic in the state (kinetic energy in the momenta, springs and strains;
    #: gravity linear in the positions): the midpoint step balances it exactly
    quadratic_energy = True

    def __init__(self, mech: MechanismModel, rows: list[int] | None = None,
                 sparse: bool | None = None, engine: str | None = None) -> None:
        names = list(mech.bodies)
        if not names:
            raise ModelError("the mechanism has no bodies; add_body() first")
        nb = self.nb = len(names)
        index = {b: i for i, b in enumerate(names)}
        index[GROUND] = nb
        graph = mech.graph
        # ---- bodies
        # M⁻¹, or M⁺ of a slender/point body (its null twists: :mod:`.slender`)
        self.Minv = np.array([mech.bodies[b].compliance for b in names])
        mass = np.array([mech.bodies[b].mass for b in names])
        com = np.array([mech.bodies[b].com for b in names])
        g = mech.gravity
        self._zq = np.concatenate([-mass[:, None] * g,
                                   -(mass[:, None, None] * g[None, :, None]
                                     * com[:, None, :]).reshape(nb, 9)], axis=1)  # (nb, 12)
        states = [s for b in names for s in mech.bodies[b].states]
        # ---- constraint rows: tree joints first, then chords (as the symbolic assembly)
        self.all_rows: list[tuple[str, int]] = []
        feats: list[tuple[Any, Any]] = []
        ends: list[tuple[int, int]] = []
        for jn in graph.tree + graph.chords:
            j = mech.joints[jn]
            for i, pair in enumerate(j.constraint_pairs()):
                self.all_rows.append((jn, i))
                feats.append(pair)
                ends.append((index[j.parent], index[j.child]))
        self._all = _Columns(np.array(ends, dtype=int).reshape(-1, 2), nb)
        self._fx, self._fy = (_pack([f[s] for f in feats]) for s in (0, 1))
        keep = list(range(len(self.all_rows))) if rows is None else list(rows)
        self.rows = keep
        self._con = _Columns(self._all.ends[keep], nb)
        self._feat = _FeatureMap(self._con.ends, nb, *(
            tuple(a[keep] for a in f) for f in (self._fx, self._fy)))
        self.multipliers = [f"{self.all_rows[r][0]}.lambda[{self.all_rows[r][1]}]"
                            for r in keep]
        # ---- actuators
        acts, aends, trans, dirs, anchor = [], [], [], [], []
        for jn, a in mech.actuators.items():
            j = mech.joints[jn]
            for i, (kind, n) in enumerate(j.actuator_directions()):
                acts.append((jn, i, a))
                aends.append((index[j.parent], index[j.child]))
                trans.append(kind == "trans")
                dirs.append(n)
                anchor.append(j.a2)
        self._act = _Columns(np.array(aends, dtype=int).reshape(-1, 2), nb)
        self._trans = np.array(trans, dtype=bool)
        self._dir = _pack(dirs)
        self._anchor = np.array(anchor, dtype=float).reshape(-1, 3)
        na = len(acts)
        self._damp = np.array([a.damping[i] for _, i, a in acts], dtype=float)
        stiff = np.array([a.stiffness[i] for _, i, a in acts], dtype=float)
        self._spring = np.flatnonzero(stiff > 0)
        self._k = stiff[self._spring]
        ref = [0.0 if a.setpoint is None else a.setpoint[i] for _, i, a in acts]
        self._ref = np.array(ref, dtype=float)[self._spring]
        states += [f"{acts[s][0]}.s[{acts[s][1]}]" for s in self._spring]
        self.states = states
        self.inputs = [f"{jn}.tau[{i}]" for jn, i, _ in acts]
        self.outputs = [f"{jn}.v[{i}]" for jn, i, _ in acts]
        n = self.n = len(states)
        self.k, self.m = len(keep), na
        self._sidx = 18 * nb + np.arange(self._spring.size)   # spring state indices
        self.sparse = n + self.k > DENSE_BELOW if sparse is None else bool(sparse)
        self.E = sps.identity(n, format="csr") if self.sparse else np.eye(n)
        self.algebraic = self.left_kernel = np.zeros((n, 0))
        self._build_patterns()
        self._cache: dict[str, tuple[np.ndarray, Any]] = {}
        self._rate_memo: tuple[np.ndarray, np.ndarray, np.ndarray] | None = None
        if engine not in (None, "compiled", "numpy"):
            raise ModelError(f"engine must be 'compiled' or 'numpy', got {engine!r}")
        #: "compiled": the midpoint step runs through :mod:`.kernels` (Numba; the
        #: default when :func:`porthamiltonian.jit.enabled`); "numpy": the generic
        #: step over the vectorized methods below (same equations)
        self.engine = engine or ("compiled" if jit.enabled() else "numpy")
        self._packed: tuple[np.ndarray, ...] | None = None
        self._point_memo: tuple[np.ndarray, np.ndarray, Any] | None = None
        #: saved points' quantities in one compiled call (optional in
        #: :mod:`porthamiltonian.compiled.protocol`); none with the NumPy engine
        self.points = self._points if self.engine == "compiled" else None

    # ------------------------------------------------------------------ patterns
    def _build_patterns(self) -> None:
        nb, n, dn = self.nb, self.n, not self.sparse
        o = 18 * np.arange(nb)
        qr, rc, pr = (o[:, None] + np.arange(12), o[:, None] + 3 + np.arange(9),
                      o[:, None] + 12 + np.arange(6))
        # body blocks of f_x: (q rows × R cols), (P rows × R cols), (P rows × P cols)
        body = [(np.broadcast_to(r[:, :, None], (nb, r.shape[1], c.shape[1])),
                 np.broadcast_to(c[:, None, :], (nb, r.shape[1], c.shape[1])))
                for r, c in ((qr, rc), (pr, rc), (pr, pr))]
        # J: (q rows × P cols) and its negative transpose, (P × P)
        jblocks = [(qr, pr), (pr, qr), (pr, pr)]
        jr = [np.broadcast_to(r[:, :, None], (nb, r.shape[1], c.shape[1])) for r, c in jblocks]
        jc = [np.broadcast_to(c[:, None, :], (nb, r.shape[1], c.shape[1])) for r, c in jblocks]
        con, act, sp_ = self._con, self._act, self._spring
        # f_x: bodies, constraint wrench derivatives, actuator wrench derivatives,
        # damping outer products, spring rows
        fr = [b[0].ravel() for b in body] + [con.d_rows[con.d_live], act.d_rows[act.d_live]]
        fc = [b[1].ravel() for b in body] + [con.d_cols[con.d_live], act.d_cols[act.d_live]]
        na = act.ends.shape[0]
        outer_r = np.broadcast_to(act.wrench_rows[..., None], (na, 2, 6, 24))
        outer_c = np.broadcast_to(act.local_cols[:, None, None, :], (na, 2, 6, 24))
        self._outer_live = act.row_live[..., None] & act.col_live[:, None, None, :]
        fr.append(outer_r[self._outer_live])
        fc.append(outer_c[self._outer_live])
        srow = np.broadcast_to(self._sidx[:, None], (sp_.size, 24))
        fr.append(srow[act.col_live[sp_]])
        fc.append(act.local_cols[sp_][act.col_live[sp_]])
        self._fx_pattern = _Pattern(np.concatenate(fr), np.concatenate(fc), (n, n), dn)
        # J: body blocks and spring couplings (row s: colᵀ, column s: −col)
        srows = act.wrench_rows[sp_][act.row_live[sp_]]
        scount = act.row_live[sp_].reshape(sp_.size, 12).sum(axis=1)
        sown = np.repeat(self._sidx, scount)
        self._J_pattern = _Pattern(
            np.concatenate([a.ravel() for a in jr] + [sown, srows]),
            np.concatenate([a.ravel() for a in jc] + [srows, sown]), (n, n), dn)
        # R: c_i col_i col_iᵀ over the damped actuators
        rr = np.broadcast_to(act.wrench_rows.reshape(na, 12)[:, :, None], (na, 12, 12))
        rcol = np.broadcast_to(act.wrench_rows.reshape(na, 12)[:, None, :], (na, 12, 12))
        lv = act.row_live.reshape(na, 12)
        self._R_live = lv[:, :, None] & lv[:, None, :]
        self._R_pattern = _Pattern(rr[self._R_live], rcol[self._R_live], (n, n), dn)
        # column matrices B (n × k), G (n × m), and c_x (k × n)
        self._B_pattern = _column_pattern(con, n, dn)
        self._G_pattern = _column_pattern(act, n, dn)
        k = con.ends.shape[0]
        self._cx_pattern = _Pattern(np.broadcast_to(np.arange(k)[:, None], (k, 24))[con.col_live],
                                    con.local_cols[con.col_live], (k, n), dn)
        blocks = [sps.block_diag([sps.csr_array((12, 12)), M]) for M in self.Minv]
        if self._k.size:
            blocks.append(sps.diags(self._k))
        self._Dz = sps.csr_array(sps.block_diag(blocks, format="csr"))
        if dn:
            self._Dz = self._Dz.toarray()

    # ------------------------------------------------------------------ evaluation
    def compile(self) -> MechanismDAE:
        return self

    def _point(self, x: np.ndarray, u: np.ndarray
               ) -> tuple[tuple[float, float, float, float], np.ndarray, np.ndarray]:
        """``(H, stored, supplied, dissipated), y, B(x)ᵀz(x)`` at ``x`` by one compiled
        call (engine ``"compiled"``): what the recorder asks for at every saved point."""
        from .fused import pack
        from .kernels import point

        if self._packed is None:
            self._packed = pack(self)
        x = np.asarray(x, dtype=float)
        u = np.asarray(u, dtype=float).reshape(self.m)
        memo = self._point_memo  # the recorder asks for H, powers and y at one (x, u)
        if memo is not None and np.array_equal(memo[0], x) and np.array_equal(memo[1], u):
            return memo[2]
        y, c = np.empty(self.m), np.empty(self.k)
        vals = point(x, u, self.nb, self._spring.size, *self._packed, y, c)
        self._point_memo = (x.copy(), u.copy(), (vals, y, c))
        return vals, y, c

    def _points(self, X: np.ndarray, U: np.ndarray) -> tuple[np.ndarray, ...]:
        """Outputs ``y`` (K × m), ``H``, the stored, supplied and dissipated powers and
        ``|B(x)ᵀz(x)|∞`` (K each) at the rows of ``X`` (K × n) with inputs ``U`` (K × m):
        :func:`.kernels.point` of each row, all in one compiled call."""
        from .fused import pack
        from .kernels import points

        if self._packed is None:
            self._packed = pack(self)
        X = np.ascontiguousarray(X, dtype=float)
        U = np.ascontiguousarray(U, dtype=float).reshape(X.shape[0], self.m)
        Y, Q, node = np.empty((X.shape[0], self.m)), np.empty((X.shape[0], 4)), \
            np.empty(X.shape[0])
        points(X, U, self.nb, self._spring.size, *self._packed, Y, Q, node)
        return Y, Q[:, 0].copy(), Q[:, 1].copy(), Q[:, 2].copy(), Q[:, 3].copy(), node

    def fused_midpoint(self, signal: Any, **newton: Any) -> Any:
        """The compiled midpoint step (:class:`.fused.FusedMidpoint`, same equations as
        the generic one), or ``None`` with ``engine="numpy"``; ``newton``: ``newton_tol``,
        ``max_newton``, ``simplified_newton``."""
        if self.engine != "compiled":
            return None
        from .fused import FusedMidpoint

        return FusedMidpoint(self, signal, **newton)

    @property
    def n_constraints(self) -> int:
        return self.k

    def _zeros(self, r: int, c: int) -> Any:
        return sps.csr_array((r, c)) if self.sparse else np.zeros((r, c))

    def _split(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """Positions (nb+1 × 3) and rotations (nb+1 × 3 × 3), ground appended; momenta."""
        b = np.asarray(x[:18 * self.nb], dtype=float).reshape(self.nb, 18)
        pos = np.vstack([b[:, :3], np.zeros((1, 3))])
        rot = np.concatenate([b[:, 3:12].reshape(self.nb, 3, 3), np.eye(3)[None]], axis=0)
        return pos, rot, b[:, 12:]

    def _columns(self, x: np.ndarray, which: str, deriv: bool = False
                 ) -> tuple[np.ndarray, Any]:
        """Body wrenches ``W`` (r × 2 × 6) and, with ``deriv``, ``∂W/∂y``
        (r × 2 × 6 × 24) of the kept constraint rows (``"con"``), of all rows (``"all"``)
        or of the actuators (``"act"``); the last evaluation of each is cached."""
        hit = self._cache.get(which)
        if hit is not None and (hit[1][1] is not None or not deriv) and np.array_equal(
                hit[0], x[:18 * self.nb]):
            return hit[1]
        pos, rot, _ = self._split(x)
        if which == "act":
            out = self._actuator_wrenches(self._act.gather(pos, rot), deriv)
        else:
            sel = slice(None) if which == "all" else self.rows
            cols = self._all if which == "all" else self._con
            out = _constraint_wrenches(cols.gather(pos, rot), *(
                tuple(a[sel] for a in f) for f in (self._fx, self._fy)), deriv=deriv)
        self._cache[which] = (np.array(x[:18 * self.nb], dtype=float), out)
        return out

    def _actuator_wrenches(self, E: Ends, deriv: bool) -> tuple[np.ndarray, Any]:
        s, a, c = self._dir
        nvec = feature(E, s, a, c, deriv)
        na = s.shape[0]
        W = np.zeros((na, 2, 6))
        dW = np.zeros((na, 2, 6, 24)) if deriv else None
        m2, m1 = rt(E, 1, nvec), -rt(E, 0, nvec)
        zero = np.zeros((na, 3))
        gap = feature(E, np.tile([-1.0, 1.0], (na, 1)), np.stack([zero, self._anchor], axis=1),
                      zero, deriv)
        parts = {1: (cross(self._anchor, m2), m2), 0: (cross(rt(E, 0, gap), m1), m1)}
        t = self._trans
        for side, (tau, force) in parts.items():
            W[:, side, :3] = np.where(t[:, None], tau.v, force.v)  # rot: torque R_iᵀn
            W[:, side, 3:] = np.where(t[:, None], force.v, 0.0)
            if dW is not None:
                dW[:, side, :3] = np.where(t[:, None, None], tau.d, force.d)
                dW[:, side, 3:] = np.where(t[:, None, None], force.d, 0.0)
        return W, dW

    def _pz(self, z: np.ndarray, cols: _Columns) -> np.ndarray:
        """Momentum efforts (twists) of each row's two ends (r × 2 × 6; 0 at ground)."""
        T = np.vstack([np.asarray(z[:18 * self.nb]).reshape(self.nb, 18)[:, 12:],
                       np.zeros((1, 6))])
        return T[cols.ends]

    # --- efforts and energy
    def _bodies(self, v: np.ndarray) -> np.ndarray:
        """The body part of a state-sized vector as (nb × 18) rows."""
        return np.asarray(v[:18 * self.nb], dtype=float).reshape(self.nb, 18)

    def z(self, x: np.ndarray) -> np.ndarray:
        out = np.empty(self.n)
        ob = out[:18 * self.nb].reshape(self.nb, 18)
        ob[:, :12] = self._zq
        ob[:, 12:] = np.einsum("bij,bj->bi", self.Minv, self._bodies(x)[:, 12:])
        out[18 * self.nb:] = self._k * (x[self._sidx] - self._ref)
        return out

    def Dz(self, x: np.ndarray) -> sps.csr_array:
        return self._Dz

    def energy(self, x: np.ndarray) -> float:
        # NumPy for either engine: a run asks for H at one point only (the initial-energy
        # check; the recorder takes :meth:`_points`, or :meth:`power_balance` step by
        # step), and compiling the point kernel for it made the first ``validate`` of a
        # mechanism on a machine take 12 s
        b = self._bodies(x)
        P = b[:, 12:]
        kin = 0.5 * float(np.einsum("bi,bij,bj->", P, self.Minv, P))
        s = x[self._sidx] - self._ref
        return kin + float(np.sum(self._zq * b[:, :12])) + 0.5 * float(self._k @ (s * s))

    # --- structure
    def _body_structure(self, x: np.ndarray, w: np.ndarray, wq: np.ndarray | None = None
                        ) -> np.ndarray:
        r"""``J_b w`` of every body (nb × 18) (module docstring), with the ``q`` part of
        ``w`` replaced by ``wq`` (nb × 12) if given.  Row ``i`` of ``R ω̃`` is
        :math:`R_{i:}\times\omega` and :math:`\varepsilon_{lac}(R^\top W)_{ac} =
        \sum_i (R_{i:}\times W_{i:})_l`."""
        b, wb = self._bodies(x), self._bodies(w)
        R, P = b[:, 3:12].reshape(-1, 3, 3), b[:, 12:]
        wq = wb[:, :12] if wq is None else wq
        ww, wv = wb[:, 12:15], wb[:, 15:]
        # all cross products in one call: rows of R × ω, rows of R × W, P_ω × ω, P_v × v,
        # P_v × ω
        a, c = np.empty((self.nb, 9, 3)), np.empty((self.nb, 9, 3))
        a[:, :3], a[:, 3:6], a[:, 6], a[:, 7:] = R, R, P[:, :3], P[:, None, 3:]
        c[:, :3], c[:, 6], c[:, 7], c[:, 8] = ww[:, None], ww, wv, ww
        c[:, 3:6] = wq[:, 3:12].reshape(-1, 3, 3)
        C = cross_rows(a, c)
        out = np.empty_like(wb)
        out[:, :3] = np.einsum("bij,bj->bi", R, wv)
        out[:, 3:12] = C[:, :3].reshape(-1, 9)
        self._rate_memo = (b.copy(), wb.copy(), out[:, :12].copy())
        # −Kᵀw_q: ω part −vee(RᵀW − WᵀR) = ε_lac (RᵀW)_ac, v part −Rᵀ w_p
        out[:, 12:15] = C[:, 3:6].sum(axis=1) + C[:, 6] + C[:, 7]
        out[:, 15:] = C[:, 8] - np.einsum("bij,bi->bj", R, wq[:, :3])
        return out

    def _rates(self, x: np.ndarray, w: np.ndarray) -> np.ndarray:
        """``K(q) T``: the pose rates ``(R w_v, R w̃_ω)`` of every body (nb × 12); the
        residual evaluates ``f`` and then ``c`` at the same ``(x, w)``, so the rates of
        the last :meth:`_body_structure` are reused."""
        b, wb = self._bodies(x), self._bodies(w)
        memo = self._rate_memo
        if memo is not None and np.array_equal(memo[0], b) and np.array_equal(memo[1], wb):
            return memo[2]
        R, ww, wv = b[:, 3:12].reshape(-1, 3, 3), wb[:, 12:15], wb[:, 15:]
        out = np.empty((self.nb, 12))
        out[:, :3] = np.einsum("bij,bj->bi", R, wv)
        out[:, 3:] = cross_rows(R, ww[:, None, :]).reshape(-1, 9)
        return out

    def _act_terms(self, x: np.ndarray, w: np.ndarray, deriv: bool = False
                   ) -> tuple[np.ndarray, Any, np.ndarray]:
        """Actuator wrenches, their derivatives and ``colᵀw`` (the joint velocities)."""
        W, dW = self._columns(x, "act", deriv)
        return W, dW, np.einsum("rsi,rsi->r", W, self._pz(w, self._act))

    def f(self, x: np.ndarray, w: np.ndarray, lam: np.ndarray, u: np.ndarray) -> np.ndarray:
        """``(J−R)(x) w + B(x) λ + G(x) u``."""
        out = np.zeros(self.n)
        wq = None
        if self.k and np.any(lam):  # Bλ = Kᵀ ∇_q(λᵀg): fold −∇_q(λᵀg) into w_q
            wq = self._bodies(w)[:, :12] - self._feat.gradient(self._bodies(x), lam)
        out[:18 * self.nb] = self._body_structure(x, w, wq).ravel()
        if self.m:
            W, _, v = self._act_terms(x, w)
            coef = np.asarray(u, dtype=float) - self._damp * v
            coef[self._spring] -= w[self._sidx]
            np.add.at(out, self._act.wrench_rows, W * (coef[:, None, None]
                                                       * self._act.live[..., None]))
            out[self._sidx] += v[self._spring]
        return out

    def f_x(self, x: np.ndarray, w: np.ndarray, lam: np.ndarray, u: np.ndarray
            ) -> sps.csr_array:
        """:math:`\\partial f/\\partial x` at fixed ``(w, λ, u)`` (sparse)."""
        nb = self.nb  # J_b w is bilinear: its body blocks depend on w only
        wb = np.asarray(w[:18 * nb]).reshape(nb, 18)
        wp, Wr, ww, wv = wb[:, :3], wb[:, 3:12].reshape(-1, 3, 3), wb[:, 12:15], wb[:, 15:]
        I3 = np.eye(3)
        qR = np.zeros((nb, 12, 9))
        qR[:, :3] = np.einsum("ij,bk->bijk", I3, wv).reshape(nb, 3, 9)   # ∂(R w_v)/∂R
        Om = _hat(ww)
        qR[:, 3:] = np.einsum("im,nkj->nijmk", I3, Om).reshape(nb, 9, 9)  # ∂vec(RΩ)/∂R
        PR = np.zeros((nb, 6, 9))
        PR[:, :3] = np.einsum("lac,nic->nlia", _EPS, Wr).reshape(nb, 3, 9)
        PR[:, 3:] = -np.einsum("bi,jk->bjik", wp, I3).reshape(nb, 3, 9)
        PP = np.zeros((nb, 6, 6))
        Hw, Hv = _hat(ww), _hat(wv)
        PP[:, :3, :3], PP[:, :3, 3:], PP[:, 3:, 3:] = -Hw, -Hv, -Hw
        data = [qR.ravel(), PR.ravel(), PP.ravel()]
        con, act = self._con, self._act
        if self.k:
            _, dW = self._columns(x, "con", deriv=True)
            data.append((lam[:, None, None, None] * dW)[con.d_live])
        else:
            data.append(np.zeros(0))
        if self.m:
            W, dW, v = self._act_terms(x, w, deriv=True)
            coef = np.asarray(u, dtype=float) - self._damp * v
            coef[self._spring] -= w[self._sidx]
            data.append((coef[:, None, None, None] * dW)[act.d_live])
            gw = np.einsum("rsi,rsil->rl", self._pz(w, act), dW)      # wᵀ ∂col (r × 24)
            outer = -self._damp[:, None, None, None] * W[..., None] * gw[:, None, None, :]
            data.append(outer[self._outer_live])
            data.append(gw[self._spring][act.col_live[self._spring]])
        else:
            data += [np.zeros(0)] * 3
        return self._fx_pattern(np.concatenate(data))

    def matrix(self, name: str, x: np.ndarray) -> Any:
        """``J, R, G, P, M, S`` or ``B`` at state ``x`` (sparse)."""
        if name == "B":
            return self.B(x)
        if name == "J":
            _, rot, P = self._split(x)
            R, nb = rot[:-1], self.nb
            K = np.zeros((nb, 12, 6))
            K[:, :3, 3:] = R
            # ∂(R ω̃)_ij/∂ω_l = −Σ_a R_ia ε_laj
            K[:, 3:, :3] = -np.einsum("bia,laj->bijl", R, _EPS).reshape(nb, 9, 3)
            PP = np.zeros((nb, 6, 6))
            PP[:, :3, :3], PP[:, :3, 3:], PP[:, 3:, :3] = (_hat(P[:, :3]), _hat(P[:, 3:]),
                                                           _hat(P[:, 3:]))
            data = [K.ravel(), -K.transpose(0, 2, 1).ravel(), PP.ravel()]
            if self._spring.size:
                W, _ = self._columns(x, "act")
                ws = W[self._spring][self._act.row_live[self._spring]]
                data += [ws, -ws]
            return self._J_pattern(np.concatenate(data))
        if name == "R":
            W, _ = self._columns(x, "act") if self.m else (np.zeros((0, 2, 6)), None)
            Wf = W.reshape(-1, 12)
            RR = self._damp[:, None, None] * Wf[:, :, None] * Wf[:, None, :]
            return self._R_pattern(RR[self._R_live])
        if name == "G":
            return self._G(x)
        if name in ("P", "M", "S"):
            shape = {"P": (self.n, self.m), "M": (self.m, self.m), "S": (self.m, self.m)}
            return self._zeros(*shape[name])
        raise ModelError(f"unknown matrix {name!r}; one of J, R, G, P, M, S, B")

    def B(self, x: np.ndarray) -> sps.csr_array:
        """Constraint wrench columns (n × k)."""
        if not self.k:
            return self._zeros(self.n, 0)
        W, _ = self._columns(x, "con")
        return self._B_pattern(W[self._con.row_live])

    def _G(self, x: np.ndarray) -> sps.csr_array:
        if not self.m:
            return self._zeros(self.n, 0)
        W, _ = self._columns(x, "act")
        return self._G_pattern(W[self._act.row_live])

    def c(self, x: np.ndarray, w: np.ndarray) -> np.ndarray:
        """``B(x)ᵀ w``."""
        if not self.k:
            return np.zeros(0)
        return self._feat.rate(self._bodies(x), self._rates(x, w))

    def c_x(self, x: np.ndarray, w: np.ndarray) -> sps.csr_array:
        """:math:`\\partial (B^\\top w)/\\partial x` at fixed ``w`` (k × n)."""
        if not self.k:
            return self._zeros(0, self.n)
        _, dW = self._columns(x, "con", deriv=True)
        gw = np.einsum("rsi,rsil->rl", self._pz(w, self._con), dW)
        return self._cx_pattern(gw[self._con.col_live])

    def constraint(self, x: np.ndarray) -> np.ndarray:
        """``B(x)ᵀ z(x)`` — the velocity form of the kept joint constraints."""
        if self.engine == "compiled":
            return self._point(x, np.zeros(self.m))[2]
        return self.c(x, self.z(x))

    def constraint_jacobian(self, x: np.ndarray) -> Any:
        """:math:`d/dx\\,[B(x)^\\top z(x)]`."""
        return self.c_x(x, self.z(x)) + self.B(x).T @ self._Dz

    def wrench_matrix(self, x: np.ndarray) -> np.ndarray:
        """Dense (rows × n) wrench rows of *all* constraint rows (redundancy checks)."""
        W, _ = self._columns(x, "all")
        out = np.zeros((W.shape[0], self.n))
        r = np.broadcast_to(np.arange(W.shape[0])[:, None, None], W.shape)
        live = self._all.row_live
        np.add.at(out, (r[live], self._all.wrench_rows[live]), W[live])
        return out

    def position_residual(self, x: np.ndarray) -> np.ndarray:
        """``g(q)`` of all constraint rows (dropped ones too)."""
        pos, rot, _ = self._split(x)
        E = self._all.gather(pos, rot)
        return np.sum(feature(E, *self._fx).v * feature(E, *self._fy).v, axis=1)

    # --- ports
    def output(self, x: np.ndarray, u: np.ndarray, z: np.ndarray | None = None) -> np.ndarray:
        """``y = G(x)ᵀ z``: the joint velocities of the actuated directions."""
        if not self.m:
            return np.zeros(0)
        if z is None and self.engine == "compiled":
            return self._point(x, u)[1]
        z = self.z(x) if z is None else z
        W, _ = self._columns(x, "act")
        return np.einsum("rsi,rsi->r", W, self._pz(z, self._act))

    def port_powers(self, x: np.ndarray, z: np.ndarray, u: np.ndarray) -> tuple[float, float]:
        """``(uᵀy, zᵀRz)`` in W."""
        if not self.m:
            return 0.0, 0.0
        y = self.output(x, u, z)
        return float(u @ y), float(self._damp @ (y * y))

    def power_balance(self, x: np.ndarray, u: np.ndarray) -> PowerBalance:
        """Stored, supplied and dissipated power at ``(x, u)`` (``zᵀBλ = 0``)."""
        if self.engine == "compiled":
            return PowerBalance(*self._point(x, u)[0][1:])
        z = self.z(x)
        stored = float(z @ self.f(x, z, np.zeros(self.k), u))
        return PowerBalance(stored, *self.port_powers(x, z, u))


def _pack(feats: list[Any]) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Stack :class:`~.joints.Feature` coefficients: ``s`` (r × 2), ``a`` (r × 2 × 3),
    ``c`` (r × 3)."""
    r = len(feats)
    s, a, c = np.zeros((r, 2)), np.zeros((r, 2, 3)), np.zeros((r, 3))
    for i, f in enumerate(feats):
        s[i] = f.s
        c[i] = f.c
        for side in (0, 1):
            if f.a[side] is not None:
                a[i, side] = f.a[side]
    return s, a, c


def _constraint_wrenches(E: Ends, fx: tuple, fy: tuple, deriv: bool
                         ) -> tuple[np.ndarray, Any]:
    """Body wrenches :math:`D_i(X)^\\top Y + D_i(Y)^\\top X` of rows ``g = X·Y`` on both
    ends, with their derivatives if ``deriv``."""
    X, Y = feature(E, *fx, deriv), feature(E, *fy, deriv)
    r = X.v.shape[0]
    W = np.zeros((r, 2, 6))
    dW = np.zeros((r, 2, 6, 24)) if deriv else None
    for side in (0, 1):
        RY, RX = rt(E, side, Y), rt(E, side, X)
        tau = cross(fx[1][:, side], RY) + cross(fy[1][:, side], RX)
        force = RY.scale(fx[0][:, side]) + RX.scale(fy[0][:, side])
        W[:, side, :3], W[:, side, 3:] = tau.v, force.v
        if dW is not None:
            dW[:, side, :3], dW[:, side, 3:] = tau.d, force.d
    return W, dW


def _column_pattern(cols: _Columns, n: int, dense: bool) -> _Pattern:
    k = cols.ends.shape[0]
    c = np.broadcast_to(np.arange(k)[:, None, None], (k, 2, 6))
    return _Pattern(cols.wrench_rows[cols.row_live], c[cols.row_live], (n, k), dense)



class _FeatureMap:
    """The features ``X, Y`` of rows ``g = X·Y`` as constant affine maps of the raw
    pose entries ``q`` (nb × 12 per body: ``p``, ``R`` row-major), stacked
    :math:`[X; Y] = L q + c` (module docstring); dense below :data:`DENSE_BELOW`."""

    def __init__(self, ends: np.ndarray, nb: int, fx: tuple, fy: tuple) -> None:
        k = ends.shape[0]
        rows, cols, vals = [], [], []
        const = np.zeros((2, k, 3))
        j = np.arange(3)
        for f, (s, a, c) in enumerate((fx, fy)):
            const[f] += c
            for side in (0, 1):
                body = ends[:, side]
                live = body < nb
                r0 = 3 * (f * k + np.arange(k))[live]             # first row of each feature
                col = 12 * body[live]
                # X_j ∋ s p_j  and  Σ_l R_jl a_l
                rows += [r0[:, None] + j, np.repeat(r0[:, None] + j, 3, axis=1)]
                cols += [col[:, None] + j,
                         (col[:, None, None] + 3 + 3 * j[:, None] + j[None, :]).reshape(-1, 9)]
                vals += [np.repeat(s[live, side][:, None], 3, axis=1),
                         np.tile(a[live, side], (1, 3))]
                const[f][~live] += a[~live, side]              # ground: p = 0, R = I
        shape = (6 * k, 12 * nb)
        L = sps.csr_array((np.concatenate([v.ravel() for v in vals]),
                           (np.concatenate([r.ravel() for r in rows]),
                            np.concatenate([c.ravel() for c in cols]))), shape=shape)
        dense = 6 * k * 12 * nb <= DENSE_BELOW**2
        self.L = L.toarray() if dense else L
        self.LT = self.L.T.copy() if dense else sps.csr_array(L.T)
        self.const, self.k = const.ravel(), k
        self._memo: tuple[np.ndarray, np.ndarray] | None = None

    def values(self, bodies: np.ndarray) -> np.ndarray:
        """``[X; Y]`` (2 × k × 3) at the body rows ``bodies`` (nb × 18); the last value is
        kept (``f`` and ``c`` of one residual share it)."""
        q = bodies[:, :12]
        if self._memo is not None and np.array_equal(self._memo[0], q):
            return self._memo[1]
        XY = (self.L @ q.ravel() + self.const).reshape(2, self.k, 3)
        self._memo = (q.copy(), XY)
        return XY

    def gradient(self, bodies: np.ndarray, lam: np.ndarray) -> np.ndarray:
        r""":math:`\nabla_q(\lambda^\top g) = L_X^\top(\lambda\circ Y) + L_Y^\top
        (\lambda\circ X)` (nb × 12)."""
        XY = self.values(bodies)
        return (self.LT @ (lam[None, :, None] * XY[::-1]).ravel()).reshape(-1, 12)

    def rate(self, bodies: np.ndarray, qdot: np.ndarray) -> np.ndarray:
        r""":math:`\dot g = \dot X\cdot Y + X\cdot\dot Y` for pose rates ``qdot``
        (nb × 12)."""
        XY = self.values(bodies)
        D = (self.L @ qdot.ravel()).reshape(2, self.k, 3)
        return np.einsum("ri,ri->r", D[0], XY[1]) + np.einsum("ri,ri->r", XY[0], D[1])
