"""`durak serve`'s HTTP server: uvicorn around the board's app, with bounds on what
clients may hold and a quick, quiet stop.

uvicorn alone waits forever for a request's headers, accepts connections until
the process runs out of open files (and then prints a traceback for every
``accept`` it retries), answers ``limit_concurrency`` only once a request has
arrived, serves headers of any size that arrive in one read (h11 bounds only
headers still incomplete), and on Ctrl-C waits out its grace period before
cancelling the requests in flight (a traceback and a 500 each; a second signal
skips the app's own shutdown, which leaves a traceback too).  Here:

- **Open connections are bounded** (:func:`connection_cap`: the open-file limit
  less what the server itself needs).  A connection beyond the bound closes the
  one that has waited longest for its request (an idle keep-alive connection, a
  request whose headers are still coming); when every connection is busy with a
  request, the newcomer gets a 503 and is closed.  That is said once on stderr,
  not per connection.
- **A request's headers must arrive within** :data:`HEADER_SECONDS` of the
  connection (or of the previous answer on a kept-alive one), its body within
  :data:`BODY_SECONDS` of its headers; a slower client gets 408 and is closed.
  Idle kept-alive connections close after :data:`KEEP_ALIVE_SECONDS` (uvicorn's
  ``timeout_keep_alive``).
- **A request's headers are at most** :data:`MAX_HEAD_BYTES` (16 KB), however they
  arrive: a larger head gets 431 and the connection is closed (the rest of what the
  client sends is read and dropped for a moment first, so that it reads the answer
  instead of a reset).
- **Stopping** (Ctrl-C, SIGTERM): every job in flight ends at once and its
  request is answered 503 with the reason (:meth:`~solver.web.jobs.WorkerPool.stop`),
  so is a request whose body is still arriving, the worker processes are killed, and
  the server is gone within a second or two -- no grace period to wait out, no
  traceback.  A second signal cuts short the wait for requests still being answered
  (they are closed), and nothing else: the workers are still killed, the game store
  still closed, the exit still 0.
- **One line per kind of trouble**: the same warning from uvicorn (an invalid
  request) at most once a minute, the system's "out of open files" once.
"""
from __future__ import annotations

import asyncio
import contextlib
import errno
import json
import logging
import re
import signal
import socket
import sys
import threading
import time
from dataclasses import dataclass, field
from types import FrameType
from typing import Any, Callable, Generator

import h11
import uvicorn
from starlette.requests import Request
from uvicorn.protocols.http.h11_impl import H11Protocol

from solver.errors import OptionError
from solver.i18n import N_, use_language
from solver.i18n.lazy import Lazy
from solver.web.app import request_language

try:
    import resource
except ImportError:  # pragma: no cover - not POSIX
    resource = None  # type: ignore[assignment]

#: Seconds a connection may take to send a request's headers.
HEADER_SECONDS = 10.0
#: Seconds a request's body may take to arrive once its headers are in.
BODY_SECONDS = 30.0
#: Seconds an idle kept-alive connection stays open (uvicorn's ``timeout_keep_alive``).
KEEP_ALIVE_SECONDS = 5.0
#: The most connections open at once, whatever the open-file limit.
MAX_CONNECTIONS = 2048
#: Open files the server keeps for itself (standard streams, the listening socket, the
#: event loop, the game store, static files being sent), besides 4 per worker process.
RESERVED_FILES = 64
#: The listening socket's queue, and so the most connections the event loop accepts in
#: one go (asyncio's accept loop).  A connection closed to keep the bound gives its
#: file back a few turns of the loop later, so :data:`BURSTS` accept bursts need files
#: too.
BACKLOG = 64
BURSTS = 4
#: Seconds a repeated warning stays silent.
QUIET_SECONDS = 60.0
#: The most bytes of a request's head (its request line and headers).
MAX_HEAD_BYTES = 16 * 1024
#: Seconds a refused connection is read (and what comes dropped) before it is closed, so
#: that a client still sending reads the refusal rather than a reset.
LINGER_SECONDS = 1.0
#: The most seconds the stop waits for requests still being answered (uvicorn's grace).
GRACE_SECONDS = 2.0

_STOPPED_BY: dict[int, str] = {int(signal.SIGINT): "Ctrl-C", int(signal.SIGTERM): "SIGTERM"}


