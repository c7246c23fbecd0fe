"""The game as it is told at a table: what a player hears after each entry.

After every accepted entry of a :class:`~solver.games.session.GameSession` the
narration says what happened, as the asking seat (the player) may know it:

* ``move``: a seat's move (``Seat 2 covers 6♣ with A♣``) -- but not another seat's
  pass, which is told as ``done`` at the bout's end;
* ``done``: at the end of a bout, each other seat that could have added cards
  to it (``Seat 2: done``), told the same way whether it passed or was never
  asked: the engine asks a thrower only when he holds a card he may add (F2),
  and no real table tells that (docs/rules.md, under F2; issue 68);
* ``beaten``: the bout was beaten off, its cards go to the discards (R15);
* ``taken``: the defender picks the bout's cards up (R16);
* ``transferred``: the bout passes to the next defender (R14);
* ``draw``: a seat draws from the pile (R17, in the order it draws): how many;
  the player's own cards by name, another seat's only the face-up trump (the
  one card of the pile everybody saw);
* ``pile``: the pile has run out;
* ``out``: a seat has no cards left and the pile is empty (F7, R19);
* ``turn``: the next bout: who leads against whom (R18);
* ``over``: how the game ended (R20-R22).

The narration is told from the record's replay (:class:`~solver.games.replay.Replay`,
its ``steps``), so it holds no rule of its own, and names no card the player
has not seen: in a game against the engine the record knows every card, the
narration only those the player saw.  In a followed game the player names his
own drawn cards in an entry of their own (``draw 7H KD``); his draw is told
then, once, with the cards.

Both front ends print it: `durak play` and `durak game` as lines between the
moves, the web board as its game log.  The texts are for people
(:mod:`solver.notation.people`: ``10♠``, no rule ids) in the player's language
(:mod:`solver.i18n`: each line a whole sentence per person, ``You take`` and ``Seat 2
takes`` apart, numbers of cards in the language's plural forms); a :class:`Told` holds
no words, so the same game is told in another language as soon as it is asked in one.
``to_json`` keeps the ASCII cards for programs.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver.game.cards import bit, cards_of, count
from solver.game.moves import Kind, Move
from solver.game.outcome import outcome_info
from solver.game.state import NO_COVER, GameState
from solver.games.record import Game
from solver.games.replay import Event
from solver.i18n import _, ngettext
from solver.notation.people import card_text, cards_text, drop_rule_ids, move_sentence

#: The kinds of :class:`Told`, in the order a bout's end tells them.
KINDS = ("move", "transferred", "done", "beaten", "taken", "draw", "pile", "out", "over", "turn")
#: The kinds that end a bout.
BOUT_ENDS = ("beaten", "taken")


@dataclass(frozen=True)
class Told:
    """One thing said at the table.

    ``kind``: one of :data:`KINDS`; ``seat``: who it is about (1-based: the mover,
    the defender whose bout ended, the drawer, the seat out, the new attacker);
    ``me``: the player's seat, told as "you"; ``cards``: the cards named (a move's,
    the bout's, the player's own draw, the face-up trump another seat drew);
    ``count``: how many cards (drawn, picked up, discarded); ``to``: the seat a
    bout is led against or transferred to; ``move``: the move (``move``);
    ``outcome``: how the game ended (``over``, :func:`~solver.game.outcome.outcome_info`).
    """

    kind: str
    seat: int
    me: int
    cards: tuple[int, ...] = ()
    count: int = 0
    to: int = 0
    move: Move | None = None
    outcome: dict[str, Any] | None = None

    def text(self, symbols: bool = True) -> str:
        """The line a player reads (suit symbols unless ``symbols`` is false), in the
        current language."""
        you = self.seat == self.me
        cards = cards_text(self.cards, symbols)
        seat, n, to = self.seat, self.count, self.to
        k = self.kind
        if k == "move":
            assert self.move is not None
            return move_sentence(self.move, seat, you, symbols)
        if k == "done":
            return _("Seat {seat}: done").format(seat=seat)
        if k == "transferred":
            return (_("The bout passes to you") if you
                    else _("The bout passes to seat {seat}")).format(seat=seat)
        if k == "beaten":
            return (_("Beaten off by you: {cards} to the discards") if you
                    else _("Beaten off by seat {seat}: {cards} to the discards")).format(
                        seat=seat, cards=cards)
        if k == "taken":
            text = (ngettext("You pick up {n} card: {cards}", "You pick up {n} cards: {cards}", n)
                    if you else ngettext("Seat {seat} picks up {n} card: {cards}",
                                         "Seat {seat} picks up {n} cards: {cards}", n))
            return text.format(seat=seat, n=n, cards=cards)
        if k == "draw":
            if you and self.cards:
                return _("You draw {cards}").format(cards=cards)
            if not self.cards:
                text = (ngettext("You draw {n} card", "You draw {n} cards", n) if you
                        else ngettext("Seat {seat} draws {n} card", "Seat {seat} draws {n} cards",
                                      n))
                return text.format(seat=seat, n=n)
            # another seat's draw whose last card is the face-up trump, the pile's last
            text = ngettext("Seat {seat} draws {n} card, the last the face-up {cards}",
                            "Seat {seat} draws {n} cards, the last the face-up {cards}", n)
            return text.format(seat=seat, n=n, cards=cards)
        if k == "pile":
            return _("The pile is empty")
        if k == "out":
            return (_("You are out: no cards left") if you
                    else _("Seat {seat} is out: no cards left")).format(seat=seat)
        if k == "turn":
            if you:
                return _("You lead against seat {to}").format(to=to)
            if to == self.me:
                return _("Seat {seat} leads against you").format(seat=seat)
            return _("Seat {seat} leads against seat {to}").format(seat=seat, to=to)
        assert self.outcome is not None
        score = self.outcome["scores"][self.me - 1]
        return game_over(self.outcome, score)

    def to_json(self, symbols: bool = True) -> dict[str, Any]:
        """The event for programs (ASCII cards and move) with its ``text`` for people."""
        return {"kind": self.kind, "seat": self.seat,
                "cards": [card_text(c, False) for c in self.cards], "count": self.count,
                "to": self.to or None, "move": str(self.move) if self.move else None,
                "text": self.text(symbols)}


#: The rule that decides each kind of result (cited with ``--verbose``).
RESULT_RULES = {"durak": "R20", "draw": "R20", "first_out": "R21", "team_lost": "R22"}


def result_text(outcome: dict[str, Any], ids: bool = False) -> str:
    """How a game ended, in words (R20-R22), from
    :func:`~solver.game.outcome.outcome_info`'s data (its ``text`` stays English: JSON);
    ``ids``: with the rule's id, as ``--verbose`` cites them (``... durak (R20)``)."""
    text = _result_words(outcome)
    rule = RESULT_RULES.get(str(outcome.get("result")))
    return f"{text} ({rule})" if ids and rule else text


