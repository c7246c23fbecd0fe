"""The ``durak`` executable's entry point (the console script, ``python -m solver.cli``).

It sets up how the process ends first (:func:`solver.cli.launch.run`: stop
signals, broken streams, exit codes), then loads the command group
(:mod:`solver.cli.app`) -- click, rich and the solver take a while to import,
and a Ctrl-C meanwhile must end the command as it ends any other.  The group
itself imports :mod:`solver.cli.launch` for its endings, so the launcher never
imports the group: it is handed this loader.
"""
from __future__ import annotations

import importlib

from solver.cli import launch

#: ``typing.TYPE_CHECKING`` without importing typing (see ``solver.TYPE_CHECKING``).
TYPE_CHECKING = False
if TYPE_CHECKING:
    from typing import Any, Callable


def command_group() -> Callable[..., Any]:
    """The ``durak`` command group, imported now (:mod:`solver.cli.app`)."""
    return importlib.import_module("solver.cli.app").main


def run() -> None:
    """Run ``durak`` with the command line's arguments (``sys.argv``)."""
    launch.run(command_group)
