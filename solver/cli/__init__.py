"""The ``durak`` command line.  Each subcommand lives in its own module."""
from solver.cli import (batch, game, hint, match, moves,  # noqa: F401  (register commands)
                        playout, puzzle, review, show, solve)
from solver.cli.app import main

__all__ = ["main"]
