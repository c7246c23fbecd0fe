"""Hindsight in the review: every position along a game valued with every card seen
(docs/game-record.md, "Hindsight").

The review judges each decision by what the seat could know then (S3: the hint on its
knowledge; exact only once its knowledge places every card).  Where a record holds
every card -- every seat's deal and the pile's order (a full record: every `durak play`
game, every dealt match record) -- the game can also be read *double dummy*: the exact
value for one seat of each position with every hand and the pile's order seen, so the
draws are known too (R17).  That shows where the game was really won and lost had both
players seen everything, beside what the player could know.

The value is the exact solver's (:meth:`solver.search.Solver.value`; S1 with two
players, S2 with more: the seat as hero against the others as one coalition) on the
record's state as it stood, the path to it forgotten (R23: a repetition is judged from
that position on).  The side to move can only keep the value or give some of it away:
a value that changes from one position to the next was changed by the move between
them, a *turn* -- a mistake in hindsight by the seat that played it (the reviewed
seat's when the value drops, another's when it rises).  A forced move never is one.

**Budget.**  Exact solving of a position with a large pile can take hours.  The
positions are valued from the game's end backwards: small piles are cheap, and the
one solver's transposition table carries what each proved over to the next, earlier
one.  Each position gets a share of what is left (an even one, at most an eighth:
:data:`SPREAD`) as its time budget (:func:`value_within`); once
:data:`MISSES` positions in a row run out of their shares, the walk stops -- the
earlier ones hold more of the pile still and are harder yet.  A position without a
value is *not reached*: listed, never guessed.
"""
from __future__ import annotations

import time
from dataclasses import dataclass, field
from typing import Any, Callable

from solver.errors import BudgetExceeded
from solver.game.state import GameState
from solver.game.value import Value
from solver.games.record import Game
from solver.i18n import _
from solver.search import Solver

#: The share of the review's ``max_time`` kept for hindsight: the decisions get the
#: rest, and hindsight everything they leave (so at least this share).
HINDSIGHT_SHARE = 0.25
#: Seconds hindsight takes at most when the review has no budget (``max_time`` None):
#: the first positions of a game dealt whole can take hours.
UNBOUNDED_TIME = 30.0
#: A position's share: what is left divided among the positions still to value, but
#: at most among this many -- the frontier, where the values get hard, gets an eighth
#: of what is left rather than a sliver.
SPREAD = 8
#: Positions in a row whose share runs out before the backward walk stops.
MISSES = 2


@dataclass
class Seen:
    """One position along the game valued with every card seen: the one before move
    ``ply`` (the record's move number), where ``seat`` (1-based) plays ``move``; the
    position after the last move has ``ply`` one more, ``move`` None and ``seat`` None
    once the game is over.  ``value``: for the hindsight's seat, None when not reached."""

    ply: int
    seat: int | None
    move: str | None
    value: Value | None = None

    @property
    def reached(self) -> bool:
        return self.value is not None

    def to_json(self) -> dict[str, Any]:
        return {"ply": self.ply, "seat_to_move": self.seat, "move": self.move,
                "value": self.value.text if self.value is not None else None,
                "reached": self.reached}


@dataclass
class Turn:
    """A move that changed the value with every card seen: ``before`` it (the position
    before move ``ply``) and ``after`` it, for the hindsight's seat; ``seat`` (1-based)
    played ``move`` -- its mistake in hindsight."""

    ply: int
    seat: int
    move: str
    before: Value
    after: Value

    def to_json(self) -> dict[str, Any]:
        return {"ply": self.ply, "seat": self.seat, "move": self.move,
                "before": self.before.text, "after": self.after.text}


