"""The engine in the seats of a game session: the one interface the game session
(:mod:`solver.games.session`) asks for the engine through.

The session knows the strengths by name (``ENGINE_STRENGTHS``, the record's
``engine`` line) and asks a maker of seats for the engine at one of them
(:class:`~solver.games.session.EngineSeat`); this module makes them from the
bots of :mod:`solver.play.match`, so the game records never import the matches.
:class:`GameSession` is the session with this maker built in: the package's
``solver.GameSession``, and what `durak play` and the web board's games open.
"""
from __future__ import annotations

import os
import random

from solver.game.moves import Move
from solver.games import session
from solver.games.record import Game
from solver.hints.knowledge import PublicTracker
from solver.play.match import choose_move, make_policy
from solver.policy.bots import Policy


class PolicySeat:
    """A bot in a seat: its move from the seat's view only
    (:func:`solver.play.match.choose_move`)."""

    def __init__(self, policy: Policy):
        self.policy = policy

    def move(self, tracker: PublicTracker, seat: int, rng: random.Random) -> Move:
        return choose_move(self.policy, tracker, seat, rng)


def engine_seat(strength: str) -> PolicySeat:
    """The engine at ``strength`` (``greedy``, ``hint``, ``strong``, ``random``:
    :data:`~solver.games.session.ENGINE_STRENGTHS`), made when its first move is asked."""
    return PolicySeat(make_policy(strength))


class GameSession(session.GameSession):
    """:class:`solver.games.session.GameSession` whose engine seats are played by
    :func:`engine_seat` unless others are given."""

    def __init__(self, game: Game, path: str | os.PathLike[str] | None = None, seed: int = 0,
                 engine_seats: session.EngineSeats | None = None):
        super().__init__(game, path, seed, engine_seats or engine_seat)


__all__ = ["GameSession", "PolicySeat", "engine_seat"]
