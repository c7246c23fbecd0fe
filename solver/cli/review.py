"""`durak review`: judge every decision of a seat in a game record (docs/game-record.md)."""
from __future__ import annotations

import sys
from typing import Any

import click
from rich.table import Table

from solver.cli.app import main
from solver.cli.common import (ExitCode, ProgressBar, Seconds, emit_json, handles_errors,
                               read_game_text, stdout_console)
from solver.cli.language import lang_option
from solver.errors import OptionError
from solver.notation.people import move_text, symbols_wanted
from solver.outfile import check_target, whole_file
from solver.games import Game
from solver.games.review import (LABEL_ORDER, MIN_DEALS, REVIEW_MAX_TIME, REVIEW_SAMPLES, Review,
                                 review)

#: What to type when the plot extra is missing.
PLOT_INSTALL = "pip install 'durak-solver[plot]'"
#: The width of a review written to a file or a pipe: the whole table, never squeezed.
WIDE = 1000
_STYLE = {"best": "green", "good": "green", "inaccuracy": "yellow", "mistake": "dark_orange",
          "blunder": "bold red", "unclear": "dim"}
#: The chart's colour of each label (matplotlib names), for its points and its key.
_COLOURS = {"best": "tab:green", "good": "yellowgreen", "inaccuracy": "gold",
            "mistake": "darkorange", "blunder": "red", "unclear": "lightgrey"}


@main.command("review")
@click.argument("game")
@click.option("--seat", type=click.IntRange(min=1), default=None,
              help="The seat whose decisions to review (default: the record's asking seat).")
@click.option("--all", "all_seats", is_flag=True,
              help="Review every seat (a full record: every deal and the pile order).")
@click.option("--max-time", type=Seconds(), default=REVIEW_MAX_TIME,
              show_default=True, help="Seconds per decision (the exact solve, or the estimate).")
@click.option("--samples", "-n", type=click.IntRange(min=1), default=REVIEW_SAMPLES,
              help="Deals per estimated decision (default: the hint's own, 256 with two "
                   "players, 512 with more, so a hint followed is never marked down).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Seed of the deals (the same for every decision).")
