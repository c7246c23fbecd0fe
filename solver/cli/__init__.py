"""The ``durak`` command line.  Each subcommand lives in its own module."""
from solver.cli import (game, hint, match, moves, playout,  # noqa: F401  (register commands)
                        puzzle, review, show, solve)
from solver.cli.app import main

__all__ = ["main"]
