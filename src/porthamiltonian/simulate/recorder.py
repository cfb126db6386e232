"""Collects the saved points of a run into preallocated arrays (bounded memory)."""

from __future__ import annotations

from typing import Any

import numpy as np

from .base import Dynamics
from .result import SimulationResult

__all__ = ["Recorder"]


class Recorder:
    """Saved times, states, inputs, outputs, energy and powers of a run."""

    def __init__(self, dyn: Dynamics, states: list[str], inputs: list[str], outputs: list[str],
                 method: str) -> None:
        self.dyn = dyn
        self.states, self.inputs, self.outputs, self.method = states, inputs, outputs, method
        self.count = 0
        self.allocate(0)

    def allocate(self, size: int) -> None:
        n, m = self.dyn.n, self.dyn.m
        self.t = np.zeros(size)
        self.x = np.zeros((size, n))
        self.u = np.zeros((size, m))
        self.y = np.zeros((size, m))
        self.H, self.stored, self.supplied, self.dissipated = (np.zeros(size) for _ in range(4))
        self.residual, self.work_s, self.work_d = (np.zeros(size) for _ in range(3))
        self.count = 0

    def _grow(self) -> None:
        size = max(8, 2 * self.t.size)
        for name in ("t", "x", "u", "y", "H", "stored", "supplied", "dissipated", "residual",
                     "work_s", "work_d"):
            old = getattr(self, name)
            new = np.zeros((size, *old.shape[1:]))
            new[: old.shape[0]] = old
            setattr(self, name, new)

    def record(self, t: float, x: np.ndarray, interval: np.ndarray | None = None) -> None:
        """Save point ``(t, x)``; ``interval`` = (work supplied, dissipated, residual) since
        the previous saved point."""
        if self.count >= self.t.size:
            self._grow()
        k, num = self.count, self.dyn.num
        with np.errstate(over="ignore", invalid="ignore"):  # huge states just before failure
            u = self.dyn.u(t, x)
            pb = num.power_balance(x, u)
            self.y[k] = num.output(x, u)
            self.H[k] = num.energy(x)
        self.t[k], self.x[k], self.u[k] = t, x, u
        self.stored[k], self.supplied[k], self.dissipated[k] = (
            pb.stored, pb.supplied, pb.dissipated)
        if interval is not None:
            self.set_interval(k, *interval)
        self.count += 1

    def set_interval(self, k: int, supplied: float, dissipated: float, residual: float) -> None:
        self.work_s[k], self.work_d[k], self.residual[k] = supplied, dissipated, residual

    def last_time(self) -> float:
        return float(self.t[self.count - 1]) if self.count else float("nan")

    def result(self, **kw: Any) -> SimulationResult:
        c = self.count
        return SimulationResult(
            t=self.t[:c].copy(), x=self.x[:c].copy(), u=self.u[:c].copy(), y=self.y[:c].copy(),
            H=self.H[:c].copy(), stored=self.stored[:c].copy(),
            supplied=self.supplied[:c].copy(), dissipated=self.dissipated[:c].copy(),
            power_residual=self.residual[:c].copy(), work_supplied=self.work_s[:c].copy(),
            work_dissipated=self.work_d[:c].copy(), states=list(self.states),
            inputs=list(self.inputs), outputs=list(self.outputs), method=self.method, **kw,
        )
