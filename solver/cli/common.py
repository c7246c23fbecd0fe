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
import json
import os
import sys
from typing import TYPE_CHECKING, Any, Callable, TypeVar

import click
from rich.console import Console

from solver.errors import BudgetExceeded, DurakError
from solver.notation import parse_position

if TYPE_CHECKING:
    from solver.game.state import GameState
    from solver.notation.position import Position

F = TypeVar("F", bound=Callable[..., Any])

#: The environment switch that lets an internal error show its traceback.
TRACEBACK_ENV = "DURAK_TRACEBACK"


class ExitCode(enum.IntEnum):
    """Exit codes of the ``durak`` command (docs/notation.md, "Machine output")."""

    OK = 0
    INTERNAL = 1
    BAD_INPUT = 2
    BUDGET = 3
    INTERRUPTED = 130  # Ctrl-C (128 + SIGINT), what is known is printed first


def stdout_console() -> Console:
    return Console(highlight=False, soft_wrap=True)


def stderr_console() -> Console:
    return Console(stderr=True, highlight=False)


def read_position_text(arg: str) -> str:
    """POSITION: '-' reads stdin, an existing file is read, else the text itself."""
    if arg == "-":
        return sys.stdin.read()
    if len(arg) < 4096 and "\n" not in arg and os.path.isfile(arg):
        try:
            with open(arg, encoding="utf-8") as fh:
                return fh.read()
        except (OSError, UnicodeDecodeError) as e:
            raise click.UsageError(f"POSITION: cannot read file {arg!r}: {e}") from None
    return arg


def load_position(arg: str) -> "Position":
    """Parse a POSITION argument into a :class:`solver.notation.Position`."""
    return parse_position(read_position_text(arg))


# ------------------------------------------------------------ shared answers

PHASE_NAMES = {1: "lead", 2: "defend", 3: "throw", 4: "taken", 5: "over"}


def phase_name(state: "GameState") -> str:
    """P1..P4 / over as a word for JSON output."""
    return PHASE_NAMES[int(state.phase)]


def outcome_info(state: "GameState") -> dict[str, Any] | None:
    """The result of a finished game as JSON-ready data (R20, R21, R22), else None.

    ``scores`` per seat (+1 win, 0 draw, -1 loss); ``durak`` the 1-based seat
    that lost under R20 (None for a draw, a team loss or R21); ``text`` one line.
    """
    res = state.outcome() if not state.table else None
    if res is None:
        return None
    seats = range(state.players)
    winners = [s + 1 for s in seats if res[s] > 0]
    losers = [s + 1 for s in seats if res[s] < 0]
    drawn = [s + 1 for s in seats if res[s] == 0]
    rules = state.rules
    durak = None
    if not losers:
        result, text = "draw", "draw: " + ("nobody holds cards (R20)" if not rules.first_out_wins
                                           else f"seats {_seats(drawn)} went out together")
    elif rules.first_out_wins:
        result = "first_out"
        text = (f"seat {_seats(winners)} went out first and wins (R21)" if winners
                else f"seats {_seats(drawn)} went out together and share the win (R21)")
    elif rules.teams:
        result, text = "team_lost", f"team of seats {_seats(losers)} loses (R22)"
    else:
        durak = losers[0]
        result, text = "durak", f"seat {durak} is the durak (R20)"
    return {"result": result, "durak": durak, "winners": winners, "losers": losers,
            "draws": drawn, "scores": list(res), "text": text}


def _seats(seats: list[int]) -> str:
    return "+".join(str(s) for s in seats)


def emit_json(obj: Any) -> None:
    """Print one JSON object on stdout and nothing else."""
    click.echo(json.dumps(obj, ensure_ascii=False))


def fail(message: str, code: ExitCode = ExitCode.BAD_INPUT) -> None:
    """Print one line on stderr and exit with ``code``."""
    click.echo(f"durak: error: {message}", err=True)
    sys.exit(int(code))


def handles_errors(func: F) -> F:
    """Turn user errors into one stderr line and the right exit code (NOTATION.md)."""

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
            click.echo("durak: interrupted", err=True)
            sys.exit(int(ExitCode.INTERRUPTED))
        except Exception as e:  # a bug: say so, exit 1, no traceback unless asked
            if os.environ.get(TRACEBACK_ENV):
                raise
            fail(f"internal error: {type(e).__name__}: {' '.join(str(e).split())} "
                 f"(set {TRACEBACK_ENV}=1 for a traceback)", ExitCode.INTERNAL)

    return wrapper  # type: ignore[return-value]
