"""A parsed position: the game state and the seat whose view a hint takes.

Parsing (:mod:`solver.notation.build`) produces it; its ``str`` and
``to_json`` are the canonical forms of :mod:`solver.notation.format`.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver.errors import HiddenCardsError
from solver.game.movegen import legal_moves
from solver.game.outcome import outcome_info, phase_name
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


def show_json(pos: Position) -> dict:
    """`durak show --json`: the canonical position, its JSON, the phase, the seat to
    move, the legal moves (None where hidden cards hide them) and the outcome."""
    state = pos.state
    obj: dict = {"position": format_position(state, pos.me),
                 "json": position_to_json(state, pos.me),
                 "phase": phase_name(state),
                 "to_move": state.to_move + 1 if state.to_move >= 0 else None}
    try:
        obj["moves"] = [str(m) for m in legal_moves(state)]
    except HiddenCardsError as e:
        obj["moves"] = None
        obj["moves_unknown"] = str(e)
    outcome = outcome_info(state)
    if outcome is not None:
        obj["outcome"] = outcome
    return obj
