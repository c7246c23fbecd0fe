"""`durak play-out`: play a position to the end with random legal moves.

Hidden cards are first dealt at random from the unseen pool
(:func:`solver.game.determinize.deal_hidden`), so every move of the record is
known.  One ``random.Random(seed)`` drives the deal and the moves: a seed
always gives the same game.
"""
from __future__ import annotations

import random
import sys
from dataclasses import dataclass, field
from typing import Any

import click

from solver.cli.common import ExitCode, emit_json, handles_errors, load_position, outcome_info
from solver.errors import OptionError
from solver.game.cards import card_name, cards_of
from solver.game.determinize import deal_hidden
from solver.game.movegen import legal_moves, play
from solver.game.moves import Kind, Move
from solver.game.rules import HAND_SIZE
from solver.game.state import GameState
from solver.games import Game
from solver.notation import format_position
from solver.run.outfile import write_whole


@dataclass
class Record:
    """A played-out game: the dealt start, the moves, the bout ends, the outcome."""

    seed: int
    start: GameState
    moves: list[str] = field(default_factory=list)
    bouts: list[dict[str, Any]] = field(default_factory=list)
    final: GameState | None = None

    def to_json(self) -> dict[str, Any]:
        assert self.final is not None
        return {"seed": self.seed, "start": format_position(self.start), "moves": self.moves,
                "bouts": self.bouts, "finished": self.final.is_over,
                "final": format_position(self.final), "outcome": outcome_info(self.final)}


def _names(mask: int) -> list[str]:
    return [card_name(c) for c in cards_of(mask)]


def bout_end(before: GameState, move: Move, after: GameState, index: int) -> dict[str, Any]:
    """What happened when ``move`` ended the bout: discard or pick-up (R15, R16), draws (R17)."""
    seat = before.to_move
    played = sum(1 << c for c in move.cards) if move.kind in (Kind.COVER, Kind.THROW) else 0
    table = before.table_mask | played
    taken = before.take or move.kind is Kind.TAKE
    drew: dict[str, list[str]] = {}
    for s in range(before.players):
        had = before.hands[s] & ~played if s == seat else before.hands[s]
        if taken and s == before.defender:
            had |= table
        got = after.hands[s] & ~had
        if got:
            drew[str(s + 1)] = _names(got)
    return {"after_move": index, "result": "picked_up" if taken else "discarded",
            "defender": before.defender + 1, "cards": _names(table), "drew": drew,
            "pile": after.pile}


def play_out(state: GameState, seed: int, max_moves: int) -> Record:
    """Deal the hidden cards, then play random legal moves until the game ends."""
    rng = random.Random(seed)
    state = deal_hidden(state, rng)
    rec = Record(seed=seed, start=state)
    while not state.is_over and len(rec.moves) < max_moves:
        move = rng.choice(legal_moves(state))
        seat = state.to_move
        after = play(state, move)
        rec.moves.append(f"{seat + 1}:{move}")
        if state.table and not after.table:
            rec.bouts.append(bout_end(state, move, after, len(rec.moves)))
        state = after
    rec.final = state
    return rec


def is_deal(state: GameState) -> bool:
    """A state right after the deal: six cards each, nothing played (R5)."""
    return (not state.table and state.out == 0
            and all(state.hand_size(s) == HAND_SIZE for s in range(state.players)))


def print_record(rec: Record) -> None:
    click.echo(f"seed {rec.seed}; start: {format_position(rec.start)}")
    ends = {b["after_move"]: b for b in rec.bouts}
    for i, m in enumerate(rec.moves, 1):
        click.echo(f"{i:4d}. {m}")
        b = ends.get(i)
        if b:
            what = ("discarded" if b["result"] == "discarded"
                    else f"seat {b['defender']} picked up")
            line = f"      -- bout ends: {what} {' '.join(b['cards'])}"
            if b["drew"]:
                line += "; drew: " + ", ".join(f"seat {s} {' '.join(cs)}"
                                               for s, cs in b["drew"].items())
            click.echo(line + f"; pile {b['pile']}")
    assert rec.final is not None
    outcome = outcome_info(rec.final)
    if outcome is not None:
        click.echo(f"game over after {len(rec.moves)} moves: {outcome['text']}")
    else:
        click.echo(f"stopped after {len(rec.moves)} moves, the game is not over (--max-moves)")


@click.command("play-out")
@click.argument("position")
@click.option("--seed", type=int, default=0, show_default=True,
              help="Seed of the random deal of hidden cards and of the moves.")
@click.option("--max-moves", type=click.IntRange(min=1), default=10000, show_default=True,
              help="Stop after this many moves (exit 3 if the game is not over).")
@click.option("--record", "record_file", default=None, metavar="FILE",
              help="Also write the game as a full game record (docs/game-record.md); "
                   "POSITION must be a deal (six cards each, nothing played).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object.")
@handles_errors
def playout_command(position: str, seed: int, max_moves: int, record_file: str | None,
                    as_json: bool) -> None:
    """Play POSITION to the end with random legal moves and print the game record."""
    state = load_position(position).state
    if record_file is not None and not is_deal(state):
        raise OptionError("record: --record needs POSITION at the deal: six cards in every "
                          "hand, nothing on the table or discarded (R5)")
    rec = play_out(state, seed, max_moves)
    if record_file is not None:
        text = Game.from_play(rec.start, rec.moves).format()  # checked before writing
        write_whole(record_file, text, inputs=[position], option="--record")  # whole or not at all
    if as_json:
        emit_json(rec.to_json())
    else:
        print_record(rec)
    assert rec.final is not None
    if not rec.final.is_over:
        sys.exit(int(ExitCode.BUDGET))
