"""Ensembles: 1000 runs of a 100-state model — a plain Python loop, the local process
pool, and a 2-worker Dask cluster; overhead per run, and the client's memory when the
runs stream to netCDF instead of being held.

The model is an RLC ladder of 50 sections (100 states, ``benchmarks/ladders.py``) written
as a model file; each run sweeps R, L and C (Latin hypercube, seed 0) and takes
200 midpoint steps, saving ``--points`` times.  The plain loop is what a user writes by
hand: ``with_parameters`` and a new system per run (a bond graph this large is generated
numerically, with the parameter values folded in, so every run generates it again — the
sweep's workers do the same), the results kept in a list.  Times are wall-clock (the
pool's work is in other processes), best of ``--repeat``; the peak memory of the
client (its max RSS) is measured in a fresh subprocess per mode.

Command (docs/ensembles.md quotes it)::

    python benchmarks/ensemble_sweep.py --runs 1000 --repeat 2
"""

from __future__ import annotations

import argparse
import json
import pathlib
import resource
import subprocess
import sys
import tempfile
import time

import numpy as np

SECTIONS = 50


def model_text(n: int = SECTIONS) -> str:
    lines = ["name: ladder50", "parameters: {R: 1.0, L: 1.0e-3, C: 1.0e-6}", "bondgraph:",
             "  domain: electrical", "  elements:", "    - {name: u, type: Se}"]
    bonds, prev = [], "u"
    for k in range(n):
        lines += [f"    - {{name: s{k}, type: '1'}}", f"    - {{name: R{k}, type: R, r: R}}",
                  f"    - {{name: L{k}, type: I, i: L}}", f"    - {{name: p{k}, type: '0'}}",
                  f"    - {{name: C{k}, type: C, c: C}}"]
        bonds += [[prev, f"s{k}"], [f"s{k}", f"R{k}"], [f"s{k}", f"L{k}"], [f"s{k}", f"p{k}"],
                  [f"p{k}", f"C{k}"]]
        prev = f"p{k}"
    lines += ["    - {name: RL, type: R, r: R}"]
    bonds += [[prev, "RL"]]
    lines += [f"  bonds: {json.dumps(bonds)}", "simulate:", "  t_end: 2.0e-4",
              "  dt: 1.0e-6", "  method: midpoint", "  inputs: {u: '1'}"]
    return "\n".join(lines) + "\n"


def ranges() -> dict[str, tuple[float, float]]:
    return {"R": (0.5, 2.0), "L": (0.5e-3, 2e-3), "C": (0.5e-6, 2e-6)}


def plain_loop(path: pathlib.Path, runs: int, points: int) -> list:
    """What a user writes by hand, compiled once."""
    from porthamiltonian.ensemble import latin_hypercube
    from porthamiltonian.io import load_model
    from porthamiltonian.io.simulation import simulation_arguments, simulation_system
    from porthamiltonian.simulate import simulate

    model = load_model(path)
    pts = latin_hypercube(ranges(), runs, seed=0)
    every = max(1, 200 // (points - 1))
    out = []
    for k in range(len(pts)):
        m = model.with_parameters(pts.row(k))
        s = simulation_system(m)  # a 50-section bond graph is generated numerically
        res = simulate(s, **simulation_arguments(m, s), save_every=every)
        out.append((res.t, res.x, res.H))
    return out


def child(mode: str, path: str, runs: int, points: int, out: str | None) -> None:
    """One timed mode, reporting JSON on stdout (wall time, max RSS in MiB)."""
    from porthamiltonian.ensemble import sweep

    start = time.perf_counter()
    if mode == "loop":
        plain_loop(pathlib.Path(path), runs, points)
    elif mode == "loop1":
        from threadpoolctl import threadpool_limits

        with threadpool_limits(limits=1):
            plain_loop(pathlib.Path(path), runs, points)
    elif mode == "dask":
        from dask.distributed import Client, LocalCluster

        with LocalCluster(n_workers=2, threads_per_worker=1, processes=True,
                          dashboard_address=":0") as cluster, Client(cluster) as client:
            start = time.perf_counter()  # the cluster's start-up is not the runs'
            sweep(path, ranges(), samples=runs, executor=client, n_times=points,
                  out=out, progress=False)
    else:
        sweep(path, ranges(), samples=runs, workers=2, n_times=points, out=out,
              progress=False)
    wall = time.perf_counter() - start
    rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(json.dumps({"wall": wall, "rss_mib": rss}))


def measure(mode: str, path: pathlib.Path, runs: int, points: int, out: str | None) -> dict:
    cmd = [sys.executable, __file__, "--child", mode, "--model", str(path), "--runs",
           str(runs), "--points", str(points)] + (["--out", out] if out else [])
    proc = subprocess.run(cmd, capture_output=True, text=True, check=True)
    return json.loads(proc.stdout.strip().splitlines()[-1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=1000)
    ap.add_argument("--points", type=int, default=101)
    ap.add_argument("--repeat", type=int, default=2)
    ap.add_argument("--modes", default="loop,loop1,pool,pool-nc,dask",
                    help="which to run, of loop, loop1, pool, pool-nc, dask")
    ap.add_argument("--child")
    ap.add_argument("--model")
    ap.add_argument("--out")
    args = ap.parse_args()
    if args.child:
        child(args.child, args.model, args.runs, args.points, args.out)
        return
    tmp = pathlib.Path(tempfile.mkdtemp())
    path = tmp / "ladder50.yaml"
    path.write_text(model_text())
    results = {}
    every = {"loop": ("loop", None), "loop1": ("loop1", None), "pool": ("pool", None),
             "pool-nc": ("pool", str(tmp / "runs.nc")),
             "dask": ("dask", str(tmp / "runs-dask.nc"))}
    for mode, out in (every[m] for m in args.modes.split(",")):
        label = {"loop": "loop", "loop1": "loop, 1 BLAS thread"}.get(mode, mode) + (
            " → netCDF" if out else (" in memory" if mode == "pool" else ""))
        best = min((measure(mode, path, args.runs, args.points, out)
                    for _ in range(args.repeat)), key=lambda r: r["wall"])
        results[label] = best
        print(f"{label:22s} {best['wall']:8.2f} s  {1e3 * best['wall'] / args.runs:7.2f} "
              f"ms/run  client max RSS {best['rss_mib']:7.0f} MiB", flush=True)
    if "loop" not in results or "loop, 1 BLAS thread" not in results:
        return
    loop = results["loop"]["wall"]
    single = results["loop, 1 BLAS thread"]["wall"]
    print(f"\n{args.runs} runs of a {2 * SECTIONS}-state ladder, 200 midpoint steps each, "
          f"{args.points} saved times; wall-clock, best of {args.repeat}")
    for label, r in results.items():
        if label.startswith("loop"):
            print(f"  {label:26s} {1e3 * r['wall'] / args.runs:.2f} ms per run")
            continue
        print(f"  {label:26s} {loop / r['wall']:5.2f}× the plain loop, {single / r['wall']:5.2f}× "
              f"the single-threaded loop; overhead per run over half the single-threaded "
              f"loop (2 workers): {1e3 * (r['wall'] - single / 2) / args.runs:+.2f} ms")
    size = np.dtype(float).itemsize * args.runs * args.points
    print(f"  one series over all runs: {size / 2**20:.2f} MiB")


if __name__ == "__main__":
    main()
