"""Errors and exit codes.

Every error a user can cause is a ``ValueError`` subclass whose message names
the field and the token (python-chess style), so the CLI can print it on one
line and exit with :data:`ExitCode.BAD_INPUT`.
"""
from __future__ import annotations

import enum


class ExitCode(enum.IntEnum):
    """Exit codes of the ``durak`` command (NOTATION.md, "Machine output")."""

    OK = 0
    INTERNAL = 1
    BAD_INPUT = 2
    BUDGET = 3


class PositionError(ValueError):
    """A position that does not parse or cannot occur; names the field."""

    def __init__(self, field: str, problem: str):
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}")


class MoveError(ValueError):
    """Move text that does not parse."""


class IllegalMoveError(ValueError):
    """A well-formed move that the rules do not allow here."""


class HiddenCardsError(ValueError):
    """The answer needs cards that the position keeps hidden."""


class BudgetExceeded(Exception):
    """A time, node or memory budget ran out (exit 3); ``partial`` holds what is known."""

    def __init__(self, message: str, partial: object = None):
        super().__init__(message)
        self.partial = partial
