r"""``reduce(system, order, method)``: one entry point for every reduction method.

=============  =====================================================================
method         what (module)
=============  =====================================================================
``"prbt"``     positive-real balanced truncation, pH form by the KYP certificate
               (:mod:`.prbt`); needs :math:`S + S^\top \succ 0`; an error bound
``"irka"``     pH-IRKA, tangential interpolation at iterated shifts with the
               effort-constraint projection (:mod:`.irka`)
``"krylov"``   effort-constraint projection on a rational Krylov basis at ``shifts=``
               (moment matching), or on a given basis ``V=`` (:mod:`.projection`);
               ``"effort"`` is the same
``"galerkin"`` Galerkin projection :math:`W = V` in the energy coordinates
``"pod"``      POD–Galerkin from ``snapshots=`` (linear or nonlinear; :mod:`.pod`)
``"auto"``     ``"pod"`` for a nonlinear system, ``"prbt"`` when the feed-through is
               strictly passive and :math:`n \le 2000`, else ``"irka"``
=============  =====================================================================

Linear systems are first brought to the standard form :math:`E = I` (:mod:`.standard`:
an invertible :math:`E`, constraints eliminated exactly), and the kernel of :math:`Q` is
removed exactly (:mod:`.minimal`); ``minimal=True`` (the default for PRBT) also
truncates the numerically unobservable part at ``minimal_tol``.  The reduced model is a
library :class:`~porthamiltonian.PHS`, built with ``check=True``.
"""

from __future__ import annotations

import time
from typing import Any

import numpy as np

from ..errors import ModelError
from ..linear_ph import LinearPH
from ..phs import PHS
from .result import Reduction, check_order
from .standard import abcd, standard_form, to_phs

__all__ = ["Reduction", "reduce", "METHODS"]

METHODS = ("auto", "prbt", "irka", "krylov", "effort", "galerkin", "pod")
_ALIASES = {"ph-irka": "irka", "phirka": "irka", "effort": "krylov",
            "effort-constraint": "krylov", "pr-bt": "prbt"}


def _method(method: str, system: Any, linear: bool) -> str:
    if not isinstance(method, str):
        raise ModelError(f"method must be a string, one of {', '.join(METHODS)}")
    key = _ALIASES.get(method.lower(), method.lower())
    if key not in METHODS:
        raise ModelError(f"unknown reduction method {method!r}; choose one of "
                         f"{', '.join(METHODS)} (docs/reduction.md)")
    if not linear and key not in ("pod", "auto"):
        raise ModelError(
            f"method {key!r} needs a linear pH system (constant matrices, quadratic "
            "energy, numeric parameters); for a nonlinear system use method='pod' with "
            "snapshots= (a simulation result or an n × k array of states), or linearize "
            "it first (system.linearize(x0))")
    return key


def reduce(system: Any, order: int, method: str = "auto", *, errors: bool = True,
           minimal: bool | None = None, minimal_tol: float = 1e-12, name: str | None = None,
           **options: Any) -> Reduction:
    """Reduce ``system`` to ``order`` states, keeping the port-Hamiltonian form.

    Parameters
    ----------
    system:
        A linear :class:`PHS` / :class:`DescriptorPHS` / :class:`LinearPH`, or (``pod``)
        any PHS, symbolic and nonlinear included.
    order:
        The number of reduced states, ``1 ≤ order < n``.
    method:
        See the module table; ``"auto"`` chooses.
    errors:
        Compute the H2 and H∞ errors against the full model (linear methods).
    minimal:
        Truncate the numerically unobservable part first (default: only for PRBT, whose
        Riccati equations need a minimal system); the kernel of Q is always removed.
    options:
        ``shifts``, ``directions``, ``seed``, ``tol``, ``maxit`` (IRKA); ``shifts``,
        ``directions``, ``V`` (Krylov, Galerkin); ``bound`` (PRBT: compute the error
        bound, default True); ``snapshots``, ``center`` (POD).
    """
    t0 = time.perf_counter()
    from .standard import is_linear_input

    linear = is_linear_input(system)
    if not linear and not isinstance(system, PHS):
        from ..linear_ph import linear_ph

        linear_ph(system)  # raises the ModelError that says what the system must be
    key = _method(method, system, linear)
    if key == "pod" or (key == "auto" and not linear):
        from .pod import pod_reduce

        return pod_reduce(system, order, name=name, **options)
    lin = standard_form(system)
    n_full = lin.n_states
    order = check_order(order, n_full)
    if key == "auto":
        R0 = lin.S + lin.S.T
        strict = R0.size > 0 and np.linalg.eigvalsh(R0).min() > 1e-14
        key = "prbt" if strict and n_full <= 2000 else "irka"
    allowed = {"prbt": {"bound"}, "irka": {"shifts", "directions", "seed", "tol", "maxit"},
               "krylov": {"shifts", "directions", "V"}, "galerkin": {"shifts", "directions",
                                                                    "V"}}[key]
    unknown = set(options) - allowed
    if unknown:
        raise ModelError(f"unknown option(s) {', '.join(sorted(unknown))} for method "
                         f"{key!r}; it takes {', '.join(sorted(allowed)) or 'none'}")
    from .minimal import minimal_realization

    use_min = key == "prbt" if minimal is None else bool(minimal)
    mini = minimal_realization(lin, minimal_tol, truncate=use_min)
    base = mini.system
    info: dict[str, Any] = {"n_minimal": base.n_states}
    if mini.note:
        info["minimal_note"] = mini.note
    if order >= base.n_states:
        raise ModelError(
            f"order={order} is not below the {base.n_states} states of the minimal "
            f"realization of this {n_full}-state system (the other states are invisible at "
            f"the ports); choose order < {base.n_states}")
    bound = None
    if key == "prbt":
        from .prbt import prbt

        A, B, C, D = abcd(base)
        red, V, W, extra = prbt(base, A, B, C, D, order, bound=options.get("bound", True))
        bound = extra.pop("error_bound")
    elif key == "irka":
        from .irka import ph_irka

        red, V, W, extra = ph_irka(base, order, **options)
    else:
        from .projection import basis_from, effort_bases, galerkin, orthonormal_basis

        A, B, _, _ = abcd(base)
        V0, extra = basis_from(options, base, A, B, order)
        if key == "krylov":
            V, W, Qr = effort_bases(base, V0)
            from .projection import effort_constraint

            red = effort_constraint(base, V, orthonormal=True)
        else:
            V = W = orthonormal_basis(V0)
            red = galerkin(base, V)
    info.update(extra)
    V, W = mini.V @ V, mini.W @ W
    label = name if name is not None else (f"{lin.name} (reduced, {key}, r={order})"
                                           if lin.name else f"reduced ({key}, r={order})")
    phs = to_phs(red.J, red.R, red.Q, red.G, red.P, red.S, red.N, lin, label)
    h2 = hinf = None
    if errors:
        from .norms import h2_error, hinf_error

        try:
            h2 = h2_error(lin, phs)
            hinf = hinf_error(lin, phs)
        except ModelError as exc:
            info["errors"] = str(exc)
    info["seconds"] = time.perf_counter() - t0
    return Reduction(system=phs, V=V, W=W, method=key, order=order, n_full=n_full,
                     h2_error=h2, hinf_error=hinf, error_bound=bound, info=info)


def reduced_linear(reduction: Reduction) -> LinearPH:
    """The reduced model's matrices (a :class:`LinearPH`)."""
    from ..linear_ph import linear_ph

    return linear_ph(reduction.system)
