"""`durak solve` and `durak analyse`: the exact endgame solver (S1, S2, issue 3).

Both print the value for the hero (the side to move with two players, ``--hero``
with more), the best moves, a principal variation, the distance in plies, the
nodes searched and the time.  ``analyse`` adds every legal move with its value
and distance, best first.  A budget that runs out (``--max-time``,
``--max-nodes``) or Ctrl-C exits 3 and prints what was proven.
"""
from __future__ import annotations

import sys
from contextlib import AbstractContextManager, nullcontext
from typing import TYPE_CHECKING, Any, Callable, cast

import click

from solver.answers.commands import solve_answer
from solver.cli.common import (MAX_NODES, ExitCode, Seconds, TableSize, cores_for_one, emit_json,
                               handles_errors, load_position, stderr_console, stdout_console,
                               table)
from solver.cli.hinttable import print_hint_table
from solver.game.defaults import has_hidden_cards
from solver.game.value import value_text
from solver.i18n import N_, _, ngettext, number, pgettext
from solver.notation.people import move_text, symbols_wanted, value_word

if TYPE_CHECKING:
    from solver.search import SolveResult
from solver.search import DEFAULT_MAX_TIME, DEFAULT_TT_MB, Solver

_STYLE = {"win": "bold green", "draw": "yellow", "loss": "bold red", "unknown": "dim"}


def _options(f: Callable[..., None]) -> Callable[..., None]:
    f = click.option("--threads", type=click.IntRange(1, 2), default=None,
                     help="Search threads: 2 on two cores or more (the default), 1 for "
                          "node counts that repeat exactly from run to run.")(f)
    f = click.option("--tt-mb", type=TableSize(), default=DEFAULT_TT_MB, show_default=True,
                     help="Transposition table size in MiB (at most half the machine's memory).")(f)
    f = click.option("--max-nodes", type=click.IntRange(1, MAX_NODES), default=None,
                     help="Stop after this many nodes (exit 3).")(f)
    f = click.option("--max-time", type=Seconds(), default=DEFAULT_MAX_TIME, show_default=True,
                     help="Stop after this many seconds (exit 3, what is proven is printed).")(f)
    f = click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")(f)
    f = click.option("--hero", type=click.IntRange(1), default=None,
                     help="Seat (1-based) the value is for; default the seat to move.")(f)
    f = click.argument("position")(f)
    return f


def _spinner() -> AbstractContextManager[Any]:
    """A rich spinner on stderr while searching, only when stderr is a terminal."""
    if not sys.stderr.isatty():
        return nullcontext()

    return stderr_console().status(_("solving") + "...", spinner="dots")


def _run(position: str, hero: int | None, as_json: bool, max_time: float | None,
         max_nodes: int | None, tt_mb: int,
         all_moves: bool, threads: int | None = None) -> None:
    pos = load_position(position)
    state = pos.state
    if hero is not None and hero > state.players and not (all_moves and has_hidden_cards(state)):
        raise click.BadParameter(_("seat {seat} is not in a {n}-player game").format(
            seat=hero, n=state.players), param_hint="--hero")
    with _spinner():
        ans = solve_answer(pos, hero, max_time=max_time, max_nodes=max_nodes,
                           solver=Solver(tt_mb, threads=threads or cores_for_one()),
                           all_moves=all_moves)
    if ans.budget is not None:
        click.echo("durak: " + _("budget: ") + ans.budget, err=True)
    if as_json:
        emit_json(ans.to_json())
    elif ans.kind == "hint":
        print_hint_table(ans.result)
    else:
        print_solve(cast("SolveResult", ans.result), all_moves)  # kind "solve"
    if ans.interrupted:
        click.echo("durak: " + _("interrupted"), err=True)
        sys.exit(int(ExitCode.INTERRUPTED))
    if not ans.exact:
        sys.exit(int(ExitCode.BUDGET))


