"""One executor layer: local processes or a Dask cluster, one code path.

``Executor(workers=N)`` runs work in ``N`` local processes
(:class:`concurrent.futures.ProcessPoolExecutor`; ``N == 1`` runs it here, in
this process); ``Executor(scheduler="tcp://HOST:8786")`` on a running Dask
distributed scheduler, ``Executor(scheduler="local")`` on a Dask
``LocalCluster`` of ``N`` worker processes on this machine.  Both speak the
``concurrent.futures`` interface (``submit`` returns a future with
``result()``), so :meth:`Executor.map_unordered` serves them all.

Work goes out in chunks (callers pass lists of items, :func:`chunked`), so
the per-task overhead (about 1.5 ms with Dask) is small next to the work,
and a worker keeps what is costly to build between items and chunks through
:func:`worker_cache` (one per process, or per thread on a threaded cluster):
the exact solver's transposition table, say.  Results depend only on the
items and their seeds, never on which worker ran them.

Dask is optional (``pip install 'durak-solver[cluster]'``) and imported only
when a scheduler is asked for.

Processes on this machine are never more than the cores this process may run
on, nor more than the tasks (``Executor(..., tasks=n)``): ``--workers 1000``
for two items starts two.  Local worker processes leave Ctrl-C to the parent
(which stops them when it stops), end at once on SIGTERM, and never outlive
the parent, even one killed with SIGKILL: on Linux the kernel kills them when
it dies (``prctl(PR_SET_PDEATHSIG)``), elsewhere a watchdog thread in each
notices that the parent is gone (:func:`die_with_parent`, which any process
durak starts can call).  A Dask LocalCluster's
workers watch their parent themselves.

Local workers are forked where the system allows it: a fork has the parent's
modules already imported, so it runs the same package from whatever folder
durak was started in -- a clone's top folder too, whose uncompiled ``solver/``
a fresh interpreter would import first.  Where only ``spawn`` exists, the
child is handed the parent's ``sys.path`` before it imports anything of durak's.
"""
from __future__ import annotations

import concurrent.futures as cf
import ctypes
import ctypes.util
import multiprocessing as mp
import os
import signal
import sys
import threading
import time
from typing import Any, Callable, Iterable, Iterator, Sequence, TypeVar

from solver.errors import OptionError

T = TypeVar("T")

#: How to get the optional Dask dependency.
CLUSTER_INSTALL = "pip install 'durak-solver[cluster]'"
#: ``--scheduler`` value for a Dask LocalCluster on this machine.
LOCAL_SCHEDULER = "local"

_cache = threading.local()


