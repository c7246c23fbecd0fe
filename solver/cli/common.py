"""What every subcommand shares: reading a POSITION, printing, exit codes.

Results go to stdout, diagnostics to stderr (HTTPie style).  Errors a user can
cause (:class:`~solver.errors.DurakError`) become one line on stderr and
:data:`ExitCode.BAD_INPUT`; anything else is a bug: one line saying so and
:data:`ExitCode.INTERNAL`, with a traceback only under ``DURAK_TRACEBACK=1``.
Nothing a user types produces a traceback.
"""
from __future__ import annotations

import enum
import functools
import importlib
import json
import math
import os
import re
import sys
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable, TypeVar

import click

from solver.errors import BudgetExceeded, DurakError, PositionError
from solver.game.outcome import outcome_info, outcome_text, phase_name
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
    """Exit codes of the ``durak`` command (docs/notation.md, "Machine output")."""

    OK = 0
    INTERNAL = 1
    BAD_INPUT = 2
    BUDGET = 3
    INTERRUPTED = 130  # Ctrl-C (128 + SIGINT), what is known is printed first


#: The largest node budget a command takes (the core counts nodes in 63 bits).
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


def stdout_console() -> "Console":
    return _rich("rich.console").Console(highlight=False, soft_wrap=True)


def stderr_console() -> "Console":
    return _rich("rich.console").Console(stderr=True, highlight=False)


def read_position_text(arg: str) -> str:
    """POSITION: '-' reads stdin, an existing file is read, else the text itself.

    At most :data:`MAX_POSITION_CHARS` (+1, to notice more) are read, so an
    endless input (``< /dev/zero``) is refused at once instead of filling memory.
    An argument that looks like a file name (no spaces, a dot or a slash) but
    names no file is reported as a missing file, not as bad notation.
    """
    limit = MAX_POSITION_CHARS + 1
    if arg == "-":
        if sys.stdin is None or sys.stdin.closed:
            raise PositionError("POSITION", "standard input is closed")
        try:
            return sys.stdin.read(limit)
        except (OSError, ValueError) as e:
            raise PositionError("POSITION", f"cannot read standard input: {e}") from None
        except UnicodeDecodeError:
            raise PositionError("POSITION", "standard input is not UTF-8 text") from None
    if len(arg) < 4096 and "\n" not in arg and os.path.isfile(arg):
        try:
            with open(arg, encoding="utf-8") as fh:
                return fh.read(limit)
        except OSError as e:
            raise PositionError("POSITION", f"cannot read file {arg!r}: {e.strerror}") from None
        except UnicodeDecodeError:
            raise PositionError("POSITION", f"file {arg!r} is not UTF-8 text") from None
    if _FILE_NAME_RE.fullmatch(arg) and not arg.lstrip().startswith("{"):
        raise PositionError("POSITION", f"no such file {arg!r} (and it is not a position)")
    return arg


def read_game_text(arg: str) -> str:
    """GAME (a record, docs/game-record.md): '-' reads stdin, else a file; a text with
    ';' or a newline is the record itself."""
    if arg == "-":
        return sys.stdin.read()
    if ";" in arg or "\n" in arg or arg.lstrip().startswith("{"):
        return arg
    try:
        with open(arg, encoding="utf-8") as fh:
            return fh.read()
    except (OSError, UnicodeDecodeError) as e:
        raise click.UsageError(f"GAME: cannot read file {arg!r}: {e}") from None


def load_position(arg: str) -> "Position":
    """Parse a POSITION argument into a :class:`solver.notation.Position`."""
    return parse_position(read_position_text(arg))


# ------------------------------------------------------------ shared answers

def emit_json(obj: Any) -> None:
    """Print one JSON object on stdout and nothing else."""
    click.echo(json.dumps(obj, ensure_ascii=False))


def fail(message: str, code: ExitCode = ExitCode.BAD_INPUT) -> None:
    """Print one line on stderr and exit with ``code``."""
    click.echo(f"durak: error: {message}", err=True)
    sys.exit(int(code))