def _unfinished(res: SolveResult, all_moves: bool) -> str:
    """What a partial answer with a proven value still lacks, in words."""
    parts = []
    if res.distance is None and res.lower != 0:
        parts.append(_("exact distance"))
    if not (res.best_complete and res.best):
        parts.append(_("best moves"))
    if all_moves and res.lower != 0 and any(m.distance is None for m in res.moves):
        parts.append(_("moves' distances"))
    if not res.pv:
        parts.append(_("variation"))
    if len(parts) < 2:
        return "".join(parts) or _("answer")
    return ", ".join(parts[:-1]) + _(" and ") + parts[-1]


def print_solve(res: SolveResult, all_moves: bool, symbols: bool | None = None) -> None:
    """The answer of `durak solve` (``all_moves``: `durak analyse`) for people: the
    moves as ``7♥/A♥`` at a terminal that shows the suit symbols (``symbols``: None
    asks :func:`~solver.notation.people.symbols_wanted`), else in ASCII."""
    con = stdout_console()
    sym = symbols_wanted(sys.stdout) if symbols is None else symbols

    def mt(moves: Any) -> str:
        return " ".join(move_text(m, sym) for m in moves)

    v = value_text(res.value)
    note = ""
    seat = _("seat {seat}:").format(seat=res.player)
    if res.exact:
        head = f"{seat} [{_STYLE[v]}]{value_word(v)}[/]"
    elif res.lower == res.upper:
        # the value is proven; the budget ran out on the distance, the moves or the variation
        head = f"{seat} [{_STYLE[res.lower.text]}]{value_word(res.lower.text)}[/]"
        note = " [dim](" + _("value proven; {what} not finished").format(
            what=_unfinished(res, all_moves)) + ")[/]"
    else:
        head = (f"{seat} [dim]" + _("not proven") + "[/] (" + _("between {lower} and {upper}")
                .format(lower=value_word(res.lower.text), upper=value_word(res.upper.text)) + ")")
    if res.distance is not None:
        head += " " + ngettext("in {n} ply", "in {n} plies", res.distance).format(n=res.distance)
    elif res.distance_lower is not None:
        # a decisive value whose distance the budget did not finish: what is proven
        if res.distance_upper is not None:
            head += " " + _("in {lo}-{hi} plies").format(lo=res.distance_lower,
                                                         hi=res.distance_upper)
        else:
            head += " " + ngettext("in {n} ply or more", "in {n} plies or more",
                                   res.distance_lower).format(n=res.distance_lower)
    head += note
    con.print(head)
    if res.best and (res.exact or res.best_complete):
        con.print(_("best: ") + mt(res.best))
    elif res.best:
        con.print(_("best so far: ") + mt(res.best) + " [dim]("
                  + _("proven; not every move asked") + ")[/]")
    if res.pv:
        con.print(_("pv:   ") + mt(res.pv))
    est = res.estimate
    if res.recommended is not None:
        con.print(_("recommended: ") + f"[bold]{move_text(res.recommended, sym)}[/] "
                  f"[dim]({_basis(res)})[/]")
    if est is not None:
        con.print("[dim]" + _("estimate (not a proof): {how}").format(how=_estimate_how(est))
                  + "[/]")
    scores = {m.move: m for m in est.moves} if est is not None else {}
    if all_moves and res.moves:
        t = table(show_header=True, header_style="bold")
        t.add_column(_("move"))
        t.add_column(pgettext("analyse column", "value"))
        t.add_column(_("distance"), justify="right")
        if est is not None:
            t.add_column(_("estimate"), justify="right")
            t.add_column(_("playouts"), justify="right")
        for m in _table_order(res):
            mv = value_text(m.value)
            row = [move_text(m.move, sym), f"[{_STYLE[mv]}]{value_word(mv)}[/]",
                   "" if m.distance is None else str(m.distance)]
            if est is not None:
                e = scores.get(m.move)
                row += ["", ""] if e is None else [_score_text(e), number(e.visits)]
            t.add_row(*row)
        con.print(t)
    elif est is not None and est.moves:
        con.print("[dim]" + _("estimate:") + "[/] " + "  ".join(
            f"{move_text(e.move, sym)} {_score_text(e)}" for e in est.moves[:8])
            + ("  ..." if len(est.moves) > 8 else ""))
    rate = res.nodes / res.seconds if res.seconds > 0 else 0.0
    con.print("[dim]" + ngettext("{nodes} node, {seconds} s, {rate} M nodes/s",
                                 "{nodes} nodes, {seconds} s, {rate} M nodes/s", res.nodes).format(
        nodes=number(res.nodes), seconds=number(res.seconds, 3),
        rate=number(rate / 1e6, 2)) + "[/]")


