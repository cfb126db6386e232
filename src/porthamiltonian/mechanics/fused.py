r"""The midpoint step of a rigid :class:`~.assembly.MechanismDAE` as compiled kernels.

:class:`FusedMidpoint` is what :meth:`.MechanismDAE.fused_midpoint` hands to the DAE
loop in place of the generic
:class:`~porthamiltonian.simulate.dae.midpoint.DAEMidpoint`: the same step equations
(implicit midpoint, :math:`\delta = h f(\bar x, \bar z, \mu/h, \bar u)`,
:math:`0 = B(\bar x)^\top\bar z`), the same first guess (extrapolated rates of the last
steps), the same Newton policy (simplified Newton with the step matrix of an earlier
step, a fresh one when that fails, full Newton after repeated failures; re-factored
after more than :data:`~porthamiltonian.simulate.dae.midpoint.REFRESH_AFTER` iterations)
and the same convergence tests, with the residual, the Newton matrix and the whole
iteration in :mod:`.kernels`.  Trajectories agree with the generic path to round-off
(``tests/mechanics/test_compiled_kernels.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sps
from scipy.sparse.csgraph import reverse_cuthill_mckee

from ..simulate.dae.midpoint import REFRESH_AFTER, extrapolated_guess
from ..simulate.linalg.newton import NewtonFailure
from ..simulate.method import StepInfo
from . import kernels as K

__all__ = ["FusedMidpoint", "pack"]

#: most consecutive full-Newton solves after simplified Newton failed twice in a row
#: (as :class:`~porthamiltonian.simulate.linalg.newton.SimplifiedNewton`)
MAX_BACKOFF = 64


def pack(dae: Any) -> tuple[np.ndarray, ...]:
    """The model data of the kernels (``bdat, rdat, rint, adat, aint``; layouts in
    :mod:`.kernels`) from a :class:`~.assembly.MechanismDAE`."""
    nb, k = dae.nb, dae.k
    bdat = np.concatenate([dae.Minv.reshape(nb, 36), dae._zq], axis=1)
    rdat = np.zeros((k, 22))
    keep = dae.rows
    for f, off in ((dae._fx, 0), (dae._fy, 11)):
        s, a, c = (v[keep] for v in f)
        rdat[:, off:off + 2], rdat[:, off + 2:off + 8] = s, a.reshape(k, 6)
        rdat[:, off + 8:off + 11] = c
    rint = np.ascontiguousarray(dae._con.ends, dtype=np.int64).reshape(k, 2)
    m = dae.m
    s, a, c = dae._dir
    adat = np.zeros((m, 18))
    if m:
        adat[:, 0:2], adat[:, 2:8], adat[:, 8:11] = s, a.reshape(m, 6), c
        adat[:, 11:14], adat[:, 14] = dae._anchor, dae._damp
        adat[:, 15] = dae._trans.astype(float)
    aint = np.zeros((m, 3), dtype=np.int64)
    aint[:, :2] = dae._act.ends
    aint[:, 2] = -1
    for i, act in enumerate(dae._spring):
        aint[act, 2] = i
        adat[act, 16], adat[act, 17] = dae._k[i], dae._ref[i]
    return bdat, rdat, rint, adat, aint


def _structure(dae: Any, rint: np.ndarray, aint: np.ndarray
               ) -> tuple[np.ndarray, np.ndarray, np.ndarray, int, int]:
    """Which bodies' poses each outer row depends on (``pstart``, ``pbody``), a
    bandwidth-reducing order of the outer unknowns (``iperm``: old → new index) and
    the band widths ``(kl, ku)`` of the reduced matrix in that order."""
    nb, ns, k = dae.nb, dae._spring.size, dae.k
    nred = 6 * nb + ns + k
    touch: list[set[int]] = [{b} for b in range(nb)]  # bodies coupled to each body
    for e0, e1 in [*map(tuple, rint), *map(tuple, aint[:, :2])]:
        if e0 < nb and e1 < nb:
            touch[e0].add(e1)
            touch[e1].add(e0)
    rows: list[list[int]] = [sorted(touch[b]) for b in range(nb) for _ in range(6)]
    live = [[e for e in ends if e < nb] for ends in aint[:, :2]]
    spring_of = {int(s): a for a, s in enumerate(aint[:, 2]) if s >= 0}
    rows += [sorted(set(live[spring_of[s]])) for s in range(ns)]
    rows += [sorted({e for e in ends if e < nb}) for ends in rint]
    pstart = np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(np.int64)
    pbody = np.array([b for r in rows for b in r], dtype=np.int64)
    # pattern of the reduced matrix: each row couples to the momenta of its bodies,
    # bodies to the multipliers and springs of their rows and to each other
    pr, pc = [], []
    for o, bodies in enumerate(rows):
        for b in bodies:
            pr += [o] * 6
            pc += list(range(6 * b, 6 * b + 6))
    extra = [(6 * nb + ns + r, e) for r, ends in enumerate(rint) for e in ends if e < nb]
    extra += [(6 * nb + s, e) for s in range(ns) for e in live[spring_of[s]]]
    for a in range(aint.shape[0]):  # dampers: body-body blocks
        for e in live[a]:
            extra += [(6 * e2 + c, e) for e2 in live[a] for c in range(6)]
    for o, e in extra:
        pr += [o] * 6
        pc += list(range(6 * e, 6 * e + 6))
    pat = sps.csr_array((np.ones(len(pr)), (pr, pc)), shape=(nred, nred))
    pat = (pat + pat.T + sps.identity(nred)).tocsr()
    order = reverse_cuthill_mckee(pat, symmetric_mode=True)
    iperm = np.empty(nred, dtype=np.int64)
    iperm[order] = np.arange(nred)
    r, c = pat.nonzero()
    diff = iperm[r] - iperm[c]
    return pstart, pbody, iperm, int(max(diff.max(), 0)), int(max(-diff.min(), 0))


class FusedMidpoint:
    """The implicit midpoint step of a rigid mechanism through :mod:`.kernels`; the
    interface of :class:`~porthamiltonian.simulate.dae.midpoint.DAEMidpoint`
    (``step(t, x, h) → (x_new, λ_mid, StepInfo, |B(x̄)ᵀz̄|∞)``)."""

    name = "midpoint"

    def __init__(self, dae: Any, signal: Any, *, newton_tol: float = 1e-12,
                 max_newton: int = 20, simplified_newton: bool = True) -> None:
        self.dae, self.signal = dae, signal
        self.tol, self.max_newton, self.simplified = newton_tol, max_newton, simplified_newton
        self.nb, self.ns = dae.nb, int(dae._spring.size)
        self.data = pack(dae)
        self.pstart, self.pbody, self.iperm, self.kl, self.ku = _structure(
            dae, self.data[2], self.data[4])
        nred = 6 * self.nb + self.ns + dae.k
        self.band = np.zeros((2 * self.kl + self.ku + 1, nred))
        self.ipiv = np.zeros(nred, dtype=np.int64)
        self.Aqi = np.zeros((self.nb, 12, 12))
        self.C = np.zeros((self.nb, 12, 6))
        self.Aoq = np.zeros((self.pbody.size, 12))
        self._key: float | None = None            # h of the factors held, None: none
        self._skip, self._backoff = 0, 1
        self._last: np.ndarray | None = None
        self._hist: list[tuple[float, np.ndarray]] = []
        self.u0 = np.zeros(dae.m)

    def _newton(self, mode: int, x: np.ndarray, w: np.ndarray, h: float, u: np.ndarray,
                scale: float, max_iter: int) -> tuple[int, int, int]:
        return K.newton(mode, x, w, h, u, self.tol, max_iter, scale, self.nb, self.ns,
                        *self.data, self.pstart, self.pbody, self.iperm, self.kl, self.ku,
                        self.band, self.ipiv, self.Aqi, self.C, self.Aoq)

    def _solve(self, x: np.ndarray, w0: np.ndarray, h: float, u: np.ndarray, scale: float
               ) -> tuple[np.ndarray, int, int]:
        """Newton with the policy of
        :class:`~porthamiltonian.simulate.linalg.newton.SimplifiedNewton`."""
        if self.simplified and self._skip == 0:
            mode = 0 if self._key == h else 1
            for attempt in range(2):
                w = w0.copy()
                st, it, nfev = self._newton(mode, x, w, h, u, scale, 8)
                if st == K.OK:
                    self._key = None if it > REFRESH_AFTER else h
                    self._backoff = 1
                    return w, it, nfev + attempt
                self._key, mode = None, 1
            self._skip, self._backoff = self._backoff, min(2 * self._backoff, MAX_BACKOFF)
        elif self._skip > 0:
            self._skip -= 1
        w = w0.copy()
        self._key = None  # full Newton overwrites the factors
        st, it, nfev = self._newton(2, x, w, h, u, scale, self.max_newton)
        if st != K.OK:
            raise NewtonFailure("singular step Jacobian" if st == K.SINGULAR else
                                f"no convergence in {it} Newton iterations")
        return w, it, nfev

    def step(self, t: float, x: np.ndarray, h: float
             ) -> tuple[np.ndarray, np.ndarray, StepInfo, float]:
        dae = self.dae
        n = dae.n
        x = np.asarray(x, dtype=float)
        u = np.asarray(self.signal(t + 0.5 * h, x), dtype=float) if dae.m else self.u0
        w0 = extrapolated_guess(self._hist, self._last, h, n + dae.k)
        scale = float(np.max(np.abs(x), initial=0.0))
        w, iters, nfev = self._solve(x, w0, h, u, scale)
        self._last = w / h
        self._hist = [*self._hist[-2:], (h, self._last)]
        F = np.empty(n + dae.k)
        sup, dis, dH, res = K.step_outputs(x, w, h, u, self.nb, self.ns, *self.data, F)
        info = StepInfo(h * sup, h * dis, dH, iters, nfev)
        return x + w[:n], w[n:] / h, info, res
