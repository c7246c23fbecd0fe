"""What the learned playout policy sees of a decision: the reference (docs/learn.md).

Two layers, both from the mover's view only (its own hand and what is public:
the table, the discards, the face-up trump, the pile and hand sizes, the
rules), so the same features come out of a dealt game and of the mover's
view of it (tested):

* :class:`Decision`: the raw fields of one decision (every card set a
  bitmask in the layout of :mod:`solver.game.cards`);
* :func:`move_features`: per legal move, the indices of its active binary
  features (one per template of :data:`TEMPLATES`, fewer where a template
  does not apply).  A move's score under the linear model is the sum of the
  weights at those indices.

This is the readable reference.  The compiled core computes the same fields
and the same indices from its bitmask state (``ext/learn.pxi``:
``core.decision_fields``, ``core.move_features``); ``tests/test_learn.py``
holds the two equal on thousands of states of every rules option.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Sequence

from solver.game.cards import DECK_LOW_RANK, count
from solver.game.movegen import legal_moves
from solver.game.moves import Kind, Move
from solver.game.state import GameState, Phase
from solver.policy.bots import greedy_move
from solver.search.native import rule_flags

#: The binary feature templates, in index order: (name, size).  Each applies
#: to some moves and then contributes exactly one index.
TEMPLATES: tuple[tuple[str, int], ...] = (
    ("kind x pile stage x players>2", 8 * 5 * 2),
    ("is the greedy move x kind x pile stage", 2 * 8 * 5),
    ("card: kind x trump x rank x pile stage", 8 * 2 * 13 * 5),
    ("card: kind x trump x unseen higher (0-3+) x pile stage", 8 * 2 * 4 * 5),
    ("cover: gap x target trump x pile stage", 5 * 2 * 5),
    ("lead: cards (1-4) x trump x pile stage", 4 * 2 * 5),
    ("take: cards on the table x pile stage", 6 * 5),
    ("take: trumps in hand (0-3+) x open attacks (1-3+) x pile stage", 4 * 3 * 5),
    ("pass: taken x cards on the table x pile stage", 2 * 6 * 5),
    ("hand after x kind x pile empty", 8 * 7 * 2),
    ("trumps after (0-4+) x kind x pile stage", 8 * 5 * 5),
    ("hand after vs the opponent's (<, =, >) x kind x pile stage", 8 * 3 * 5),
    ("transfers allowed x kind x pile stage", 8 * 2 * 5),
)
OFFSETS: tuple[int, ...] = tuple(sum(s for _, s in TEMPLATES[:i]) for i in range(len(TEMPLATES)))
#: Features in all.
NFEATURES = sum(s for _, s in TEMPLATES)
#: The most indices one move has (one per template).
MAX_ACTIVE = len(TEMPLATES)

#: The roles of the mover (:attr:`Decision.role`).
ROLE_LEAD, ROLE_DEFEND, ROLE_THROW = 0, 1, 2


def pile_stage(pile: int) -> int:
    """0: empty, 1: 1-2 cards, 2: 3-6, 3: 7-12, 4: more."""
    return 0 if pile == 0 else 1 if pile <= 2 else 2 if pile <= 6 else 3 if pile <= 12 else 4


def hand_bucket(n: int) -> int:
    """0, 1, 2, 3, 4-5, 6-8, 9 or more cards: 0..6."""
    return n if n <= 3 else 4 if n <= 5 else 5 if n <= 8 else 6


def table_bucket(n: int) -> int:
    """Cards on the table 1, 2, 3, 4, 5-6, 7 or more: 0..5 (0 for none as well)."""
    return 0 if n <= 1 else n - 1 if n <= 4 else 4 if n <= 6 else 5


def deck_mask(deck: int) -> int:
    """Every card of a deck of ``deck`` cards (R1)."""
    low = DECK_LOW_RANK[deck] - 2
    suit = sum(1 << r for r in range(low, 13))
    return suit | suit << 13 | suit << 26 | suit << 39


@dataclass(frozen=True)
class Decision:
    """One decision from the mover's view (seats 0-based, cards as bitmasks).

    ``hand_sizes`` run from the mover round the table (the mover's first);
    ``unseen`` is every card of the deck the mover has not seen where it is:
    not in its hand, on the table, discarded or the face-up trump.
    ``opponent`` is the attacker when the mover defends, else the defender.
    ``flags`` are the core's rule flags (``core.RULE_FLAGS``).
    """

    mover: int
    players: int
    phase: int
    role: int
    hand: int
    att: int
    cov: int
    opn: int
    discards: int
    unseen: int
    trump: int
    trump_card: int
    pile: int
    hand_sizes: tuple[int, ...]
    opponent: int
    take: int
    limit: int
    flags: int
    deck: int

    @classmethod
    def of(cls, state: GameState) -> "Decision":
        """The decision of the seat to move in ``state`` (a dealt game or its view)."""
        m = state.to_move
        if m < 0:
            raise ValueError("the game is over: no decision")
        att, opn, cov = state.table_masks()
        face = state.trump_card if state.pile > 0 else -1
        seen = state.hands[m] | att | cov | state.out | ((1 << face) if face >= 0 else 0)
        ph = state.phase
        role = ROLE_LEAD if ph is Phase.LEAD else ROLE_DEFEND if ph is Phase.DEFEND else ROLE_THROW
        n = state.players
        return cls(
            mover=m, players=n, phase=int(ph), role=role, hand=state.hands[m], att=att, cov=cov,
            opn=opn, discards=state.out, unseen=deck_mask(state.rules.deck) & ~seen,
            trump=state.trump, trump_card=face, pile=state.pile,
            hand_sizes=tuple(state.hand_size((m + k) % n) for k in range(n)),
            opponent=state.attacker if m == state.defender else state.defender,
            take=int(state.take), limit=state.limit, flags=rule_flags(state),
            deck=state.rules.deck)

    def size_of(self, seat: int) -> int:
        return self.hand_sizes[(seat - self.mover) % self.players]


def _main_card(move: Move, trump: int) -> int:
    """The card a move's card templates look at: its one card; for a lead, its
    trump if it holds one, else its lowest card; -1 for take, pass and swap."""
    if move.kind in (Kind.TAKE, Kind.PASS, Kind.SWAP) or not move.cards:
        return -1
    if move.kind is Kind.LEAD:
        trumps = [c for c in move.cards if c // 13 == trump]
        return trumps[0] if trumps else min(move.cards)
    return move.cards[0]


def move_features(d: Decision, move: Move, greedy: bool) -> list[int]:
    """The active feature indices of ``move`` at decision ``d`` (``greedy``: it is
    the greedy player's move)."""
    k = int(move.kind)
    ps = pile_stage(d.pile)
    t = d.trump
    out = [OFFSETS[0] + (k * 5 + ps) * 2 + (1 if d.players > 2 else 0),
           OFFSETS[1] + ((1 if greedy else 0) * 8 + k) * 5 + ps]
    c = _main_card(move, t)
    if c >= 0:
        tr = 1 if c // 13 == t else 0
        out.append(OFFSETS[2] + ((k * 2 + tr) * 13 + c % 13) * 5 + ps)
        above = (((1 << 13) - 1) << (13 * (c // 13))) & ~((2 << c) - 1)
        h = min(3, count(d.unseen & above))
        out.append(OFFSETS[3] + ((k * 2 + tr) * 4 + h) * 5 + ps)
    table = d.att | d.cov
    if move.kind is Kind.COVER:
        a = move.target
        if a // 13 == c // 13:
            gap = min(c % 13 - a % 13, 4) - 1
        else:
            gap = 4
        out.append(OFFSETS[4] + (gap * 2 + (1 if a // 13 == t else 0)) * 5 + ps)
    elif move.kind is Kind.LEAD:
        tr = 1 if c // 13 == t else 0
        out.append(OFFSETS[5] + ((min(4, len(move.cards)) - 1) * 2 + tr) * 5 + ps)
    elif move.kind is Kind.TAKE:
        out.append(OFFSETS[6] + table_bucket(count(table)) * 5 + ps)
        trumps = min(3, count(d.hand & (((1 << 13) - 1) << (13 * t))))
        opn = min(3, count(d.opn)) - 1
        out.append(OFFSETS[7] + (trumps * 3 + max(opn, 0)) * 5 + ps)
    elif move.kind is Kind.PASS:
        out.append(OFFSETS[8] + (d.take * 6 + table_bucket(count(table))) * 5 + ps)
    # the hand after the move
    if move.kind is Kind.TAKE:
        after = d.hand | table
    elif move.kind in (Kind.LEAD, Kind.COVER, Kind.TRANSFER, Kind.THROW):
        after = d.hand & ~sum(1 << x for x in move.cards)
    else:
        after = d.hand
    n_after = count(after)
    out.append(OFFSETS[9] + (k * 7 + hand_bucket(n_after)) * 2 + (1 if d.pile == 0 else 0))
    ta = min(4, count(after & (((1 << 13) - 1) << (13 * t))))
    out.append(OFFSETS[10] + (k * 5 + ta) * 5 + ps)
    opp = d.size_of(d.opponent)
    cmp = 0 if n_after < opp else 1 if n_after == opp else 2
    out.append(OFFSETS[11] + (k * 3 + cmp) * 5 + ps)
    transfers = 1 if d.flags & 3 else 0  # FLAG_TRANSFER | FLAG_SHOW
    out.append(OFFSETS[12] + (k * 2 + transfers) * 5 + ps)
    return out


def decision_features(state: GameState) -> tuple[Decision, list[Move], list[list[int]]]:
    """The decision of the seat to move, its legal moves (canonical order) and
    each move's active features."""
    d = Decision.of(state)
    moves = legal_moves(state)
    g = greedy_move(state)
    return d, moves, [move_features(d, m, m == g) for m in moves]


def scores(weights: Sequence[float], feats: Sequence[Sequence[int]]) -> list[float]:
    """Each move's score under the linear model: the sum of its features' weights."""
    return [sum(weights[i] for i in f) for f in feats]


__all__ = ["Decision", "MAX_ACTIVE", "NFEATURES", "OFFSETS", "TEMPLATES", "decision_features",
           "deck_mask", "move_features", "pile_stage", "scores"]
