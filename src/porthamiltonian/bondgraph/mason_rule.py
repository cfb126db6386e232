r"""Mason's gain formula on the signal-flow graph of a bond graph.

Mason (1953, 1956); for bond graphs Breedveld, Appendix A.2 of Duindam et al.,
*Modeling and Control of Complex Physical Systems* (Springer, 2009).  For the
signal-flow graph :math:`G` of :func:`~.signal_flow.block_diagram`, the transfer
function from a source node :math:`u` to any node :math:`y` is

.. math::
    T(s) = \frac{y}{u} = \frac{1}{\Delta}\sum_k P_k \Delta_k, \qquad
    \Delta = 1 - \sum_i L_i + \sum_{i<j} L_i L_j - \sum_{i<j<l} L_i L_j L_l + \dots

where :math:`P_k` is the gain of the k-th forward path (a simple path from :math:`u` to
:math:`y`, the product of its edge gains), :math:`L_i` the gain of the i-th loop (a
simple cycle), the products run over sets of pairwise *non-touching* loops (no common
node), and :math:`\Delta_k` is :math:`\Delta` of the loops that do not touch path
:math:`k`.  The gain of a causal path (Breedveld's transmission along a causal path
through junctions, TF and GY) is :func:`path_gain`.

Cost.  The number of loops and of their non-touching combinations can grow
exponentially with the size of the graph (a ladder of n sections has about 2ⁿ
loops): above :data:`MAX_LOOPS` loops or :data:`MAX_TERMS` terms of Δ the formula is
refused with a :class:`~porthamiltonian.ModelError` that points to the transfer
function of the generated PHS, which is polynomial.  Loops are enumerated with
:func:`networkx.simple_cycles` (Johnson's algorithm).
"""

from __future__ import annotations

from collections.abc import Sequence

import networkx as nx
import sympy as sp

from ..errors import ModelError
from .graph import BondGraph
from .signal_flow import _endpoints, block_diagram

__all__ = ["mason", "forward_paths", "loops", "path_gain", "MAX_LOOPS", "MAX_TERMS"]

#: Most loops Mason's rule enumerates before it refuses.
MAX_LOOPS = 200
#: Most products of non-touching loops in Δ and the Δₖ together.
MAX_TERMS = 20_000


def path_gain(g: nx.DiGraph, path: Sequence[str]) -> sp.Expr:
    """The product of the edge gains along ``path`` (a list of nodes).

    Along a causal path through junctions, TF and GY this is Breedveld's transmission
    (± the ratios); through a storage it carries its ``1/s`` or ``s``.  A missing edge
    is a :class:`ModelError` naming it.
    """
    gain = sp.Integer(1)
    for a, b in zip(path[:-1], path[1:], strict=True):
        if not g.has_edge(a, b):
            raise ModelError(f"no signal {a} → {b} in the signal-flow graph of "
                             f"{g.graph.get('name')!r}: the path is not causal")
        gain *= g.edges[a, b]["gain"]
    return gain


def forward_paths(g: nx.DiGraph, source: str, target: str) -> list[list[str]]:
    """Every simple path from node ``source`` to node ``target``."""
    if source == target:
        return [[source]]
    return [list(p) for p in nx.all_simple_paths(g, source, target)]


def loops(g: nx.DiGraph, limit: int = MAX_LOOPS) -> list[list[str]]:
    """Every simple cycle of ``g`` (the loops); :class:`ModelError` above ``limit``."""
    found: list[list[str]] = []
    for cycle in nx.simple_cycles(g):
        found.append(cycle)
        if len(found) > limit:
            raise ModelError(
                f"{g.graph.get('name')!r}: the signal-flow graph has more than {limit} "
                "loops, too many for Mason's rule (its cost grows exponentially); use "
                "porthamiltonian.analysis.transfer_function(to_phs(bg), symbolic=True)")
    return found


def mason(graph: BondGraph | nx.DiGraph, input: str, output: str) -> sp.Expr:  # noqa: A002
    """The transfer function ``output(s) / input(s)`` by Mason's gain formula.

    Parameters
    ----------
    graph:
        A bond graph (its :func:`~.signal_flow.block_diagram` is built) or a
        signal-flow graph.
    input:
        A source element's name (``"V"``); the other sources are held at zero.
    output:
        Any signal: a PHS output name (``"V.i"``), a co-energy (``"La.i"``,
        ``"kr.tau"``), a state (``"La"``), a one-port's ``"C1.e"`` / ``"L1.f"`` or
        a bond variable ``"b3.e"``.

    Returns
    -------
    sympy.Expr
        A rational function of :data:`~.signal_flow.S`, cancelled (no common factor), in
        the parameters' symbols — equal to the PHS's
        ``transfer_function(to_phs(bg), input, output, symbolic=True)``.

    Raises
    ------
    ModelError
        Unknown input or output name (listing the known ones), a non-LTI graph
        (naming the element), or too many loops (:data:`MAX_LOOPS`, :data:`MAX_TERMS`).
    """
    g = block_diagram(graph) if isinstance(graph, BondGraph) else graph
    u, y = _endpoints(g, input, output)
    paths = forward_paths(g, u, y)
    if not paths:
        return sp.Integer(0)
    cycles = loops(g)
    index = {n: k for k, n in enumerate(g.nodes)}

    def mask(nodes: Sequence[str]) -> int:
        m = 0
        for n in nodes:
            m |= 1 << index[n]
        return m

    gains = [(mask(c), path_gain(g, [*c, c[0]])) for c in cycles]
    budget = [MAX_TERMS]
    delta = _cofactor(gains, 0, budget, g)
    total = sp.Add(*[path_gain(g, p) * _cofactor(gains, mask(p), budget, g) for p in paths])
    return sp.cancel(sp.together(total / delta))


def _cofactor(gains: list[tuple[int, sp.Expr]], touched: int, budget: list[int],
              g: nx.DiGraph) -> sp.Expr:
    """Δ of the loops not touching the node mask ``touched``: the alternating sum over
    sets of pairwise non-touching loops of the products of their gains."""
    free = [(m, L) for m, L in gains if not m & touched]
    terms: list[sp.Expr] = [sp.Integer(1)]

    def extend(start: int, used: int, product: sp.Expr, sign: int) -> None:
        for k in range(start, len(free)):
            m, L = free[k]
            if m & used:
                continue
            budget[0] -= 1
            if budget[0] < 0:
                raise ModelError(
                    f"{g.graph.get('name')!r}: Mason's determinant has more than "
                    f"{MAX_TERMS} products of non-touching loops; use "
                    "porthamiltonian.analysis.transfer_function(to_phs(bg), symbolic=True)")
            terms.append(-sign * product * L)
            extend(k + 1, used | m, product * L, -sign)

    extend(0, 0, sp.Integer(1), 1)
    return sp.Add(*terms)
