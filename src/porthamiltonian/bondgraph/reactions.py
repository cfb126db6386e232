r"""Mass-action reactions (Re elements) in the generated port-Hamiltonian model.

An Re element is a two-port resistor between the forward affinity :math:`A^f` (the
effort of its bond in, from the reactants' 1-junction) and the backward affinity
:math:`A^b` (the effort of its bond out, to the products' 1-junction); both bonds carry
the reaction flux (mol/s)

.. math::  v = \kappa\big(e^{A^f/RT} - e^{A^b/RT}\big)

(Gawthrop & Crampin, Proc. R. Soc. A 470:20140459, 2014, eq. 2.5;
:func:`porthamiltonian.thermo.reactions.laws.mass_action_flux_sym`).  The port-Hamiltonian
form needs a resistive relation linear in the co-energies with a state-dependent
coefficient, so the law is written in conductance form

.. math::  v = \gamma(x)\,(A^f - A^b), \qquad
    \gamma = \frac{\kappa}{RT}\, e^{A^b/RT}\,\frac{e^{(A^f - A^b)/RT} - 1}{(A^f - A^b)/RT}
    \;\ge 0

(:func:`~porthamiltonian.thermo.reactions.laws.dissipation_coefficient_sym`, the
log-mean of the two exponentials times :math:`\kappa/RT`; its limit at :math:`A^f = A^b`
is :math:`\kappa e^{A^f/RT}/RT`).  The affinities are functions of the state: every
effort reaching an Re comes from the species' chemical potentials
:math:`\mu = \partial H/\partial n` through junctions and TF (the stoichiometry), so

.. math::  A^f = a_f^\top \nabla H(x), \qquad A^b = a_b^\top \nabla H(x).

:func:`with_conductances` finds :math:`a_f, a_b` by one sorted elimination of the
element equations with a placeholder conductance per reaction, and gives each Re its
:math:`\gamma(x)`; the generator (:mod:`.generate`) then eliminates as for any modulated
resistor, and the reactions contribute
:math:`R(x) = \sum_k \gamma_k (a_{f,k} - a_{b,k})(a_{f,k} - a_{b,k})^\top \succeq 0`.
The dissipated power is :math:`\sum_k \gamma_k (A^f_k - A^b_k)^2 = \sum_k v_k (A^f_k -
A^b_k) \ge 0`, and a discrete-gradient step dissipates exactly this form at its
discrete gradient; the conservation laws (moieties) :math:`c^\top \dot x = 0` hold
because :math:`c^\top (J - R) = 0` for every state.

A chemostat is an Se on a species' 0-junction; it may feed a reaction directly.  Its
effort (the input, J/mol) enters the affinity, :math:`A = a^\top\nabla H(x) + b^\top u`,
but :math:`\gamma` may not depend on the input (the structure matrices of a PHS are
functions of the state), so inside :math:`\gamma` the chemostat ``X`` stands at the
potential it holds, the parameter ``mu_X`` (J/mol): the model is mass action while
``u_X = mu_X``, and exactly so on every piece of a piecewise-constant drive that
modulates ``mu_X`` with the input (docs/bondgraphs-chemical.md, "Chemostats").  The
input then couples to the reactions through :math:`P` and :math:`S`
(:math:`[[R, P], [P^\top, S]] = \sum_k \gamma_k d_k d_k^\top`, :math:`d = a_f - a_b` over
states and inputs).  A chemostat without ``mu_X``, an affinity that depends on another
source, or on another reaction's flux (two Re without a species between them) is a
:class:`~porthamiltonian.ModelError` naming the reaction.
"""

from __future__ import annotations

from typing import Any

import sympy as sp

from ..errors import ModelError
from ..expr import parameter_symbol, state_symbol
from ..special import reaction_conductance
from .elements import storage_energy
from .elimination import SingularSystem, combine, solve_sorted
from .equations import element_equations
from .graph import BondGraph

__all__ = ["with_conductances", "affinities", "reaction_conductance"]


