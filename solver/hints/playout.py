"""The greedy playout: finish a fully known game with the greedy player in every seat.

This is the pure-Python reference; the compiled core plays the same moves
with the same results (``ext/playout.pxi``, tested move for move in
``tests/test_playout_core.py``) and is what the hint engine runs.
"""
from __future__ import annotations

from typing import Callable

from solver.game.movegen import play
from solver.game.state import GameState
from solver.policy.bots import greedy_move

#: A playout longer than this many moves counts as a draw (R23: endless play).
PLAYOUT_LIMIT = 1500


def playout(state: GameState, me: int, limit: int = PLAYOUT_LIMIT,
            endgame: Callable[[GameState, int], int | None] | None = None) -> tuple[int, float]:
    """Finish a fully known game with the greedy player in every seat.

    Returns ``me``'s result (+1/0/-1) and the card margin at the end: the
    mean hand of the others minus ``me``'s hand (how decisive the result was;
    the durak's cards count for the winners).  With ``endgame``, the first
    position between bouts with the pile empty is handed to it; if it returns a
    value (+1/0/-1, an exact solve) that is the result, with the card margin of
    that moment.
    """
    s = state
    solved = None
    for _ in range(limit):
        if s.is_over:
            break
        if endgame is not None and s.pile == 0 and not s.table:
            solved = endgame(s, me)
            if solved is not None:
                break
            endgame = None
        s = play(s, greedy_move(s))
    n = s.players
    mine = s.hand_size(me)
    others = sum(s.hand_size(o) for o in range(n) if o != me) / (n - 1)
    if solved is not None:
        return solved, others - mine
    if not s.is_over:
        return 0, 0.0  # R23: endless play counts as a draw
    return s.final_outcome()[me], others - mine
