"""The ``durak`` command line.  Each subcommand lives in its own module."""
from .app import main
from . import show, moves, playout, solve, hint, match, puzzle  # noqa: F401  (register commands)

__all__ = ["main"]
