"""A random stiff reaction network of 1000 reversible mass-action reactions: our PHS
(discrete gradient, sparse numeric form) against SciPy ``solve_ivp`` BDF and LSODA on the
same ODE ṅ = N v(n) with the analytic Jacobian.

The network (seed 7, reproducible): ``--species`` species, ``--reactions`` reactions of the
kinds A ⇌ B, A + B ⇌ C and A ⇌ B + C between random species, μ° ~ N(0, (2RT)²),
κ log-uniform over 10⁻³ … 10³ mol/s (six decades: stiff), n₀ log-uniform over
0.1 … 1 mol, V = 1 m³, c° = 1 mol/m³, RT = 2.5 kJ/mol, t ∈ [0, ``--t1``] s.

Reported, CPU time best of ``--repeat``:

* ours: ``simulate(net.to_phs("numeric"), ..., method="discrete_gradient",
  rtol=, atol=)`` with ``engine="compiled"`` (the compiled steps of
  :mod:`porthamiltonian.simulate.kernels.reactions`; the time to build or load them is
  printed apart; also at rtol/10, atol/10, nearer SciPy's accuracy) and with
  ``engine="numpy"`` — steps, final-state error, and the
  discrete power balance (the largest |ΔH + dissipated work| of a step, J, against the
  energy released);
* BDF (sparse Jacobian) and LSODA (dense Jacobian) at the same rtol/atol, with their
  final-state errors and their energy balance H(t₁) − H(0) against the dissipated
  work by the trapezoidal rule on their output (what they do not keep);
* ours with ``method="BDF"`` (SciPy's BDF driven through our simulator, with our
  recording; its power residual is not closed);
* ``method="ida"`` (SUNDIALS IDA, the ``dae`` extra) is tried and its refusal printed:
  it solves descriptor systems (DAEs) only, and this model is an explicit PHS;
* the ratios of our two paths' CPU times to SciPy BDF's and LSODA's;
* the reference: Radau, rtol 1e-12, atol 1e-14.

    python benchmarks/reactions_network.py [--reactions 1000] [--species 400] [--t1 10]
        [--rtol 1e-6] [--atol 1e-9] [--repeat 3]
"""

from __future__ import annotations

import argparse
import time
from typing import Any

import numpy as np
from scipy.integrate import solve_ivp
from simulate_matched import timed

from porthamiltonian.errors import ModelError
from porthamiltonian.simulate import simulate
from porthamiltonian.thermo.reactions.network import ReactionNetwork

RT = 2.5e3


def random_network(n_species: int, n_reactions: int, seed: int = 7) -> ReactionNetwork:
    """The benchmark's network (see the module docstring)."""
    rng = np.random.default_rng(seed)
    names = [f"X{i}" for i in range(n_species)]
    eqs = {}
    for r in range(n_reactions):
        a, b, c = rng.choice(n_species, 3, replace=False)
        kind = r % 3
        if kind == 0:
            eqs[f"r{r}"] = f"{names[a]} <=> {names[b]}"
        elif kind == 1:
            eqs[f"r{r}"] = f"{names[a]} + {names[b]} <=> {names[c]}"
        else:
            eqs[f"r{r}"] = f"{names[a]} <=> {names[b]} + {names[c]}"
    mu0 = dict(zip(names, rng.normal(0.0, 2 * RT, n_species), strict=True))
    kappa = 10.0 ** rng.uniform(-3, 3, n_reactions)
    return ReactionNetwork(names, eqs, RT=RT, mu0=mu0, kappa=kappa)


def initial(net: ReactionNetwork, seed: int = 8) -> np.ndarray:
    """n₀ (mol), log-uniform over 0.1 … 1."""
    return 10.0 ** np.random.default_rng(seed).uniform(-1, 0, len(net.species))


def best_of(repeat: int, run: Any) -> tuple[float, Any]:
    """Smallest CPU time (s) of ``repeat`` runs and the last result."""
    out, t = timed(run, repeat, clock=time.process_time)
    return t, out


