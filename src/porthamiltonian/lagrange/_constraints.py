"""Rank of a family of constraint one-forms: independent subsets and the
constant-rank (clean-intersection) test at a point.

An induced Dirac structure ``D_Δ`` is a smooth Dirac bundle only where
``Δ_Q = ker A(q)ᵀ`` has locally constant rank.  For an interconnection the
columns of ``A`` come from several owners (the subsystems and the interaction),
``Δ = Δ_1 × … × Δ_n`` and ``Σ`` the interaction distribution, and the
condition is that ``Δ ∩ Σ`` has constant rank, i.e. ``rank A(q)`` is locally
constant: the clean-intersection hypothesis under which ``D_Δ ⊠ D_Σ`` is again a
Dirac structure (Jacobs & Yoshimura, *J. Geom. Mech.* 6 (2014) 67–98).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import sympy

from ..dirac import _linalg as dla
from ..errors import ModelError

RTOL = 1e-9


def independent_forms(A: sympy.Matrix, owners: Sequence[str]) -> tuple[list[int], int]:
    """Columns of ``A`` that are generically independent (greedy, in order) and the
    generic rank.  Dependent forms add nothing to ``Δ°`` and would make the
    multipliers non-unique, so they are dropped."""
    if A.shape[1] == 0:
        return [], 0
    atoms = dla.free_atoms(A)
    samples = [dla.sym_eval(A, t, atoms) for t in range(2)]
    keep: list[int] = []
    for j in range(A.shape[1]):
        trial = keep + [j]
        if max(dla.numeric_rank(S[:, trial], RTOL) for S in samples) == len(trial):
            keep.append(j)
    return keep, len(keep)


def check_clean(A_at: np.ndarray, generic_rank: int, owners: Sequence[str],
                where: str, rtol: float = 1e-8) -> None:
    """Raise :class:`ModelError` if ``rank A_at < generic_rank`` (singular values
    below ``rtol · σ_max`` count as zero), naming the owners
    whose forms become dependent (those with a non-zero coefficient in a null
    combination of the columns)."""
    if generic_rank == 0:
        return
    r = dla.numeric_rank(A_at, rtol)
    if r >= generic_rank:
        return
    Z = dla.null_space(A_at, rtol)  # combinations c with A c = 0
    involved = np.abs(Z).max(axis=1) > 1e-8 if Z.size else np.zeros(A_at.shape[1], bool)
    hit = {owners[j] for j in np.flatnonzero(involved)} or set(owners)
    names = [o for i, o in enumerate(owners) if o in hit and o not in owners[:i]]
    raise ModelError(
        f"clean-intersection (constant-rank) condition fails {where}: the constraint "
        f"forms of {', '.join(names)} become linearly dependent there (rank "
        f"{r} < {generic_rank} elsewhere), so the constraint distributions do not "
        "intersect cleanly and the interconnected Dirac structure is not smooth "
        "(Jacobs & Yoshimura 2014); start from a configuration away from this set "
        "or change the interaction forms",
    )
