"""`durak puzzle train` at the prompt, and the puzzle board `durak puzzle show` draws.

The player moves for the puzzle's hero (solver/puzzles/train.py judges each move
and answers for the others); the board, the moves offered, the replies, the
hints and the refutations are written for people -- ``10♥``, ``8♣/Т♥`` in the
player's letters at a terminal that shows the suit symbols, the notation
(``TH``) on a pipe (:func:`~solver.notation.people.symbols_wanted`) -- and the
tally at the end counts only the puzzles played to their end.
"""
from __future__ import annotations

import re
import sys
from typing import Any, Callable, Iterable

import click

from solver.cli.common import outcome_text
from solver.errors import DurakError, MoveError
from solver.game.cards import SUIT_SYMBOLS, SUITS, cards_of, parse_card
from solver.game.movegen import legal_moves, play
from solver.game.moves import Move
from solver.game.outcome import outcome_info, seat_roles
from solver.game.state import NO_COVER, GameState
from solver.games.narration import result_text
from solver.i18n import N_, _, current, ngettext
from solver.notation.people import (card_text, cards_text, move_sentence, move_text, move_word,
                                    role_words, rules_text, symbols_wanted)
from solver.puzzles import train
from solver.puzzles.collection import Puzzle


def board_lines(state: GameState, symbols: bool = False) -> list[str]:
    """A plain text picture of a position: trump, each hand, the table, who moves
    (the cards as ``10♥``, ``Д♠`` where ``symbols``, else in the notation)."""
    suit = SUIT_SYMBOLS[state.trump] if symbols else SUITS[state.trump]
    names = state.rules.names()
    lines = [_("Trump: {suit}").format(suit=suit)
             + ("   " + _("rules: {rules}").format(rules=rules_text(names)) if names else "")]
    for s in range(state.players):
        role = [r for r in seat_roles(state, s) if r != "out"]
        tag = f" ({role_words(role)})" if role else ""
        cards = cards_text(cards_of(state.hands[s]), symbols) or "-"
        lines.append("  " + _("Seat {seat}").format(seat=s + 1) + f"{tag}: {cards}")
    if state.table:
        pairs = " ".join(card_text(a, symbols) + ("/" + card_text(c, symbols)
                                                  if c != NO_COVER else "")
                         for a, c in state.table)
        extra = "   " + _("(take said)") if state.take else ""
        lines.append("  " + _("Table: {pairs}").format(pairs=pairs) + extra)
    return lines


def told_end(state: GameState) -> str:
    """How a game ended, in the player's words (``seat 2 is the durak``)."""
    info = outcome_info(state)
    return result_text(info) if info is not None else outcome_text(state)


class Quit(Exception):
    """The player left (``quit``, Ctrl-D, the end of the input)."""


def _read(prompt: str) -> str:
    """One line from the user; a terminal gets line editing, a pipe is echoed."""
    if sys.stdin.isatty():
        try:
            return input(prompt).strip()
        except EOFError:
            click.echo("")
            raise Quit() from None
    click.echo(prompt, nl=False)
    line = sys.stdin.readline()
    if not line:
        click.echo("")
        raise Quit()
    click.echo(line.rstrip("\n"))  # echo piped input so a transcript reads well
    return line.strip()


SUIT_NAMES = (N_("a spade"), N_("a heart"), N_("a diamond"), N_("a club"))


