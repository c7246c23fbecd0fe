"""How a game stands, in words and JSON: the phase of the turn, each seat's role and
the result of a finished game (R20, R21, R22), shared by the commands, the game
session and the web board."""
from __future__ import annotations

from typing import Any

from solver.game.state import GameState

PHASE_NAMES = {1: "lead", 2: "defend", 3: "throw", 4: "taken", 5: "over"}


def phase_name(state: GameState) -> str:
    """P1..P4 / over as a word for JSON output."""
    return PHASE_NAMES[int(state.phase)]


def outcome_info(state: GameState) -> dict[str, Any] | None:
    """The result of a finished game as JSON-ready data (R20, R21, R22), else None.

    ``scores`` per seat (+1 win, 0 draw, -1 loss); ``durak`` the 1-based seat
    that lost under R20 (None for a draw, a team loss or R21); ``text`` one line.
    """
    res = state.outcome() if not state.table else None
    if res is None:
        return None
    seats = range(state.players)
    winners = [s + 1 for s in seats if res[s] > 0]
    losers = [s + 1 for s in seats if res[s] < 0]
    drawn = [s + 1 for s in seats if res[s] == 0]
    rules = state.rules
    durak = None
    if not losers:
        result, text = "draw", "draw: " + ("nobody holds cards (R20)" if not rules.first_out_wins
                                           else f"seats {_seats(drawn)} went out together")
    elif rules.first_out_wins:
        result = "first_out"
        text = (f"seat {_seats(winners)} went out first and wins (R21)" if winners
                else f"seats {_seats(drawn)} went out together and share the win (R21)")
    elif rules.teams:
        result, text = "team_lost", f"team of seats {_seats(losers)} loses (R22)"
    else:
        durak = losers[0]
        result, text = "durak", f"seat {durak} is the durak (R20)"
    return {"result": result, "durak": durak, "winners": winners, "losers": losers,
            "draws": drawn, "scores": list(res), "text": text}


def outcome_text(state: GameState) -> str:
    """One line on how the game ended (R20-R22), or that it goes on."""
    info = outcome_info(state)
    return info["text"] if info is not None else "the game goes on"


def _seats(seats: list[int]) -> str:
    return "+".join(str(s) for s in seats)


def seat_roles(state: GameState, seat: int, to_move: bool = True) -> list[str]:
    """The markers of a seat (0-based), as the board shows them: ``attacker``,
    ``defender`` (R4), ``to move`` (with ``to_move``), ``out`` (gone out, F7, R19);
    once the game is over only ``out``."""
    if state.is_over:
        return ["out"] if state.hand_size(seat) == 0 else []
    tags = []
    if seat == state.attacker:
        tags.append("attacker")
    if seat == state.defender:
        tags.append("defender")
    if to_move and seat == state.to_move:
        tags.append("to move")
    if not state.active(seat):
        tags.append("out")
    return tags


__all__ = ["PHASE_NAMES", "outcome_info", "outcome_text", "phase_name", "seat_roles"]
