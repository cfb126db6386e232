r"""Transfer functions :math:`G(s) = C(sI - A)^{-1}B + D` of linear(ized) PHS.

Duindam et al. (2009), App. A.2: for a linear PHS with :math:`H = \tfrac12 x^\top Qx`,

.. math::  G(s) = (G+P)^\top Q\,\bigl(sI - (J-R)Q\bigr)^{-1}(G-P) + M + S .

Numerically :math:`G(s)` is evaluated by solving :math:`(sI - A)X = B` at each ``s``
(batched dense LU for small systems, a sparse LU per frequency for sparse ones); no
inverse is ever formed.  Symbolically the same solve runs in SymPy and each entry is
cancelled and factored into a readable rational function of ``s``.
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sps
import scipy.sparse.linalg as spsla
import sympy as sp

from ..descriptor import DescriptorPHS
from ..errors import ModelError
from ..phs import PHS
from .linear import LinearSystem, linear_system
from .selection import Selector
from .symbolic import symbolic_state_space

#: Complex entries per batch of the dense evaluation (k·n² ≤ this): about 64 MB.
_BATCH_ENTRIES = 4_000_000
#: The Laplace variable of symbolic transfer functions.
LAPLACE_S = sp.Symbol("s")
#: the notebook shows transfer functions as LaTeX up to this many states …
LATEX_MAX_STATES = 30
#: … computed exactly in SymPy up to this many (numerically above)
LATEX_EXACT_STATES = 4
#: … and this many entries (outputs × inputs)
LATEX_MAX_ENTRIES = 16


class TransferFunction:
    """The transfer matrix of a linear(ized) system from ``inputs`` to ``outputs``.

    Call it at complex ``s`` (a number or an array of any shape): the result has shape
    ``s.shape + (n_outputs, n_inputs)``.  Build it with :func:`transfer_function`.

    Attributes
    ----------
    linear : LinearSystem
        The selected state-space model.
    inputs, outputs : tuple of str
        Names of the columns and rows.
    """

    def __init__(self, linear: LinearSystem) -> None:
        self.linear = linear
        self.inputs = linear.inputs
        self.outputs = linear.outputs

    @property
    def shape(self) -> tuple[int, int]:
        return (len(self.outputs), len(self.inputs))

    def __call__(self, s: Any) -> np.ndarray:
        s = np.asarray(s, dtype=complex)
        flat = s.reshape(-1)
        lin = self.linear
        if lin.n_states == 0:
            out = np.broadcast_to(lin.D.astype(complex), (flat.size, *self.shape)).copy()
        elif lin.sparse:
            out = _eval_sparse(lin, flat)
        else:
            out = _eval_dense(lin, flat)
        return out.reshape(s.shape + self.shape)

    def frequency_response(self, omega: Any) -> np.ndarray:
        """``G(jω)`` for angular frequencies ``omega`` (rad/s)."""
        return self(1j * np.asarray(omega, dtype=float))

    def dcgain(self) -> np.ndarray:
        """``G(0)``; raises :class:`ModelError` when ``s = 0`` is a pole (an integrator)."""
        return self(0.0).real

    def symbolic(self) -> sp.Matrix:
        """``G(s)`` as a SymPy matrix of rational functions in the symbol ``s``.

        Parameters of a symbolic PHS stay symbols.  Each entry is cancelled and factored.
        """
        return symbolic_transfer(*self.linear.symbolic_matrices())

    def poles(self) -> np.ndarray:
        """Eigenvalues of ``A`` (the poles, including uncontrollable/unobservable modes)."""
        from .modes import poles

        return poles(self.linear)

    def zeros(self) -> np.ndarray:
        """Invariant zeros (see :func:`porthamiltonian.analysis.zeros`)."""
        from .modes import zeros

        return zeros(self.linear)

    def latex(self, exact: bool | None = None) -> str:
        r"""LaTeX of every entry as ``\frac{y(s)}{u(s)} = \frac{num}{den}`` with the
        numerator and denominator polynomials in ``s`` (see :func:`transfer_latex`).

        ``exact=True``: from :meth:`symbolic` (SymPy; parameters of a symbolic PHS stay
        symbols, common factors cancelled exactly; seconds for more than a few states);
        ``False``: from the numeric matrices (characteristic polynomials, common roots
        cancelled to a relative 1e-6); ``None`` (default): exact up to
        :data:`LATEX_EXACT_STATES` states.
        """
        if exact is None:
            exact = self.linear.n_states <= LATEX_EXACT_STATES
        G = self.symbolic() if exact else _numeric_matrix(self.linear)
        return transfer_latex(G, self.inputs, self.outputs)

    def _repr_latex_(self) -> str | None:
        """Notebook view: :meth:`latex` in display math, for at most
        :data:`LATEX_MAX_STATES` states and :data:`LATEX_MAX_ENTRIES` entries (``None``
        above: a notebook then shows the text repr)."""
        if self.linear.n_states > LATEX_MAX_STATES or \
                self.shape[0] * self.shape[1] > LATEX_MAX_ENTRIES:
            return None
        return f"$$ {self.latex()} $$"

    def __repr__(self) -> str:
        return (f"<TransferFunction {self.shape[0]}×{self.shape[1]} of order "
                f"{self.linear.n_states}: {list(self.inputs)} → {list(self.outputs)}>")


def transfer_function(
    system: Any,
    inputs: Selector = None,
    outputs: Selector = None,
    *,
    symbolic: bool = False,
    x0: Any = None,
    u0: Any = None,
) -> TransferFunction | sp.Matrix:
    """Transfer matrix of ``system`` from ``inputs`` to ``outputs``.

    Parameters
    ----------
    system:
        A PHS, DescriptorPHS, :class:`LinearSystem` or ``(A, B, C, D)``.
    inputs:
        Input names (a port's base name selects all its components) or indices;
        ``None``: all inputs.  The other inputs are held at zero.
    outputs:
        Output names, state names or ``"dH/d<state>"`` co-energy variables, or
        indices; ``None``: all outputs (the conjugates of the inputs of a PHS).
    symbolic:
        If true, return the SymPy matrix (:meth:`TransferFunction.symbolic`) instead.
    x0, u0:
        Operating point of a nonlinear system (see :func:`linear_system`).

    Returns
    -------
    TransferFunction or sympy.Matrix
    """
    if isinstance(system, DescriptorPHS):
        system = system.to_phs()
    if symbolic and isinstance(system, PHS) and system.symbolic:
        # parameters may have no values: stay in SymPy throughout
        return symbolic_transfer(*symbolic_state_space(system, x0, u0, inputs, outputs))
    lin = linear_system(system, x0, u0).select(inputs, outputs)
    tf = TransferFunction(lin)
    return tf.symbolic() if symbolic else tf


def _latex_name(name: str) -> str:
    r"""A port or state name as upright LaTeX text (``L1.i`` → ``\mathrm{L1.i}``)."""
    special = {"\\": r"\backslash{}", "_": r"\_", "{": r"\{", "}": r"\}", "#": r"\#",
               "$": r"\$", "%": r"\%", "&": r"\&", "^": r"\hat{}", "~": r"\sim{}"}
    return r"\mathrm{" + "".join(special.get(c, c) for c in name) + "}"


def _latex_number(v: float) -> str:
    r"""``v`` with 6 significant digits, ``1.5 \cdot 10^{-6}`` for small and large ones."""
    text = f"{v:.6g}"
    if "e" in text:
        mant, exp = text.split("e")
        return (rf"{mant} \cdot " if mant != "1" else "") + f"10^{{{int(exp)}}}"
    return text


def _latex_poly(coeffs: list[Any], numeric: bool) -> str:
    """A polynomial in ``s`` from its coefficients, highest power first."""
    if not numeric:
        return _latex_symbolic_poly(coeffs)
    terms: list[str] = []
    degree = len(coeffs) - 1
    for k, c in enumerate(coeffs):
        c = float(c)
        power = degree - k
        if c == 0.0:
            continue
        mag = abs(c)
        body = "s" if power == 1 else f"s^{{{power}}}" if power > 1 else ""
        num = "" if body and mag == 1.0 else _latex_number(mag)
        term = f"{num}\\,{body}" if num and body else num or body
        sign = ("- " if c < 0 else "+ ") if terms else ("-" if c < 0 else "")
        terms.append(sign + term)
    return " ".join(terms) or "0"


def _latex_symbolic_poly(coeffs: list[Any]) -> str:
    """A polynomial in ``s`` with symbolic coefficients, highest power first; a sum as
    coefficient in parentheses, dotted parameter names (``motor.R``) upright."""
    degree = len(coeffs) - 1
    out = ""
    for k, c in enumerate(coeffs):
        c, power = sp.sympify(c), degree - k
        if c == 0:
            continue
        names = {x: _latex_name(x.name) for x in c.free_symbols if "." in x.name}
        text = sp.latex(c, symbol_names=names)
        body = "s" if power == 1 else f"s^{{{power}}}" if power > 1 else ""
        if isinstance(c, sp.Add) and body:
            text = rf"\left({text}\right)"
        if body:
            text = body if c == 1 else f"-{body}" if c == -1 else f"{text} {body}"
        if not out:
            out = text
        elif text.startswith("-"):
            out += " - " + text[1:].lstrip()
        else:
            out += " + " + text
    return out or "0"


def _numeric_matrix(lin: LinearSystem) -> sp.Matrix:
    """``G(s)`` as a matrix of rational functions with float coefficients, from the
    characteristic polynomials of the numeric quadruple (:func:`scipy.signal.ss2tf`),
    with the roots numerator and denominator share (to a relative 1e-6) cancelled."""
    from scipy.signal import ss2tf

    A = lin.A.toarray() if sps.issparse(lin.A) else np.asarray(lin.A, dtype=float)
    B, C, D = (np.asarray(M, dtype=float) for M in (lin.B, lin.C, lin.D))
    s = LAPLACE_S
    out = sp.zeros(*D.shape)
    for j in range(D.shape[1]):
        if A.shape[0] == 0:
            nums, den = D[:, j:j + 1], np.ones(1)
        else:
            nums, den = ss2tf(A, B, C, D, input=j)
        for i in range(D.shape[0]):
            num, dd = _cancel(np.atleast_2d(nums)[i], np.asarray(den, dtype=float))
            out[i, j] = sp.Poly(num.tolist(), s).as_expr() / sp.Poly(dd.tolist(), s).as_expr()
    return out


def _cancel(num: np.ndarray, den: np.ndarray, rtol: float = 1e-6
            ) -> tuple[np.ndarray, np.ndarray]:
    """``num/den`` (coefficients, highest power first) without their common roots."""
    num = np.array(_clean(list(num)))
    num = np.trim_zeros(num, "f")
    if num.size == 0:
        return np.zeros(1), np.ones(1)
    zeros, poles = list(np.roots(num)), list(np.roots(den))
    kept = []
    for z in zeros:
        k = int(np.argmin([abs(p - z) for p in poles])) if poles else -1
        if k >= 0 and abs(poles[k] - z) <= rtol * max(1.0, abs(z)):
            poles.pop(k)
        else:
            kept.append(z)
    return num[0] * np.real(np.poly(kept)), den[0] * np.real(np.poly(poles))


def _clean(coeffs: list[float]) -> list[float]:
    """Coefficients below 1e-12 of the largest set to 0 (round-off of the solve)."""
    big = max((abs(c) for c in coeffs), default=0.0)
    return [0.0 if abs(c) < 1e-12 * big else c for c in coeffs]


def transfer_latex(G: sp.Matrix, inputs: Any, outputs: Any) -> str:
    r"""LaTeX of a transfer matrix, one line per entry from input ``u`` to output ``y``:
    :math:`\frac{y(s)}{u(s)} = \frac{b_m s^m + \dots + b_0}{s^n + a_{n-1}s^{n-1} + \dots
    + a_0}`.  Numeric entries have a monic denominator and 6 significant digits; with
    symbolic parameters numerator and denominator are the cancelled polynomials in ``s``."""
    s = LAPLACE_S
    lines = []
    for i, y in enumerate(outputs):
        for j, u in enumerate(inputs):
            num, den = sp.fraction(sp.cancel(sp.together(G[i, j])))
            pn, pd = sp.Poly(num, s), sp.Poly(den, s)
            numeric = not (pn.free_symbols | pd.free_symbols) - {s}
            cn, cd = pn.all_coeffs(), pd.all_coeffs()
            if numeric:  # monic denominator; round-off coefficients dropped
                cd = _clean([float(c) for c in cd])
                cd = cd[next((k for k, c in enumerate(cd) if c != 0.0), 0):]
                lead = float(cd[0])
                cn, cd = _clean([float(c) / lead for c in cn]), _clean([float(c) / lead
                                                                        for c in cd])
            ratio = rf"\frac{{{_latex_name(y)}(s)}}{{{_latex_name(u)}(s)}}"
            if numeric and len(cd) == 1:
                body = _latex_poly(cn, True)
            else:
                body = rf"\frac{{{_latex_poly(cn, numeric)}}}{{{_latex_poly(cd, numeric)}}}"
            lines.append(f"{ratio} &= {body}")
    if len(lines) == 1:
        return lines[0].replace(" &= ", " = ")
    return r"\begin{aligned}" + r" \\ ".join(lines) + r"\end{aligned}"


def symbolic_transfer(A: sp.Matrix, B: sp.Matrix, C: sp.Matrix, D: sp.Matrix) -> sp.Matrix:
    """:math:`C(sI - A)^{-1}B + D` by a SymPy LU solve, each entry cancelled and factored."""
    n = A.rows
    if n == 0:
        return sp.Matrix(D)
    X = (LAPLACE_S * sp.eye(n) - A).LUsolve(B)
    return (C * X + D).applyfunc(lambda e: sp.factor(sp.cancel(sp.together(e))))


def _pole_error(s: complex) -> ModelError:
    return ModelError(f"s = {s:.6g} is a pole of the system (sI − A is singular): G(s) is "
                      "infinite there; evaluate at another s")


def _eval_dense(lin: LinearSystem, s: np.ndarray) -> np.ndarray:
    A = np.asarray(lin.A, dtype=float)
    B = lin.B.astype(complex)
    n = A.shape[0]
    eye = np.eye(n)
    out = np.empty((s.size, *lin.D.shape), dtype=complex)
    step = max(1, _BATCH_ENTRIES // (n * n))
    for k0 in range(0, s.size, step):
        sk = s[k0:k0 + step]
        M = sk[:, None, None] * eye - A
        try:
            X = np.linalg.solve(M, np.broadcast_to(B, (sk.size, *B.shape)))
        except np.linalg.LinAlgError:
            bad = next(v for v, Mi in zip(sk, M, strict=True) if np.linalg.matrix_rank(Mi) < n)
            raise _pole_error(bad) from None
        out[k0:k0 + step] = lin.C @ X + lin.D
    return out


def _eval_sparse(lin: LinearSystem, s: np.ndarray) -> np.ndarray:
    A = sps.csc_array(lin.A, dtype=complex)
    eye = sps.identity(A.shape[0], dtype=complex, format="csc")
    B = lin.B.astype(complex)
    out = np.empty((s.size, *lin.D.shape), dtype=complex)
    for k, sk in enumerate(s):
        try:
            lu = spsla.splu(sps.csc_array(sk * eye - A))
        except RuntimeError:  # "Factor is exactly singular"
            raise _pole_error(sk) from None
        out[k] = lin.C @ lu.solve(B) + lin.D
    return out
