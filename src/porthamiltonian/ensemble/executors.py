"""Where the runs of an ensemble go: one process, a local process pool, or a Dask cluster.

:func:`open_executor` turns what the user gives into a :class:`Pool` with one method,
:meth:`Pool.map_unordered`, which yields ``(index, result)`` as tasks finish, so the
caller stores and counts results while the others still run (nothing is gathered).

* ``"serial"`` — this process, in order (debugging, or a model that cannot be pickled).
* ``"processes"`` (the default) — a :class:`concurrent.futures.ProcessPoolExecutor` of
  ``workers`` processes (default: the CPUs this process may use); nothing to start.
* a :class:`dask.distributed.Client`, or a scheduler address such as
  ``"tcp://10.0.0.5:8786"`` — the same tasks on a Dask cluster (the ``cluster`` extra:
  ``pip install "porthamiltonian[cluster]"``).  The dashboard's address is in
  :attr:`Pool.description`.

Tasks are module-level functions and picklable arguments; a task's own errors are the
caller's to catch inside the task (a failed run is a result, not an exception).
"""

from __future__ import annotations

import os
from collections.abc import Callable, Iterable, Iterator
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from ..errors import ModelError

__all__ = ["Pool", "open_executor", "single_threaded", "CLUSTER_EXTRA", "EXECUTORS"]

#: how to install Dask
CLUSTER_EXTRA = 'pip install "porthamiltonian[cluster]"'
#: the executors named by a string
EXECUTORS = ("serial", "processes")
#: how long to wait for a Dask scheduler to answer
CONNECT_TIMEOUT = "5s"


def _cpus() -> int:
    try:
        return len(os.sched_getaffinity(0))
    except AttributeError:  # not on Linux
        return os.cpu_count() or 1


class Pool:
    """A running executor; use it as a context manager (the pool or client it started
    is shut down on exit; a client the user gave is left running)."""

    def __init__(self, kind: str, n_workers: int, description: str,
                 backend: Any = None, owned: bool = True) -> None:
        self.kind, self.n_workers, self.description = kind, n_workers, description
        self._backend, self._owned = backend, owned

    def __enter__(self) -> Pool:
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def close(self) -> None:
        if self._backend is not None and self._owned:
            if self.kind == "processes":
                self._backend.shutdown(cancel_futures=True)
            else:
                self._backend.close()
        self._backend = None

    def map_unordered(self, task: Callable[..., Any], items: Iterable[Any],
                      *shared: Any) -> Iterator[tuple[int, Any]]:
        """``(k, task(*shared, item_k))`` for the ``k``-th item, in the order they finish.

        At most ``4 × workers`` tasks are in flight at a time, and ``items`` (a list or a
        generator) is read only as tasks are submitted, so a long list of items is never
        all submitted (and held) at once.
        """
        if self.kind == "serial":
            from threadpoolctl import threadpool_limits

            with threadpool_limits(limits=1):  # as in a worker process: see single_threaded
                for k, item in enumerate(items):
                    yield k, task(*shared, item)
            return
        window = 4 * max(1, self.n_workers)
        if self.kind == "dask":
            from dask.distributed import as_completed

            shared = tuple(self._backend.scatter(s, broadcast=True) if isinstance(s, bytes)
                           else s for s in shared)
            submit = self._backend.submit
            keyed: dict[Any, int] = {}
            pending = iter(enumerate(items))
            done = as_completed()
            for k, item in _take(pending, window):
                f = submit(task, *shared, item, pure=False)
                keyed[f.key] = k
                done.add(f)
            for f in done:
                k = keyed.pop(f.key)
                result = f.result()
                f.release()
                for j, item in _take(pending, 1):
                    g = submit(task, *shared, item, pure=False)
                    keyed[g.key] = j
                    done.add(g)
                yield k, result
            return
        pending = iter(enumerate(items))
        futures = {self._backend.submit(task, *shared, item): k
                   for k, item in _take(pending, window)}
        while futures:
            finished, _ = wait(futures, return_when=FIRST_COMPLETED)
            for f in finished:
                k = futures.pop(f)
                for j, item in _take(pending, 1):
                    futures[self._backend.submit(task, *shared, item)] = j
                try:
                    result = f.result()
                except BrokenProcessPool:
                    raise ModelError(
                        "a worker process stopped abruptly (out of memory, killed, or "
                        "it could not start: a script that runs a sweep must guard its "
                        "work with `if __name__ == \"__main__\":`); try fewer workers or "
                        "executor='serial'") from None
                yield k, result


