"""Determinization: deal the unseen cards consistently with a seat's knowledge (S3).

A *deal* gives every unseen card a place: one of the hidden slots of an
opponent's hand, or a place in the draw pile above the face-up trump (which
stays at the bottom, R5).  Cards were shuffled uniformly, so every deal that
agrees with what the seat saw is equally likely.  What it saw: the counts,
the cards known to be in a hand, the face-up trump -- and, in a followed
game, who was asked to throw in (F2: a thrower is asked only when he holds a
card he may add; :class:`~solver.hints.knowledge.HandFact`).  Beyond that no
move reveals that a card is *not* held: R11 lets a defender take even when
he could beat, P3 lets a thrower pass even when he could add.

The sampler therefore deals uniformly: a shuffle of the pool cut into the
slots, kept only if it agrees with the facts (rejection, in the compiled core:
``ext/deal.pxi``; a Markov chain of card swaps where few deals agree,
:meth:`Sampler.sample`).  When the pile's
face-up card is not given (a position that names only the trump suit), the
bottom is drawn uniformly from the unseen trumps first.

Every dealt state is fully known (no ``hidden``, ``pile_order`` known) and
looks to the seat exactly like its view (the sampler's invariant; OpenSpiel's
``ResampleInfostateTest``; tested in ``tests/test_sampler.py`` and, with the
facts, ``tests/test_hand_facts.py``).

When the number of distinct deals is at most the sample budget, :meth:`deals`
enumerates them all (each once, equal weight) instead of sampling.
"""
from __future__ import annotations

import math
import random
from dataclasses import dataclass
from itertools import combinations, permutations
from typing import Callable, Iterator

from solver.errors import OptionError, PositionError
from solver.i18n import _, ngettext
from solver.game.cards import bit, cards_of, count, deck_mask, to_mask
from solver.game.state import GameState
from solver.hints.knowledge import Knowledge, agrees_with, facts_likelihood
from solver.search.native import core

