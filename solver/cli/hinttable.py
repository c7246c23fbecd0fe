"""The hint table at a terminal: one number per move, its chance, and how sure it is.

`durak hint`, and `durak analyse`, `durak play` and `durak game` on hidden cards,
print a :class:`~solver.hints.HintResult` here.  A player reads the chance of not
being the durak (a draw counted half) of every move with its 95% interval, to
the precision the interval supports (:attr:`HintResult.digits`); the
recommended move is starred (★, ``*`` in ASCII) and the moves as good as the
top are marked ``=``.  Under the table: the recommendation and how close the
call is, and what the others' moves told (:mod:`solver.hints.notes`).  The
engine's own figures -- the shares of deals won, drawn and lost, the mean
score, the card margin, how the deals were scored and weighed -- come with
``--verbose`` (the web board's details toggle).
"""
from __future__ import annotations

import sys
from typing import Any

from solver.cli.common import stdout_console, table
from solver.hints.notes import call_text
from solver.i18n import _, ngettext, number, percent, pgettext
from solver.notation.people import move_text, symbols_wanted

#: The width of the table written to a file or a pipe (as `durak review` does).
WIDE = 1000


def chance_cells(m: Any, digits: int) -> tuple[str, str]:
    """A move's chance and its 95% interval as the table prints them."""
    # the figures as --json and the web board have them (4 decimals), so that a share
    # on the edge of a point rounds the same way at the terminal and on the board
    lo, hi = (round(x, 4) for x in m.chance_ci95)
    interval = "" if hi - lo < 1e-9 else f"{percent(lo, digits)}\u2013{percent(hi, digits)}"
    return percent(round(m.chance, 4), digits), interval


def signed(x: float, digits: int) -> str:
    """``x`` with its sign, as the current language writes numbers (``+0.209``, ``−0,666``)."""
    return ("+" if x >= 0 else "\u2212") + number(abs(x), digits)


def how_text(res: Any) -> str:
    """How many deals were looked at, for a player."""
    if res.kind == "exact" and res.exhaustive:
        return ngettext("every card placed: {n} deal, solved exactly",
                        "every possible deal of the unseen cards: {n} deals, each solved exactly",
                        res.samples).format(n=number(res.samples))
    if res.exhaustive:
        return ngettext("every possible deal of the unseen cards: {n} deal",
                        "every possible deal of the unseen cards: {n} deals",
                        res.samples).format(n=number(res.samples))
    return ngettext("{n} deal of the unseen cards looked at",
                    "{n} deals of the unseen cards looked at", res.samples).format(
                        n=number(res.samples))


