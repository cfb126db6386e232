"""Series RLC circuit driven by an 800 Hz sine: ours (implicit midpoint) vs PyPHS 0.5.1.

The circuit is PyPHS's own example ``pyphs/examples/rlc/rlc.net`` (R = 1 kΩ, L = 50 mH,
C = 2 µF, voltage source), simulated by PyPHS with its discrete-gradient method
(``grad='discret'``, pure-Python back end ``lang='python'``) at fs = 48 kHz with the
input held over each sample, and by us with the same step and the same held input.  For
a quadratic H both schemes are the implicit midpoint rule, so the trajectories must
agree to round-off — the run checks that and reports both wall times (PyPHS: its
``process()`` only, without its code generation).

PyPHS 0.5.1 does not install with a plain ``pip install pyphs`` on Python 3.11 (its
setup.py imports sympy, networkx and h5py before declaring them); it does in a separate
environment after installing those first and using ``--no-build-isolation``:

    python -m venv /tmp/pyphsenv
    /tmp/pyphsenv/bin/pip install sympy numpy scipy networkx matplotlib progressbar2 h5py
    /tmp/pyphsenv/bin/pip install --no-build-isolation pyphs
    python benchmarks/simulate_pyphs.py --pyphs-python /tmp/pyphsenv/bin/python [--t-end 0.25]
"""

from __future__ import annotations

import argparse
import json
import math
import subprocess
import tempfile
import time

import numpy as np

from porthamiltonian import PHS
from porthamiltonian.simulate import simulate

R, L, C, FS, F0 = 1e3, 0.05, 2e-6, 48e3, 800.0

PYPHS_SCRIPT = """
import json, os, sys, time, numpy as np, sympy as sp, pyphs as phs
here = os.path.join(os.path.dirname(phs.__file__), "examples", "rlc")
core = phs.Netlist(os.path.join(here, "rlc.net")).to_core()
core.reduce_z()
config = {"fs": %(fs)r, "grad": "discret", "theta": 0.5, "split": True, "maxit": 10,
          "eps": 1e-30, "path": %(path)r, "pbar": False, "timer": False, "lang": "python"}
x0 = np.zeros(core.dims.x()); x0[0] = 1e-3
simu = core.to_simulation(config=config, inits={"x": list(map(sp.sympify, x0))})
nt = %(nt)d
u = np.sin(2 * np.pi * %(f0)r * np.arange(nt) / %(fs)r)
simu.init(u=u[:, np.newaxis], nt=nt)
t = time.perf_counter(); simu.process(); wall = time.perf_counter() - t
x = np.array(list(simu.data.x()))
print(json.dumps({"wall": wall, "x": x.tolist(), "states": [str(s) for s in core.x]}))
"""


def rlc() -> PHS:
    """x = (φ_L, q_C): φ̇ = V − R φ/L − q/C, q̇ = φ/L; input V, output the current."""
    return PHS(J=[[0, -1], [1, 0]], R=[[R, 0], [0, 0]], G=[[1], [0]],
               Q=[[1 / L, 0], [0, 1 / C]], states=["xL", "xC"], inputs=["V"], outputs=["i"])


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--pyphs-python", required=True, help="interpreter with pyphs installed")
    ap.add_argument("--t-end", type=float, default=0.25)
    args = ap.parse_args()
    nt = int(round(args.t_end * FS))
    with tempfile.TemporaryDirectory() as tmp:
        script = PYPHS_SCRIPT % {"fs": FS, "path": tmp, "nt": nt, "f0": F0}
        out = subprocess.run([args.pyphs_python, "-c", script], capture_output=True, text=True,
                             cwd=tmp, timeout=3600)
    if out.returncode != 0:
        raise SystemExit(f"PyPHS failed:\n{out.stderr[-2000:]}")
    theirs = json.loads(out.stdout.strip().splitlines()[-1])
    xp = np.array(theirs["x"])

    def held(t: float) -> float:
        # the sample of the step containing t; PyPHS's source port is oriented the other
        # way (its structure has ẋ_L = … − u), so its u = sin is our V = −sin
        return -math.sin(2 * math.pi * F0 * math.floor(t * FS) / FS)

    t = time.perf_counter()
    res = simulate(rlc(), (0.0, nt / FS), [1e-3, 0.0], u=held, dt=1 / FS)
    wall = time.perf_counter() - t
    ours = res.x[:-1]  # PyPHS stores the state at the start of each step
    diff = np.max(np.abs(ours - xp), axis=0) / np.max(np.abs(ours), axis=0)
    print(f"series RLC, fs = {FS:g} Hz, {nt} steps; PyPHS states {theirs['states']}")
    print("| tool | wall (s) | max relative state difference to the other |")
    print("|---|---|---|")
    print(f"| porthamiltonian midpoint | {wall:.3f} | {diff.max():.2e} |")
    print(f"| PyPHS 0.5.1 (lang=python) | {theirs['wall']:.3f} | {diff.max():.2e} |")
    print(f"PyPHS wall time / ours: {theirs['wall'] / wall:.1f}; our max power residual "
          f"{np.max(np.abs(res.power_residual)):.2e} J")


if __name__ == "__main__":
    main()
