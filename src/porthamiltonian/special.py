r"""Special functions of the constitutive laws, as SymPy functions printable for NumPy.

:func:`exprel` :math:`(e^a - 1)/a` (a diode's conductance, the regular factor of the
logarithmic mean), :func:`log_mean` and :class:`logmean_exp`, with their removable
singularities filled so that neither SymPy nor the generated NumPy code divides 0 by 0.

A mass-action (Fick) membrane flux :math:`J = k\,(c_a - c_b)` written in the
thermodynamic form :math:`J = L\,(\mu_a - \mu_b)` with the ideal chemical potential
:math:`\mu = \mu^\circ + RT\ln(c/c^\circ)` has the conductance

.. math:: L = \frac{k}{RT}\,\frac{c_a - c_b}{\ln c_a - \ln c_b}
    = \frac{k}{RT}\,c_b\,\operatorname{exprel}(\ln c_a - \ln c_b) > 0,

the logarithmic mean of the two concentrations (Gawthrop & Crampin, Proc. R. Soc. A
470 (2014) 20140459, §2; Oster, Perelson & Katchalsky, Q. Rev. Biophys. 6 (1973) 1).
:math:`\operatorname{exprel}(a) = (e^a - 1)/a` has its removable singularity at
:math:`a = 0` filled.

:class:`reaction_conductance` is the same log-mean for a mass-action reaction,
:math:`\gamma = \kappa(e^{A^f/RT} - e^{A^b/RT})/(A^f - A^b)` (mol²/(J·s)), the conductance
of a chemical bond graph's Re element (:mod:`porthamiltonian.bondgraph.reactions`).  It
lives here, in the foundation layer, so that the expression parser (:mod:`.expr`) can read
it back from ``porthamiltonian phs --json`` and from ``phs:`` model files.
"""

from __future__ import annotations

import math
from typing import Any

import mpmath
import sympy as sp
from mpmath.libmp.libmpf import prec_to_dps

__all__ = ["exprel", "log_mean", "logmean_exp", "reaction_conductance",
           "conductance_piecewise", "conductance_value"]


class exprel(sp.Function):  # noqa: N801 - a function name, as exp
    r""":math:`(e^a - 1)/a`, 1 at :math:`a = 0`; positive for real :math:`a`."""

    @classmethod
    def eval(cls, a: sp.Expr) -> sp.Expr | None:
        if a.is_zero:
            return sp.Integer(1)
        return None

    def _eval_is_positive(self) -> bool | None:
        return True if self.args[0].is_extended_real else None

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        return _exprel_prime(self.args[0])

    def _numpycode(self, printer: Any) -> str:
        a = printer._print(self.args[0])
        return (f"numpy.where(({a}) == 0, 1.0, numpy.expm1({a}) / "
                f"numpy.where(({a}) == 0, 1.0, {a}))")


class _exprel_prime(sp.Function):  # noqa: N801
    r""":math:`(a e^a - e^a + 1)/a^2` (½ at 0); evaluated by its series near 0."""

    def _numpycode(self, printer: Any) -> str:
        a = printer._print(self.args[0])
        safe = f"numpy.where(abs({a}) < 1e-4, 1.0, {a})"
        series = f"(0.5 + ({a}) / 3.0 + ({a})**2 / 8.0)"
        return (f"numpy.where(abs({a}) < 1e-4, {series}, "
                f"(({safe}) * numpy.exp({safe}) - numpy.expm1({safe})) / ({safe})**2)")


def log_mean(a: sp.Expr, b: sp.Expr) -> sp.Expr:
    r""":math:`(a - b)/(\ln a - \ln b)` for :math:`a, b > 0` (:math:`a` when they are equal)."""
    return b * exprel(sp.log(a) - sp.log(b))


class logmean_exp(sp.Function):  # noqa: N801 - a function name, as exp
    r""":math:`\mathrm{logmean}(e^a, e^b) = (e^a - e^b)/(a - b) = e^b\operatorname{exprel}(a - b)`.

    Positive and symmetric for real arguments — declared, so that a structure check
    sees a positive conductance without simplifying through the logarithms.  Printed
    for NumPy as :math:`e^b\operatorname{exprel}(a - b)`.
    """

    @classmethod
    def eval(cls, a: sp.Expr, b: sp.Expr) -> sp.Expr | None:
        if (a - b).is_zero:
            return sp.exp(a)
        return None

    def _eval_is_positive(self) -> bool | None:
        return True if all(x.is_extended_real for x in self.args) else None

    def _eval_is_real(self) -> bool | None:
        return self._eval_is_positive()

    def expanded(self) -> sp.Expr:
        a, b = self.args
        return sp.exp(b) * exprel(a - b)

    def fdiff(self, argindex: int = 1) -> sp.Expr:
        a, b = self.args
        d = sp.exp(b) * _exprel_prime(a - b)
        return d if argindex == 1 else self.expanded() - d

    def _numpycode(self, printer: Any) -> str:
        return printer._print(self.expanded())


