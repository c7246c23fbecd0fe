"""Replaying a game record from one seat's view (docs/game-record.md).

A record may know every card (a full record: every deal and the pile order)
or only the asking seat's deal and draws.  The replay keeps a
:class:`GameState` in which each hand holds the cards the record has shown to
be there -- the seat's own cards, cards picked up in a take (R16), the face-up
trump drawn (R17) or swapped (R7) -- and ``hidden`` counts the rest.  A card an
opponent plays from his hidden cards becomes visible when it is played: it is
moved into his hand just before the move, and must be a card nobody has seen
yet.  Draws follow the rules (R17): the replay knows who draws how many; the
asking seat's own drawn cards come from the record's ``draw`` items.

Seats are 0-based here; the messages are 1-based.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from solver.errors import HiddenCardsError, IllegalMoveError, RecordError
from solver.game.cards import DECK_LOW_RANK, bit, card_name, count, make_card
from solver.game.movegen import apply_move, legal_moves, play
from solver.game.moves import PASS, Kind, Move
from solver.game.state import GameState, Phase
from solver.i18n import _, ngettext


@dataclass(frozen=True)
class Event:
    """One item of the moves section: a move (``seat``, ``move``) or the asking
    seat's ``draw`` (``cards``).  ``number`` is the move's number (1-based; for a
    draw, the number of the move that ended the bout) and ``token`` its text."""

    kind: str  # "move" or "draw"
    seat: int = -1
    move: Move | None = None
    cards: tuple[int, ...] = ()
    token: str = ""
    number: int = 0

    @property
    def where(self) -> str:
        if self.kind == "draw":
            return f"move {self.number} draw {self.token!r}"
        return f"move {self.number} {self.token!r}"


def place(state: GameState, card: int) -> str:
    """Where a card already seen lies (for error messages)."""
    b = bit(card)
    if state.out & b:
        return _("it was discarded")
    if state.table_mask & b:
        return _("it is on the table")
    for s, h in enumerate(state.hands):
        if h & b:
            return _("it is in seat {seat}'s hand").format(seat=s + 1)
    if state.trump_card == card:
        return _("it is the face-up trump")
    if state.pile_order is not None and card in state.pile_order:
        return _("it is still in the pile")
    return _("it was seen before")


def seen(state: GameState, card: int) -> bool:
    """Is the card's place known in ``state``?"""
    return bool(state.all_cards() & bit(card))