def _basis(res: SolveResult) -> str:
    """How the recommended move was chosen, in words (``recommend``'s rule; the web
    board's analysis says the same words)."""
    model = "" if res.estimate is None else " " + _("against {model}").format(
        model=_(_MODEL[res.estimate.model]))
    value = value_text(res.value)
    if res.recommended_by == "proof":
        return _("proven to keep the {value}").format(value=value_word(value))
    if res.recommended_by == "proof, estimate":
        every = (_("every move proven to lose") if value == "loss" else
                 _("every move proven to keep the {value}").format(value=value_word(value)))
        return every + "; " + _("picked by the estimate") + model
    if res.recommended_by == "estimate":
        return _("estimated{model}, not proven; no move proven worse ranks above it").format(
            model=model)
    return _("no move proven and no estimate: the first legal move")


#: The estimate's models of the other players, as said after "against".
_MODEL = {"coalition": N_("the others as one coalition"), "independent": N_("independent players")}


def _estimate_how(est: Any) -> str:
    how = ngettext("a UCT search against {model}, {n} playout, {seconds} s",
                   "a UCT search against {model}, {n} playouts, {seconds} s",
                   est.iterations).format(model=_(_MODEL[est.model]), n=number(est.iterations),
                                          seconds=number(est.seconds, 2))
    if est.interrupted:
        how += _(", cut short by Ctrl-C")
    return how + "; " + _("scores are the hero's mean result (+1 win, 0 draw, -1 loss)")


def _score_text(e: Any) -> str:
    if e.solved is not None:
        return _("{value} (solved)").format(value=value_word(e.solved.text))
    if not e.visits:
        return ""
    return ("+" if e.score >= 0 else "-") + number(abs(e.score), 2)


def _table_order(res: SolveResult) -> list[Any]:
    """The analyse table's rows: the moves as the answer ranks them, those not
    valued yet by the estimate (for the seat to move), the recommended first
    among them."""
    if res.estimate is None:
        return list(res.moves)
    rank = {m.move: i for i, m in enumerate(res.estimate.moves)}
    valued = [m for m in res.moves if m.value is not None]
    rest = sorted((m for m in res.moves if m.value is None),
                  key=lambda m: (m.move != res.recommended, rank.get(m.move, len(rank))))
    return valued + rest


@click.command("solve")
@_options
@handles_errors
def solve_command(position: str, hero: int | None, as_json: bool, max_time: float | None,
                  max_nodes: int | None, tt_mb: int, threads: int | None) -> None:
    """Solve POSITION exactly: value, best moves, principal variation, distance.

    Every card must be known (pile empty, or its order given); for hidden
    cards use `durak hint`.  Exit 3 when a budget runs out, with what was proven.
    """
    _run(position, hero, as_json, max_time, max_nodes, tt_mb, all_moves=False, threads=threads)


@click.command("analyse")
@_options
@handles_errors
def analyse_command(position: str, hero: int | None, as_json: bool, max_time: float | None,
                    max_nodes: int | None, tt_mb: int, threads: int | None) -> None:
    """Every legal move of POSITION with its exact value and distance, best first.

    On a position with hidden cards (S3) it shows the table of `durak hint`
    instead: every move's win chance over sampled deals.
    """
    _run(position, hero, as_json, max_time, max_nodes, tt_mb, all_moves=True, threads=threads)
