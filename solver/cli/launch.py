"""The one place that decides how a ``durak`` process ends: stop signals, broken
streams, their exit codes.

Every command -- those to come included -- gets all of this by running under
:func:`run` (the executable's entry point, :mod:`solver.cli.entry`, and
``python -m solver.cli`` both do); it needs no code of its own.  This module
loads nothing but the standard library, and :func:`run` sets its handlers up
before it loads the command line (click, rich, the solver: ``command_group``).  The exit codes are ``ExitCode`` in
:mod:`solver.cli.common` (README "Exit codes"; docs/notation.md, "Machine output").

**Stop signals.**  Ctrl-C (SIGINT) and SIGTERM (what ``timeout``, systemd,
Docker and CI send) take one path: the signal raises ``KeyboardInterrupt`` in
the main thread -- the compiled search polls for it (``PyErr_CheckSignals``)
and stops -- and the command prints what it knows (one JSON object under
``--json``) and exits 130, which :func:`run` makes 143 when the stop was a
SIGTERM (:func:`stop_signal`).  Worker processes leave Ctrl-C to the parent,
end at once on SIGTERM, and die with the parent (:mod:`solver.run.executor`).

- A signal that arrives while the tool is still loading is remembered and
  answered as soon as :func:`run` can answer it, so it too ends in exit
  130/143 and never in a traceback.
- While the command runs, every signal raises ``KeyboardInterrupt``, as
  Python's own Ctrl-C does: an interactive command (``durak game``) may stop
  its work and go on; the exit code follows the last signal.
- Except inside the import system (a module being loaded -- durak loads its
  parts on first use -- or importlib's own code): a ``KeyboardInterrupt``
  raised there can be swallowed (in the weak-reference callback that drops a
  module lock, Python only prints "Exception ignored" and the command runs
  its whole budget) or leave an import half done (exit 1, a traceback).  The
  signal is then only remembered, and raised at the first safe point: when
  the import is over (a timer looks every :data:`RECHECK_SECONDS`, the
  compiled search's signal polling included) or when the command group has
  loaded the command (:func:`at_safe_point`).  So every Ctrl-C from the first
  line of :func:`run` on ends in 130 (SIGTERM 143).
- A signal after the command has ended (its answer is out) is ignored; a
  second one ends the process at once (exit 128 + its number).  In the
  interpreter's last moments -- its exit handlers done, its modules being freed,
  a tenth of a second for the web board -- both are ignored
  (:func:`_ignore_stops_at_exit`): Python puts the default handlers back there,
  and a signal would end the process by the signal instead of its exit code.
- A signal that was ignored when durak started (a background job's SIGINT,
  ``nohup``) stays ignored.
- A command that installs its own handlers (a server's event loop) takes the
  signals over; it should end with :func:`stop_signal` in mind, and call
  :func:`command_ended` before it hands them back once its work is over (``durak
  serve`` once it has stopped serving): a late signal is then ignored as after
  any command, rather than interrupting the goodbye.

**Streams.**  Standard output closed by its reader (``| head``) ends the
command quietly with 141 (128 + SIGPIPE), as SIGPIPE ends ``git log | head``.
Any other file or stream the system refuses -- disk full, a missing folder, a
standard output closed when durak started (``>&-``) -- is one line naming the
file or stream and the OS error, and exit 4 (:func:`os_failure`; the command
group calls it for every command).  A standard output whose encoding cannot
show a character (``PYTHONIOENCODING=ascii``) gets it as a backslash escape
(``\\u2665``, still valid JSON), not an error.
"""
from __future__ import annotations

import atexit
import codecs
import errno
import io
import os
import signal
import sys

TYPE_CHECKING = False
if TYPE_CHECKING:
    from types import FrameType
    from typing import Any, Callable, NoReturn

