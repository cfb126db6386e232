r"""Power-conserving interconnection of port-Hamiltonian systems.

Feedback interconnection (van der Schaft & Jeltsema 2014, §4.1; Duindam et al. 2009,
§2.4): on the paired ports

.. math::  u_1 = -y_2, \qquad u_2 = y_1,

so that :math:`u_1^\top y_1 + u_2^\top y_2 = 0`: no power is created or lost in the
connection.  Writing each system as
:math:`[\dot x_i; -y_i] = (\mathcal J_i - \mathcal R_i)[z_i; u_i]` and eliminating
the paired port variables :math:`v = [u_{1c}; u_{2c}]` from
:math:`[-y_{1c}; -y_{2c}] = \Gamma v`, :math:`\Gamma = \begin{bmatrix}0&-I\\I&0\end{bmatrix}`,
gives for the remaining variables :math:`a = [z_1; z_2; u_{1e}; u_{2e}]`

.. math::
    T' = T_{aa} + T_{av}\,(\Gamma - T_{vv})^{-1}\, T_{va},\qquad T = \mathcal J - \mathcal R,

whose skew part is the closed-loop :math:`\mathcal J'` and whose negated symmetric
part is the closed-loop :math:`\mathcal R' \succeq 0`.  Without feed-through on the
paired ports, :math:`\mathcal R'` is the block diagonal of the two dissipations: the
interconnection adds no dissipation.  The Hamiltonian is :math:`H_1 + H_2`.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import scipy.sparse as sps
import sympy as sp

from . import _matrices as mx
from .errors import ModelError
from .naming import resolve
from .phs import PHS
from .quantities import Quantities


def _port_positions(sys: PHS, selector: str, which: str) -> list[int]:
    """Input positions of a port, designated by its input or its output name."""
    if selector in sys.inputs or any(n.startswith(selector + "[") for n in sys.inputs):
        return resolve(selector, sys.inputs, f"port of {which}")
    if selector in sys.outputs or any(n.startswith(selector + "[") for n in sys.outputs):
        return resolve(selector, sys.outputs, f"port of {which}")
    ports = ", ".join(sys.inputs) or "(none)"
    raise ModelError(
        f"{which} has no port {selector!r}; its ports (input names) are: {ports}"
    )


def feedback(sys1: PHS, sys2: PHS, pairs: Sequence[tuple[str, str]]) -> PHS:
    """Power-conserving feedback interconnection ``u1 = −y2``, ``u2 = y1`` on paired ports.

    Parameters
    ----------
    sys1, sys2 : PHS
        The systems.  Their state names must be distinct (use :meth:`PHS.rename`).
    pairs : list of (port of sys1, port of sys2)
        A port is designated by its input name or its output name; a multi-dimensional
        port by its base name (``"w"`` for ``w[0]``, ``w[1]``, …), which pairs all its
        components in order.

    Returns
    -------
    PHS
        States ``sys1.states + sys2.states``, Hamiltonian ``H1 + H2``, and the
        unpaired ports of ``sys1`` then of ``sys2``.

    Raises
    ------
    ModelError
        A port that does not exist, a port used twice, clashing names, mismatched
        dimensions, or feed-through on the paired ports that makes the loop
        equations singular (an ill-posed algebraic loop).
    """
    idx1: list[int] = []
    idx2: list[int] = []
    for a, b in pairs:
        p1 = _port_positions(sys1, a, "the first system")
        p2 = _port_positions(sys2, b, "the second system")
        if len(p1) != len(p2):
            raise ModelError(
                f"cannot pair port {a!r} (dimension {len(p1)}) with {b!r} (dimension {len(p2)})"
            )
        for i, j in zip(p1, p2, strict=True):
            if i in idx1 or j in idx2:
                port = a if i in idx1 else b
                raise ModelError(f"port {port!r} is paired twice; each port takes one connection")
            idx1.append(i)
            idx2.append(j)
    clash = set(sys1.states) & set(sys2.states)
    if clash:
        raise ModelError(
            f"both systems have the state(s) {', '.join(sorted(clash))}; rename one system's "
            "states first, e.g. sys2.rename(prefix='b.')"
        )
    ext1 = [k for k in range(sys1.n_inputs) if k not in idx1]
    ext2 = [k for k in range(sys2.n_inputs) if k not in idx2]
    inputs = [sys1.inputs[k] for k in ext1] + [sys2.inputs[k] for k in ext2]
    outputs = [sys1.outputs[k] for k in ext1] + [sys2.outputs[k] for k in ext2]
    _check_unique(inputs, "input")
    _check_unique(outputs, "output")

    kind = _common_kind(sys1, sys2)
    n1, n2 = sys1.n_states, sys2.n_states
    m1 = sys1.n_inputs
    T = _block_diag([_as_kind(_T(s), kind) for s in (sys1, sys2)], kind)
    # positions in the stacked variable [z1; u1; z2; u2]
    z = list(range(n1)) + [n1 + m1 + k for k in range(n2)]
    a = z + [n1 + k for k in ext1] + [n1 + m1 + n2 + k for k in ext2]
    v = [n1 + k for k in idx1] + [n1 + m1 + n2 + k for k in idx2]
    c = len(idx1)
    Taa, Tav, Tva, Tvv = (_sub(T, r, s, kind) for r, s in ((a, a), (a, v), (v, a), (v, v)))
    Gamma = _gamma(c, kind)
    loop = Gamma - Tvv
    try:
        X = _solve(loop, Tva, kind)
    except _Singular:
        names = ", ".join(f"{pa}–{pb}" for pa, pb in pairs)
        raise ModelError(
            f"the interconnection of ports {names} is ill-posed: the feed-through (M + S) of "
            "the paired ports makes the loop equations singular; pair other ports or remove "
            "the direct feed-through"
        ) from None
    Tcl = Taa + Tav @ X if kind != "symbolic" else Taa + Tav * X
    if kind == "symbolic":
        Tcl = Tcl.applyfunc(sp.cancel)
    return _from_T(Tcl, n1 + n2, sys1, sys2, inputs, outputs, kind)


def _T(sys: PHS) -> Any:
    """``𝒥 − ℛ`` of ``[ẋ; −y] = (𝒥 − ℛ)[∇H; u]``."""
    Jf, Rf = sys.full_matrices()
    return Jf - Rf


def _common_kind(*systems: PHS) -> str:
    kinds = {s.kind for s in systems}
    if "symbolic" in kinds:
        return "symbolic"
    return "sparse" if "sparse" in kinds else "dense"


def _zeros(r: int, c: int, kind: str) -> Any:
    if kind == "symbolic":
        return sp.ImmutableMatrix.zeros(r, c)
    if kind == "sparse":
        return sps.csr_array((r, c))
    return np.zeros((r, c))


def _sub(T: Any, rows: list[int], cols: list[int], kind: str) -> Any:
    if kind == "symbolic":
        return T.extract(rows, cols)
    if kind == "sparse":
        return sps.csr_array(T[rows][:, cols]) if rows and cols else sps.csr_array(
            (len(rows), len(cols))
        )
    return T[np.ix_(rows, cols)]


def _gamma(c: int, kind: str) -> Any:
    """Γ with [−y1c; −y2c] = Γ [u1c; u2c] under u1c = −y2c, u2c = y1c."""
    Z, eye = np.zeros((c, c)), np.eye(c)
    G = np.block([[Z, -eye], [eye, Z]]) if c else np.zeros((0, 0))
    if kind == "symbolic":
        return sp.ImmutableMatrix(G.astype(int))
    if kind == "sparse":
        return sps.csr_array(G)
    return G


class _Singular(Exception):
    pass


def _solve(L: Any, B: Any, kind: str) -> Any:
    if L.shape[0] == 0:
        return _zeros(0, B.shape[1], kind)
    if kind == "symbolic":
        if sp.simplify(L.det()) == 0:
            raise _Singular
        return L.inv() * B
    Ld = mx.to_dense(L)
    if np.linalg.cond(Ld) > 1e12:
        raise _Singular
    X = np.linalg.solve(Ld, mx.to_dense(B))
    return sps.csr_array(X) if kind == "sparse" else X


def _from_T(
    T: Any, n: int, sys1: PHS, sys2: PHS, inputs: list[str], outputs: list[str], kind: str
) -> PHS:
    """Split ``T = 𝒥 − ℛ`` (on [z; u]) back into J, R, G, P, M, S."""
    Jf = (T - T.T) / 2
    Rf = -(T + T.T) / 2
    N = T.shape[0]
    xs, us = list(range(n)), list(range(n, N))

    def part(A: Any, r: list[int], c: list[int]) -> Any:
        return _sub(A, r, c, kind)

    mats = {
        "J": part(Jf, xs, xs),
        "G": part(Jf, xs, us),
        "M": -part(Jf, us, us),
        "R": part(Rf, xs, xs),
        "P": part(Rf, xs, us),
        "S": part(Rf, us, us),
    }
    params = {**sys1.parameters, **sys2.parameters}
    states = list(sys1.states) + list(sys2.states)
    name = f"{sys1.name or 'sys1'}*{sys2.name or 'sys2'}"
    quantities = _joined_quantities((sys1, sys2), inputs + outputs)
    if kind == "symbolic":
        H = sys1.hamiltonian + sys2.hamiltonian
        return PHS(**mats, hamiltonian=H, states=states, inputs=inputs, outputs=outputs,
                   parameters=params, name=name, quantities=quantities)
    Q = _block_diag([_as_kind(s.Q, kind) for s in (sys1, sys2)], kind)
    return PHS(**mats, Q=Q, states=states, inputs=inputs, outputs=outputs, name=name,
               quantities=quantities)


def _joined_quantities(systems: Sequence[PHS], ports: list[str]) -> Quantities | None:
    """The systems' annotations together, without the ports closed by the connection."""
    q = Quantities.merge(s.quantities for s in systems)
    return q.restrict(q.states, ports) if q is not None else None