def affinities(bg: BondGraph) -> dict[str, tuple[Any, Any]]:
    r"""The forward and backward affinities :math:`(A^f, A^b)` (J/mol) of every Re, as
    SymPy expressions in the states (the species' amounts) and the chemostats' held
    potentials (parameters ``mu_<Se>``).

    Raises
    ------
    ModelError
        An affinity depends on a chemostat without its ``mu_<Se>`` parameter, on
        another source or on a reaction flux, or the element equations do not determine
        it.
    """
    bg.check()
    work = bg._copy()
    marks = {}
    for el in work.reactions():
        marks[el.name] = sp.Dummy(f"gamma_{el.name}", positive=True)
        el.params["gamma"] = marks[el.name]
    eq = element_equations(work, ())
    try:
        value = solve_sorted(eq.rows, eq.rhs, eq.n_vars, True)
    except SingularSystem as err:
        raise ModelError(
            f"the affinities of the reactions {', '.join(marks)} are not determined by the "
            "species: every Re needs its forward and backward affinity from 1-junctions "
            "of species (Ce through 0-junctions and TF), with one Ce per species"
        ) from err
    base, at = {}, 0
    for b in work.bonds:
        base[b.name] = at
        at += 2 * b.dim
    H = storage_energy(work, True).expr
    states = set(work.state_names())
    z = {}
    for name in work.state_names():
        z[name] = sp.diff(H, state_symbol(name))
    placeholders = set(marks.values())
    out: dict[str, tuple[Any, Any]] = {}
    for el in work.reactions():
        bonds = work.bonds_of(el.name)
        a, b = (bonds[0], bonds[1]) if bonds[0].head == el.name else (bonds[1], bonds[0])
        pair = []
        for bond, side in ((a, "forward"), (b, "backward")):
            combo = combine({base[bond.name]: 1}, value)
            terms = []
            for k, coef in combo.items():
                known = eq.knowns[k]
                coef = sp.sympify(coef)
                if coef.free_symbols & placeholders:
                    raise ModelError(
                        f"{el.where()}: its {side} affinity (bond {bond.name}) depends on a "
                        "reaction flux; put a species (Ce on a 0-junction) between two "
                        "reactions")
                terms.append(coef * (z[known] if known in states else
                                     _held_potential(work, el, side, bond.name, known)))
            pair.append(sp.Add(*terms))
        out[el.name] = (pair[0], pair[1])
    return out


def _held_potential(bg: BondGraph, el: Any, side: str, bond: str, known: str) -> Any:
    """The parameter ``mu_<X>`` (J/mol) that stands for the chemostat ``X`` (an Se) in a
    reaction's conductance; a :class:`ModelError` for any other source or when the
    parameter is not declared."""
    src = bg.elements.get(known)
    if src is None or src.kind != "Se":
        raise ModelError(
            f"{el.where()}: its {side} affinity (bond {bond}) depends on the source "
            f"{known!r}; a reaction's affinities are potentials: of species (Ce) or of "
            "chemostats (Se on the species' 0-junction)")
    held = f"mu_{known}"
    if held not in bg.parameters:
        raise ModelError(
            f"{el.where()}: its {side} affinity (bond {bond}) depends on the chemostat "
            f"{known!r} (an Se): declare the potential it holds as the parameter {held!r} "
            f"(J/mol), where the reaction's conductance is evaluated, and give the input "
            f"{known!r} the same value (a time-varying chemostat: the same piecewise-"
            f"constant signal as input {known!r} and as modulation={{{held!r}: ...}})")
    return parameter_symbol(held, bg.parameters[held])


def with_conductances(bg: BondGraph) -> BondGraph:
    r"""A copy of ``bg`` whose Re elements carry their conductance :math:`\gamma(x)`
    (``params["gamma"]``, see the module docstring); ``bg`` itself when it has no Re."""
    if not bg.reactions():
        return bg
    aff = affinities(bg)
    work = bg._copy()
    for el in work.reactions():
        A_f, A_b = aff[el.name]
        el.params["gamma"] = reaction_conductance(A_f, A_b, el.params["kappa"],
                                                  el.params["RT"])
    return work
