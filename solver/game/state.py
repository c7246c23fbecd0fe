"""The game state: everything that is true at one moment of a game.

:class:`GameState` is immutable; the rules engine (:mod:`solver.game.movegen`)
builds new states from old ones.  Seats are 0-based here and 1-based in every
text a user sees (NOTATION.md).  Hands are card-set masks (:mod:`solver.game.cards`);
``hidden[s]`` counts cards of seat ``s`` that the position does not show.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass, fields
from typing import Any

from solver.game.cards import cards_of, count, rank_of
from solver.game.rules import Rules

NO_COVER = -1


class Phase(enum.IntEnum):
    """Whose kind of turn it is (the turn protocol P1-P4)."""

    LEAD = 1      # P1: the main attacker leads a bout
    DEFEND = 2    # P2: the defender covers, takes or transfers
    THROW = 3     # P3: everything covered; throwers asked in R12 order
    TAKEN = 4     # P4: after "take"; throwers asked in R12 order
    OVER = 5      # the game has ended (R20, R21, R22)


@dataclass(frozen=True)
class GameState:
    """One moment of a game.

    The fields follow the position notation.  ``table`` holds (attack, cover)
    pairs in the order the attack cards were played, ``cover`` being
    :data:`NO_COVER` while the attack card is open.  ``pile`` counts the draw
    pile with the face-up ``trump_card`` (its last card); ``pile_order`` is its
    order, top first, where that is known (a dealt game, a determinized deal),
    else ``None`` and cards drawn from it become hidden cards.  ``limit`` is the
    R10 limit of the bout in progress (0 between bouts), ``cap`` the most any
    bout may have (6, or 5 in the first bout under ``first_bout_limit=5``).
    ``shown`` holds the trumps shown for a transfer in this bout (R14 option).
    ``turn`` is the thrower being asked in P3/P4, -1 otherwise: every thrower
    before him in R12 order has passed or cannot add, and nobody after him has
    passed -- all a state needs to know of the asking (F3, F15).
    """

    rules: Rules
    trump: int
    hands: tuple[int, ...]
    attacker: int
    defender: int
    hidden: tuple[int, ...] = ()
    table: tuple[tuple[int, int], ...] = ()
    take: bool = False
    turn: int = -1
    pile: int = 0
    trump_card: int = -1
    pile_order: tuple[int, ...] | None = None
    out: int = 0
    limit: int = 0
    cap: int = 6
    shown: int = 0

    def __post_init__(self) -> None:
        if not self.hidden:
            object.__setattr__(self, "hidden", (0,) * len(self.hands))

    # ------------------------------------------------------------ basics
    @property
    def players(self) -> int:
        return len(self.hands)

    def hand_size(self, seat: int) -> int:
        return count(self.hands[seat]) + self.hidden[seat]

    def active(self, seat: int) -> bool:
        """F7, R19: a seat takes part while it holds cards or the pile has cards."""
        return self.pile > 0 or self.hand_size(seat) > 0

    def team(self, seat: int) -> int:
        """R22: seats 1+3 and 2+4 (0-based 0+2 and 1+3) are partners."""
        return seat % 2 if self.rules.teams else seat

    def next_active(self, seat: int) -> int:
        """R3: the next active seat after ``seat`` (-1 if there is none)."""
        n = self.players
        for k in range(1, n):
            s = (seat + k) % n
            if self.active(s):
                return s
        return -1

    def prev_active(self, seat: int) -> int:
        n = self.players
        for k in range(1, n):
            s = (seat - k) % n
            if self.active(s):
                return s
        return -1

    def defender_for(self, attacker: int) -> int:
        """R4, R22: the next active seat after ``attacker`` that is not his partner."""
        n = self.players
        for k in range(1, n):
            s = (attacker + k) % n
            if self.active(s) and self.team(s) != self.team(attacker):
                return s
        return -1

    # ------------------------------------------------------------- table
    @property
    def attacks(self) -> list[int]:
        return [a for a, _ in self.table]

    @property
    def table_mask(self) -> int:
        m = 0
        for a, c in self.table:
            m |= 1 << a
            if c != NO_COVER:
                m |= 1 << c
        return m

    def table_masks(self) -> tuple[int, int, int]:
        """The table as three card sets: attack cards, the open ones, cover cards."""
        att = opn = cov = 0
        for a, c in self.table:
            att |= 1 << a
            if c == NO_COVER:
                opn |= 1 << a
            else:
                cov |= 1 << c
        return att, opn, cov

    def table_ranks(self) -> set[int]:
        """R9: ranks of every table card, attack and cover alike."""
        return {rank_of(c) for c in cards_of(self.table_mask)}

    @property
    def open_attacks(self) -> list[int]:
        return [a for a, c in self.table if c == NO_COVER]

    @property
    def covered_any(self) -> bool:
        return any(c != NO_COVER for _, c in self.table)

    # -------------------------------------------------------------- phase
    @property
    def phase(self) -> Phase:
        if not self.table:
            return Phase.OVER if self.outcome() is not None else Phase.LEAD
        if self.take:
            return Phase.TAKEN
        if self.open_attacks:
            return Phase.DEFEND
        return Phase.THROW

    @property
    def to_move(self) -> int:
        """The seat whose move it is (-1 when the game is over)."""
        ph = self.phase
        if ph is Phase.LEAD:
            return self.attacker
        if ph is Phase.DEFEND:
            return self.defender
        if ph is Phase.OVER:
            return -1
        return self.turn

    def throw_order(self) -> list[int]:
        """R12: the throwers in the order they are asked.

        The main attacker first, then the other seats in seat order after him;
        never the defender, never the defender's partner (R22).  Under
        ``throw_in=neighbours`` a co-attacker must be one of the defender's two
        active neighbours (F7); the main attacker, who led the bout, keeps his
        right to throw in (project reading, see docs/rules.md).
        """
        n = self.players
        d = self.defender
        order = []
        left = self.next_active(d)
        right = self.prev_active(d)
        for k in range(n):
            s = (self.attacker + k) % n
            if s == d or (self.rules.teams and self.team(s) == self.team(d)):
                continue
            if self.rules.throw_in_neighbours and k != 0 and s not in (left, right):
                continue
            order.append(s)
        return order

    def can_throw(self, seat: int) -> bool:
        """F2: could ``seat`` add an attack card now (R9, R10)?"""
        if len(self.table) >= self.limit:
            return False
        if self.hidden[seat] > 0:
            return True  # a hidden hand may hold a matching card
        ranks = self.table_ranks()
        return any(rank_of(c) in ranks for c in cards_of(self.hands[seat]))

    # ------------------------------------------------------------ outcome
    def outcome(self) -> tuple[int, ...] | None:
        """Per-seat result (+1 win, 0 draw, -1 loss) once the game is over, else None.

        Judged only between bouts with an empty pile (R19, R20); R21 and R22
        change who wins.
        """
        if self.table or self.pile > 0:
            return None
        n = self.players
        holders = [s for s in range(n) if self.hand_size(s) > 0]
        rules = self.rules
        if rules.first_out_wins:
            gone = [s for s in range(n) if s not in holders]
            if not gone:
                return None
            if rules.teams:
                teams_out = {self.team(s) for s in gone}
                if len(teams_out) == 2:
                    return (0,) * n
                w = teams_out.pop()
                return tuple(1 if self.team(s) == w else -1 for s in range(n))
            if len(gone) == 1:
                return tuple(1 if s in gone else -1 for s in range(n))
            return tuple(0 if s in gone else -1 for s in range(n))
        if rules.teams:
            teams_holding = {self.team(s) for s in holders}
            if not teams_holding:
                return (0,) * n
            if len(teams_holding) == 1:
                loser = teams_holding.pop()
                return tuple(-1 if self.team(s) == loser else 1 for s in range(n))
            return None
        if not holders:
            return (0,) * n
        if len(holders) == 1:
            return tuple(-1 if s == holders[0] else 1 for s in range(n))
        return None

    @property
    def is_over(self) -> bool:
        return not self.table and self.outcome() is not None

    def final_outcome(self) -> tuple[int, ...]:
        """:meth:`outcome` of a game known to be over (``is_over``); a state
        still in play here is a bug of the caller."""
        result = self.outcome()
        if result is None:
            raise AssertionError("final_outcome of a game still in play")
        return result

    def all_cards(self) -> int:
        """Every known card of the state (hands, table, out, known pile)."""
        m = self.out | self.table_mask
        for h in self.hands:
            m |= h
        if self.pile_order is not None:
            for c in self.pile_order:
                m |= 1 << c
        elif self.trump_card >= 0:
            m |= 1 << self.trump_card
        return m

    def replace(self, **kw: Any) -> "GameState":
        """A copy with the fields ``kw`` changed (what ``dataclasses.replace`` does,
        without its generic machinery: the rules engine and the sampler make a
        state this way for every move and every deal)."""
        if not _FIELDS.issuperset(kw):
            raise TypeError(f"GameState has no field {sorted(set(kw) - _FIELDS)[0]!r}")
        new = object.__new__(GameState)
        d = new.__dict__
        d.update(self.__dict__)
        d.update(kw)
        if not d["hidden"]:
            d["hidden"] = (0,) * len(d["hands"])
        return new


_FIELDS = frozenset(f.name for f in fields(GameState))
