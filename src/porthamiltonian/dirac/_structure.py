"""The :class:`DiracStructure` class: kernel representation, checks, equality, ports."""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from typing import Any

import numpy as np
import scipy.sparse as sp
import sympy

from .. import naming
from ..errors import ModelError, StructureError
from . import _checks, _compose, _forms, _library
from . import _linalg as la
from ._linalg import DEFAULT_RTOL, Kind

PortKind = str  # "effort" | "flow"


class DiracStructure:
    r"""A linear (possibly state-modulated) Dirac structure on named scalar ports.

    Kernel representation

    .. math::  D = \{(f, e) \in \mathbb{R}^n \times \mathbb{R}^n : F f + E e = 0\},

    with ``F`` and ``E`` of shape ``k × n`` (``k ≥ n``; redundant rows are allowed),
    one column per scalar port.  The power *into* the structure is
    :math:`e^\mathsf{T} f = \sum_i e_i f_i`.  ``D`` is a Dirac structure when
    it is power conserving and maximal, i.e. (van der Schaft & Jeltsema,
    *Port-Hamiltonian Systems Theory*, 2014, Prop. 2.1.4)

    .. math::  F E^\mathsf{T} + E F^\mathsf{T} = 0, \qquad \operatorname{rank}[F\ |\ E] = n,

    and then :math:`e^\mathsf{T} f = 0` on ``D`` and :math:`\dim D = n`.

    Parameters
    ----------
    F, E:
        ``k × n`` matrices: NumPy arrays (dense), SciPy sparse matrices or SymPy
        matrices (entries may contain symbols: parameters or states, for a
        modulated structure).  Mixed inputs are promoted (symbolic > sparse > dense).
    ports:
        The ``n`` scalar port names (validated with
        :func:`porthamiltonian.naming.check_names`); a multi-dimensional port ``w``
        appears as ``w[0]``, ``w[1]``, ….  Default ``p[0]``, …, ``p[n-1]``.
    check:
        Run :meth:`check` (raise :class:`StructureError` if the data are not a Dirac
        structure).  Default true.
    tol:
        Relative tolerance of that check (numeric data only).

    Notes
    -----
    Numeric checks use relative tolerances (see :meth:`is_dirac`).  For symbolic
    data, zero tests combine ``simplify`` with evaluation at random values of the
    symbols, and ranks are *generic* ranks: statements hold for all values of the
    symbols except on a set of measure zero (where the representation may drop
    rank, e.g. a transformer ratio passing through 0).
    """

    __slots__ = ("_F", "_E", "_ports", "_kind")
    __hash__ = None  # type: ignore[assignment]  # mutable semantics: equality is subspace equality

    # ---------------------------------------------------------------- construction

    def __init__(
        self,
        F: Any,
        E: Any,
        ports: Sequence[str] | None = None,
        *,
        check: bool = True,
        tol: float | None = None,
    ) -> None:
        kind = la.common_kind(la.kind_of(F), la.kind_of(E))
        F = la.as_kind(F, kind)
        E = la.as_kind(E, kind)
        if F.shape != E.shape:
            raise StructureError(
                f"F has shape {F.shape[0]}×{F.shape[1]} but E has shape "
                f"{E.shape[0]}×{E.shape[1]}; both must be k×n (one column per port)"
            )
        n = F.shape[1]
        if ports is None:
            ports = naming.expand("p", n) if n != 1 else ["p[0]"]
        ports = naming.check_names(list(ports), "ports")
        if len(ports) != n:
            raise StructureError(
                f"F and E have {n} columns but {len(ports)} ports were named "
                f"({', '.join(ports)}); give one name per column"
            )
        self._set(F, E, ports, kind)
        if check:
            self.check(tol)

    def _set(self, F: Any, E: Any, ports: tuple[str, ...], kind: Kind) -> None:
        if kind == "dense":
            F = np.array(F, dtype=float)
            E = np.array(E, dtype=float)
            F.setflags(write=False)
            E.setflags(write=False)
        self._F = F
        self._E = E
        self._ports = tuple(ports)
        self._kind = kind

    @classmethod
    def _make(cls, F: Any, E: Any, ports: Sequence[str], kind: Kind) -> DiracStructure:
        """Fast internal constructor: no validation."""
        obj = cls.__new__(cls)
        obj._set(F, E, tuple(ports), kind)
        return obj

    # Constructors of the other representations and of the standard elements.

    @classmethod
    def from_image(cls, Ff: Any, Ee: Any, ports: Sequence[str] | None = None, *,
                   check: bool = True, tol: float | None = None) -> DiracStructure:
        r"""Dirac structure given in image form.

        .. math::  D = \{(f, e) : f = F_f\,\lambda,\ e = E_e\,\lambda,\ \lambda \in \mathbb{R}^m\}

        with ``Ff``, ``Ee`` of shape ``n × m`` (columns spanning ``D``).  When this
        is Dirac (:math:`E_e^\mathsf{T} F_f + F_f^\mathsf{T} E_e = 0`, rank ``n``)
        it is the same subspace as the kernel form with ``F = Eeᵀ``, ``E = Ffᵀ``
        (``D = D^⊥⊥`` for the bilinear form
        :math:`\langle (f_1,e_1),(f_2,e_2)\rangle = e_1^\mathsf{T} f_2 + e_2^\mathsf{T} f_1`),
        which is what is stored.  :meth:`image` is the inverse.
        """
        kind = la.common_kind(la.kind_of(Ff), la.kind_of(Ee))
        Ff = la.as_kind(Ff, kind)
        Ee = la.as_kind(Ee, kind)
        if Ff.shape != Ee.shape:
            raise StructureError(
                f"Ff has shape {Ff.shape} but Ee has shape {Ee.shape}; both must be n×m"
            )
        return cls(Ee.T, Ff.T, ports, check=check, tol=tol)

    @classmethod
    def from_input_output(
        cls,
        K: Any,
        inputs: Mapping[str, str] | Sequence[tuple[str, str]],
        ports: Sequence[str] | None = None,
        *,
        check: bool = True,
        tol: float | None = None,
    ) -> DiracStructure:
        r"""Dirac structure of an input-output map ``y = K u`` with ``K = −Kᵀ``.

        Parameters
        ----------
        K:
            Skew-symmetric ``n × n`` matrix; row/column ``i`` belongs to the
            ``i``-th entry of ``inputs``.
        inputs:
            ``{port: "effort" | "flow"}`` (or a list of pairs), in the order of
            ``K``: which variable of each port is the input ``u_i``.  The output
            ``y_i`` is the conjugate variable of the same port (``"e"``/``"f"``
            accepted as short forms).
        ports:
            Order of the ports of the result (default: the order of ``inputs``).

        Notes
        -----
        With ``u_i = e_i, y_i = f_i`` (effort in) or ``u_i = f_i, y_i = e_i`` (flow
        in), the power into the structure is :math:`e^\mathsf{T} f = u^\mathsf{T} y
        = u^\mathsf{T} K u = 0`, so skew-symmetry of ``K`` is exactly power
        conservation.  Example: ``K = [[0, 1], [−1, 0]]`` with both efforts as
        inputs is ``f_a = e_b, f_b = −e_a``.
        """
        return _forms.from_input_output(cls, K, inputs, ports, check=check, tol=tol)

    @classmethod
    def from_skew(cls, J: Any, ports: Sequence[str] | None = None, *,
                  check: bool = True, tol: float | None = None) -> DiracStructure:
        r"""Dirac structure ``f = −J e`` of a skew-symmetric ``J`` (``J = −Jᵀ``).

        Sign convention: flows are counted *into* the structure, so for a
        port-Hamiltonian system :math:`\dot x = J\,\nabla H(x)` whose storage ports
        carry :math:`f = -\dot x` (flow into the structure = out of the storage) and
        :math:`e = \nabla H`, the interconnection structure is exactly
        ``DiracStructure.from_skew(J, states)``:
        :math:`-f = \dot x = J e`.  In input-output form (all efforts in) this is
        ``K = −J``.
        """
        return _forms.from_skew(cls, J, ports, check=check, tol=tol)

    @classmethod
    def junction0(cls, ports: Sequence[str]) -> DiracStructure:
        """0-junction: common effort ``e_1 = … = e_n``, flows into it sum to zero."""
        return _library.junction(cls, ports, zero=True)

    @classmethod
    def junction1(cls, ports: Sequence[str]) -> DiracStructure:
        """1-junction: common flow ``f_1 = … = f_n``, efforts into it sum to zero."""
        return _library.junction(cls, ports, zero=False)

    @classmethod
    def transformer(cls, m: Any, ports: Sequence[str] = ("a", "b")) -> DiracStructure:
        r"""Transformer ``e_a = m e_b``, ``f_b = −m f_a`` (power into it at both ports).

        This is the bond-graph TF ``e_1 = m e_2, f_2 = m f_1`` (bond 1 in, bond 2
        out, docs/design.md) with the flow of port ``b`` counted *into* the
        structure, ``f_b = −f_2``: :math:`e_a f_a + e_b f_b = 0`.  ``m`` may be a
        number or a SymPy expression (modulated transformer).
        """
        return _library.transformer(cls, m, ports)

    @classmethod
    def gyrator(cls, r: Any, ports: Sequence[str] = ("a", "b")) -> DiracStructure:
        r"""Gyrator ``e_a = −r f_b``, ``e_b = r f_a`` (power into it at both ports).

        This is the bond-graph GY ``e_1 = r f_2, e_2 = r f_1`` (bond 1 in, bond 2
        out) with ``f_b = −f_2``.  Composing two gyrators (``b`` of the first to
        ``a`` of the second) gives the transformer of ratio ``r_1 / r_2``.
        """
        return _library.gyrator(cls, r, ports)

    @staticmethod
    def compose_many(
        structures: Sequence[DiracStructure],
        connect: Iterable[tuple[Any, Any]],
        *,
        tol: float | None = None,
    ) -> DiracStructure:
        """Interconnect many structures at once (see :func:`._compose.compose_many`).

        Each endpoint of ``connect`` is a port name (unique among all the
        structures) or ``(index, port)``.  Connected ports obey ``e_p = e_q`` and
        ``f_p = −f_q``; the remaining ports keep their order (structures in order).
        The eliminations are done pairwise along a greedy ordering of the
        interconnection graph (smallest intermediate structure first), so a chain
        or a tree of ``N`` small structures costs ``O(N)``.
        """
        return _compose.compose_many(DiracStructure, structures, connect,
                                     rtol=tol or DEFAULT_RTOL)

    # ------------------------------------------------------------------ attributes

    @property
    def F(self) -> Any:
        """Flow matrix of the kernel representation ``F f + E e = 0`` (k × n)."""
        return self._F

    @property
    def E(self) -> Any:
        """Effort matrix of the kernel representation ``F f + E e = 0`` (k × n)."""
        return self._E

    @property
    def ports(self) -> tuple[str, ...]:
        """Scalar port names, one per column of ``F`` and ``E``."""
        return self._ports

    @property
    def n(self) -> int:
        """Number of scalar ports."""
        return len(self._ports)

    @property
    def symbolic(self) -> bool:
        """Whether ``F`` and ``E`` are SymPy matrices."""
        return self._kind == "symbolic"

    @property
    def is_sparse(self) -> bool:
        """Whether ``F`` and ``E`` are SciPy sparse (CSR) arrays."""
        return self._kind == "sparse"

    @property
    def kind(self) -> Kind:
        """``"dense"``, ``"sparse"`` or ``"symbolic"``."""
        return self._kind

    @property
    def free_symbols(self) -> set[Any]:
        """Symbols (and undefined functions like ``x(t)``) the matrices depend on."""
        if self._kind != "symbolic":
            return set()
        return la.free_atoms(self._F) | la.free_atoms(self._E)

    def __repr__(self) -> str:
        k = self._F.shape[0]
        return (f"DiracStructure(ports=({', '.join(self._ports)}), rows={k}, "
                f"kind={self._kind!r})")

    def _stacked(self) -> Any:
        return la.hstack([self._F, self._E], self._kind)

    # ---------------------------------------------------------------------- checks

    def _problems(self, tol: float | None) -> list[str]:
        return _checks.problems(self, tol)


    def is_dirac(self, tol: float | None = None) -> bool:
        """Whether ``F Eᵀ + E Fᵀ = 0`` and ``rank [F | E] = n``.

        Numeric: ``max |F Eᵀ + E Fᵀ| ≤ tol · ‖[F | E]‖_F²`` and singular values
        counted above ``tol · σ_max`` (default ``tol = 1e-9``).  Large sparse
        structures test the rank with a sparse LU of ``F + E`` (valid once power
        conservation holds, since then ``(F+E)(F+E)ᵀ = F Fᵀ + E Eᵀ``).  Symbolic:
        entries simplify to zero; generic rank.
        """
        return not self._problems(tol)

    def check(self, tol: float | None = None) -> DiracStructure:
        """Raise :class:`StructureError` saying which Dirac condition fails.

        Returns ``self`` so that calls can be chained.
        """
        problems = self._problems(tol)
        if problems:
            raise StructureError("; ".join(problems), problems=problems)
        return self

    # ---------------------------------------------------------------- membership

    def _vector(self, v: Any, what: str) -> Any:
        if isinstance(v, Mapping):
            missing = [p for p in self._ports if p not in v]
            unknown = [p for p in v if p not in self._ports]
            if missing or unknown:
                raise ModelError(
                    f"{what}: give a value for every port; missing: {', '.join(missing) or '-'}"
                    f", unknown: {', '.join(map(str, unknown)) or '-'}"
                )
            v = [v[p] for p in self._ports]
        if self._kind == "symbolic" or _has_sym(v):
            out = sympy.Matrix(list(v))
        else:
            out = np.asarray(v, dtype=float).ravel()
        if len(out) != self.n:
            raise ModelError(f"{what} has {len(out)} entries but the structure has {self.n} ports")
        return out

    def power(self, f: Any, e: Any) -> Any:
        """Power into the structure, ``eᵀ f = Σ e_i f_i`` (arrays in port order or dicts)."""
        fv, ev = self._vector(f, "f"), self._vector(e, "e")
        if isinstance(fv, sympy.MatrixBase) or isinstance(ev, sympy.MatrixBase):
            return sympy.simplify((sympy.Matrix(ev).T * sympy.Matrix(fv))[0, 0])
        return float(ev @ fv)

    def contains(self, f: Any, e: Any, tol: float | None = None) -> bool:
        """Whether ``(f, e)`` lies in the structure (``F f + E e = 0``).

        Numeric: ``‖F f + E e‖ ≤ tol · ‖[F | E]‖ · ‖(f, e)‖``.
        """
        rtol = DEFAULT_RTOL if tol is None else tol
        fv, ev = self._vector(f, "f"), self._vector(e, "e")
        if self._kind == "symbolic" or isinstance(fv, sympy.MatrixBase):
            fs, es = sympy.Matrix(fv), sympy.Matrix(ev)
            res = sympy.Matrix(self._F) * fs + sympy.Matrix(self._E) * es
            return all(la.sym_is_zero(x) for x in res)
        res = self._F @ fv + self._E @ ev
        M = la.to_dense(self._stacked()) if self._kind == "dense" else None
        norm_m = (np.linalg.norm(M) if M is not None
                  else float(np.sqrt(sp.csr_array(self._stacked()).power(2).sum())))
        scale = norm_m * float(np.linalg.norm(np.concatenate([fv, ev])))
        return bool(np.linalg.norm(res) <= rtol * max(scale, np.finfo(float).tiny))

    # ---------------------------------------------------------------- equality

    def equals(self, other: DiracStructure, tol: float | None = None) -> bool:
        """Equality as subspaces, ports matched by name (different port sets → False).

        Two kernel representations define the same subspace iff their row spaces
        agree: ``rank K₁ = rank K₂ = rank [K₁; K₂]`` with ``K = [F | E]``.
        Symbolic structures are compared by generic rank (at random values of
        the symbols).
        """
        return _checks.equal_subspaces(self, other, tol)

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, DiracStructure):
            return NotImplemented
        return self.equals(other)

    # ---------------------------------------------------------------- ports

    def rename(self, mapping: Mapping[str, str]) -> DiracStructure:
        """Rename ports.  A key may be a scalar name (``"w[1]"``) or the base name of
        a multi-dimensional port (``"w"`` renames every ``w[k]`` to ``new[k]``)."""
        new = list(self._ports)
        for old, target in mapping.items():
            positions = naming.resolve(old, self._ports, "port")
            for pos in positions:
                base, idx = naming.split_index(self._ports[pos])
                if old == self._ports[pos]:
                    new[pos] = target
                else:
                    new[pos] = f"{target}[{idx}]"
        names = naming.check_names(new, "ports")
        return DiracStructure._make(self._F, self._E, names, self._kind)

    def reorder(self, ports: Sequence[str]) -> DiracStructure:
        """The same structure with its ports (columns) in the order ``ports``."""
        ports = tuple(ports)
        if ports == self._ports:
            return self
        if sorted(ports) != sorted(self._ports):
            missing = sorted(set(self._ports) - set(ports))
            extra = sorted(set(ports) - set(self._ports))
            raise ModelError(
                "reorder needs a permutation of the ports "
                f"({', '.join(self._ports)}); missing: {', '.join(missing) or '-'}, "
                f"unknown: {', '.join(extra) or '-'}"
            )
        index = {p: i for i, p in enumerate(self._ports)}
        perm = [index[p] for p in ports]
        return DiracStructure._make(la.cols(self._F, perm, self._kind),
                                    la.cols(self._E, perm, self._kind), ports, self._kind)

    # ---------------------------------------------------------------- conversions

    def subs(self, mapping: Mapping[Any, Any]) -> DiracStructure:
        """Substitute symbols (SymPy ``subs``).  When no free symbol is left the
        result is numeric (dense NumPy); numeric structures are returned unchanged."""
        if self._kind != "symbolic":
            return self
        F = sympy.ImmutableMatrix(self._F.subs(mapping))
        E = sympy.ImmutableMatrix(self._E.subs(mapping))
        if not (la.free_atoms(F) | la.free_atoms(E)):
            return DiracStructure._make(la.as_kind(F, "dense"), la.as_kind(E, "dense"),
                                        self._ports, "dense")
        return DiracStructure._make(F, E, self._ports, "symbolic")

    def numeric(self) -> DiracStructure:
        """Dense NumPy version of a symbolic structure without free symbols."""
        if self._kind == "dense":
            return self
        if self._kind == "sparse":
            return self.to_dense()
        free = self.free_symbols
        if free:
            names = ", ".join(sorted(str(s) for s in free))
            raise ModelError(
                f"the structure still depends on {names}; substitute values first with "
                ".subs({...})"
            )
        return DiracStructure._make(la.as_kind(self._F, "dense"), la.as_kind(self._E, "dense"),
                                    self._ports, "dense")

    def to_sparse(self) -> DiracStructure:
        """SciPy sparse (CSR) version of a numeric structure."""
        if self._kind == "sparse":
            return self
        s = self.numeric() if self._kind == "symbolic" else self
        return DiracStructure._make(la.as_kind(s._F, "sparse"), la.as_kind(s._E, "sparse"),
                                    self._ports, "sparse")

    def to_dense(self) -> DiracStructure:
        """Dense NumPy version of a numeric structure."""
        if self._kind == "dense":
            return self
        if self._kind == "symbolic":
            return self.numeric()
        return DiracStructure._make(la.to_dense(self._F), la.to_dense(self._E),
                                    self._ports, "dense")

    # ------------------------------------------------------------ other forms

    def image(self) -> tuple[Any, Any]:
        r"""Image representation ``(Ff, Ee)``: ``D = {(Ff λ, Ee λ)}`` with
        ``Ff = Eᵀ`` and ``Ee = Fᵀ`` (``n × k``); see :meth:`from_image`.

        Valid when the structure is Dirac: then ``im [Eᵀ; Fᵀ] = ker [F | E]``.
        """
        return self._E.T, self._F.T

    def input_output(self, inputs: Mapping[str, str] | None = None,
                     tol: float | None = None) -> _forms.InputOutputForm:
        """Input-output form ``y = K u`` with ``K = −Kᵀ``.

        Parameters
        ----------
        inputs:
            ``{port: "effort" | "flow"}`` for the ports whose input variable is
            imposed (a base name selects every component of a multi-dimensional
            port).  Ports not given are chosen automatically: efforts are preferred
            as inputs, as many as the structure allows (a column-pivoted QR picks
            which).  ``None`` chooses every port automatically.

        Returns
        -------
        InputOutputForm
            ``K``, ``inputs`` and ``outputs`` (lists of ``(port, kind)`` in port
            order): ``y = K u``, ``u_i`` the input variable of port ``i`` and ``y_i``
            its conjugate.  Power into the structure is ``uᵀ y = 0``.

        Raises
        ------
        CausalityError
            When the requested input variables are constrained by the structure
            (e.g. two efforts of a 0-junction); the message names the ports and the
            constraint.

        Notes
        -----
        Every Dirac structure has an input-output form (van der Schaft & Jeltsema
        2014, §2.1): if the flow columns ``F_I`` are a basis of ``im F``, then
        ``[F_I | E_J]`` (``J`` the other ports) is invertible, so efforts in on
        ``I`` and flows in on ``J`` is admissible.  Symbolic structures: the split
        is chosen at random values of the symbols (generic), ``K`` is exact.
        """
        return _forms.input_output(self, inputs, DEFAULT_RTOL if tol is None else tol)

    def flow_space(self) -> Any:
        """Basis (columns) of the flow projection ``G₁ = {f : ∃ e, (f, e) ∈ D} = im Eᵀ``."""
        return _forms.span_basis(self._E, self._kind)

    def effort_space(self) -> Any:
        """Basis (columns) of the effort projection ``P₁ = {e : ∃ f, (f, e) ∈ D} = im Fᵀ``."""
        return _forms.span_basis(self._F, self._kind)

    def effort_constraints(self) -> Any:
        """Matrix ``A`` (``n × c``) with ``Aᵀ e = 0`` for every ``(f, e) ∈ D``.

        Its columns span ``ker F = P₁^⊥``, the annihilator of the effort projection:
        the algebraic constraints on the efforts (for a 0-junction ``e_i − e_j = 0``;
        for a constrained mechanical system the ``Gᵀ ∇H = 0`` constraint).
        """
        return _forms.kernel_basis(self._F, self._kind)

    def flow_constraints(self) -> Any:
        """Matrix ``B`` (``n × c``) with ``Bᵀ f = 0`` for every ``(f, e) ∈ D``.

        Its columns span ``ker E = G₁^⊥`` (for a 0-junction ``Σ f_i = 0``, Kirchhoff's
        current law)."""
        return _forms.kernel_basis(self._E, self._kind)

    def constraints(self) -> _forms.DiracConstraints:
        """Both algebraic constraint matrices: ``(effort=A, flow=B)`` with
        ``Aᵀ e = 0`` and ``Bᵀ f = 0`` on ``D`` (see :meth:`effort_constraints`)."""
        return _forms.DiracConstraints(self.effort_constraints(), self.flow_constraints())

    # ------------------------------------------------------------ operations

    def direct_sum(self, other: DiracStructure) -> DiracStructure:
        """Block-diagonal ``D₁ ⊕ D₂`` on the ports of ``self`` then of ``other``."""
        return _compose.direct_sum(self, other)

    def compose(self, other: DiracStructure, connect: Iterable[tuple[str, str]],
                *, tol: float | None = None) -> DiracStructure:
        r"""Interconnect with ``other``: ``e_here = e_there`` and ``f_here = −f_there``.

        Power leaving one structure at a connected port enters the other.  The
        connected port variables are eliminated (Cervera, van der Schaft & Baños,
        *Automatica* 43 (2007) 212–225); the result is a Dirac structure on the
        remaining ports, those of ``self`` then those of ``other`` (in order).

        Parameters
        ----------
        connect:
            ``[(port_here, port_there), …]``; a base name of a multi-dimensional
            port connects all its components in order.

        Raises
        ------
        ModelError
            Unknown ports, a port connected twice, or two remaining ports with the
            same name (rename one with :meth:`rename` first).
        """
        return _compose.compose(self, other, connect, rtol=DEFAULT_RTOL if tol is None else tol)

    def tensor(self, other: DiracStructure, *, tol: float | None = None) -> DiracStructure:
        r"""Dirac tensor product ``D₁ ⊠ D₂ = {(f, e₁ + e₂) : (f, e₁) ∈ D₁, (f, e₂) ∈ D₂}``.

        Gualtieri, *Generalized complex geometry*, Ann. Math. 174 (2011) 75–123;
        used to interconnect Lagrange–Dirac systems by Jacobs & Yoshimura,
        *J. Geom. Mech.* 6 (2014) 67–98.  Both structures must have the same port
        names (``other`` is reordered to ``self``'s order).

        Notes
        -----
        The result is isotropic because each factor is.  Its dimension: the fibre
        product ``{(x₁, x₂) ∈ D₁ × D₂ : same f}`` has dimension
        ``2n − dim(G₁ + G₂)`` (``G_i`` the flow projections) and the map to
        ``(f, e₁ + e₂)`` has kernel ``{0} × (P₀¹ ∩ P₀²)`` with ``P₀^i = G_i^⊥``, of
        dimension ``n − dim(G₁ + G₂)``; so ``dim D₁ ⊠ D₂ = n`` always, and for
        constant linear structures the product is always Dirac.  For modulated
        (symbolic) structures it is a smooth Dirac family where
        ``dim(G₁(x) + G₂(x))`` is locally constant (the clean-intersection
        condition); the representation returned is the generic one.  The result
        is verified and :class:`StructureError` is raised if it fails the test
        (e.g. numerically ill-conditioned data).
        """
        return _compose.tensor(self, other, rtol=DEFAULT_RTOL if tol is None else tol)


def _has_sym(v: Any) -> bool:
    try:
        return any(isinstance(x, sympy.Basic) and not x.is_number for x in v)
    except TypeError:
        return False
