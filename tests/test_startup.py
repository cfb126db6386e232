"""Start-up (docs/cli.md): ``import porthamiltonian`` and ``porthamiltonian --help`` load
neither SymPy nor Matplotlib (nor SciPy, nor Numba), and the public names still resolve.

Facts about which modules get imported, checked in a fresh interpreter — never a timing.
"""

from __future__ import annotations

import inspect
import json
import pathlib
import subprocess
import sys

import pytest

import porthamiltonian
from porthamiltonian.cli.commands import METHOD_NAMES

HEAVY = ("sympy", "matplotlib", "scipy", "numpy", "numba")


def _fresh(code: str) -> dict:
    """Run ``code`` in a new interpreter; it prints one JSON object."""
    res = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                         check=True)
    return json.loads(res.stdout.splitlines()[-1])


_LOADED = f"json.dumps([m for m in {HEAVY!r} if m in sys.modules])"


def test_import_loads_nothing_heavy():
    loaded = _fresh(f"import json, sys, porthamiltonian; print({_LOADED})")
    assert loaded == []


@pytest.mark.parametrize("argv", [["--help"], ["--version"], ["simulate", "--help"],
                                  ["validate", "--help"], ["demo", "--help"], []])
def test_help_loads_nothing_heavy(argv):
    code = ("import contextlib, io, json, sys\n"
            "from porthamiltonian.cli.app import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            "    try:\n"
            f"        main({argv!r})\n"
            "    except SystemExit:\n"
            "        pass\n"
            f"print({_LOADED})")
    assert _fresh(code) == []


def test_python_m_help_imports_no_command_module():
    """``python -m porthamiltonian --help`` as run, with ``-X importtime``'s module list."""
    res = subprocess.run([sys.executable, "-X", "importtime", "-m", "porthamiltonian",
                          "--help"], capture_output=True, text=True, check=True)
    modules = {line.rsplit("|", 1)[-1].strip() for line in res.stderr.splitlines()
               if line.startswith("import time:")}
    assert "porthamiltonian.cli.commands" in modules
    assert not {m.split(".")[0] for m in modules} & set(HEAVY)
    assert not [m for m in modules if m.startswith("porthamiltonian.")
                and m not in ("porthamiltonian.cli", "porthamiltonian.cli.app",
                              "porthamiltonian.cli.commands", "porthamiltonian.errors",
                              "porthamiltonian.__main__")]
    assert "COMMAND" in res.stdout


def test_method_names_are_the_registry():
    """``simulate --help`` lists the methods from a constant; it is the registry's list."""
    from porthamiltonian.simulate import METHODS

    assert list(METHOD_NAMES) == list(METHODS)


def test_public_names_resolve_lazily():
    names = _fresh(
        "import json, sys, porthamiltonian as ph\n"
        "from porthamiltonian import PHS, simulate\n"
        "import porthamiltonian.simulate.registry\n"  # binds the subpackage on the root
        "print(json.dumps({'sympy': 'sympy' in sys.modules,\n"
        "                  'simulate': ph.simulate is simulate and callable(ph.simulate)\n"
        "                              and ph.simulate.SimulationOptions is not None,\n"
        "                  'PHS': ph.PHS is PHS and PHS.__module__,\n"
        "                  'all': [n for n in ph.__all__ if not hasattr(ph, n)]}))")
    assert names == {"sympy": True, "simulate": True, "PHS": "porthamiltonian.phs",
                     "all": []}


def test_dir_and_all():
    assert set(porthamiltonian.__all__) <= set(dir(porthamiltonian))
    assert {"io", "simulate", "bondgraph", "mechanics"} <= set(dir(porthamiltonian))
    # the subpackage is callable: the function and the package are one public name
    assert porthamiltonian.simulate.__name__ == "porthamiltonian.simulate"
    assert porthamiltonian.simulate.simulate.__module__ == "porthamiltonian.simulate.run"
    assert "x0" in str(inspect.signature(porthamiltonian.simulate))
    assert "annotations" not in dir(porthamiltonian)
    assert not {"PackageNotFoundError", "annotations"} & set(porthamiltonian.__all__)
    assert isinstance(porthamiltonian.__version__, str)
    with pytest.raises(AttributeError, match="no attribute 'nonexistent'"):
        porthamiltonian.nonexistent  # noqa: B018


