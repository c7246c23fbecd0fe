"""The value of a position for a seat: win, draw or loss (S1, S2).

One type for every answer the tool gives -- the solver's values, a move's
value, a puzzle's task -- so the mapping between numbers and words is written
once.  ``Value.WIN == 1``, ``Value.DRAW == 0``, ``Value.LOSS == -1`` (an
``IntEnum``: values compare and negate like the scores they are), and
``str(value)`` / :meth:`Value.from_text` are a format/parse pair.
"""
from __future__ import annotations

import enum


class Value(enum.IntEnum):
    """A game-theoretic value for one seat (or side)."""

    LOSS = -1
    DRAW = 0
    WIN = 1

    @classmethod
    def from_text(cls, text: str) -> "Value":
        """``"win"``, ``"draw"`` or ``"loss"`` (any case) as a :class:`Value`."""
        try:
            return cls[text.strip().upper()]
        except KeyError:
            raise ValueError(f"value: expected win, draw or loss, got {text!r}") from None

    @property
    def text(self) -> str:
        """The lower-case word: ``"win"``, ``"draw"`` or ``"loss"``."""
        return self.name.lower()

    def __str__(self) -> str:
        return self.text

    def __neg__(self) -> "Value":  # the other side's value
        return Value(-int(self))


def value_text(value: Value | None) -> str:
    """The word for a value, ``"unknown"`` for one a budget did not prove."""
    return "unknown" if value is None else value.text
