"""Structure-preserving model reduction of port-Hamiltonian systems (docs/reduction.md).

:func:`reduce` returns a reduced model that is again port-Hamiltonian (and so passive),
with its errors reported: effort-constraint and Galerkin projections, pH-IRKA and
positive-real balanced truncation for linear (descriptor) pH systems, and a POD
projection that keeps ``J`` skew and the energy balance for nonlinear ones.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from .norms import h2_error, h2_norm, hinf_error, hinf_norm
    from .reducer import Reduction, reduce

__all__ = ["reduce", "Reduction", "h2_norm", "hinf_norm", "h2_error", "hinf_error"]


def __getattr__(name: str) -> Any:
    """The public name ``name``, imported on first use."""
    if name in ("reduce", "Reduction"):
        # the module is ``reducer``: a submodule named ``reduce`` would shadow the function
        from . import reducer as module
        return getattr(module, name)
    if name in ("h2_norm", "hinf_norm", "h2_error", "hinf_error"):
        from . import norms
        return getattr(norms, name)
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
