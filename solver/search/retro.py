"""Small games of three or more players, solved whole by retrograde analysis.

The proof search cannot store a failure that rests on a repetition (R23), and
with three or more players play goes round the table: proving that a move
only draws can take it minutes even with nine cards left.  A game that small
has at most a few million states, so the compiled core builds its whole reachable
graph and values every state at once (``ext/retro.pxi``, the algorithm of the
oracle :func:`solver.search.reference.retrograde`): exact values, the fastest
win and the longest resistance for every move, and the variation, typically
in well under a second.  Larger games, or a graph that outgrows
:data:`MAX_STATES`, go to the proof search.
"""
from __future__ import annotations

import time

from solver.game.cards import count
from solver.game.state import GameState
from solver.game.value import Value
from solver.search.native import core, move_text
from solver.search.result import MoveValue, SolveResult, on_hero_side, rank_moves

#: Three or more players with at most this many cards in the hands and on the
#: table are solved by retrograde analysis (9 cards, 3 players: up to about
#: 2.8 M states, under a second).
MAX_CARDS = 9
#: The most states a graph may have (about 70 bytes each) before the proof
#: search takes over.  Well above the largest 9-card graphs met: a graph that
#: overflows it goes to a search that may need minutes for the same answer.
MAX_STATES = 5_000_000


def wanted(state: GameState) -> bool:
    """Whether ``state`` is a small multi-player game for retrograde analysis."""
    if state.players < 3 or state.pile > 0:
        return False
    return sum(count(h) for h in state.hands) + count(state.table_mask) <= MAX_CARDS


def solve_small(root, state: GameState, hero: int, all_moves: bool, want_pv: bool,
                max_time: float | None = None, max_nodes: int | None = None,
                threads: int = 1) -> SolveResult | None:
    """The full answer for ``hero`` (0-based) from the graph of core state ``root``,
    or None when the graph has more than :data:`MAX_STATES` states -- or more
    than ``max_nodes``: a state of the graph costs about what a node of the
    search does, so the hint engine's node budgets bound the graphs it builds.
    Past ``max_time`` seconds the answer is an inexact one that knows nothing
    (the caller reports the budget).  ``threads`` 2: a big graph is built by
    two threads (the same graph)."""
    limit = MAX_STATES if max_nodes is None else max(1, min(MAX_STATES, max_nodes))
    deadline = time.monotonic() + max_time if max_time else 0.0
    try:
        graph = core.RetroGraph(root, hero, limit, deadline, threads)
    except OverflowError:
        return None
    except TimeoutError:
        return SolveResult(hero + 1, None, [], [], None, 0, 0.0, False)
    value, distance = graph.root()
    mine = on_hero_side(state, hero, state.to_move)
    moves = [MoveValue(move_text(mv), Value(v), d) for mv, v, d in graph.moves()]
    ordered, best = rank_moves(moves, mine)
    v = Value(value)
    pv = [move_text(m) for m in graph.variation()] if want_pv else []
    return SolveResult(hero + 1, v, best, pv, distance, graph.states_count, 0.0, True,
                       ordered if all_moves else [], v, v)
