"""``porthamiltonian.mechanics.lie``: the SE(3)/SE(2) toolkit, kept under its old name.

The module lives in the foundation layer as :mod:`porthamiltonian.lie` (the distributed
beams use it as well as the mechanisms); this name re-exports it for user code.
"""

from ..lie import *  # noqa: F403
from ..lie import __all__  # noqa: F401
