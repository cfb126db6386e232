r"""The port-Hamiltonian form of a :class:`~.network.ReactionNetwork`.

States: the amounts of the free (non-chemostatted) species :math:`n_s` (mol); effort
:math:`z = \nabla H = \mu_s` (J/mol); :math:`H` the isothermal Gibbs free energy (J).
With the potentials of all species :math:`\mu = (\mu_s, \mu_c)`, each reaction's flux is
:math:`v_r = \gamma_r (A^f_r - A^b_r) = -\gamma_r N_r^T\mu` with the log-mean
coefficient :math:`\gamma_r = v_r/(A^f_r - A^b_r) \ge 0` (:func:`.laws.dissipation_coefficient`,
limit :math:`\kappa e^{A/RT}/RT` at :math:`A^f = A^b`).  Splitting
:math:`N = [N_s; N_c]` and :math:`\Gamma = \mathrm{diag}(\gamma)`:

.. math::

    \dot n_s = -R\,\mu_s + (G - P)\,u,\quad y = (G + P)^T\mu_s + S\,u,\qquad
    J = 0,\; R = N_s\Gamma N_s^T,\; P = [N_s\Gamma N_c^T,\ 0],\;
    S = \mathrm{diag}(N_c\Gamma N_c^T, 0),\; G = [0,\ E_f]

with inputs :math:`u = (\mu_c, f)`: the chemostats' potentials (J/mol, an Se each;
its output :math:`y = -N_c v` is the flow *into* the network, mol/s) and the flows of
the flow sources (mol/s, an Sf each, columns :math:`E_f` of the identity; output the
species' potential).  :math:`[[R, P], [P^T, S]] = [N_s; N_c]\Gamma[N_s; N_c]^T \succeq 0`.
Power balance (W): :math:`\dot H = u^T y - \sum_r v_r(A^f_r - A^b_r)`, the dissipation
being :math:`T` × the entropy production.  :math:`\Gamma` is exponential in the
chemostats' potentials and the structure matrices may depend on the state only, so it is
evaluated at the potentials the chemostats hold, ``chemostat_mu``: the form is exact
while the inputs equal them (what a chemostat is).  The symbolic form keeps them as the
parameters ``chemostat_<C>`` (:func:`held_name`); modulating a parameter with the same
piecewise-constant signal as its input ``mu_<C>`` gives an exact time-varying chemostat.

Two forms: :func:`symbolic_phs` (a :class:`~porthamiltonian.PHS`, small networks) and
:func:`numeric_phs` (a :class:`ReactionFunctionPHS`: sparse NumPy functions and the
analytic Jacobian, for large stiff networks with the discrete-gradient method).
Irreversible reactions have no such form: mass action without a backward flux is the
limit of an infinite affinity, and with finite potentials its dissipation
:math:`v(A^f - A^b)` takes either sign (:func:`irreversible_message` gives the fixes).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import scipy.sparse as sps
import sympy as sp

from ...compiled import NumericPHS
from ...errors import ModelError
from ...expr import parameter_symbol
from ...functional import FunctionPHS
from ...phs import PHS
from .laws import dissipation_coefficient, dissipation_coefficient_sym

#: a :class:`~.network.ReactionNetwork` (not imported: ``network`` imports this module)
ReactionNetwork = Any

__all__ = ["symbolic_phs", "numeric_phs", "ReactionFunctionPHS", "port_names",
           "irreversible_message", "held_name"]

#: up to this many states + inputs the numeric form uses dense matrices (less overhead)
DENSE_UP_TO = 60


def irreversible_message(net: ReactionNetwork) -> str | None:
    """Why a network with ``->`` reactions has no PHS form, and the two fixes; ``None``
    when every reaction is reversible (docs/thermo-chemistry.md, "Irreversible
    reactions")."""
    irr = [f"{n} ({t!r})" for n, t, r in zip(net.reaction_names, net.equations,
                                             net.reversible, strict=True) if not r]
    if not irr:
        return None
    return (f"reaction(s) {', '.join(irr)} are irreversible ('->'): mass action without "
            "its backward flux is the limit of an infinite affinity (K → ∞), so with the "
            "species' finite potentials its dissipation v·(A_f − A_b) can be negative and "
            "there is no port-Hamiltonian form to simulate. Either write them reversible "
            "('<=>') with a small backward rate (k_backward ≪ k_forward, or the products' "
            "mu0 well below the reactants') and simulate net.to_phs(), or integrate the "
            "mass-action ODE with SciPy: solve_ivp(lambda t, n: net.rhs(n), t_span, n0, "
            "method='BDF', jac=lambda t, n: net.jacobian(n))")


def _check(net: ReactionNetwork) -> None:
    text = irreversible_message(net)
    if text is not None:
        raise ModelError(text)


def port_names(net: ReactionNetwork) -> tuple[list[str], list[str]]:
    """Inputs ``mu_<C>`` (chemostats), ``flow_<X>`` (flow sources) and outputs
    ``inflow_<C>`` (mol/s into the network), ``mu_<X>`` (J/mol)."""
    inputs = [f"mu_{c}" for c in net.chemostats] + [f"flow_{s}" for s in net.flow_sources]
    outputs = [f"inflow_{c}" for c in net.chemostats] + [f"mu_{s}" for s in net.flow_sources]
    return inputs, outputs


def held_name(species: str) -> str:
    """The parameter holding chemostat ``species``' potential inside Γ (J/mol):
    ``chemostat_<species>`` (symbolic form; modulate it together with the input
    ``mu_<species>`` for a time-varying chemostat)."""
    return f"chemostat_{species}"


def _split(net: ReactionNetwork) -> tuple[np.ndarray, np.ndarray]:
    free = [net.species.index(s) for s in net.free]
    chem = [net.species.index(s) for s in net.chemostats]
    return np.array(free, dtype=int), np.array(chem, dtype=int)


def _flow_columns(net: ReactionNetwork) -> np.ndarray:
    E = np.zeros((len(net.free), len(net.flow_sources)))
    for k, s in enumerate(net.flow_sources):
        E[net.free.index(s), k] = 1.0
    return E


# ---------------------------------------------------------------------- symbolic
def symbolic_phs(net: ReactionNetwork, name: str = "reactions") -> PHS:
    """The network as a symbolic :class:`~porthamiltonian.PHS` (states named after the
    free species; parameters as numbers)."""
    _check(net)
    free, chem = _split(net)
    xs = [sp.Symbol(s, positive=True) for s in net.free]
    RT = sp.Float(net.RT)
    if net.basis == "mole_fraction":
        total = sp.Add(*xs)
        mu_free = [sp.Float(net.mu0[i]) + RT * sp.log(x / total) for i, x in zip(free, xs,
                                                                                   strict=True)]
    else:
        scale = sp.Float(net.volume * net.c_standard)
        mu_free = [sp.Float(net.mu0[i]) + RT * sp.log(x / scale) for i, x in zip(free, xs,
                                                                                  strict=True)]
    H = sp.Add(*[x * m for x, m in zip(xs, mu_free, strict=True)])
    if net.basis == "concentration":
        H = H - RT * sp.Add(*xs)
    mu = [sp.S.Zero] * len(net.species)
    for k, i in enumerate(free):
        mu[i] = mu_free[k]
    held = {}  # the chemostats' potentials in Γ: parameters, so that they can be modulated
    for k, i in enumerate(chem):
        name = held_name(net.chemostats[k])
        held[name] = float(net.chemostat_mu[k])
        mu[i] = parameter_symbol(name, held[name])
    gammas = []
    for r in range(len(net.reaction_names)):
        Af = sp.Add(*[sp.nsimplify(net.nu_f[i, r]) * mu[i] for i in np.flatnonzero(net.nu_f[:, r])])
        Ab = sp.Add(*[sp.nsimplify(net.nu_b[i, r]) * mu[i] for i in np.flatnonzero(net.nu_b[:, r])])
        gammas.append(dissipation_coefficient_sym(Af, Ab, sp.Float(net.kappa[r]), RT))
    Gam = sp.diag(*gammas)
    Ns = net.N_sym.extract(list(free), list(range(net.N_sym.cols)))
    Nc = net.N_sym.extract(list(chem), list(range(net.N_sym.cols)))
    R = Ns * Gam * Ns.T
    nf = len(net.flow_sources)
    P = (Ns * Gam * Nc.T).row_join(sp.zeros(len(free), nf))
    S = sp.diag(Nc * Gam * Nc.T, sp.zeros(nf, nf)) if chem.size or nf else sp.zeros(0, 0)
    G = sp.zeros(len(free), len(chem)).row_join(sp.Matrix(_flow_columns(net)))
    inputs, outputs = port_names(net)
    m = len(inputs)
    return PHS(sp.zeros(len(free), len(free)), R, G, P, sp.zeros(m, m),
               S if m else sp.zeros(0, 0), hamiltonian=H, states=xs, inputs=inputs,
               outputs=outputs, name=name, parameters=held, check=False)


# ---------------------------------------------------------------------- numeric
class _Gram:
    r""":math:`A\,\mathrm{diag}(g)\,B^T` for fixed sparse :math:`A`, :math:`B` and any
    :math:`g`: its entries are a fixed sparse matrix times :math:`g` (the pairs of
    species a reaction couples), so one evaluation is one sparse product of the size of
    the result — no sparse matrix–matrix product per call."""

    def __init__(self, A: Any, B: Any, dense: bool) -> None:
        A, B = sps.csc_array(A), sps.csc_array(B)
        self.shape = (A.shape[0], B.shape[0])
        rows, cols, reacts, vals = [], [], [], []
        for r in range(A.shape[1]):
            ia = A.indices[A.indptr[r]:A.indptr[r + 1]]
            va = A.data[A.indptr[r]:A.indptr[r + 1]]
            ib = B.indices[B.indptr[r]:B.indptr[r + 1]]
            vb = B.data[B.indptr[r]:B.indptr[r + 1]]
            rows.append(np.repeat(ia, ib.size))
            cols.append(np.tile(ib, ia.size))
            vals.append(np.outer(va, vb).ravel())
            reacts.append(np.full(ia.size * ib.size, r))
        cat = (lambda parts, dt: np.concatenate(parts).astype(dt) if parts  # noqa: E731
               else np.zeros(0, dtype=dt))
        i, j, v = cat(rows, np.int64), cat(cols, np.int64), cat(vals, float)
        flat, inv = np.unique(i * self.shape[1] + j, return_inverse=True)
        self.M = sps.csr_array((v, (inv.ravel(), cat(reacts, np.int64))),
                               shape=(flat.size, A.shape[1]))
        self.dense = dense
        self.flat = flat
        self.indices = (flat % self.shape[1]).astype(np.int32)
        self.indptr = np.searchsorted(flat // self.shape[1],
                                      np.arange(self.shape[0] + 1)).astype(np.int32)

    def __call__(self, g: np.ndarray) -> Any:
        data = self.M @ g
        if self.dense:
            out = np.zeros(self.shape[0] * self.shape[1])
            out[self.flat] = data
            return out.reshape(self.shape)
        return sps.csr_array((data, self.indices, self.indptr), shape=self.shape)


class _Reactions:
    """Sparse NumPy evaluation of potentials, fluxes and the coefficients γ."""

    def __init__(self, net: ReactionNetwork) -> None:
        free, chem = _split(net)
        self.net, self.RT = net, net.RT
        self.mole_fraction = net.basis == "mole_fraction"
        self.scale = net.volume * net.c_standard
        self.mu0 = net.mu0[free]
        self.Ns = sps.csr_array(net.N[free])
        self.Nc = sps.csr_array(net.N[chem])
        self.Nf_T = sps.csr_array(net.nu_f[free].T)
        self.Nb_T = sps.csr_array(net.nu_b[free].T)
        self.Af0 = net.nu_f[chem].T @ net.chemostat_mu
        self.Ab0 = net.nu_b[chem].T @ net.chemostat_mu
        self.kappa = net.kappa
        self.dense = len(free) + len(chem) + len(net.flow_sources) <= DENSE_UP_TO

    def mu(self, x: np.ndarray) -> np.ndarray:
        s = x.sum() if self.mole_fraction else self.scale
        return self.mu0 + self.RT * np.log(x / s)

    def affinities(self, x: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        mu = self.mu(x)
        return self.Nf_T @ mu + self.Af0, self.Nb_T @ mu + self.Ab0

    def gamma(self, x: np.ndarray) -> np.ndarray:
        Af, Ab = self.affinities(x)
        return dissipation_coefficient(Af, Ab, self.kappa, self.RT)

    def hessian(self, x: np.ndarray) -> Any:
        if self.mole_fraction or self.dense:
            h = np.diag(self.RT / x)
            return h - self.RT / x.sum() if self.mole_fraction else h
        return sps.diags_array(self.RT / x).tocsc()


class _ReactionNumeric(NumericPHS):
    """Compiled form: J = 0 and G constant, R, P, S from γ(x); ``rhs`` and ``jacobian``
    computed directly from the fluxes (same numbers, sparse)."""

    def __init__(self, net: ReactionNetwork) -> None:
        inputs, _ = port_names(net)
        n, m = len(net.free), len(inputs)
        super().__init__(n, m)
        ev = self._ev = _Reactions(net)
        nc, nf = len(net.chemostats), len(net.flow_sources)
        G = sps.hstack([sps.csr_array((n, nc)), sps.csr_array(_flow_columns(net))]).tocsr()
        if n + m <= DENSE_UP_TO:
            G = G.toarray()
            self._const = {"J": np.zeros((n, n)), "G": G, "M": np.zeros((m, m))}
        else:
            self._const = {"J": sps.csr_array((n, n)), "G": G, "M": sps.csr_array((m, m))}
        dense = n + m <= DENSE_UP_TO
        # port rows of the dissipative coupling: chemostats (N_c), then flow sources (0)
        B = sps.vstack([ev.Nc, sps.csr_array((nf, ev.Ns.shape[1]))]).tocsr()
        grams = {"R": _Gram(ev.Ns, ev.Ns, dense)}
        if m:
            grams.update(P=_Gram(ev.Ns, B, dense), S=_Gram(B, B, dense))
        else:
            zeros = np.zeros if dense else sps.csr_array
            self._const.update(P=zeros((n, 0)), S=zeros((0, 0)))
        self._key: bytes | None = None
        self._gamma = np.zeros(ev.Ns.shape[1])

        def gamma(x: np.ndarray) -> np.ndarray:
            key = x.tobytes()
            if key != self._key:
                self._key, self._gamma = key, ev.gamma(x)
            return self._gamma

        self._mats = {k: (lambda x, g=g: g(gamma(np.asarray(x, dtype=float))))
                      for k, g in grams.items()}
        self._H = lambda x: float(np.sum(x * ev.mu(x))) - (
            0.0 if ev.mole_fraction else ev.RT * float(np.sum(x)))
        self._grad = ev.mu
        self._hess = ev.hessian
        self._nc = nc
        self._G = G

    def rhs(self, x: np.ndarray, u: Any = None) -> np.ndarray:
        """:math:`\\dot n_s = N_s\\Gamma(A^f - A^b) + G u` with the chemostat inputs in
        the affinities (equal to the PHS form at every ``u``)."""
        ev = self._ev
        x = np.asarray(x, dtype=float)
        u = self._u(u)
        mu = ev.mu(x)
        g = ev.gamma(x)
        dA = ev.Nf_T @ mu - ev.Nb_T @ mu - ev.Nc.T @ u[:self._nc]
        return ev.Ns @ (g * dA) + self._G @ u

    def jacobian(self, x: np.ndarray, u: Any = None) -> Any:
        """:math:`N_s\\,\\mathrm{diag}(\\kappa e^{A/RT})(\\nu^{fT}-\\nu^{bT})\\nabla^2H/RT`:
        the derivative of :math:`N_s v` with :math:`\\Gamma` at the chemostats' stated
        potentials (what Newton needs)."""
        ev = self._ev
        x = np.asarray(x, dtype=float)
        Af, Ab = ev.affinities(x)
        rev = ev.net.reversible
        ef = ev.kappa * np.exp(Af / ev.RT) / ev.RT
        eb = np.where(rev, ev.kappa * np.exp(Ab / ev.RT) / ev.RT, 0.0)
        dv = ev.Nf_T.multiply(ef[:, None]) - ev.Nb_T.multiply(eb[:, None])
        jac = ev.Ns @ (sps.csr_array(dv) @ ev.hessian(x))
        return np.asarray(jac) if ev.dense else sps.csr_array(jac)


class ReactionFunctionPHS(FunctionPHS):
    """A :class:`~porthamiltonian.simulate.FunctionPHS` whose ``R`` (and with chemostats
    ``P``, ``S``) depend on the state: :math:`R(x) = N_s\\Gamma(x)N_s^T`.  Its structure
    matrices are evaluated by :meth:`matrix`; the constant placeholders the base class
    checks are zero."""

    def __init__(self, net: ReactionNetwork, name: str = "reactions") -> None:
        _check(net)
        inputs, outputs = port_names(net)
        n, m = len(net.free), len(inputs)
        self._num = _ReactionNumeric(net)
        ev = self._num._ev
        super().__init__(J=sps.csr_array((n, n)), R=sps.csr_array((n, n)),
                         G=self._num._G, P=sps.csr_array((n, m)), M=sps.csr_array((m, m)),
                         S=sps.csr_array((m, m)), energy=self._num._H, gradient=ev.mu,
                         hessian=ev.hessian, states=net.free, inputs=inputs,
                         outputs=outputs, check=False)
        self.name = name
        self.network = net

    def compile(self) -> NumericPHS:
        """The compiled form (built with the model)."""
        return self._num

    def matrix(self, name: str, x: Any) -> Any:
        """``J R G P M S`` at the state ``x``."""
        return self._num.matrix(name, np.asarray(x, dtype=float))

    def reaction_arrays(self) -> tuple[np.ndarray, ...] | None:
        """The network as the arrays of the compiled steps
        (:mod:`porthamiltonian.simulate.kernels.reaction_steps`): μ° of the free species,
        (RT, Vc°), N_sᵀ, ν^fᵀ, ν^bᵀ (CSR triples, reactions × free species), A^f_0, A^b_0,
        κ, N_cᵀ (CSR, reactions × chemostats), N_s (CSR) and the free index of each flow
        source; ``None`` for the mole-fraction basis (its H is not separable)."""
        ev = self._num._ev
        if ev.mole_fraction:
            return None

        def csr(A: Any) -> tuple[np.ndarray, ...]:
            A = sps.csr_array(A, dtype=float)
            A.sum_duplicates()
            return (A.indptr.astype(np.int64), A.indices.astype(np.int64),
                    np.ascontiguousarray(A.data, dtype=float))

        net = self.network
        fidx = np.array([net.free.index(s) for s in net.flow_sources], dtype=np.int64)
        f64 = lambda a: np.ascontiguousarray(a, dtype=float)  # noqa: E731
        return (f64(ev.mu0), np.array([ev.RT, ev.scale], dtype=float), *csr(ev.Ns.T),
                *csr(ev.Nf_T), *csr(ev.Nb_T), f64(ev.Af0), f64(ev.Ab0), f64(ev.kappa),
                *csr(ev.Nc.T), *csr(ev.Ns), fidx)

    def step_jacobian(self, x: Any) -> Any:
        r""":math:`\partial_n(N_s v)` at ``x`` (sparse), what the compiled steps' Newton
        matrix :math:`I - \tfrac h2\,\partial_n(N_s v)` is made of."""
        return sps.csc_array(self._num.jacobian(np.asarray(x, dtype=float)))


def numeric_phs(net: ReactionNetwork, name: str = "reactions") -> ReactionFunctionPHS:
    """The network as a :class:`ReactionFunctionPHS` (sparse, any size)."""
    return ReactionFunctionPHS(net, name)
