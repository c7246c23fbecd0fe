"""Training on a puzzle: the solver's best defence, the moves that solve it, refutations.

What `durak puzzle train` and the web board's puzzle page share: the player
moves for the puzzle's hero (and, with teams, his partner); the solver answers
for the others with its best defence; a move is judged against the exact
analysis of the position (:func:`judge`), and a wrong one is shown its
refutation -- the solver's best line after it.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from solver.errors import MoveError
from solver.game.movegen import legal_moves, play
from solver.game.moves import Move
from solver.game.state import GameState
from solver.game.value import Value
from solver.i18n import _
from solver.puzzles.collection import Puzzle, winning_set
from solver.search import Solver
from solver.search.result import on_hero_side


def mine(p: Puzzle, state: GameState) -> bool:
    """Whether the player (the puzzle's hero, or his partner) is to move."""
    return on_hero_side(state, p.hero - 1, state.to_move)


def good_moves(p: Puzzle, state: GameState, solver: Solver) -> tuple[list[str], Any]:
    """The moves that keep the task in reach here, and the analysis they come from."""
    an = solver.analyse(state, hero=p.hero)
    assert an.value is not None  # no budget: the analysis is exact
    if p.task == "avoid-durak":
        good = list(winning_set(an.moves, p.task, an.value))
    else:
        good = [m.move for m in an.moves if m.value == an.value]
    return good, an


def best_reply(p: Puzzle, state: GameState, solver: Solver) -> Move:
    """The solver's best defence for the seat to move (not the player's)."""
    res = solver.solve(state, hero=p.hero)
    return Move.parse(res.pv[0] if res.pv else res.best[0], state.rules.deck)


def seat_line(state: GameState, line: list[str]) -> list[str]:
    """A line of moves with each one's seat: ``["1:6S", "2:6S/AH"]``."""
    out = []
    s = state
    for m in line:
        if s.is_over:
            break
        out.append(f"{s.to_move + 1}:{m}")
        s = play(s, Move.parse(m, s.rules.deck))
    return out


@dataclass
class Judgement:
    """The verdict on one move of the player.

    ``ok``: it keeps the task in reach; ``good``: every move that does;
    ``value``: the result for the hero after it against best play, ``distance``
    in plies; ``refutation``: for a wrong move, the solver's best line after it
    (seat-prefixed moves) and ``end`` the state it leads to.
    """

    move: str
    ok: bool
    good: list[str]
    value: Value | None
    distance: int | None
    refutation: list[str] = field(default_factory=list)
    end: GameState | None = None

    def words(self, task: str) -> str:
        """What the result after a wrong move is, in words."""
        if task == "avoid-durak" and self.value == Value.LOSS:
            return _("you end up the durak")
        if self.value == Value.LOSS:
            return _("you lose")
        if self.value == Value.DRAW:
            return _("it is only a draw")
        if self.value == Value.WIN:
            return _("you still win")
        return _("it fails")


def judge(p: Puzzle, state: GameState, text: str, solver: Solver) -> Judgement:
    """Judge the player's move ``text`` in ``state`` (his turn); a move that does not
    parse or is not legal raises a :class:`~solver.errors.MoveError`."""
    mv = Move.parse(text, state.rules.deck)
    legal = {str(m): m for m in legal_moves(state)}
    name = str(mv)
    if name not in legal:
        raise MoveError(f"{name} is not legal here. Legal moves: {' '.join(legal)}")
    good, an = good_moves(p, state, solver)
    mine_ = next(m for m in an.moves if m.move == name)
    if name in good:
        return Judgement(name, True, good, mine_.value, mine_.distance)
    after = play(state, legal[name])
    ref = solver.solve(after, hero=p.hero)
    end = after
    for m in ref.pv:
        end = play(end, Move.parse(m, end.rules.deck))
    return Judgement(name, False, good, mine_.value, mine_.distance,
                     seat_line(after, list(ref.pv)), end)


def defend(p: Puzzle, state: GameState, solver: Solver) -> tuple[GameState, list[str]]:
    """The solver's best defence until the player is to move again or the game ends:
    the state then and the moves played (seat-prefixed)."""
    played = []
    while not state.is_over and not mine(p, state):
        reply = best_reply(p, state, solver)
        played.append(f"{state.to_move + 1}:{reply}")
        state = play(state, reply)
    return state, played


__all__ = ["Judgement", "best_reply", "defend", "good_moves", "judge", "mine", "seat_line"]
