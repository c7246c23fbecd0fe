"""The game: cards, rule options, moves, states and the rules engine (R1-R23, P1-P4).

:mod:`~solver.game.movegen` is the readable reference of the rules (legal
moves and their effect); the compiled core (``ext/``) implements the same
rules over bitmasks and is held to it state by state.
"""
from solver.game.cards import card_name, parse_card
from solver.game.movegen import legal_moves, play
from solver.game.moves import Move
from solver.game.rules import Rules, parse_rules
from solver.game.state import GameState, Phase
from solver.game.value import Value

__all__ = ["GameState", "Move", "Phase", "Rules", "Value", "card_name", "legal_moves",
           "parse_card", "parse_rules", "play"]
