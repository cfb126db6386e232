r"""Interaction Dirac structures.

Tearing a system into subsystems on ``Q_1, …, Q_n`` cuts the constraints and
couplings between them; they are restored by an *interaction Dirac structure* on
``T*Q``, ``Q = Q_1 × … × Q_n`` (Jacobs & Yoshimura, *Tensor products of Dirac
structures and interconnection in Lagrangian mechanics*, J. Geom. Mech. 6
(2014) 67–98; the non-standard ones in its §5):

* **standard** ``D_Σ`` from an interaction distribution ``Σ_Q = ker A_Σ(q)ᵀ``
  (continuity of a shared point, Kirchhoff's current law at a cut node, gear
  ratios, rolling without slipping):

  .. math::  D_Σ = \{(X, α) : X ∈ Σ_{T*Q},\ α ∈ Σ°_{T*Q}\},\quad
             Σ_{T*Q} = (Tπ_Q)^{-1}(Σ_Q),

  in coordinates ``A_Σᵀ q̇ = 0`` (``ṗ`` free) and ``α_q ∈ im A_Σ``, ``w = 0``;
  the efforts ``α_q = A_Σ μ`` are the interaction forces.
* **magnetic** (non-standard) from a two-form ``β`` on ``Q``: the graph
  ``α_q = B q̇``, ``w = 0`` (``B`` the skew matrix of ``β``); the force ``B v = −i_v β``
  is workless.  With ``β = e B_z dx ∧ dy`` this is the Lorentz force
  ``e v × B``; with ``β = K dθ ∧ dq`` the ideal DC motor
  (:func:`dc_motor`).  Both kinds can be combined: ``α − B̃ X ∈ Σ°``.

The kernel representation on the ports of :func:`.canonical.cotangent_ports` is
``A_Σᵀ q̇ = 0``, ``N_Σᵀ(α_q − B q̇) = 0``, ``w = 0`` (``N_Σ`` a basis of ``Σ_Q``),
``2n`` rows, Dirac because ``A_Σᵀ N_Σ = 0`` and ``B`` is skew.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import sympy

from ..dirac import DiracStructure
from ..errors import ModelError
from . import _symbols
from .canonical import induced, null_basis


class Interaction:
    """An interaction between subsystems: one-forms annihilating ``Σ_Q`` and a
    two-form.  Built with :func:`interaction`; consumed by
    :func:`.interconnect.interconnect`, which places it on the product of the
    subsystems' coordinates.

    ``forms`` and ``magnetic`` hold the user's specification; they are resolved
    against the coordinates of the subsystems at interconnection.
    """

    def __init__(self, annihilator: Sequence[Any] = (), magnetic: Mapping[Any, Any] | None = None,
                 name: str = "interaction") -> None:
        if isinstance(annihilator, Mapping | sympy.Basic):  # a single one-form
            annihilator = [annihilator]
        self.annihilator = list(annihilator)
        self.magnetic = dict(magnetic or {})
        self.name = name
        if not self.annihilator and not self.magnetic:
            raise ModelError(f"{name}: give annihilator one-forms or a magnetic two-form "
                             "(an empty interaction leaves the subsystems uncoupled)")

    def resolve(self, c: _symbols.Coordinates) -> tuple[sympy.Matrix, sympy.Matrix]:
        """``(A_Σ, B)`` on the product coordinates ``c``."""
        return (_symbols.one_forms(self.annihilator, c, self.name),
                _symbols.two_form(self.magnetic or None, c, self.name))

    def __repr__(self) -> str:
        return (f"Interaction({self.name!r}, forms={len(self.annihilator)}, "
                f"magnetic={'yes' if self.magnetic else 'no'})")


def interaction(annihilator: Sequence[Any] = (), *, magnetic: Mapping[Any, Any] | None = None,
                name: str = "interaction") -> Interaction:
    """Interaction Dirac structure from the one-forms annihilating ``Σ_Q``
    (standard) and/or a two-form (magnetic); forms as in
    :class:`.system.LagrangeDiracSystem` (mappings ``{coordinate: coefficient}`` or
    expressions linear in the velocities, coordinates of any subsystem)."""
    return Interaction(annihilator, magnetic, name)


def dc_motor(charge: Any, angle: Any, K: Any, name: str = "dc motor") -> Interaction:
    r"""Ideal DC motor coupling a circuit charge ``q`` (C) and a shaft angle ``θ`` (rad).

    The two-form ``β = K dθ ∧ dq`` gives the force ``B v = −i_v β``: a back
    electromotive force ``−K θ̇`` (V) on the charge coordinate and a torque ``K i``
    (N·m) on the shaft, ``i = q̇``.  ``K`` is the motor constant (V·s/rad = N·m/A).
    Power: electrical power absorbed ``(K θ̇)·i`` equals mechanical power delivered
    ``(K i)·θ̇``; the structure is lossless (a gyrator in bond-graph terms).
    """
    return Interaction((), {(angle, charge): K}, name)


def standard_structure(names: Sequence[str], A: Any, B: Any = None,
                       at: Mapping[Any, Any] | None = None) -> DiracStructure:
    """The interaction Dirac structure on ``T*Q`` (module docstring) for
    ``Σ_Q = ker Aᵀ`` and the two-form ``B``; numeric when ``at`` is given."""
    return induced(names, A, B, at, symplectic=False)


def subspace_structure(annihilator: Any, ports: Sequence[str]) -> DiracStructure:
    r"""``D = Σ × Σ°`` on a vector space with named ports, ``Σ = ker Cᵀ``.

    ``annihilator``: ``n × m`` matrix ``C`` (columns annihilate ``Σ``).  Flows obey
    ``Cᵀ f = 0`` and efforts lie in ``im C``.  On ``T*Q`` with ``C = [A_Σ; 0]`` this is
    the standard interaction structure; on the port space of linear
    port-Hamiltonian systems it expresses an interconnection (e.g. ``f_a + f_b = 0``)
    to be applied by the tensor product.
    """
    C = np.atleast_2d(np.asarray(annihilator, dtype=float))
    n = len(ports)
    if C.shape[0] != n:
        raise ModelError(f"the annihilator has {C.shape[0]} rows but there are {n} ports "
                         f"({', '.join(ports)}); give one row per port")
    N = null_basis(C)
    m, r = C.shape[1], N.shape[1]
    F = np.vstack([C.T, np.zeros((r, n))])
    E = np.vstack([np.zeros((m, n)), N.T])
    return DiracStructure(F, E, list(ports))