def scipy_balance(net: ReactionNetwork, t: np.ndarray, y: np.ndarray) -> float:
    """|H(t₁) − H(0) + ∫ Σ v(A_f − A_b) dt| (J), the integral by the trapezoidal rule."""
    d = []
    for n in y.T:
        mu = net.chemical_potential(n)
        d.append(-float(net.flux(n) @ (net.N.T @ mu)))
    work = float(np.sum(0.5 * (np.array(d[1:]) + np.array(d[:-1])) * np.diff(t)))
    return abs(net.gibbs_energy(y[:, -1]) - net.gibbs_energy(y[:, 0]) + work)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--reactions", type=int, default=1000)
    ap.add_argument("--species", type=int, default=400)
    ap.add_argument("--t1", type=float, default=10.0)
    ap.add_argument("--rtol", type=float, default=1e-6)
    ap.add_argument("--atol", type=float, default=1e-9)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()
    net = random_network(args.species, args.reactions)
    n0 = initial(net)
    span = (0.0, args.t1)
    f = lambda t, n: net.rhs(n)  # noqa: E731
    jac_sparse = lambda t, n: net.jacobian(n)  # noqa: E731
    jac_dense = lambda t, n: net.jacobian(n).toarray()  # noqa: E731
    ref = solve_ivp(f, span, n0, method="Radau", jac=jac_sparse, rtol=1e-12, atol=1e-14)
    x_ref = ref.y[:, -1]
    kappa = net.kappa
    print(f"network: {len(net.species)} species, {len(net.reactions)} reactions, "
          f"kappa {kappa.min():.2g} … {kappa.max():.2g} mol/s, "
          f"{net.conservation_laws.shape[0]} conservation laws; reference Radau "
          f"{ref.t.size - 1} steps")

    def err(x: np.ndarray) -> float:
        return float(np.max(np.abs(x - x_ref)) / np.max(np.abs(x_ref)))

    sys = net.to_phs("numeric")
    # the compiled steps (Numba): the first run builds or loads them (compile time apart)
    t0 = time.perf_counter()
    first = simulate(sys, span, n0, method="discrete_gradient", rtol=args.rtol,
                     atol=args.atol, engine="compiled")
    wall_first = time.perf_counter() - t0
    t_comp, comp = best_of(args.repeat, lambda: simulate(
        sys, span, n0, method="discrete_gradient", rtol=args.rtol, atol=args.atol,
        engine="compiled"))
    released = float(comp.H[0] - comp.H[-1])
    print(f"ours  discrete_gradient, engine='compiled': {t_comp:8.3f} s CPU, {comp.nsteps} "
          f"steps, error {err(comp.x[-1]):.2e}, max |power residual| "
          f"{np.max(np.abs(comp.power_residual)):.2e} J of {released:.4g} J released "
          f"(first run {wall_first:.1f} s wall, of which building/loading the steps "
          f"{first.extra['compile_time']:.1f} s)")
    t_tight, tight = best_of(args.repeat, lambda: simulate(
        sys, span, n0, method="discrete_gradient", rtol=args.rtol / 10, atol=args.atol / 10,
        engine="compiled"))
    print(f"ours  discrete_gradient, engine='compiled', rtol/10, atol/10: {t_tight:8.3f} s "
          f"CPU, {tight.nsteps} steps, error {err(tight.x[-1]):.2e}")
    t_ours, res = best_of(args.repeat, lambda: simulate(
        sys, span, n0, method="discrete_gradient", rtol=args.rtol, atol=args.atol,
        engine="numpy"))
    released = float(res.H[0] - res.H[-1])
    balance = float(np.max(np.abs(res.power_residual)))
    print(f"ours  discrete_gradient, engine='numpy': {t_ours:8.3f} s CPU, {res.nsteps} "
          f"steps, error {err(res.x[-1]):.2e}, max |power residual| {balance:.2e} J of "
          f"{released:.4g} J released; the two engines' final states differ by "
          f"{float(np.max(np.abs(res.x[-1] - comp.x[-1]))):.1e} mol")
    t_lib, lib = best_of(args.repeat, lambda: simulate(
        sys, span, n0, method="BDF", rtol=args.rtol, atol=args.atol))
    print(f"ours  method='BDF'     : {t_lib:8.3f} s CPU, {lib.nsteps} steps, error "
          f"{err(lib.x[-1]):.2e}, max |power residual| "
          f"{np.max(np.abs(lib.power_residual)):.2e} J (SciPy's BDF inside: no exact balance)")
    try:  # IDA (SUNDIALS) solves descriptor systems only; say so if it refuses the ODE
        simulate(sys, span, n0, method="ida", rtol=args.rtol, atol=args.atol)
        print("ours  method='ida'     : ran (unexpected: IDA accepted an explicit PHS)")
    except ModelError as exc:
        print(f"ours  method='ida'     : refused — {exc}")
    for method, jac in (("BDF", jac_sparse), ("LSODA", jac_dense)):
        t_m, sol = best_of(args.repeat, lambda method=method, jac=jac: solve_ivp(
            f, span, n0, method=method, jac=jac, rtol=args.rtol, atol=args.atol))
        print(f"scipy {method:17s}: {t_m:8.3f} s CPU; ours/scipy: discrete gradient "
              f"compiled {t_comp / t_m:.1f}× (at rtol/10 {t_tight / t_m:.1f}×), NumPy "
              f"{t_ours / t_m:.1f}×, method='BDF' "
              f"{t_lib / t_m:.2f}×; "
              f"{sol.t.size - 1} steps, error {err(sol.y[:, -1]):.2e}, |ΔH + dissipated "
              f"work| {scipy_balance(net, sol.t, sol.y):.2e} J (trapezoid on its output)")


if __name__ == "__main__":
    main()
