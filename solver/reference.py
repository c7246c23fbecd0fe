"""The slow oracle: a plain minimax over the pure-Python rules engine.

This module exists for tests and benchmarks only.  It walks
:func:`solver.engine.legal_moves` / :func:`solver.engine.play` with no
pruning at all, so that it shares no search code with the Cython core
(:mod:`solver._core`) it checks.  Use it on small positions; it is several
hundred times slower than the real solver.

Values are from the hero's point of view (S1, S2, S2a): the hero's side is
the hero's seat, or under ``teams=2v2`` the hero's team; every other seat plays
against it (the paranoid coalition of S2).

Scores: a win in ``d`` plies scores ``BIG - d``, a loss in ``d`` plies
``-(BIG - d)``, a draw ``0``.  The hero maximises, the others minimise, so
the minimax score gives the value and at the same time the fastest forced win
and the longest resistance (distance in plies: every single move of the turn
protocol P1-P4 is one ply, passes included).

R23 (endless play is a draw): a state that repeats a state on the current path
scores 0.  Such a score depends on the path, so a node whose subtree met a
repetition of a state *above* the node is not memoised (the
graph-history-interaction rule); every other node's score is a function of the
state alone and is memoised.  Repetitions are checked at every state.
"""
from __future__ import annotations

import sys

from . import engine
from .errors import HiddenCardsError
from .state import GameState

BIG = 1_000_000
INF_PLY = 1 << 30


def _score_value(score: int) -> tuple[int, int | None]:
    if score > 0:
        return 1, BIG - score
    if score < 0:
        return -1, BIG + score
    return 0, None


class ReferenceSolver:
    """Plain minimax with memo; ``hero`` is a 0-based seat."""

    def __init__(self, state: GameState, hero: int):
        if any(state.hidden) or (state.pile > 0 and state.pile_order is None):
            raise HiddenCardsError("the reference minimax needs every card known")
        self.hero = hero
        self.teams = state.rules.teams
        self.memo: dict[GameState, int] = {}
        self.path: dict[GameState, int] = {}
        self.nodes = 0

    def on_hero_side(self, seat: int) -> bool:
        if self.teams:
            return seat % 2 == self.hero % 2
        return seat == self.hero

    def leaf(self, state: GameState) -> int:
        v = state.outcome()[self.hero]
        return 0 if v == 0 else (BIG if v > 0 else -BIG)

    def score(self, state: GameState, ply: int) -> tuple[int, int]:
        """(score, lowest path ply of a repetition met below, INF_PLY if none)."""
        self.nodes += 1
        if state.is_over:
            return self.leaf(state), INF_PLY
        hit = self.path.get(state)
        if hit is not None:
            return 0, hit  # R23: a repetition is a draw, valid only on this path
        m = self.memo.get(state)
        if m is not None:
            return m, INF_PLY
        self.path[state] = ply
        maximise = self.on_hero_side(state.to_move)
        best = None
        low = INF_PLY
        for mv in engine.legal_moves(state):
            s, r = self.score(engine.play(state, mv), ply + 1)
            s = s - 1 if s > 0 else (s + 1 if s < 0 else 0)
            low = min(low, r)
            if best is None or (s > best if maximise else s < best):
                best = s
        del self.path[state]
        assert best is not None
        if low >= ply:
            self.memo[state] = best
        return best, low

    def root(self, state: GameState) -> tuple[int, int | None]:
        """(value, distance) of ``state`` for the hero."""
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20000))
        try:
            return _score_value(self.score(state, 0)[0])
        finally:
            sys.setrecursionlimit(old)

    def moves(self, state: GameState) -> list[tuple[str, int, int | None]]:
        """Every root move with its (value, distance) for the hero."""
        out = []
        old = sys.getrecursionlimit()
        sys.setrecursionlimit(max(old, 20000))
        try:
            # each move's value is its child's own value: endless play is a
            # draw whatever the history (R23), so the root is not on the path
            for mv in engine.legal_moves(state):
                s, _ = self.score(engine.play(state, mv), 0)
                v, d = _score_value(s)
                out.append((str(mv), v, None if d is None else d + 1))
        finally:
            sys.setrecursionlimit(old)
        return out


def reference_value(state: GameState, hero: int | None = None) -> tuple[int, int | None]:
    """(value, distance) by plain minimax; ``hero`` 0-based, default the seat to move."""
    if hero is None:
        hero = state.to_move
    return ReferenceSolver(state, hero).root(state)


def reference_moves(state: GameState, hero: int | None = None):
    """[(move, value, distance)] for every legal move, by plain minimax."""
    if hero is None:
        hero = state.to_move
    return ReferenceSolver(state, hero).moves(state)
