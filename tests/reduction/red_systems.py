"""Systems shared by the reduction tests."""

from __future__ import annotations

import dataclasses
import functools

import numpy as np

from porthamiltonian.library.benchmarks import msd_chain
from porthamiltonian.linear_ph import LinearPH, linear_ph


@functools.cache
def msd(n_cells: int = 50, S: float = 1e-6, fixed_end: bool = False) -> LinearPH:
    """The benchmark chain with the feed-through S·I of the Julia package's README
    (``fixed_end``: the last mass tied to the ground, the chain that README used)."""
    lin = linear_ph(msd_chain(n_cells, fixed_end=fixed_end)).dense()
    return dataclasses.replace(lin, S=S * np.eye(lin.n_inputs))


def tf(lin: LinearPH, s: complex) -> np.ndarray:
    return lin.transfer(s)


def quiet_pymor() -> None:
    from pymor.core.logger import set_log_levels

    set_log_levels({"pymor": "ERROR"})
