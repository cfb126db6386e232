r"""Poles, invariant zeros and modes of a linear(ized) system.

* **Poles** are the eigenvalues of :math:`A = (J-R)Q`.  For a PHS with
  :math:`Q \succ 0` they lie in the closed left half-plane: :math:`A` is similar to
  :math:`Q^{1/2}(J-R)Q^{1/2}`, whose symmetric part is :math:`-Q^{1/2}RQ^{1/2} \preceq 0`.
* **Invariant zeros** are the finite generalized eigenvalues of the Rosenbrock pencil
  (Emami-Naeini & Van Dooren, *Automatica* 18, 1982)

  .. math::
      \begin{bmatrix} A & B\\ C & D\end{bmatrix}
      - s\begin{bmatrix} I & 0\\ 0 & 0\end{bmatrix},

  i.e. the ``s`` where it loses rank.  For a minimal realization they are the
  transmission zeros of :math:`G(s)`; otherwise they also contain the decoupling zeros
  (uncontrollable or unobservable modes).
* A **mode** is an eigenpair :math:`(\lambda, v)`; its natural frequency is
  :math:`\omega_n = |\lambda|` and its damping ratio
  :math:`\zeta = -\operatorname{Re}\lambda / |\lambda|`, so that a pair
  :math:`\lambda = -\zeta\omega_n \pm j\omega_n\sqrt{1-\zeta^2}` has damped frequency
  :math:`\omega_d = |\operatorname{Im}\lambda|`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.linalg as sla
import scipy.sparse.linalg as spsla

from ..errors import ModelError
from .linear import linear_system
from .selection import Selector

#: Above this many states poles/modes are computed with sparse ARPACK (give ``k``).
DENSE_LIMIT = 2000


@dataclass(frozen=True)
class Mode:
    """One eigenmode :math:`\\delta x(t) = \\operatorname{Re}(v\\,e^{\\lambda t})`.

    Attributes
    ----------
    eigenvalue:
        :math:`\\lambda` (1/s).
    natural_frequency:
        :math:`\\omega_n = |\\lambda|` (rad/s).
    damped_frequency:
        :math:`\\omega_d = |\\operatorname{Im}\\lambda|` (rad/s); zero for a real mode.
    damping_ratio:
        :math:`\\zeta = -\\operatorname{Re}\\lambda/|\\lambda|` (1 for a real stable mode,
        0 for an undamped oscillation, negative when unstable; NaN for λ = 0).
    shape:
        ``{state name: component of v}``, scaled so the largest component is 1.
    """

    eigenvalue: complex
    natural_frequency: float
    damped_frequency: float
    damping_ratio: float
    shape: dict[str, complex]

    def dominant_states(self, k: int = 3) -> list[str]:
        """The ``k`` states with the largest components in the mode shape."""
        return sorted(self.shape, key=lambda s: -abs(self.shape[s]))[:k]

    def __str__(self) -> str:
        return (f"λ = {self.eigenvalue:.6g}: ω_n = {self.natural_frequency:.6g} rad/s, "
                f"ζ = {self.damping_ratio:.4g}, mostly {', '.join(self.dominant_states())}")


def poles(system: Any, *, k: int | None = None, sigma: complex = 0.0, x0: Any = None,
          u0: Any = None) -> np.ndarray:
    """Eigenvalues of ``A`` sorted by real part, then imaginary part.

    For more than :data:`DENSE_LIMIT` states (sparse systems) give ``k``: the ``k``
    eigenvalues nearest ``sigma`` (shift-invert ARPACK).
    """
    lin = linear_system(system, x0, u0)
    if k is not None or lin.n_states > DENSE_LIMIT:
        vals, _ = _sparse_eigs(lin, k, sigma)
    else:
        vals = sla.eigvals(lin.dense_A()) if lin.n_states else np.zeros(0, complex)
    return _sorted(vals)


def zeros(system: Any, inputs: Selector = None, outputs: Selector = None, *,
          x0: Any = None, u0: Any = None) -> np.ndarray:
    """Invariant zeros from ``inputs`` to ``outputs`` (equal numbers of each).

    Raises :class:`ModelError` for a non-square selection or when the pencil is
    singular (the transfer matrix is rank deficient for every ``s``).
    """
    lin = linear_system(system, x0, u0).select(inputs, outputs)
    p, m = lin.D.shape
    if p != m:
        raise ModelError(
            f"zeros need as many outputs as inputs; selected {p} outputs "
            f"({', '.join(lin.outputs)}) and {m} inputs ({', '.join(lin.inputs)}): "
            "choose inputs= and outputs= of equal length"
        )
    return _sorted(pencil_zeros(lin.dense_A(), lin.B, lin.C, lin.D))


def pencil_zeros(A: np.ndarray, B: np.ndarray, C: np.ndarray, D: np.ndarray) -> np.ndarray:
    """Finite generalized eigenvalues of the (square) Rosenbrock pencil of ``(A, B, C, D)``."""
    n, m = B.shape
    Mat = np.block([[A, B], [C, D]])
    N = np.zeros_like(Mat)
    N[:n, :n] = np.eye(n)
    if Mat.size == 0:
        return np.zeros(0, complex)
    ab = sla.eigvals(Mat, N, homogeneous_eigvals=True)
    alpha, beta = ab[0], ab[1]
    scale = max(1.0, float(np.max(np.abs(Mat))))
    tiny = 1e3 * np.finfo(float).eps
    if np.any((np.abs(alpha) < tiny * scale) & (np.abs(beta) < tiny)):
        raise ModelError(
            "the Rosenbrock pencil is singular: the transfer matrix has lower rank than its "
            "size for every s (e.g. two identical outputs), so its zeros are not defined; "
            "select independent inputs and outputs"
        )
    finite = np.abs(beta) > 1e-9 * np.abs(alpha)
    return alpha[finite] / beta[finite]


def modes(system: Any, *, k: int | None = None, sigma: complex = 0.0, x0: Any = None,
          u0: Any = None) -> list[Mode]:
    """Eigenmodes, one per real eigenvalue and per complex-conjugate pair (Im λ ≥ 0).

    Sorted by natural frequency.  For large systems give ``k`` (modes nearest
    ``sigma``).
    """
    lin = linear_system(system, x0, u0)
    if k is not None or lin.n_states > DENSE_LIMIT:
        vals, vecs = _sparse_eigs(lin, k, sigma)
    else:
        vals, vecs = sla.eig(lin.dense_A())
    scale = max(1.0, float(np.max(np.abs(vals), initial=0.0)))
    out = []
    for lam, v in zip(vals, vecs.T, strict=True):
        if lam.imag < -1e-12 * scale:
            continue  # the conjugate of a mode already listed
        wn = float(abs(lam))
        i = int(np.argmax(np.abs(v)))
        v = v / v[i]
        shape = {name: complex(c) for name, c in zip(lin.states, v, strict=True)}
        zeta = float(-lam.real / wn) if wn > 0 else float("nan")
        out.append(Mode(complex(lam), wn, float(abs(lam.imag)), zeta, shape))
    return sorted(out, key=lambda md: (md.natural_frequency, md.eigenvalue.real))


def _sparse_eigs(lin: Any, k: int | None, sigma: complex) -> tuple[np.ndarray, np.ndarray]:
    n = lin.n_states
    if k is None:
        raise ModelError(
            f"{n} states: give k= (how many eigenvalues, nearest sigma=) for a system this "
            "large; the full spectrum is not computed"
        )
    if not 0 < k < n - 1:
        raise ModelError(f"k = {k}: ask for between 1 and {n - 2} eigenvalues of {n} states")
    try:
        return spsla.eigs(lin.A, k=k, sigma=sigma, which="LM")
    except (RuntimeError, spsla.ArpackNoConvergence) as exc:
        raise ModelError(
            f"the sparse eigenvalue solver failed near sigma = {sigma} ({exc}); try another "
            "sigma (e.g. not exactly an eigenvalue) or fewer k"
        ) from exc


def _sorted(vals: np.ndarray) -> np.ndarray:
    vals = np.asarray(vals, dtype=complex)
    return vals[np.lexsort((vals.imag, vals.real))]
