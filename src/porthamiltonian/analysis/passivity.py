r"""Passivity of linear systems: by port-Hamiltonian structure, or positive-realness.

**By structure.** A linear PHS with :math:`W = [[R, P], [P^\top, S]] \succeq 0` and
:math:`Q \succeq 0` is passive with storage :math:`H = \tfrac12 x^\top Qx \ge 0`: the
power balance :math:`\dot H = u^\top y - [Qx; u]^\top W [Qx; u] \le u^\top y` is the
dissipation inequality (Duindam et al. 2009, §2.2 and App. A.2; van der Schaft &
Jeltsema 2014, §7.1).

**Positive-real test** for any square :math:`(A, B, C, D)`, with no LMI or Riccati
solve.  :math:`G(s) = C(sI-A)^{-1}B + D` is positive real (Kalman–Yakubovich–Popov:
equivalent to passivity of a minimal realization) iff

1. no pole lies in the open right half-plane;
2. poles on the imaginary axis are simple with Hermitian positive semi-definite
   residues :math:`K = \lim_{s\to j\omega_0}(s - j\omega_0)G(s)`;
3. :math:`\Phi(j\omega) = G(j\omega) + G(j\omega)^H \succeq 0` at all other ω.

For 3, the frequencies where an eigenvalue of :math:`\Phi(j\omega)` can change sign
are the imaginary zeros of the para-Hermitian :math:`\Phi(s) = G(s) + G(-s)^\top`,
realized by :math:`A_\Phi = \operatorname{diag}(A, -A^\top)`,
:math:`B_\Phi = [B; -C^\top]`, :math:`C_\Phi = [C,\ B^\top]`, :math:`D_\Phi = D + D^\top`.
They are the generalized eigenvalues of its Rosenbrock pencil — the pencil form of the
Hamiltonian-matrix test (Boyd, Balakrishnan & Kabamba, *Math. Control Signals Systems*
2, 1989; Grivet-Talocia, *IEEE TCAS-I* 51, 2004), which also covers a singular
:math:`D + D^\top`.  Between consecutive crossings the sign of
:math:`\lambda_{\min}\Phi(j\omega)` is constant, so one test point per interval (and
above the last, for ω → ∞) decides.  When the pencil is singular (e.g. a lossless
:math:`\Phi \equiv 0`) the test falls back to a dense frequency sweep, which is then
*not* a proof and the report says so.

The test concerns :math:`G(s)`; poles are taken from :math:`A`, so a non-minimal
realization with a hidden unstable mode is (conservatively) reported non-passive.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import numpy as np
import scipy.linalg as sla
import scipy.optimize as so
import scipy.sparse.linalg as spsla

from ..errors import ModelError
from .linear import LinearSystem, linear_system
from .modes import DENSE_LIMIT, pencil_zeros
from .transfer import TransferFunction

METHODS = ("auto", "structure", "frequency", "sweep")


@dataclass(frozen=True)
class PassivityReport:
    """Outcome of a passivity test; true in a boolean context when passive.

    Attributes
    ----------
    passive:
        The verdict.
    method:
        ``"structure"`` (pH certificate), ``"frequency"`` (positive-real test with the
        crossing frequencies from the pencil: a proof up to round-off) or ``"sweep"``
        (sampled, not a proof).
    reason:
        In words: the certificate, or what fails and where.
    frequency:
        Angular frequency (rad/s) at which :math:`G(j\\omega) + G(j\\omega)^H` is most
        negative when the test fails there (``inf`` for the high-frequency limit);
        ``None`` otherwise.
    min_eigenvalue:
        :math:`\\lambda_{\\min}(G(j\\omega) + G(j\\omega)^H)` at ``frequency``.
    """

    passive: bool
    method: str
    reason: str
    frequency: float | None = None
    min_eigenvalue: float | None = None

    def __bool__(self) -> bool:
        return self.passive


def passivity(system: Any, method: str = "auto", *, tol: float = 1e-9, x0: Any = None,
              u0: Any = None) -> PassivityReport:
    """Test whether ``system`` is passive with respect to the supply rate ``uᵀy``.

    Parameters
    ----------
    system:
        PHS, DescriptorPHS, :class:`LinearSystem` or a square ``(A, B, C, D)``.
    method:
        ``"auto"`` — the pH certificate when it applies, else the positive-real test;
        ``"structure"`` — only the certificate (a PHS whose certificate fails is reported
        non-certified, not non-passive); ``"frequency"`` — the positive-real test;
        ``"sweep"`` — sampled :math:`\\Phi(j\\omega)` (for comparison).
    tol:
        Relative tolerance of the eigenvalue tests.
    """
    if method not in METHODS:
        raise ModelError(f"method {method!r}: choose one of {', '.join(METHODS)}")
    lin = linear_system(system, x0, u0)
    if method in ("auto", "structure"):
        if lin.phs is None:
            if method == "structure":
                raise ModelError("method='structure' needs a port-Hamiltonian model; this "
                                 "system is a bare (A, B, C, D): use method='frequency'")
        else:
            report = structure_certificate(lin, tol)
            if report.passive or method == "structure":
                return report
    return positive_real(lin, tol, sweep=method == "sweep")


def is_passive(system: Any, **kw: Any) -> bool:
    """``bool(passivity(system, **kw))``."""
    return passivity(system, **kw).passive


# ---------------------------------------------------------------------- pH certificate
def structure_certificate(lin: LinearSystem, tol: float) -> PassivityReport:
    """W ⪰ 0 and Q ⪰ 0 of the pH linearization (see the module docstring)."""
    phs = lin.phs
    assert phs is not None
    num = phs.numeric() if phs.symbolic else phs
    W = num.dissipation_matrix()
    labels = list(phs.states) + list(phs.inputs)
    for name, M, names in (("W = [[R, P], [Pᵀ, S]]", W, labels), ("Q", num.Q, phs.states)):
        val, vec = _lowest_eig(M)
        scale = max(1.0, float(np.max(np.abs(_dense_if_small(M))))) if M.shape[0] else 1.0
        if val < -tol * scale:
            where = names[int(np.argmax(np.abs(vec)))]
            return PassivityReport(
                False, "structure",
                f"no pH certificate: {name} has the negative eigenvalue {val:.4g} (mostly "
                f"along {where}), so H = ½xᵀQx is not a storage function"
                if name == "Q" else
                f"no pH certificate: {name} has the negative eigenvalue {val:.4g} (mostly "
                f"along {where}): the 'dissipation' generates energy")
    return PassivityReport(
        True, "structure",
        "port-Hamiltonian with [[R, P], [Pᵀ, S]] ⪰ 0 and Q ⪰ 0: H = ½xᵀQx ≥ 0 is a storage "
        "function and dH/dt ≤ uᵀy")


def _lowest_eig(M: Any) -> tuple[float, np.ndarray]:
    n = M.shape[0]
    if n == 0:
        return 0.0, np.zeros(0)
    if n > DENSE_LIMIT:
        val, vec = spsla.eigsh(M, k=1, which="SA")
        return float(val[0]), vec[:, 0]
    val, vec = np.linalg.eigh(_dense_if_small(M))
    return float(val[0]), vec[:, 0]


def _dense_if_small(M: Any) -> np.ndarray:
    return M.toarray() if hasattr(M, "toarray") else np.asarray(M, dtype=float)


# ---------------------------------------------------------------------- positive-real test
def positive_real(lin: LinearSystem, tol: float = 1e-9, sweep: bool = False) -> PassivityReport:
    """The positive-real test of the module docstring on ``lin`` (square, dense)."""
    p, m = lin.D.shape
    if p != m:
        raise ModelError(f"passivity needs as many outputs as inputs (got {p} outputs, {m} "
                         "inputs): the supply rate uᵀy pairs each input with one output")
    if lin.n_states > DENSE_LIMIT:
        raise ModelError(f"{lin.n_states} states: the positive-real test is dense; use the "
                         "structure certificate of a PHS (method='structure')")
    A = lin.dense_A()
    lam, Wl, Vr = sla.eig(A, left=True, right=True) if lin.n_states else (
        np.zeros(0, complex), np.zeros((0, 0)), np.zeros((0, 0)))
    scale_A = max(1.0, float(np.max(np.abs(lam), initial=0.0)))
    unstable = np.flatnonzero(lam.real > tol * scale_A)
    if unstable.size:
        i = unstable[int(np.argmax(lam.real[unstable]))]
        state = lin.states[int(np.argmax(np.abs(Vr[:, i])))]
        return PassivityReport(False, "sweep" if sweep else "frequency",
                               f"not passive: pole {lam[i]:.6g} in the right half-plane "
                               f"(a growing mode, mostly {state})")
    on_axis = np.flatnonzero(np.abs(lam.real) <= tol * scale_A)
    failure = _check_axis_poles(lin, lam, Wl, Vr, on_axis, tol, scale_A)
    if failure is not None:
        return failure
    method = "sweep" if sweep else "frequency"
    DD = lin.D + lin.D.T
    dmin = float(np.linalg.eigvalsh(DD)[0]) if m else 0.0
    if dmin < -tol * max(1.0, float(np.max(np.abs(DD), initial=0.0))):
        return PassivityReport(False, method, "not passive: D + Dᵀ has the negative "
                               f"eigenvalue {dmin:.4g} (fails as ω → ∞)", np.inf, dmin)
    # an eigenvalue within round-off of 0 is an integrator (a pole at exactly ω = 0)
    zero_tol = tol * scale_A
    pole_w = np.unique(np.where(np.abs(lam[on_axis]) <= zero_tol, 0.0,
                                np.abs(lam[on_axis].imag)))
    if sweep:
        bounds, how = _sweep_grid(lam, zero_tol), "sampled at"
    else:
        try:
            bounds, how = _crossings(lin, A), "pencil"
        except ModelError:  # singular Φ-pencil (e.g. Φ ≡ 0, lossless): sample instead
            bounds, how, method = _sweep_grid(lam, zero_tol), "sampled at", "sweep"
    # G is evaluated no closer to an imaginary-axis pole than its round-off can be
    # trusted: a pole computed at δ ≈ ε‖A‖ off the axis would spoil Re G nearby
    radius = 1e-6 * scale_A
    return _test_intervals(lin, np.union1d(bounds, pole_w), pole_w, radius, tol, method, how)


def _check_axis_poles(lin: LinearSystem, lam: np.ndarray, Wl: np.ndarray, Vr: np.ndarray,
                      idx: np.ndarray, tol: float, scale: float) -> PassivityReport | None:
    """Imaginary-axis poles: simple (semisimple) with Hermitian PSD residues."""
    done: set[int] = set()
    for i in idx:
        if i in done:
            continue
        cluster = [j for j in idx if abs(lam[j] - lam[i]) <= 1e-7 * scale]
        done.update(cluster)
        V, W = Vr[:, cluster], Wl[:, cluster]
        M = W.conj().T @ V
        w0 = float(lam[i].imag)
        if np.linalg.cond(M) > 1e8:
            return PassivityReport(False, "frequency",
                                   f"not passive: the imaginary-axis pole {lam[i]:.6g} is "
                                   "repeated (a Jordan block: a response growing like t)",
                                   abs(w0))
        left = np.linalg.solve(M, W.conj().T)
        K = lin.C @ V @ (left @ lin.B)
        # the residue a pole of these eigenvectors would have if it reached both ports: a
        # residue at round-off of it is a mode the ports neither excite nor see (the
        # common translation of a free chain), which says nothing about passivity
        coupled = (np.linalg.norm(lin.C, 2) * np.linalg.norm(V, 2) * np.linalg.norm(left, 2)
                   * np.linalg.norm(lin.B, 2))
        if float(np.max(np.abs(K), initial=0.0)) <= 1e-10 * coupled:
            continue
        kscale = max(float(np.max(np.abs(K), initial=0.0)), 1e-300)
        herm = float(np.max(np.abs(K - K.conj().T), initial=0.0)) <= 1e-6 * kscale
        kmin = float(np.linalg.eigvalsh((K + K.conj().T) / 2)[0]) if K.size else 0.0
        if not herm or kmin < -1e-6 * kscale:
            return PassivityReport(False, "frequency",
                                   f"not passive: the residue of G at the imaginary-axis pole "
                                   f"{lam[i]:.6g} is not Hermitian positive semi-definite "
                                   f"(min eigenvalue {kmin:.4g})", abs(w0), kmin)
    return None


def _crossings(lin: LinearSystem, A: np.ndarray) -> np.ndarray:
    """|Im| of the zeros of Φ(s) = G(s) + G(−s)ᵀ near the imaginary axis (rad/s)."""
    n = A.shape[0]
    AP = sla.block_diag(A, -A.T)
    BP = np.vstack([lin.B, -lin.C.T])
    CP = np.hstack([lin.C, lin.B.T])
    z = pencil_zeros(AP, BP, CP, lin.D + lin.D.T) if n else np.zeros(0, complex)
    near = np.abs(z.real) <= 1e-6 * np.maximum(1.0, np.abs(z))
    return np.unique(np.abs(z[near].imag))


def _sweep_grid(lam: np.ndarray, zero_tol: float) -> np.ndarray:
    mags = np.abs(lam[np.abs(lam) > zero_tol])
    lo = mags.min() / 1e3 if mags.size else 1e-3
    hi = mags.max() * 1e3 if mags.size else 1e3
    return np.logspace(np.log10(lo), np.log10(hi), 4000)


def _test_intervals(lin: LinearSystem, bounds: np.ndarray, poles_w: np.ndarray,
                    radius: float, tol: float, method: str, how: str) -> PassivityReport:
    """λ_min Φ(jω) at one point inside each interval between the boundaries."""
    tf = TransferFunction(lin)
    b = np.unique(bounds[bounds > 0])
    top = b.max() if b.size else 1.0
    points = np.concatenate([[0.0], np.sqrt(b[:-1] * b[1:]), b, [10 * top, 1e3 * top],
                             [b.min() / 10] if b.size else []])
    points = np.array([w for w in np.unique(points)
                       if not np.any(np.abs(w - poles_w) <= radius)])
    mins, scale = _phi_min(tf, points)
    bad = np.flatnonzero(mins < -tol * scale)
    what = (f"{how} {b.size} frequencies" if method == "sweep" else
            f"tested between the {b.size} crossing frequencies of G(jω) + G(jω)ᴴ from the "
            "Φ-pencil")
    if not bad.size:
        note = " — a sampled check, not a proof" if method == "sweep" else ""
        return PassivityReport(True, method, f"positive real: no right half-plane pole, "
                               f"imaginary-axis poles simple with PSD residues, "
                               f"G(jω) + G(jω)ᴴ ⪰ 0 ({what}){note}", None,
                               float(mins.min()) if mins.size else None)
    k = bad[int(np.argmin(mins[bad]))]
    w, val = _refine(tf, float(points[k]), b, float(mins[k]))
    return PassivityReport(False, method, f"not passive: G(jω) + G(jω)ᴴ has the negative "
                           f"eigenvalue {val:.4g} at ω = {w:.6g} rad/s ({what})", w, val)


def _phi_min(tf: TransferFunction, omega: np.ndarray) -> tuple[np.ndarray, float]:
    G = tf.frequency_response(omega)
    Phi = G + np.conj(np.swapaxes(G, -1, -2))
    mins = np.linalg.eigvalsh(Phi)[:, 0] if omega.size else np.zeros(0)
    # relative to |G|, not |Φ|: for a lossless system Φ is round-off of G + Gᴴ
    scale = max(float(np.max(np.abs(G), initial=0.0)), 1e-300)
    return mins, scale


def _refine(tf: TransferFunction, w: float, bounds: np.ndarray, val: float
            ) -> tuple[float, float]:
    """Most negative λ_min Φ(jω) in the interval around ``w`` (bounded search in log ω)."""
    if w <= 0:
        return w, val
    lower = bounds[bounds < w]
    upper = bounds[bounds > w]
    lo = lower.max() if lower.size else w / 100
    hi = upper.min() if upper.size else w * 100
    res = so.minimize_scalar(lambda t: _phi_min(tf, np.array([np.exp(t)]))[0][0],
                             bounds=(np.log(lo), np.log(hi)), method="bounded",
                             options={"xatol": 1e-10})
    if res.fun < val:
        return float(np.exp(res.x)), float(res.fun)
    return w, val
