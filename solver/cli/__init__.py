"""The ``durak`` command line.  Each subcommand lives in its own module,
imported when it is used (:class:`solver.cli.app.LazyGroup`); the executable
starts in :mod:`solver.cli.entry`."""
from __future__ import annotations

import importlib

#: ``typing.TYPE_CHECKING`` without importing typing (see ``solver.TYPE_CHECKING``).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any

__all__ = ["main"]


def __getattr__(name: str) -> Any:
    """``main``, the command group, loaded on first use (PEP 562)."""
    if name == "main":
        return importlib.import_module("solver.cli.app").main
    raise AttributeError(f"module 'solver.cli' has no attribute {name!r}")


if TYPE_CHECKING:
    from solver.cli.app import main