def handles_errors(func: F) -> F:
    """Turn user errors into one stderr line and the right exit code (docs/notation.md)."""

    @functools.wraps(func)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        try:
            return func(*args, **kwargs)
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException, SystemExit):
            raise
        except BudgetExceeded as e:
            click.echo(f"durak: budget: {e}", err=True)
            sys.exit(int(ExitCode.BUDGET))
        except DurakError as e:
            fail(" ".join(str(e).split()) or type(e).__name__)
        except BrokenPipeError:  # the reader went away (`| head`): stop quietly
            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
            sys.exit(int(ExitCode.INTERNAL))
        except KeyboardInterrupt:
            if kwargs.get("as_json"):  # one valid JSON object whatever the moment
                emit_json({"interrupted": True, "error": "interrupted before an answer"})
            click.echo("durak: interrupted", err=True)
            sys.exit(int(ExitCode.INTERRUPTED))
        except Exception as e:  # a bug: say so, exit 1, no traceback unless asked
            if os.environ.get(TRACEBACK_ENV):
                raise
            fail(f"internal error: {type(e).__name__}: {' '.join(str(e).split())} "
                 f"(set {TRACEBACK_ENV}=1 for a traceback)", ExitCode.INTERNAL)

    return wrapper  # type: ignore[return-value]


def print_hint_table(res: Any) -> None:
    """The hint table of a :class:`~solver.hints.HintResult` (`durak hint`, and
    `durak analyse` or `durak game` on hidden cards)."""
    con = stdout_console()
    how = (f"every consistent deal ({res.samples:,})" if res.exhaustive
           else f"{res.samples:,} sampled deals of {res.deals_total:,}")
    by = (f"a {res.iterations:,}-iteration search averaged with a greedy playout"
          if res.iterations else "greedy playouts")
    kind = {"exact": "each solved exactly",
            "estimate": f"each scored by {by} (an estimate)",
            "mixed": f"{res.exact_deals:,} solved exactly, "
                     f"{res.samples - res.exact_deals:,} by {by} (an estimate)"}[res.kind]
    title = (f"seat {res.player} asks, seat {res.to_move} to move: {how}, {kind} "
             f"(seed {res.seed}, {res.seconds:.2f} s)")
    t = table(title=title, title_justify="left")
    t.add_column("", no_wrap=True)  # the recommended move's mark
    t.add_column("move")
    t.add_column("win", justify="right")
    t.add_column("95% interval", justify="right")
    t.add_column("draw", justify="right")
    t.add_column("loss", justify="right")
    t.add_column("score", justify="right")
    t.add_column("best in", justify="right")
    for i, m in enumerate(res.moves):
        name = f"[bold]{m.move}[/bold]" if m.move == res.best else m.move
        t.add_row("*" if m.move == res.best else "", name, f"{m.win:.1%}", f"{m.ci95[0]:.1%}-{m.ci95[1]:.1%}", f"{m.draw:.1%}",
                  f"{m.loss:.1%}", f"{m.score:+.3f}", f"{m.best:.0%}")
    con.print(t)
    con.print("[dim]Moves are ranked by mean score (+1 win, 0 draw, -1 loss), then by the mean "
              "card margin at the end; 'best in' is the share of deals on which the move "
              "scored best. With a search a deal's score is its mean result; 'win' is the share "
              "of deals scored above 0.[/dim]")
    if getattr(res, "facts", 0):
        weighed = (f"; deals weighed, {res.effective_deals:.0f} effective"
                   if res.inference == "weighted" else "")
        con.print(f"[dim]{res.facts} fact(s) from who was asked to throw in (F2): "
                  f"{res.rejected:,} deal(s) ruled out{weighed}.[/dim]")
    caught = getattr(res, "not_greedy", ())
    if caught and getattr(res, "iterations", 0):
        seats = ", ".join(str(s) for s in caught)
        con.print(f"[dim]Seat(s) {seats} seen leaving the greedy player's move: the greedy "
                  f"playout weighs {res.playout_weight:g} in a searched deal's score.[/dim]")
    kept = getattr(res, "kept", None)
    if kept is not None:
        con.print(kept.text())
    con.print(f"recommended: [bold]{res.best}[/bold] (marked *)")
