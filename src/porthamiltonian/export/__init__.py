"""Models taken out of the library: FMUs, the pH benchmark-collection layout, pyMOR.

* :func:`export_fmu` — a Functional Mock-up Unit (FMI 3.0 or 2.0, Model Exchange or
  Co-Simulation) with C code generated from the model (docs/export.md);
* :func:`save_matrices` / :func:`load_matrices` — linear (descriptor) pH models as
  ``.mat``/``.npz`` files with the matrices ``E, J, R, Q, G, P, S, N`` of the benchmark
  collection;
* :func:`to_pymor` / :func:`from_pymor` — pyMOR's ``PHLTIModel``;
  :func:`from_control` — a passive python-control ``StateSpace`` in pH form.

Names are imported on first use, so ``import porthamiltonian.export`` stays light.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .fmu import export_fmu
    from .matrices import load_matrices, save_matrices
    from .passive import from_control, from_state_space
    from .pymor import from_pymor, to_pymor

__all__ = ["export_fmu", "save_matrices", "load_matrices", "to_pymor", "from_pymor",
           "from_control", "from_state_space"]


def __getattr__(name: str) -> Any:
    """The public name ``name``, imported on first use."""
    if name == "export_fmu":
        from .fmu import export_fmu
        return export_fmu
    if name in ("save_matrices", "load_matrices"):
        from . import matrices
        return getattr(matrices, name)
    if name in ("to_pymor", "from_pymor"):
        from . import pymor
        return getattr(pymor, name)
    if name in ("from_control", "from_state_space"):
        from . import passive
        return getattr(passive, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