@click.option("--exact-only", is_flag=True, help="Review only the decisions solved exactly.")
@click.option("--plot", "plot_file", default=None, metavar="FILE.png|.svg",
              help="Draw the win chance over the game (needs the `plot` extra).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@lang_option
@handles_errors
def review_command(game: str, seat: int | None, all_seats: bool, max_time: float,
                   samples: int | None,
                   seed: int, exact_only: bool, plot_file: str | None, as_json: bool) -> None:
    """Review the decisions of one seat (or --all) in the game record GAME ('-': stdin).

    Each decision gets the win chance (win 1, draw 1/2) of the move played and of
    the best move -- exact once the pile is empty and every card is known, else
    the hint the seat could have asked then (its recommendation is the best move)
    -- and a label by the loss: best (<= 0.005), good (<= 0.05), inaccuracy
    (<= 0.10), mistake (<= 0.20), blunder; unclear when a time budget left an
    estimate fewer than 32 deals (exit 3 when it cut any).
    """
    if seat is not None and all_seats:
        raise OptionError("give --seat or --all, not both")
    if plot_file is not None:
        if not plot_file.lower().endswith((".png", ".svg")):
            raise OptionError(f"plot: {plot_file!r} must end in .png or .svg")
    g = Game.parse(read_game_text(game))
    if plot_file is not None:
        _matplotlib()  # before the review's work: a missing extra is a bad request
        check_target(plot_file, [game], option="--plot")  # and a folder that is not there
    with ProgressBar("reviewing", enabled=not as_json) as bar:
        res = review(g, seat=seat, all_seats=all_seats, max_time=max_time, samples=samples,
                     seed=seed, exact_only=exact_only, progress=bar.callback)
    if plot_file is not None:
        plot_review(res, plot_file)
    if as_json:
        emit_json(res.to_json())
    else:
        print_review(res)
    if res.interrupted:
        click.echo(f"durak: interrupted after {len(res.decisions)} decisions", err=True)
        sys.exit(int(ExitCode.INTERRUPTED))
    if res.cut:
        click.echo(f"durak: budget: --max-time {max_time:g} s cut {len(res.cut)} estimate(s) "
                   f"short of their deals (moves {', '.join(str(d.number) for d in res.cut)}); "
                   f"a label needs {MIN_DEALS} deals, else it is 'unclear'", err=True)
        sys.exit(int(ExitCode.BUDGET))


def _matplotlib() -> Any:
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
    except ImportError:
        raise OptionError(f"plot: matplotlib is not installed; install it with: "
                          f"{PLOT_INSTALL}") from None
    return plt


def plot_review(res: Review, path: str) -> None:
    """The win chance of the move played at each decision, a line per seat: a title,
    the even-chance line, exact values (squares) apart from estimates (dots), each
    point coloured by its label with a key, and the move after which the game was
    lost marked."""
    plt = _matplotlib()
    from matplotlib.lines import Line2D
    fig, ax = plt.subplots(figsize=(9, 4))
    ax.axhline(0.5, color="grey", linestyle="--", linewidth=0.8, zorder=0)
    for s in res.seats:
        ds = [d for d in res.decisions if d.seat == s]
        ax.plot([d.number for d in ds], [d.played_chance for d in ds], color="steelblue",
                linewidth=1, zorder=1, label=f"seat {s}" if len(res.seats) > 1 else None)
        for d in ds:
            ax.scatter([d.number], [d.played_chance], marker="s" if d.exact else "o",
                       s=36 if d.exact else 22, color=_COLOURS[d.label], edgecolors="black",
                       linewidths=0.4, zorder=2)
    lost = res.lost_after
    if lost is not None:
        ax.axvline(lost.number, color="red", linewidth=0.8, alpha=0.6, zorder=0)
        ax.annotate(f"lost after move {lost.number} ({lost.played})",
                    (lost.number, 0.98), ha="left", va="top", fontsize=8, color="red")
    ax.set_ylim(-0.05, 1.05)
    ax.set_xlabel("move")
    ax.set_ylabel("win chance of the move played")
    who = " + ".join(f"seat {s}" for s in res.seats)
    result = ""
    if res.outcome is not None and len(res.seats) == 1:
        r = res.outcome[res.seats[0] - 1]
        result = ": won" if r > 0 else ": drawn" if r == 0 else ": lost"
    ax.set_title(f"Review of {who}{result} ({res.samples} deals per estimate, seed {res.seed})")
    used = [name for name in LABEL_ORDER if any(d.label == name for d in res.decisions)]
    keys = [Line2D([], [], marker="o", linestyle="", color=_COLOURS[n], markeredgecolor="black",
                   markeredgewidth=0.4, label=n) for n in used]
    keys += [Line2D([], [], marker="s", linestyle="", color="white", markeredgecolor="black",
                    label="exact"),
             Line2D([], [], marker="o", linestyle="", color="white", markeredgecolor="black",
                    label="estimate"),
             Line2D([], [], linestyle="--", color="grey", label="even chance (50%)")]
    if len(res.seats) > 1:
        keys = ax.get_legend_handles_labels()[0] + keys
    ax.legend(handles=keys, loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8,
              frameon=False)
    fig.tight_layout()
    with whole_file(path, option="--plot") as tmp:  # a plot is written whole or not at all
        fig.savefig(tmp)
    plt.close(fig)


def print_review(res: Review, symbols: bool | None = None) -> None:
    """The review for people: a table of the decisions, the decisive ones, where the
    game was lost, a summary per seat.  The moves as ``7♥/A♥`` at a terminal that
    shows the suit symbols (``symbols``: None asks
    :func:`~solver.notation.people.symbols_wanted`), else in ASCII; written whole
    when stdout is not a terminal (a file or a pipe is not squeezed to 80 columns)."""
    con = stdout_console()
    if not con.is_terminal:
        con.width = WIDE
    sym = symbols_wanted(sys.stdout) if symbols is None else symbols
    t = Table(title=f"review of seat {'+'.join(map(str, res.seats))} "
                    f"(estimates: the hint at {res.samples} deals, seed {res.seed})",
              title_justify="left")
    many = len(res.seats) > 1
    for col, just in (("#", "right"), ("seat", "right"), ("played", "left"),
                      ("chance", "right"), ("best", "left"), ("best chance", "right"),
                      ("loss", "right"), ("label", "left"), ("how", "left")):
        if col != "seat" or many:
            t.add_column(col, justify=just, no_wrap=True)  # type: ignore[arg-type]
    for d in res.decisions:
        style = _STYLE[d.label]
        chance = (f"{d.played_value.text}" if d.exact and d.played_value is not None
                  else f"{d.played_chance:.2f}")
        best = (f"{d.best_value.text}" if d.exact and d.best_value is not None
                else f"{d.best_chance:.2f}")
        how = ("exact" if d.exact else f"{d.deals}/{d.wanted} deals" if d.cut
               else f"all {d.deals} deals" if d.deals < res.samples else "est.")
        row = [str(d.number), str(d.seat), move_text(d.played, sym), chance,
               move_text(d.best, sym), best, f"{d.loss:.2f}",
               f"[{style}]{d.label}[/{style}]", how]
        t.add_row(*(row if many else row[:1] + row[2:]))
    con.print(t)
    for d in res.decisive:
        con.print(f"decisive: move {d.number}, seat {d.seat} played {move_text(d.played, sym)}: "
                  f"{d.best_value.text if d.best_value else '?'} -> "
                  f"{d.played_value.text if d.played_value else '?'} "
                  f"(best {move_text(d.best, sym)})")
    lost = res.lost_after
    if lost is not None:
        con.print(f"lost after: move {lost.number}, seat {lost.seat} played "
                  f"{move_text(lost.played, sym)}: "
                  f"chance {lost.best_chance:.2f} -> {lost.played_chance:.2f} "
                  f"(best {move_text(lost.best, sym)}); it never came back to an even chance")
    for s in res.summaries:
        counts = ", ".join(f"{n} {name}" for name, n in s.labels.items() if n)
        con.print(f"seat {s.seat}: {s.decisions} decisions ({s.exact} exact): "
                  f"{counts or 'none'}; mean loss {s.mean_loss:.3f}")
