"""IFToMM multibody benchmarks A01–A05 from their model files: CPU time and error.

    python benchmarks/iftomm.py            # full runs (minutes: A02 with N = 40, A05)
    python benchmarks/iftomm.py --quick    # shorter runs, no SVD-rule timing

A01 against the exact elliptic-function solution, A02 against the parallelogram's
pendulum equation (DOP853, tolerance 1e-12), A03 against the published angles at
t = 0.03 s (test set for IVP solvers, problem "andrews"), with the spring emulated by a
sleeve and piston and as a spring element, A04 energy and closure (no published number
found), A05 against the governor's reduced Lagrangian (Radau, 1e-11; no published number
found). Published CPU times are those reported on the benchmarks' pages for other codes
and machines (docs/mechanics.md), not comparable to the digit. A02 with N = 40 is written
by ``a02_model(40)`` to a temporary file and loaded from it; its set-up is timed twice:
the rows chosen by one SVD per row (the former rule, ``svd_rows``) and by
``independent_rows``. Everything runs on one BLAS thread (the figures are one core's).
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

import numpy as np
from scipy.integrate import solve_ivp
from scipy.special import ellipj, ellipk
from threadpoolctl import threadpool_limits

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


# A05 data from the benchmark's specification (SI): shaft and rods 1 × 0.01 × 0.01 m, slider
# a 0.1 m cube, density 3000 kg/m³, 5 kg balls at the rods' ends, hinges at x = ±0.05 m on
# the shaft's top, springs K = 8e5 N/m, C = 4e4 N·s/m, rest length 0.5 m, from the slider's
# sides to the rods' midpoints; s = 0.5 m, rods 30° below the horizontal, 2π rad/s.
A05 = {"rho": 3000.0, "L": 1.0, "w": 0.01, "b": 0.1, "a": 0.05, "mb": 5.0, "K": 8e5,
       "C": 4e4, "l0": 0.5, "s0": 0.5, "alpha0": np.pi / 6, "omega0": 2 * np.pi, "g": 9.81}


def _a05_rod() -> tuple[float, ...]:
    """Mass m of a rod with its ball, hinge-to-centre distance λ, inertias I_l (own axis)
    and J (transverse, about the centre), slider mass m_s and shaft + slider moment I₀."""
    d = A05
    L, w = d["L"], d["w"]
    mr, ms = d["rho"] * L * w ** 2, d["rho"] * d["b"] ** 3
    Il = mr * w ** 2 / 6
    m = mr + d["mb"]
    lam = (mr * L / 2 + d["mb"] * L) / m
    J = mr * (L ** 2 + w ** 2) / 12 + mr * (L / 2 - lam) ** 2 + d["mb"] * (L - lam) ** 2
    return m, lam, Il, J, ms, Il + ms * d["b"] ** 2 / 6


def _a05_inertia(al: float) -> tuple[float, float]:
    """M_φ(α), the moment of the whole governor about the axis, and dM_φ/dα."""
    m, lam, Il, J, _, I0 = _a05_rod()
    r = A05["a"] + lam * np.cos(al)
    return (I0 + 2 * (m * r ** 2 + J + (Il - J) * np.sin(al) ** 2),
            2 * (-2 * m * r * lam * np.sin(al) + 2 * (Il - J) * np.sin(al) * np.cos(al)))


def a05_equilibrium(alpha: float) -> tuple[float, float]:
    """The steady rotation of A05 with the rods at ``alpha`` below the horizontal (rad):
    the slider height s (m) and the spin ω (rad/s). The slider's balance m_s g =
    2F dz/ℓ with F = K(ℓ − l0), dx = (L/2) cos α, ℓ² = dx² + dz² fixes ℓ (a scalar root
    next to l0) and s = L − (L/2) sin α − dz; the rods' balance of moments about their
    hinges, ½ω² M_φ'(α) + 2 m g λ cos α − 2F ∂ℓ/∂α = 0, then gives ω."""
    from scipy.optimize import brentq

    d = A05
    L, K, l0, g = d["L"], d["K"], d["l0"], d["g"]
    m, lam, _, _, ms, _ = _a05_rod()
    dx = L / 2 * np.cos(alpha)
    ell = brentq(lambda e: K * (e - l0) - ms * g * e / (2 * np.sqrt(e * e - dx * dx)),
                 (dx + l0) / 2, 1.1 * l0)
    dz = np.sqrt(ell ** 2 - dx ** 2)
    F = K * (ell - l0)
    ell_a = (-dx * L / 2 * np.sin(alpha) - dz * L / 2 * np.cos(alpha)) / ell
    omega2 = (2 * F * ell_a - 2 * m * g * lam * np.cos(alpha)) / (0.5 * _a05_inertia(alpha)[1])
    return L - L / 2 * np.sin(alpha) - dz, float(np.sqrt(omega2))


