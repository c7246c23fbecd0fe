"""durak-solver: exact endgame solver, hint engine and puzzles for Durak."""
from .cards import card_name, parse_card
from .moves import Move
from .rules import Rules, parse_rules
from .state import GameState, Phase

__all__ = ["GameState", "Move", "Phase", "Rules", "card_name", "parse_card", "parse_rules"]
__version__ = "0.1.0"
