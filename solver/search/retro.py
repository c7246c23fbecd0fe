"""Small games of three or more players, solved whole by retrograde analysis.

The proof search cannot store a failure that rests on a repetition (R23), and
with three or more players play goes round the table: proving that a move
only draws can take it minutes even with nine cards left.  A game that small
has at most a few million states, so the compiled core builds its whole reachable
graph and values every state at once (``ext/retro*.pxi``, the algorithm of the
oracle :func:`solver.search.reference.retrograde`): exact values, the fastest
win and the longest resistance for every move, and the variation, typically
in well under a second.  Larger games, or a graph that outgrows
:data:`MAX_STATES`, go to the proof search.
"""
from __future__ import annotations

import time
from typing import TYPE_CHECKING

from solver.game.cards import count
from solver.game.state import GameState
from solver.game.value import Value
from solver.search.native import core, move_text
from solver.search.result import MoveValue, SolveResult, on_hero_side, rank_moves

if TYPE_CHECKING:
    from solver._core import CState

#: Three or more players with at most this many cards in the hands and on the
#: table are solved by retrograde analysis (9 cards, 3 players: up to about
#: 2.8 M states, under a second).
MAX_CARDS = 9
#: The most states a graph may have (about 70 bytes each) before the proof
#: search takes over.  Well above the largest 9-card graphs met: a graph that
#: overflows it goes to a search that may need minutes for the same answer.
MAX_STATES = 5_000_000
#: One card more (three or four players, 10 cards in play): the graphs met
#: have 5-9.4 M states with 3 players (2.5-5 s, 0.5-1.3 GB), up to 19 M with
#: 4 and over 20 M with 5, where the proof search answers most such positions
#: in well under a second but some -- draws resting on repetitions, R23 --
#: not within minutes.  So these are searched
#: first, for at most :data:`FALLBACK_TRIAL` seconds, and solved whole only
#: if that does not answer them (``Solver``; docs/solver.md).
FALLBACK_CARDS = 10
FALLBACK_STATES = 12_000_000
FALLBACK_TRIAL = 1.0


def wanted(state: GameState) -> bool:
    """Whether ``state`` is a small multi-player game for retrograde analysis."""
    if state.players < 3 or state.pile > 0:
        return False
    return cards_in_play(state) <= MAX_CARDS


def cards_in_play(state: GameState) -> int:
    """Cards in the hands and on the table (none comes into play once the pile is empty)."""
    return sum(count(h) for h in state.hands) + count(state.table_mask)


def fallback(state: GameState) -> bool:
    """Whether ``state`` is one card too big for :func:`wanted` but small
    enough for a graph when the proof search does not answer it quickly."""
    return (3 <= state.players <= 4 and state.pile == 0
            and MAX_CARDS < cards_in_play(state) <= FALLBACK_CARDS)


def solve_small(root: CState, state: GameState, hero: int, all_moves: bool, want_pv: bool,
                max_time: float | None = None, max_nodes: int | None = None,
                threads: int = 1, max_states: int = MAX_STATES) -> SolveResult | None:
    """The full answer for ``hero`` (0-based) from the graph of core state ``root``,
    or None when the graph has more than ``max_states`` states -- or more
    than ``max_nodes``: a state of the graph costs about what a node of the
    search does, so the hint engine's node budgets bound the graphs it builds.
    Past ``max_time`` seconds the answer is an inexact one that knows nothing
    (the caller reports the budget).  ``threads`` 2: a big graph is built by
    two threads (the same graph)."""
    limit = max_states if max_nodes is None else max(1, min(max_states, max_nodes))
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