def test_validate_loads_neither_matplotlib_nor_the_simulator(tmp_path):
    """``validate`` of an explicit model: SymPy (the expressions and the IR) but no
    Matplotlib, no simulator, no mechanics."""
    model = tmp_path / "osc.json"
    model.write_text(json.dumps({"name": "osc", "parameters": {"k": 2.0},
                                 "phs": {"states": ["q", "p"], "J": [[0, 1], [-1, 0]],
                                         "Q": [["k", 0], [0, 1]]}}), encoding="utf-8")
    code = ("import contextlib, io, json, sys\n"
            "from porthamiltonian.cli.app import main\n"
            "with contextlib.redirect_stdout(io.StringIO()):\n"
            f"    status = main(['validate', {str(model)!r}])\n"
            "print(json.dumps([status] + sorted({m for m in sys.modules\n"
            "    if m.split('.')[0] == 'matplotlib' or m.startswith(('porthamiltonian.simulate',\n"
            "    'porthamiltonian.mechanics', 'porthamiltonian.bondgraph', 'scipy.optimize'))})))")
    assert _fresh(code) == [0]


_SETUP_ONLY = """\
import contextlib, io, json, sys
from porthamiltonian.cli.app import main
with contextlib.redirect_stdout(io.StringIO()):
    status = main(['validate', sys.argv[1]])
print(json.dumps([status] + sorted({m for m in sys.modules if m.split('.')[0] == 'numba'
    or m.startswith(('scipy.optimize', 'scipy.integrate', 'porthamiltonian.simulate.ode',
                     'porthamiltonian.simulate.kernels', 'porthamiltonian.distributed',
                     'porthamiltonian.mechanics.fused', 'porthamiltonian.mechanics.kernels'))
    })))
"""


@pytest.mark.parametrize("model", ["series_rlc.yaml", "mass_spring_damper.yaml",
                                   "oscillator_phs.yaml", "dc_motor_gear.yaml",
                                   "double_pendulum.yaml", "iftomm_a02_n_four_bar.yaml"])
def test_validate_sets_a_run_up_without_loading_its_method(model):
    """``validate`` checks the ``simulate:`` section with the simulator's own set-up code
    (method, options, problem), yet loads neither the method that would run (its steps,
    their kernels, Numba; SciPy's integrators for ``DOP853``) nor, for a network of
    electrical parts, the other library domains; for a mechanism (a closed chain too)
    the initial energy and consistent state are found without its compiled kernels (the
    first ``validate`` on a machine compiled them: 12 s)."""
    path = str(pathlib.Path(__file__).resolve().parents[1] / "examples" / "models" / model)
    res = subprocess.run([sys.executable, "-c", _SETUP_ONLY, path], capture_output=True,
                         text=True, check=True)
    assert json.loads(res.stdout.splitlines()[-1]) == [0]


def test_import_simulate_loads_no_method_and_no_numba():
    code = ("import json, sys\nimport porthamiltonian.simulate as s\n"
            "assert s.METHODS.problems_of('ida') == {'dae'}\n"
            "print(json.dumps(sorted(m for m in sys.modules if m.split('.')[0] == 'numba' or "
            "m.startswith(('porthamiltonian.simulate.ode', 'porthamiltonian.simulate.dae')))))")
    assert _fresh(code) == []


def test_jit_enabled_is_answered_without_importing_numba():
    code = ("import json, sys\nfrom porthamiltonian import jit\n"
            "print(json.dumps([jit.enabled(), 'numba' in sys.modules]))")
    import importlib.util

    assert _fresh(code) == [importlib.util.find_spec("numba") is not None, False]
