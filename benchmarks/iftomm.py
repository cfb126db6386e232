"""IFToMM multibody benchmarks A01–A04 from their model files: CPU time and error.

    python benchmarks/iftomm.py            # full runs (A02 with N = 40 takes minutes)
    python benchmarks/iftomm.py --quick    # shorter A01/A02/A04 runs

A01 against the exact elliptic-function solution, A02 against the parallelogram's
pendulum equation (DOP853, tolerance 1e-12), A03 against the published angles at
t = 0.03 s (test set for IVP solvers, problem "andrews"), A04 energy and closure (no
published number found). Published CPU times are those reported on the benchmarks'
pages for other codes and machines (docs/mechanics.md), not comparable to the digit.
A02 with N = 40 is written by ``a02_model(40)`` to a temporary file and loaded from it.
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
from scipy.integrate import solve_ivp
from scipy.special import ellipj, ellipk

from porthamiltonian.io import load_model, simulate_model

MODELS = Path(__file__).resolve().parent.parent / "examples" / "models"
A03_REF = {"O": 15.81077119629904, "F": -15.75637105984298, "B": 0.04082224013073101,
           "G": -0.5347301163226948, "A5": 0.5244099658805304, "H": 0.5347301163226948,
           "A7": 1.048080741042263}


def a02_model(N: int) -> str:
    """The A02 model file for N four-bar windows (examples/models has N = 4)."""
    text = (MODELS / "iftomm_a02_n_four_bar.yaml").read_text()
    head, _, _ = text.partition("  bodies:\n")
    body = ["  bodies:\n"]
    body += [f'    - {{name: crank{i}, mass: m, inertia: ["m*L**2/12", Ia, "m*L**2/12"], '
             f'com: [0, "L/2", 0]}}\n' for i in range(N + 1)]
    body += [f'    - {{name: coupler{j}, mass: m, inertia: [Ia, "m*L**2/12", "m*L**2/12"], '
             f'com: ["L/2", 0, 0]}}\n' for j in range(N)]
    body.append("  joints:\n")
    body += [f'    - {{name: pivot{i}, kind: revolute, parent: ground, child: crank{i}, '
             f'parent_anchor: ["{i}*L", 0, 0]}}\n' for i in range(N + 1)]
    for j in range(N):
        body.append(f"    - {{name: left{j}, kind: revolute, parent: crank{j}, "
                    f"child: coupler{j}, parent_anchor: [0, L, 0]}}\n")
        body.append(f"    - {{name: right{j}, kind: revolute, parent: crank{j + 1}, "
                    f"child: coupler{j}, parent_anchor: [0, L, 0], child_anchor: [L, 0, 0]}}\n")
    tail = text[text.index("simulate:"):]
    return head + "".join(body) + tail


def a01_exact(t: np.ndarray, L: float = 1.0, g: float = 9.81) -> np.ndarray:
    """Point-mass position (x, y) released at rest from (L, 0): θ = 2 asin(k sn(K − ω t)),
    k = sin(π/4), angle θ from the downward vertical."""
    k = np.sin(np.pi / 4)
    sn = ellipj(ellipk(k * k) - np.sqrt(g / L) * t, k * k)[0]
    th = 2 * np.arcsin(k * sn)
    return np.column_stack([L * np.sin(th), -L * np.cos(th)])


def a02_exact(t: np.ndarray, N: int, g: float = 9.81) -> np.ndarray:
    """B0 for the parallelogram motion: all cranks at one angle φ (from +x), couplers
    translating: (N+1)/3 + N) φ̈ = −g((N+1)/2 + N) cos φ (m = L = 1), φ(0) = π/2,
    φ̇(0) = −1 rad/s."""
    I, c = (N + 1) / 3 + N, (N + 1) / 2 + N
    sol = solve_ivp(lambda _, y: [y[1], -g * c * np.cos(y[0]) / I], (0, t[-1]),
                    [np.pi / 2, -1.0], method="DOP853", rtol=1e-12, atol=1e-12,
                    dense_output=True)
    phi = sol.sol(t)[0]
    return np.column_stack([np.cos(phi), np.sin(phi)])


def run(path: Path, **kw) -> tuple[object, float, float]:
    """(result, set-up CPU s, total CPU s)."""
    c0 = time.process_time()
    model = load_model(path)
    res = simulate_model(model, **kw)
    total = time.process_time() - c0
    return res, total


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__)
    ap.add_argument("--quick", action="store_true")
    args = ap.parse_args()
    rows = []
    res, cpu = run(MODELS / "iftomm_a01_simple_pendulum.yaml",
                   t_end=2.0 if args.quick else 10.0)
    err = np.abs(res.pose("P1")[:, :2, 3] - a01_exact(res.t)).max()
    rows.append(("A01", res.t[-1], len(res.t) - 1, cpu, f"max |P1 − exact| = {err:.2e} m",
                 np.ptp(res.H)))
    with tempfile.TemporaryDirectory() as tmp:
        for N, T in ((4, 2.0 if args.quick else 10.0), (40, 1.0 if args.quick else 20.0)):
            path = MODELS / "iftomm_a02_n_four_bar.yaml"
            if N != 4:
                path = Path(tmp) / "a02.yaml"
                path.write_text(a02_model(N))
            res, cpu = run(path, t_end=T)
            B0 = (res.pose("crank0") @ np.array([0.0, 1.0, 0.0, 1.0]))[:, :2]
            err = np.abs(B0 - a02_exact(res.t, N)).max()
            rows.append((f"A02 N={N}", res.t[-1], len(res.t) - 1, cpu,
                         f"max |B0 − parallelogram| = {err:.2e} m", np.ptp(res.H)))
    res, cpu = run(MODELS / "iftomm_a03_andrews_squeezer.yaml")
    init = {j: float(load_model(MODELS / "iftomm_a03_andrews_squeezer.yaml").parameters[p])
            for j, p in (("O", "beta0"), ("F", "theta0"), ("B", "gamma0"), ("G", "phi0"),
                         ("A5", "delta0"), ("H", "omega0"), ("A7", "eps0"))}
    err = max(abs(init[j] + res.joint(j)[-1, 0] - v) for j, v in A03_REF.items())
    rows.append(("A03", res.t[-1], len(res.t) - 1, cpu,
                 f"max angle error at 0.03 s = {err:.2e} rad", np.nan))
    res, cpu = run(MODELS / "iftomm_a04_bricard.yaml", t_end=2.0 if args.quick else 10.0)
    rows.append(("A04", res.t[-1], len(res.t) - 1, cpu,
                 f"max closure residual = {res.constraint_residual().max():.1e}",
                 np.ptp(res.H)))
    print(f"{'problem':10s} {'t_end':>6s} {'steps':>7s} {'CPU s':>8s}  {'ΔH (J)':>9s}  check")
    for name, t, n, cpu, check, dH in rows:
        print(f"{name:10s} {t:6.3g} {n:7d} {cpu:8.2f}  {dH:9.1e}  {check}")


if __name__ == "__main__":
    main()
