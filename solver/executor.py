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
"""
from __future__ import annotations

import concurrent.futures as cf
import multiprocessing as mp
import os
import signal
import threading
from typing import Any, Callable, Iterable, Iterator, Sequence, TypeVar

from solver.errors import OptionError

T = TypeVar("T")

#: How to get the optional Dask dependency.
CLUSTER_INSTALL = "pip install 'durak-solver[cluster]'"
#: ``--scheduler`` value for a Dask LocalCluster on this machine.
LOCAL_SCHEDULER = "local"

_cache = threading.local()


def default_workers() -> int:
    """All cores: ``os.cpu_count()``."""
    return os.cpu_count() or 1


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


def _ignore_sigint() -> None:
    """Worker processes leave Ctrl-C to the parent, which stops them."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)


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
    number of tasks that run at once.  ``local_processes=False`` makes the
    Dask LocalCluster run its workers as threads in this process (tests).
    """

    def __init__(self, workers: int | None = None, scheduler: str | None = None,
                 local_processes: bool = True):
        if workers is not None and workers < 1:
            raise OptionError(f"workers: need at least 1, got {workers}")
        self.workers = workers or default_workers()
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
                                                initializer=_ignore_sigint)

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
        elif self.kind == "dask":
            if self._client is not None:
                self._client.close()
            if self._cluster is not None:
                self._cluster.close()
        self._pool = self._client = self._cluster = None


__all__ = ["CLUSTER_INSTALL", "Executor", "LOCAL_SCHEDULER", "chunk_size", "chunked",
           "default_workers", "worker_cache"]