def connection_cap(workers: int) -> int:
    """How many connections may be open at once: the open-file limit (``ulimit -n``)
    less what the server needs itself and the accept bursts still to be closed
    (:data:`BACKLOG`, :data:`BURSTS`), at most :data:`MAX_CONNECTIONS`."""
    soft = -1
    if resource is not None:
        soft = resource.getrlimit(resource.RLIMIT_NOFILE)[0]
    if soft < 0 or soft == getattr(resource, "RLIM_INFINITY", -1):
        return MAX_CONNECTIONS
    return max(8, min(MAX_CONNECTIONS, soft - RESERVED_FILES - 4 * workers
                                        - BURSTS * BACKLOG))


@dataclass
class Bounds:
    """What one server allows (see the module docstring)."""

    max_connections: int
    header_seconds: float = HEADER_SECONDS
    body_seconds: float = BODY_SECONDS
    closed: int = 0  # connections closed or refused to keep the bound
    said: set[str] = field(default_factory=set)
    #: Set when the server stops: the reason (written in each request's language) and the
    #: exit code a request still arriving is answered with (503), as the jobs in flight are.
    stopping: tuple[str | Lazy, int] | None = None

    def say_once(self, key: str, line: str) -> None:
        """One line on stderr the first time ``key`` comes up."""
        if key not in self.said:
            self.said.add(key)
            print(f"durak: serve: {line}", file=sys.stderr, flush=True)


_TIMEOUT_408 = (b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
                b"content-length: 45\r\nconnection: close\r\n\r\n"
                b"the request did not arrive in time; try again")
_BUSY_503 = (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: text/plain; charset=utf-8\r\n"
             b"retry-after: 1\r\ncontent-length: 51\r\nconnection: close\r\n\r\n"
             b"too many connections at once; try again in a moment")
_HEAD_431 = (b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
             b"content-type: text/plain; charset=utf-8\r\ncontent-length: 36\r\n"
             b"connection: close\r\n\r\nthe request's headers are over 16 KB")
#: Where a request's head ends (h11's own rule: a blank line, with or without its CR).
_HEAD_END = re.compile(b"\n\r?\n")


def stopping_message(stopped_by: str) -> Lazy:
    """Why a request is refused while the server stops (``stopped_by``: ``Ctrl-C``,
    ``SIGTERM``), in the words of the request's language."""
    return Lazy(N_("the server is stopping ({signal}); try again once it is back"),
                signal=stopped_by)


def stopping_503(why: str, exit_code: int) -> bytes:
    """The answer to a request cut by the server's stop, as the app answers a job it
    stopped (``{"error": why, "exit_code": 143}``)."""
    body = json.dumps({"error": why, "exit_code": exit_code}).encode()
    return (b"HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\n"
            b"content-length: " + str(len(body)).encode() + b"\r\nconnection: close\r\n\r\n"
            + body)


