r"""From assembled finite-element blocks to a port-Hamiltonian system.

The partitioned finite-element method (Cardoso-Ribeiro, Matignon, Lefèvre, *IMA J.
Math. Control Inf.* 38, 2021; Serhani, Haine, Matignon, *IFAC-PapersOnLine* 52, 2019)
writes a linear pH PDE on a domain Ω, in its *co-energy* variables :math:`e`
(velocity, stress, temperature …), as

.. math::
    W\,\dot e = (J - R)\,e + B\,u, \qquad y = B^\top e,

with :math:`W = W^\top \succ 0` the co-energy mass matrices weighted by the
constitutive law (density, compliance …; :math:`H = \tfrac12 e^\top W e`),
:math:`J = -J^\top` the integrated-by-parts differential operator and
:math:`R = R^\top \succeq 0` the dissipation.  One field of each pair is taken in
:math:`H^1` (continuous elements): its boundary traces are the *natural* boundary
inputs (a traction, a heat flux) and its boundary dofs can be *imposed* instead
(a fixed or driven edge).  Along solutions :math:`\dot H = u^\top y - e^\top R e`
exactly, the discrete counterpart of the continuous power balance.

:func:`assemble_system` takes the blocks (each model of this package assembles them
with scikit-fem) and returns

* an **explicit** sparse :class:`~porthamiltonian.PHS` when every mass matrix is
  diagonal or block diagonal (lumped continuous elements, discontinuous elements):
  the states are the *integrated energy variables* :math:`x = W e` (nodal momenta,
  element strains …), :math:`Q = W^{-1}` (block-wise, sparse) and
  :math:`\dot x = (J-R)Qx + Gu`;
* otherwise a sparse :class:`~porthamiltonian.DescriptorPHS`
  :math:`E\dot x = (J - R)x + Gu` with :math:`E = W`, :math:`Q = I` and the
  co-energies as states.

Imposed dofs (:math:`e_b = T u`, :math:`T` from the port) leave the state: their
columns of :math:`J - R` become the input matrix :math:`G - P`
(:math:`G = J_{kb}T`, :math:`P = R_{kb}T`), the output is the conjugate
(:math:`y = -T^\top[(J-R)e]_b`: the reaction on the imposed dofs) and
:math:`S = T^\top R_{bb}T`, :math:`M = -T^\top J_{bb}T`, so that the power balance stays
exact; the inertia (capacity) of the imposed dofs is carried by what imposes them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

import numpy as np
import scipy.sparse as sps

from ..._matrices import block_inverse
from ...descriptor import DescriptorPHS
from ...errors import ModelError
from ...phs import PHS

__all__ = ["FieldBlock", "PortBlock", "Layout", "assemble_system", "block_inverse"]

@dataclass(frozen=True)
class FieldBlock:
    """One discrete co-energy field.

    ``name`` names the co-energy (``"v"``), ``state`` the integrated energy variable
    of the explicit form (``"p"``: nodal momenta); ``mass`` is its ``W`` block;
    ``basis`` the scikit-fem basis of its dofs (for fields on the mesh).

    """

    name: str
    state: str
    mass: Any
    unit: str = ""
    state_unit: str = ""
    basis: Any = None
    description: str = ""
    #: continuous (H¹, values at the vertices) or discontinuous (values per cell)
    continuous: bool = False

    @property
    def size(self) -> int:
        return int(self.mass.shape[0])


@dataclass(frozen=True)
class PortBlock:
    """A boundary or point port acting on the dofs of one field.

    Natural (``dofs`` is None): ``B`` (field size × k) — the input enters as
    :math:`B u` in the field's equation and the output is :math:`B^\\top e`.
    Imposed (``dofs`` given): the field's ``dofs`` take the values :math:`T u` with
    ``B`` = ``T`` (len(dofs) × k).  Inputs are named ``input`` (k = 1) or
    ``input[i]``, outputs likewise.
    """

    input: str
    output: str
    field: str
    B: Any
    dofs: Any = None
    input_unit: str = ""
    output_unit: str = ""
    description: str = ""

    @property
    def width(self) -> int:
        return int(self.B.shape[1])

    @property
    def imposed(self) -> bool:
        return self.dofs is not None

    def names(self) -> tuple[list[str], list[str]]:
        if self.width == 1:
            return [self.input], [self.output]
        return ([f"{self.input}[{i}]" for i in range(self.width)],
                [f"{self.output}[{i}]" for i in range(self.width)])


@dataclass
class Layout:
    """Where each field's dofs went: states, imposed by inputs, or fixed at zero.

    ``offset[f]`` is the field's first row in the full co-energy vector; ``kept`` the
    full-vector indices that are states, in state order; ``explicit`` says whether
    the states are integrated energies (``x = W e``) or co-energies.
    """

    fields: dict[str, FieldBlock]
    offset: dict[str, int]
    kept: np.ndarray
    imposed: list[tuple[np.ndarray, Any, slice]]  # full dofs, T, input slice
    explicit: bool
    Q: Any
    n_inputs: int
    size: int
    extra: dict[str, Any] = field(default_factory=dict)

    def coenergy(self, x: Any, u: Any = None) -> np.ndarray:
        """The full co-energy vector(s) ``e`` from states ``x`` (and inputs ``u``).

        ``x`` may be one state or rows of states (a result's ``x``); missing inputs
        count as zero (imposed dofs then read 0)."""
        x = np.asarray(x, dtype=float)
        rows = x.reshape(-1, x.shape[-1])
        e = np.zeros((rows.shape[0], self.size))
        ek = (self.Q @ rows.T).T if self.explicit else rows
        e[:, self.kept] = ek
        if u is not None and self.imposed:
            uu = np.asarray(u, dtype=float).reshape(rows.shape[0], -1)
            for dofs, T, cols in self.imposed:
                e[:, dofs] = (T @ uu[:, cols].T).T
        return e.reshape(*x.shape[:-1], self.size)

    def field_values(self, name: str, e: np.ndarray) -> np.ndarray:
        """The dofs of field ``name`` from full co-energy vector(s) ``e``."""
        f = self.fields[name]
        o = self.offset[name]
        return e[..., o:o + f.size]


def _global(blocks: Mapping[tuple[str, str], Any], offset: Mapping[str, int],
            fields: Mapping[str, FieldBlock], n: int, kind: str) -> sps.csr_array:
    """Global J (``kind="skew"``) or R (``"symmetric"``) from blocks given once."""
    rows, cols, vals = [], [], []
    for (a, b), block in blocks.items():
        for f in (a, b):
            if f not in fields:
                raise ModelError(f"{kind} block ({a!r}, {b!r}) names no field; fields: "
                                 f"{', '.join(fields)}")
        blk = sps.coo_array(block)
        if blk.shape != (fields[a].size, fields[b].size):
            raise ModelError(f"{kind} block ({a!r}, {b!r}) has shape {blk.shape}, expected "
                             f"{(fields[a].size, fields[b].size)}")
        r, c = blk.row + offset[a], blk.col + offset[b]
        rows.append(r)
        cols.append(c)
        vals.append(blk.data)
        if a != b:
            rows.append(c)
            cols.append(r)
            vals.append(-blk.data if kind == "skew" else blk.data)
    if not rows:
        return sps.csr_array((n, n))
    A = sps.csr_array((np.concatenate(vals), (np.concatenate(rows), np.concatenate(cols))),
                      shape=(n, n))
    A.sum_duplicates()
    return A


def _widen(T: Any, cols: slice, m: int) -> sps.csr_array:
    """``T`` placed in the columns ``cols`` of an ``m``-column matrix."""
    c = sps.coo_array(T)
    return sps.csr_array((c.data, (c.row, c.col + cols.start)), shape=(T.shape[0], m))


def assemble_system(fields: Sequence[FieldBlock], J: Mapping[tuple[str, str], Any],
                    R: Mapping[tuple[str, str], Any] | None = None,
                    ports: Sequence[PortBlock] = (), fixed: Mapping[str, Any] | None = None,
                    *, name: str = "", explicit: str | bool = "auto"
                    ) -> tuple[PHS | DescriptorPHS, Layout]:
    """The pH system of the co-energy blocks (module docstring) and its :class:`Layout`.

    ``J`` and ``R`` give each block once, keyed by ``(row field, column field)``: an
    off-diagonal block ``(a, b)`` also sets ``(b, a)`` to its negative transpose (J)
    or its transpose (R).  ``fixed`` maps a field to the dofs held at zero.
    ``explicit``: ``"auto"`` (explicit when every mass is block diagonal), ``True``
    (raise otherwise) or ``False`` (always the descriptor form).
    """
    fmap = {f.name: f for f in fields}
    if len(fmap) != len(fields):
        raise ModelError("two fields share a name")
    offset, n = {}, 0
    for f in fields:
        offset[f.name] = n
        n += f.size
    W = sps.block_diag([sps.csr_array(f.mass) for f in fields], format="csr")
    Jg = _global(J, offset, fmap, n, "skew")
    Rg = _global(R or {}, offset, fmap, n, "symmetric")

    removed = np.zeros(n, dtype=bool)
    for fname, dofs in (fixed or {}).items():
        if fname not in fmap:
            raise ModelError(f"fixed dofs of an unknown field {fname!r}")
        removed[offset[fname] + np.asarray(dofs, dtype=np.int64)] = True
    imposed: list[tuple[np.ndarray, Any, slice]] = []
    inputs: list[str] = []
    outputs: list[str] = []
    natural_cols: list[tuple[np.ndarray, Any, slice]] = []
    for port in ports:
        if port.field not in fmap:
            raise ModelError(f"port {port.input!r} acts on an unknown field {port.field!r}")
        ins, outs = port.names()
        cols = slice(len(inputs), len(inputs) + len(ins))
        inputs += ins
        outputs += outs
        if port.imposed:
            dofs = offset[port.field] + np.asarray(port.dofs, dtype=np.int64)
            if removed[dofs].any():
                raise ModelError(f"port {port.input!r} imposes dofs that are already fixed or "
                                 "imposed by another port")
            removed[dofs] = True
            imposed.append((dofs, sps.csr_array(port.B), cols))
        else:
            B = sps.csr_array(port.B)
            if B.shape[0] != fmap[port.field].size:
                raise ModelError(f"port {port.input!r}: B has {B.shape[0]} rows, the field "
                                 f"{port.field!r} has {fmap[port.field].size} dofs")
            natural_cols.append((np.arange(offset[port.field], offset[port.field] + B.shape[0]),
                                 B, cols))
    kept = np.flatnonzero(~removed)
    m = len(inputs)
    nk = kept.size
    pos = -np.ones(n, dtype=np.int64)
    pos[kept] = np.arange(nk)

    # input matrices of the kept equations: natural B rows, and imposed columns of J, R
    S = np.zeros((m, m))
    Mff = np.zeros((m, m))
    Gc = sps.csr_array((nk, m))
    Pc = sps.csr_array((nk, m))
    for rows, B, cols in natural_cols:
        keep = pos[rows] >= 0
        Bk = sps.coo_array(B[np.flatnonzero(keep)])
        Gc = Gc + sps.csr_array((Bk.data, (pos[rows[keep]][Bk.row], Bk.col + cols.start)),
                                shape=(nk, m))
    widened = [(dofs, _widen(T, cols, m)) for dofs, T, cols in imposed]
    for dofs, T in widened:
        Gc = Gc + Jg[kept][:, dofs] @ T
        Pc = Pc + Rg[kept][:, dofs] @ T
        for dofs2, T2 in widened:
            S = S + (T.T @ Rg[dofs][:, dofs2] @ T2).toarray()
            Mff = Mff - (T.T @ Jg[dofs][:, dofs2] @ T2).toarray()
    Wk = W[kept][:, kept]
    Jk = Jg[kept][:, kept]
    Rk = Rg[kept][:, kept]
    Winv = block_inverse(Wk) if explicit in ("auto", True) else None
    if explicit is True and Winv is None:
        raise ModelError("the mass matrices are not block diagonal: no explicit form "
                         "without a dense inverse; use explicit='auto'")
    use_explicit = Winv is not None
    state_names = []
    for f in fields:
        o = offset[f.name]
        label = f.state if use_explicit else f.name
        state_names += [f"{label}[{i}]" for i in np.flatnonzero(~removed[o:o + f.size])]
    Pmat = Pc if Pc.nnz else None
    Smat = S if np.any(S) else None
    Mmat = Mff if np.any(Mff) else None
    if use_explicit:
        system: PHS | DescriptorPHS = PHS(
            J=Jk, R=Rk, Q=Winv, G=Gc, P=Pmat, S=Smat, M=Mmat, states=state_names,
            inputs=inputs, outputs=outputs, name=name, check=False)
        Q = Winv
    else:
        system = DescriptorPHS(
            E=Wk, J=Jk, R=Rk, Q=sps.eye_array(nk, format="csr"), G=Gc, P=Pmat, S=Smat,
            M=Mmat, states=state_names, inputs=inputs, outputs=outputs, name=name, check=False)
        Q = sps.eye_array(nk, format="csr")
    layout = Layout(fields=fmap, offset=offset, kept=kept, imposed=imposed,
                    explicit=use_explicit, Q=Q, n_inputs=m, size=n)
    return system, layout
