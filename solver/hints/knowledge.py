"""Public knowledge: what one seat knows of a game (S3 of RULES.md).

A seat sees its own hand, the table, the discard pile (``out``), every hand
size, the pile size and the face-up trump.  It also remembers cards it saw go
into an opponent's hand: the cards picked up in a take (R16) and the face-up
trump when it is drawn (R17) or swapped (R7).  Everything else -- cards drawn
from the pile, the order of the pile -- is hidden.

:class:`Knowledge` is that information in one value: ``view`` is a
:class:`GameState` in which every opponent's hand holds only the cards the seat
knows are there and ``hidden[s]`` counts the rest, with ``pile_order`` unknown.
``unseen`` is the pool of cards whose place the seat does not know; the
sampler (:mod:`solver.hints.sampler`) deals it among the hidden hand slots and the
pile.

Two ways in: :func:`knowledge_of` takes a position (a state that may already
hold ``?`` cards), :class:`PublicTracker` follows a game record move by move
from a dealt game (:func:`solver.game.deal.new_game`) and gives any seat's
knowledge at any moment.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Iterable

from solver.errors import PositionError
from solver.game.cards import SUIT_MASK, bit, count, deck_mask, format_cards
from solver.game.movegen import apply_move, play
from solver.game.moves import Move
from solver.game.state import GameState


@dataclass(frozen=True)
class Knowledge:
    """What ``seat`` knows.

    ``view``: the seat's view of the game (opponents' unknown cards counted in
    ``hidden``, ``pile_order`` None).  ``unseen``: mask of the cards whose
    place is unknown.  ``pile_slots``: how many of them lie in the pile above
    its face-up bottom card (the pile minus one).  ``bottom_mask``: when
    the pile has cards but its face-up bottom card is not known, the cards it
    may be (the unseen trumps); 0 otherwise.
    """

    seat: int
    view: GameState
    unseen: int
    pile_slots: int
    bottom_mask: int = 0

    @property
    def hand_slots(self) -> tuple[int, ...]:
        return self.view.hidden

    @property
    def slots(self) -> int:
        return sum(self.view.hidden) + self.pile_slots + (1 if self.bottom_mask else 0)

    @property
    def fully_known(self) -> bool:
        return self.slots == 0


def knowledge_of(state: GameState, seat: int | None = None) -> Knowledge:
    """The knowledge of ``seat`` (default: the seat to move) in a position.

    Known cards of opponents stay known (a position that shows them says the
    seat saw them); ``?`` cards are hidden; a known ``pile_order`` is forgotten
    except its face-up bottom card.  Raises :class:`PositionError` when the
    seat's own hand is hidden or the counts do not add up.
    """
    if seat is None:
        seat = state.to_move
        if seat < 0:
            raise PositionError("me", "the game is over: there is no seat to move")
    if not 0 <= seat < state.players:
        raise PositionError("me", f"seat {seat + 1} is not at this table")
    if state.hidden[seat]:
        raise PositionError(
            "me", f"seat {seat + 1} must know its own hand; it holds {state.hidden[seat]} "
                  "unknown card(s)")
    view = state
    if view.pile_order is not None:
        tc = view.trump_card if view.trump_card >= 0 else view.pile_order[-1]
        view = view.replace(pile_order=None, trump_card=tc)
    return _finish(view, seat)


def _finish(view: GameState, seat: int) -> Knowledge:
    deck = deck_mask(view.rules.deck)
    known = view.all_cards()
    if known & ~deck:
        raise PositionError("hands", "a card is not in this deck")
    unseen = deck & ~known
    pile_slots = 0
    bottom = 0
    if view.pile > 0:
        pile_slots = view.pile - 1
        if view.trump_card < 0:
            bottom = unseen & SUIT_MASK[view.trump]
            if not bottom:
                raise PositionError(
                    "pile", "no unseen trump is left to lie face up at the bottom of the pile")
    need = sum(view.hidden) + pile_slots + (1 if bottom else 0)
    if need != count(unseen):
        raise PositionError(
            "hands", f"{need} hidden card(s) (hands and pile) but {count(unseen)} card(s) "
                     "are unaccounted for")
    return Knowledge(seat=seat, view=view, unseen=unseen, pile_slots=pile_slots,
                     bottom_mask=bottom)


def seat_view(state: GameState, seat: int, known: Iterable[int] | None = None) -> Knowledge:
    """Knowledge of ``seat`` in a fully dealt ``state``, given the public ``known``
    cards of each hand (default: none known)."""
    known = tuple(known) if known is not None else (0,) * state.players
    hands = []
    hidden = []
    for s in range(state.players):
        h = state.hands[s]
        if s == seat:
            hands.append(h)
            hidden.append(state.hidden[s])
        else:
            k = h & known[s]
            hands.append(k)
            hidden.append(count(h) - count(k) + state.hidden[s])
    view = state.replace(hands=tuple(hands), hidden=tuple(hidden))
    return knowledge_of(view, seat)


class PublicTracker:
    """Follows a game from its deal and keeps the public cards of every hand.

    ``known[s]``: cards everyone knows seat ``s`` holds -- picked up in a take,
    or the face-up trump drawn or swapped.  Cards leave ``known`` when they are
    played.  ``tracker.knowledge(seat)`` is the seat's knowledge now.
    """

    def __init__(self, state: GameState):
        self.state = state
        self.known: list[int] = [0] * state.players
        self.history: list[Move] = []

    def play(self, move: Move) -> GameState:
        prev = self.state
        nxt = play(prev, move)
        public = prev.table_mask | sum(bit(c) for c in move.cards)
        if prev.trump_card >= 0:
            public |= bit(prev.trump_card)
        for s in range(prev.players):
            gained = nxt.hands[s] & ~prev.hands[s]
            self.known[s] = (self.known[s] & nxt.hands[s]) | (gained & public)
        self.state = nxt
        self.history.append(move)
        return nxt

    def knowledge(self, seat: int) -> Knowledge:
        return seat_view(self.state, seat, self.known)


def replay(state: GameState, moves: Iterable[Move | str]) -> PublicTracker:
    """A tracker after playing ``moves`` (move objects or text) from ``state``."""
    t = PublicTracker(state)
    for m in moves:
        mv = Move.parse(m, state.rules.deck) if isinstance(m, str) else m
        apply_move(t.state, mv)  # checks legality; raises IllegalMoveError
        t.play(mv)
    return t


def describe(k: Knowledge) -> str:
    """One line: the unseen pool and the slots it fills (for diagnostics)."""
    parts = [f"seat {s + 1}: {n}" for s, n in enumerate(k.hand_slots) if n]
    if k.pile_slots:
        parts.append(f"pile: {k.pile_slots}")
    return f"unseen {format_cards(k.unseen)} -> " + (", ".join(parts) or "nothing hidden")