def a05_reduced(t_end: float):
    """The symmetric motion of A05 from its own Lagrangian, independent of the multibody
    formulation: coordinates φ (shaft angle), s (slider height), α (both rods' angle below
    the horizontal); φ is cyclic, so p = M_φ(α) φ̇ is constant (no motor, gravity along the
    axis), and the rest is Lagrange's equations with Rayleigh's dissipation C ℓ̇² of the
    two spring–dampers of length ℓ(s, α) = |((L/2) cos α, L − (L/2) sin α − s)|:

        M_φ(α) = I_shaft + I_slider + 2[m (a + λ cos α)² + J + (I_l − J) sin² α],
        2 M_α α̈ = ½ φ̇² M_φ'(α) + 2 m g λ cos α − 2 F ∂ℓ/∂α,   m_s s̈ = −m_s g − 2 F ∂ℓ/∂s,

    with m, λ, J, I_l the mass, hinge-to-centre distance and inertias of a rod with its
    ball, M_α = m λ² + J and F = K(ℓ − l0) + C ℓ̇ (Radau, rtol 1e-11). Returns the dense
    solution t ↦ (φ, s, α, ṡ, α̇)."""
    d = A05
    L, g = d["L"], d["g"]
    m, lam, _, J, ms, _ = _a05_rod()
    Ma = m * lam ** 2 + J

    def Mphi(al):
        return _a05_inertia(al)[0]

    def dMphi(al):
        return _a05_inertia(al)[1]

    p = Mphi(d["alpha0"]) * d["omega0"]

    def f(_, y):
        _, s, al, sd, ad = y
        dx, dz = L / 2 * np.cos(al), L - L / 2 * np.sin(al) - s
        ell = np.hypot(dx, dz)
        ls, la = -dz / ell, (-dx * L / 2 * np.sin(al) - dz * L / 2 * np.cos(al)) / ell
        F = d["K"] * (ell - d["l0"]) + d["C"] * (ls * sd + la * ad)
        om = p / Mphi(al)
        return [om, sd, ad, -g - 2 * F * ls / ms,
                (0.5 * om ** 2 * dMphi(al) + 2 * m * g * lam * np.cos(al) - 2 * F * la)
                / (2 * Ma)]

    def jac(t, y):  # central differences: scipy's own estimate overflows on this stiffness
        h = 1e-7 * np.maximum(1.0, np.abs(y))
        return np.column_stack([(np.subtract(f(t, y + e), f(t, y - e))) / (2 * e[i])
                                for i, e in enumerate(np.diag(h))])

    y0 = [0.0, d["s0"], d["alpha0"], 0.0, 0.0]
    return solve_ivp(f, (0.0, t_end), y0, method="Radau", jac=jac, rtol=1e-11, atol=1e-12,
                     dense_output=True).sol


def a05_momentum(res) -> np.ndarray:
    """Angular momentum about the vertical axis, Σ e_z·(R P_ω + p × R P_v) over the
    bodies (N·m·s); constant in the exact motion."""
    total = 0.0
    for b in ("shaft", "slider", "rod1", "rod2"):
        p = np.stack([res[f"{b}.p[{i}]"] for i in range(3)], axis=-1)
        R = np.stack([res[f"{b}.R[{i}]"] for i in range(9)], axis=-1).reshape(-1, 3, 3)
        P = np.stack([res[f"{b}.P[{i}]"] for i in range(6)], axis=-1)
        RP = np.einsum("kij,kj->ki", R, P[:, :3]), np.einsum("kij,kj->ki", R, P[:, 3:])
        total = total + (RP[0] + np.cross(p, RP[1]))[:, 2]
    return total


