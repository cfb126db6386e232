r"""From a Lagrange–Dirac system to the port-Hamiltonian IR (:class:`DescriptorPHS`).

For a Lagrangian with a constant (possibly singular) mass matrix,
``L = ½ vᵀ M v − V(q)``, external forces ``F = −D v + g(t)`` (constant ``D = Dᵀ ⪰ 0``),
a two-form ``B(q)`` and constraint forms ``A(q)``, the Lagrange–d'Alembert–Pontryagin
equations are the descriptor pH system with state ``x = (q, v)``:

.. math::

   \begin{bmatrix} I & 0 \\ 0 & M \end{bmatrix} \dot x =
   \left(\begin{bmatrix} 0 & I \\ -I & B \end{bmatrix} -
         \begin{bmatrix} 0 & 0 \\ 0 & D \end{bmatrix}\right) z
   + \begin{bmatrix} 0 \\ A \end{bmatrix} λ + \begin{bmatrix} 0 \\ G \end{bmatrix} u,
   \qquad 0 = A^\mathsf{T} v,

with ``z = (∇V, v)``, ``H = ½ vᵀ M v + V(q)`` (so ``Eᵀ z = ∇H``; ``H`` is the
generalized energy ``E = ⟨p, v⟩ − L``), and one input ``F_<q_i>`` per coordinate on
which ``g`` acts (``G`` its unit column; the output is the velocity ``q̇_i``, so
``u y`` is the power supplied).  Degenerate ``M`` (charges of capacitors, massless
points of a torn system) gives a singular ``E``: algebraic states that the
foundation's DAE simulators handle (:mod:`porthamiltonian.simulate.dae.loop`).
"""

from __future__ import annotations

from typing import Any

import sympy

from ..descriptor import DescriptorPHS
from ..errors import NoExplicitFormError
from ._symbols import T

#: annotations: a :class:`.system.LagrangeDiracSystem` (not imported: system imports us)
LagrangeDiracSystem = Any


def _fail(sys: LagrangeDiracSystem, why: str) -> NoExplicitFormError:
    return NoExplicitFormError(
        f"{sys.name}: no descriptor port-Hamiltonian form with state (q, v): {why}; "
        "simulate the Lagrange–Dirac system directly with .simulate(...)"
    )


def to_descriptor(sys: LagrangeDiracSystem) -> tuple[DescriptorPHS, dict[str, Any]]:
    """The :class:`DescriptorPHS` of ``sys`` (module docstring) and the input
    signals ``{input name: g_i(t)}`` (SymPy expressions of ``t``).

    Parameter values of ``sys`` are substituted.  Raises
    :class:`NoExplicitFormError` when the mass matrix depends on ``q`` or ``v``, ``L``
    has terms mixing ``q`` and ``v`` or depends on time, or forces are not of the
    form ``−D v + g(t)`` with constant ``D``.
    """
    par = {k: sympy.Float(v) for k, v in sys.parameters.items()}
    q, v = list(sys.coordinates), list(sys.velocities)
    n = sys.n
    L = sympy.expand(sys.lagrangian.xreplace(par))
    if L.has(T):
        raise _fail(sys, "the Lagrangian depends on time explicitly")
    Mv = sympy.Matrix([L.diff(vi) for vi in v]).jacobian(v)
    if Mv.free_symbols & set(q + v):
        raise _fail(sys, "the mass matrix ∂²L/∂v² depends on the configuration or velocity")
    zero_v = dict.fromkeys(v, 0)
    V = -L.xreplace(zero_v)
    rest = sympy.expand(L - ((sympy.Matrix(v).T * Mv * sympy.Matrix(v))[0, 0] / 2 - V))
    if sympy.Matrix([rest]).jacobian(q).free_symbols & set(q + v) or \
            any(sympy.diff(rest, qi) != 0 for qi in q):
        raise _fail(sys, "the Lagrangian has terms coupling q and v (write magnetic "
                    "couplings as a two-form with magnetic=...)")
    F = sys.forces.xreplace(par)
    D = -F.jacobian(v)
    g = F.xreplace(zero_v)
    if D.free_symbols & set(q + v) or D.has(T):
        raise _fail(sys, "the forces are not linear in the velocities with constant "
                    "coefficients (F = −D v + g(t))")
    if g.free_symbols & set(q):
        raise _fail(sys, "the forces depend on the configuration (put conservative "
                    "forces in the Lagrangian)")
    if any(sympy.simplify(x) != 0 for x in (D - D.T)):
        raise _fail(sys, "the damping matrix D in F = −D v is not symmetric")
    A = sys.constraint_forms.xreplace(par)
    Bm = sys.two_form.xreplace(par)
    states = list(sys.names) + [f"{s}_dot" for s in sys.names]
    xs = [sympy.Symbol(s, real=True) for s in states]
    to_x = dict(zip(q + v, xs, strict=True))
    I, Z = sympy.eye(n), sympy.zeros(n, n)
    E = sympy.diag(I, Mv)
    J = sympy.Matrix(sympy.BlockMatrix([[Z, I], [-I, Bm]]).as_explicit()).xreplace(to_x)
    R = sympy.diag(Z, D)
    forced = [i for i in range(n) if g[i] != 0]
    G = sympy.zeros(2 * n, len(forced))
    for k, i in enumerate(forced):
        G[n + i, k] = 1
    H = ((sympy.Matrix(v).T * Mv * sympy.Matrix(v))[0, 0] / 2 + V).xreplace(to_x)
    z = sympy.Matrix([V.diff(qi) for qi in q] + v).xreplace(to_x)
    Bc = sympy.Matrix.vstack(sympy.zeros(n, A.shape[1]), A).xreplace(to_x)
    inputs = [f"F_{sys.names[i]}" for i in forced]
    desc = DescriptorPHS(E=E, J=J, R=R, G=G if forced else None, B=Bc if A.shape[1] else None,
                         hamiltonian=H, efforts=z, states=states, inputs=inputs or None,
                         outputs=[f"{sys.names[i]}_dot" for i in forced] or None,
                         name=sys.name)
    return desc, {name: g[i] for name, i in zip(inputs, forced, strict=True)}
