"""What every subcommand shares: reading inputs, printing, exit codes, errors.

Results go to stdout, diagnostics to stderr (HTTPie style).  Errors a user can
cause (:class:`~solver.errors.DurakError`) become one line on stderr and
:data:`ExitCode.BAD_INPUT`; a file or stream the system refuses is one line
and :data:`ExitCode.OS_ERROR` (:func:`solver.cli.launch.os_failure`); anything
else is a bug: one line saying so and :data:`ExitCode.INTERNAL`, with a
traceback only under ``DURAK_TRACEBACK=1``.  Nothing a user types produces a
traceback, and every message is cut to a readable line
(:func:`solver.errors.shorten`).

Inputs: :func:`read_input` reads a named file or standard input for every
command (POSITION, GAME, batch's IN): FIFOs, ``/dev/stdin`` and process
substitution read like files, size-capped, and where the command has a time
budget (``--max-time``) the first byte must come within it.
"""
from __future__ import annotations

import enum
import functools
import importlib
import json
import math
import os
import re
import select
import stat
import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, TypeVar

import click

from solver.cli import launch
from solver.errors import BudgetExceeded, DurakError, OptionError, PositionError, shorten
from solver.game.outcome import outcome_info, outcome_text, phase_name
from solver.i18n import _, as_given
from solver.notation import parse_position
from solver.notation.build import MAX_POSITION_CHARS

if TYPE_CHECKING:
    from rich.console import Console
    from rich.table import Table

    from solver.game.state import GameState
    from solver.notation.position import Position

F = TypeVar("F", bound=Callable[..., Any])
#: A POSITION argument that is surely meant as a file: no spaces or semicolons, a dot or a slash.
_FILE_NAME_RE = re.compile(r"[^\s;]*[./\\][^\s;]*")

#: The environment switch that lets an internal error show its traceback.
TRACEBACK_ENV = "DURAK_TRACEBACK"


class ExitCode(enum.IntEnum):
    """Exit codes of the ``durak`` command (README "Exit codes"; docs/notation.md,
    "Machine output").  The process-level ones are decided in :mod:`solver.cli.launch`."""

    OK = 0
    INTERNAL = 1  # a bug: one line, the traceback with DURAK_TRACEBACK=1
    BAD_INPUT = 2  # one line naming the field and the token
    BUDGET = 3  # what is known is printed first
    OS_ERROR = launch.OS_ERROR  # 4: the system refused a file or stream (one line naming it)
    INTERRUPTED = launch.INTERRUPTED  # 130: Ctrl-C (128 + SIGINT), what is known is printed first
    BROKEN_PIPE = launch.BROKEN_PIPE  # 141: stdout's reader went away (`| head`), quietly
    TERMINATED = launch.TERMINATED  # 143: SIGTERM (128 + SIGTERM), as Ctrl-C


#: The largest node budget a command takes (the core counts nodes in 63 bits): the
#: solver's :data:`solver.search.exact.MAX_NODES`, written here too so that a command
#: starts without loading the solver (tests/test_layout.py holds the two equal).
MAX_NODES = 1 << 62


