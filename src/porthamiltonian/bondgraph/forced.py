r"""Storages fixed by sources: their derivative causality as an input derivative.

A storage that the sources alone put in derivative causality (an inductor in series
with a current source, a capacitor across a voltage source, either behind a chain of
TF/GY; Breedveld, Appendix A.3 of Duindam et al., *Modeling and Control of Complex
Physical Systems*, Springer 2009) has no state of its own: its co-energy is imposed.
With the storages split into integral (``a``) and fixed (``f``) ones, the element
equations solved with the fixed storages in derivative causality (their rates
:math:`\lambda = \dot x_f` taken as knowns, :mod:`.linear_map`) read

.. math::
    \dot x_a = A_{aa} z_a + A_{af}\lambda + A_{au} u,\qquad
    z_f = F u,\qquad y = C_{ya} z_a + C_{yf}\lambda + D u ,

where "fixed by sources" means exactly that :math:`z_f` depends on the inputs only
(:math:`A_{fa} = 0`, :math:`A_{ff} = 0`, checked).  Power continuity of the junction
structure then gives :math:`A_{af} = -A_{fa}^\top = 0` and :math:`C_{yf} = F^\top`:
the rate of a fixed storage does not drive the other storages, it only loads the
sources.  For a linear storage :math:`x_f = C_f z_f` (compliance or inertia
:math:`C_f`), so :math:`x_f = C_f F u` and :math:`\lambda = C_f F \dot u`.

The explicit model.  Let :math:`v = \dot u_D` be the time derivatives of the inputs
that fix a storage (the non-zero columns :math:`F_D` of :math:`F`) and
:math:`\Lambda = C_f F_D`, so :math:`\lambda = \Lambda v`.  With inputs
:math:`w = (u, v)`:

.. math::
    \dot x_a = A_{aa} z_a + [A_{au}\;\; A_{af}\Lambda]\, w,\qquad
    \begin{bmatrix} y_u \\ y_v \end{bmatrix} =
    \begin{bmatrix} C_{ya} \\ \Lambda^\top A_{af}^\top \end{bmatrix} z_a +
    \begin{bmatrix} D & C_{yf}\Lambda \\ -(C_{yf}\Lambda)^\top & 0 \end{bmatrix} w ,

split as in :func:`.linear_map.split`: the new feed-through block is skew, so it goes
to :math:`M` (power-conserving) and :math:`R, P, S` are those of the integral part.

Energy bookkeeping (what the model's :math:`H` and :math:`w^\top y` count):

* :math:`H = H_a(x_a)`, the energy of the storages in integral causality only; the
  fixed storages' energy :math:`H_f = \tfrac12 u^\top F^\top C_f F u` is a function of
  the input, not of the state, and is an observable (below).
* :math:`u^\top y_u` is the whole power the sources deliver, the part that goes into
  the fixed storages included (for a current source :math:`i_s` in series with
  :math:`L`: :math:`y_u = L\,\dot i_s + \dots`).
* :math:`v^\top y_v = -u^\top W \dot u = -\dot H_f` with :math:`W = F_D^\top C_f F_D`
  (:math:`y_v = -\Lambda^\top C_{yf}^\top u`: minus the fixed storages' state seen at
  the source, e.g. :math:`-L i_s` for the inductor).

Hence :math:`\dot H_a = u^\top y_u + v^\top y_v - d` along solutions (the usual balance
of the PHS, :math:`d \ge 0` the dissipation), i.e.
:math:`\dot H_a + \dot H_f + d = u^\top y_u`: what the sources deliver is stored in
the integral storages, stored in the fixed ones, or dissipated.

Names.  The derivative of input ``I_s`` is the input ``I_s.dot`` (``F.dot[1]`` for
``F[1]``); its output is named after the quantity it carries, ``I_s.dot.phi`` (a flux
linkage) behind a current source, ``V.dot.q`` (a charge) behind a voltage source.
The model records ``input_derivatives = {"I_s.dot": "I_s"}`` — the one thing a
simulation needs to know to feed ``I_s.dot`` with :math:`\dot i_s`
(:func:`porthamiltonian.io.derivative_inputs.with_input_derivatives` does it for
expressions, tables and callables) — ``fixed = {"La": "L_a*I_s"}`` (each fixed
state as a function of the inputs) and ``reduction``, the same in words.

Limits: the fixed storages must be linear, and the gains from the sources to them
constant (no modulated TF/GY on the causal path): then :math:`x_f` is linear in
:math:`u`.  Dependent storages (fixed by other storages, :mod:`.merge`) and storages
fixed by sources in one graph are refused with a message.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import scipy.sparse as sps
import sympy as sp

from ..errors import NoExplicitFormError
from ..expr import state_symbol
from ..naming import listing, split_index
from ..phs import PHS
from ..quantities import OBSERVE_UP_TO, Observable, Quantities, Quantity, removed_storage
from .domains import bond_domains, graph_quantities, output_names, source_output
from .elements import HamiltonianData, compliance
from .linear_map import SPARSE_ABOVE, LinearMap, port_kinds, split

__all__ = ["derivative_input", "forced"]


def derivative_input(name: str) -> str:
    """The input carrying the time derivative of input ``name``: ``I_s`` → ``I_s.dot``,
    ``F[1]`` → ``F.dot[1]`` (a valid name in model files and CSV columns)."""
    base, k = split_index(name)
    return f"{base}.dot" if k is None else f"{base}.dot[{k}]"


def forced(lm: LinearMap, H: HamiltonianData, paths: Sequence[str] = ()) -> PHS:
    """The explicit PHS of a bond graph whose storages ``lm.dependent`` are fixed by
    sources (module docstring).

    ``lm``: the element equations solved with those storages in derivative causality;
    ``H``: the energy of all storages (:func:`.elements.storage_energy`); ``paths``: the
    causal paths from the sources to them (``I_s → je → La``), quoted in ``reduction``.
    """
    bg, exact = lm.graph, lm.exact
    fixed, kept = lm.dependent, lm.integral
    blk = {key: _dense_small(lm.block(*key.split("_")), exact) if "d" in key
           else lm.block(*key.split("_"))
           for key in ("a_a", "a_d", "a_u", "d_a", "d_d", "d_u", "y_a", "y_d", "y_u")}
    names = ", ".join(fixed)
    if _nonzero(blk["d_a"], exact) or _nonzero(blk["d_d"], exact):
        raise NoExplicitFormError(
            f"the storages {names} are fixed by the sources and also depend on other "
            "storages; put a resistor between them and the sources")
    F = blk["d_u"]
    _check_linear(lm, F)
    Cf = _compliance(lm, fixed)
    if _nonzero(blk["y_d"] - F.T, exact) or _nonzero(blk["a_d"], exact):
        raise NoExplicitFormError(  # power continuity says this cannot happen
            f"internal: the rates of the fixed storages {names} enter the model other than "
            "through the sources' outputs; please report this model")
    used = [j for j in range(len(lm.inputs)) if _nonzero(F[:, j], exact)]
    Fd = F[:, used]
    Lam = _matmul(Cf, Fd, exact)                      # λ = Λ v
    Ayf = _matmul(blk["y_d"], Lam, exact)             # C_yf Λ
    Aaf = _matmul(blk["a_d"], Lam, exact)             # A_af Λ (zero, checked above)
    nv = len(used)
    if exact:
        Au = blk["a_u"].row_join(Aaf)
        Cz = blk["y_a"].col_join(Aaf.T)
        D = sp.Matrix(sp.BlockMatrix([[blk["y_u"], Ayf], [-Ayf.T, sp.zeros(nv, nv)]]))
    else:
        Au = sps.hstack([blk["a_u"], sps.csr_matrix(Aaf)], format="csr")
        Cz = sps.vstack([blk["y_a"], sps.csr_matrix(Aaf.T)], format="csr")
        D = sps.bmat([[blk["y_u"], sps.csr_matrix(Ayf)],
                      [sps.csr_matrix(-Ayf.T), sps.csr_matrix((nv, nv))]], format="csr")
    mats = split(blk["a_a"], Au, Cz, D)
    inputs = list(lm.inputs)
    rates = [derivative_input(inputs[j]) for j in used]
    doms = bond_domains(bg)
    rate_outputs, rate_ports = _rate_ports(bg, doms, [inputs[j] for j in used], rates)
    quantities = graph_quantities(bg, doms, kept)
    quantities = Quantities(quantities.states, {**quantities.ports, **rate_ports},
                            quantities.observables, quantities.shown_only)
    names_ = {"states": kept, "inputs": inputs + rates,
              "outputs": output_names(bg, doms) + rate_outputs, "name": bg.name}
    sys = _phs(bg, mats, _kept_energy(H, lm, fixed, kept), names_)
    u = sp.Matrix([state_symbol(s) for s in inputs])
    zf = sp.Matrix(F) * u
    xf = sp.Matrix(Cf) * zf
    sys.quantities = _fixed_quantities(quantities, bg, fixed, xf, zf, len(kept))
    sys.port_kinds = port_kinds(bg)  # type: ignore[attr-defined]
    sys.input_derivatives = dict(zip(rates, [inputs[j] for j in used], strict=True))  # type: ignore[attr-defined]
    sys.fixed = {s: str(sp.expand(xf[k])) for k, s in enumerate(fixed)}  # type: ignore[attr-defined]
    follows = "; ".join(f"{s} = {m}" for s, m in sys.fixed.items())
    gained = ", ".join(f"{r} = d{b}/dt" for r, b in sys.input_derivatives.items())
    why = f" (causal path {'; '.join(paths)})" if paths else ""
    sys.reduction = (  # type: ignore[attr-defined]
        f"the storage(s) {names} are fixed by the sources{why}: not states, they follow "
        f"the inputs ({follows}); the model gained the input(s) {gained}, through which "
        "the sources fill and empty them (H holds the other storages' energy)")
    return sys


# ---------------------------------------------------------------------- pieces
def _dense_small(A: Any, exact: bool) -> Any:
    """A block with a fixed-storage side: SymPy, or a dense float array (it is small)."""
    return A if exact else np.asarray(A.toarray(), dtype=float)


def _nonzero(A: Any, exact: bool) -> bool:
    if exact:
        return any(sp.cancel(v) != 0 for v in A)
    A = np.asarray(A, dtype=float)
    return bool(np.any(np.abs(A) > 1e-12 * max(1.0, np.abs(A).max(initial=0.0))))


def _matmul(A: Any, B: Any, exact: bool) -> Any:
    if exact:
        return (sp.Matrix(A) * sp.Matrix(B)).applyfunc(sp.cancel)
    return np.asarray(A @ B, dtype=float)


def _check_linear(lm: LinearMap, F: Any) -> None:
    """A fixed storage must be linear and its gain from the sources constant: only then
    is its state a linear function of the inputs (no ẋ of other states in its rate)."""
    bg = lm.graph
    fixed = set(lm.dependent)
    nonlinear = [el.name for el in bg.storages()
                 if "hamiltonian" in el.params and any(s in fixed for s in el.states)]
    if nonlinear:
        raise NoExplicitFormError(
            f"the storage(s) {', '.join(nonlinear)} are fixed by the sources and nonlinear: "
            "their state would be the inverse of their energy law at the input; give them a "
            "linear value (c: or i:) or put a resistor between them and the sources")
    if lm.exact and sp.Matrix(F).free_symbols & {state_symbol(s) for s in lm.states}:
        raise NoExplicitFormError(
            f"the storage(s) {', '.join(lm.dependent)} are fixed by the sources through a "
            "modulated element (its gain depends on the state), so their rate would involve "
            "the rates of other states; put a resistor or storage between them and the "
            "sources")


def _compliance(lm: LinearMap, fixed: Sequence[str]) -> Any:
    """The block of the fixed states in the compliance/inertia matrix (block diagonal
    by element: an element is fixed as a whole)."""
    idx = {s: i for i, s in enumerate(fixed)}
    m = sp.zeros(len(fixed), len(fixed))
    for el in lm.graph.storages():
        if el.states[0] not in idx:
            continue
        c = compliance(el)
        for k, s in enumerate(el.states):
            for k2, s2 in enumerate(el.states):
                m[idx[s], idx[s2]] = c[k, k2]
    return m if lm.exact else np.array(m.tolist(), dtype=float)


def _kept_energy(H: HamiltonianData, lm: LinearMap, fixed: Sequence[str],
                 kept: Sequence[str]) -> HamiltonianData:
    """The energy of the integral storages: the fixed ones' terms removed (each storage
    contributes a term in its own states only, so setting them to zero removes it)."""
    if H.Q is not None:
        pos = {s: i for i, s in enumerate(lm.states)}
        a = [pos[s] for s in kept]
        return HamiltonianData(None, H.Q.tocsr()[a, :][:, a])
    return HamiltonianData(H.expr.xreplace({state_symbol(s): 0 for s in fixed}), None)


def _phs(bg: Any, mats: dict[str, Any], H: HamiltonianData, names: dict[str, Any]) -> PHS:
    """The model, numeric (dense up to :data:`SPARSE_ABOVE` states) or symbolic, as
    :func:`.linear_map.explicit_phs` builds it, with the extended port names."""
    if H.Q is not None:
        if len(names["states"]) <= SPARSE_ABOVE:
            mats = {k: A.toarray() for k, A in mats.items()}
            Q = H.Q.toarray()
        else:
            mats = {k: A.tocsr() for k, A in mats.items()}
            Q = H.Q
        return PHS(**mats, Q=Q, **names)
    if not isinstance(mats["J"], sp.MatrixBase):
        mats = {k: sp.Matrix(A.toarray()) for k, A in mats.items()}
    return PHS(**mats, hamiltonian=H.expr, parameters=dict(bg.parameters), **names)


def _rate_ports(bg: Any, doms: Any, bases: list[str], rates: list[str]
                ) -> tuple[list[str], dict[str, Quantity]]:
    """Output names and quantities of the derivative ports: the input is the rate of
    the source's value, the output the state quantity the source feeds (a flux linkage
    behind a current source, a charge behind a voltage source)."""
    kind = {p: (el.kind, doms.of(el.name)) for el in bg.sources()
            for p in ([el.name] if el.dim == 1 else [f"{el.name}[{k}]" for k in range(el.dim)])}
    outputs, ports = [], {}
    for base, rate in zip(bases, rates, strict=True):
        k, dom = kind[base]
        uq = dom.effort if k == "Se" else dom.flow
        yq = dom.displacement if k == "Se" else dom.momentum
        unit = f"({uq.unit})/s" if "/" in uq.unit or "*" in uq.unit else (
            f"{uq.unit}/s" if uq.unit else "1/s")
        ports[rate] = Quantity(f"rate of {uq.kind}", unit, f"d{uq.symbol}")
        out = source_output(rate, yq)
        outputs.append(out)
        ports[out] = Quantity(f"{yq.kind} (minus, of the fixed storages)", yq.unit, yq.symbol)
    return outputs, ports


def _fixed_quantities(q: Quantities, bg: Any, fixed: Sequence[str], xf: sp.Matrix,
                      zf: sp.Matrix, n_kept: int) -> Quantities:
    """Observables of the fixed storages, in the inputs: state, co-energy and energy."""
    if not fixed or n_kept > OBSERVE_UP_TO:
        return q
    info = graph_quantities(bg).states
    extra: list[Observable] = []
    for j, s in enumerate(fixed):
        extra += removed_storage(s, info[s], sp.expand(xf[j]), sp.expand(zf[j]),
                                 "fixed by the sources")
    energy = sp.expand((xf.T * zf)[0, 0] / 2)
    extra.append(Observable("H_fixed", Quantity("energy", "J", "H"), expr=energy,
                            description="energy of the storages fixed by the sources ("
                            f"{listing(list(fixed), 8, empty='')}), a function of the inputs"))
    return q.with_observables(extra)