def _take(it: Iterator[Any], n: int) -> list[Any]:
    out = []
    for _ in range(n):
        try:
            out.append(next(it))
        except StopIteration:
            break
    return out


def open_executor(executor: Any = None, workers: int | None = None) -> Pool:
    """A :class:`Pool` for ``executor``: ``None``/``"processes"``, ``"serial"``, a
    :class:`concurrent.futures.Executor`, a :class:`dask.distributed.Client` or a Dask
    scheduler address (``"tcp://host:8786"``).  ``workers`` sizes a local pool.

    Raises :class:`ModelError` for an unknown name, a non-positive ``workers``, a
    scheduler that does not answer, or Dask not installed.
    """
    if workers is not None and (isinstance(workers, bool) or int(workers) != workers
                                or workers < 1):
        raise ModelError(f"workers must be a positive integer, got {workers!r}")
    if executor is None or executor == "processes":
        n = int(workers) if workers else _cpus()
        if n == 1:
            return Pool("serial", 1, "1 process (this one)")
        return Pool("processes", n, f"{n} local processes",
                    ProcessPoolExecutor(max_workers=n, mp_context=_context(),
                                        initializer=single_threaded))
    if executor == "serial":
        return Pool("serial", 1, "1 process (this one)")
    if isinstance(executor, ProcessPoolExecutor):
        n = getattr(executor, "_max_workers", 1)
        return Pool("processes", n, f"{n} local processes (given)", executor, owned=False)
    if isinstance(executor, str) and "://" in executor:
        client = _connect(executor)
        return Pool("dask", _dask_workers(client), _describe(client, executor), client)
    if type(executor).__name__ == "Client" and hasattr(executor, "submit"):
        return Pool("dask", _dask_workers(executor), _describe(executor, "given client"),
                    executor, owned=False)
    raise ModelError(f"unknown executor {executor!r}; give 'processes' (default), 'serial', "
                     "a dask.distributed.Client or a scheduler address such as "
                     "'tcp://host:8786'")


#: the thread-pool limits of this worker process (kept: they last as long as the object)
_LIMITS: list[Any] = []


def single_threaded() -> None:
    """Run this worker's BLAS/OpenMP libraries on one thread.  The ensemble's parallelism
    is across runs: a worker per CPU, each with a BLAS pool as wide as the machine,
    oversubscribes the CPUs, and for the small dense products of a run a BLAS pool costs
    more than it gains (measured on a 100-state ladder: a run took half the wall time
    with one BLAS thread as with two).  Serial runs use the same setting for the length
    of the sweep; Dask's worker processes get it from their nanny (``OMP_NUM_THREADS=1``
    …)."""
    from threadpoolctl import threadpool_limits

    _LIMITS.append(threadpool_limits(limits=1))


def _context() -> Any:
    """Fresh interpreters for the workers (``forkserver``; ``spawn`` off POSIX): a forked
    worker would inherit this process's threads (a Dask client, a progress monitor: a
    deadlock risk) and its open files (the netCDF file being written, whose HDF5 lock it
    would keep).  Fresh interpreters import the script that started them, so a script
    guards its work with ``if __name__ == "__main__":``."""
    import multiprocessing

    return multiprocessing.get_context("forkserver" if os.name == "posix" else "spawn")


def _connect(address: str) -> Any:
    try:
        from dask.distributed import Client
    except ImportError:
        raise ModelError(f"a Dask scheduler ({address}) needs dask.distributed, which is "
                         f"not installed; install the cluster extra: {CLUSTER_EXTRA}") from None
    try:
        return Client(address, timeout=CONNECT_TIMEOUT)
    except (OSError, TimeoutError) as err:
        raise ModelError(f"cannot reach the Dask scheduler at {address} ({err}); start one "
                         "with `dask scheduler` and workers with `dask worker ADDRESS`, "
                         "or leave --scheduler out to run on this machine") from None


def _dask_workers(client: Any) -> int:
    info = client.scheduler_info()
    workers = info.get("workers", {})
    return max(1, sum(int(w.get("nthreads", 1)) for w in workers.values()))


def _describe(client: Any, where: str) -> str:
    n = len(client.scheduler_info().get("workers", {}))
    link = getattr(client, "dashboard_link", None)
    return f"Dask cluster ({where}, {n} workers)" + (f", dashboard {link}" if link else "")
