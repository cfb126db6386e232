r"""Damping injection and output feedback on chosen ports.

With the collocated output :math:`y = (G + P)^\top \nabla H + (M + S)u`, the static
feedback on some ports

.. math::  u_c = -K\,y_c + v,\qquad K = K_s + K_k,\ K_s = K_s^\top \succeq 0,\ K_k = -K_k^\top,

keeps the port-Hamiltonian form: it is the power-conserving interconnection
(:func:`porthamiltonian.feedback`) of the plant with the memoryless PHS

.. math::
    \begin{bmatrix} y_a \\ y_v\end{bmatrix} =
    \begin{bmatrix} K & -I \\ I & 0\end{bmatrix}
    \begin{bmatrix} u_a \\ v\end{bmatrix},\qquad
    S_c = \begin{bmatrix} K_s & 0\\ 0 & 0\end{bmatrix},\quad
    M_c = \begin{bmatrix} K_k & -I\\ I & 0\end{bmatrix},

whose port ``a`` is paired with the plant's port (``u_c = −y_a``, ``u_a = y_c``).  The new
input :math:`v` keeps the port's name and its output is the plant's :math:`y_c`.  Without
feed-through on the chosen ports the closed loop is

.. math::
    \dot x = \bigl(J - G_c K_k G_c^\top - (R + G_c K_s G_c^\top)\bigr)\nabla H + G v,

so :math:`\dot H = v^\top y - \nabla H^\top R\nabla H - y_c^\top K_s y_c \le v^\top y`
(Ortega, van der Schaft, Mareels, Maschke, *Putting energy back in control*, IEEE
Control Syst. Mag. 21(2), 2001, §"Damping injection"; Duindam et al. 2009, §5.2).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np
import sympy as sp

from .. import _matrices as mx
from ..errors import ModelError
from ..interconnection import _port_positions, feedback
from ..phs import PHS
from ..structure import check_psd, check_skew, check_symmetric

__all__ = ["damping_injection", "output_feedback"]


def damping_injection(
    system: PHS, K: Any, ports: Sequence[str] | None = None, *, keep_ports: bool = True
) -> PHS:
    r"""Closed loop of ``u_c = −K y_c + v`` with ``K = Kᵀ ⪰ 0`` (added dissipation ``G K Gᵀ``).

    Parameters
    ----------
    system : PHS
        The plant.
    K : number, 1-D array (diagonal) or (k, k) matrix
        Damping gain in the units of input/output (e.g. N·s/m for a force port with a
        velocity output).  Symmetric and positive semi-definite.
    ports : list of str, optional
        Ports to close (input or output names; a base name selects all components).
        Default: all ports.
    keep_ports : bool
        Keep each closed port as a new input ``v`` (same name, same output); with
        ``False`` the closed ports disappear from the result.

    Returns
    -------
    PHS
        Closed loop with Hamiltonian ``H`` (unchanged: damping injection shapes no energy).

    Raises
    ------
    ModelError
        Unknown port, ``K`` of the wrong size, not symmetric or not positive semi-definite
        (naming the entry), or an ill-posed algebraic loop through feed-through.
    """
    positions, labels = _selected(system, ports)
    kind = "symbolic" if system.symbolic or mx.is_sympy(K) else "dense"
    Kc = _gain(K, len(positions), kind)
    check_symmetric(Kc, "K", labels)
    return output_feedback(system, Kc, ports, keep_ports=keep_ports)


def output_feedback(
    system: PHS, K: Any, ports: Sequence[str] | None = None, *, keep_ports: bool = True
) -> PHS:
    r"""Closed loop of ``u_c = −K y_c + v``; ``K`` need only have a symmetric part ⪰ 0.

    The skew part of ``K`` is a gyrator: it adds :math:`-G_c K_k G_c^\top` to ``J`` and
    does no work.  Arguments as in :func:`damping_injection`.
    """
    positions, labels = _selected(system, ports)
    k = len(positions)
    kind = "symbolic" if system.symbolic or mx.is_sympy(K) else "dense"
    Kc = _gain(K, k, kind)
    Ks, Kk = (Kc + Kc.T) / 2, (Kc - Kc.T) / 2
    check_psd(Ks, labels, name="the symmetric part of K")
    check_skew(Kk, "skew part of K", labels)
    sel = [system.inputs[i] for i in positions]
    out = [system.outputs[i] for i in positions]
    a_in = [f"_fb_in{i}" for i in range(k)]
    a_out = [f"_fb_out{i}" for i in range(k)]
    Z = _zeros(k, kind)
    eye = _eye(k, kind)
    if keep_ports:
        S = mx.block([[Ks, Z], [Z, Z]], kind)
        M = mx.block([[Kk, -eye], [eye, Z]], kind)
        controller = PHS(M=M, S=S, G=_zeros_rect(0, 2 * k, kind), states=[],
                         inputs=a_in + sel, outputs=a_out + out, name="output feedback")
    else:
        controller = PHS(M=Kk, S=Ks, G=_zeros_rect(0, k, kind), states=[],
                         inputs=a_in, outputs=a_out, name="output feedback")
    closed = feedback(system, controller, list(zip(sel, a_in, strict=True)))
    if keep_ports:
        closed = _reorder_ports(closed, list(system.inputs))
    closed.name = f"{system.name or 'system'} with output feedback"
    return closed


def _selected(system: PHS, ports: Sequence[str] | None) -> tuple[list[int], list[str]]:
    if ports is None:
        positions = list(range(system.n_inputs))
    else:
        if isinstance(ports, str):
            ports = [ports]
        positions = []
        for p in ports:
            for i in _port_positions(system, p, "the system"):
                if i in positions:
                    raise ModelError(f"port {p!r} is selected twice; list each port once")
                positions.append(i)
    if not positions:
        raise ModelError("no port to close: the system has no inputs")
    return positions, [system.inputs[i] for i in positions]


def _gain(K: Any, k: int, kind: str) -> Any:
    """``K`` as a (k, k) matrix: a scalar means ``K·I``, a 1-D array a diagonal."""
    symbolic = kind == "symbolic" or mx.is_sympy(K)
    if symbolic:
        if isinstance(K, sp.MatrixBase):
            Km = sp.Matrix(K)
        elif np.ndim(np.asarray(K, dtype=object)) == 0:
            Km = sp.sympify(K) * sp.eye(k)
        elif np.ndim(np.asarray(K, dtype=object)) == 1:
            Km = sp.diag(*[sp.sympify(v) for v in np.asarray(K, dtype=object)])
        else:
            Km = sp.Matrix(K)
        out: Any = sp.ImmutableMatrix(Km)
    else:
        arr = np.asarray(K, dtype=float)
        out = arr * np.eye(k) if arr.ndim == 0 else (np.diag(arr) if arr.ndim == 1 else arr)
    if tuple(out.shape) != (k, k):
        raise ModelError(
            f"K has shape {tuple(out.shape)} but {k} port(s) are closed; give a number, "
            f"{k} diagonal entries or a {k}×{k} matrix"
        )
    return out


def _zeros(k: int, kind: str) -> Any:
    return sp.ImmutableMatrix.zeros(k, k) if kind == "symbolic" else np.zeros((k, k))


def _zeros_rect(r: int, c: int, kind: str) -> Any:
    return sp.ImmutableMatrix.zeros(r, c) if kind == "symbolic" else np.zeros((r, c))


def _eye(k: int, kind: str) -> Any:
    return sp.ImmutableMatrix.eye(k) if kind == "symbolic" else np.eye(k)


def _reorder_ports(sys: PHS, order: list[str]) -> PHS:
    """The same system with its ports (columns of G, P and rows/columns of M, S) reordered."""
    perm = [list(sys.inputs).index(name) for name in order]
    mats = sys.matrices()
    if sys.symbolic:
        cols = {k: sp.ImmutableMatrix(mats[k].extract(list(range(sys.n_states)), perm))
                for k in ("G", "P")}
        sq = {k: sp.ImmutableMatrix(mats[k].extract(perm, perm)) for k in ("M", "S")}
    else:  # keep the kind (sparse beams stay sparse)
        cols = {k: mats[k][:, perm] for k in ("G", "P")}
        sq = {k: mats[k][perm][:, perm] for k in ("M", "S")}
    energy: dict[str, Any] = (
        {"hamiltonian": sys.hamiltonian} if sys.symbolic else {"Q": sys.Q}
    )
    return PHS(J=mats["J"], R=mats["R"], **cols, **sq, **energy, states=list(sys.states),
               inputs=[sys.inputs[i] for i in perm], outputs=[sys.outputs[i] for i in perm],
               parameters=sys.parameters, name=sys.name)