@dataclass
class Hindsight:
    """Every position of a game valued for ``seat`` (1-based) with every card seen.

    ``positions``: one per move, then the end (:class:`Seen`); empty, with ``note``
    saying why, when the record does not hold every card.  ``seconds``: the time the
    values took (not in the JSON, which repeats exactly)."""

    seat: int
    positions: list[Seen] = field(default_factory=list)
    note: str = ""
    seconds: float = 0.0

    @property
    def turns(self) -> list[Turn]:
        """The moves between two valued positions whose values differ, in order; the
        last one decided the game in hindsight (after it the value is the end's)."""
        out = []
        for a, b in zip(self.positions, self.positions[1:]):
            if (a.value is not None and b.value is not None and a.value != b.value
                    and a.seat is not None and a.move is not None):
                out.append(Turn(a.ply, a.seat, a.move, a.value, b.value))
        return out

    @property
    def decisive(self) -> Turn | None:
        """The last turn: the mistake in hindsight that decided the game (None without one)."""
        turns = self.turns
        return turns[-1] if turns else None

    @property
    def not_reached(self) -> list[int]:
        """The plies of the positions left without a value."""
        return [p.ply for p in self.positions if not p.reached]

    def before(self, ply: int) -> Value | None:
        """The value of the position before move ``ply`` (None: not reached)."""
        return self.positions[ply - 1].value if 0 < ply <= len(self.positions) else None

    def after(self, ply: int) -> Value | None:
        """The value of the position after move ``ply`` (None: not reached)."""
        return self.before(ply + 1)

    def to_json(self) -> dict[str, Any]:
        """The review's ``hindsight*`` keys (docs/game-record.md, "Hindsight")."""
        return {"hindsight": [p.to_json() for p in self.positions],
                "hindsight_seat": self.seat,
                "hindsight_turns": [t.to_json() for t in self.turns],
                "hindsight_note": self.note or None}


def unknown_note() -> str:
    """Why a record gets no hindsight: one line in the player's language."""
    return _("every card seen: not available -- the record does not give every seat's deal "
             "and the pile's order (a game followed at a table keeps hands hidden); the review "
             "is the usual one")


def blank(g: Game, seat: int) -> Hindsight:
    """The hindsight of ``g`` for ``seat`` (1-based) with nothing valued yet: every
    position not reached -- or, when the record does not hold every card, none and
    the note saying so."""
    if not g.full:
        return Hindsight(seat, note=unknown_note())
    moves = g.replay().moves
    final = g.final
    out = [Seen(i + 1, s + 1, str(m)) for i, (s, m) in enumerate(moves)]
    end = Seen(len(moves) + 1, None if final.is_over else final.to_move + 1, None)
    if final.is_over:  # the end of a finished game is its result (R20-R22)
        end.value = Value(final.final_outcome()[seat - 1])
    out.append(end)
    return Hindsight(seat, out)


def value_within(slv: Solver, state: GameState, hero: int, seconds: float) -> Value | None:
    """The exact value of the fully known ``state`` for ``hero`` (1-based), or None when
    ``seconds`` run out first (what the search proved stays in ``slv``'s table for the
    next, earlier position)."""
    try:
        return slv.value(state, hero=hero, max_time=max(seconds, 1e-3))
    except BudgetExceeded:
        return None


def fill(hs: Hindsight, states: list[GameState], slv: Solver, until: float,
         tick: Callable[[], None] | None = None) -> Hindsight:
    """Value the positions of ``hs`` (``states``: the record's positions, one per entry)
    from the game's end backwards with ``slv``, until the clock passes ``until`` or
    :data:`MISSES` positions in a row run out of their shares; in place (what was
    valued stays when Ctrl-C stops it).  ``tick()`` after each position."""
    t0 = time.perf_counter()
    assert len(states) == len(hs.positions)
    order = list(range(len(states) - 1, -1, -1))
    misses = 0
    try:
        for k, i in enumerate(order):
            if hs.positions[i].value is not None:  # the end of a finished game: its result
                if tick is not None:
                    tick()
                continue
            now = time.perf_counter()
            if now >= until or misses >= MISSES:
                break
            share = (until - now) / min(len(order) - k, SPREAD)
            v = value_within(slv, states[i], hs.seat, share)
            hs.positions[i].value = v
            misses = misses + 1 if v is None else 0
            if tick is not None:
                tick()
    finally:
        hs.seconds += time.perf_counter() - t0
    return hs


def hindsight(game: Game | str, seat: int | None = None, max_time: float | None = 10.0,
              solver: Solver | None = None) -> Hindsight:
    """Every position of ``game`` valued for ``seat`` (1-based; default the record's
    asking seat) with every card seen, within ``max_time`` seconds (None:
    :data:`UNBOUNDED_TIME`); ``solver``: whose table to use (default a fresh one).
    A record that does not hold every card gets none and the note."""
    g = Game.parse(game) if isinstance(game, str) else game
    hs = blank(g, (g.me + 1) if seat is None else seat)
    if hs.positions:
        until = time.perf_counter() + (UNBOUNDED_TIME if max_time is None else max_time)
        fill(hs, g.positions(), solver or Solver(), until)
    return hs


__all__ = ["HINDSIGHT_SHARE", "MISSES", "SPREAD", "UNBOUNDED_TIME", "Hindsight", "Seen",
           "Turn", "blank", "fill", "hindsight", "unknown_note", "value_within"]
