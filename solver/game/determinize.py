"""Deal the hidden cards of a position at random (S3), giving a fully known state.

A position may hide cards: ``?`` cards in hands and the pile above its face-up
trump.  :func:`deal_hidden` gives each of those places a card from the unseen
pool (the deck minus every card the position names), uniformly: a shuffle of
the pool cut into the hidden hand slots and the pile.  The face-up trump stays
at the bottom of the pile (R5).  The result has no hidden cards and, while the
pile has cards, a known ``pile_order``, so the engine can play it to the end.

This is the plain building block: it knows nothing of what a particular seat
has seen (cards picked up, shown trumps).  The hint engine's sampler
(:mod:`solver.hints.sampler`) deals from a seat's knowledge instead.
"""
from __future__ import annotations

import random

from solver.errors import PositionError
from solver.i18n import _, ngettext
from solver.game.cards import bit, cards_of, count, deck_mask
from solver.game.defaults import hidden_pile_slots
from solver.game.state import GameState


def unseen_cards(state: GameState) -> int:
    """The cards the position does not place (mask): they fill the hidden slots."""
    return deck_mask(state.rules.deck) & ~state.all_cards()


def deal_hidden(state: GameState, rng: random.Random) -> GameState:
    """A fully known state: the unseen cards dealt uniformly to the hidden places.

    Raises ``ValueError`` when the pool does not fit the places (a position
    whose counts do not add up; the notation parser never builds one).
    """
    pool = sorted(cards_of(unseen_cards(state)))
    slots = sum(state.hidden) + hidden_pile_slots(state)
    if len(pool) != slots:
        raise PositionError("position", _("{unseen} for {places}").format(
            unseen=ngettext("{n} unseen card(s)", "{n} unseen card(s)", len(pool)).format(
                n=len(pool)),
            places=ngettext("{n} hidden place(s)", "{n} hidden place(s)", slots).format(n=slots)))
    if state.pile > 0 and state.pile_order is None and state.trump_card < 0:
        raise PositionError("pile", _("the pile has cards but no face-up trump card"))
    rng.shuffle(pool)
    hands = list(state.hands)
    k = 0
    for s, n in enumerate(state.hidden):
        for c in pool[k:k + n]:
            hands[s] |= bit(c)
        k += n
    order = state.pile_order
    if state.pile > 0 and order is None:
        order = tuple(pool[k:]) + (state.trump_card,)
    dealt = state.replace(hands=tuple(hands), hidden=(0,) * state.players, pile_order=order)
    assert count(unseen_cards(dealt)) == 0
    return dealt
