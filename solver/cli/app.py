"""The ``durak`` command group and the context every subcommand shares."""
from __future__ import annotations

import importlib
import io
import sys
from typing import Any, NoReturn

import click

from solver import __version__
from solver.cli.language import lang_option, on_every_command, start
from solver.cli.launch import at_safe_point, interrupted, os_failure
from solver.errors import CoreMissing, shorten

#: The module that defines each subcommand and the command's name there, imported when
#: the command is used: `durak solve` need not load the hint engine, the game records
#: or Dask.  The commands are plain click commands: they do not import this group.
COMMANDS = {
    "analyse": ("solver.cli.solve", "analyse_command"),
    "batch": ("solver.cli.batch", "batch_command"),
    "compare": ("solver.cli.match", "compare_command"),
    "game": ("solver.cli.game", "game_command"),
    "hint": ("solver.cli.hint", "hint_command"),
    "learn": ("solver.cli.learn", "learn_group"),
    "match": ("solver.cli.match", "match_command"),
    "moves": ("solver.cli.moves", "moves_command"),
    "play": ("solver.cli.play", "play_command"),
    "play-out": ("solver.cli.playout", "playout_command"),
    "puzzle": ("solver.cli.puzzle", "puzzle"),
    "review": ("solver.cli.review", "review_command"),
    "serve": ("solver.cli.serve", "serve_command"),
    "show": ("solver.cli.show", "show_command"),
    "solve": ("solver.cli.solve", "solve_command"),
}


#: ``ctx.meta`` key: whether the command line asked for --json.
JSON_KEY = "durak.json"


class LazyGroup(click.Group):
    """A group whose subcommands are imported on first use (click's documented
    lazy-loading pattern), and the one place where every command's ending is
    made uniform: Ctrl-C (and SIGTERM) while it parses the command line or loads
    a subcommand exits as the commands do (130, 143), where click would print
    "Aborted!" and exit 1; a file or stream the system refuses, in any command
    or in click's own output, is one line and exit 4 (141 for a closed pipe,
    :func:`solver.cli.launch.os_failure`), where click would exit 1; and
    click's usage errors quote long tokens cut short (:func:`solver.errors.shorten`)."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted(set(super().list_commands(ctx)) | set(COMMANDS))

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name not in self.commands and cmd_name in COMMANDS:
            module, name = COMMANDS[cmd_name]
            try:
                self.add_command(on_every_command(getattr(importlib.import_module(module), name)),
                                 cmd_name)
            except CoreMissing as e:  # a source tree without its core, say: what to do
                click.echo(f"durak: error: {e}", err=True)
                sys.exit(1)
            at_safe_point()  # a Ctrl-C while it loaded (solver.cli.launch)
        return super().get_command(ctx, cmd_name)

    def make_context(self, info_name: str | None, args: list[str], *rest: Any,
                     **kwargs: Any) -> click.Context:
        as_json = "--json" in args  # the whole command line: the subcommand's options too
        start(as_json)  # the environment's language, until a --lang says otherwise
        try:
            ctx = super().make_context(info_name, args, *rest, **kwargs)
        except KeyboardInterrupt:
            interrupted(as_json)
        except click.ClickException as e:
            show_shortened(e)
        except OSError as e:
            sys.exit(os_failure(e))
        ctx.meta[JSON_KEY] = as_json
        return ctx

    def invoke(self, ctx: click.Context) -> Any:
        try:
            return super().invoke(ctx)
        except KeyboardInterrupt:
            interrupted(ctx.meta.get(JSON_KEY, False))
        except click.ClickException as e:
            show_shortened(e)
        except OSError as e:
            sys.exit(os_failure(e))


def show_shortened(error: click.ClickException) -> NoReturn:
    """Show click's error as click would, each line with its long tokens cut
    (:func:`solver.errors.shorten`), and exit with its code.

    click (8.2 on) declares an error's ``message`` final, so the error is not
    edited: what it shows is written to a buffer first, then cut, and a 200 KB
    argument never fills the terminal."""
    shown = io.StringIO()
    error.show(shown)
    for line in shown.getvalue().splitlines():
        click.echo(shorten(line), err=True)
    sys.exit(error.exit_code)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="durak")
@lang_option
def main() -> None:
    """Durak (Durnius, Дурак) analysis: exact endgame solving, hints, real games
    followed, played against the engine and reviewed, puzzles, and a web board.

    POSITION arguments are a position string (docs/notation.md), a file holding one,
    a JSON position, or '-' to read standard input.
    """