def print_hint_table(res: Any, symbols: bool | None = None, verbose: bool = False) -> None:
    """The hint table of ``res``; the moves for people (``7♥/A♥``) at a terminal that
    shows the suit symbols (``symbols``: None asks
    :func:`~solver.notation.people.symbols_wanted`), else in ASCII; ``verbose``:
    the engine's figures too."""
    con = stdout_console()
    if not con.is_terminal:  # a file or a pipe is not squeezed to 80 columns
        con.width = WIDE
    sym = symbols_wanted(sys.stdout) if symbols is None else symbols
    mine = getattr(res, "mine", True)
    digits = res.digits
    title = _("seat {seat} asks, seat {to_move} to move: {how} (seed {seed}, {seconds} s)").format(
        seat=res.player, to_move=res.to_move, how=how_text(res), seed=res.seed,
        seconds=number(res.seconds, 2))
    t = table(title=title, title_justify="left")
    t.add_column("", no_wrap=True, min_width=1)  # the recommended move's mark, and "as good"
    t.add_column(_("move"), no_wrap=True, min_width=5)
    t.add_column(_("chance") + " " + ("\u25bc" if mine else "\u25b2"), justify="right",
                 no_wrap=True)
    t.add_column(_("95% interval"), justify="right", no_wrap=True)
    if verbose:
        for name in (_("deals won"), _("drawn"), _("lost"), _("mean score"), _("best in"),
                     _("card margin")):
            t.add_column(name, justify="right", no_wrap=True)
    star = "\u2605" if sym else "*"
    for m in res.moves:
        shown = move_text(m.move, sym)
        mark = star if m.move == res.best else "=" if m.as_good else ""
        name = f"[bold]{shown}[/bold]" if m.move == res.best else shown
        cells = [mark, name, *chance_cells(m, digits)]
        if verbose:
            cells += [percent(m.win, 1), percent(m.draw, 1), percent(m.loss, 1),
                      signed(m.score, 3), percent(m.best), signed(m.margin, 2)]
        t.add_row(*cells)
    con.print(t)
    best = res.move(res.best)
    chance, interval = chance_cells(best, digits)
    whose = "" if mine else " " + _("(seat {seat} moves: its best is your lowest chance)").format(
        seat=res.to_move)
    con.print(_("recommended: {best} ({star}), your chance {chance}{interval}{whose}").format(
        best=f"[bold]{move_text(res.best, sym)}[/bold]", star=star, chance=chance,
        interval=f" ({interval})" if interval else "", whose=whose))
    call = call_text(res, sym)
    if call:
        con.print(call)
    for note in getattr(res, "learned", ()):
        con.print(note.text(sym))
    con.print("[dim]" + _("The chance of not being the durak (a draw counts half), over the "
                          "deals of the cards you cannot see; = marks a move as good as the "
                          "best within the noise.") + "[/dim]")
    if verbose:
        for line in engine_lines(res, sym):
            con.print(f"[dim]{line}[/dim]")


def engine_lines(res: Any, symbols: bool = False) -> list[str]:
    """The engine's details (``--verbose``): how the deals were dealt and scored,
    weighed and what the others' moves changed in the scoring."""
    by = (_("a {n}-iteration search averaged with a greedy playout").format(
        n=number(res.iterations)) if res.iterations else _("greedy playouts"))
    kind = {"exact": _("each solved exactly"),
            "estimate": _("each scored by {by} (an estimate)").format(by=by),
            "mixed": _("{exact} solved exactly, {rest} by {by} (an estimate)").format(
                exact=number(res.exact_deals), rest=number(res.samples - res.exact_deals),
                by=by)}[res.kind]
    lines = [_("{n} deals of {total} possible, {kind}").format(
        n=number(res.samples), total=number(res.deals_total), kind=kind)]
    if res.facts:
        lines.append(_("{facts} fact(s) from who was asked to throw in (F2): {rejected} deal(s) "
                       "ruled out, {aside} set aside to follow their likelihood; {effective} "
                       "effective deals").format(
                           facts=res.facts, rejected=number(res.rejected),
                           aside=number(res.set_aside), effective=number(res.effective_deals)))
    if res.not_greedy and res.iterations:
        lines.append(_("seat(s) {seats} seen leaving the greedy player's move: the greedy playout "
                       "weighs {weight} in a searched deal's score").format(
                           seats=", ".join(str(s) for s in res.not_greedy),
                           weight=number(res.playout_weight, 1)))
    if res.choice is not None:
        lines.append(_("top: {top}; as good: {good} (paired test on the same deals, within "
                       "two points); recommended by {reason}").format(
                           top=move_text(res.choice.top, symbols),
                           good=", ".join(move_text(m, symbols) for m in res.choice.as_good),
                           reason=reason_word(res.choice.reason)))
    return lines


def reason_word(reason: str) -> str:
    """Why the recommended move was kept among the as-good ones, in a word or two
    (:data:`solver.hints.ranking.REASONS`)."""
    words = {"chance": pgettext("hint reason", "chance"),
             "plain": pgettext("hint reason", "the thriftier play"),
             "margin": pgettext("hint reason", "card margin"),
             "exact": pgettext("hint reason", "every deal solved"),
             "utility": pgettext("hint reason", "utility")}
    return words.get(reason, reason)


__all__ = ["chance_cells", "engine_lines", "how_text", "print_hint_table", "reason_word", "signed"]