def svd_rows(C: np.ndarray, tol: float) -> list[int]:
    """The former row selection of ``Mechanism._independent``: row k kept when the SVD of
    the kept rows and it has one more singular value above ``tol`` (one SVD per row)."""
    keep: list[int] = []
    rank = 0
    for k in range(C.shape[0]):
        r = int(np.sum(np.linalg.svd(C[keep + [k]], compute_uv=False) > tol))
        if r > rank:
            keep.append(k)
            rank = r
    return keep


def selection_setup(path: Path) -> tuple[float, float, bool, int]:
    """CPU seconds of the former SVD rule and of ``independent_rows`` on a model file's
    constraint rows, whether they agree, and how many rows were dropped."""
    from porthamiltonian.io.mechanism_run import _mechanism, joint_values
    from porthamiltonian.mechanics.assembly import MechanismDAE
    from porthamiltonian.mechanics.mechanism import independent_rows

    model = load_model(path)
    mech = _mechanism(model)
    q0 = joint_values((model.simulate or {}).get("initial") or {}) or None
    C = MechanismDAE(mech).wrench_matrix(mech._configuration(q0))
    tol = 1e-9 * max(1.0, float(np.abs(C).max()))
    c0 = time.process_time()
    old = svd_rows(C, tol)
    c1 = time.process_time()
    new = independent_rows(C, tol)
    c2 = time.process_time()
    return c1 - c0, c2 - c1, old == new, C.shape[0] - len(new)


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
    for label, name in (("A03", "iftomm_a03_andrews_squeezer.yaml"),
                        ("A03 spring", "iftomm_a03_andrews_squeezer_spring.yaml")):
        res, cpu = run(MODELS / name)
        init = {j: float(load_model(MODELS / name).parameters[p])
                for j, p in (("O", "beta0"), ("F", "theta0"), ("B", "gamma0"), ("G", "phi0"),
                             ("A5", "delta0"), ("H", "omega0"), ("A7", "eps0"))}
        err = max(abs(init[j] + res.joint(j)[-1, 0] - v) for j, v in A03_REF.items())
        rows.append((label, res.t[-1], len(res.t) - 1, cpu,
                     f"max angle error at 0.03 s = {err:.2e} rad", np.nan))
    res, cpu = run(MODELS / "iftomm_a04_bricard.yaml", t_end=2.0 if args.quick else 10.0)
    rows.append(("A04", res.t[-1], len(res.t) - 1, cpu,
                 f"max closure residual = {res.constraint_residual().max():.1e}",
                 np.ptp(res.H)))
    res, cpu = run(MODELS / "iftomm_a05_flyball_governor.yaml",
                   t_end=1.0 if args.quick else 10.0)
    s = a05_reduced(res.t[-1])(res.t)[1]
    err = np.abs(0.5 + res.joint("slide")[:, 0] - s).max()
    L = a05_momentum(res)
    rows.append(("A05", res.t[-1], len(res.t) - 1, cpu,
                 f"max |s − reduced| = {err:.2e} m, angular momentum drift "
                 f"{np.ptp(L) / L[0]:.1e}, dissipated {res.H[0] - res.H[-1]:.4f} J",
                 np.abs(res.power_residual).max()))
    print(f"{'problem':10s} {'t_end':>6s} {'steps':>7s} {'CPU s':>8s}  {'ΔH (J)':>9s}  check")
    for name, t, n, cpu, check, dH in rows:
        print(f"{name:10s} {t:6.3g} {n:7d} {cpu:8.2f}  {dH:9.1e}  {check}")
    print("(A05: ΔH is the largest per-step power residual, H − H₀ + dissipated work)")
    if not args.quick:
        with tempfile.TemporaryDirectory() as tmp:
            path = Path(tmp) / "a02.yaml"
            path.write_text(a02_model(40))
            old, new, same, dropped = selection_setup(path)
        print(f"A02 N=40 row selection: one SVD per row {old:.2f} s, incremental basis "
              f"{new:.3f} s; same rows: {same}; {dropped} rows dropped")


if __name__ == "__main__":
    with threadpool_limits(limits=1):
        main()

