r"""Initial interpolation points for pH-IRKA and the default Krylov basis.

The H2 norm of :math:`G(s) = \sum_i c_ib_i^\top/(s - \lambda_i)` (simple poles) is
dominated by the poles with large :math:`\|c_i\|\,\|b_i\|/|\mathrm{Re}\,\lambda_i|`
(Rommes & Martins, *Efficient computation of multivariable transfer function dominant
poles*, IEEE TPWRS 21, 2006); their mirror images :math:`-\lambda_i` with the residue
directions :math:`b_i` are the interpolation data an H2-optimal model would use if these
were its poles (Gugercin, Antoulas & Beattie, SIAM J. Matrix Anal. Appl. 30, 2008).
"""

from __future__ import annotations

import numpy as np

from ..errors import ModelError

__all__ = ["initial_shifts"]


def initial_shifts(A: np.ndarray, B: np.ndarray, C: np.ndarray, r: int, *,
                   seed: int | None = None) -> tuple[np.ndarray, np.ndarray]:
    """``r`` initial shifts and directions (module docstring): H2-dominant mirrored poles,
    or random ones (``seed``) — log-uniform magnitudes over the poles' range, random real
    directions."""
    lam, X = np.linalg.eig(A)
    m = B.shape[1]
    if seed is not None:
        rng = np.random.default_rng(seed)
        mag = np.abs(lam)
        lo, hi = np.log10(mag[mag > 0].min()), np.log10(mag.max())
        s = 10 ** rng.uniform(lo, hi, r)
        return s.astype(complex), rng.standard_normal((m, r)).astype(complex)
    Bt = np.linalg.solve(X, B)  # rows: b_iᵀ
    Ct = C @ X  # columns: c_i
    weight = np.linalg.norm(Ct, axis=0) * np.linalg.norm(Bt, axis=1) / np.abs(lam.real)
    # a pair whose imaginary part is round-off is one real pole (its "conjugate" is itself)
    real = np.abs(lam.imag) <= 1e-12 * np.abs(lam)
    chosen: list[int] = []
    spare: int | None = None  # the most dominant pair that did not fit
    for i in np.argsort(-weight):  # conjugate pairs together, so the set stays closed
        if len(chosen) >= r:
            break
        if i in chosen:
            continue
        if real[i]:
            chosen.append(int(i))
            continue
        j = int(np.argmin(np.abs(lam - lam[i].conjugate())))
        if len(chosen) + 2 > r or j in chosen or j == i:
            spare = int(i) if spare is None else spare
            continue
        chosen += [int(i), j]
    shifts, dirs = list(-lam[chosen]), [Bt[k] for k in chosen]
    if len(chosen) == r - 1 and spare is not None:
        # one place left and only pairs remain: a real shift at the spare pair's decay
        # rate, with the real part of its direction, keeps the set closed
        shifts.append(complex(-lam[spare].real))
        dirs.append(Bt[spare].real.astype(complex))
    if len(shifts) < r:
        raise ModelError(f"could not choose {r} initial shifts closed under conjugation; "
                         "give shifts= explicitly")
    return np.asarray(shifts, dtype=complex), np.asarray(dirs).T
