"""durak-solver: exact endgame solver, hint engine and puzzles for Durak.

The Python API mirrors the ``durak`` commands (NOTATION.md)::

    import solver
    solver.solve("trump H; hands 6S 7S KH | 8C 9C AH; attacker 1").value   # 'win'
    solver.analyse(position).moves        # every legal move with its value
    solver.hint(position, samples=64, seed=1).best

``position`` is a position string, a JSON-like dict, a parsed ``Position`` or a
``GameState``.
"""
from typing import Any

from .cards import card_name, parse_card
from .moves import Move
from .rules import Rules, parse_rules
from .state import GameState, Phase
# Loaded before the function ``hint`` below is defined: importing a submodule
# binds its name on the package, and ``solver.hint`` must stay the function.
from . import hint as _hint_module

__all__ = ["GameState", "Move", "Phase", "Rules", "analyse", "card_name", "hint",
           "parse_card", "parse_position", "parse_rules", "solve"]
__version__ = "0.1.0"


def solve(position: Any, hero: int | None = None, **kw: Any):
    """Solve a fully known position exactly (S1, S2); see :func:`solver.search.solve`."""
    from .search import solve as _solve
    return _solve(position, hero, **kw)


def analyse(position: Any, hero: int | None = None, **kw: Any):
    """Every legal move with its exact value; see :func:`solver.search.analyse`."""
    from .search import analyse as _analyse
    return _analyse(position, hero, **kw)


def hint(position: Any, **kw: Any):
    """Sampled move hint for a position with hidden cards (S3); see :func:`solver.hint.hint`."""
    return _hint_module.hint(position, **kw)


def parse_position(source: Any):
    """Parse a position string, JSON text or dict (NOTATION.md) into a ``Position``."""
    from .notation import parse_position as _parse
    return _parse(source)
