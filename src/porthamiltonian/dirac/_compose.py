"""Interconnection of Dirac structures: composition, direct sum, tensor product.

Composition (Cervera, van der Schaft & Baños, *Interconnection of port-Hamiltonian
systems and composition of Dirac structures*, Automatica 43 (2007) 212–225):
structures ``D_A`` on ports ``(a, c_A)`` and ``D_B`` on ``(b, c_B)`` are joined by
``e_{c_A} = e_{c_B}`` and ``f_{c_A} = −f_{c_B}`` (what leaves one enters the other).
With ``z = (f_{c_A}, e_{c_A})`` the stacked kernel representation reads
``M_ext x + M_int z = 0``, ``x`` the variables of the remaining ports, and the
composition is its projection on ``x`` (computed by :func:`._linalg.eliminate`).
The composition of Dirac structures is again Dirac (loc. cit., Thm. 1).
"""

from __future__ import annotations

import heapq
import itertools
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import Any

import numpy as np

from .. import naming
from ..errors import ModelError, StructureError
from . import _linalg as la
from ._linalg import SPARSE_THRESHOLD, Kind
from ._protocol import DiracT


@dataclass
class _Node:
    F: Any
    E: Any
    ids: list[int]  # global ids of the columns
    kind: Kind


def _promote(node: _Node, kind: Kind) -> _Node:
    if node.kind == kind:
        return node
    return _Node(la.as_kind(node.F, kind), la.as_kind(node.E, kind), node.ids, kind)


def _merge_kind(a: Kind, b: Kind, n_total: int) -> Kind:
    kind = la.common_kind(a, b)
    if kind == "dense" and n_total > SPARSE_THRESHOLD:
        return "sparse"
    return kind


def _sum_nodes(a: _Node, b: _Node) -> _Node:
    kind = _merge_kind(a.kind, b.kind, len(a.ids) + len(b.ids))
    a, b = _promote(a, kind), _promote(b, kind)
    return _Node(la.block_diag(a.F, b.F, kind), la.block_diag(a.E, b.E, kind),
                 a.ids + b.ids, kind)


def _interconnect(node: _Node, pairs: Sequence[tuple[int, int]], rtol: float) -> _Node:
    """Join columns ``p`` and ``q`` of each pair (``e_p = e_q``, ``f_p = −f_q``)."""
    if not pairs:
        return node
    kind = node.kind
    F, E = node.F, node.E
    if kind == "sparse":
        F, E = F.tocsc(), E.tocsc()
    P = [p for p, _ in pairs]
    Q = [q for _, q in pairs]
    joined = set(P) | set(Q)
    keep = [c for c in range(len(node.ids)) if c not in joined]
    M_int = la.hstack([la.cols(F, P, kind) - la.cols(F, Q, kind),
                       la.cols(E, P, kind) + la.cols(E, Q, kind)], kind)
    M_ext = la.hstack([la.cols(F, keep, kind), la.cols(E, keep, kind)], kind)
    R = la.eliminate(M_ext, M_int, kind, rtol)
    nk = len(keep)
    if kind == "dense":
        Fn, En = _dense_result(np.asarray(R), nk, rtol)
    else:
        Fn = la.cols(R, range(nk), kind)
        En = la.cols(R, range(nk, 2 * nk), kind)
    return _Node(Fn, En, [node.ids[c] for c in keep], kind)


def _dense_result(R: np.ndarray, n: int, rtol: float) -> tuple[np.ndarray, np.ndarray]:
    """Orthonormal rows, then (when the result has ``n`` rows, i.e. is Dirac up to
    round-off) the projection :func:`._linalg.nearest_dirac`."""
    R = la.row_basis(R, rtol)
    F, E = R[:, :n], R[:, n:]
    projected = la.nearest_dirac(F, E)
    return projected if projected is not None else (F, E)


def _node(d: DiracT, offset: int) -> _Node:
    return _Node(d.F, d.E, list(range(offset, offset + d.n)), d.kind)


def _check_unique(names: Sequence[str], what: str) -> None:
    seen: dict[str, int] = {}
    for name in names:
        seen[name] = seen.get(name, 0) + 1
    dup = [n for n, c in seen.items() if c > 1]
    if dup:
        first = dup[0]
        raise ModelError(
            f"{what} would have {len(dup)} port name{'s' if len(dup) > 1 else ''} twice "
            f"({', '.join(dup)}); rename the ports of one structure first, e.g. "
            f".rename({{{first!r}: {first + '_2'!r}}})"
        )


def direct_sum(d1: DiracT, d2: DiracT) -> DiracT:
    """``D₁ ⊕ D₂``: block-diagonal ``F`` and ``E``, ports of ``d1`` then ``d2``."""
    names = list(d1.ports) + list(d2.ports)
    _check_unique(names, "the direct sum")
    kind = la.common_kind(d1.kind, d2.kind)
    node = _sum_nodes(_promote(_node(d1, 0), kind), _promote(_node(d2, d1.n), kind))
    if node.kind == "sparse" and kind == "dense":
        node = _promote(node, "dense")
    return type(d1)._make(node.F, node.E, names, node.kind)