def _result_words(outcome: dict[str, Any]) -> str:
    seats = "+".join(str(x) for x in outcome.get("winners") or outcome.get("draws") or [])
    result = outcome.get("result")
    if result == "durak":
        return _("seat {seat} is the durak").format(seat=outcome["durak"])
    if result == "team_lost":
        return _("the team of seats {seats} loses").format(
            seats="+".join(str(x) for x in outcome["losers"]))
    if result == "first_out":
        return (_("seat {seats} went out first and wins") if outcome.get("winners")
                else _("seats {seats} went out together and share the win")).format(seats=seats)
    if "nobody" not in outcome.get("text", "nobody"):  # the first out wins (R21): a draw of some
        return _("draw: seats {seats} went out together").format(
            seats="+".join(str(x) for x in outcome.get("draws") or []))
    return _("draw: nobody holds cards")


def verdict(score: float) -> str:
    """The player's result in words."""
    return _("you win") if score > 0 else _("you lose") if score < 0 else _("a draw for you")


def game_over(outcome: dict[str, Any], score: float, ids: bool = False) -> str:
    """The line that ends the game: how it ended and what it means for the player
    (``ids``: the rule's id too, as ``--verbose`` cites it)."""
    return _("Game over: {how}; {verdict}").format(how=result_text(outcome, ids),
                                                   verdict=verdict(score))


def narrate(before: Game, events: list[Event]) -> list[list[Told]]:
    """What is told after each of ``events`` (a record's moves and draws that follow
    the record ``before``): one list per event, from ``before``'s asking seat."""
    r = before.replay().copy()
    me = before.me
    full = before.full
    # a draw of the player's that the record has yet to name (a followed game)
    pending: tuple[int, int] | None = None
    if r.draw_due:
        pending = (r.draw_due + count(r.draw_known), r.draw_known)
    out: list[list[Told]] = []
    for ev in events:
        r.steps = []
        r.apply(ev)
        told: list[Told] = []
        for s, mv, nxt in r.steps:
            step = _tell_move(s, mv, nxt, me, full)
            if not full and nxt.hidden[me] > s.hidden[me] and s.table and not nxt.table:
                got = nxt.hand_size(me) - _before_draw(s, mv, me)
                known = nxt.hands[me] & ~s.hands[me] & ~_bout_cards(s, mv)
                pending = (got, known)
                step = [t for t in step if t.kind != "turn"]  # told after the draw
            told.extend(step)
        if ev.kind == "draw" and pending is not None:
            named = sum(bit(c) for c in ev.cards) | pending[1]
            told.append(Told("draw", me + 1, me + 1, tuple(cards_of(named)), pending[0]))
            pending = None
            now = r.state
            if not now.table and not now.is_over:
                told.append(Told("turn", now.attacker + 1, me + 1, to=now.defender + 1))
        out.append(told)
    return out


