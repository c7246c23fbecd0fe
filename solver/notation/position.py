"""A parsed position: the game state and the seat whose view a hint takes.

Parsing (:mod:`solver.notation.build`) produces it; its ``str`` and
``to_json`` are the canonical forms of :mod:`solver.notation.format`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver.game.state import GameState
from solver.notation.format import format_position, position_to_json


@dataclass(frozen=True)
class Position:
    """A parsed position: the game state and the seat whose view a hint takes.

    ``me`` is a 0-based seat or ``None`` (the default: the seat to move).
    """

    state: GameState
    me: int | None = None

    def __str__(self) -> str:
        return format_position(self.state, self.me)

    def to_json(self) -> dict[str, Any]:
        return position_to_json(self.state, self.me)

    @property
    def view_seat(self) -> int:
        """The seat a hint is for: ``me``, else the seat to move."""
        return self.me if self.me is not None else self.state.to_move