def _check_unique(names: list[str], what: str) -> None:
    seen = set()
    for nm in names:
        if nm in seen:
            raise ModelError(
                f"after the interconnection two {what}s are named {nm!r}; rename one system's "
                f"ports first (PHS.rename(inputs=..., outputs=...))"
            )
        seen.add(nm)


def parallel(*systems: PHS) -> PHS:
    """Side-by-side collection of systems (no connection): block-diagonal PHS.

    Assembled in one pass (``O(total size)``), so thousands of element systems are cheap.
    """
    if not systems:
        raise ModelError("parallel() needs at least one system")
    if len(systems) == 1:
        return systems[0]
    states = [s for sys in systems for s in sys.states]
    inputs = [s for sys in systems for s in sys.inputs]
    outputs = [s for sys in systems for s in sys.outputs]
    for names, what in ((states, "state"), (inputs, "input"), (outputs, "output")):
        _check_unique(names, what)
    kind = _common_kind(*systems)
    mats = {}
    for k in ("J", "R", "G", "P", "M", "S"):
        blocks = [_as_kind(getattr(sys, k), kind) for sys in systems]
        mats[k] = _block_diag(blocks, kind)
    params = {k: v for sys in systems for k, v in sys.parameters.items()}
    name = "+".join(sys.name or "sys" for sys in systems[:3]) + ("…" if len(systems) > 3 else "")
    quantities = Quantities.merge(sys.quantities for sys in systems)
    if kind == "symbolic":
        H = sp.Add(*[sys.hamiltonian for sys in systems])
        return PHS(**mats, hamiltonian=H, states=states, inputs=inputs, outputs=outputs,
                   parameters=params, name=name, check=False, quantities=quantities)
    Q = _block_diag([_as_kind(sys.Q, kind) for sys in systems], kind)
    return PHS(**mats, Q=Q, states=states, inputs=inputs, outputs=outputs, name=name,
               check=False, quantities=quantities)