def _resolve(sel: str, d: DiracT, which: str) -> list[int]:
    try:
        return naming.resolve(sel, d.ports, "port")
    except ModelError as exc:
        raise ModelError(f"{which} structure: {exc}") from None


def compose(d1: DiracT, d2: DiracT, connect: Iterable[tuple[str, str]],
            rtol: float) -> DiracT:
    """Composition ``D₁ ∘ D₂`` along ``connect = [(port of d1, port of d2), …]``."""
    pairs: list[tuple[int, int]] = []
    for item in connect:
        try:
            here, there = item
        except (TypeError, ValueError):
            raise ModelError(
                f"connect entry {item!r} is not a pair (port_here, port_there)"
            ) from None
        ph = _resolve(here, d1, "first")
        pt = _resolve(there, d2, "second")
        if len(ph) != len(pt):
            raise ModelError(
                f"cannot connect {here!r} ({len(ph)} scalar ports) to {there!r} "
                f"({len(pt)} scalar ports); dimensions must agree"
            )
        pairs += [(i, d1.n + j) for i, j in zip(ph, pt, strict=True)]
    used: set[int] = set()
    names = list(d1.ports) + list(d2.ports)
    for i, j in pairs:
        for c in (i, j):
            if c in used:
                raise ModelError(
                    f"port {names[c]!r} is connected twice; a port joins exactly one other "
                    "(use a 0- or 1-junction to join more)"
                )
            used.add(c)
    remaining = [names[c] for c in range(len(names)) if c not in used]
    _check_unique(remaining, "the composition")
    node = _sum_nodes(_node(d1, 0), _node(d2, d1.n))
    out = _interconnect(node, pairs, rtol)
    return type(d1)._make(out.F, out.E, [names[c] for c in out.ids], out.kind)