class BoundedH11(H11Protocol):
    """uvicorn's HTTP/1.1 connection with a deadline for each request and a bound on
    how many are open (:class:`Bounds`, set on a subclass by :func:`protocol_for`)."""

    bounds: Bounds

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._deadline: asyncio.TimerHandle | None = None
        self._waiting_since: float | None = None
        self._refused = False  # answered and lingering: what comes is dropped
        self._held = 0  # bytes h11 may hold towards the next request's head, at most
        self._wait_for_request()
        if len(self.connections) > self.bounds.max_connections:
            self._make_room()

    # ------------------------------------------------------------ the bound
    def _make_room(self) -> None:
        b = self.bounds
        waiting = [c for c in self.connections
                   if isinstance(c, BoundedH11) and c is not self and c._waiting_since is not None
                   and not c.transport.is_closing()]
        b.closed += 1
        b.say_once("connections", f"more than {b.max_connections} connections at once (the "
                                  "open-file limit allows no more): the ones that waited "
                                  "longest for their request are closed, and while every one "
                                  "is busy a new one is answered 503")
        if waiting:
            min(waiting, key=lambda c: c._waiting_since or 0.0)._drop()
        else:
            self.transport.write(_BUSY_503)
            self._drop()

    def _drop(self) -> None:
        self._cancel_deadline()
        self._waiting_since = None
        self.transport.close()

    # ------------------------------------------------------------ deadlines
    def _wait_for_request(self) -> None:
        self._waiting_since = time.monotonic()
        self._set_deadline(self.bounds.header_seconds)

    def _set_deadline(self, seconds: float) -> None:
        self._cancel_deadline()
        self._deadline = self.loop.call_later(seconds, self._too_slow)

    def _cancel_deadline(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        """The deadline passed: a request that has not arrived whole is refused."""
        self._deadline = None
        if self.transport.is_closing():
            return
        if self._refused:  # the refusal had its moment to be read
            self.transport.close()
            return
        if self._waiting_since is not None:  # headers not (all) in
            if self.conn.their_state is h11.IDLE and self.cycle is not None \
                    and self.cycle.response_complete and not self._partial():
                self.transport.close()  # an idle kept-alive connection: nothing to say
            else:
                self.transport.write(_TIMEOUT_408)
                self.transport.close()
            self._waiting_since = None
        elif self.conn.their_state is h11.SEND_BODY and (
                self.cycle is None or not self.cycle.response_started):
            self.transport.close()  # the body is too slow: the app sees the client go away

    def _partial(self) -> bool:
        """Whether part of a next request has come (h11 holds bytes not yet an event)."""
        return bool(getattr(self.conn, "trailing_data", (b"",))[0])

    # ------------------------------------------------------------ refusals
    def data_received(self, data: bytes) -> None:
        if self._refused:  # a refused connection's bytes are read and dropped
            return
        self._held += len(data)
        super().data_received(data)

    def handle_events(self) -> None:
        if self.conn.their_state is h11.IDLE and self._held > MAX_HEAD_BYTES \
                and self._head_too_long():
            self._refuse(_HEAD_431)
            return
        super().handle_events()
        self._follow_request()

    def _head_too_long(self) -> bool:
        """Whether the request's head (the bytes h11 holds while it waits for one) is over
        :data:`MAX_HEAD_BYTES`: not ended within them.  h11's own bound counts only a head
        still incomplete, so one that arrives whole in one read would pass it.  (Looked
        at only once the bytes received may pass the bound: h11's buffer is copied.)"""
        held, _ = self.conn.trailing_data
        self._held = len(held)
        return len(held) > MAX_HEAD_BYTES and _HEAD_END.search(held, 0, MAX_HEAD_BYTES) is None

    def _refuse(self, answer: bytes) -> None:
        """Answer ``answer`` (a whole response, ``connection: close``) and close: at once
        where the transport cannot half-close, else once the client has read it (its
        end of the connection closed) or after :data:`LINGER_SECONDS`.  The request in
        the app, if any, sees its client gone."""
        self._refused = True
        self._waiting_since = None
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete:
            cycle.disconnected = True  # its body will not come; its answer is this one
            cycle.message_event.set()
        self.transport.write(answer)
        if self.transport.can_write_eof():
            self.transport.write_eof()
            self._set_deadline(LINGER_SECONDS)
        else:
            self._drop()

    def shutdown(self) -> None:
        """The server stops: a request whose body is still arriving is answered 503 with
        the reason (:attr:`Bounds.stopping`) -- uvicorn would wait for the body to the end
        of its grace period, then cancel the request; the others as uvicorn does (an idle
        connection closed, a request being answered closes after its answer)."""
        cycle = self.cycle
        if (self.bounds.stopping is not None and not self._refused
                and not self.transport.is_closing() and self.conn.their_state is h11.SEND_BODY
                and cycle is not None and not cycle.response_started):
            why, code = self.bounds.stopping
            scope: Any = cycle.scope  # its headers are in: the language they ask for
            with use_language(request_language(Request(scope))):
                self._refuse(stopping_503(str(why), code))
            return
        super().shutdown()

    @property
    def refused(self) -> bool:
        """Answered already: the connection only waits for its client to read that."""
        return self._refused

    def on_response_complete(self) -> None:
        self._held = MAX_HEAD_BYTES + 1  # the next head may have come with this request
        super().on_response_complete()
        if not self.transport.is_closing() and self.conn.their_state is h11.IDLE:
            self._wait_for_request()
        else:
            self._follow_request()

    def _follow_request(self) -> None:
        state = self.conn.their_state
        if self._waiting_since is not None and state is not h11.IDLE:
            self._waiting_since = None  # the headers are in
            if state is h11.SEND_BODY:
                self._set_deadline(self.bounds.body_seconds)
            else:
                self._cancel_deadline()
        elif self._waiting_since is None and state is not h11.SEND_BODY:
            self._cancel_deadline()  # the whole request is in

    def connection_lost(self, exc: Exception | None) -> None:
        self._cancel_deadline()
        self._waiting_since = None
        super().connection_lost(exc)


def protocol_for(bounds: Bounds) -> type[BoundedH11]:
    """The connection class of one server (its :class:`Bounds` as a class attribute:
    uvicorn makes each connection from the class)."""
    return type("DurakH11", (BoundedH11,), {"bounds": bounds})


class _OncePerMinute(logging.Filter):
    """A warning repeated within :data:`QUIET_SECONDS` is dropped (one bad client must
    not print a line per connection)."""

    def __init__(self) -> None:
        super().__init__()
        self._last: dict[str, float] = {}

    def filter(self, record: logging.LogRecord) -> bool:
        if record.levelno >= logging.ERROR:
            return True
        key = str(record.msg)
        now = time.monotonic()
        if now - self._last.get(key, -QUIET_SECONDS) < QUIET_SECONDS:
            return False
        self._last[key] = now
        return True


class _CutByTheStop(logging.Filter):
    """A request cut by the server's stop (its task cancelled: it outlived the grace
    period, or a second signal came) is not a bug: no "Exception in ASGI application"
    traceback for it.  uvicorn cancels a request's task only when it stops."""

    def filter(self, record: logging.LogRecord) -> bool:
        exc = record.exc_info[0] if record.exc_info else None
        return not (exc is not None and issubclass(exc, asyncio.CancelledError))


class DurakServer(uvicorn.Server):
    """uvicorn's server with the stop described in the module docstring."""

    def __init__(self, config: uvicorn.Config, bounds: Bounds, pool: Any):
        super().__init__(config)
        self.bounds = bounds
        self.pool = pool
        self.stopped_by: int | None = None
        self.jobs_stopped = 0
        #: Called once serving is over, before the signals are handed back (``durak
        #: serve``: the launcher's "the command has ended", so that a late signal does
        #: not interrupt the goodbye).
        self.after_stop: Callable[[], None] | None = None

    @contextlib.contextmanager
    def capture_signals(self) -> Generator[None, None, None]:
        """Ctrl-C and SIGTERM stop the server (a second one cuts the stop short, see
        :meth:`shutdown`); unlike uvicorn's, the signal is not raised again afterwards:
        a served board ends with exit 0.  :attr:`after_stop` runs before the previous
        handlers are back, so no signal falls between the two."""
        if threading.current_thread() is not threading.main_thread():
            yield  # signals are the main thread's (a server run in a test's thread)
            return
        handled = (signal.SIGINT, signal.SIGTERM)
        old = {s: signal.signal(s, self.handle_exit) for s in handled}
        try:
            yield
        finally:
            if self.after_stop is not None:
                self.after_stop()
            for s, h in old.items():
                signal.signal(s, h)

    def handle_exit(self, sig: int, frame: FrameType | None) -> None:
        if self.should_exit:  # asked twice: no more waiting for answers in progress
            self.force_exit = True
        else:
            self.stopped_by = sig
            self.should_exit = True

    async def startup(self, sockets: list[socket.socket] | None = None) -> None:
        asyncio.get_running_loop().set_exception_handler(self._loop_error)
        await super().startup(sockets)

    def _loop_error(self, loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        exc = context.get("exception")
        if isinstance(exc, OSError) and exc.errno in (errno.EMFILE, errno.ENFILE,
                                                      errno.ENOBUFS, errno.ENOMEM):
            self.bounds.say_once("files", f"out of open files ({exc.strerror}): new "
                                          "connections wait until some close")
            return
        loop.default_exception_handler(context)

    @property
    def stopped_by_name(self) -> str:
        """What stopped the server, in words (``Ctrl-C``, ``SIGTERM``)."""
        return _STOPPED_BY.get(self.stopped_by or 0, "stopped")

    async def shutdown(self, sockets: list[socket.socket] | None = None) -> None:
        """Stop at once, in this order: the jobs in flight end (their requests answered
        503), no connection is accepted, a request whose body is still arriving is
        answered 503 too (:meth:`BoundedH11.shutdown`) and idle connections close; the
        requests still being answered get up to :data:`GRACE_SECONDS` -- none after a
        second signal -- then are closed; and the app always shuts down (the worker
        processes killed, the game store closed), a second signal or not.

        uvicorn's own stop skips the app's shutdown after a second signal (the app's
        lifespan task is then cancelled: a traceback, the workers left to die with the
        process) and cancels late requests with a traceback each."""
        why = stopping_message(self.stopped_by_name)
        code = 143 if self.stopped_by == signal.SIGTERM else 130
        self.bounds.stopping = (why, code)
        self.jobs_stopped = self.pool.stop(why, code)
        for server in self.servers:
            server.close()
        for sock in sockets or []:
            sock.close()
        for connection in list(self.server_state.connections):
            connection.shutdown()
        await self._answer_in_flight()
        await self.lifespan.shutdown()

    def _busy(self) -> bool:
        """Whether a request is still being answered (a connection not yet answered, or a
        request's task still running)."""
        return bool(self.server_state.tasks) or any(
            not getattr(c, "refused", False) for c in self.server_state.connections)

    async def _answer_in_flight(self) -> None:
        """Give the requests in flight their moment to be answered (503 for the jobs the
        pool stopped: a few turns of the loop), then close what is left, quietly."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + GRACE_SECONDS
        await asyncio.sleep(0.02)  # the answers already decided are written
        while self._busy() and not self.force_exit and loop.time() < deadline:
            await asyncio.sleep(0.02)
        for connection in list(self.server_state.connections):
            connection.transport.close()  # a request still in the app sees its client go
        tasks = list(self.server_state.tasks)
        if tasks:
            await asyncio.wait(tasks, timeout=0.5)  # they end on their own, mostly
        for task in tasks:
            task.cancel()  # what is left is cut (_CutByTheStop keeps it off stderr)
        if tasks:
            await asyncio.wait(tasks, timeout=1.0)


def bind(host: str, port: int) -> socket.socket:
    """The listening socket (port 0: one the system chooses); an address that cannot
    be bound is one line (exit 2)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
    except OSError as e:
        sock.close()
        why = "is in use (give another with --port)" if e.errno == errno.EADDRINUSE \
            else f"cannot be bound: {e.strerror}"
        raise OptionError(f"{host}:{port} {why}") from None
    sock.set_inheritable(True)
    return sock


def make_server(app: Any, bounds: Bounds) -> DurakServer:
    """The server of ``app`` (its ``run(sockets=[sock])`` serves until stopped)."""
    config = uvicorn.Config(app, http=protocol_for(bounds), log_level="warning",
                            timeout_keep_alive=int(KEEP_ALIVE_SECONDS),
                            timeout_graceful_shutdown=int(GRACE_SECONDS), lifespan="on",
                            backlog=BACKLOG, h11_max_incomplete_event_size=MAX_HEAD_BYTES)
    config.load()
    log = logging.getLogger("uvicorn.error")
    for kind in (_OncePerMinute, _CutByTheStop):
        if not any(isinstance(f, kind) for f in log.filters):
            log.addFilter(kind())
    return DurakServer(config, bounds, app.state.pool)


def run(app: Any, sock: socket.socket | list[socket.socket], bounds: Bounds,
        after_stop: Callable[[], None] | None = None) -> DurakServer:
    """Serve ``app`` on the bound ``sock`` (or sockets: ``--lan`` on one address listens
    on 127.0.0.1 too) until Ctrl-C or SIGTERM; returns the
    server (what stopped it, how many jobs were stopped).  ``after_stop`` is called
    once serving is over, while the server still holds the signals."""
    server = make_server(app, bounds)
    server.after_stop = after_stop
    server.run(sockets=sock if isinstance(sock, list) else [sock])
    return server


__all__ = ["BODY_SECONDS", "HEADER_SECONDS", "KEEP_ALIVE_SECONDS", "MAX_HEAD_BYTES", "Bounds",
           "DurakServer", "bind", "connection_cap", "make_server", "protocol_for", "run",
           "stopping_503", "stopping_message"]
