"""2-D wave equation with ~10⁵ degrees of freedom: the library's midpoint rule against
SciPy's ``solve_ivp`` on the same matrices, and its modes against scikit-fem's own
eigen-solution, side by side in one run.

The model: a unit-square membrane (ρ = T = 1, c = 1 m/s) fixed on all edges, P1
triangles with lumped mass and P0 forces (:func:`porthamiltonian.distributed.domains.wave`):
an explicit sparse PHS ẋ = JQx whose states are nodal momenta and integrated strains.
Initial state: the first mode's velocity field sin(πx)sin(πy) plus a smaller (3, 2)
component, so the run has a closed-form reference for the frequencies.

1. **Time steps.** ``--steps`` implicit-midpoint steps of ``--dt`` (``simulate``,
   ``method="midpoint"``, default recording) against ``solve_ivp`` integrating
   ``ẋ = A x`` with ``A = JQ`` (the same sparse matrix; RK45 and DOP853 at
   rtol = 1e-6, atol = 1e-9 relative to the state, BDF with the sparse Jacobian) over
   the same span, each asked for the same output times.  Reported: CPU time (best of
   ``--repeat``), the ratio to ours, the relative energy drift |H(T) − H(0)|/H(0) and the
   final-state difference to a DOP853 reference at rtol = 1e-10.
2. **Modes.** ``model.frequencies(k)`` (:func:`porthamiltonian.analysis.natural_frequencies`
   on the pH system) against scikit-fem's textbook route on the same mesh — assemble
   the P1 Laplacian and mass, condense the Dirichlet nodes, ``eigsh(K, k, M, sigma=0)``
   — with both errors against ω = π√(m² + n²).

    python benchmarks/domains_wave.py [--elements 141] [--steps 1000] [--dt 1e-3]
"""

from __future__ import annotations

import argparse
import time

import numpy as np
import scipy.integrate as si
import scipy.sparse.linalg as spla
from simulate_matched import timed

import porthamiltonian as ph
from porthamiltonian.distributed.domains import rectangle, wave


def cpu(fn, repeat: int):  # noqa: ANN001, ANN201
    """(best CPU time of ``repeat`` runs, the result)."""
    out, t = timed(fn, repeat, clock=time.process_time)
    return t, out


def initial_state(model) -> np.ndarray:  # noqa: ANN001
    """The state of the velocity field sin(πx)sin(πy) + 0.3 sin(3πx)sin(2πy)."""
    return model.state(v=lambda x, y: np.sin(np.pi * x) * np.sin(np.pi * y)
                       + 0.3 * np.sin(3 * np.pi * x) * np.sin(2 * np.pi * y))


def skfem_modes(n: int, k: int) -> np.ndarray:
    import skfem as sk
    from skfem.helpers import dot, grad

    mesh = sk.MeshTri.init_tensor(np.linspace(0, 1, n + 1), np.linspace(0, 1, n + 1))
    basis = sk.Basis(mesh, sk.ElementTriP1())

    @sk.BilinearForm
    def laplace(u, v, w):  # noqa: ANN001, ANN202
        return dot(grad(u), grad(v))

    @sk.BilinearForm
    def mass(u, v, w):  # noqa: ANN001, ANN202
        return u * v

    K, M = sk.asm(laplace, basis), sk.asm(mass, basis)
    I = basis.complement_dofs(basis.get_dofs())
    lam = spla.eigsh(K[I][:, I], k=k, M=M[I][:, I], sigma=0.0, return_eigenvectors=False)
    return np.sqrt(np.sort(lam))


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--elements", type=int, default=141, help="divisions per side")
    ap.add_argument("--steps", type=int, default=1000)
    ap.add_argument("--dt", type=float, default=1e-3)
    ap.add_argument("--modes", type=int, default=10)
    ap.add_argument("--repeat", type=int, default=3)
    args = ap.parse_args()

    t0 = time.process_time()
    model = wave(rectangle(1.0, 1.0, args.elements), boundary="fixed")
    build = time.process_time() - t0
    sys = model.system
    n = len(sys.states)
    print(f"membrane: {args.elements}² × 2 triangles, {n} states (built in {build:.2f} s CPU)")

    x0 = initial_state(model)
    T = args.steps * args.dt
    Q = sys.Q
    A = (sys.J @ Q).tocsr()

    def energy(x: np.ndarray) -> float:
        return 0.5 * float(x @ (Q @ x))

    H0 = energy(x0)
    t_out = np.linspace(0.0, T, 11)

    ours_time, res = cpu(lambda: ph.simulate(sys, (0.0, T), x0, method="midpoint",
                                             dt=args.dt), args.repeat)
    x_ours = res.x[-1]
    ref = si.solve_ivp(lambda t, x: A @ x, (0.0, T), x0, method="DOP853", rtol=1e-10,
                       atol=1e-13 * np.max(np.abs(x0)), t_eval=[T])
    x_ref = ref.y[:, -1]
    scale = np.linalg.norm(x_ref)
    rows = [("midpoint (ours)", ours_time, abs(energy(x_ours) - H0) / H0,
             np.linalg.norm(x_ours - x_ref) / scale, f"{args.steps} steps")]
    atol = 1e-9 * np.max(np.abs(x0))
    for method in ("RK45", "DOP853", "BDF"):
        kw = {"jac": A} if method == "BDF" else {}
        t, sol = cpu(lambda m=method, kw=kw: si.solve_ivp(
            lambda t, x: A @ x, (0.0, T), x0, method=m, rtol=1e-6, atol=atol,
            t_eval=t_out, **kw), 1 if method == "BDF" else args.repeat)
        xf = sol.y[:, -1]
        rows.append((f"solve_ivp {method}", t, abs(energy(xf) - H0) / H0,
                     np.linalg.norm(xf - x_ref) / scale, f"{sol.nfev} rhs evaluations"))
    print(f"\n{args.steps} steps of dt = {args.dt} s (T = {T} s), CPU time best of "
          f"{args.repeat}:")
    print(f"{'method':<20} {'CPU s':>8} {'/ ours':>8} {'|ΔH|/H0':>10} {'state err':>10}  work")
    for name, t, dH, err, work in rows:
        print(f"{name:<20} {t:8.3f} {t / ours_time:8.2f} {dH:10.2e} {err:10.2e}  {work}")

    exact = np.sort(np.pi * np.sqrt(np.array(
        [m * m + k * k for m in range(1, 8) for k in range(1, 8)], dtype=float)))[:args.modes]
    t_ours, w_ours = cpu(lambda: model.frequencies(args.modes), args.repeat)
    t_sk, w_sk = cpu(lambda: skfem_modes(args.elements, args.modes), args.repeat)
    print(f"\n{args.modes} lowest modes, CPU time best of {args.repeat}:")
    print(f"  natural_frequencies on the pH system: {t_ours:.3f} s, max error "
          f"{np.max(np.abs(w_ours / exact - 1)):.2e}")
    print(f"  scikit-fem Laplacian + mass, eigsh:   {t_sk:.3f} s, max error "
          f"{np.max(np.abs(w_sk / exact - 1)):.2e}")
    print(f"  ratio (ours / scikit-fem): {t_ours / t_sk:.2f}")


if __name__ == "__main__":
    main()
