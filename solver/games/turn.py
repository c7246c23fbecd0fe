"""What a game session tells its front ends, and the one thing it asks of the engine.

:class:`Turn` (what happens next, as the asking seat can tell), :class:`Accepted`
(what one entry added, and what was told at the table after it) and
:class:`OnlyMove` (the hint when there is one legal move) are the session's
answers (:class:`~solver.games.session.GameSession`); :class:`EngineSeat` is how
it asks for the engine's move in a game against it, without knowing how the
engine plays (:mod:`solver.play.seats` makes them).
"""
from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Any, Callable, Protocol

from solver.game.moves import Move
from solver.games.narration import Told
from solver.hints.knowledge import PublicTracker


@dataclass(frozen=True)
class Turn:
    """What happens next, as the asking seat can tell.

    ``seat``: the seat to move (1-based; None once the game is over); ``phase``:
    lead, defend, throw, taken or over; ``moves``: its legal moves when the
    asking seat knows its hand (its own; the others' once they follow from what
    it saw), else None; ``draw_due``: how many drawn cards the asking seat must
    name before anything else (a followed game, R17); ``engine``: the engine
    moves next; ``open``: the attack cards still to cover; ``ranks``: the ranks
    that may be thrown in (R9).
    """

    seat: int | None
    phase: str
    moves: tuple[str, ...] | None
    draw_due: int = 0
    engine: bool = False
    open: tuple[str, ...] = ()
    ranks: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "phase": self.phase,
                "moves": list(self.moves) if self.moves is not None else None,
                "draw_due": self.draw_due, "engine": self.engine, "open": list(self.open),
                "ranks": list(self.ranks)}


@dataclass(frozen=True)
class Accepted:
    """What one call of :meth:`GameSession.enter` added: the entries (``2:6D``,
    ``3:pass``, ``draw 7H``), a note for the player (the passes the record
    implied, a move held until the draw is named) and what is told at the table
    after them (:mod:`solver.games.narration`: bouts beaten, taken or
    transferred, draws, seats out, whose bout it is)."""

    entries: tuple[str, ...]
    note: str = ""
    told: tuple[Told, ...] = ()


@dataclass(frozen=True)
class OnlyMove:
    """The hint when the player has one legal move: it, and no deal sampled."""

    player: int
    best: str

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player, "best": self.best, "only": True,
                "moves": [{"move": self.best}]}


class EngineSeat(Protocol):
    """The engine in one seat of a game against it: the move it chooses for ``seat``
    (0-based, the seat to move) from that seat's view of the game ``tracker`` follows.
    The session does not know how the engine plays: :mod:`solver.play` gives a seat
    for each strength (:func:`solver.play.seats.engine_seat`), and the front ends
    hand the session that maker (``engine_seats``)."""

    def move(self, tracker: PublicTracker, seat: int, rng: random.Random) -> Move:
        ...


#: Makes the engine's seat at a strength (one of
#: :data:`~solver.games.session.ENGINE_STRENGTHS`).
EngineSeats = Callable[[str], EngineSeat]


__all__ = ["Accepted", "EngineSeat", "EngineSeats", "OnlyMove", "Turn"]
