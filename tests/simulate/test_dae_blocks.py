"""The DAE loop's block path (:mod:`porthamiltonian.simulate.dae.blocks`): a stepper with
``advance`` gives the run of the same stepper taken step by step — states, multipliers,
energy bookkeeping, saved times, iteration count — also when a block stops at a step
whose Newton iteration failed (that step is then halved, as per step), with ``t_eval``
and ``save_every``, and when the run fails (same partial result and message)."""

from __future__ import annotations

import numpy as np
import pytest
from test_dae_models import cartesian_pendulum, pendulum_x0

from porthamiltonian import SimulationError
from porthamiltonian.simulate import simulate
from porthamiltonian.simulate.dae import loop
from porthamiltonian.simulate.dae.blocks import ACC, StepBlock
from porthamiltonian.simulate.dae.midpoint import DAEMidpoint
from porthamiltonian.simulate.linalg.newton import NewtonFailure

FIELDS = ("t", "x", "lam", "H", "u", "y", "work_supplied", "work_dissipated", "power_residual",
          "constraint_residual", "node_constraint")


class _Stepper:
    """A :class:`DAEMidpoint` whose Newton "fails" at the steps of length ≥ ``h_fail``
    from the times in ``fail`` (once each) and at every step from ``t_dead`` on."""

    def __init__(self, inner: DAEMidpoint, fail: tuple[float, ...] = (), h_fail: float = 0.0,
                 t_dead: float = np.inf) -> None:
        self.inner, self.name = inner, inner.name
        self.fail, self.h_fail, self.t_dead = set(fail), h_fail, t_dead
        self.halved = self.blocks = 0

    def _fails(self, t: float, h: float) -> bool:
        if t >= self.t_dead:
            return True
        if t in self.fail and h >= self.h_fail:
            self.fail.discard(t)
            return True
        return False

    def step(self, t: float, x: np.ndarray, h: float):  # noqa: ANN201
        if self._fails(t, h):
            raise NewtonFailure("forced")
        self.halved += h < self.h_fail
        return self.inner.step(t, x, h)


class _Blocks(_Stepper):
    """The same stepper with ``advance``: its own steps in a Python loop, with the
    bookkeeping the block contract describes (the reference implementation of it)."""

    def advance(self, t: np.ndarray, h: np.ndarray, save: np.ndarray, x: np.ndarray,
                acc: np.ndarray) -> StepBlock:
        self.blocks += 1
        n, k = x.size, self.inner.model.k
        X, LAM, OUT = [], [], []
        lam = np.zeros(k)
        for j in range(t.size):
            if self._fails(float(t[j]), float(h[j])):
                return _block(j, x, lam, X, LAM, OUT, n, k, "forced")
            x, lam, info, res = self.inner.step(float(t[j]), x, float(h[j]))
            acc[:5] += (info.supplied, info.dissipated, info.delta_H, info.newton_iterations,
                        info.nfev)
            acc[5] = max(acc[5], res)
            if save[j]:
                X.append(x)
                LAM.append(lam)
                OUT.append(acc.copy())
                acc[:] = 0.0
        return _block(t.size, x, lam, X, LAM, OUT, n, k, None)


def _block(done, x, lam, X, LAM, OUT, n, k, error) -> StepBlock:  # noqa: ANN001
    return StepBlock(done, x, lam, np.reshape(X, (-1, n)), np.reshape(LAM, (-1, k)),
                     np.reshape(OUT, (-1, ACC)), newton_error=error)


def _run(monkeypatch, kind: type, per_block: int = 7, **kw):  # noqa: ANN001, ANN202
    """A pendulum run whose DAE step is ``kind`` wrapping the generic midpoint step."""
    made: list[_Stepper] = []
    original = DAEMidpoint.create.__func__
    fail = kw.pop("fail", ())
    h_fail = kw.pop("h_fail", 0.0)
    t_dead = kw.pop("t_dead", np.inf)

    def create(cls, model, signal, options, *, discrete_gradient):  # noqa: ANN001, ANN202
        made.append(kind(original(cls, model, signal, options,
                                  discrete_gradient=discrete_gradient), fail, h_fail, t_dead))
        return made[-1]

    monkeypatch.setattr(DAEMidpoint, "create", classmethod(create))
    monkeypatch.setattr(loop, "BLOCK_STEPS", per_block)  # several blocks in a short run
    try:
        res = simulate(cartesian_pendulum(), (0.0, 0.2), pendulum_x0(1.0), method="midpoint",
                       **kw)
    finally:
        monkeypatch.undo()
    return res, made[0]


def _same(a, b) -> None:  # noqa: ANN001
    for f in FIELDS:
        np.testing.assert_array_equal(getattr(a, f), getattr(b, f), err_msg=f)
    assert a.newton_iterations == b.newton_iterations and a.nsteps == b.nsteps


@pytest.mark.parametrize("grid", [{"dt": 0.01}, {"dt": 0.01, "save_every": 3},
                                  {"dt": 0.01, "t_eval": [0.0, 0.035, 0.1, 0.2]}])
def test_blocks_equal_single_steps(monkeypatch, grid):
    a, sa = _run(monkeypatch, _Blocks, **grid)
    b, _ = _run(monkeypatch, _Stepper, **grid)
    _same(a, b)
    assert a.t.size > 3 and sa.blocks >= 3  # 20 steps (and landings) in blocks of ≤ 7


GRID = np.linspace(0.0, 0.2, 21)  # the step times of dt = 0.01 s


def test_a_failed_step_inside_a_block_is_halved_as_per_step(monkeypatch):
    """Newton fails at the full steps from t = 0.03 and 0.1 (inside blocks of 7): both
    paths halve exactly those steps and give the same run."""
    kw = {"dt": 0.01, "fail": (GRID[3], GRID[10]), "h_fail": 0.01 * (1 - 1e-9)}
    a, sa = _run(monkeypatch, _Blocks, **kw)
    b, sb = _run(monkeypatch, _Stepper, **kw)
    _same(a, b)
    assert sa.halved == sb.halved == 4  # two steps, each as two halves


def test_a_run_that_fails_gives_the_same_partial_result(monkeypatch):
    """Newton fails at every step from t = 0.09 s (inside the second block of 7), down
    to dt·2⁻¹⁰: the run ends there with the same error and partial result both ways."""
    kw = {"dt": 0.01, "t_dead": GRID[9]}
    errors = []
    for kind in (_Blocks, _Stepper):
        with pytest.raises(SimulationError) as info:
            _run(monkeypatch, kind, **kw)
        errors.append(info.value)
    a, b = errors
    assert str(a) == str(b) and a.t_reached == b.t_reached
    _same(a.partial, b.partial)
    assert "Newton did not converge at t = 0.09 s" in str(a)
    assert a.t_reached == pytest.approx(0.09) and a.partial.t[-1] == pytest.approx(0.09)
