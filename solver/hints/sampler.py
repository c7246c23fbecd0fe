"""Determinization: deal the unseen cards consistently with a seat's knowledge (S3).

A *deal* gives every unseen card a place: one of the hidden slots of an
opponent's hand, or a place in the draw pile above the face-up trump (which
stays at the bottom, R5).  All such deals are equally likely to the seat (cards
were shuffled uniformly and nothing the seat saw depends on where an unseen
card went -- R11 lets a defender take even when he could beat, P3 lets a thrower
pass even when he could add, so no move reveals that a card is *not* held).
The sampler therefore deals uniformly: a shuffle of the pool cut into the
slots.  When the pile's face-up card is not given (a position that names only
the trump suit), the bottom is drawn uniformly from the unseen trumps first.

Every dealt state is fully known (no ``hidden``, ``pile_order`` known) and
looks to the seat exactly like its view (the sampler's invariant; OpenSpiel's
``ResampleInfostateTest``; tested in ``tests/test_sampler.py``).

When the number of distinct deals is at most the sample budget, :meth:`deals`
enumerates them all (each once, equal weight) instead of sampling.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from itertools import combinations, permutations
from typing import Iterator

from solver.errors import OptionError, PositionError
from solver.game.cards import bit, cards_of, count, deck_mask, to_mask
from solver.game.state import GameState
from solver.hints.knowledge import Knowledge


@dataclass(frozen=True)
class DealSet:
    """The deals a hint is scored on; ``exhaustive``: every consistent deal, once."""

    states: tuple[GameState, ...]
    exhaustive: bool
    total: int  # how many consistent deals exist


class Sampler:
    """Deals the unseen cards of a :class:`Knowledge` among its slots."""

    def __init__(self, knowledge: Knowledge):
        self.k = knowledge
        self.pool = tuple(cards_of(knowledge.unseen))
        self.hand_slots = knowledge.view.hidden
        self.pile_slots = knowledge.pile_slots
        self.bottoms = tuple(cards_of(knowledge.bottom_mask))
        slots = sum(self.hand_slots) + self.pile_slots + (1 if self.bottoms else 0)
        if slots != len(self.pool) or any(h < 0 for h in self.hand_slots):
            raise PositionError("position",
                f"no consistent deal: {slots} hidden place(s) for {len(self.pool)} unseen card(s)")
        if knowledge.view.pile > 0 and knowledge.view.trump_card < 0 and not self.bottoms:
            raise PositionError("pile", "no consistent deal: no unseen trump can be the face-up card")

    # ---------------------------------------------------------- counting
    def count(self) -> int:
        """The number of distinct consistent deals (pile order counts)."""
        n = len(self.pool)
        if self.bottoms:
            total = len(self.bottoms) * math.factorial(n - 1)
        else:
            total = math.factorial(n)
        for h in self.hand_slots:
            total //= math.factorial(h)
        return total

    # ------------------------------------------------------------ dealing
    def _build(self, hand_parts: list[int], pile: list[int], bottom: int) -> GameState:
        v = self.k.view
        hands = tuple(h | extra for h, extra in zip(v.hands, hand_parts))
        if v.pile > 0:
            tc = v.trump_card if v.trump_card >= 0 else bottom
            order: tuple[int, ...] | None = tuple(pile) + (tc,)
        else:
            tc = v.trump_card
            order = None
        return v.replace(hands=hands, hidden=(0,) * v.players, pile_order=order, trump_card=tc)

    def sample(self, rng: random.Random) -> GameState:
        """One deal, uniformly among the consistent ones."""
        pool = list(self.pool)
        bottom = -1
        if self.bottoms:
            bottom = self.bottoms[rng.randrange(len(self.bottoms))]
            pool.remove(bottom)
        rng.shuffle(pool)
        parts = []
        i = 0
        for h in self.hand_slots:
            parts.append(to_mask(pool[i:i + h]))
            i += h
        return self._build(parts, pool[i:], bottom)

    def enumerate(self) -> Iterator[GameState]:
        """Every consistent deal once, in a fixed order."""
        seats = list(range(len(self.hand_slots)))

        def rec(si: int, left: int, parts: list[int], bottom: int) -> Iterator[GameState]:
            if si == len(seats):
                for perm in permutations(list(cards_of(left))):
                    yield self._build(parts, list(perm), bottom)
                return
            h = self.hand_slots[si]
            if h == 0:
                yield from rec(si + 1, left, parts + [0], bottom)
                return
            for combo in combinations(list(cards_of(left)), h):
                m = to_mask(combo)
                yield from rec(si + 1, left & ~m, parts + [m], bottom)

        full = self.k.unseen
        if self.bottoms:
            for b in self.bottoms:
                yield from rec(0, full & ~bit(b), [], b)
        else:
            yield from rec(0, full, [], -1)

    def deals(self, n: int, rng: random.Random) -> DealSet:
        """``n`` deals to score moves on: all of them when there are at most ``n``."""
        if n < 1:
            raise OptionError(f"samples: need at least 1, got {n}")
        total = self.count()
        if total <= n:
            return DealSet(tuple(self.enumerate()), True, total)
        return DealSet(tuple(self.sample(rng) for _ in range(n)), False, total)


def consistent(deal: GameState, k: Knowledge) -> bool:
    """Does a fully known ``deal`` look to ``k.seat`` exactly like ``k.view``?

    Same public fields, the seat's own hand, every card known to be in a hand
    still there, the same hand sizes, the same face-up trump at the bottom of
    a pile of the same size, and every card placed exactly once.
    """
    v = k.view
    if any(deal.hidden):
        return False
    for name in ("rules", "trump", "attacker", "defender", "table", "take", "turn", "pile",
                 "out", "limit", "cap", "shown"):
        if getattr(deal, name) != getattr(v, name):
            return False
    if deal.hands[k.seat] != v.hands[k.seat]:
        return False
    for s in range(v.players):
        if deal.hands[s] & v.hands[s] != v.hands[s]:
            return False
        if count(deal.hands[s]) != v.hand_size(s):
            return False
    if v.pile > 0:
        if deal.pile_order is None or len(deal.pile_order) != v.pile:
            return False
        if v.trump_card >= 0 and deal.pile_order[-1] != v.trump_card:
            return False
        if deal.trump_card != deal.pile_order[-1]:
            return False
        if deal.pile_order[-1] // 13 != v.trump:
            return False
    seen = deal.out | deal.table_mask
    total = count(deal.out) + count(deal.table_mask)
    for h in deal.hands:
        seen |= h
        total += count(h)
    for c in deal.pile_order or ():
        seen |= bit(c)
        total += 1
    return total == count(seen) and seen == deck_mask(v.rules.deck)
