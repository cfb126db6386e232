"""Shared test helpers, and the import set-up of the test folders.

The test folders are not packages and pytest runs with ``--import-mode=importlib``
(pyproject.toml), so two folders may hold test files of the same name
(``bondgraph/test_examples.py``, ``simulate/test_examples.py``).  Helper modules
next to the tests (``simulate/sim_systems.py``, ``control/plants.py``, …) are
imported by their plain name: every test folder is put on ``sys.path`` here.
Helper module names must therefore be unique across folders.
"""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
EXAMPLES = ROOT / "examples"

for _folder in sorted(HERE.iterdir()):
    if _folder.is_dir() and not _folder.name.startswith((".", "_")):
        if str(_folder) not in sys.path:
            sys.path.append(str(_folder))
