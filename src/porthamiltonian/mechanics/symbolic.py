r"""The symbolic assembly of a mechanism: one SymPy :class:`~porthamiltonian.DescriptorPHS`.

For printing, inspection and small models (the expressions grow with the chain; the
simulation path is the numeric :mod:`.assembly`).  The constraint columns are derived
here independently of :mod:`.assembly`, by differentiating each ``g(q)`` with SymPy,
:math:`B_{:,k} = K_b(q)^\top \partial g_k/\partial q_b` per body ``b`` — so comparing
the two assemblies checks the hand-written derivatives of the numeric one.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import sympy as sp

from .graph import GROUND
from .joints import Joint
from .protocols import MechanismModel

__all__ = ["symbolic_system"]


def _pose(mech: MechanismModel, body: str) -> tuple[sp.Matrix, sp.Matrix]:
    if body == GROUND:
        return sp.zeros(3, 1), sp.eye(3)
    b = mech.bodies[body]
    return b.p, b.R


def _constraint_wrenches(mech: MechanismModel, j: Joint, g: sp.Expr) -> dict[str, sp.Matrix]:
    """Body-frame wrenches ``K_bᵀ ∂g/∂q_b`` of one constraint row (co-cycle law)."""
    out = {}
    for end in (j.parent, j.child):
        if end == GROUND:
            continue
        b = mech.bodies[end]
        out[end] = b.kinematics().T * sp.Matrix([g]).jacobian(list(b.q)).T
    return out


def _actuator_wrenches(mech: MechanismModel, j: Joint, kind: str, n: sp.Matrix
                       ) -> dict[str, sp.Matrix]:
    """Body-frame wrenches of a unit torque about / force along inertial ``n``: + on the
    child, − on the parent (applied at the child anchor for a force)."""
    p1, R1 = _pose(mech, j.parent)
    p2, R2 = _pose(mech, j.child)
    r = p2 + R2 * sp.Matrix(j.a2)  # child anchor, inertial
    out = {}
    for end, sign, p, R, rho in ((j.child, 1, p2, R2, sp.Matrix(j.a2)),
                                 (j.parent, -1, p1, R1, None)):
        if end == GROUND:
            continue
        nb = R.T * n * sign
        if kind == "rot":
            out[end] = sp.Matrix([*nb, 0, 0, 0])
        else:
            arm = rho if rho is not None else R.T * (r - p)
            out[end] = sp.Matrix([*arm.cross(nb), *nb])
    return out


def symbolic_system(mech: MechanismModel, keep: Sequence[int]) -> Any:
    """The mechanism as a symbolic DescriptorPHS keeping constraint rows ``keep`` (indices
    into the tree-then-chord rows, see :meth:`.Mechanism.assemble`)."""
    from ..descriptor import DescriptorPHS

    graph = mech.graph
    names = list(mech.bodies)
    states = [s for b in names for s in mech.bodies[b].states]
    offset = {b: 18 * i for i, b in enumerate(names)}
    acts = [(jn, i) for jn in mech.actuators for i in range(mech.joints[jn].dof)]
    springs = [(jn, i) for jn, i in acts if mech.actuators[jn].stiffness[i] > 0]
    states += [f"{jn}.s[{i}]" for jn, i in springs]
    n = len(states)
    J = sp.zeros(n, n)
    H = sp.Integer(0)
    for b in names:
        o = offset[b]
        J[o:o + 18, o:o + 18] = mech.bodies[b].structure()
        H += mech.bodies[b].hamiltonian(mech.gravity)

    def column(wrenches: Mapping[str, sp.Matrix]) -> sp.Matrix:
        col = sp.zeros(n, 1)
        for b, wb in wrenches.items():
            col[offset[b] + 12:offset[b] + 18, 0] = wb
        return col

    rows: list[tuple[str, int, sp.Matrix]] = []
    for jn in graph.tree + graph.chords:
        j = mech.joints[jn]
        p1, R1 = _pose(mech, j.parent)
        p2, R2 = _pose(mech, j.child)
        for i, g in enumerate(j.constraints(p1, R1, p2, R2)):
            rows.append((jn, i, column(_constraint_wrenches(mech, j, sp.expand(g)))))
    B = sp.Matrix.hstack(*[rows[k][2] for k in keep]) if keep else sp.zeros(n, 0)
    Gcols, Rm = [], sp.zeros(n, n)
    for jn, i in acts:
        j, a = mech.joints[jn], mech.actuators[jn]
        kind, feat = j.actuator_directions()[i]
        p1, R1 = _pose(mech, j.parent)
        p2, R2 = _pose(mech, j.child)
        col = column(_actuator_wrenches(mech, j, kind, feat(p1, R1, p2, R2)))
        Gcols.append(col)
        if a.damping[i] > 0:
            Rm += a.damping[i] * col * col.T
        if a.stiffness[i] > 0:
            k = states.index(f"{jn}.s[{i}]")
            J[k, :] += col.T
            J[:, k] -= col
            s = sp.Symbol(states[k], real=True)
            ref = 0.0 if a.setpoint is None else a.setpoint[i]
            H += a.stiffness[i] * (s - ref) ** 2 / 2
    G = sp.Matrix.hstack(*Gcols) if Gcols else None
    mult = [f"{rows[k][0]}.lambda[{rows[k][1]}]" for k in keep]
    return DescriptorPHS(J=J, R=Rm, G=G, B=B, hamiltonian=H, states=states,
                         inputs=[f"{jn}.tau[{i}]" for jn, i in acts] or None,
                         outputs=[f"{jn}.v[{i}]" for jn, i in acts] or None,
                         multipliers=mult, name=mech.name, check=False)

