r"""Dependent storages: the descriptor model, and the explicit model after merging.

With the storages split into integral (``a``) and dependent (``d``, derivative
causality) ones, the solved element equations read

.. math::
    \dot x_a = A_{aa} z_a + A_{ad}\lambda + A_{au} u,\qquad
    \dot x_d = \lambda,\qquad z_d = A_{da} z_a,\qquad y = C_{ya} z_a + D u,

with :math:`\lambda` the rates of the dependent storages and, by power continuity
of the junction structure, :math:`A_{da} = -A_{ad}^\top`.

**Descriptor form.**  With :math:`B = [A_{ad}; I]` this is
:math:`\dot x = (J-R)z + B\lambda + (G-P)u`, :math:`0 = B^\top z`: the constraint
forces do no work.

**Merging** (when :math:`A_{ad}` is constant and the storages involved linear).
The combination :math:`\xi = x_a - A_{ad} x_d` annihilates the multiplier,
:math:`\dot\xi = A_{aa} z_a + A_{au} u`, and on the constraint set
:math:`dH = z_a^\top d x_a + z_d^\top d x_d = z_a^\top d\xi`, so :math:`z_a = \nabla H_r(\xi)`:
the merged model has the integral storages' :math:`J, R, G, P, M, S` and the energy
:math:`H_r = \tfrac12 \xi^\top C_r^{-1}\xi` with the merged compliance

.. math::  C_r = C_{aa} + A_{ad}\, C_{dd}\, A_{ad}^\top .

Two capacitors on one 0-junction (:math:`A_{ad} = -1`): :math:`\xi = q_1 + q_2`,
:math:`C_r = C_1 + C_2`; two inertias rigidly coupled by a TF of ratio :math:`m`:
:math:`\xi = p_1 + m p_2`, :math:`I_r = I_1 + m^2 I_2` (Breedveld, Appendix A of
Duindam et al. 2009, on resolving derivative causality).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import scipy.sparse as sps
import sympy as sp

from ..descriptor import DescriptorPHS
from ..errors import ModelError, NoExplicitFormError
from ..expr import state_symbol
from ..naming import split_index
from ..phs import PHS
from ..quantities import OBSERVE_UP_TO, Quantities, removed_storage
from .domains import bond_domains, graph_quantities, output_names
from .elements import HamiltonianData, compliance
from .linear_map import LinearMap, explicit_phs, port_kinds, split


def rate_name(state: str) -> str:
    """The multiplier of a dependent storage: ``C2`` → ``C2.rate``, ``C2[1]`` → ``C2.rate[1]``."""
    base, k = split_index(state)
    return f"{base}.rate" if k is None else f"{base}.rate[{k}]"


def _blocks(lm: LinearMap) -> dict[str, Any]:
    """The blocks of the module docstring, after checking the form they must have."""
    b = {key: lm.block(*key.split("_")) for key in
         ("a_a", "a_d", "a_u", "d_a", "d_d", "d_u", "y_a", "y_d", "y_u")}
    dense = {k: (v if lm.exact else v.toarray()) for k, v in b.items()}
    names = ", ".join(lm.dependent)

    def nonzero(A: Any) -> bool:
        if lm.exact:
            return any(sp.simplify(v) != 0 for v in A)
        return bool(np.any(np.abs(A) > 1e-12 * max(1.0, np.abs(A).max(initial=0.0))))

    if nonzero(dense["d_u"]):
        raise NoExplicitFormError(
            f"the storages {names} are fixed by the sources as well as by other storages; "
            "put a resistor between them and the sources")
    if nonzero(dense["d_d"]) or nonzero(dense["y_d"]):
        raise NoExplicitFormError(
            f"the rates of the dependent storages {names} enter their own constraint or the "
            "source outputs; this coupling has no descriptor port-Hamiltonian form here — "
            "add a compliance or resistance between the coupled storages")
    residual = (dense["d_a"] + dense["a_d"].T)
    if nonzero(residual):  # power continuity says this cannot happen
        raise NoExplicitFormError(
            f"internal: the constraint of {names} is not the adjoint of its multiplier; "
            "please report this model")
    return dense


def descriptor(lm: LinearMap, H: HamiltonianData) -> DescriptorPHS:
    """The descriptor PHS of the module docstring (all states kept)."""
    n, states = len(lm.states), lm.states
    pos = {s: i for i, s in enumerate(states)}
    a = [pos[s] for s in lm.integral]
    d = [pos[s] for s in lm.dependent]
    nu = len(lm.inputs)
    blk = _blocks(lm)
    D = blk["y_u"]
    if lm.exact:
        K, Au = sp.zeros(n, n), sp.zeros(n, nu)
        Cz, B = sp.zeros(nu, n), sp.zeros(n, len(d))
        for r, i in enumerate(a):
            for c, j in enumerate(a):
                K[i, j] = blk["a_a"][r, c]
            for c in range(nu):
                Au[i, c] = blk["a_u"][r, c]
                Cz[c, i] = blk["y_a"][c, r]
            for c in range(len(d)):
                B[i, c] = blk["a_d"][r, c]
        for c, i in enumerate(d):
            B[i, c] = 1
    else:
        K, Au = np.zeros((n, n)), np.zeros((n, nu))
        Cz, B = np.zeros((nu, n)), np.zeros((n, len(d)))
        K[np.ix_(a, a)] = blk["a_a"]
        Au[a, :] = blk["a_u"]
        Cz[:, a] = blk["y_a"]
        B[a, :] = blk["a_d"]
        B[d, range(len(d))] = 1.0
    mats = split(K, Au, Cz, D)
    energy = ({"Q": H.Q.toarray()} if H.Q is not None and not lm.exact
              else {"hamiltonian": H.expr})
    if not lm.exact and "hamiltonian" in energy:
        mats = {k: sp.Matrix(A) for k, A in mats.items()}
        B = sp.Matrix(B)
    doms = bond_domains(lm.graph)
    model = DescriptorPHS(**mats, B=B, **energy, states=states, inputs=lm.inputs,
                          outputs=output_names(lm.graph, doms),
                          multipliers=[rate_name(s) for s in lm.dependent],
                          parameters=dict(lm.graph.parameters), name=lm.graph.name,
                          quantities=graph_quantities(lm.graph, doms))
    model.port_kinds = port_kinds(lm.graph)  # type: ignore[attr-defined]
    return model


def merged(lm: LinearMap, derivative: Sequence[str], why: str) -> PHS:
    """The explicit PHS after merging the dependent storages (module docstring).

    ``derivative``: the storages the causal analysis put in derivative causality;
    ``why``: its finding, quoted in the messages.
    """
    blk = _blocks(lm)
    bg = lm.graph
    nonlinear = [el.name for el in bg.storages() if "hamiltonian" in el.params]
    coupling = blk["a_d"]
    modulated = lm.exact and bool(sp.Matrix(coupling).free_symbols
                                  & {state_symbol(s) for s in lm.states})
    if nonlinear or modulated:
        reason = (f"the storages {', '.join(nonlinear)} are nonlinear" if nonlinear else
                  "the coupling between them depends on the state (a modulated element)")
        raise NoExplicitFormError(
            f"dependent storages {', '.join(derivative)} ({why}); they cannot be merged "
            f"into one state because {reason}. Use bondgraph.to_descriptor() for the "
            "constrained model, or add a compliance/resistance between the coupled storages")
    comp = {s: None for s in lm.states}
    for el in bg.storages():
        c = compliance(el)
        for k, s in enumerate(el.states):
            comp[s] = (el, k, c)
    a, d = lm.integral, lm.dependent

    def compliance_block(names: list[str], exact: bool) -> Any:
        m = sp.zeros(len(names), len(names))
        idx = {s: i for i, s in enumerate(names)}
        for s in names:
            el, k, c = comp[s]
            for k2, s2 in enumerate(el.states):
                if s2 in idx:
                    m[idx[s], idx[s2]] = c[k, k2]
        return m if exact else np.array(m.tolist(), dtype=float)

    Caa, Cdd = compliance_block(a, lm.exact), compliance_block(d, lm.exact)
    mats = split(blk["a_a"], blk["a_u"], blk["y_a"], blk["y_u"])
    xa = [state_symbol(s) for s in a]
    xd = [state_symbol(s) for s in d]
    if lm.exact:
        Cr = (Caa + coupling * Cdd * coupling.T).applyfunc(sp.cancel)
        xi = sp.Matrix(xa)
        try:
            Qr = Cr.inv()
        except sp.matrices.exceptions.NonInvertibleMatrixError:
            raise _singular_merge(a, d) from None
        energy = {"hamiltonian": sp.expand((xi.T * Qr * xi)[0, 0] / 2),
                  "parameters": dict(bg.parameters)}
        sys = PHS(**mats, **energy, states=a, inputs=lm.inputs, outputs=output_names(bg),
                  name=bg.name, quantities=graph_quantities(bg, states=a))
    else:
        Cr = Caa + coupling @ Cdd @ coupling.T
        if not np.all(np.isfinite(Cr)) or np.linalg.cond(Cr) > 1e14:
            raise _singular_merge(a, d)
        Qr = np.linalg.inv(Cr)
        Qr = (Qr + Qr.T) / 2
        mats = {k: sps.csr_matrix(A) for k, A in mats.items()}
        sys = explicit_phs(bg, mats, HamiltonianData(None, sps.csr_matrix(Qr)), a, lm.inputs)
    meaning = {}
    for i, s in enumerate(a):
        combo = xa[i] - sum((sp.nsimplify(coupling[i, j]) if not lm.exact else coupling[i, j])
                            * xd[j] for j in range(len(d)))
        if combo != xa[i]:
            meaning[s] = str(combo)
    sys.quantities = _merged_quantities(sys.quantities, bg, a, d, blk["d_a"],
                                        Qr, Cdd, lm.exact)
    sys.merged = meaning  # type: ignore[attr-defined]
    stands = "; ".join(f"state {s} now stands for {m}" for s, m in meaning.items())
    sys.reduction = (  # type: ignore[attr-defined]
        f"merged the dependent storage(s) {', '.join(derivative)} ({why}): {stands}"
    )
    return sys


def _singular_merge(kept: Sequence[str], merged: Sequence[str]) -> ModelError:
    return ModelError(
        f"merging the dependent storage(s) {', '.join(merged)} into {', '.join(kept)} gives "
        "a combined storage with zero (or singular) inertia/compliance — the values cancel "
        "(a negative one?); check the signs of the storage values")


def _merged_quantities(q: Quantities | None, bg: Any, a: list[str], d: list[str], Ada: Any,
                       Qr: Any, Cdd: Any, exact: bool) -> Quantities | None:
    r"""The merged model's annotation with two observables per dependent storage state:
    its co-energy :math:`z_d = A_{da} z_a = A_{da} C_r^{-1}\xi` and its state
    :math:`x_d = C_{dd} z_d`, both in the kept states :math:`\xi` (the speed and
    momentum of an inertia merged into another through a gear, the voltage and charge
    of a capacitor in parallel with another).  The kept states' co-energies
    :math:`\nabla H_r(\xi) = z_a` are already the physical ones."""
    if q is None or not d or len(a) > OBSERVE_UP_TO:
        return q
    info = graph_quantities(bg).states
    xi = sp.Matrix([state_symbol(s) for s in a])
    if exact:
        zd = (sp.Matrix(Ada) * sp.Matrix(Qr)).applyfunc(sp.cancel) * xi
        xd = sp.Matrix(Cdd) * zd
    else:
        K = np.asarray(Ada, dtype=float) @ np.asarray(Qr, dtype=float)
        zd = _linear_rows(K, xi)
        xd = _linear_rows(np.asarray(Cdd, dtype=float) @ K, xi)
    extra = [o for j, s in enumerate(d)
             for o in removed_storage(s, info[s], sp.expand(xd[j]), sp.expand(zd[j]),
                                      "merged")]
    return q.with_observables(extra)


def _linear_rows(K: np.ndarray, xi: sp.Matrix) -> list[sp.Expr]:
    """The rows of ``K ξ`` as SymPy expressions, with only the non-zero terms."""
    return [sp.Add(*(sp.Float(K[j, i]) * xi[i] for i in np.flatnonzero(K[j])))
            for j in range(K.shape[0])]
