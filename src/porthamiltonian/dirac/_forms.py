"""Input-output and constraint forms of a Dirac structure."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any, NamedTuple

import numpy as np
import scipy.sparse as sp
import sympy

from .. import naming
from ..errors import CausalityError, ModelError, StructureError
from . import _linalg as la
from ._linalg import Kind
from ._protocol import DiracT

_KINDS = {"effort": "effort", "e": "effort", "flow": "flow", "f": "flow"}
_CONJ = {"effort": "flow", "flow": "effort"}


class InputOutputForm(NamedTuple):
    """``y = K u`` with ``K = −Kᵀ``.

    ``inputs[i] = (port, kind)`` names ``u_i`` (the effort or the flow of ``port``);
    ``outputs[i] = (port, conjugate kind)`` names ``y_i``.  Power into the
    structure: ``uᵀ y = uᵀ K u = 0``.
    """

    K: Any
    inputs: list[tuple[str, str]]
    outputs: list[tuple[str, str]]


class DiracConstraints(NamedTuple):
    """Algebraic constraints of a Dirac structure: ``Aᵀ e = 0`` (``effort = A``)
    and ``Bᵀ f = 0`` (``flow = B``) for all ``(f, e)`` in it."""

    effort: Any
    flow: Any


def _kind_name(kind: Any, port: str) -> str:
    try:
        return _KINDS[str(kind).lower()]
    except KeyError:
        raise ModelError(
            f"port {port!r}: input kind {kind!r} is not 'effort' or 'flow'"
        ) from None


def from_input_output(cls: type[DiracT], K: Any, inputs: Any,
                      ports: Sequence[str] | None, *, check: bool,
                      tol: float | None) -> DiracT:
    pairs = list(inputs.items()) if isinstance(inputs, Mapping) else [tuple(p) for p in inputs]
    names = naming.check_names([p for p, _ in pairs], "ports")
    kinds = [_kind_name(k, p) for p, k in pairs]
    kind = la.kind_of(K)
    Kmat = la.as_kind(K, kind if kind != "sparse" else "dense")
    kind = "symbolic" if kind == "symbolic" else "dense"
    n = len(names)
    if Kmat.shape != (n, n):
        raise StructureError(
            f"K has shape {Kmat.shape[0]}×{Kmat.shape[1]} but {n} inputs were given "
            f"({', '.join(names)}); K must be n×n, one row/column per input"
        )
    _check_skew(Kmat, kind, "K", names, tol)
    # rows: y_i − Σ_j K_ij u_j = 0
    if kind == "symbolic":
        F = sympy.zeros(n, n)
        E = sympy.zeros(n, n)
    else:
        F = np.zeros((n, n))
        E = np.zeros((n, n))
    for j, kj in enumerate(kinds):
        col = -Kmat[:, j]
        if kj == "effort":  # u_j = e_j, y_j = f_j
            E[:, j] = col
            F[j, j] = 1
        else:  # u_j = f_j, y_j = e_j
            F[:, j] = col
            E[j, j] = 1
    if kind == "symbolic":
        F, E = sympy.ImmutableMatrix(F), sympy.ImmutableMatrix(E)
    d = cls._make(F, E, names, kind)
    if ports is not None:
        d = d.reorder(naming.check_names(list(ports), "ports"))
    if check:
        d.check(tol)
    return d


def from_skew(cls: type[DiracT], J: Any, ports: Sequence[str] | None, *,
              check: bool, tol: float | None) -> DiracT:
    kind = la.kind_of(J)
    Jm = la.as_kind(J, "symbolic" if kind == "symbolic" else "dense")
    n = Jm.shape[0]
    if Jm.shape[0] != Jm.shape[1]:
        raise StructureError(f"J has shape {Jm.shape[0]}×{Jm.shape[1]}; it must be square")
    if ports is None:
        ports = naming.expand("p", n) if n != 1 else ["p[0]"]
    ports = list(ports)
    if len(ports) != n:
        raise StructureError(f"J is {n}×{n} but {len(ports)} ports were named")
    _check_skew(Jm, "symbolic" if kind == "symbolic" else "dense", "J", ports, tol)
    return from_input_output(cls, -Jm, [(p, "effort") for p in ports], None,
                             check=check, tol=tol)


def _check_skew(K: Any, kind: Kind, what: str, names: Sequence[str], tol: float | None) -> None:
    n = K.shape[0]
    if kind == "symbolic":
        S = sympy.Matrix(K) + sympy.Matrix(K).T
        for i in range(n):
            for j in range(i, n):
                if not la.sym_is_zero(S[i, j]):
                    raise StructureError(
                        f"{what} is not skew-symmetric: {what}[{i},{j}] + {what}[{j},{i}] = "
                        f"{sympy.simplify(S[i, j])} ≠ 0 (ports {names[i]}, {names[j]}); "
                        "power conservation needs K = −Kᵀ"
                    )
        return
    S = K + K.T
    if S.size == 0:
        return
    rtol = la.DEFAULT_RTOL if tol is None else tol
    i, j = np.unravel_index(np.argmax(np.abs(S)), S.shape)
    if abs(S[i, j]) > rtol * max(1.0, float(np.max(np.abs(K)))):
        raise StructureError(
            f"{what} is not skew-symmetric: {what}[{i},{j}] + {what}[{j},{i}] = {S[i, j]:.6g} "
            f"≠ 0 (ports {names[i]}, {names[j]}); power conservation needs {what} = −{what}ᵀ"
        )


# ------------------------------------------------------------------ input-output


def _requested(d: DiracT, inputs: Mapping[str, str] | None) -> dict[int, str]:
    fixed: dict[int, str] = {}
    for sel, kind in (inputs or {}).items():
        kname = _kind_name(kind, sel)
        for pos in naming.resolve(sel, d.ports, "port"):
            fixed[pos] = kname
    return fixed


def _format_constraint(c: np.ndarray, labels: Sequence[str]) -> str:
    c = c / np.max(np.abs(c))
    terms = []
    for coef, lab in zip(c, labels, strict=True):
        if abs(coef) < 1e-8:
            continue
        sign = "-" if coef < 0 else "+"
        mag = abs(coef)
        body = lab if abs(mag - 1) < 1e-9 else f"{mag:.4g}·{lab}"
        terms.append((sign, body))
    if not terms:
        return "0 = 0"
    if len(terms) == 2 and terms[0][0] != terms[1][0]:
        return f"{terms[0][1]} = {terms[1][1]}"
    first = ("-" if terms[0][0] == "-" else "") + terms[0][1]
    rest = " ".join(f"{s} {b}" for s, b in terms[1:])
    return f"{first} {rest} = 0".replace("  ", " ")


def input_output(d: DiracT, inputs: Mapping[str, str] | None,
                 rtol: float) -> InputOutputForm:
    n, kind = d.n, d.kind
    fixed = _requested(d, inputs)
    Fn = la.generic_eval(d.F, kind)
    En = la.generic_eval(d.E, kind)
    if np.iscomplexobj(Fn) or np.iscomplexobj(En):
        Fn, En = np.real(Fn), np.real(En)
    # Column j of `out_cols` is the column of the OUTPUT variable of port j: the flow
    # column F_j when the effort is the input, the effort column E_j otherwise.
    big = np.hstack([Fn, En])  # column j: F_j, column n + j: E_j
    forced = [j if fixed[j] == "effort" else n + j for j in sorted(fixed)]
    free = [j for j in range(n) if j not in fixed]
    chosen, dep = la.select_columns(big, forced, free, rtol)
    if dep is not None:
        ports_sorted = sorted(fixed)
        big_c = float(np.max(np.abs(dep)))
        involved = [p for p, c in zip(ports_sorted, dep, strict=True) if abs(c) > 1e-8 * big_c]
        labels = [("e_" if fixed[p] == "effort" else "f_") + d.ports[p] for p in ports_sorted]
        kinds = {fixed[p] for p in involved}
        names = ", ".join(d.ports[p] for p in involved)
        if kinds == {"effort"}:
            what = f"the efforts of port{'s' if len(involved) > 1 else ''} {names}"
        elif kinds == {"flow"}:
            what = f"the flows of port{'s' if len(involved) > 1 else ''} {names}"
        else:
            what = ", ".join(("e_" if fixed[p] == "effort" else "f_") + d.ports[p]
                             for p in involved)
        relation = _format_constraint(dep, labels)
        raise CausalityError(
            f"cannot impose {what} as input{'s' if len(involved) > 1 else ''}: "
            f"{'they are' if len(involved) > 1 else 'it is'} constrained by the structure "
            f"({relation}); make one of them an output (choose the conjugate variable)",
            ports=[d.ports[p] for p in involved],
        )
    effort_in = {j for j in chosen if j < n}  # F_j is an output column → e_j input
    kinds_in = ["effort" if j in effort_in else "flow" for j in range(n)]
    for j, kj in fixed.items():
        if kinds_in[j] != kj:  # cannot happen for a Dirac structure
            raise CausalityError(f"internal: port {d.ports[j]} not assigned as requested")
    out_idx = [j if kinds_in[j] == "effort" else n + j for j in range(n)]
    in_idx = [n + j if kinds_in[j] == "effort" else j for j in range(n)]
    if la.numeric_rank(big[:, out_idx], rtol) < n:
        raise StructureError(
            "no input-output form: the structure is not Dirac ("
            + "; ".join(d._problems(None) or ["ill-conditioned"]) + ")"
        )
    M = la.hstack([d.F, d.E], kind)
    if kind == "symbolic":
        M = sympy.Matrix(M)
        rows_all = list(range(M.shape[0]))
        Ay = M.extract(rows_all, out_idx)
        Au = M.extract(rows_all, in_idx)
        if Ay.shape[0] > n:
            _, _, piv, _ = la._pivoted_qr(la.sym_eval(Ay, 0).T, rtol)
            sel = sorted(int(i) for i in piv[:n])
            Ay = Ay.extract(sel, list(range(n)))
            Au = Au.extract(sel, list(range(n)))
        K = la.simplify_matrix(-(Ay.inv(method="LU") * Au))
    else:
        Md = la.to_dense(M) if kind == "sparse" or sp.issparse(M) else np.asarray(M)
        Ay = Md[:, out_idx]
        Au = Md[:, in_idx]
        K = -np.linalg.lstsq(Ay, Au, rcond=None)[0]
        K = 0.5 * (K - K.T)
    ins = [(p, kinds_in[j]) for j, p in enumerate(d.ports)]
    outs = [(p, _CONJ[kinds_in[j]]) for j, p in enumerate(d.ports)]
    return InputOutputForm(K, ins, outs)


# ---------------------------------------------------------------- subspaces


def span_basis(M: Any, kind: Kind) -> Any:
    """Columns spanning ``im Mᵀ`` (orthonormal when numeric; sparse is densified)."""
    if kind == "symbolic":
        basis = sympy.Matrix(M).T.columnspace()
        n = M.shape[1]
        return sympy.ImmutableMatrix(sympy.Matrix.hstack(*basis)) if basis else \
            sympy.ImmutableMatrix(sympy.zeros(n, 0))
    return la.row_basis(la.to_dense(M)).T


def kernel_basis(M: Any, kind: Kind) -> Any:
    """Columns spanning ``ker M`` (orthonormal when numeric; sparse is densified)."""
    if kind == "symbolic":
        basis = sympy.Matrix(M).nullspace(simplify=True)
        n = M.shape[1]
        return sympy.ImmutableMatrix(sympy.Matrix.hstack(*basis)) if basis else \
            sympy.ImmutableMatrix(sympy.zeros(n, 0))
    return la.null_space(la.to_dense(M))
