r"""Beams as chains of rigid elements joined by elastic joints (Hencky bar-chain).

A beam of length ``L`` is cut into ``N`` rigid segments of length :math:`\ell = L/N`,
each a :class:`.RigidBody` (mass :math:`\rho A\ell`, inertia of a slender rod
:math:`\rho A\ell^3/12 + \rho I\ell` about its bending axes and :math:`\rho J\ell` about
its own axis), joined end to end by joints whose actuators carry rotational springs
(and optional dampers). This is the "discrete beam" of the flexible-multibody seed
(Macchelli & Melchiorri, IFAC 2008, Figs. 2–3) and Hencky's bar-chain (H. Hencky,
*Über die angenäherte Lösung von Stabilitätsproblemen im Raum mittels der elastischen
Gelenkkette*, Der Eisenbau 11, 1920; C. M. Wang, H. Zhang, N. Challamel,
*Hencky bar-chain model*, 2020): nothing new is assembled — only bodies, joints and
joint actuators, so the chain is a port-Hamiltonian DAE like any mechanism.

Joints, by ``kind``:

=========== ========================================================== ==============
kind        free directions (parent axes)                              spring (N·m/rad)
=========== ========================================================== ==============
revolute    bending about ``up`` (in the plane normal to ``up``)       ``EI₃/ℓ``
universal   bending about ``up``, then about ``direction × up``        ``EI₃/ℓ, EI₂/ℓ``
spherical   rotation about the segment axis and both bending axes      ``GJ/ℓ, EI₂/ℓ, EI₃/ℓ``
=========== ========================================================== ==============

Interior joints get :math:`k = EI/\ell` (the curvature :math:`\kappa \approx
\Delta\theta/\ell` over one segment length, :math:`\tfrac12 EI\kappa^2\ell =
\tfrac12 k\,\Delta\theta^2`). The joint at the clamped root carries the bending of
*half* a segment length (the trapezoidal rule's end weight on the bending energy
:math:`\tfrac12\int EI\kappa^2`), so it gets :math:`2EI/\ell`. With this weighting a
cantilever under a tip load ``P`` deflects by

.. math::
    \delta_N = \frac{P\ell^3}{EI}\Big(\frac{N^2}{2} + \sum_{j=1}^{N-1} j^2\Big)
             = \frac{PL^3}{3EI}\Big(1 + \frac{1}{2N^2}\Big),

second order in :math:`1/N` (with :math:`k = EI/\ell` at the root too it would be
:math:`\tfrac{PL^3}{3EI}(1 + \tfrac{3}{2N} + \tfrac{1}{2N^2})`, first order).

A damping ``eta`` (s) adds Kelvin–Voigt joint dampers :math:`c = \eta k`. A ``tip_mass``
(kg) is merged into the last segment (a point mass at the free end: mass, centre of
mass and inertia combined exactly). Gravity is the mechanism's.

Joint coordinates are the relative rotations of neighbouring segments, zero for the
straight beam; joints are named ``<name>_j0`` (at the root) … ``<name>_j{N-1}``,
segments ``<name>_0`` … ``<name>_{N-1}``. For spherical joints the spring acts on the
integrated relative angular velocity about the parent's axes (the actuator's port,
docs/mechanics.md), which equals the relative rotation vector for small rotations.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import scipy.linalg as sl

from ..errors import ModelError
from .graph import GROUND
from .mechanism import Mechanism

__all__ = ["discrete_beam", "hencky_tip_deflection", "linear_frequencies"]

_KINDS = ("revolute", "universal", "spherical")


def hencky_tip_deflection(load: float, length: float, EI: float, segments: int) -> float:
    r"""Small-deflection tip displacement (m) of the bar-chain cantilever built by
    :func:`discrete_beam` under a tip force ``load`` (N):
    :math:`\tfrac{PL^3}{3EI}(1 + 1/(2N^2))` (module docstring)."""
    return load * length**3 / (3.0 * EI) * (1.0 + 0.5 / segments**2)


def _pair(value: Any, what: str) -> tuple[float, float]:
    """``(EI₂, EI₃)`` from a number or a pair."""
    a = np.broadcast_to(np.asarray(value, dtype=float), (2,))
    if not np.all(np.isfinite(a)) or (a <= 0).any():
        raise ModelError(f"discrete_beam: {what} must be positive (got {value!r})")
    return float(a[0]), float(a[1])


def _frame(direction: Sequence[float], up: Sequence[float]) -> tuple[np.ndarray, ...]:
    """Unit beam axis ``d``, bending normal ``n`` (the part of ``up`` ⊥ ``d``) and
    ``b = n × d`` completing them."""
    d = np.asarray(direction, dtype=float)
    if d.shape != (3,) or not np.linalg.norm(d) > 0:
        raise ModelError("discrete_beam: direction must be a nonzero 3-vector")
    d = d / np.linalg.norm(d)
    n = np.asarray(up, dtype=float)
    n = n - (n @ d) * d if n.shape == (3,) else np.zeros(3)
    if not np.linalg.norm(n) > 1e-9:
        raise ModelError("discrete_beam: up must be a 3-vector not parallel to direction")
    n = n / np.linalg.norm(n)
    return d, n, np.cross(n, d)


def _segment_inertia(m: float, ell: float, rhoI: float, rhoJ: float, d: np.ndarray
                     ) -> np.ndarray:
    """Inertia (3×3, about the centre) of a slender segment along ``d``: bending
    ``mℓ²/12 + ρIℓ``, torsion ``ρJℓ``."""
    bend = m * ell**2 / 12.0 + rhoI * ell
    P = np.outer(d, d)
    return bend * (np.eye(3) - P) + rhoJ * ell * P


def discrete_beam(length: float, segments: int, *, rhoA: float, EI: Any,
                  GJ: float | None = None, rhoI: float = 0.0, rhoJ: float | None = None,
                  kind: str = "revolute", eta: float = 0.0, tip_mass: float = 0.0,
                  mechanism: Mechanism | None = None, parent: str = GROUND,
                  anchor: Sequence[float] = (0.0, 0.0, 0.0),
                  direction: Sequence[float] = (1.0, 0.0, 0.0),
                  up: Sequence[float] = (0.0, 0.0, 1.0),
                  gravity: Sequence[float] = (0.0, 0.0, 0.0),
                  name: str = "beam") -> Mechanism:
    r"""A cantilever of ``segments`` rigid elements clamped to ``parent`` (a body of
    ``mechanism`` or ``"ground"``) at ``anchor`` (parent coordinates, m), its axis along
    ``direction`` (parent axes).

    Parameters (SI): ``length`` (m); ``rhoA`` (kg/m); ``EI`` (N·m²; a number or the pair
    ``(EI₂, EI₃)``, ``EI₃`` about ``up``); ``GJ`` (N·m², spherical joints only);
    ``rhoI`` (kg·m, rotary inertia per length about a bending axis, default 0: the
    Euler–Bernoulli limit); ``rhoJ`` (kg·m, about the beam axis; default ``2 rhoI``,
    a round section; needed > 0 for spherical joints); ``eta`` (s, Kelvin–Voigt joint
    dampers ``c = eta·k``); ``tip_mass`` (kg, a point mass at the free end);
    ``gravity`` (m/s², used only when a new mechanism is made).

    Returns ``mechanism`` (a new :class:`Mechanism` if none is given) with the segments,
    joints and spring actuators added (module docstring for names and stiffnesses).
    """
    if kind not in _KINDS:
        raise ModelError(f"discrete_beam: kind {kind!r} unknown; use one of {_KINDS}")
    if not (isinstance(segments, (int, np.integer)) and segments >= 1):
        raise ModelError(f"discrete_beam: segments must be a positive integer, not {segments!r}")
    for what, v in (("length", length), ("rhoA", rhoA)):
        if not (np.isfinite(v) and v > 0):
            raise ModelError(f"discrete_beam: {what} must be positive (got {v!r})")
    for what, v in (("rhoI", rhoI), ("eta", eta), ("tip_mass", tip_mass)):
        if not (np.isfinite(v) and v >= 0):
            raise ModelError(f"discrete_beam: {what} must be ≥ 0 (got {v!r})")
    EI2, EI3 = _pair(EI, "EI")
    rhoJ = 2.0 * rhoI if rhoJ is None else float(rhoJ)
    d, n, b = _frame(direction, up)
    ell = length / segments
    if kind == "spherical":
        if GJ is None or not GJ > 0:
            raise ModelError("discrete_beam: spherical joints twist; give GJ > 0 (N·m²)")
        if not rhoJ > 0:
            raise ModelError("discrete_beam: spherical joints twist; give rhoI > 0 or "
                             "rhoJ > 0 (kg·m) so the segments have a torsional inertia")
        # a spherical joint's springs act about the parent's x, y, z axes: those must be
        # the beam's axes (d, b, n) in some order
        stiff = np.zeros(3)
        for vec, k in ((d, GJ), (b, EI2), (n, EI3)):
            i = int(np.argmax(np.abs(vec)))
            if abs(abs(vec[i]) - 1.0) > 1e-12 or stiff[i] != 0.0:
                raise ModelError("discrete_beam: spherical joints need direction and up "
                                 "along coordinate axes of the parent (the springs act "
                                 "about the parent's x, y, z axes)")
            stiff[i] = k / ell
    elif kind == "universal":
        stiff = np.array([EI3, EI2]) / ell
    else:
        stiff = np.array([EI3]) / ell
    if not rhoJ > 0:  # torsion locked by the joints: any positive inertia, a rod's scale
        rhoJ = 1e-6 * rhoA * ell**2
    mech = mechanism if mechanism is not None else Mechanism(gravity=gravity, name=name)
    if parent != GROUND and parent not in mech.bodies:
        raise ModelError(f"discrete_beam: unknown parent body {parent!r}")
    anchor = np.asarray(anchor, dtype=float)
    m = rhoA * ell
    I_seg = _segment_inertia(m, ell, rhoI, rhoJ, d)
    for i in range(segments):
        body = f"{name}_{i}"
        mass, com, inertia = m, 0.5 * ell * d, I_seg
        if i == segments - 1 and tip_mass > 0:  # merge the point mass at the free end
            tip = ell * d
            mass = m + tip_mass
            com = (m * com + tip_mass * tip) / mass
            inertia = I_seg.copy()
            for mk, pk in ((m, 0.5 * ell * d), (tip_mass, tip)):
                r = pk - com
                inertia += mk * ((r @ r) * np.eye(3) - np.outer(r, r))
        mech.add_body(body, mass, inertia, com=com)
        joint = f"{name}_j{i}"
        prev, at = (parent, anchor) if i == 0 else (f"{name}_{i - 1}", ell * d)
        mech.add_joint(joint, kind, prev, body, axis=n, parent_anchor=at,
                       axis2=b if kind == "universal" else None)
        k = stiff * (2.0 if i == 0 else 1.0)   # the root joint is half a segment
        mech.add_actuator(joint, stiffness=k, damping=eta * k)
    return mech


def linear_frequencies(mech: Mechanism, count: int | None = None) -> np.ndarray:
    r"""Natural angular frequencies (rad/s, ascending) of ``mech`` linearized about its
    initial state at rest (:meth:`Mechanism.initial_state` with no ``q0``), which must
    be a force-free equilibrium: no gravity, springs at their set points.

    There :math:`z = 0` and :math:`\lambda = 0`, so the assembled pH-DAE
    :math:`\dot x = JD_z\,\delta x + B\lambda,\ 0 = B^\top D_z\,\delta x` is already
    linear; its finite generalized eigenvalues :math:`\pm i\omega` give the modes
    (the zero ones — invariants such as :math:`RR^\top = I` and spring-minus-joint
    offsets — are dropped).  Dense: for chains of up to a few hundred bodies."""
    if np.any(mech.gravity != 0):
        raise ModelError("linear_frequencies: the mechanism must be free of gravity (the "
                         "undeformed rest state is then an equilibrium)")
    dae = mech.assemble()
    x0 = mech.initial_state()
    n, k = dae.n, dae.k

    def dense(a: Any) -> np.ndarray:
        return a.toarray() if hasattr(a, "toarray") else np.asarray(a)

    Dz, B = dense(dae.Dz(x0)), dense(dae.B(x0))
    A = np.block([[dense(dae.matrix("J", x0)) @ Dz, B], [B.T @ Dz, np.zeros((k, k))]])
    E = np.zeros_like(A)
    E[:n, :n] = np.eye(n)
    ev = sl.eigvals(A, E)
    w = np.sort(ev[np.isfinite(ev)].imag)
    w = w[w > 1e-8 * max(1.0, float(np.abs(w).max(initial=0.0)))]
    return w if count is None else w[:count]
