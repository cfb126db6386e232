"""Large static tip-load deflection of a cantilever: our geometrically exact planar beam
against Exudyn's ObjectBeamGeometricallyExact2D and the elastica.

A 1 m cantilever (50 × 50 mm, E = 2 GPa, ν = 0.3, κ = 5/6) carries a vertical dead load
P at its tip with PL²/EI = 3: the tip drops by 60 % of the length and turns by 56°.
Two sections:

* ``rigid`` — EA and κGA multiplied by 1000 (inextensible, shear-rigid in effect), so
  the tip also matches the elastica: EI θ'' = −P cos θ, θ(0) = 0, θ'(L) = 0, whose tip
  rotation φ solves L√(2P/EI) = ∫₀^φ dθ/√(sin φ − sin θ) (Bisshopp & Drucker, Q. Appl.
  Math. 3, 1945; tabulated by Mattiasson, IJNME 17, 1981);
* ``real`` — the actual EA and κGA (axial strain and shear ≈ 1e-3): only the two codes
  are compared.

Ours: ``planar_beam(...).equilibrium(tip_force=(0, P))`` (Newton on the static balance
0 = (J(x) − R)∇H + G(x)u in 10 load steps; k = 1 and 2).  Exudyn: the 2-node
geometrically exact 2-D beam (Rigid2D nodes, clamped first node, a global Force at the
tip node, ``SolveStatic`` in 10 load steps).  Both are run for N = 4 … 64 elements;
tip displacement (u_x, u_y) = r(L) − (L, 0) and rotation θ(L).

    pip install exudyn            # the `benchmarks` extra
    python benchmarks/planar_beam_exudyn.py [--elements 4 8 16 32 64] [--load 3]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
from exudyn_beams import clamped_beam
from scipy.integrate import quad
from scipy.optimize import brentq

from porthamiltonian.distributed import planar_beam

L, b, h = 1.0, 0.05, 0.05
E, nu, rho, kappa = 2e9, 0.3, 1000.0, 5 / 6
A, I = b * h, b * h**3 / 12
RA, RI, EA, EI, KGA = rho * A, rho * I, E * A, E * I, kappa * E / (2 * (1 + nu)) * A


def elastica(alpha: float) -> tuple[float, float, float]:
    """Tip ``(u_x, u_y, φ)`` of the inextensible, shear-rigid cantilever, PL²/EI = alpha."""
    P = alpha * EI / L**2

    def g(th: float, phi: float) -> float:
        d = phi - th
        return 1 / np.sqrt(np.cos(phi)) if d < 1e-9 else np.sqrt(d / (np.sin(phi) - np.sin(th)))

    def integral(f, phi: float) -> float:  # the 1/√(φ − θ) singularity by QAWS
        return quad(f, 0, phi, weight="alg", wvar=(0, -0.5), epsabs=1e-13, epsrel=1e-13)[0]

    phi = brentq(lambda p: np.sqrt(EI / (2 * P)) * integral(lambda t: g(t, p), p) - L,
                 1e-6, 1.5, xtol=1e-15)
    y = np.sqrt(EI / (2 * P)) * integral(lambda t: np.sin(t) * g(t, phi), phi)
    return np.sqrt(2 * EI * np.sin(phi) / P) - L, y, phi


def ours(N: int, k: int, P: float, stiff: float) -> tuple[np.ndarray, float]:
    t = time.perf_counter()
    beam = planar_beam(L, RA, RI, stiff * EA, EI, stiff * KGA, elements=N, degree=k,
                       right="port")
    x = beam.equilibrium(tip_force=(0.0, P), steps=10)
    r1, r2, theta = beam.shape(x)
    return np.array([r1[-1] - L, r2[-1], theta[-1]]), time.perf_counter() - t


def exudyn_beam(N: int, P: float, stiff: float) -> tuple[np.ndarray, float]:
    import exudyn as exu
    from exudyn.itemInterface import Force, MarkerNodeRigid

    t = time.perf_counter()
    SC = exu.SystemContainer()
    mbs = SC.AddSystem()
    nodes = clamped_beam(mbs, N, L, RA, RI, EI, stiff * EA, stiff * KGA)
    mbs.AddLoad(Force(markerNumber=mbs.AddMarker(MarkerNodeRigid(nodeNumber=nodes[-1])),
                      loadVector=[0.0, P, 0.0]))
    mbs.Assemble()
    settings = exu.SimulationSettings()
    settings.solution.file.write = False
    settings.staticSolver.numberOfLoadSteps = 10
    settings.staticSolver.newton.maxIterations = 50
    settings.staticSolver.newton.relativeTolerance = 1e-10
    settings.staticSolver.verboseMode = 0
    settings.linearSolver.solverType = exu.LinearSolverType.EigenSparse
    exu.SolveStatic(mbs, settings)
    u = mbs.GetNodeOutput(nodes[-1], exu.OutputVariableType.Coordinates)
    return np.array(u[:3]), time.perf_counter() - t


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--elements", type=int, nargs="+", default=[4, 8, 16, 32, 64])
    ap.add_argument("--load", type=float, default=3.0, help="PL²/EI")
    args = ap.parse_args()
    P = args.load * EI / L**2
    ref = np.array(elastica(args.load))
    print(f"PL²/EI = {args.load:g}: elastica tip u_x/L = {ref[0]:.6f}, u_y/L = {ref[1]:.6f}, "
          f"θ = {ref[2]:.6f} rad")
    for section, stiff in (("rigid", 1e3), ("real", 1.0)):
        print(f"\nsection {section} (EA, κGA × {stiff:g})")
        print("| N | code | u_x/L | u_y/L | θ(L) [rad] | |Δ| vs Exudyn, same N | |Δ| vs elastica "
              "| time [s] |")
        print("|---|---|---|---|---|---|---|---|")
        for N in args.elements:
            ex, tex = exudyn_beam(N, P, stiff)
            rows = [("Exudyn GE2D", ex, tex)]
            for k in (1, 2):
                val, tk = ours(N, k, P, stiff)
                rows.append((f"ours k={k}", val, tk))
            for name, val, tt in rows:
                dex = np.max(np.abs(val - ex)) if name != "Exudyn GE2D" else 0.0
                del_ = f"{np.max(np.abs(val - ref)):.1e}" if section == "rigid" else "–"
                print(f"| {N} | {name} | {val[0]:.6f} | {val[1]:.6f} | {val[2]:.6f} | "
                      f"{dex:.1e} | {del_} | {tt:.3f} |")


if __name__ == "__main__":
    main()