def _bout_cards(s: GameState, mv: Move) -> int:
    """The cards on the table once ``mv`` is played from ``s`` (a cover's and a
    throw-in's card join them)."""
    table = s.table_mask
    if mv.kind in (Kind.COVER, Kind.THROW):
        table |= bit(mv.cards[0])
    return table


def _bout_order(s: GameState, mv: Move) -> tuple[int, ...]:
    """The bout's cards in the order they lie: each attack card, then its cover."""
    pairs = list(s.table)
    if mv.kind is Kind.COVER:
        pairs = [(a, mv.cards[0] if a == mv.target else c) for a, c in pairs]
    elif mv.kind is Kind.THROW:
        pairs.append((mv.cards[0], NO_COVER))
    return tuple(x for a, c in pairs for x in (a, c) if x != NO_COVER)


def _played(s: GameState, mv: Move, seat: int) -> int:
    """How many cards ``seat`` puts from its hand on the table with ``mv``."""
    if seat != s.to_move or mv.kind not in (Kind.LEAD, Kind.COVER, Kind.THROW, Kind.TRANSFER):
        return 0
    return len(mv.cards)


def _before_draw(s: GameState, mv: Move, seat: int) -> int:
    """``seat``'s hand size once ``mv`` has ended the bout, before the draws."""
    size = s.hand_size(seat) - _played(s, mv, seat)
    if seat == s.defender and (s.take or mv.kind is Kind.TAKE):
        size += count(_bout_cards(s, mv))
    return size


def _tell_move(s: GameState, mv: Move, nxt: GameState, me: int, full: bool) -> list[Told]:
    """What is told of one move from ``s`` to ``nxt`` (0-based seats inside)."""
    mover = s.to_move
    you = me + 1
    told = []
    if mv.kind is not Kind.PASS or mover == me:  # another seat's pass: "done" at the end
        told.append(Told("move", mover + 1, you, tuple(mv.cards), move=mv))
    if mv.kind in (Kind.TRANSFER, Kind.SHOW):
        told.append(Told("transferred", nxt.defender + 1, you))
    ended = bool(s.table) and not nxt.table
    if ended:
        table = _bout_cards(s, mv)
        d = s.defender
        for x in ((s.attacker + k) % s.players for k in range(s.players)):
            if x not in (me, d) and s.hand_size(x) > 0:
                told.append(Told("done", x + 1, you))
        kind = "taken" if s.take or mv.kind is Kind.TAKE else "beaten"
        told.append(Told(kind, d + 1, you, _bout_order(s, mv), count(table)))
        if s.pile > 0:
            n = s.players
            order = [x for x in ((s.attacker + k) % n for k in range(n)) if x != d] + [d]
            face_up = s.trump_card if nxt.pile == 0 and s.trump_card >= 0 else -1
            for x in order:
                got = nxt.hand_size(x) - _before_draw(s, mv, x)
                if got <= 0:
                    continue
                if x == me:
                    if not full and nxt.hidden[me] > s.hidden[me]:
                        continue  # told when the player names them (narrate)
                    known = nxt.hands[me] & ~s.hands[me] & ~table
                else:
                    known = bit(face_up) & nxt.hands[x] if face_up >= 0 else 0
                told.append(Told("draw", x + 1, you, tuple(cards_of(known)), got))
            if nxt.pile == 0:
                told.append(Told("pile", 0, you))
    for x in range(s.players):
        if s.active(x) and not nxt.active(x):
            told.append(Told("out", x + 1, you))
    if nxt.is_over:
        told.append(Told("over", 0, you, outcome=outcome_info(nxt)))
    elif ended:
        told.append(Told("turn", nxt.attacker + 1, you, to=nxt.defender + 1))
    return told


__all__ = ["BOUT_ENDS", "KINDS", "Told", "game_over", "narrate", "result_text", "verdict"]