def compose_many(cls: type[DiracT], structures: Sequence[DiracT],
                 connect: Iterable[tuple[Any, Any]], rtol: float) -> DiracT:
    """Interconnect ``structures`` along ``connect`` by greedy pairwise elimination.

    The interconnection graph (a node per structure, an edge per connected pair of
    structures) is contracted edge by edge, always the edge whose merged structure
    has the fewest ports (a min-size elimination ordering, as in sparse Gaussian
    elimination); each contraction is a small :func:`compose`.  Disconnected parts
    are joined by direct sum at the end.  Ports keep their global order.
    """
    structures = list(structures)
    if not structures:
        raise ModelError("compose_many needs at least one structure")
    offsets = list(itertools.accumulate([0] + [d.n for d in structures]))
    names: list[str] = [p for d in structures for p in d.ports]

    # name (scalar or base name) -> list of (structure index, positions)
    index: dict[str, list[tuple[int, list[int]]]] = {}
    for idx, d in enumerate(structures):
        for pos, p in enumerate(d.ports):
            index.setdefault(p, []).append((idx, [pos]))
        for base, positions in naming.group(d.ports).items():
            if base not in d.ports and naming.split_index(d.ports[positions[0]])[1] is not None:
                index.setdefault(base, []).append((idx, positions))

    def endpoint(ep: Any) -> list[int]:
        if isinstance(ep, tuple) and len(ep) == 2 and isinstance(ep[0], int):
            idx, sel = ep
            if not 0 <= idx < len(structures):
                raise ModelError(f"connect: structure index {idx} out of range")
            return [offsets[idx] + i for i in _resolve(sel, structures[idx], f"#{idx}")]
        hits = index.get(ep, []) if isinstance(ep, str) else []
        if not hits:
            raise ModelError(f"connect: no structure has a port {ep!r}")
        if len(hits) > 1:
            which = ", ".join(str(i) for i, _ in hits)
            raise ModelError(
                f"connect: port {ep!r} exists in structures {which}; write (index, {ep!r})"
            )
        idx, pos = hits[0]
        return [offsets[idx] + i for i in pos]

    pairs: list[tuple[int, int]] = []
    for item in connect:
        a, b = item
        pa, pb = endpoint(a), endpoint(b)
        if len(pa) != len(pb):
            raise ModelError(f"cannot connect {a!r} to {b!r}: dimensions differ")
        pairs += list(zip(pa, pb, strict=True))
    used: set[int] = set()
    for i, j in pairs:
        for c in (i, j):
            if c in used:
                raise ModelError(f"port {names[c]!r} is connected twice")
            used.add(c)
    remaining = [names[c] for c in range(len(names)) if c not in used]
    _check_unique(remaining, "the composition")

    kind0: Kind = "symbolic" if any(d.symbolic for d in structures) else "dense"
    nodes: dict[int, _Node] = {}
    owner: dict[int, int] = {}
    for s, d in enumerate(structures):
        node = _node(d, offsets[s])
        if kind0 == "symbolic":
            node = _promote(node, "symbolic")
        nodes[s] = node
        for g in node.ids:
            owner[g] = s
    adj: dict[int, dict[int, list[tuple[int, int]]]] = {s: {} for s in nodes}
    self_loops: dict[int, list[tuple[int, int]]] = {}
    for i, j in pairs:
        u, v = owner[i], owner[j]
        if u == v:
            self_loops.setdefault(u, []).append((i, j))
        else:
            adj[u].setdefault(v, [])
            adj[v].setdefault(u, adj[u][v])
            adj[u][v].append((i, j))

    def local(node: _Node, gpairs: list[tuple[int, int]]) -> list[tuple[int, int]]:
        pos = {g: c for c, g in enumerate(node.ids)}
        return [(pos[i], pos[j]) for i, j in gpairs]

    for u, gp in self_loops.items():
        nodes[u] = _interconnect(nodes[u], local(nodes[u], gp), rtol)

    def cost(u: int, v: int) -> int:
        return len(nodes[u].ids) + len(nodes[v].ids) - 2 * len(adj[u][v])

    counter = itertools.count()
    heap: list[tuple[int, int, int, int]] = []
    for u in adj:
        for v in adj[u]:
            if u < v:
                heap.append((cost(u, v), next(counter), u, v))
    heapq.heapify(heap)
    next_id = len(structures)
    while heap:
        c, _, u, v = heapq.heappop(heap)
        if u not in nodes or v not in nodes:
            continue
        current = cost(u, v)
        if current != c:
            heapq.heappush(heap, (current, next(counter), u, v))
            continue
        merged = _sum_nodes(nodes[u], nodes[v])
        merged = _interconnect(merged, local(merged, adj[u][v]), rtol)
        w = next_id
        next_id += 1
        nodes[w] = merged
        adj[w] = {}
        for x in set(adj[u]) | set(adj[v]):
            if x in (u, v):
                continue
            edge = adj[u].get(x, []) + adj[v].get(x, [])
            adj[w][x] = edge
            adj[x][w] = edge
            adj[x].pop(u, None)
            adj[x].pop(v, None)
        for gone in (u, v):
            del nodes[gone]
            del adj[gone]
        for x in adj[w]:
            heapq.heappush(heap, (cost(w, x), next(counter), w, x))

    rest = sorted(nodes.values(), key=lambda nd: min(nd.ids, default=-1))
    total = rest[0]
    for nd in rest[1:]:
        total = _sum_nodes(total, nd)
    order = sorted(range(len(total.ids)), key=lambda c: total.ids[c])
    F = la.cols(total.F, order, total.kind)
    E = la.cols(total.E, order, total.kind)
    return cls._make(F, E, [names[total.ids[c]] for c in order], total.kind)


def tensor(d1: DiracT, d2: DiracT, rtol: float) -> DiracT:
    r"""``D₁ ⊠ D₂``: eliminate ``e₂`` from ``F₁ f + E₁ (e − e₂) = 0``, ``F₂ f + E₂ e₂ = 0``."""
    if set(d1.ports) != set(d2.ports):
        only1 = sorted(set(d1.ports) - set(d2.ports))
        only2 = sorted(set(d2.ports) - set(d1.ports))
        raise ModelError(
            "the tensor product needs two structures on the same ports; only in the first: "
            f"{', '.join(only1) or '-'}; only in the second: {', '.join(only2) or '-'} "
            "(use .rename({...}) to match them)"
        )
    d2 = d2.reorder(d1.ports)
    kind = la.common_kind(d1.kind, d2.kind)
    n = d1.n
    F1, E1 = la.as_kind(d1.F, kind), la.as_kind(d1.E, kind)
    F2, E2 = la.as_kind(d2.F, kind), la.as_kind(d2.E, kind)
    Z = la.zeros(F2.shape[0], n, kind)
    M_ext = la.vstack([la.hstack([F1, E1], kind), la.hstack([F2, Z], kind)], kind)
    M_int = la.vstack([-E1, E2], kind)
    R = la.eliminate(M_ext, M_int, kind, rtol)
    if kind == "dense":
        F, E = _dense_result(np.asarray(R), n, rtol)
    else:
        F = la.cols(R, range(n), kind)
        E = la.cols(R, range(n, 2 * n), kind)
    out = type(d1)._make(F, E, d1.ports, kind)
    problems = out._problems(None)
    if problems:
        raise StructureError(
            "the tensor product is not a Dirac structure (the flow projections of the two "
            "structures do not intersect cleanly): " + "; ".join(problems),
            problems=problems,
        )
    return out
