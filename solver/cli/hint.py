"""`durak hint`: score every move of a position with hidden cards (S3, docs/hint.md)."""
from __future__ import annotations

import sys
from typing import TYPE_CHECKING, cast

import click

from solver.answers.commands import hint_answer
from solver.cli.common import (ExitCode, ProgressBar, Seconds, emit_json, handles_errors,
                               load_position, read_game_text)
from solver.cli.hinttable import print_hint_table
from solver.errors import OptionError
from solver.games import Game
from solver.i18n import _, ngettext, number

if TYPE_CHECKING:
    from solver.hints import HintResult

#: The most deals one hint may be asked to score.
MAX_SAMPLES = 1_000_000
#: The most tree-search iterations per deal: ``solver.hints.MAX_UCT_ITERS``,
#: written out so that the command line starts without the engine (a test
#: holds the two equal).
MAX_ITERATIONS = 102_400


@click.command("hint")
@click.argument("position", required=False)
@click.option("--game", "game_file", default=None, metavar="FILE",
              help="A game record (docs/game-record.md; '-' for stdin): the hint at its end, "
                   "from the asking seat's view, instead of POSITION.")
@click.option("--samples", "-n", type=click.IntRange(1, MAX_SAMPLES), default=None,
              help="Deals to score the moves on (default 512 with two players, 1024 with more, "
                   "about a second; up to 5000 with --time; all deals when there are fewer).")
@click.option("--time", "--max-time", "time_", type=Seconds(), default=None,
              help="Stop scoring new deals after this many seconds (exit 3 if fewer deals "
                   "than asked were scored).")
@click.option("--iterations", type=click.IntRange(0, MAX_ITERATIONS), default=None,
              help="Tree-search iterations per deal (default 300 with two players, none with more; "
                   "0: one greedy playout per move, the faster engine before).")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Seed of the deals (default: a fresh one, printed).")
@click.option("--workers", "-j", type=click.IntRange(min=1), default=1,
              help="Processes to spread the deals over (same result for any number).")
@click.option("--scheduler", default=None, metavar="ADDRESS",
              help="Spread the deals over a Dask cluster: tcp://HOST:8786, or 'local' (needs "
                   "durak-solver[cluster]).")
@click.option("--me", type=click.IntRange(min=1), default=None,
              help="The asking seat (overrides the position's `me`; default the seat to move).")
@click.option("--verbose", "-v", is_flag=True,
              help="The engine's figures too: shares of deals won, drawn and lost, mean score, "
                   "card margin, how the deals were scored and weighed.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@handles_errors
def hint_command(position: str | None, game_file: str | None, samples: int | None,
                 time_: float | None, iterations: int | None, seed: int | None, workers: int,
                 scheduler: str | None, me: int | None, verbose: bool, as_json: bool) -> None:
    """Recommend a move in POSITION, where cards are hidden, by scoring every
    legal move on the same sampled deals of the unseen cards.  Each move's chance
    is the chance of not being the durak (a draw counts half), with its 95%
    interval; the recommended move has the highest chance or one as good within
    the noise (marked =).

    Each deal is solved exactly when its pile is empty (two players: at most
    2 cards), else searched with playouts at the leaves that play greedily but
    for one random move in five (two players) or played out by the greedy
    player (docs/hint.md).  With --game FILE the
    position is the end of a game record, seen by its asking seat (or --me).
    With --time and no --samples, deals are scored until the time is up.
    """
    if (position is None) == (game_file is None):
        raise OptionError(_("give either POSITION or --game FILE"))
    knowledge = None
    pos = None
    if game_file is not None:
        # every public fact of the record: discards, pick-ups, the face-up trump drawn
        knowledge = Game.parse(read_game_text(game_file)).knowledge(me)
    else:
        assert position is not None  # exactly one of the two, checked above
        pos = load_position(position)
    with ProgressBar(_("sampling deals")) as bar:
        ans = hint_answer(pos, samples=samples, seed=seed, max_time=time_, workers=workers,
                          me=me, progress=bar.callback, scheduler=scheduler,
                          knowledge=knowledge, iterations=iterations)
    res = cast("HintResult", ans.result)  # a hint's answer holds a HintResult
    if as_json:
        emit_json(res.to_json())
    else:
        print_hint_table(res, verbose=verbose)
    if res.interrupted:
        click.echo("durak: " + ngettext("interrupted after {n} deal", "interrupted after {n} deals",
                                        res.samples).format(n=number(res.samples)), err=True)
        sys.exit(int(ExitCode.INTERRUPTED))
    if ans.budget is not None:
        click.echo("durak: " + _("budget: ") + ans.budget, err=True)
        sys.exit(int(ExitCode.BUDGET))