#: Uniform draws per sample before the Markov chain takes over
#: (:meth:`Sampler.sample`).
FACT_TRIES = 100
#: Swap proposals per pool card in a walk between agreeing deals, and the
#: most a search for a first agreeing deal may make (:meth:`Sampler.sample`).
WALK_STEPS = 3
REPAIR_STEPS = 20_000


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
            raise PositionError("position", _("no consistent deal: {places} for {unseen}").format(
                places=ngettext("{n} hidden place(s)", "{n} hidden place(s)", slots).format(
                    n=slots),
                unseen=ngettext("{n} unseen card(s)", "{n} unseen card(s)",
                                len(self.pool)).format(n=len(self.pool))))
        if knowledge.view.pile > 0 and knowledge.view.trump_card < 0 and not self.bottoms:
            raise PositionError("pile", _("no consistent deal: no unseen trump can be the "
                                          "face-up card"))
        #: deals drawn or enumerated that broke a fact, and samples that gave up
        #: after FACT_TRIES of them (their deal breaks a fact)
        self.rejected = 0
        self.misses = 0
        #: the last agreeing deal drawn: the dealt cards of each seat, the pile, the bottom
        self._last: tuple[list[int], list[int], int] | None = None
        every = (1 << 64) - 1  # a mask of "every card" may be written as ~0
        # (a fact of a model of play rules no deal out: only weight() reads it)
        self._facts = tuple((f.seat, f.keep & every, f.add & every, f.cards & every, f.holds,
                             f.drawn) for f in knowledge.facts if f.trust >= 1.0)
        self._in_hands = sum(self.hand_slots)
        self._owner = [s for s, h in enumerate(self.hand_slots) for _k in range(h)]

    # ---------------------------------------------------------- counting
    def count(self) -> int:
        """The number of distinct deals that fit the counts (pile order counts); with
        facts, an upper bound on those that also agree with them."""
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
        """One deal, uniformly among the consistent ones (facts included).

        The compiled core deals (``deal_hands``, ``ext/deal.pxi``): a shuffle
        into the hands, seat by seat, and with :attr:`Knowledge.facts` by
        rejection -- a seat's cards are checked against its facts as soon as
        they are dealt, and deals are drawn until one is possible under every
        fact (a certain fact met, an uncertain one of likelihood above 0),
        uniform among those; the pile is shuffled for the deal kept.  How much
        more likely the uncertain facts make one deal than another is left to
        the caller (:meth:`weight`; the hint engine weighs the deals).  Where
        few deals are possible (the facts of a long game with four players can
        leave one deal in a thousand), after :data:`FACT_TRIES` misses a Markov
        chain takes over: from the last possible deal, a card in a hidden hand
        is swapped with one in any other place and the swap kept if the deal
        stays possible (the proposal is symmetric, so the chain's stationary
        law is uniform over the possible deals it reaches), and the pile, which
        no fact constrains, is shuffled anew.  With no possible deal yet a
        local search (:meth:`_repair`) finds one; if it fails, a deal that
        breaks a fact is taken as it is (counted in :attr:`misses`): a budget
        must not hang on the facts.
        """
        facts = self._facts
        tries = FACT_TRIES if facts else 1
        parts, pile, bottom, rejected = core.deal_hands(
            self.pool, self.hand_slots, self.k.view.hands, facts, self.bottoms, tries,
            rng.getrandbits(64))
        self.rejected += rejected
        if parts is not None:
            if facts:
                self._last = (list(parts), pile, bottom)
            return self._build(list(parts), pile, bottom)
        arr = pile  # the last attempt's cards in slot order: hands, then pile
        start = self._repair(arr, bottom, rng) if self._last is None else (
            self._cards(*self._last[:2]), self._last[2])
        if start is None:
            self.misses += 1
            return self._build(self._parts(arr), arr[self._in_hands:], bottom)
        arr, bottom = self._walk(*start, rng)
        walked = self._parts(arr)
        self._last = (walked, arr[self._in_hands:], bottom)
        return self._build(walked, arr[self._in_hands:], bottom)

    def weight(self, deal: GameState) -> float:
        """The facts' likelihood under a deal (1 without facts, or when every fact is
        certain): its weight among the possible deals that :meth:`sample` and
        :meth:`enumerate` give."""
        return facts_likelihood(deal.hands, self.k.facts)

    # -------------------------------------------- dealing under facts (F2)
    def _cards(self, parts: list[int], pile: list[int]) -> list[int]:
        """A deal's cards in slot order (each seat's dealt cards, then the pile)."""
        return [c for m in parts for c in cards_of(m)] + list(pile)

    def _parts(self, arr: list[int]) -> list[int]:
        parts = []
        i = 0
        for h in self.hand_slots:
            parts.append(to_mask(arr[i:i + h]))
            i += h
        return parts

    def _broken(self, parts: list[int]) -> int:
        """How many facts the hands ``view.hands | parts`` make impossible."""
        base = self.k.view.hands
        return sum(1 for f in self.k.facts if not f.agrees(base[f.seat] | parts[f.seat]))

    def _swap_steps(self, arr: list[int], rng: random.Random, steps: int,
                    keep: Callable[[int, int], bool]) -> int:
        """``steps`` proposals: swap a card in a hand slot with a card in any other
        place; ``keep(facts broken before, after)`` decides.  Returns the facts
        broken at the end.  Picking the hand slot first and the other slot
        uniformly makes the proposal symmetric (a swap undoes itself)."""
        owner = self._owner
        hands_n, n = self._in_hands, len(arr)
        parts = self._parts(arr)
        now = self._broken(parts)
        for _step in range(steps):
            i, j = rng.randrange(hands_n), rng.randrange(n)
            si, sj = owner[i], owner[j] if j < hands_n else -1
            if si == sj:
                continue
            a, b = arr[i], arr[j]
            flip = bit(a) | bit(b)
            parts[si] ^= flip
            if sj >= 0:
                parts[sj] ^= flip
            after = self._broken(parts)
            if keep(now, after):
                arr[i], arr[j] = b, a
                now = after
            else:
                parts[si] ^= flip
                if sj >= 0:
                    parts[sj] ^= flip
        return now

    def _walk(self, arr: list[int], bottom: int, rng: random.Random) -> tuple[list[int], int]:
        """From a possible deal, :data:`WALK_STEPS` swaps per card that keep it
        possible, then a fresh shuffle of the pile.  The face-up bottom card
        (drawn only where a position names just the trump suit) stays that of
        the start."""
        arr = list(arr)
        self._swap_steps(arr, rng, WALK_STEPS * len(arr), lambda b, a: a == 0)
        pile = arr[self._in_hands:]
        rng.shuffle(pile)
        return arr[:self._in_hands] + pile, bottom

    def _repair(self, arr: list[int], bottom: int,
                rng: random.Random) -> tuple[list[int], int] | None:
        """A possible deal by local search from ``arr`` (swaps that make no more facts
        impossible than before), or None."""
        arr = list(arr)
        broken = self._swap_steps(arr, rng, REPAIR_STEPS, lambda b, a: a <= b)
        return (arr, bottom) if broken == 0 else None

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
        every: Iterator[GameState]
        if self.bottoms:
            every = (d for b in self.bottoms for d in rec(0, full & ~bit(b), [], b))
        else:
            every = rec(0, full, [], -1)
        facts = self.k.facts
        if not facts:
            yield from every
            return
        for d in every:
            if agrees_with(d, facts):
                yield d
            else:
                self.rejected += 1

    def deals(self, n: int, rng: random.Random) -> DealSet:
        """``n`` deals to score moves on: all of them when there are at most ``n``."""
        if n < 1:
            raise OptionError(f"samples: need at least 1, got {n}")
        total = self.count()
        if total <= n:
            every = tuple(self.enumerate())
            return DealSet(every, True, len(every))
        return DealSet(tuple(self.sample(rng) for _k in range(n)), False, total)


def consistent(deal: GameState, k: Knowledge) -> bool:
    """Does a fully known ``deal`` look to ``k.seat`` exactly like ``k.view``?

    Same public fields, the seat's own hand, every card known to be in a hand
    still there, the same hand sizes, the same face-up trump at the bottom of
    a pile of the same size, every card placed exactly once, and every fact
    of the asking of throwers met (:class:`~solver.hints.knowledge.HandFact`).
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
    if not agrees_with(deal, k.facts):
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
