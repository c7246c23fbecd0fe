"""`durak review`: judge every decision of a seat in a game record (docs/game-record.md)."""
from __future__ import annotations

import sys
from typing import Any

import click
from rich.table import Table

from solver.cli.common import (ExitCode, ProgressBar, Seconds, emit_json, handles_errors,
                               read_game_text, stdout_console)
from solver.cli.language import lang_option
from solver.errors import OptionError
from solver.notation.people import move_text, symbols_wanted, value_word
from solver.run.outfile import check_target, whole_file
from solver.games import Game
from solver.games.hindsight import Hindsight
from solver.i18n import _, ngettext, number, percent, pgettext
from solver.games.review import (LABEL_ORDER, REVIEW_MAX_TIME, REVIEW_SAMPLES,
                                 Decision, Review, review)

def label_word(label: str) -> str:
    """A review label in the player's language (``mistake`` -> ``ошибка``)."""
    words = {"best": pgettext("review label", "best"), "good": pgettext("review label", "good"),
             "inaccuracy": pgettext("review label", "inaccuracy"),
             "mistake": pgettext("review label", "mistake"),
             "blunder": pgettext("review label", "blunder"),
             "unclear": pgettext("review label", "unclear")}
    return words.get(label, label)


def label_count(label: str, n: int) -> str:
    """``2 mistakes``: how many decisions had a label, in words (the board says the same)."""
    if label == "best":
        text = ngettext("{n} best", "{n} best", n)
    elif label == "good":
        text = ngettext("{n} good", "{n} good", n)
    elif label == "inaccuracy":
        text = ngettext("{n} inaccuracy", "{n} inaccuracies", n)
    elif label == "mistake":
        text = ngettext("{n} mistake", "{n} mistakes", n)
    elif label == "blunder":
        text = ngettext("{n} blunder", "{n} blunders", n)
    elif label == "unclear":
        text = ngettext("{n} unclear", "{n} unclear", n)
    else:
        text = "{n} " + label
    return text.format(n=n)


def label_counts(labels: dict[str, int]) -> str:
    """``18 best, 1 inaccuracy, 2 mistakes``: each label's count in words."""
    return ", ".join(label_count(name, n) for name, n in labels.items() if n)


#: What to type when the plot extra is missing.
PLOT_INSTALL = "pip install 'durak-solver[plot]'"
#: The width of a review written to a file or a pipe: the whole table, never squeezed.
WIDE = 1000
_STYLE = {"best": "green", "good": "green", "inaccuracy": "yellow", "mistake": "dark_orange",
          "blunder": "bold red", "unclear": "dim"}
#: The chart's colour of each label (matplotlib names), for its points and its key.
_COLOURS = {"best": "tab:green", "good": "yellowgreen", "inaccuracy": "gold",
            "mistake": "darkorange", "blunder": "red", "unclear": "lightgrey"}


@click.command("review")
@click.argument("game")
@click.option("--seat", type=click.IntRange(min=1), default=None,
              help="The seat whose decisions to review (default: the record's asking seat).")
@click.option("--all", "all_seats", is_flag=True,
              help="Review every seat (a full record: every deal and the pile order).")
@click.option("--max-time", type=Seconds(), default=REVIEW_MAX_TIME, show_default=True,
              help="Seconds the whole review may take: the exact solves (every card "
                   "placed, from the game's end backwards with one table) and the estimates "
                   "share them; a decision not reached in time is listed (exit 3).")
@click.option("--samples", "-n", type=click.IntRange(min=1), default=REVIEW_SAMPLES,
              help="Deals per estimated decision (default: the hint's own, 256 with two "
                   "players, 512 with more, so a hint followed is never marked down).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Seed of the deals (the same for every decision).")
@click.option("--exact-only", is_flag=True, help="Review only the decisions solved exactly.")
@click.option("--hindsight", is_flag=True,
              help="Also value every position with every card seen (a full record: every "
                   "deal and the pile order): where the game was won and lost double dummy. "
                   "A quarter of --max-time at least, from the game's end backwards; "
                   "positions not reached are listed, never guessed.")
@click.option("--workers", "-j", type=click.IntRange(min=1), default=None,
              help="Threads for the estimates (default: the cores); the answer is the same.")