_SMALL = 1e-5  # |d| below which expm1(d)/d is replaced by its series (error < 1e-16)


class reaction_conductance(sp.Function):  # noqa: N801 - a function name, as exp
    r""":math:`\gamma(A^f, A^b; \kappa, RT) = v/(A^f - A^b) > 0` (mol²/(J·s)), opaque to
    SymPy's simplification.

    Its value is :func:`~porthamiltonian.thermo.reactions.laws.dissipation_coefficient_sym`
    (``.rewrite(sp.Piecewise)`` gives that form, :func:`conductance_piecewise`); kept as
    one positive function so that the elimination and the structure checks of the generated
    PHS stay cheap (SymPy sees :math:`R = \gamma\,a a^\top`, positive semi-definite at
    sight) and so that the compiled model evaluates it without a 0/0: with :math:`a = A^f/RT`,
    :math:`b = A^b/RT`, :math:`d = a - b`,
    :math:`\gamma = \frac{\kappa}{RT}e^{b}\,\frac{\operatorname{expm1}(d)}{d}`
    (the series :math:`1 + d/2 + d^2/6` for :math:`|d| < 10^{-5}`), as
    :func:`~porthamiltonian.thermo.reactions.laws.dissipation_coefficient` does.
    """

    nargs = 4

    # The model is defined where the amounts are positive (the affinities are sums of
    # logarithms of the amounts, real there): on that domain γ is real and positive
    # whenever κ and RT are.  Saying so keeps SymPy's checks (R = Rᵀ, R ⪰ 0) cheap.
    def _eval_is_positive(self) -> bool | None:
        _, _, kappa, RT = self.args
        return True if kappa.is_positive and RT.is_positive else None

    def _eval_is_extended_real(self) -> bool | None:
        return self._eval_is_positive()

    def _eval_conjugate(self) -> Any:
        return self

    def _eval_simplify(self, **kwargs: Any) -> Any:
        return self  # the affinities are sums of logarithms already; nothing to gain

    def _eval_rewrite_as_Piecewise(self, A_f: Any, A_b: Any, kappa: Any, RT: Any,
                                   **kwargs: Any) -> Any:
        return conductance_piecewise(A_f, A_b, kappa, RT)

    def _eval_evalf(self, prec: int) -> Any:
        vals = _real_values(self.args, prec)
        if vals is None:
            return None
        A_f, A_b, kappa, RT = vals
        with mpmath.workprec(prec + 20):
            d = (A_f - A_b) / RT
            phi = mpmath.mpf(1) if d == 0 else mpmath.expm1(d) / d
            return sp.Float(kappa / RT * mpmath.exp(A_b / RT) * phi, precision=prec)

    def fdiff(self, argindex: int = 1) -> Any:
        A_f, A_b, kappa, RT = self.args
        if argindex in (1, 2):
            slope = _conductance_slope(A_f, A_b, kappa, RT)  # ∂γ/∂A_f
            if argindex == 1:
                return slope
            # γ = (κ/RT) e^b φ(d): ∂γ/∂b = γ − ∂γ/∂a, so ∂γ/∂A_b = γ/RT − ∂γ/∂A_f
            return self / RT - slope
        if argindex == 3:
            return self / kappa
        return sp.diff(conductance_piecewise(A_f, A_b, kappa, RT), RT)

    def _numpycode(self, printer: Any) -> str:
        A_f, A_b, kappa, RT = (printer._print(a) for a in self.args)
        d = f"(({A_f}) - ({A_b}))/({RT})"
        safe = f"numpy.where(abs({d}) < {_SMALL}, 1.0, {d})"
        phi = (f"numpy.where(abs({d}) < {_SMALL}, 1.0 + ({d})/2.0 + ({d})**2/6.0, "
               f"numpy.expm1({safe})/{safe})")
        return f"(({kappa})/({RT})*numpy.exp(({A_b})/({RT}))*{phi})"

    def _pythoncode(self, printer: Any) -> str:
        A_f, A_b, kappa, RT = (printer._print(a) for a in self.args)
        d = f"((({A_f}) - ({A_b}))/({RT}))"
        phi = (f"((1.0 + {d}/2.0 + {d}**2/6.0) if abs({d}) < {_SMALL} "
               f"else math.expm1({d})/{d})")
        return f"(({kappa})/({RT})*math.exp(({A_b})/({RT}))*{phi})"


