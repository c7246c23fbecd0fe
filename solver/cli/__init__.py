"""The ``durak`` command line.  Each subcommand lives in its own module."""
from solver.cli import (batch, hint, match, moves, playout, puzzle,  # noqa: F401  (register commands)
                        show, solve)
from solver.cli.app import main

__all__ = ["main"]
