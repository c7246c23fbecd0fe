"""Real games: records of whole games (docs/game-record.md) and their review.

:mod:`~solver.games.record` parses and formats records (:class:`Game`),
:mod:`~solver.games.replay` replays them from one seat's view, and
:mod:`~solver.games.review` judges every decision of a seat.
"""
from solver.games.record import Game, load_game

__all__ = ["Game", "load_game"]