class _conductance_slope(sp.Function):  # noqa: N801
    r""":math:`\partial\gamma/\partial A^f = \frac{\kappa}{RT^2} e^{b}\varphi'(d)`,
    :math:`\varphi'(d) = (d e^d - \operatorname{expm1} d)/d^2` (series
    :math:`1/2 + d/3 + d^2/8` near 0)."""

    nargs = 4

    def _explicit(self) -> Any:
        A_f, A_b, kappa, RT = self.args
        d = (A_f - A_b) / RT
        return kappa / RT**2 * sp.exp(A_b / RT) * (d * sp.exp(d) - sp.exp(d) + 1) / d**2

    def fdiff(self, argindex: int = 1) -> Any:
        return sp.diff(self._explicit(), self.args[argindex - 1])

    def _eval_evalf(self, prec: int) -> Any:
        vals = _real_values(self.args, prec)
        if vals is None:
            return None
        A_f, A_b, kappa, RT = vals
        with mpmath.workprec(2 * prec + 20):  # the numerator cancels to O(d²)
            d = (A_f - A_b) / RT
            dphi = (mpmath.mpf(1) / 2 if d == 0
                    else (d * mpmath.exp(d) - mpmath.expm1(d)) / d**2)
            return sp.Float(kappa / RT**2 * mpmath.exp(A_b / RT) * dphi, precision=prec)


    def _numpycode(self, printer: Any) -> str:
        A_f, A_b, kappa, RT = (printer._print(a) for a in self.args)
        d = f"(({A_f}) - ({A_b}))/({RT})"
        safe = f"numpy.where(abs({d}) < {_SMALL}, 1.0, {d})"
        phi = (f"numpy.where(abs({d}) < {_SMALL}, 0.5 + ({d})/3.0 + ({d})**2/8.0, "
               f"(({safe})*numpy.exp({safe}) - numpy.expm1({safe}))/({safe})**2)")
        return f"(({kappa})/({RT})**2*numpy.exp(({A_b})/({RT}))*{phi})"

    def _pythoncode(self, printer: Any) -> str:
        A_f, A_b, kappa, RT = (printer._print(a) for a in self.args)
        d = f"((({A_f}) - ({A_b}))/({RT}))"
        phi = (f"((0.5 + {d}/3.0 + {d}**2/8.0) if abs({d}) < {_SMALL} "
               f"else ({d}*math.exp({d}) - math.expm1({d}))/{d}**2)")
        return f"(({kappa})/({RT})**2*math.exp(({A_b})/({RT}))*{phi})"


def _real_values(args: tuple[Any, ...], prec: int) -> list[Any] | None:
    """The arguments as mpmath reals, or ``None`` when one is symbolic or not real."""
    out = []
    for a in args:
        v = a.evalf(prec_to_dps(prec) + 5)
        if not (v.is_Number and v.is_extended_real and v.is_finite):
            return None
        out.append(mpmath.mpf(v._to_mpmath(prec + 20)))
    return out


def conductance_piecewise(A_f: Any, A_b: Any, kappa: Any, RT: Any) -> Any:
    r""":math:`\gamma` as a ``Piecewise``: :math:`\kappa(e^{A^f/RT} - e^{A^b/RT})/(A^f - A^b)`,
    :math:`\kappa e^{A^f/RT}/RT` where :math:`A^f = A^b` (the same expression as
    :func:`porthamiltonian.thermo.reactions.laws.dissipation_coefficient_sym`, written here
    so that this layer-0 module imports nothing of the package)."""
    return sp.Piecewise(
        (kappa * sp.exp(A_f / RT) / RT, sp.Eq(A_f, A_b)),
        (kappa * (sp.exp(A_f / RT) - sp.exp(A_b / RT)) / (A_f - A_b), True),
    )


def conductance_value(A_f: float, A_b: float, kappa: float, RT: float) -> float:
    r"""The float value of :class:`reaction_conductance` (mol²/(J·s)):
    :math:`(\kappa/RT)\,e^{b}\,\operatorname{expm1}(d)/d`, the series
    :math:`1 + d/2 + d^2/6` for :math:`|d| < 10^{-5}` (what the expression parser uses for
    a call with numeric arguments)."""
    d = (A_f - A_b) / RT
    phi = 1.0 + d / 2.0 + d * d / 6.0 if abs(d) < _SMALL else math.expm1(d) / d
    return kappa / RT * math.exp(A_b / RT) * phi

