"""durak-solver: exact endgame solver, hint engine and puzzles for Durak.

The Python API mirrors the ``durak`` commands (docs/notation.md)::

    import solver
    solver.solve("trump H; hands 6S 7S KH | 8C 9C AH; attacker 1").value   # Value.WIN
    solver.analyse(position).moves        # every legal move with its value
    solver.hint(position, samples=64, seed=1).best
    game = solver.Game.parse(record_text)  # a whole game (docs/game-record.md)
    solver.review(game, seat=1).decisions  # every decision of seat 1, labelled
    s = solver.GameSession.new(2, seed=7, engine="hint")  # a game against the engine
    s.enter("6S"); s.engine_move(); s.snapshot()           # what the prompts and the web drive

``position`` is a position string, a JSON-like dict, a parsed ``Position`` or
a ``GameState``.  Seats are 1-based everywhere in this API; budgets are the
keywords ``max_time`` (seconds) and ``max_nodes``.  Every error a caller can
cause is a :class:`DurakError` (a ``ValueError``).
"""
from __future__ import annotations

import importlib

#: ``typing.TYPE_CHECKING`` without importing typing: `durak` sets its signal handlers
#: up (solver.cli.launch) before anything slow is imported.
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__version__ = "0.1.0"

#: Where each public name lives.  The package imports them on first use
#: (PEP 562): `durak solve` then loads the solver and not the hint engine,
#: the game records and the puzzles, and starts in a fraction of the time.
_HOMES = {
    "solver.errors": ("BudgetExceeded", "DurakError", "HiddenCardsError", "IllegalMoveError",
                      "Interrupted", "MoveError", "PositionError", "RecordError"),
    "solver.game.cards": ("card_name", "parse_card"),
    "solver.game.moves": ("Move",),
    "solver.game.rules": ("Rules", "parse_rules"),
    "solver.game.state": ("GameState", "Phase"),
    "solver.game.value": ("Value",),
    "solver.games": ("Game",),
    "solver.games.review": ("Review", "review"),
    "solver.hints": ("HintConfig", "HintResult", "hint"),
    "solver.notation": ("Position", "format_position", "parse_position"),
    "solver.play.seats": ("GameSession",),
    "solver.search": ("MoveValue", "Solver", "SolveResult", "analyse", "solve"),
}
_HOME_OF = {name: module for module, names in _HOMES.items() for name in names}

__all__ = ["BudgetExceeded", "DurakError", "Game", "GameSession", "GameState", "HiddenCardsError",
           "HintConfig", "HintResult", "IllegalMoveError", "Interrupted", "Move",
           "MoveError", "MoveValue", "Phase", "Position", "PositionError", "RecordError",
           "Review", "Rules", "SolveResult", "Solver", "Value", "analyse", "card_name",
           "format_position", "hint", "parse_card", "parse_position", "parse_rules",
           "review", "solve"]


def __getattr__(name: str) -> Any:
    """A public name, imported from its home module on first use."""
    module = _HOME_OF.get(name)
    if module is None:
        raise AttributeError(f"module 'solver' has no attribute {name!r}")
    value = getattr(importlib.import_module(module), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(__all__))


if TYPE_CHECKING:  # the names as type checkers and editors see them
    from solver.errors import (BudgetExceeded, DurakError, HiddenCardsError, IllegalMoveError,
                               Interrupted, MoveError, PositionError, RecordError)
    from solver.game.cards import card_name, parse_card
    from solver.game.moves import Move
    from solver.game.rules import Rules, parse_rules
    from solver.game.state import GameState, Phase
    from solver.game.value import Value
    from solver.games import Game
    from solver.games.review import Review, review
    from solver.hints import HintConfig, HintResult, hint
    from solver.notation import Position, format_position, parse_position
    from solver.play.seats import GameSession
    from solver.search import MoveValue, Solver, SolveResult, analyse, solve
