"""Energy and co-energy: a nonlinear capacitor and the ideal gas (docs/energy.md).

A capacitor whose charge grows only logarithmically with its voltage (a saturating
dielectric), E(q) = C0 V0² (cosh(q/(C0 V0)) − 1) (J), so e = V0 sinh(q/(C0 V0)) (V) and
q = C0 V0 asinh(e/V0): its co-energy
E*(e) = e q − E by the Legendre transform, checked against E + E* = e q and
∂E*/∂e = q; for small charges it is the linear capacitor's C0 e²/2.  The figure draws
the tangent construction: the tangent to E at q1 has slope e1 and meets the energy axis
at −E*(e1), and the tangent to E* at e1 has slope q1.

Then Callen's monatomic ideal gas U(S, V, N) (§3.4): Euler and Gibbs–Duhem hold, and the
potentials F(T, V, N), H(S, p, N), G(T, p, N) come out of partial Legendre transforms;
at 300 K and 1 bar they give U = (3/2)NRT, H = (5/2)NRT and G = F + pV.

    python examples/energy_coenergy.py [--out energy_coenergy.png]
"""

from __future__ import annotations

import argparse

import numpy as np
import sympy as sp

from porthamiltonian.energy import (
    coenergy,
    euler_residual,
    gibbs_duhem_residual,
    ideal_gas_energy,
    potentials,
)

C0, V0 = 1e-3, 2.0  # F, V: small-signal capacitance and the voltage scale of saturation
R_GAS = 8.314462618  # J/(mol·K)


def capacitor() -> tuple[sp.Expr, object]:
    q = sp.Symbol("q", real=True)
    c0, v0 = sp.symbols("C0 V0", positive=True)
    ce = coenergy(c0 * v0**2 * (sp.cosh(q / (c0 * v0)) - 1), q)
    print("nonlinear capacitor  E(q) =", ce.energy)
    print("  law                e(q) =", ce.law[0])
    print("  inverse            q(e) =", ce.inverse[0])
    print("  co-energy          E*(e) =", ce.coenergy)
    print("  E + E* = e q and dE*/de = q hold symbolically:", ce.check())
    return ce, {c0: C0, v0: V0}


def ideal_gas() -> None:
    U, s = ideal_gas_energy()
    ext = [s["S"], s["V"], s["N"]]
    print("\nideal gas (Callen §3.4)  U(S, V, N) =", U)
    print("  Euler U - (TS - pV + mu N) =", euler_residual(U, ext))
    print("  Gibbs-Duhem S dT - V dp + N dmu, per dS, dV, dN =",
          list(gibbs_duhem_residual(U, ext)))
    P = potentials(U, s["S"], s["V"])
    print("  F(T, V, N) = U - TS =", sp.collect(P.F, s["N"] * s["R"] * P.T))
    print("  G(T, p, N) = U - TS + pV =", sp.collect(P.G, s["N"] * s["R"] * P.T))
    # monatomic (c = 3/2), reference state 1 mol at 300 K and 1 bar with s0 = 0
    c = 1.5
    ref = {s["c"]: c, s["R"]: R_GAS, s["N0"]: 1.0, s["V0"]: R_GAS * 300 / 1e5,
           s["U0"]: c * R_GAS * 300, s["s0"]: 0.0}
    T, p, N = 300.0, 1e5, 1.0
    V = N * R_GAS * T / p
    S = 0.0  # the reference state: S = N s0
    F = float(P.F.xreplace({**ref, P.T: T, s["V"]: V, s["N"]: N}))
    G = float(P.G.xreplace({**ref, P.T: T, P.p: p, s["N"]: N}))
    H = float(P.H.xreplace({**ref, s["S"]: S, P.p: p, s["N"]: N}))
    print(f"  at 300 K, 1 bar, 1 mol: F = {F:.3f} J (U - TS = (3/2) N R T = "
          f"{c * N * R_GAS * T:.3f}), G = {G:.3f} J (F + pV = {F + p * V:.3f}), "
          f"H = {H:.3f} J ((5/2) N R T = {(c + 1) * N * R_GAS * T:.3f})")


def figure(ce, values, out: str) -> None:
    import matplotlib.pyplot as plt

    q, e = ce.states[0], ce.efforts[0]
    E = sp.lambdify(q, ce.energy.subs(values), "numpy")
    law = sp.lambdify(q, ce.law[0].subs(values), "numpy")
    Es = sp.lambdify(e, ce.coenergy.subs(values), "numpy")
    qs = np.linspace(-6e-3, 6e-3, 201)
    es = np.linspace(-12.0, 12.0, 201)
    q1 = 3e-3
    e1 = float(law(q1))
    fig, (a, b) = plt.subplots(1, 2, figsize=(10, 4.2), layout="constrained")
    a.plot(qs * 1e3, E(qs), label="E(q)")
    a.plot(qs * 1e3, qs**2 / (2 * C0), "--", label="linear C0: q²/(2 C0)")
    a.plot(qs * 1e3, e1 * qs - Es(e1), ":", label=f"tangent at q1: slope e1 = {e1:.2f} V")
    a.plot([q1 * 1e3], [E(q1)], "ko", ms=4)
    a.plot([0], [-Es(e1)], "o", label=f"meets q = 0 at −E*(e1) = {-Es(e1):.4f} J")
    a.set_xlabel("charge q (mC)")
    a.set_ylabel("energy E (J)")
    a.set_ylim(-0.01, 0.04)
    a.legend(fontsize=8, loc="upper center")
    b.plot(es, Es(es), label="E*(e)")
    b.plot(es, C0 * es**2 / 2, "--", label="linear C0: C0 e²/2")
    b.plot(es, q1 * es - E(q1), ":", label=f"tangent at e1: slope q1 = {q1 * 1e3:.0f} mC")
    b.plot([e1], [Es(e1)], "ko", ms=4)
    b.plot([0], [-E(q1)], "o", label=f"meets e = 0 at −E(q1) = {-E(q1):.4f} J")
    b.set_xlabel("voltage e (V)")
    b.set_ylabel("co-energy E* (J)")
    b.set_ylim(-0.015, 0.045)
    b.legend(fontsize=8, loc="upper center")
    fig.suptitle("Energy and co-energy of a saturating capacitor: E(q) + E*(e) = e q")
    fig.savefig(out, dpi=120)
    print(f"\nwrote {out}")


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", default="energy_coenergy.png")
    args = ap.parse_args()
    ce, values = capacitor()
    ideal_gas()
    figure(ce, values, args.out)


if __name__ == "__main__":
    main()