#: The exit code of a command stopped by Ctrl-C (128 + SIGINT); ``ExitCode.INTERRUPTED``.
INTERRUPTED = 130
#: The exit code of a command stopped by SIGTERM (128 + SIGTERM); ``ExitCode.TERMINATED``.
TERMINATED = 143
#: Standard output's reader went away (128 + SIGPIPE); ``ExitCode.BROKEN_PIPE``.
BROKEN_PIPE = 141
#: The system refused a file or stream; ``ExitCode.OS_ERROR``.
OS_ERROR = 4

#: The signals that stop a command as Ctrl-C does.
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM)
#: The name :func:`os_failure` gives standard output.
STDOUT = "standard output"

#: The stop signals received, in order (a list: appending is safe in a handler).
_received: list[int] = []
#: The stop signals received after the command ended.
_late: list[int] = []
#: The process that installed the handlers: a worker forked from it inherits them.
_owner: list[int] = [0]
#: "idle" (not under :func:`run`), "loading", "running", "ended".
_phase: list[str] = ["idle"]
#: A stop signal not yet raised, because it came inside the import system (a list: a handler
#: may append to it).
_deferred: list[int] = []
#: Seconds between looks at whether a deferred stop may be raised yet.
RECHECK_SECONDS = 0.005
#: Whether :func:`_ignore_stops_at_exit` is registered (once per process).
_exit_handler: list[bool] = [False]


def stop_signal() -> int | None:
    """The last stop signal this command received (``signal.SIGINT`` or
    ``signal.SIGTERM``) while it ran, or None."""
    return _received[-1] if _received else None


def interrupted_code() -> int:
    """The exit code of a stopped command: 143 after SIGTERM, else 130."""
    return TERMINATED if stop_signal() == signal.SIGTERM else INTERRUPTED


def _on_stop(signum: int, frame: FrameType | None) -> None:
    """The handler of SIGINT and SIGTERM while :func:`run` runs a command."""
    if os.getpid() != _owner[0]:  # a worker process, forked before it set its own handlers:
        if signum == signal.SIGTERM:  # it ends as a worker does (solver.run.executor)
            signal.signal(signum, signal.SIG_DFL)
            os.kill(os.getpid(), signum)
        return  # Ctrl-C is the parent's to answer
    if _phase[0] == "ended":  # the answer is out: ignored, but asked twice, end at once
        _late.append(signum)
        if len(_late) > 1:
            os._exit(128 + signum)
        return
    _received.append(signum)
    if _phase[0] == "running":
        if _importing(frame) and _defer(signum):
            return  # raised at the first safe point (_on_recheck, at_safe_point)
        raise KeyboardInterrupt
    # "loading": answered as soon as run() can


def _importing(frame: FrameType | None) -> bool:
    """Whether the interrupted code is inside the import system: importlib's frames
    anywhere on the stack (a module body being run is called from them)."""
    while frame is not None:
        if frame.f_code.co_filename.startswith("<frozen importlib"):
            return True
        frame = frame.f_back
    return False


def _defer(signum: int) -> bool:
    """Remember a stop to raise once out of the import system, and start looking
    (a real-time timer, SIGALRM); False where there is no such timer."""
    if not hasattr(signal, "setitimer"):
        return False
    _deferred.append(signum)
    if signal.getsignal(signal.SIGALRM) is not _on_recheck:
        signal.signal(signal.SIGALRM, _on_recheck)
    signal.setitimer(signal.ITIMER_REAL, RECHECK_SECONDS)
    return True


def _on_recheck(signum: int, frame: FrameType | None) -> None:
    """The timer of a deferred stop: raise it if the import is over, else look again."""
    if not _deferred or os.getpid() != _owner[0] or _phase[0] != "running":
        return
    if _importing(frame):
        signal.setitimer(signal.ITIMER_REAL, RECHECK_SECONDS)
        return
    _deferred.clear()
    raise KeyboardInterrupt


