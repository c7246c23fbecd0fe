"""Endgame puzzles: the collections' file format, checking and generating them.

:mod:`~solver.puzzles.collection` reads and writes the TOML collections and
checks a puzzle's solution against the solver; :mod:`~solver.puzzles.generate`
finds new ones; :mod:`~solver.puzzles.rating` (Glicko-2, a puzzle's provisional
rating), :mod:`~solver.puzzles.serve` (which puzzle next) and
:mod:`~solver.puzzles.player` (the player's record, the missed ones' reviews) are
the rated training.
"""
from solver.puzzles.collection import (Collection, Puzzle, PuzzleFormatError, check_puzzle,
                                       load_all, load_collection)

__all__ = ["Collection", "Puzzle", "PuzzleFormatError", "check_puzzle", "load_all",
           "load_collection"]