@dataclass
class Replay:
    """The states of a record: ``before[i]`` is the state before record move i+1
    (after any implicit passes, below), ``state`` the state now."""

    state: GameState
    me: int
    before: list[GameState] = field(default_factory=list)
    moves: list[tuple[int, Move]] = field(default_factory=list)
    _draw_hidden: int = 0      # cards the asking seat drew unseen at the last bout end
    _draw_known: int = 0       # cards it drew that were already known (pile order, face-up trump)
    _draw_open: bool = False   # a draw item may follow now
    #: When a list, every move applied is appended as (state before, move, state
    #: after) -- the implicit passes of hidden throwers included: what the game's
    #: narration (:mod:`solver.games.narration`) tells.  Not copied by :meth:`copy`.
    steps: list[tuple[GameState, Move, GameState]] | None = None

    def copy(self) -> "Replay":
        """An independent copy (the states are immutable; the lists are copied)."""
        return Replay(self.state, self.me, list(self.before), list(self.moves),
                      self._draw_hidden, self._draw_known, self._draw_open)

    @property
    def draw_known(self) -> int:
        """The cards the asking seat drew at the bout that has just ended that were
        known already (the face-up trump, a known pile order): a draw may name them."""
        return self._draw_known if self._draw_open else 0

    @property
    def draw_due(self) -> int:
        """How many unseen cards the asking seat drew at the bout that has just
        ended (R17) and the record has not named yet: a ``draw`` item may follow
        now, and only now."""
        return self._draw_hidden if self._draw_open else 0

    # ------------------------------------------------------------ moves
    def implicit_passes(self, seat: int, move: Move | None = None,
                        passed: list[int] | None = None) -> None:
        """Pass for throwers whose hands the record hides, until ``seat`` is asked
        for ``move`` (a throw-in, pass or swap).

        A thrower with hidden cards is asked (F2 reading: he may hold a matching
        card); when the record's next move is another seat's, or not a throw-in,
        he did not throw, which the rules write as his ``pass`` or as his not
        being asked at all (F2).  ``passed``, when given, gets the seats that
        passed here, in order.
        """
        s = self.state
        throws = move is not None and move.kind in (Kind.THROW, Kind.PASS, Kind.SWAP)
        while (s.phase in (Phase.THROW, Phase.TAKEN) and s.hidden[s.to_move] > 0
               and (s.to_move != seat or not throws)):
            if passed is not None:
                passed.append(s.to_move)
            nxt = play(s, PASS)
            self._bout_end(s, PASS, nxt)
            s = nxt
        self.state = s

    def _bout_end(self, s: GameState, mv: Move, nxt: GameState) -> None:
        """After a move from ``s`` to ``nxt``: note what the asking seat drew (R17)."""
        if self.steps is not None:
            self.steps.append((s, mv, nxt))
        self._draw_open = False
        if s.table and not nxt.table and s.pile > 0:
            me = self.me
            played = sum(bit(c) for c in mv.cards)
            self._draw_hidden = nxt.hidden[me] - s.hidden[me]
            self._draw_known = nxt.hands[me] & ~s.hands[me] & ~s.table_mask & ~played
            self._draw_open = True

    def apply(self, ev: Event) -> None:
        if ev.kind == "draw":
            self._draw(ev)
            return
        assert ev.move is not None
        s = self.state
        if s.is_over:
            raise RecordError(ev.where, _("the game is already over (R20): no move may follow"))
        self.implicit_passes(ev.seat, ev.move)
        s = self.state
        if s.to_move != ev.seat:
            raise RecordError(ev.where, _("it is seat {seat}'s turn ({phase}), not seat {other}'s"
                                          ).format(seat=s.to_move + 1, phase=s.phase.name.lower(),
                                                   other=ev.seat + 1))
        s = self._reveal(s, ev)
        mv = ev.move
        # Legality rests on the mover's cards that are known now (the ones it plays
        # among them); the rest of its hand does not matter to it.
        shown = s.replace(hidden=tuple(0 if i == ev.seat else h for i, h in enumerate(s.hidden)))
        try:
            apply_move(shown, mv)
        except (IllegalMoveError, HiddenCardsError):
            legal = " ".join(str(m) for m in legal_moves(shown))
            if s.hidden[ev.seat]:
                legal += " " + _("(of its known cards)")
            raise RecordError(ev.where, _("illegal move {move} here (legal: {legal})").format(
                move=repr(str(mv)), legal=legal)) from None
        nxt = play(s, mv)
        if mv.kind is Kind.SHOW and self.state.hidden[ev.seat] > 0 and not (
                self.state.hands[ev.seat] & bit(mv.cards[0])):
            # R14: a shown trump goes back among the hidden cards (as PublicTracker keeps it)
            c = mv.cards[0]
            hands = list(nxt.hands)
            hidden = list(nxt.hidden)
            hands[ev.seat] &= ~bit(c)
            hidden[ev.seat] += 1
            nxt = nxt.replace(hands=tuple(hands), hidden=tuple(hidden))
        self.before.append(s)
        self.moves.append((ev.seat, mv))
        self._bout_end(s, mv, nxt)
        self.state = nxt

    def _reveal(self, s: GameState, ev: Event) -> GameState:
        """Move the cards ``ev`` plays from the seat's hidden cards into its hand."""
        mv = ev.move
        assert mv is not None
        seat = ev.seat
        if mv.kind is Kind.SWAP:
            if s.trump_card < 0:
                return s
            need = [make_card(DECK_LOW_RANK[s.rules.deck], s.trump)]
        elif mv.kind in (Kind.TAKE, Kind.PASS):
            return s
        else:
            need = list(mv.cards)
        hands = list(s.hands)
        hidden = list(s.hidden)
        for c in need:
            if hands[seat] & bit(c):
                continue
            if seen(s, c):
                raise RecordError(ev.where, _("{card} is seen twice: {where}").format(
                    card=card_name(c), where=place(s, c)))
            if hidden[seat] == 0:
                raise RecordError(ev.where, _("seat {seat} does not hold {card}").format(
                    seat=seat + 1, card=card_name(c)))
            hands[seat] |= bit(c)
            hidden[seat] -= 1
        return s.replace(hands=tuple(hands), hidden=tuple(hidden))

    def _draw(self, ev: Event) -> None:
        me = self.me
        if not self._draw_open and self.state.table:
            self.implicit_passes(me)  # the bout may end by the passes of hidden throwers
        if not self._draw_open or not (self._draw_hidden or self._draw_known):
            raise RecordError(ev.where, _("seat {seat} draws nothing here: a draw follows the "
                                          "move that ends a bout while the pile has cards, for a "
                                          "seat with fewer than six cards (R17)").format(
                                              seat=me + 1))
        s = self.state
        hands = list(s.hands)
        hidden = list(s.hidden)
        new = 0
        for c in ev.cards:
            b = bit(c)
            if self._draw_known & b:
                continue
            if new & b:
                raise RecordError(ev.where, _("{card} is named twice").format(card=card_name(c)))
            if seen(s, c):
                raise RecordError(ev.where, _("{card} is seen twice: {where}").format(
                    card=card_name(c), where=place(s, c)))
            new |= b
        if count(new) != self._draw_hidden:
            raise RecordError(ev.where, ngettext(
                "seat {seat} drew {n} unseen card(s) here (R17), the record names {named}",
                "seat {seat} drew {n} unseen card(s) here (R17), the record names {named}",
                self._draw_hidden).format(seat=me + 1, n=self._draw_hidden, named=count(new)))
        hands[me] |= new
        hidden[me] -= count(new)
        self.state = s.replace(hands=tuple(hands), hidden=tuple(hidden))
        self._draw_open = False


def replay_events(start: GameState, me: int, events: list[Event]) -> Replay:
    """Replay ``events`` from ``start``; raises :class:`RecordError` at the first bad one."""
    r = Replay(start, me)
    for ev in events:
        r.apply(ev)
    return r