class Seconds(click.ParamType):
    """A positive, finite number of seconds (``nan`` and ``inf`` are refused)."""

    name = "seconds"

    def convert(self, value: Any, param: Any, ctx: Any) -> float:
        try:
            v = float(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a number of seconds", param, ctx)
        if not math.isfinite(v) or v <= 0:
            self.fail(f"{value!r} is not a positive, finite number of seconds", param, ctx)
        return v


def machine_memory_mb() -> int:
    """The machine's physical memory in MiB (0 when it cannot be told)."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE") >> 20
    except (ValueError, OSError, AttributeError):
        return 0


def cores_for_one() -> int:
    """Threads for one position's solve: 2 when this process may run on two
    cores or more (a big 3-player graph is then built by two), else 1."""
    try:
        cores = len(os.sched_getaffinity(0))
    except (AttributeError, OSError):
        cores = os.cpu_count() or 1
    return 2 if cores >= 2 else 1


class TableSize(click.ParamType):
    """A transposition table size in MiB: at least 1, at most half the machine's memory.

    The table is C memory allocated whole; a size the machine cannot give
    would only end in swapping or the kernel's OOM killer.
    """

    name = "mib"

    def convert(self, value: Any, param: Any, ctx: Any) -> int:
        try:
            v = int(value)
        except (TypeError, ValueError):
            self.fail(f"{value!r} is not a whole number of MiB", param, ctx)
        if v < 1:
            self.fail(f"{v} MiB: the table needs at least 1 MiB", param, ctx)
        limit = max(machine_memory_mb() // 2, 64)
        if v > limit:
            self.fail(f"{v} MiB is more than half of this machine's "
                      f"{machine_memory_mb():,} MiB of memory (at most {limit:,})", param, ctx)
        return v


def _rich(name: str) -> ModuleType:
    """A part of rich, imported when output for people is made: an answer under
    `--json` starts without it (rich is a third of `durak solve`'s start-up)."""
    return importlib.import_module(name)


def table(**options: Any) -> "Table":
    """A rich table (``rich.table.Table(**options)``)."""
    return _rich("rich.table").Table(**options)


class ProgressBar:
    """A rich progress bar on stderr for a long job -- or nothing, when stderr is
    not a terminal (or ``enabled`` is false), so pipes and logs stay clean.

    A context manager; :attr:`callback` is the ``progress(done, total)`` the
    jobs take (None when there is no bar).
    """

    def __init__(self, label: str, enabled: bool = True):
        self._bar = None
        if enabled and sys.stderr.isatty():
            p = _rich("rich.progress")
            self._bar = p.Progress(p.TextColumn(label), p.BarColumn(), p.MofNCompleteColumn(),
                                   p.TimeElapsedColumn(), console=stderr_console(), transient=True)
        self._task: Any = None

    def __enter__(self) -> "ProgressBar":
        if self._bar is not None:
            self._bar.__enter__()
        return self

    def __exit__(self, *exc: Any) -> None:
        if self._bar is not None:
            self._bar.__exit__(*exc)

    @property
    def callback(self) -> Callable[[int, int], None] | None:
        return self._update if self._bar is not None else None

    def _update(self, done: int, total: int) -> None:
        assert self._bar is not None
        if self._task is None:
            self._task = self._bar.add_task("", total=total)
        self._bar.update(self._task, completed=done, total=total)


def _reraise() -> None:
    """A console's ``on_broken_pipe``: the BrokenPipeError goes on to the command
    group like any OSError (:func:`solver.cli.launch.os_failure`), where rich
    would exit 1 itself."""
    raise  # noqa: PLE0704 - called from rich's ``except BrokenPipeError`` block


def stdout_console() -> "Console":
    con = _rich("rich.console").Console(highlight=False, soft_wrap=True)
    con.on_broken_pipe = _reraise  # type: ignore[method-assign]
    return con


def stderr_console() -> "Console":
    con = _rich("rich.console").Console(stderr=True, highlight=False)
    con.on_broken_pipe = _reraise  # type: ignore[method-assign]
    return con


#: The most characters a game record (GAME) may have.
MAX_RECORD_CHARS = MAX_POSITION_CHARS
#: The ``ctx.params`` names of a command's time budget, which also bounds the wait
#: for the first byte of an input that is not a plain file.
_BUDGET_PARAMS = ("max_time", "time_")


def command_budget() -> float | None:
    """The running command's time budget in seconds (its ``--max-time``), or None."""
    ctx = click.get_current_context(silent=True)
    params = ctx.params if ctx is not None else {}
    for name in _BUDGET_PARAMS:
        if isinstance(params.get(name), (int, float)):
            return float(params[name])
    return None


def _wait_for_data(fd: int, wait: float | None, what: str, name: str) -> None:
    """Wait until ``fd`` has a first byte (or its end) to read: at most ``wait``
    seconds (BudgetExceeded after), or as long as it takes (Ctrl-C still stops it)."""
    if not hasattr(select, "poll"):  # not POSIX: read as it comes
        return
    poller = select.poll()
    poller.register(fd, select.POLLIN)
    if not poller.poll(None if wait is None else max(0, int(wait * 1000))):
        raise BudgetExceeded(_("{what}: nothing arrived on {name} within {seconds} s (the "
                               "time budget)").format(what=what, name=name,
                                                      seconds=as_given(wait or 0)))


def read_input(arg: str, what: str, limit: int, wait: float | None = None) -> str:
    """The text of file ``arg`` ('-': standard input) for the input ``what``
    (POSITION, GAME, IN): at most ``limit`` characters, one more read to notice
    a longer input, so an endless one (``/dev/zero``, ``yes |``) costs no memory.

    Whatever can be opened and read is read as a file: a regular file, a FIFO,
    ``/dev/stdin``, a process substitution (``<(...)``, ``/dev/fd/63``), a
    device.  One that is not a regular file is opened without blocking and
    waited on until its first byte (or its end) arrives: for at most ``wait``
    seconds when given (then :class:`~solver.errors.BudgetExceeded`, exit 3),
    else as long as the writer takes.  Standard input waits the same way when
    it is not a terminal.  A file that cannot be read, or is not UTF-8, is an
    :class:`~solver.errors.OptionError` naming it (exit 2).
    """
    if arg == "-":
        stream = sys.stdin
        if stream is None or stream.closed:
            raise OptionError(f"{what}: standard input is closed")
        try:
            fd = stream.fileno()
        except (OSError, ValueError):
            fd = -1  # a stand-in stream (tests)
        try:
            if fd >= 0 and wait is not None and not stream.isatty():
                _wait_for_data(fd, wait, what, "standard input")
            return stream.read(limit)
        except UnicodeDecodeError:
            raise OptionError(f"{what}: standard input is not UTF-8 text") from None
        except (OSError, ValueError) as e:
            raise OptionError(f"{what}: cannot read standard input: {e}") from None
    try:
        # without blocking: a FIFO with no writer yet is waited on below, not in open()
        fd = os.open(arg, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0)
                     | getattr(os, "O_CLOEXEC", 0))
    except OSError as e:
        raise OptionError(f"{what}: cannot read file {arg!r}: {e.strerror}") from None
    try:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise OptionError(f"{what}: {arg!r} is a directory, not a file")
        if not stat.S_ISREG(mode):  # a FIFO, a pipe, a device: wait for its writer
            _wait_for_data(fd, wait, what, repr(arg))
            os.set_blocking(fd, True)
        with open(fd, encoding="utf-8", closefd=False) as fh:
            return fh.read(limit)
    except UnicodeDecodeError:
        raise OptionError(f"{what}: file {arg!r} is not UTF-8 text") from None
    except OSError as e:
        raise OptionError(f"{what}: cannot read file {arg!r}: {e.strerror or e}") from None
    finally:
        os.close(fd)


def shown(text: str) -> str:
    """``text`` as typed (a file name, a word of the player's) fit to be shown at a
    terminal: every character a terminal would act on instead of showing -- the ESC
    of an escape sequence, a bell, a line break -- written as its escape (``\\x1b``),
    so a name never colours, clears or retitles the terminal.  Printed through rich,
    the result still goes in a ``Text`` (rich's markup, ``[bold]``, is a name's text too)."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode("ascii")
                   for c in text)


def _names_a_file(arg: str) -> bool:
    """Whether a POSITION or GAME argument names something to read (not a directory)."""
    return len(arg) < 4096 and "\n" not in arg and "\0" not in arg and os.path.exists(arg) \
        and not os.path.isdir(arg)


def read_position_text(arg: str) -> str:
    """POSITION: '-' reads stdin, an existing file (FIFOs and ``/dev/stdin``
    included, :func:`read_input`) is read, else the text itself.

    At most :data:`MAX_POSITION_CHARS` (+1, to notice more) are read, so an
    endless input (``< /dev/zero``) is refused at once instead of filling memory.
    An argument that looks like a file name (no spaces, a dot or a slash) but
    names no file is reported as a missing file, not as bad notation.
    """
    limit = MAX_POSITION_CHARS + 1
    if arg == "-" or _names_a_file(arg):
        try:
            return read_input(arg, "POSITION", limit, command_budget())
        except OptionError as e:  # a position's input problem is a PositionError
            raise PositionError("POSITION", str(e).removeprefix("POSITION: ")) from None
    if _FILE_NAME_RE.fullmatch(arg) and not arg.lstrip().startswith("{"):
        raise PositionError("POSITION", f"no such file {arg!r} (and it is not a position)")
    return arg


def read_game_text(arg: str) -> str:
    """GAME (a record, docs/game-record.md): '-' reads stdin, else a file (as
    :func:`read_input`, at most :data:`MAX_RECORD_CHARS`); a text with ';' or a
    newline is the record itself."""
    if arg != "-" and (";" in arg or "\n" in arg or arg.lstrip().startswith("{")):
        return arg
    text = read_input(arg, "GAME", MAX_RECORD_CHARS + 1, command_budget())
    if len(text) > MAX_RECORD_CHARS:
        raise OptionError(f"GAME: more than the {MAX_RECORD_CHARS:,} characters a game "
                          "record may have")
    return text


def load_position(arg: str) -> "Position":
    """Parse a POSITION argument into a :class:`solver.notation.Position`."""
    return parse_position(read_position_text(arg))


# ------------------------------------------------------------ shared answers

#: ``ctx.meta`` key: whether the command has printed its JSON object.
_EMITTED = "durak.emitted"


def emit_json(obj: Any) -> None:
    """Print one JSON object on stdout and nothing else."""
    click.echo(json.dumps(obj, ensure_ascii=False))
    ctx = click.get_current_context(silent=True)
    if ctx is not None:
        ctx.meta[_EMITTED] = True


def _emitted() -> bool:
    ctx = click.get_current_context(silent=True)
    return bool(ctx is not None and ctx.meta.get(_EMITTED))


def fail(message: str, code: ExitCode = ExitCode.BAD_INPUT) -> None:
    """Print one line on stderr (cut to a readable length) and exit with ``code``."""
    click.echo("durak: " + _("error: ") + shorten(" ".join(message.split())), err=True)
    sys.exit(int(code))


def _stopped(as_json: bool) -> None:
    """The end of a command stopped by Ctrl-C or SIGTERM: under --json one JSON
    object (unless the answer was printed already), a line, exit 130 (143)."""
    if as_json and not _emitted():  # one valid JSON object whatever the moment
        emit_json({"interrupted": True, "error": "interrupted before an answer"})
    click.echo("durak: " + _("interrupted"), err=True)
    sys.exit(int(ExitCode.INTERRUPTED))


def handles_errors(func: F) -> F:
    """Turn errors into one stderr line and the right exit code (docs/notation.md).

    A :class:`~solver.errors.DurakError` exits 2 (a budget 3), Ctrl-C and SIGTERM
    130 (143, :mod:`solver.cli.launch`) with one JSON object under --json (the
    answer's, when it was printed already); an ``OSError`` goes on to the
    command group, which names the file or stream (exit 4, 141 for a closed
    pipe); anything else is a bug (exit 1).
    """

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException, SystemExit,
                OSError):
            raise
        except BudgetExceeded as e:
            click.echo("durak: " + _("budget: ") + str(e), err=True)
            sys.exit(int(ExitCode.BUDGET))
        except DurakError as e:
            fail(str(e) or type(e).__name__)
        except KeyboardInterrupt:
            _stopped(bool(kwargs.get("as_json")))
        except Exception as e:  # a bug: say so, exit 1, no traceback unless asked
            if os.environ.get(TRACEBACK_ENV):
                raise
            fail(f"internal error: {type(e).__name__}: {' '.join(str(e).split())} "
                 f"(set {TRACEBACK_ENV}=1 for a traceback)", ExitCode.INTERNAL)

    return wrapper  # type: ignore[return-value]
