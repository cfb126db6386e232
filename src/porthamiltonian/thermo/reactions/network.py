r"""A mass-action reaction network with ideal species: :class:`ReactionNetwork`.

States are the amounts :math:`n_i` (mol), the Hamiltonian the isothermal Gibbs free
energy (J, :mod:`.laws`), and the dynamics :math:`\dot n = N v(n)` with the
Marcelin–de Donder fluxes :math:`v_r = \kappa_r(e^{A^f_r/RT} - e^{A^b_r/RT})` (mol/s;
the backward term is dropped for ``->``).  The network is parametrized either
thermodynamically (``mu0`` in J/mol and ``kappa`` in mol/s: consistent by construction)
or kinetically (``k_forward``, ``k_backward``: checked against Wegscheider's condition,
:mod:`.consistency`, then converted).  :meth:`ReactionNetwork.to_phs` gives the
port-Hamiltonian form (:mod:`.phs_form`), :meth:`ReactionNetwork.equilibrium` the
detailed-balance equilibrium reached from an initial state.  See docs/thermo-chemistry.md.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
import scipy.sparse as sps
import sympy as sp

from ...errors import ModelError
from .consistency import check_wegscheider, potentials_from_rates
from .laws import C_STANDARD, R_GAS, gibbs_energy, gibbs_energy_x
from .parse import Reaction, parse_reaction
from .stoichiometry import conservation_laws, cycles, stoichiometry

__all__ = ["ReactionNetwork", "BASES"]

BASES = ("concentration", "mole_fraction")


def _per(values: Any, names: Sequence[str], what: str, default: float | None) -> np.ndarray:
    """``values`` (a number, a sequence or ``{name: value}``) as an array over ``names``."""
    if values is None:
        if default is None:
            raise ModelError(f"{what}: give a value for each of {', '.join(names)}")
        return np.full(len(names), float(default))
    if isinstance(values, Mapping):
        unknown = [k for k in values if k not in names]
        if unknown:
            raise ModelError(f"{what}: {', '.join(map(str, unknown))} not among "
                             f"{', '.join(names)}")
        missing = [k for k in names if k not in values]
        if missing and default is None:
            raise ModelError(f"{what}: no value for {', '.join(missing)}")
        return np.array([float(values.get(k, default)) for k in names])
    arr = np.asarray(values, dtype=float)
    if arr.ndim == 0:
        return np.full(len(names), float(arr))
    if arr.shape != (len(names),):
        raise ModelError(f"{what}: {arr.size} values for {len(names)} entries")
    return arr


class ReactionNetwork:
    r"""Species, reactions and their thermodynamic parameters.

    Parameters
    ----------
    species : names of the species (states, in this order); ``None``: in order of
        appearance in the reactions.
    reactions : equations (:mod:`.parse`) as a sequence (named ``r1``, ``r2``, …) or
        ``{name: equation}``.
    RT : gas constant × temperature (J/mol); or ``temperature`` (K). Default 298.15 K.
    volume : :math:`V` (m³), default 1.
    mu0 : standard potentials :math:`\mu^\circ` (J/mol), ``{species: value}`` (missing:
        0); with ``kappa`` (mol/s, per reaction, default 1).
    k_forward, k_backward : rate constants instead of ``kappa`` (and ``mu0``), in
        (mol/s)(mol/m³)^(−Σν); ``k_backward`` for reversible reactions only.
    basis : ``"concentration"`` (:math:`\mu = \mu^\circ + RT\ln(n/(Vc^\circ))`) or
        ``"mole_fraction"`` (ideal mixture, :math:`\mu = \mu^\circ + RT\ln x`).
    c_standard : :math:`c^\circ` (mol/m³), 1 (default) or 1000 (1 mol/L).
    chemostats : species held at a fixed chemical potential (ports of the PHS).
    chemostat_mu : their potentials (J/mol), ``{species: value}``: where the reactions'
        conductances are evaluated (the symbolic form's parameters ``chemostat_<C>``);
        the run's inputs ``mu_<C>`` should equal them (docs/thermo-chemistry.md).
    flow_sources : species with an external flow input (mol/s) (ports of the PHS).
    """

    def __init__(self, species: Sequence[str] | None,
                 reactions: Sequence[str | Reaction] | Mapping[str, str | Reaction], *,
                 RT: float | None = None, temperature: float | None = None,
                 volume: float = 1.0, mu0: Any = None, kappa: Any = None,
                 k_forward: Any = None, k_backward: Any = None,
                 basis: str = "concentration", c_standard: float = C_STANDARD,
                 chemostats: Sequence[str] = (), chemostat_mu: Any = None,
                 flow_sources: Sequence[str] = ()) -> None:
        items = (list(reactions.items()) if isinstance(reactions, Mapping)
                 else [(f"r{k + 1}", r) for k, r in enumerate(reactions)])
        if not items:
            raise ModelError("a reaction network needs at least one reaction")
        self.reaction_names = [str(k) for k, _ in items]
        self.reactions = [r if isinstance(r, Reaction) else parse_reaction(r, k)
                          for k, r in items]
        seen = list(dict.fromkeys(s for r in self.reactions for s in r.species))
        if species is None:
            species = seen
        self.species = [str(s) for s in species]
        if len(set(self.species)) != len(self.species):
            raise ModelError(f"species {self.species}: a name appears twice")
        unknown = [s for s in seen if s not in self.species]
        if unknown:
            raise ModelError(f"reactions use {', '.join(unknown)}, not among the species "
                             f"{', '.join(self.species)}")
        if basis not in BASES:
            raise ModelError(f"basis {basis!r}: use 'concentration' or 'mole_fraction'")
        if RT is not None and temperature is not None:
            raise ModelError("give RT or temperature, not both")
        self.RT = float(RT) if RT is not None else R_GAS * float(
            298.15 if temperature is None else temperature)
        self.volume, self.c_standard, self.basis = float(volume), float(c_standard), basis
        if not (self.RT > 0 and self.volume > 0 and self.c_standard > 0):
            raise ModelError("RT (or temperature), volume and c_standard must be positive")
        self.equations = [r.text for r in self.reactions]
        self.reversible = np.array([r.reversible for r in self.reactions], dtype=bool)
        nf, nb = stoichiometry(self.species, self.reactions)
        self.N_sym: sp.Matrix = nb - nf
        self.nu_f = np.array(nf.tolist(), dtype=float).reshape(nf.shape)
        self.nu_b = np.array(nb.tolist(), dtype=float).reshape(nb.shape)
        self.N = self.nu_b - self.nu_f
        self._nf_T, self._nb_T = sps.csr_array(self.nu_f.T), sps.csr_array(self.nu_b.T)
        self._N_sparse = sps.csr_array(self.N)
        self.conservation_laws = conservation_laws(self.N_sym)
        self.cycles = cycles(self.N_sym, self.reversible)
        self._set_parameters(mu0, kappa, k_forward, k_backward)
        self._set_ports(chemostats, chemostat_mu, flow_sources)

    # ------------------------------------------------------------------ parameters
    def _set_parameters(self, mu0: Any, kappa: Any, k_forward: Any, k_backward: Any) -> None:
        names = self.reaction_names
        if k_forward is None and k_backward is None:
            self.mu0 = _per(mu0, self.species, "mu0", 0.0)
            self.kappa = _per(kappa, names, "kappa", 1.0)
        else:
            if kappa is not None or mu0 is not None:
                raise ModelError("give either mu0 and kappa, or k_forward and k_backward "
                                 "(rate constants fix mu0 through the equilibrium constants)")
            kf = _per(k_forward, names, "k_forward", None)
            rev = [n for n, r in zip(names, self.reversible, strict=True) if r]
            if isinstance(k_backward, Mapping):
                extra = [k for k in k_backward if k not in rev]
                if extra:
                    raise ModelError(f"k_backward given for irreversible reaction(s) "
                                     f"{', '.join(extra)}; write them with '<=>'")
                kb = np.array([float(k_backward[n]) if n in k_backward else np.nan
                               for n in names])
                missing = [n for n in rev if n not in k_backward]
                if missing:
                    raise ModelError(f"k_backward: no value for {', '.join(missing)}")
            else:
                kb = _per(k_backward, names, "k_backward", None)
            bad = [n for n, a, b, r in zip(names, kf, kb, self.reversible, strict=True)
                   if not a > 0 or (r and not b > 0)]
            if bad:
                raise ModelError(f"rate constants of {', '.join(bad)} must be positive")
            check_wegscheider(self.cycles, kf, kb, names, self.equations)
            self.mu0, self.kappa = potentials_from_rates(
                self.N, self.nu_f, self.reversible, kf, kb, self.RT, self.c_standard)
        if np.any(~(self.kappa > 0)):
            raise ModelError("kappa must be positive for every reaction")

    def _set_ports(self, chemostats: Sequence[str], chemostat_mu: Any,
                   flow_sources: Sequence[str]) -> None:
        for group, what in ((chemostats, "chemostats"), (flow_sources, "flow_sources")):
            bad = [s for s in group if s not in self.species]
            if bad:
                raise ModelError(f"{what}: {', '.join(bad)} not among the species")
        both = set(chemostats) & set(flow_sources)
        if both:
            raise ModelError(f"{', '.join(sorted(both))}: a species is a chemostat or has a "
                             "flow source, not both")
        if chemostats and self.basis == "mole_fraction":
            raise ModelError("chemostats need the concentration basis (a mole fraction "
                             "depends on the unknown amount in the reservoir)")
        self.chemostats = list(chemostats)
        self.flow_sources = list(flow_sources)
        self.chemostat_mu = (_per(chemostat_mu, self.chemostats, "chemostat_mu", None)
                             if self.chemostats else np.zeros(0))
        self.free = [s for s in self.species if s not in set(self.chemostats)]

    # ------------------------------------------------------------------ numbers
    def chemical_potential(self, n: np.ndarray) -> np.ndarray:
        """:math:`\\mu(n)` (J/mol) of all species (``n`` over all species)."""
        n = np.asarray(n, dtype=float)
        scale = n.sum() if self.basis == "mole_fraction" else self.volume * self.c_standard
        return self.mu0 + self.RT * np.log(n / scale)

    def gibbs_energy(self, n: np.ndarray) -> float:
        """:math:`H(n)` (J) over all species."""
        if self.basis == "mole_fraction":
            return gibbs_energy_x(n, self.mu0, self.RT)
        return gibbs_energy(n, self.mu0, self.RT, self.volume, self.c_standard)

    def flux(self, n: np.ndarray) -> np.ndarray:
        """Reaction fluxes :math:`v` (mol/s) at amounts ``n`` (mol, ≥ 0) of all species;
        an absent species (``n = 0``) stops the reactions that consume it."""
        with np.errstate(divide="ignore"):
            mu = self.chemical_potential(n)
        # sparse products: only the species of a reaction enter its affinity (no 0·(−∞))
        ef = np.exp((self._nf_T @ mu) / self.RT)
        eb = np.where(self.reversible, np.exp((self._nb_T @ mu) / self.RT), 0.0)
        return self.kappa * (ef - eb)

    def rhs(self, n: np.ndarray) -> np.ndarray:
        """:math:`\\dot n = N v(n)` (mol/s), all species (chemostats included)."""
        return self._N_sparse @ self.flux(n)

    def jacobian(self, n: np.ndarray) -> Any:
        """:math:`\\partial(Nv)/\\partial n` (sparse, concentration basis; dense for mole
        fractions): :math:`N\\,\\mathrm{diag}(\\kappa e^{A^f/RT})\\,\\nu^{fT} D - \\ldots`
        with :math:`D = \\nabla^2 H/RT`; amounts are clipped at 1e-300 mol (the
        derivative stays finite at an absent species)."""
        n = np.maximum(np.asarray(n, dtype=float), 1e-300)
        mu = self.chemical_potential(n)
        ef = self.kappa * np.exp((self._nf_T @ mu) / self.RT)
        eb = np.where(self.reversible, self.kappa * np.exp((self._nb_T @ mu) / self.RT), 0.0)
        N = self._N_sparse
        dv = self._nf_T.multiply(ef[:, None]) - self._nb_T.multiply(eb[:, None])
        if self.basis == "mole_fraction":
            D = np.diag(1.0 / n) - 1.0 / n.sum()
            return N @ (dv @ D)
        return sps.csr_array(N @ sps.csr_array(dv.multiply((1.0 / n)[None, :])))

    def equilibrium_constants(self) -> np.ndarray:
        """:math:`K_r = e^{-N_r^T\\mu^\\circ/RT}` (dimensionless)."""
        return np.exp(-(self.N.T @ self.mu0) / self.RT)

    # ------------------------------------------------------------------ equilibrium
    def equilibrium(self, n0: Any, *, tol: float = 1e-14, max_iter: int = 200) -> np.ndarray:
        r"""The detailed-balance equilibrium reached from ``n0`` (mol, all species).

        At equilibrium every reversible flux vanishes, :math:`N^T\mu = 0`, so
        :math:`\mu = L^T\lambda` with the conservation laws :math:`L`; then
        :math:`n_i = Vc^\circ e^{((L^T\lambda)_i - \mu^\circ_i)/RT}` and
        :math:`\lambda` solves :math:`L n(\lambda) = L n_0` — the minimum of the convex
        :math:`RT\sum_i n_i(\lambda) - \lambda^T L n_0`, found by damped Newton.
        Concentration basis, reversible reactions and no chemostats only.
        """
        if self.basis != "concentration" or self.chemostats or not self.reversible.all():
            raise ModelError("equilibrium(): needs the concentration basis, reversible "
                             "reactions ('<=>') and no chemostats")
        n0 = _per(n0, self.species, "n0", None)
        L = self.conservation_laws.astype(float)
        RT, scale = self.RT, self.volume * self.c_standard
        target = L @ n0
        lam = np.zeros(L.shape[0])

        def amounts(lam: np.ndarray) -> np.ndarray:
            return scale * np.exp((L.T @ lam - self.mu0) / RT)

        def phi(lam: np.ndarray) -> float:
            return float(RT * amounts(lam).sum() - lam @ target)

        for _ in range(max_iter):
            n = amounts(lam)
            g = L @ n - target
            if np.all(np.abs(g) <= tol * np.maximum(np.abs(target), 1e-300)):
                break
            Hm = (L * n) @ L.T / RT
            step = np.linalg.solve(Hm + 1e-300 * np.eye(len(lam)), -g)
            t, f0 = 1.0, phi(lam)
            while t > 1e-12 and not phi(lam + t * step) <= f0 + 1e-4 * t * (g @ step):
                t *= 0.5
            lam = lam + t * step
        return amounts(lam)

    # ------------------------------------------------------------------ PHS
    @property
    def problem_kind(self) -> str:
        """Not simulated directly: ``simulate(net, …)`` raises a :class:`ModelError`
        that says what to pass instead (its PHS form, or — with irreversible reactions,
        which have none — a reversible rewrite or SciPy on :meth:`rhs`)."""
        from .phs_form import irreversible_message

        text = irreversible_message(self)
        if text is not None:
            raise ModelError(f"cannot simulate this ReactionNetwork: {text}")
        raise ModelError("simulate() takes the network's port-Hamiltonian form: "
                         "simulate(net.to_phs(), ...) (net.to_phs('numeric') for a large "
                         "network)")

    def to_phs(self, form: str = "auto", name: str = "reactions") -> Any:
        """The port-Hamiltonian form (:mod:`.phs_form`): ``"symbolic"`` (a
        :class:`~porthamiltonian.PHS`), ``"numeric"`` (a sparse
        :class:`~.phs_form.ReactionFunctionPHS`, any size) or ``"auto"`` (symbolic up
        to 12 reactions)."""
        from .phs_form import numeric_phs, symbolic_phs

        if form not in ("auto", "symbolic", "numeric"):
            raise ModelError(f"form {form!r}: use 'auto', 'symbolic' or 'numeric'")
        if form == "symbolic" or (form == "auto" and len(self.reactions) <= 12):
            return symbolic_phs(self, name)
        return numeric_phs(self, name)
