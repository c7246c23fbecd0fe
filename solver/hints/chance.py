"""Exact expectimax over the last draws: the pure-Python reference of ``ext/chance.pxi``.

A deal with a few cards left in the pile, valued without knowing the pile's
order (two players).  The hands are the deal's; the pile's hidden cards (those
above the face-up trump, R5) are a set, and every draw (R17) is a chance node:
every order of the hidden cards still in the pile is equally likely.  Between
the draws both seats choose by minimax -- the asking seat maximises its result,
the other minimises it -- so a move made before a draw is chosen for every draw
it may meet.  Once no hidden card is left in the pile (it is empty, or holds
only the face-up trump) every card is known and the exact solver gives the
value: +1 win, 0 draw, -1 loss (S1).  A move's value is its expected result.

The compiled core (``solver.search.native.core.chance_scores``) computes the
same numbers over bitmasks, each chance node taken once per way the hidden
cards can split between the drawers; this reference takes every order of them
and plays the rules engine's moves, so the two share nothing but the rules and
the exact solver (tested against each other in ``tests/test_chance.py``).  It
is slow -- for small positions and tests only.  Why it is not the hint's
default: docs/lab/strength.md ("What did not pay").
"""
from __future__ import annotations

from itertools import permutations

from solver.errors import PositionError
from solver.game.movegen import legal_moves, play
from solver.game.moves import Move
from solver.game.state import GameState
from solver.search import Solver


def hidden_pile(state: GameState) -> tuple[int, ...]:
    """The pile's cards above the face-up trump (a known pile order, top first)."""
    if state.pile == 0:
        return ()
    if state.pile_order is None or len(state.pile_order) != state.pile:
        raise PositionError("pile", "the expectimax over the draws needs the pile's cards")
    return tuple(state.pile_order[:-1])


def chance_values(state: GameState, me: int, solver: Solver | None = None) -> list[float]:
    """Every legal move's expected result for ``me`` (0-based; -1 .. 1), in the order of
    :func:`legal_moves`, over the orders of the pile's hidden cards (two players)."""
    if state.players != 2:
        raise PositionError("players", "the expectimax over the draws is for two players")
    slv = solver or Solver()
    hidden = hidden_pile(state)
    return [_move_value(state, m, me, hidden, slv) for m in legal_moves(state)]


def _value(state: GameState, me: int, hidden: tuple[int, ...], slv: Solver) -> float:
    if state.is_over:
        return float(state.final_outcome()[me])
    if not hidden:  # every card known from here on: the exact solver
        return float(int(slv.value(state, me + 1)))
    vals = [_move_value(state, m, me, hidden, slv) for m in legal_moves(state)]
    return max(vals) if state.to_move == me else min(vals)


def _move_value(state: GameState, move: Move, me: int, hidden: tuple[int, ...],
                slv: Solver) -> float:
    child = play(state, move)
    if child.pile == state.pile:
        return _value(child, me, hidden, slv)
    total, n = 0.0, 0
    for order in permutations(hidden):  # R17 draws: every order alike
        laid = state.replace(pile_order=tuple(order) + (state.trump_card,))
        after = play(laid, move)
        left = tuple((after.pile_order or ())[:-1]) if after.pile else ()
        total += _value(after, me, left, slv)
        n += 1
    return total / n


__all__ = ["chance_values", "hidden_pile"]
