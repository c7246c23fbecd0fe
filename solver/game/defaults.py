"""What a position may leave unsaid, worked out from the rest (docs/notation.md).

The parser puts these back and the formatter leaves out exactly what equals
them, so both read them from here: the R10 cap and limit, the P3/P4 thrower
to ask, and how many places hold cards nobody at the table has seen.
"""
from __future__ import annotations

from solver.game.rules import bout_cap
from solver.game.state import NO_COVER, GameState


def default_cap(state: GameState) -> int:
    """R10: the cap of the bout ``state`` is in or about to start (see :func:`bout_cap`)."""
    return bout_cap(state.rules, state.out)


def default_limit(state: GameState) -> int:
    """R10, F6: min(cap, defender's hand now + his covers on the table)."""
    covers = sum(1 for _, c in state.table if c != NO_COVER)
    return min(default_cap(state), state.hand_size(state.defender) + covers)


def default_turn(state: GameState) -> int:
    """P3/P4: the first thrower in R12 order who could add a card (F2), or -1."""
    for s in state.throw_order():
        if state.can_throw(s):
            return s
    return -1


def hidden_pile_slots(state: GameState) -> int:
    """Pile cards whose identity is unknown: all but the face-up trump, unless the order is given."""
    return state.pile - 1 if state.pile > 0 and state.pile_order is None else 0


def has_hidden_cards(state: GameState) -> bool:
    """S3: hidden hand cards, or a pile of unknown order, keep the position from
    being solved exactly (the exact solver, the oracles, a full game record)."""
    return any(state.hidden) or (state.pile > 0 and state.pile_order is None)


def hidden_slots(state: GameState) -> int:
    """Places of unknown cards: ``?`` cards in hands, and the pile above the face-up card."""
    return sum(state.hidden) + hidden_pile_slots(state)