def _as_kind(A: Any, kind: str) -> Any:
    if kind == "symbolic":
        return A if isinstance(A, sp.MatrixBase) else sp.ImmutableMatrix(mx.to_dense(A))
    if kind == "sparse":
        return sps.csr_array(A)
    return mx.to_dense(A)


def _block_diag(blocks: list[Any], kind: str) -> Any:
    if kind == "symbolic":
        return sp.ImmutableMatrix(sp.diag(*[sp.Matrix(b) for b in blocks], strict=True))
    if kind == "sparse":
        return sps.csr_array(sps.block_diag(blocks, format="csr"))
    import scipy.linalg as sla

    return sla.block_diag(*blocks) if blocks else np.zeros((0, 0))


def interconnect(
    dirac: Any,
    systems: PHS | Sequence[PHS],
    connect: Sequence[tuple[str, str] | tuple[str, str, str]],
    free_inputs: dict[str, str] | None = None,
) -> PHS:
    r"""Interconnect systems through a Dirac structure.

    Parameters
    ----------
    dirac : DiracStructure
        The interconnection structure; power :math:`e^\top f` counted into it.
    systems : PHS or list of PHS
        Their port names must be distinct (they are collected with :func:`parallel`).
    connect : list of ``(system port, dirac port[, kind])``
        Joins a port :math:`(u_p, y_p)` of a system to a port :math:`(f, e)` of the
        structure.  With ``kind = "effort"`` (default) the system's output drives the
        structure's effort: :math:`e = y_p`, :math:`f = -u_p`; with ``"flow"``:
        :math:`f = y_p`, :math:`e = -u_p`.  Either way :math:`e f = -u_p y_p`: the
        power leaving the system enters the structure.
    free_inputs : dict, optional
        ``{dirac port: "effort" | "flow"}`` for the unconnected ports of the
        structure (they become the ports of the result); chosen automatically when
        omitted (efforts preferred).

    Returns
    -------
    PHS
        With the systems' states and :math:`H = \sum H_i`; its ports are the
        unconnected ports of the systems, then the free ports of the structure (input
        named after the port, output ``y_<port>``).  ``result.port_kinds`` says
        whether each free port's input is its effort or its flow.

    Raises
    ------
    CausalityError
        When the structure cannot take the systems' outputs as inputs (e.g. two
        capacitors imposing their voltages on one 0-junction: dependent storages).
    """
    from .dirac import DiracStructure

    if not isinstance(dirac, DiracStructure):
        raise ModelError("interconnect() needs a DiracStructure as its first argument")
    if isinstance(systems, (list, tuple)) and not systems:
        plant = None  # the structure alone: a stateless, lossless PHS
    else:
        plant = parallel(*systems) if isinstance(systems, (list, tuple)) else systems
    kinds: dict[str, str] = dict(free_inputs or {})
    pairs: list[tuple[str, str]] = []
    for entry in connect:
        sys_port, d_port = entry[0], entry[1]
        kind = entry[2] if len(entry) > 2 else "effort"  # type: ignore[misc]
        if kind not in ("effort", "flow"):
            raise ModelError(f"connection {sys_port}–{d_port}: kind must be 'effort' or 'flow'")
        if d_port not in dirac.ports and not any(p.startswith(d_port + "[") for p in dirac.ports):
            raise ModelError(
                f"the Dirac structure has no port {d_port!r}; its ports: {', '.join(dirac.ports)}"
            )
        kinds[d_port] = kind
        pairs.append((sys_port, d_port))
    io = dirac.input_output(inputs=kinds)
    names = [p for p, _ in io.inputs]
    structure = PHS(M=io.K, inputs=names, outputs=[f"y_{p}" for p in names], states=[],
                    name="dirac", check=False)
    if plant is None:
        if pairs:
            raise ModelError("connections given but no system to connect")
        structure.port_kinds = dict(io.inputs)  # type: ignore[attr-defined]
        return structure
    result = feedback(plant, structure, pairs)
    connected = set()
    for _, d_port in pairs:
        connected.update(structure.inputs[i] for i in resolve(d_port, names, "port"))
    result.port_kinds = {p: k for p, k in io.inputs if p not in connected}  # type: ignore[attr-defined]
    return result