def at_safe_point() -> None:
    """Raise a deferred stop now (``KeyboardInterrupt``): called where the command
    line has finished loading a part (the command group, after importing a command)."""
    if _deferred and _phase[0] == "running" and os.getpid() == _owner[0]:
        _deferred.clear()
        if hasattr(signal, "setitimer"):
            signal.setitimer(signal.ITIMER_REAL, 0)
        raise KeyboardInterrupt


def command_ended() -> None:
    """The command's work is over, though it has not returned yet (a server that has
    stopped serving and is saying goodbye): from now on a stop signal is ignored, and a
    second one ends the process at once (128 + its number), as after any command."""
    if os.getpid() == _owner[0] and _phase[0] == "running":
        _phase[0] = "ended"
        _deferred.clear()


def _install_handlers() -> None:
    for sig in STOP_SIGNALS:
        if signal.getsignal(sig) is not signal.SIG_IGN:
            signal.signal(sig, _on_stop)
    if not _exit_handler[0]:  # registered once, and first: run last
        _exit_handler[0] = True
        atexit.register(_ignore_stops_at_exit)


def _ignore_stops_at_exit() -> None:
    """The last exit handler: the stop signals ignored while the interpreter frees its
    modules.  Python resets a handler written in Python to the default there, so a
    SIGTERM in that last tenth of a second would end a command that has given its
    answer by the signal (143 to a shell, not its exit code)."""
    if os.getpid() != _owner[0]:
        return
    for sig in STOP_SIGNALS:
        if signal.getsignal(sig) is _on_stop:
            signal.signal(sig, signal.SIG_IGN)


# ---------------------------------------------------------------- streams

class _NamedStream(io.TextIOWrapper):
    """Standard output again, over the same buffer, whose OS errors carry its
    name (``exc.durak_stream``) for :func:`os_failure`."""

    durak_stream = STDOUT

    def write(self, s: str) -> int:
        try:
            return super().write(s)
        except OSError as e:
            e.durak_stream = self.durak_stream  # type: ignore[attr-defined]
            raise

    def flush(self) -> None:
        try:
            super().flush()
        except OSError as e:
            e.durak_stream = self.durak_stream  # type: ignore[attr-defined]
            raise


class _ClosedStream(io.TextIOBase):
    """Standard output that was closed when durak started (``>&-``): writing
    an answer to it is an error, not a silent loss."""

    durak_stream = STDOUT

    def writable(self) -> bool:
        return True

    def write(self, s: str) -> int:
        e = OSError(errno.EBADF, "closed when durak started (>&-)")
        e.durak_stream = self.durak_stream  # type: ignore[attr-defined]
        raise e

    def isatty(self) -> bool:
        return False


def _is_unicode(encoding: str | None) -> bool:
    try:
        return codecs.lookup(encoding or "ascii").name.startswith("utf")
    except LookupError:
        return False


def _prepare_streams() -> None:
    """Standard streams fit for an answer: a closed descriptor (0, 1, 2) is held
    by the null device, so no file the command opens takes its number; a closed
    standard output refuses writes loudly; standard output names itself in its
    errors and escapes what its encoding cannot show."""
    for fd, mode in ((0, os.O_RDONLY), (1, os.O_WRONLY), (2, os.O_WRONLY)):
        try:
            os.fstat(fd)
        except OSError:
            nul = os.open(os.devnull, mode)
            if nul != fd:
                os.dup2(nul, fd)
                os.close(nul)
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w", encoding="utf-8")
    out = sys.stdout
    if out is None:
        sys.stdout = _ClosedStream()
    elif type(out) is io.TextIOWrapper:  # the interpreter's own (not a test's capture)
        out.flush()
        errors = out.errors if _is_unicode(out.encoding) else "backslashreplace"
        sys.stdout = _NamedStream(out.buffer, encoding=out.encoding, errors=errors,
                                  line_buffering=out.line_buffering,
                                  write_through=out.write_through)


def _say(line: str) -> None:
    """One line on stderr, whatever state stderr is in."""
    try:
        sys.stderr.write(line + "\n")
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass


