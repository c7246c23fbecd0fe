"""Bots: policies that choose a move for one seat.

A policy sees the game as its seat sees it: its own hand, the table, the
discard pile, every hand size, the face-up trump and the pile size.  The
state a policy receives may hold the opponents' cards (a dealt game) or only
their counts (a seat's view from :mod:`solver.hints.knowledge`); :class:`RandomPolicy`
and :class:`GreedyPolicy` read nothing but the public fields and their own
hand, so both give the same move either way.  Policies that search (the hint
bot in :mod:`solver.play.match`) must be given the seat's view.

Every policy takes an injected ``random.Random``; nothing keeps module state.
"""
from __future__ import annotations

import random
from typing import Any, Callable, Protocol, runtime_checkable

from solver.errors import OptionError
from solver.game.cards import beaters, bit, cards_of, rank_of, suit_of
from solver.game.movegen import legal_moves
from solver.game.moves import PASS, SWAP, TAKE, Kind, Move
from solver.game.state import GameState, Phase


@runtime_checkable
class Policy(Protocol):
    """Chooses the move of ``seat`` (the seat to move) in ``state``."""

    name: str

    def choose(self, state: GameState, seat: int, rng: random.Random) -> Move:
        ...


class RandomPolicy:
    """A legal move uniformly at random."""

    name = "random"

    def choose(self, state: GameState, seat: int, rng: random.Random) -> Move:
        moves = legal_moves(state)
        if not moves:
            raise OptionError("the game is over: no move to choose")
        return moves[rng.randrange(len(moves))]


# ------------------------------------------------------------------ greedy
#: Thresholds of the greedy player (documented in docs/hint.md).
BIG_PILE = 6          # "the pile is big": more cards than this still to draw
CHEAP_RANK = 10       # non-trumps up to this rank are "cheap" (6..10 of a 36-card deck)
HIGH_TRUMP_RANK = 12  # trumps from this rank (Q) up are "high"


def card_cost(card: int, trump: int) -> int:
    """How much a card is worth keeping: its rank, a trump 13 more than any non-trump."""
    return rank_of(card) + (13 if suit_of(card) == trump else 0)


def _best_cover_plan(open_attacks: list[int], hand: int, trump: int) -> list[tuple[int, int]] | None:
    """The cheapest assignment of hand cards that covers every open attack (or None).

    Cost is the sum of :func:`card_cost` (a trump costs more than any non-trump,
    so fewer trumps win).  At most six open attacks: a small exhaustive search.
    """
    best: tuple[int, list[tuple[int, int]]] | None = None

    def rec(i: int, order: tuple[int, ...], left: int, cost: int,
            plan: list[tuple[int, int]]) -> None:
        nonlocal best
        if best is not None and cost >= best[0]:
            return
        if i == len(order):
            best = (cost, list(plan))
            return
        a = order[i]
        for c in cards_of(beaters(a, left, trump)):
            plan.append((a, c))
            rec(i + 1, order, left & ~bit(c), cost + card_cost(c, trump), plan)
            plan.pop()

    # the hardest attack first, so the pruning bites early
    attacks = tuple(sorted(open_attacks, key=lambda a: -card_cost(a, trump)))
    rec(0, attacks, hand, 0, [])
    return None if best is None else best[1]


class GreedyPolicy:
    """A documented rule-based player (docs/hint.md, "The greedy player").

    * Lead: the lowest non-trump rank, with every card of that rank together when
      the rank is cheap; trumps only when nothing else is left (lowest first).
    * Defend: find the cheapest way to cover every open card (non-trumps before
      trumps).  Transfer (R14) with a non-trump, or with a low trump when the
      cover would need a trump.  Take when no full cover exists, or, while the
      pile is big, when the cover costs a high trump or two or more trumps.
      With the pile empty, cover whenever possible.
    * Throw in (P3): cheap non-trumps while the pile is big; any non-trump once
      the pile is small; trumps only once the pile is empty.
    * After a take (P4): give only cheap non-trumps while the pile has cards;
      with the pile empty, every non-trump.
    * Swap (R7) the trump six for the face-up trump whenever offered.
    """

    name = "greedy"

    def choose(self, state: GameState, seat: int, rng: random.Random | None = None) -> Move:
        return greedy_move(state, seat)