@click.option("--plot", "plot_file", default=None, metavar="FILE.png|.svg",
              help="Draw the win chance over the game (needs the `plot` extra).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@lang_option
@handles_errors
def review_command(game: str, seat: int | None, all_seats: bool, max_time: float,
                   samples: int | None, seed: int, exact_only: bool, hindsight: bool,
                   workers: int | None, plot_file: str | None, as_json: bool) -> None:
    """Review the decisions of one seat (or --all) in the game record GAME ('-': stdin).

    Each decision gets the win chance (win 1, draw 1/2) of the move played and of
    the best move -- exact wherever every card is placed, else the hint the seat
    could have asked then (its recommendation is the best move) -- and a label
    by the loss: best (<= 0.005), good (<= 0.05), inaccuracy (<= 0.10), mistake
    (<= 0.20), blunder; unclear when an exact solve ran out of --max-time or a
    budget left an estimate fewer than 32 deals (exit 3 then, as when --max-time
    ran out before some decisions were reached: they are listed).  For a seat that
    lost: the move after which its best chance never again reached one half.

    With --hindsight, a record that holds every card also gets every position's
    exact value with every hand and the pile's order seen (double dummy): a column
    beside the decisions, a line per position, and the move that changed it.
    """
    if seat is not None and all_seats:
        raise OptionError(_("give --seat or --all, not both"))
    if plot_file is not None:
        if not plot_file.lower().endswith((".png", ".svg")):
            raise OptionError(f"plot: {plot_file!r} must end in .png or .svg")
    g = Game.parse(read_game_text(game))
    if plot_file is not None:
        _matplotlib()  # before the review's work: a missing extra is a bad request
        check_target(plot_file, [game], option="--plot")  # and a folder that is not there
    with ProgressBar(_("reviewing"), enabled=not as_json) as bar:
        res = review(g, seat=seat, all_seats=all_seats, max_time=max_time, samples=samples,
                     seed=seed, exact_only=exact_only, progress=bar.callback, workers=workers,
                     hindsight=hindsight)
    if plot_file is not None:
        plot_review(res, plot_file)
    if as_json:
        emit_json(res.to_json())
    else:
        print_review(res)
    if res.interrupted:
        click.echo("durak: " + ngettext("interrupted after {n} decision",
                                        "interrupted after {n} decisions",
                                        len(res.decisions)).format(n=len(res.decisions)), err=True)
        sys.exit(int(ExitCode.INTERRUPTED))
    budget = res.budget_text()
    if budget is not None:
        click.echo("durak: " + _("budget: ") + budget, err=True)
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
    point coloured by its label with a key, decisions whose exact solve ran out
    as grey crosses at the foot, and the move after which the game was lost
    (:attr:`Review.lost_after`, the one definition) marked."""
    plt = _matplotlib()
    from matplotlib.lines import Line2D
    fig, ax = plt.subplots(figsize=(9, 4))
    ax.axhline(0.5, color="grey", linestyle="--", linewidth=0.8, zorder=0)
    for s in res.seats:
        ds = [d for d in res.decisions if d.seat == s and d.played_chance is not None]
        ax.plot([d.number for d in ds], [d.played_chance for d in ds], color="steelblue",
                linewidth=1, zorder=1, label=f"seat {s}" if len(res.seats) > 1 else None)
        for d in ds:
            ax.scatter([d.number], [d.played_chance], marker="s" if d.exact else "o",
                       s=36 if d.exact else 22, color=_COLOURS[d.label], edgecolors="black",
                       linewidths=0.4, zorder=2)
    unknown = [d for d in res.decisions if d.played_chance is None]
    if unknown:
        ax.scatter([d.number for d in unknown], [-0.03] * len(unknown), marker="x", s=30,
                   color="grey", zorder=2)
    lost = res.lost_after
    if lost is not None:
        ax.axvline(lost.number, color="red", linewidth=0.8, alpha=0.6, zorder=0)
        ax.annotate(f"lost after move {lost.number} ({lost.played})",
                    (lost.number, 0.98), ha="left", va="top", fontsize=8, color="red")
    ax.set_ylim(-0.07, 1.05)
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
    if unknown:
        keys.append(Line2D([], [], marker="x", linestyle="", color="grey",
                           label="exact solve ran out"))
    if len(res.seats) > 1:
        keys = ax.get_legend_handles_labels()[0] + keys
    ax.legend(handles=keys, loc="center left", bbox_to_anchor=(1.01, 0.5), fontsize=8,
              frameon=False)
    fig.tight_layout()
    with whole_file(path, option="--plot") as tmp:  # a plot is written whole or not at all
        fig.savefig(tmp)
    plt.close(fig)


#: The terminal chart's eight heights, win chance 0 to 1 (and where the stream's
#: encoding has no block characters, eight ASCII ones).
_BARS = "\u2581\u2582\u2583\u2584\u2585\u2586\u2587\u2588"
_ASCII_BARS = "_.-~=+*#"


def _blocks_ok(stream: Any) -> bool:
    """Whether ``stream``'s encoding writes the chart's block characters."""
    try:
        _BARS.encode(getattr(stream, "encoding", None) or "ascii")
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def chance_chart(res: Review, blocks: bool = True) -> list[str]:
    """The terminal chart: per seat, the win chance of the move played at each
    decision as one character (eight heights, 0 to 1: block characters, or ASCII
    ones without ``blocks``; ``?`` where an exact solve ran out), and under it the
    move after which the game was lost (:attr:`Review.lost_after`, as in the
    table and the plot)."""
    bar = _BARS if blocks else _ASCII_BARS
    lines = []
    many = len(res.seats) > 1
    for s in res.seats:
        ds = [d for d in res.decisions if d.seat == s]
        if not ds:
            continue
        head = (_("seat {seat}").format(seat=s) if many else _("chance")) + " "
        bars = "".join("?" if d.played_chance is None
                       else bar[min(7, int(d.played_chance * 8))] for d in ds)
        lines.append(f"{head}{bars}  " + _(
            "(one column per decision, move {first} to {last}; {low} 0 .. {high} 1)").format(
                first=ds[0].number, last=ds[-1].number, low=bar[0], high=bar[-1]))
        lost = res.lost_after_of(s)
        if lost is not None:
            at = len(head) + ds.index(lost)
            lines.append(" " * at + _("^ lost after move {move}").format(move=lost.number))
    return lines


def plies_text(plies: list[int]) -> str:
    """``1-15, 17``: move numbers, runs of them as their ends."""
    runs: list[list[int]] = []
    for p in plies:
        if runs and p == runs[-1][1] + 1:
            runs[-1][1] = p
        else:
            runs.append([p, p])
    return ", ".join(str(a) if a == b else f"{a}-{b}" for a, b in runs)


def seen_cell(hs: Hindsight, ply: int) -> str:
    """The table's *every card seen* cell of move ``ply``: the value after it for the
    hindsight's seat -- ``win -> loss`` where the move changed it, ``not reached``
    where the budget gave it none."""
    before, after = hs.before(ply), hs.after(ply)
    if after is None:
        return _("not reached")
    if before is not None and before != after:
        return f"{value_word(before.text)} -> {value_word(after.text)}"
    return value_word(after.text)


def hindsight_chart(hs: Hindsight, blocks: bool = True) -> list[str]:
    """The terminal line of hindsight: one character per position along the game
    (before each move, then the end), the value for the seat with every card seen --
    the chart's lowest, middle and highest bars for loss, draw and win, ``?`` not
    reached -- and under it the move that decided the game in hindsight."""
    bar = _BARS if blocks else _ASCII_BARS
    marks = {"loss": bar[0], "draw": bar[3], "win": bar[-1]}
    head = _("every card seen") + " "
    cells = "".join("?" if p.value is None else marks[p.value.text] for p in hs.positions)
    lines = [head + cells + "  " + _(
        "(one column per position, move 1 to the end; {loss} loss, {draw} draw, {win} win, "
        "? not reached)").format(loss=marks["loss"], draw=marks["draw"], win=marks["win"])]
    turn = hs.decisive
    if turn is not None:
        lines.append(" " * (len(head) + turn.ply - 1) + _("^ decided at move {move}").format(
            move=turn.ply))
    return lines


def hindsight_lines(hs: Hindsight, symbols: bool) -> list[str]:
    """What hindsight says in words: the value's story along the game (``win until
    move 31 (seat 1 played take), loss after it``), the move that decided it and whose
    mistake that was, and the positions not reached; or the note why there is none."""
    if not hs.positions:
        return [hs.note] if hs.note else []
    valued = [p for p in hs.positions if p.value is not None]
    if not valued:
        return [_("every card seen, seat {seat}: no position was valued within the "
                  "review's time").format(seat=hs.seat)]
    turns = hs.turns
    parts = [_("{value} until move {n} (seat {seat} played {move})").format(
        value=value_word(t.before.text), n=t.ply, seat=t.seat, move=move_text(t.move, symbols))
        for t in turns]
    end = valued[-1].value
    assert end is not None
    parts.append(_("{value} after it").format(value=value_word(end.text)) if turns
                 else _("{value} from move {first} on").format(value=value_word(end.text),
                                                               first=valued[0].ply))
    lines = [_("every card seen, seat {seat}: {story}").format(seat=hs.seat,
                                                               story=", ".join(parts))]
    turn = hs.decisive
    if turn is not None:
        whose = (_("seat {seat}'s own mistake in hindsight") if turn.seat == hs.seat
                 else _("seat {seat}'s mistake in hindsight, a gift to seat {hero}")).format(
                     seat=turn.seat, hero=hs.seat)
        lines.append(_("decided with every card seen: move {n}, seat {seat} played {move}: "
                       "{before} -> {after} ({whose})").format(
                           n=turn.ply, seat=turn.seat, move=move_text(turn.move, symbols),
                           before=value_word(turn.before.text), after=value_word(turn.after.text),
                           whose=whose))
    missed = hs.not_reached
    if missed:
        lines.append(ngettext(
            "every card seen: not reached: move {moves} (its position was not solved in the "
            "review's time): no value guessed",
            "every card seen: not reached: moves {moves} (their positions were not solved in "
            "the review's time): no value guessed", len(missed)).format(
                moves=plies_text(missed)))
    return lines


def _chance(d: Decision, which: str) -> str:
    value = d.best_value if which == "best" else d.played_value
    chance = d.best_chance if which == "best" else d.played_chance
    if d.exact and value is not None:
        return value_word(value.text)
    return "?" if chance is None else percent(chance)


def _how(d: Decision, samples: int) -> str:
    if d.exact:
        return _("exact")
    if d.placed:
        return _("ran out")
    if d.cut:
        return f"{d.deals}/{d.wanted}"
    return _("all {n}").format(n=d.deals) if d.deals < samples else _("est.")


def print_review(res: Review, symbols: bool | None = None) -> None:
    """The review for people: a table of the decisions, the terminal chart, where
    the game was lost (and whether that move was decisive), the decisions left
    unclear and a summary per seat.  The moves as ``7♥/A♥`` at a terminal that
    shows the suit symbols (``symbols``: None asks
    :func:`~solver.notation.people.symbols_wanted`), else in ASCII; written whole
    when stdout is not a terminal (a file or a pipe is not squeezed to 80 columns)."""
    con = stdout_console()
    if not con.is_terminal:
        con.width = WIDE
    sym = symbols_wanted(sys.stdout) if symbols is None else symbols
    t = Table(title=_("review of seat {seats} (exact where every card is placed; estimates: the "
                      "hint at {n} deals, seed {seed})").format(
                          seats="+".join(map(str, res.seats)), n=number(res.samples),
                          seed=res.seed),
              title_justify="left")
    many = len(res.seats) > 1
    lost_at = {d.number for d in (res.lost_after_of(s) for s in res.seats) if d is not None}
    # every card seen: a column beside the decisions (the value after the move played)
    hs = res.hindsight if res.hindsight is not None and res.hindsight.positions else None
    rows: list[tuple[Decision | None, list[str]]] = []
    for d in res.decisions:
        loss = "" if d.loss is None else percent(d.loss)
        row = [str(d.number), str(d.seat), move_text(d.played, sym), _chance(d, "played"),
               move_text(d.best, sym) if d.best else "?", _chance(d, "best"), loss,
               label_word(d.label), _how(d, res.samples)]
        if hs is not None:
            row.append(seen_cell(hs, d.number))
        rows.append((d, row if many else row[:1] + row[2:]))
    if hs is not None:
        # and a row for each move of another seat that changed it (never a forced one)
        mine = {(d.number, d.seat) for d in res.decisions}
        for turn in hs.turns:
            if (turn.ply, turn.seat) not in mine:
                row = [str(turn.ply), str(turn.seat), move_text(turn.move, sym), "", "", "", "",
                       _("seat {seat}'s move").format(seat=turn.seat), "",
                       seen_cell(hs, turn.ply)]
                rows.append((None, row if many else row[:1] + row[2:]))
        rows.sort(key=lambda r: int(r[1][0]))
    # "loss" is a drop in chance here (not a defeat), "label" the verdict (not an estimate)
    heads = [("#", "right"), (_("seat"), "right"), (_("played"), "left"),
             (_("chance"), "right"), (_("best"), "left"), (_("best chance"), "right"),
             (pgettext("review column", "loss"), "right"),
             (pgettext("review column", "label"), "left"), (_("how"), "left")]
    if hs is not None:
        heads.append((pgettext("review column", "every card seen"), "left"))
    wraps = (pgettext("review column", "label"), pgettext("review column", "every card seen"))
    for i, (col, just) in enumerate(heads if many else heads[:1] + heads[2:]):
        # a narrow terminal wraps the headers and the verdicts at their spaces, never
        # cuts a move number, a move, a chance or how it was found
        cut_ok = col in wraps
        widest = max((len(r[i]) for _d, r in rows), default=1)
        t.add_column(col, justify=just, min_width=None if cut_ok else widest,  # type: ignore[arg-type]
                     no_wrap=False, overflow="fold")
    at = 7 if many else 6  # the label's column
    for dec, row in rows:  # (a row of another seat's move that changed hindsight: no decision)
        style = _STYLE[dec.label] if dec is not None else "dim"
        row[at] = f"[{style}]{row[at]}[/{style}]"
        t.add_row(*row, style="underline" if dec is not None and dec.number in lost_at else None)
    con.print(t)
    for line in chance_chart(res, blocks=_blocks_ok(sys.stdout)):
        con.print(line, highlight=False)
    if hs is not None:
        for line in hindsight_chart(hs, blocks=_blocks_ok(sys.stdout)):
            con.print(line, highlight=False)
    for s in res.seats:
        lost = res.lost_after_of(s)
        if lost is None:
            continue
        basis = _("exact") if lost.exact else _("estimated")
        drop = lost.played_chance is not None and lost.played_chance < 0.5
        con.print(_("lost after: move {n}, seat {seat} played {played}: {before} -> {after} "
                    "(best {best}, {basis}); ").format(
                        n=lost.number, seat=lost.seat, played=move_text(lost.played, sym),
                        before=_chance(lost, "best"), after=_chance(lost, "played"),
                        best=move_text(lost.best, sym), basis=basis)
                  + (_("decisive: its best chance never reached one half again") if drop
                     else _("the move kept an even chance; its best chance was below one half "
                            "at every decision after it")))
    for d in res.unsolved:
        con.print(_("unclear: move {n}, seat {seat} played {played}: {note}").format(
            n=d.number, seat=d.seat, played=move_text(d.played, sym), note=d.note))
    if res.not_reached:
        moves = ", ".join(map(str, res.not_reached))
        why = (_("the review's {seconds} s ran out first").format(seconds=f"{res.max_time:g}")
               if not res.interrupted and res.max_time is not None else _("interrupted"))
        con.print(ngettext("not reached: move {moves} ({why}): not reviewed",
                           "not reached: moves {moves} ({why}): not reviewed",
                           len(res.not_reached)).format(moves=moves, why=why))
    if res.hindsight is not None:
        for line in hindsight_lines(res.hindsight, sym):
            con.print(line, highlight=False)
    for summ in res.summaries:
        counts = label_counts(summ.labels)
        con.print(ngettext("seat {seat}: {n} decision ({exact} exact): {counts}; mean loss {loss}",
                           "seat {seat}: {n} decisions ({exact} exact): {counts}; mean loss {loss}",
                           summ.decisions).format(seat=summ.seat, n=summ.decisions,
                                                  exact=summ.exact, counts=counts or _("none"),
                                                  loss=percent(summ.mean_loss, 1)))
