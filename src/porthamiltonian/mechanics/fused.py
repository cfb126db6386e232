r"""The midpoint step of a rigid :class:`~.assembly.MechanismDAE` as compiled kernels.

:class:`FusedMidpoint` is what :meth:`.MechanismDAE.fused_midpoint` hands to the DAE
loop in place of the generic
:class:`~porthamiltonian.simulate.dae.midpoint.DAEMidpoint`: the same step equations
(implicit midpoint, :math:`\delta = h f(\bar x, \bar z, \mu/h, \bar u)`,
:math:`0 = B(\bar x)^\top\bar z`), the same first guess (extrapolated rates of the last
steps), the same Newton policy (simplified Newton with the step matrix of an earlier
step, a fresh one when that fails, full Newton after repeated failures; re-factored
after more than :data:`~porthamiltonian.simulate.dae.midpoint.REFRESH_AFTER` iterations)
and the same convergence tests, with the residual, the Newton matrix, the whole
iteration and the step bookkeeping in :mod:`.kernels`; :meth:`FusedMidpoint.advance`
takes a block of fixed steps in one compiled call (:mod:`porthamiltonian.simulate.dae.blocks`).
Trajectories agree with the generic path to round-off, and the block path with the
per-step path to the last bit (``tests/mechanics/test_compiled_kernels.py``).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sps
from scipy.sparse.csgraph import reverse_cuthill_mckee

from ..simulate.dae.blocks import ACC, StepBlock
from ..simulate.linalg.newton import NewtonFailure
from ..simulate.method import StepInfo
from . import kernels as K

__all__ = ["FusedMidpoint", "pack"]

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
    (``step(t, x, h) → (x_new, λ_mid, StepInfo, |B(x̄)ᵀz̄|∞)``) and many steps per call
    (:meth:`advance`, :mod:`porthamiltonian.simulate.dae.blocks`).  Both run
    :func:`.kernels.march` on the same carried state (first-guess history, held
    factors, Newton policy), so a run may mix them."""

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
        self.band = np.zeros((nred, 2 * self.kl + self.ku + 1))
        self.ipiv = np.zeros(nred, dtype=np.int64)
        self.Aqi = np.zeros((self.nb, 12, 12))
        self.C = np.zeros((self.nb, 12, 6))
        self.Aoq = np.zeros((self.pbody.size, 12))
        size = dae.n + dae.k
        # carried state of kernels.march: (factors held, full-Newton steps left,
        # back-off, history length); the last three h and the held factors' h; rates
        self.pol = np.array([0, 0, 1, 0], dtype=np.int64)
        self.hist_h = np.zeros(4)
        self.hist_r = np.zeros((3, size))
        self.w, self.lam = np.zeros(size), np.zeros(dae.k)
        self._one = (np.zeros(ACC), np.empty((1, dae.n)), np.empty((1, dae.k)),
                     np.empty((1, ACC)))

    def _march(self, x: np.ndarray, t: np.ndarray, h: np.ndarray, save: np.ndarray,
               acc: np.ndarray, X: np.ndarray, LAM: np.ndarray, OUT: np.ndarray
               ) -> tuple[int, int, int]:
        dae = self.dae
        U = np.zeros((t.size, dae.m))
        for j in range(t.size if dae.m else 0):  # no state feedback: u(t) only
            U[j] = self.signal(float(t[j] + 0.5 * h[j]), x)
        return K.march(x, t, h, save, U, self.tol, self.max_newton, self.simplified,
                       self.nb, self.ns, *self.data, self.pstart, self.pbody, self.iperm,
                       self.kl, self.ku, self.band, self.ipiv, self.Aqi, self.C, self.Aoq,
                       self.pol, self.hist_h, self.hist_r, acc, X, LAM, OUT, self.w,
                       self.lam)

    @staticmethod
    def _newton_error(status: int, iterations: int) -> str:
        return ("singular step Jacobian" if status == K.SINGULAR else
                f"no convergence in {iterations} Newton iterations")

    def step(self, t: float, x: np.ndarray, h: float
             ) -> tuple[np.ndarray, np.ndarray, StepInfo, float]:
        x1 = np.array(x, dtype=float)
        acc, X, LAM, OUT = self._one
        acc[:] = 0.0
        _, status, iterations = self._march(x1, np.array([t], dtype=float),
                                            np.array([h], dtype=float), np.ones(1, bool),
                                            acc, X, LAM, OUT)
        if status == K.NONFINITE:  # the loop reports it
            nan = float("nan")
            return x1 + self.w[:self.dae.n], self.lam.copy(), StepInfo(nan, nan, nan, 0, 0), nan
        if status != K.OK:
            raise NewtonFailure(self._newton_error(status, iterations))
        o = OUT[0]
        return (x1, LAM[0].copy(), StepInfo(float(o[0]), float(o[1]), float(o[2]), int(o[3]),
                                            int(o[4])), float(o[5]))

    def advance(self, t: np.ndarray, h: np.ndarray, save: np.ndarray, x: np.ndarray,
                acc: np.ndarray) -> StepBlock:
        """The steps ``h[j]`` from times ``t[j]`` (one compiled call), saving after the
        steps with ``save[j]``; ``acc`` as in :mod:`porthamiltonian.simulate.dae.blocks`."""
        dae = self.dae
        x1 = np.array(x, dtype=float)
        rows = int(np.count_nonzero(save))
        X, LAM, OUT = np.empty((rows, dae.n)), np.empty((rows, dae.k)), np.empty((rows, ACC))
        done, status, iterations = self._march(x1, np.asarray(t, dtype=float),
                                               np.asarray(h, dtype=float),
                                               np.asarray(save, dtype=bool), acc, X, LAM, OUT)
        kept = int(np.count_nonzero(save[:done]))
        return StepBlock(
            done, x1, self.lam.copy(), X[:kept], LAM[:kept], OUT[:kept],
            newton_error=(self._newton_error(status, iterations)
                          if status in (K.FAILED, K.SINGULAR) else None),
            nonfinite=status == K.NONFINITE)
