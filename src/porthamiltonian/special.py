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
"""

from __future__ import annotations

from typing import Any

import sympy as sp

__all__ = ["exprel", "log_mean", "logmean_exp"]


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
