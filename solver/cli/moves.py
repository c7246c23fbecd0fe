"""`durak moves`: the legal moves of a position in canonical move notation."""
from __future__ import annotations

from typing import Any

import click

from solver.cli.common import emit_json, handles_errors, load_position, outcome_info, phase_name
from solver.game.movegen import legal_moves
from solver.games.narration import result_text
from solver.i18n import _, pgettext
from solver.notation import format_position


def phase_word(phase: str) -> str:
    """The phase of the turn (``lead``, ``defend``, ``throw``, ``taken``) in the player's
    language; the JSON keeps the English name."""
    words = {"lead": pgettext("phase", "lead"), "defend": pgettext("phase", "defend"),
             "throw": pgettext("phase", "throw"), "taken": pgettext("phase", "taken")}
    return words.get(phase, phase)


@click.command("moves")
@click.argument("position")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@handles_errors
def moves_command(position: str, as_json: bool) -> None:
    """List the legal moves of POSITION (canonical notation, docs/notation.md; the
    words around them in the language of --lang).

    The moves of a seat whose hand holds hidden cards are not known: exit 2.
    """
    pos = load_position(position)
    state = pos.state
    outcome = outcome_info(state)
    moves = [str(m) for m in legal_moves(state)]  # HiddenCardsError -> exit 2
    to_move = state.to_move + 1 if outcome is None else None
    if as_json:
        obj: dict[str, Any] = {"to_move": to_move, "moves": moves, "phase": phase_name(state),
               "position": format_position(state, pos.me)}
        if outcome is not None:
            obj["outcome"] = outcome
        emit_json(obj)
        return
    if outcome is not None:
        click.echo(_("game over: {how}").format(how=result_text(outcome, ids=True)))
        return
    click.echo(_("seat {seat} to move ({phase}): {moves}").format(
        seat=to_move, phase=phase_word(phase_name(state)), moves=" ".join(moves)))
