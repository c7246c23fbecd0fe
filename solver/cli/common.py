"""What every subcommand shares: reading a POSITION, printing, exit codes.

Results go to stdout, diagnostics to stderr (HTTPie style).  Errors a user can
cause become one line on stderr and :data:`ExitCode.BAD_INPUT`; nothing a user
types produces a traceback.
"""
from __future__ import annotations

import functools
import json
import os
import sys
from typing import Any, Callable, TypeVar

import click
from rich.console import Console

from ..errors import BudgetExceeded, ExitCode

F = TypeVar("F", bound=Callable[..., Any])


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


def load_position(arg: str):
    """Parse a POSITION argument into a :class:`solver.notation.Position`."""
    from ..notation import parse_position

    return parse_position(read_position_text(arg))


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
        except ValueError as e:
            fail(str(e))
        except KeyboardInterrupt:
            click.echo("durak: interrupted", err=True)
            sys.exit(int(ExitCode.BUDGET))
        except Exception as e:  # an internal error: say so, exit 1, no traceback unless asked
            if os.environ.get("DURAK_DEBUG"):
                raise
            fail(f"internal error: {type(e).__name__}: {e} (set DURAK_DEBUG=1 for a traceback)",
                 ExitCode.INTERNAL)

    return wrapper  # type: ignore[return-value]
