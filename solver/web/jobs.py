"""Heavy work off the event loop: a pool of worker processes, one job each.

The pool keeps one process per slot (as many slots as cores by default).  A
job waits in a bounded queue for a free slot; its slot sends it to the
process (:mod:`solver.web.worker`) and a thread of the pool waits for the
process's messages, so the event loop never blocks on a search.  A job is
cancelled by killing its process (the slot starts a fresh one), which stops a
search at once wherever it is: the page's Cancel button, a client that went
away, a job nobody polled for a while, or the server's hard cap on a job's
wall-clock time.

Processes come from a ``forkserver`` that has imported the solver once, so a
fresh worker is ready in a few milliseconds, not the second an interpreter
needs to import the package.  The forkserver is started in the folder this
server's ``solver`` package was imported from (:func:`start_forkserver`): it is
a fresh interpreter with its working folder first on ``sys.path``, and started
in a source checkout (a clone's top folder) it would import the checkout's
uncompiled ``solver/`` instead of the installed package.  Whether a job process
can start at all is asked before the server says it serves
(:func:`check_workers`) and again whenever a process dies: a job whose process
cannot start is answered 503 with the reason in one line.
"""
from __future__ import annotations

import asyncio
import contextlib
import multiprocessing
import multiprocessing.forkserver
import os
import secrets
import threading
import time
from collections import OrderedDict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from multiprocessing.connection import Connection
from pathlib import Path
from typing import Any

import solver
from solver.i18n import N_, _, as_given, current, ngettext
from solver.i18n.lazy import Lazy, text
from solver.web import worker

#: Jobs that may wait for a slot before the pool answers "busy" (HTTP 503).
MAX_QUEUE = 64
#: A job followed by polling (``/api/jobs``) is cancelled when nobody asked
#: about it for this many seconds (the page was closed).
STALE_SECONDS = 15.0
#: Finished jobs are kept this long for their answer to be fetched.
KEEP_SECONDS = 600.0
#: At most this many finished jobs are kept.
KEEP_JOBS = 256
#: Answers kept by the content of their request (a review of the same record,
#: seat and budget is answered at once the second time), at most this many.
KEEP_ANSWERS = 64


def default_workers() -> int:
    """One slot per core this process may run on."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except (AttributeError, OSError):
        return max(1, os.cpu_count() or 1)


#: Seconds a job process may take to start and import the solver before it is
#: taken as one that cannot start (the forkserver's first start imports it all).
START_SECONDS = 60.0

#: What :func:`check_workers`'s process runs: the job process's module imported as
#: a job process imports it, and the outcome sent back.  The process's target is
#: the built-in ``exec``, which any interpreter can load, so an import that fails
#: is reported in words instead of killing the process before it can speak.
_PROBE = """
try:
    import solver.web.worker
    import solver.search.native
except ImportError as e:
    conn.send(("failed", str(e)))
except BaseException as e:
    conn.send(("failed", f"{type(e).__name__}: {e}"))
else:
    conn.send(("ready", solver.__file__))
