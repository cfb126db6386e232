"""Shared test helpers, and the import set-up of the test folders.

The test folders are not packages and pytest runs with ``--import-mode=importlib``
(pyproject.toml), so two folders may hold test files of the same name
(``bondgraph/test_examples.py``, ``simulate/test_examples.py``).  Helper modules
next to the tests (``simulate/sim_systems.py``, ``control/plants.py``, …) are
imported by their plain name: every test folder is put on ``sys.path`` here.
Helper module names must therefore be unique across folders.
"""

import importlib.util
import os
import sys
from pathlib import Path

from threadpoolctl import threadpool_limits

# With one pytest-xdist worker per core (pyproject addopts), BLAS threads of their own
# would oversubscribe the cores: OpenBLAS's threads then spin-wait on each other and a
# small LU takes 100× longer.  Each worker keeps to one BLAS thread.
if os.environ.get("PYTEST_XDIST_WORKER"):
    threadpool_limits(limits=1)

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
EXAMPLES = ROOT / "examples"

# ``tests/`` itself is on the path too (pyproject ``pythonpath``), which would make a test
# folder importable as a namespace package shadowing a library of the same name that is
# not installed (``tests/control`` vs python-control).  Such names are blocked, so that
# ``import control`` fails as it would for a user without the optional extra.
for _folder in sorted(HERE.iterdir()):
    if not _folder.is_dir() or _folder.name.startswith((".", "_")):
        continue
    if str(_folder) not in sys.path:
        sys.path.append(str(_folder))
    _spec = importlib.util.find_spec(_folder.name)
    if _spec is not None and _spec.origin is None and all(
            Path(p).resolve().is_relative_to(HERE) for p in _spec.submodule_search_locations):
        sys.modules[_folder.name] = None  # type: ignore[assignment]
