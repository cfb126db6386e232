"""Start-up of the command line: wall time of ``porthamiltonian --help`` and of
``porthamiltonian validate MODEL`` for the example model files, and which heavy
packages each one imports.

Each command runs in a fresh interpreter (``python -m porthamiltonian …``, as a user
runs it, with its bytecode cached: ``PYTHONDONTWRITEBYTECODE`` is dropped), ``--repeat``
times; the best wall time and the best CPU time (user + system,
of the child process) are reported — the minimum is the least disturbed by other
processes on a shared machine, and the CPU time does not count waiting for a core.
One more run, through :func:`porthamiltonian.cli.app.main` inside a small driver, lists
the heavy top-level packages in ``sys.modules`` when the command has finished.  The load average
(``os.getloadavg``) is printed before and after: timings on a busy machine are longer.

    python benchmarks/startup.py [--repeat 5] [MODEL.yaml ...]

Without model files, every ``examples/models/*.yaml`` is validated.
"""

from __future__ import annotations

import argparse
import json
import os
import pathlib
import resource
import subprocess
import sys
import time

#: packages whose import costs a noticeable share of a second
HEAVY = ("sympy", "numpy", "scipy", "matplotlib", "numba", "pint", "networkx", "skfem",
         "dask", "pandas")

ROOT = pathlib.Path(__file__).resolve().parent.parent

#: the children's environment: bytecode is written and read (``PYTHONDONTWRITEBYTECODE``
#: dropped), as for an installed package, whose ``.pyc`` files pip writes; without them
#: every run compiles the package's modules again (≈ 0.15 s of each validate here)
ENV = {k: v for k, v in os.environ.items() if k != "PYTHONDONTWRITEBYTECODE"}

_DRIVER = """\
import contextlib, io, json, sys
from porthamiltonian.cli.app import main
with contextlib.redirect_stdout(io.StringIO()), contextlib.redirect_stderr(io.StringIO()):
    try:
        status = main(sys.argv[1:])
    except SystemExit as done:
        status = done.code
print(json.dumps([status, sorted({m.split('.')[0] for m in sys.modules} & set(HEAVY))]))
"""


def _child_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def best_times(argv: list[str], repeat: int) -> tuple[float, float, int]:
    """Best wall and best CPU time (s) of ``python -m porthamiltonian *argv``, and its exit
    status.  The CPU time (user + system) is what the command itself costs; the wall time
    also holds the waits for a busy machine's cores."""
    wall = cpu = float("inf")
    status = 0
    for _ in range(repeat):
        start, start_cpu = time.perf_counter(), _child_cpu()
        status = subprocess.run([sys.executable, "-m", "porthamiltonian", *argv], cwd=ROOT, env=ENV,
                                stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL).returncode
        wall = min(wall, time.perf_counter() - start)
        cpu = min(cpu, _child_cpu() - start_cpu)
    return wall, cpu, status


def heavy_imports(argv: list[str]) -> list[str]:
    """The heavy top-level packages imported by running ``argv``."""
    driver = f"HEAVY = {HEAVY!r}\n{_DRIVER}"
    out = subprocess.run([sys.executable, "-c", driver, *argv], cwd=ROOT, text=True, env=ENV,
                         capture_output=True, check=True).stdout
    return json.loads(out.splitlines()[-1])[1]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("models", nargs="*", help="model files (default: examples/models)")
    parser.add_argument("--repeat", type=int, default=5)
    opts = parser.parse_args()
    models = opts.models or sorted(str(p.relative_to(ROOT))
                                   for p in (ROOT / "examples" / "models").glob("*.yaml"))
    print(f"load average before: {os.getloadavg()[0]:.2f} (cores: {os.cpu_count()})")
    print(f"{'command':<62} {'wall [s]':>8} {'CPU [s]':>8}  status  heavy packages imported")
    for argv in [["--help"], *(["validate", m] for m in models)]:
        wall, cpu, status = best_times(argv, opts.repeat)
        heavy = ", ".join(heavy_imports(argv)) or "-"
        print(f"{' '.join(argv):<62} {wall:8.3f} {cpu:8.3f}  {status:6d}  {heavy}", flush=True)
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
