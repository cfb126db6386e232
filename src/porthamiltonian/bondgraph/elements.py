"""Constitutive helpers of the bond-graph elements: what a storage stores.

The storages' compliance (C) or inertia (I) matrices and their energy, shared by the
three ways a bond graph becomes a port-Hamiltonian model — sorted elimination
(:mod:`.generate`), merging dependent storages (:mod:`.merge`) and Dirac-structure
composition (:mod:`.dirac_path`).  A new storage law goes here first.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.sparse as sps
import sympy as sp

from ..errors import ModelError
from ..expr import state_symbol
from .graph import BondGraph, Element

__all__ = ["HamiltonianData", "compliance", "storage_energy"]


@dataclass
class HamiltonianData:
    """The storages' energy: ``expr`` (SymPy, always) and ``Q`` (numeric, linear only)."""

    expr: Any
    Q: Any  # None unless numeric and every storage linear


def compliance(el: Element, numeric: bool = False) -> Any:
    """The compliance (C) or inertia (I) matrix; a float array when ``numeric``."""
    v = el.params["c" if el.kind == "C" else "i"]
    if isinstance(v, sp.MatrixBase):
        c = np.array(v.tolist(), dtype=float) if numeric else sp.Matrix(v)
    elif numeric:
        c = float(v) * np.eye(el.dim)
    else:
        c = sp.Matrix(v * sp.eye(el.dim)) if el.dim > 1 else sp.Matrix([[v]])
    singular = (abs(np.linalg.det(c)) < 1e-300) if numeric else c.det() == 0
    if singular:
        raise ModelError(f"{el.where()}: its {'compliance' if el.kind == 'C' else 'inertia'}"
                         " matrix is singular; give it a positive definite value")
    return c


def storage_energy(bg: BondGraph, exact: bool) -> HamiltonianData:
    """The storages' energy; numeric and linear: only ``Q`` (no SymPy on that path)."""
    storages = bg.storages()
    if not exact and all("hamiltonian" not in el.params for el in storages):
        if all(el.dim == 1 and not isinstance(el.params["c" if el.kind == "C" else "i"],
                                                sp.MatrixBase) for el in storages):
            return HamiltonianData(None, _scalar_q(storages))
        blocks = []
        for el in storages:
            c = compliance(el, numeric=True)
            blocks.append(np.linalg.inv(c))
        Q = sps.block_diag(blocks, format="csr") if blocks else sps.csr_matrix((0, 0))
        return HamiltonianData(None, Q)
    terms = []
    for el in storages:
        if "hamiltonian" in el.params:
            terms.append(el.params["hamiltonian"])
            continue
        v = el.params["c" if el.kind == "C" else "i"]
        if el.dim == 1 and not isinstance(v, sp.MatrixBase):
            # q²/(2c): the 1 × 1 case of xᵀc⁻¹x/2 without building, inverting and
            # multiplying three SymPy matrices per storage (seconds on a large network)
            if v == 0:
                compliance(el)  # raises, naming the element
            terms.append(state_symbol(el.states[0]) ** 2 * (1 / v) / 2)
            continue
        x = sp.Matrix([state_symbol(s) for s in el.states])
        terms.append((x.T * compliance(el).inv() * x)[0, 0] / 2)
    return HamiltonianData(sp.Add(*terms), None)


def _scalar_q(storages: list[Element]) -> Any:
    """``Q = diag(1/c)`` of scalar linear storages, in one vectorized step (a 1 × 1
    ``inv`` and ``det`` per storage dominated large numeric generations)."""
    c = np.array([float(el.params["c" if el.kind == "C" else "i"]) for el in storages])
    bad = np.flatnonzero(np.abs(c) < 1e-300)
    if bad.size:
        compliance(storages[int(bad[0])], numeric=True)  # raises, naming the element
    return sps.diags(1.0 / c, format="csr") if c.size else sps.csr_matrix((0, 0))