def greedy_move(state: GameState, seat: int | None = None) -> Move:
    """The greedy player's move for the seat to move (see :class:`GreedyPolicy`)."""
    moves = legal_moves(state)
    if not moves:
        raise OptionError("the game is over: no move to choose")
    if len(moves) == 1:
        return moves[0]
    if SWAP in moves:
        return SWAP
    ph = state.phase
    if ph is Phase.LEAD:
        return _greedy_lead(state, moves)
    if ph is Phase.DEFEND:
        return _greedy_defend(state, moves)
    return _greedy_throw(state, moves)


def _greedy_lead(state: GameState, moves: list[Move]) -> Move:
    trump = state.trump
    hand = state.hands[state.to_move]
    non_trump = [c for c in cards_of(hand) if suit_of(c) != trump]
    pool = non_trump or list(cards_of(hand))
    low = min(pool, key=lambda c: card_cost(c, trump))
    r = rank_of(low)
    same = [c for c in pool if rank_of(c) == r]
    endgame = state.pile == 0
    if len(same) > 1 and (r <= CHEAP_RANK or endgame):
        want = tuple(sorted(same))
        # the largest legal multi-lead made of these cards (F4 may cap it)
        best = None
        for m in moves:
            if m.kind is Kind.LEAD and set(m.cards) <= set(want):
                if best is None or len(m.cards) > len(best.cards):
                    best = m
        if best is not None:
            return best
    return Move.lead(low)


def _greedy_defend(state: GameState, moves: list[Move]) -> Move:
    trump = state.trump
    seat = state.to_move
    hand = state.hands[seat]
    big_pile = state.pile > BIG_PILE
    plan = _best_cover_plan(state.open_attacks, hand, trump)
    transfers = [m for m in moves if m.kind in (Kind.TRANSFER, Kind.SHOW)]
    plan_trumps = [] if plan is None else [c for _, c in plan if suit_of(c) == trump]
    if transfers:
        # a show costs nothing; a non-trump transfer sheds a card and passes the bout
        shows = [m for m in transfers if m.kind is Kind.SHOW]
        if shows:
            return shows[0]
        t = min(transfers, key=lambda m: card_cost(m.cards[0], trump))
        tc = t.cards[0]
        if suit_of(tc) != trump:
            return t
        if (plan is None or plan_trumps) and (rank_of(tc) < HIGH_TRUMP_RANK or plan is None):
            return t
    if plan is None:
        return TAKE
    if big_pile:
        high = [c for c in plan_trumps if rank_of(c) >= HIGH_TRUMP_RANK]
        if high or len(plan_trumps) >= 2:
            return TAKE
    # cover the card whose planned beater is the cheapest first (hides trumps longest)
    a, c = min(plan, key=lambda ac: (card_cost(ac[1], trump), ac[0]))
    return Move.cover(a, c)


def throws_it(state: GameState, card: int) -> bool:
    """Whether the greedy player adds ``card`` when he may (P3, P4): cheap
    non-trumps while the pile is big or after a take, any non-trump once the pile
    is small, trumps only once it is empty (and then not after a take)."""
    is_trump = suit_of(card) == state.trump
    if state.pile == 0:
        return not (state.take and is_trump)
    if is_trump:
        return False
    if state.take or state.pile > BIG_PILE:
        return rank_of(card) <= CHEAP_RANK
    return True


def _greedy_throw(state: GameState, moves: list[Move]) -> Move:
    trump = state.trump
    throws = [m for m in moves if m.kind is Kind.THROW]
    if not throws:
        return PASS
    good = [m for m in throws if throws_it(state, m.cards[0])]
    if not good:
        return PASS
    return min(good, key=lambda m: (card_cost(m.cards[0], trump), m.cards[0]))


POLICIES: dict[str, Callable[..., Policy]] = {"random": RandomPolicy, "greedy": GreedyPolicy}


def make_policy(name: str, **kw: Any) -> Policy:
    """A policy by name: ``random``, ``greedy`` (``hint`` lives in :mod:`solver.play.match`)."""
    try:
        cls = POLICIES[name]
    except KeyError:
        raise OptionError(f"unknown policy {name!r} (known: {', '.join(POLICIES)}, hint)") from None
    return cls(**kw)