class Trainer:
    """Puzzles at the prompt, one after another; ``symbols``: the cards for people."""

    def __init__(self, solver: Any, symbols: bool | None = None):
        self.solver = solver
        self.sym = symbols_wanted(sys.stdout) if symbols is None else symbols
        self.missed = False  # the puzzle being played had a hint or a wrong move

    def moves(self, moves: Any) -> str:
        return " ".join(move_text(m, self.sym) for m in moves)

    def run(self, puzzles: Iterable[Puzzle],
            after: Callable[[Puzzle, bool], object] | None = None) -> None:
        """Every puzzle in turn until the player quits (``after`` told each result);
        then the tally of the puzzles played to their end (one left in the middle is
        not counted as missed by the tally; but one left after a hint or a wrong move
        is told to ``after`` as missed: quitting does not undo a miss)."""
        total = len(puzzles) if isinstance(puzzles, list) else None
        solved = finished = started = 0
        current = None
        try:
            for p in puzzles:
                started += 1
                current, self.missed = p, False
                clean = self.one(p)
                finished += 1
                solved += clean
                current = None
                if after is not None:
                    after(p, clean)
        except Quit:
            if after is not None and current is not None and self.missed:
                after(current, False)
        left = (total if total is not None else started) - finished
        said = []
        if finished:
            said.append(ngettext("Solved {solved} of {n} puzzle cleanly.",
                                 "Solved {solved} of {n} puzzles cleanly.", finished).format(
                                     solved=solved, n=finished))
        if left:
            said.append(ngettext("{n} puzzle left unfinished.", "{n} puzzles left unfinished.",
                                 left).format(n=left))
        click.echo(" ".join(said))

    def hint_text(self, state: GameState, good: list[str], level: int) -> str:
        """First a nudge (what kind of move, which suit), then the move itself."""
        if level > 0:
            return _("Hint: {moves} works here.").format(
                moves=_(" or ").join(move_text(m, self.sym) for m in good))
        nudges = []
        for m in good:
            mv = Move.parse(m, state.rules.deck)
            k = int(mv.kind)
            c = mv.cards[0] if mv.cards else -1
            kind_of = (_("a trump") if c >= 0 and c // 13 == state.trump
                       else _(SUIT_NAMES[c // 13]) if c >= 0 else "")
            if k == 0:
                nudges.append(_("lead several cards at once") if len(mv.cards) > 1
                              else _("lead {kind}").format(kind=kind_of))
            elif k == 1:
                nudges.append(_("cover {card} with {kind}").format(
                    card=card_text(mv.target, self.sym), kind=kind_of))
            elif k == 2:
                nudges.append(_("ask yourself whether you must cover at all"))
            elif k in (3, 4):
                nudges.append(_("think about a transfer"))
            elif k == 5:
                nudges.append(_("throw in {kind}").format(kind=kind_of))
            else:
                nudges.append(_("think about passing"))
        text = _("Hint: {nudges}.").format(nudges=_(" or ").join(dict.fromkeys(nudges)))
        return text + " " + _("Type hint again for the move.")

    def one(self, p: Puzzle) -> bool:
        """Play one puzzle at the prompt; True when solved without a mistake."""
        state = p.state()
        click.echo("")
        click.echo(f"== {p.id}   [{p.collection}]")  # the title, which may give the idea away,
        click.echo(f"{p.task_text}.")                  # comes after the answer
        clean = True
        hints = 0
        shown = None
        while not state.is_over:
            if not train.mine(p, state):
                reply = train.best_reply(p, state, self.solver)
                click.echo(move_sentence(reply, state.to_move + 1, symbols=self.sym) + ".")
                state = play(state, reply)
                continue
            if state is not shown:
                for line in board_lines(state, self.sym):
                    click.echo(line)
                shown = state
            legal = {str(m): m for m in legal_moves(state)}
            text = _read(_("Seat {seat} to move> ").format(seat=state.to_move + 1))
            low = text.lower()
            if low in ("quit", "q", "exit"):
                raise Quit()
            if low in ("hint", "h", "?"):
                good, _an = train.good_moves(p, state, self.solver)
                click.echo(self.hint_text(state, good, hints))
                hints += 1
                clean, self.missed = False, True
                continue
            if low in ("moves", "m"):
                click.echo(_("Legal moves: {moves}").format(moves=self.moves(legal)))
                continue
            if low in ("show", "board", "s"):
                shown = None
                continue
            if not text:
                continue
            try:
                mv = Move.parse(move_word(text), state.rules.deck)
            except MoveError as e:
                error: DurakError = e
                if re.fullmatch(r"[+>!]*(10|\S)\S", text):  # a card mistyped: its own error
                    try:
                        parse_card(text.lstrip("+>!"), state.rules.deck)
                    except DurakError as card_error:
                        error = card_error
                click.echo(_("Not a move: {error}. Type moves, hint, show or quit.").format(
                    error=error))
                continue
            name = str(mv)
            if name not in legal:
                click.echo(_("{move} is not legal here. Legal moves: {moves}").format(
                    move=move_text(name, self.sym), moves=self.moves(legal)))
                continue
            if not self.judged(p, state, name):
                clean, self.missed = False, True
                continue
            hints = 0
            state = play(state, legal[name])
        click.echo(_("Game over: {how}").format(how=told_end(state)) + ".")
        click.echo(_("Solved!") if clean else _("Finished, with help or a mistake on the way."))
        click.echo(f"({p.id}: {p.text('title', current())})")
        if p.comment:
            click.echo(move_text(p.text("comment", current()), self.sym))
        return clean

    def judged(self, p: Puzzle, state: GameState, name: str) -> bool:
        """Say whether the player's legal move ``name`` keeps the task in reach (and
        the refutation when it does not); True when it does."""
        j = train.judge(p, state, name, self.solver)
        shown = move_text(name, self.sym)
        if j.ok:
            click.echo(_("{move}: correct.").format(move=shown) if len(j.good) == 1
                       else _("{move}: good.").format(move=shown))
            return True
        words = j.words(p.task)
        click.echo(ngettext("Wrong: after {move} {words} against best play ({n} ply).",
                            "Wrong: after {move} {words} against best play ({n} plies).",
                            j.distance).format(move=shown, words=words, n=j.distance)
                   if j.distance is not None else
                   _("Wrong: after {move} {words} against best play.").format(move=shown,
                                                                               words=words))
        if j.refutation:
            tail = (" -- " + told_end(j.end) if j.end is not None and j.end.is_over else "")
            click.echo(_("Refutation: {line}").format(line=self.moves(j.refutation)) + tail)
        click.echo(_("Try again (hint shows a move that works, quit stops)."))
        return False


__all__ = ["Quit", "Trainer", "board_lines", "told_end"]