"""

_forkserver_lock = threading.Lock()
#: The thread every forkserver is launched from, one for the process's life.  The
#: forkserver's death signal (:func:`~solver.run.executor.die_with_parent`, Linux's
#: PR_SET_PDEATHSIG) follows the *thread* that started it, not the process: launched
#: from a pool thread that ends when its server stops, it was killed under the next
#: server of the same process as that one started its workers ("unexpected EOF").
_launcher = ThreadPoolExecutor(1, thread_name_prefix="durak-forkserver-launcher")


class PoolBusy(Exception):
    """Every slot is busy and the queue is full (HTTP 503)."""


def package_home() -> str:
    """The folder holding the ``solver`` package this process runs (a
    ``site-packages``; a checkout's top folder for an editable install)."""
    return str(Path(solver.__file__).resolve().parent.parent)


def job_context() -> Any:
    """The ``multiprocessing`` context of the job processes: a forkserver that
    preloads the solver (:mod:`solver.web.preload`), else (Windows) spawn."""
    if "forkserver" not in multiprocessing.get_all_start_methods():
        # each worker starts an interpreter of its own, with this process's sys.path
        return multiprocessing.get_context("spawn")
    ctx = multiprocessing.get_context("forkserver")
    # the forkserver dies with the server (solver/web/preload.py)
    ctx.set_forkserver_preload(["solver.web.preload"])
    return ctx


def start_forkserver(ctx: Any) -> None:
    """Start the forkserver (when it is not running) in :func:`package_home`.

    The forkserver is ``python -c ...``, so its working folder comes first on its
    ``sys.path`` (``multiprocessing`` hands it no other path before it preloads): started
    in a clone's top folder it would import the clone's ``solver/``, whose core is
    not compiled, and every job would fail.  Started where this process's package
    lies, it imports the same package whatever folder the server was started in.
    The working folder is changed only while the forkserver is launched, and it is
    launched from a thread that lasts as long as the process (:data:`_launcher`).
    """
    if ctx.get_start_method() != "forkserver":
        return
    _launcher.submit(_ensure_running_at_home).result()


def _ensure_running_at_home() -> None:
    """:func:`start_forkserver`'s work, on the launcher thread (:data:`_launcher`)."""
    with _forkserver_lock:
        try:
            here: str | None = os.getcwd()
        except OSError:  # the folder was removed: nothing to go back to
            here = None
        os.chdir(package_home())
        try:
            multiprocessing.forkserver.ensure_running()
        finally:
            if here is not None:
                os.chdir(here)


def check_workers(ctx: Any | None = None, timeout: float = START_SECONDS) -> str | None:
    """None when a job process starts and imports the solver; else why not, one line.

    Starts the forkserver (:func:`start_forkserver`) if needed, then one short-lived
    process from it that imports the job module and says whether it could."""
    ctx = ctx or job_context()
    try:
        start_forkserver(ctx)
        parent, child = ctx.Pipe(duplex=False)
    except OSError as e:
        return f"a process cannot be started: {e.strerror or e}"
    proc = ctx.Process(target=exec, args=(_PROBE, {"conn": child}), daemon=True,
                       name="durak-web-probe")
    try:
        proc.start()
    except OSError as e:
        parent.close()
        return f"a process cannot be started: {e.strerror or e}"
    finally:
        child.close()
    try:
        if parent.poll(timeout):
            kind, text = parent.recv()
        else:
            kind, text = "failed", f"a job process did not start within {timeout:g} s"
    except (EOFError, OSError):
        proc.join(5)
        kind, text = "failed", (f"a job process ended as it started (exit code "
                                f"{proc.exitcode}; its error is on the server's stderr)")
    finally:
        parent.close()
        if proc.is_alive():
            proc.join(5)
        if proc.is_alive():
            proc.kill()
            proc.join(5)
    return None if kind == "ready" else " ".join(str(text).split())


def unavailable_message(reason: str) -> str:
    """The one line a job gets when its process cannot start (HTTP 503), in the current
    language (the reason is the system's)."""
    return _("the server's worker processes cannot start: {reason}").format(reason=reason)


#: Why a job was cancelled, in the words of whoever reads it (:class:`Lazy`).
CANCELLED = Lazy(N_("cancelled"))
GONE = Lazy(N_("cancelled: the client went away"))


@dataclass
class Job:
    """One heavy request: its task, its state and, once done, its answer."""

    kind: str
    params: dict[str, Any]
    wall_cap: float  # seconds the job may run before it is killed
    id: str = field(default_factory=lambda: secrets.token_hex(8))
    state: str = "queued"  # queued, running, done, error, cancelled
    done: int = 0
    total: int = 0
    created: float = field(default_factory=time.monotonic)
    started: float | None = None
    finished: float | None = None
    seen: float = field(default_factory=time.monotonic)  # last poll
    watched: bool = False  # followed by polling: cancelled when nobody polls
    answer: dict[str, Any] | None = None
    partial: list[Any] = field(default_factory=list)  # items sent before the answer
    exit_code: int | None = None
    budget: str | None = None
    #: Why it failed: the worker's line (in the job's language), or the pool's own
    #: words (:class:`Lazy`), written in the language of the request that reads them.
    error: str | Lazy | None = None
    unavailable: bool = False  # its process could not start (HTTP 503, not a bug's 500)
    cancel_requested: bool = False
    stopped: bool = False  # cancelled because the server is stopping (its request: 503)
    future: asyncio.Future[None] | None = None
    key: str | None = None  # the request's content: its answer is kept under it
    cached: bool = False    # answered from an earlier job's kept answer

    @property
    def finished_state(self) -> bool:
        return self.state in ("done", "error", "cancelled")

    def to_json(self) -> dict[str, Any]:
        now = time.monotonic()
        elapsed = 0.0 if self.started is None else (self.finished or now) - self.started
        out: dict[str, Any] = {
            "id": self.id, "task": self.kind,
            "state": "cancelling" if self.cancel_requested and not self.finished_state
            else self.state,
            "progress": {"done": self.done, "total": self.total,
                         "elapsed": round(elapsed, 3),
                         "budget": self.params.get("max_time")},
        }
        if self.partial and self.state != "done":
            # what the task has sent so far (a review: each decision as it is scored)
            out["partial"] = list(self.partial)
        if self.state == "done":
            out.update(answer=self.answer, exit_code=self.exit_code, budget=self.budget,
                       cached=self.cached)
        elif self.state in ("error", "cancelled"):
            out.update(error=text(self.error), exit_code=self.exit_code)
        return out


class _Slot:
    """One worker process and the pipe to it."""

    def __init__(self, ctx: Any):
        self._ctx = ctx
        self.proc: Any = None
        self.conn: Connection | None = None

    def ensure(self) -> Connection:
        if self.proc is None or not self.proc.is_alive():
            self.stop()
            parent, child = self._ctx.Pipe()
            self.proc = self._ctx.Process(target=worker.main, args=(child,), daemon=True,
                                          name="durak-web-worker")
            self.proc.start()
            child.close()
            self.conn = parent
        assert self.conn is not None
        return self.conn

    def stop(self) -> None:
        if self.proc is not None:
            if self.proc.is_alive():
                self.proc.kill()
            self.proc.join(5)
            self.proc = None
        if self.conn is not None:
            self.conn.close()
            self.conn = None

    @property
    def pid(self) -> int | None:
        return None if self.proc is None else self.proc.pid


class WorkerPool:
    """``workers`` processes answering heavy jobs; start it in the app's lifespan."""

    def __init__(self, workers: int | None = None, max_queue: int = MAX_QUEUE):
        self.workers = workers or default_workers()
        self.max_queue = max_queue
        self._ctx = job_context()
        self._slots = [_Slot(self._ctx) for _i in range(self.workers)]
        self._threads = ThreadPoolExecutor(self.workers, thread_name_prefix="durak-web-wait")
        self._queue: asyncio.Queue[Job] | None = None
        self._tasks: list[asyncio.Task[None]] = []
        self._jobs: dict[str, Job] = {}
        self._answers: OrderedDict[str, tuple[Any, int, str | None]] = OrderedDict()
        self.stopping: str | Lazy | None = None  # why no job is taken any more (the server stops)

    # ---------------------------------------------------------------- life
    async def start(self) -> None:
        """The slots' processes, when they can start (else each job says why, 503)."""
        loop = asyncio.get_running_loop()
        self._queue = asyncio.Queue()
        if await loop.run_in_executor(self._threads, self.check) is None:
            await asyncio.gather(*(loop.run_in_executor(self._threads, s.ensure)
                                   for s in self._slots), return_exceptions=True)
        self._tasks = [asyncio.create_task(self._run_slot(i)) for i in range(self.workers)]
        self._tasks.append(asyncio.create_task(self._reap()))

    def stop(self, why: str | Lazy, exit_code: int = 130) -> int:
        """The server is stopping: every unfinished job ends now, cancelled with
        ``why`` (:attr:`Job.stopped`: its request is answered 503), and no new job
        is taken; ``exit_code`` is theirs (130 Ctrl-C, 143 SIGTERM).  Their processes are
        killed by :meth:`close`.  Returns how many."""
        self.stopping = why
        unfinished = [j for j in self._jobs.values() if not j.finished_state]
        for job in unfinished:
            job.cancel_requested = True
            job.stopped = True
            self._finish(job, "cancelled", exit_code=exit_code, error=why)
        return len(unfinished)

    async def close(self) -> None:
        for t in self._tasks:
            t.cancel()
        for job in list(self._jobs.values()):
            if not job.finished_state:
                job.cancel_requested = True
        await asyncio.gather(*self._tasks, return_exceptions=True)
        for s in self._slots:
            s.stop()
        self._threads.shutdown(wait=False, cancel_futures=True)

    def check(self) -> str | None:
        """None when a job process can start, else why not (:func:`check_workers`)."""
        return check_workers(self._ctx)

    # ---------------------------------------------------------------- jobs
    def submit(self, kind: str, params: dict[str, Any], wall_cap: float,
               watched: bool = False, key: str | None = None) -> Job:
        """Queue a job; :class:`PoolBusy` when the queue is full.  With ``key`` (the
        request's content) a finished answer kept under it answers at once, and
        this job's answer is kept under it (unless an interruption cut it)."""
        assert self._queue is not None, "the pool is not started"
        if self.stopping is not None:
            raise PoolBusy(str(self.stopping))
        # the answer's words in the language of the request that asked (solver/i18n): the
        # worker writes them in it, and an answer is kept per language
        params = {**params, "lang": current()}
        if key is not None:
            key = f"{current()}\x00{key}"
        if key is not None and key in self._answers:
            self._answers.move_to_end(key)
            answer, code, budget = self._answers[key]
            job = Job(kind, params, wall_cap, watched=watched, key=key, cached=True)
            job.future = asyncio.get_running_loop().create_future()
            job.started = time.monotonic()
            self._jobs[job.id] = job
            self._finish(job, "done", answer=answer, exit_code=code, budget=budget)
            return job
        if self._queue.qsize() >= self.max_queue:
            waiting = self._queue.qsize()
            raise PoolBusy(ngettext("the server is busy: {n} job is waiting for a worker; try "
                                    "again later", "the server is busy: {n} jobs are waiting "
                                    "for a worker; try again later", waiting).format(n=waiting))
        job = Job(kind, params, wall_cap, watched=watched, key=key)
        job.future = asyncio.get_running_loop().create_future()
        self._jobs[job.id] = job
        self._queue.put_nowait(job)
        return job

    def get(self, job_id: str) -> Job | None:
        job = self._jobs.get(job_id)
        if job is not None:
            job.seen = time.monotonic()
        return job

    def cancel(self, job: Job, why: str | Lazy = CANCELLED) -> None:
        """Stop a job: a queued one never starts, a running one's process is killed."""
        if job.finished_state:
            return
        job.cancel_requested = True
        job.error = why
        if job.state == "queued":
            self._finish(job, "cancelled", exit_code=130)

    def stats(self) -> dict[str, Any]:
        states = [j.state for j in self._jobs.values()]
        return {"workers": self.workers, "running": states.count("running"),
                "queued": states.count("queued"),
                "pids": [s.pid for s in self._slots]}

    async def wait(self, job: Job) -> None:
        assert job.future is not None
        await asyncio.shield(job.future)

    # ------------------------------------------------------------ internals
    def _finish(self, job: Job, state: str, **kw: Any) -> None:
        if job.finished is not None:  # ended already (the server stopped it)
            return
        job.state = state
        job.finished = time.monotonic()
        for k, v in kw.items():
            setattr(job, k, v)
        if job.future is not None and not job.future.done():
            job.future.set_result(None)

    def _keep(self, job: Job) -> None:
        """Keep a finished job's answer under its key (not one an interruption cut)."""
        if job.key is None or not isinstance(job.answer, dict) or job.answer.get("interrupted"):
            return
        self._answers[job.key] = (job.answer, job.exit_code or 0, job.budget)
        self._answers.move_to_end(job.key)
        while len(self._answers) > KEEP_ANSWERS:
            self._answers.popitem(last=False)

    async def _run_slot(self, i: int) -> None:
        assert self._queue is not None
        loop = asyncio.get_running_loop()
        slot = self._slots[i]
        while True:
            job = await self._queue.get()
            if job.finished_state or job.cancel_requested:
                continue
            job.state = "running"
            job.started = time.monotonic()
            try:
                msg = await loop.run_in_executor(self._threads, self._exchange, slot, job)
            except asyncio.CancelledError:
                slot.stop()
                self._finish(job, "cancelled", exit_code=130,
                             error=Lazy(N_("the server stopped")))
                raise
            if msg[0] == "done":
                self._finish(job, "done", answer=msg[1], exit_code=msg[2], budget=msg[3])
                self._keep(job)
            elif msg[0] == "error":
                self._finish(job, "error", error=msg[1], exit_code=msg[2])
            else:  # cancelled, over its cap or the process died: a fresh process
                await loop.run_in_executor(self._threads, slot.stop)
                if self.stopping is None:  # no fresh process for a server that stops
                    with contextlib.suppress(OSError):  # else the next job's exchange says why
                        await loop.run_in_executor(self._threads, slot.ensure)
                if msg[0] == "cancelled":
                    self._finish(job, "cancelled", exit_code=130, error=job.error or CANCELLED)
                elif msg[0] == "cap":
                    cap = job.wall_cap
                    self._finish(job, "error", exit_code=3, error=Lazy(
                        N_("the server's cap of {seconds} s for one job ran out before an "
                           "answer"), seconds=lambda: as_given(cap)))
                elif (reason := await loop.run_in_executor(self._threads, self.check)):
                    self._finish(job, "error", exit_code=1, unavailable=True, error=Lazy(
                        N_("the server's worker processes cannot start: {reason}"),
                        reason=reason))
                else:
                    self._finish(job, "error", exit_code=1, error=Lazy(
                        N_("internal error: the worker process died ({why}); a fresh one "
                           "took its place"), why=msg[1]))

    def _exchange(self, slot: _Slot, job: Job) -> tuple[Any, ...]:
        """In a pool thread: send the job, follow its messages until the last one."""
        try:
            conn = slot.ensure()
            conn.send((job.kind, job.params))
        except (OSError, EOFError) as e:
            return ("died", f"{type(e).__name__}")
        deadline = job.started + job.wall_cap if job.started else time.monotonic() + job.wall_cap
        while True:
            if job.cancel_requested:
                return ("cancelled",)
            if time.monotonic() > deadline:
                return ("cap",)
            try:
                if not conn.poll(0.05):
                    continue
                msg = conn.recv()
            except (EOFError, OSError):
                code = slot.proc.exitcode if slot.proc is not None else None
                return ("died", f"exit code {code}")
            if msg[0] == "progress":
                job.done, job.total = msg[1], msg[2]
                continue
            if msg[0] == "partial":
                job.partial.append(msg[1])
                continue
            return tuple(msg)

    async def _reap(self) -> None:
        """Cancel watched jobs nobody polls; forget old finished ones."""
        while True:
            await asyncio.sleep(1.0)
            now = time.monotonic()
            for job in list(self._jobs.values()):
                if job.watched and not job.finished_state and now - job.seen > STALE_SECONDS:
                    self.cancel(job, Lazy(N_("cancelled: nobody asked about it for {seconds} s"),
                                          seconds=lambda: as_given(STALE_SECONDS)))
            done = sorted((j for j in self._jobs.values() if j.finished_state),
                          key=lambda j: j.finished or 0.0)
            for j in done[:max(0, len(done) - KEEP_JOBS)]:
                self._jobs.pop(j.id, None)
            for j in done:
                if now - (j.finished or now) > KEEP_SECONDS:
                    self._jobs.pop(j.id, None)
