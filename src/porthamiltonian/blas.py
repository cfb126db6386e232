"""One BLAS thread for loops of small dense solves.

A step of a model of tens to hundreds of states factors and solves small dense systems
thousands of times.  A multi-threaded BLAS (OpenBLAS, as NumPy and SciPy ship it)
splits each of them into threads that spin-wait on each other: at that size threads gain
nothing, and on a machine with other work running they cost 5–10× (a flexible-link
pendulum's steps: 49.5 s with two threads, 7.6 s with one, on two shared cores).
"""

from __future__ import annotations

from typing import Any

__all__ = ["one_thread"]

#: the BLAS libraries loaded when first asked (NumPy's and SciPy's): finding them costs
#: milliseconds, a limit on the known set about 20 µs
_CONTROLLER: list[Any] = []


def one_thread() -> Any:
    """A context manager that holds BLAS to one thread while it is active."""
    if not _CONTROLLER:
        from threadpoolctl import ThreadpoolController

        _CONTROLLER.append(ThreadpoolController())
    return _CONTROLLER[0].limit(limits=1, user_api="blas")