def _silence_stdout() -> None:
    """Standard output to the null device, so that flushing it again at exit
    (what is still buffered) cannot fail a second time."""
    try:
        nul = os.open(os.devnull, os.O_WRONLY)
        os.dup2(nul, 1)
        os.close(nul)
    except OSError:
        pass


def os_failure(exc: OSError) -> int:
    """Report a file or stream that the system refused; return the exit code.

    Standard output closed by its reader (``EPIPE``): nothing is said, 141.
    Otherwise one line on stderr naming the file or stream and the OS error
    (``durak: error: file 'plots/x.png': No such file or directory``), 4.
    """
    stream = getattr(exc, "durak_stream", None)
    if stream == STDOUT:
        _silence_stdout()
        if exc.errno == errno.EPIPE:
            return BROKEN_PIPE
    if stream:
        where = stream
    elif exc.filename is not None:
        where = f"file {os.fsdecode(exc.filename)!r}"
        if exc.filename2 is not None:
            where += f" (and {os.fsdecode(exc.filename2)!r})"
    else:
        where = "a file or stream"
    reason = exc.strerror or " ".join(str(exc).split()) or type(exc).__name__
    _say(f"durak: error: {where}: {reason}")
    return OS_ERROR


def _flush_stdout(code: int) -> int:
    """Flush standard output; a failure to do so decides the exit code."""
    try:
        sys.stdout.flush()
    except OSError as e:
        return os_failure(e)
    except (ValueError, AttributeError):  # closed, or replaced by something odd
        pass
    return code


# ---------------------------------------------------------------- entry point

def run(command_group: Callable[[], Callable[..., Any]]) -> None:
    """Load the command line (``command_group()``, called once the handlers are
    set) and run it, under the handlers described above.

    An interrupted command leaves with ``os._exit(130)`` (143) once its output
    is flushed: CPython remembers a KeyboardInterrupt that escaped code it ran
    through ``PyRun`` (a compiled module's set-up does) even when the program
    caught it, and at exit kills itself with SIGINT to report it -- the exit
    status would then be a signal, not the documented code.  By then every
    ``with`` block (worker pools, output files) has been left.
    """
    _owner[0] = os.getpid()
    _phase[0] = "loading"
    _install_handlers()
    code: int = 0
    try:
        _prepare_streams()
        try:
            try:
                _phase[0] = "running"
                if _received:  # a signal while the tool was loading
                    raise KeyboardInterrupt
                main = command_group()
                at_safe_point()  # a signal while it loaded
                main(prog_name="durak")
            except KeyboardInterrupt:
                interrupted("--json" in sys.argv[1:])
        except SystemExit as e:
            code = _exit_code(e.code)
        except KeyboardInterrupt:  # while saying that it was interrupted
            code = INTERRUPTED
        except OSError as e:  # a stream that failed outside a command (help, usage)
            code = os_failure(e)
    finally:
        _phase[0] = "ended"
        _deferred.clear()
    code = _flush_stdout(code)
    if code == INTERRUPTED:
        code = interrupted_code()
    if code in (INTERRUPTED, TERMINATED):
        try:
            sys.stderr.flush()
        except (OSError, ValueError):
            pass
        os._exit(code)
    sys.exit(code)


def _exit_code(code: object) -> int:
    """``SystemExit.code`` as a number (a message was already printed: 1)."""
    if code is None:
        return 0
    if isinstance(code, int):
        return code
    _say(str(code))
    return 1


def interrupted(as_json: bool) -> NoReturn:
    """Say that the command was stopped before it had an answer, and exit 130
    (:func:`run` makes it 143 after SIGTERM)."""
    if as_json:  # one valid JSON object whatever the moment
        sys.stdout.write('{"interrupted": true, "error": "interrupted before an answer"}\n')
        sys.stdout.flush()
    _say("durak: interrupted")
    sys.exit(INTERRUPTED)