def default_workers() -> int:
    """All cores this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return os.cpu_count() or 1


def local_workers(workers: int, tasks: int | None = None) -> int:
    """Processes worth starting on this machine for ``workers`` asked and ``tasks``
    to run: at most the cores (:func:`default_workers`) and the tasks, at least 1."""
    return max(1, min(workers, default_workers(), workers if tasks is None else tasks))


def worker_cache(key: Any, factory: Callable[[], T]) -> T:
    """The object ``factory()`` made once per worker process (per thread) under ``key``."""
    store = getattr(_cache, "store", None)
    if store is None:
        store = _cache.store = {}
    if key not in store:
        store[key] = factory()
    return store[key]


def chunked(items: Sequence[T], size: int) -> list[list[T]]:
    """``items`` cut into lists of ``size`` (the last may be shorter)."""
    return [list(items[i:i + size]) for i in range(0, len(items), size)]


def chunk_size(n: int, workers: int, most: int = 32) -> int:
    """Items per chunk: about four chunks per worker, at most ``most`` (for steady progress)."""
    return max(1, min(most, -(-n // (4 * max(1, workers)))))


#: How often a worker's watchdog looks for its parent (where the kernel cannot).
WATCHDOG_SECONDS = 0.5
#: ``prctl`` option: the signal a process gets when its parent dies (linux/prctl.h).
_PR_SET_PDEATHSIG = 1


def die_with_parent(parent: int) -> None:
    """End this process when ``parent`` (its parent's pid, taken before it
    started) dies: the kernel's death signal on Linux, else a thread that looks
    every :data:`WATCHDOG_SECONDS`.  For any process durak starts, in its first
    lines (the local workers here; a server's job processes)."""
    armed = False
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(ctypes.util.find_library("c") or "libc.so.6", use_errno=True)
            armed = libc.prctl(_PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) == 0
        except (OSError, AttributeError):
            armed = False
    if os.getppid() != parent:  # it died before the death signal was armed
        os._exit(1)
    if not armed:
        def watch() -> None:
            while os.getppid() == parent:
                time.sleep(WATCHDOG_SECONDS)
            os._exit(1)

        threading.Thread(target=watch, name="durak-parent-watchdog", daemon=True).start()


def _worker_start(parent: int) -> None:
    """A local worker process's set-up: Ctrl-C is the parent's to answer (it
    stops the workers), SIGTERM ends the worker at once, and the worker dies
    with its parent (:func:`die_with_parent`)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    die_with_parent(parent)


class _Inline:
    """The executor interface run right here, one call at a time."""

    def submit(self, fn: Callable[..., Any], *args: Any) -> cf.Future:
        f: cf.Future = cf.Future()
        try:
            f.set_result(fn(*args))
        except KeyboardInterrupt:
            raise
        except BaseException as e:  # noqa: BLE001 - handed to the caller through the future
            f.set_exception(e)
        return f


def _import_distributed() -> Any:
    try:
        import distributed
    except ImportError:
        raise OptionError(f"--scheduler needs Dask distributed: {CLUSTER_INSTALL}") from None
    return distributed


class Executor:
    """Local processes (``workers``) or a Dask cluster (``scheduler``); a context manager.

    ``kind`` is ``"inline"``, ``"processes"`` or ``"dask"``; ``workers`` the
    number of tasks that run at once: on this machine (processes, a Dask
    LocalCluster) at most the cores and ``tasks``, the number of tasks the
    caller will submit when it knows it (:func:`local_workers`).
    ``local_processes=False`` makes the Dask LocalCluster run its workers as
    threads in this process (tests).
    """

    def __init__(self, workers: int | None = None, scheduler: str | None = None,
                 local_processes: bool = True, tasks: int | None = None):
        if workers is not None and workers < 1:
            raise OptionError(f"workers: need at least 1, got {workers}")
        self.workers = workers or default_workers()
        if scheduler is None or scheduler == LOCAL_SCHEDULER:
            self.workers = local_workers(self.workers, tasks)
        self._pool: Any = None
        self._client: Any = None
        self._cluster: Any = None
        if scheduler:
            self.kind = "dask"
            distributed = _import_distributed()
            if scheduler == LOCAL_SCHEDULER:
                self._cluster = distributed.LocalCluster(
                    n_workers=self.workers, threads_per_worker=1, processes=local_processes,
                    dashboard_address=None)
                self._client = distributed.Client(self._cluster)
            else:
                try:
                    self._client = distributed.Client(scheduler, timeout="10s")
                except (OSError, TimeoutError, ValueError) as e:
                    raise OptionError(f"--scheduler: cannot reach {scheduler!r}: {e}") from None
            self.workers = max(1, sum(self._client.nthreads().values()))
            self._pool = self._client
        elif self.workers == 1:
            self.kind = "inline"
            self._pool = _Inline()
        else:
            self.kind = "processes"
            ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else None
            self._pool = cf.ProcessPoolExecutor(self.workers, mp_context=ctx,
                                                initializer=_worker_start,
                                                initargs=(os.getpid(),))

    def __enter__(self) -> "Executor":
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close(cancel=exc[0] is not None)

    def describe(self) -> str:
        if self.kind == "dask":
            where = "a local Dask cluster" if self._cluster is not None else \
                f"Dask scheduler {self._client.scheduler.address}"
            return f"{self.workers} worker(s) on {where}"
        return f"{self.workers} local process(es)" if self.kind == "processes" else "1 process"

    def submit(self, fn: Callable[..., Any], *args: Any) -> Any:
        if self.kind == "dask":
            return self._client.submit(fn, *args, pure=False)
        return self._pool.submit(fn, *args)

    def _wait_first(self, pending: set) -> tuple[set, set]:
        if self.kind == "dask":
            import distributed
            done, rest = distributed.wait(list(pending), return_when="FIRST_COMPLETED")
            return set(done), set(rest)
        done, rest = cf.wait(pending, return_when=cf.FIRST_COMPLETED)
        return set(done), set(rest)

    def map_unordered(self, fn: Callable[..., T], jobs: Iterable[tuple],
                      window: int | None = None,
                      ahead: int | None = None) -> Iterator[tuple[int, T]]:
        """``(i, fn(*jobs[i]))`` as each finishes; at most ``window`` jobs in flight
        (default twice the workers; one when inline), so a long list does not flood the
        cluster.

        ``ahead`` bounds how far the jobs run ahead of the oldest one still in
        flight: job ``i`` is not started before every job below ``i - ahead + 1``
        has finished.  A caller that must use the results in order (``durak
        batch`` writes its lines in input order) then holds at most ``ahead - 1``
        results behind one slow job, instead of the whole rest of the list.
        A job's exception is raised here, when its result is taken."""
        window = 1 if self.kind == "inline" else (window or 2 * self.workers)
        if ahead is not None and ahead < 1:
            raise OptionError(f"ahead: need at least 1, got {ahead}")
        it = iter(enumerate(jobs))
        nxt = next(it, None)
        index: dict[Any, int] = {}
        pending: set = set()

        def fill() -> None:
            nonlocal nxt
            while nxt is not None and len(pending) < window:
                if ahead is not None and index and nxt[0] >= min(index.values()) + ahead:
                    return
                fut = self.submit(fn, *nxt[1])
                index[fut] = nxt[0]
                pending.add(fut)
                nxt = next(it, None)

        fill()
        while pending:
            done, pending = self._wait_first(pending)
            for fut in sorted(done, key=lambda f: index[f]):
                yield index.pop(fut), fut.result()
            fill()

    def close(self, cancel: bool = False) -> None:
        """Shut the workers down; ``cancel`` drops queued work and stops running work."""
        if self.kind == "processes" and self._pool is not None:
            procs = list(getattr(self._pool, "_processes", {}).values()) if cancel else []
            self._pool.shutdown(wait=not cancel, cancel_futures=cancel)
            for p in procs:  # running chunks are not waited for on Ctrl-C
                if p.is_alive():
                    p.terminate()
            for p in procs:  # gone before the command ends: none outlives it
                p.join(timeout=2)
                if p.is_alive():
                    p.kill()
        elif self.kind == "dask":
            if self._client is not None:
                self._client.close()
            if self._cluster is not None:
                self._cluster.close()
        self._pool = self._client = self._cluster = None


__all__ = ["CLUSTER_INSTALL", "Executor", "LOCAL_SCHEDULER", "chunk_size", "chunked",
           "default_workers", "die_with_parent", "local_workers", "worker_cache"]
