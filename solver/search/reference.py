"""The slow oracle: a plain minimax over the pure-Python rules engine.

This module exists for tests and benchmarks only.  It walks
:func:`solver.game.movegen.legal_moves` / :func:`solver.game.movegen.play` with a plain
fail-soft alpha-beta over three-valued scores and a memo of bounds -- no move
ordering, no canonical forms, no boolean searches -- so that it shares no
search code and no search idea with the Cython core
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

from solver.errors import HiddenCardsError
from solver.game import movegen as engine
from solver.game.defaults import has_hidden_cards
from solver.game.state import GameState

BIG = 1_000_000
INF_PLY = 1 << 30
INF_SCORE = 1 << 40


class TooLarge(Exception):
    """The position is larger than the oracle was allowed to take on."""


def _score_value(score: int) -> tuple[int, int | None]:
    if score > 0:
        return 1, BIG - score
    if score < 0:
        return -1, BIG + score
    return 0, None


class ReferenceSolver:
    """Plain minimax with memo; ``hero`` is a 0-based seat."""

    def __init__(self, state: GameState, hero: int, max_nodes: int | None = None):
        if has_hidden_cards(state):
            raise HiddenCardsError("the reference minimax needs every card known")
        self.max_nodes = max_nodes  # past it: TooLarge (a sweep's oracle has a budget too)
        self.hero = hero
        self.teams = state.rules.teams
        self.memo: dict[GameState, tuple[int, int]] = {}  # score bounds (lower, upper)
        self.path: dict[GameState, int] = {}  # the ply of each state on the current line
        self.nodes = 0

    def on_hero_side(self, seat: int) -> bool:
        if self.teams:
            return seat % 2 == self.hero % 2
        return seat == self.hero

    def leaf(self, state: GameState) -> int:
        v = state.final_outcome()[self.hero]
        return 0 if v == 0 else (BIG if v > 0 else -BIG)

    def score(self, state: GameState, ply: int, alpha: int = -INF_SCORE,
              beta: int = INF_SCORE) -> tuple[int, int]:
        """(fail-soft score, lowest path ply of a repetition met below, INF_PLY if none).

        Alpha-beta over the scores; the memo keeps (lower, upper) bounds.
        """
        self.nodes += 1
        if self.max_nodes and self.nodes > self.max_nodes:
            raise TooLarge(f"more than {self.max_nodes} nodes")
        if state.is_over:
            return self.leaf(state), INF_PLY
        # the discard pile has no say in the rest of the game (pile empty or
        # known): states that differ only there are one state
        if state.out:
            state = state.replace(out=0)
        hit = self.path.get(state)
        if hit is not None:
            return 0, hit  # R23: a repetition is a draw, valid only on this path
        lo, hi = self.memo.get(state, (-INF_SCORE, INF_SCORE))
        if lo >= beta or lo == hi:
            return lo, INF_PLY
        if hi <= alpha:
            return hi, INF_PLY
        alpha, beta = max(alpha, lo), min(beta, hi)
        a0, b0 = alpha, beta
        self.path[state] = ply
        maximise = self.on_hero_side(state.to_move)
        best = None
        low = INF_PLY
        for mv in engine.legal_moves(state):
            # the child's score s counts one ply less: f(s) = s -+ 1 towards 0;
            # the child's window is the preimage of (alpha, beta) under f
            ca = alpha if alpha in (-INF_SCORE, INF_SCORE) else (alpha + 1 if alpha >= 0 else alpha - 1)
            cb = beta if beta in (-INF_SCORE, INF_SCORE) else (beta + 1 if beta > 0 else beta - 1)
            s, r = self.score(engine.play(state, mv), ply + 1, ca, cb)
            s = s - 1 if s > 0 else (s + 1 if s < 0 else 0)
            low = min(low, r)
            if maximise:
                if best is None or s > best:
                    best = s
                alpha = max(alpha, s)
            else:
                if best is None or s < best:
                    best = s
                beta = min(beta, s)
            if alpha >= beta:
                break
        del self.path[state]
        assert best is not None
        if low >= ply:
            if best <= a0:
                hi = min(hi, best)
            elif best >= b0:
                lo = max(lo, best)
            else:
                lo = hi = best
            self.memo[state] = (lo, hi)
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


def reference_moves(state: GameState,
                    hero: int | None = None) -> list[tuple[str, int, int | None]]:
    """[(move, value, distance)] for every legal move, by plain minimax."""
    if hero is None:
        hero = state.to_move
    return ReferenceSolver(state, hero).moves(state)


# ------------------------------------------------------------------ retrograde
class GraphTooLarge(TooLarge):
    """The reachable state graph has more states than allowed."""


def retrograde(state: GameState, hero: int, max_states: int = 200_000) -> tuple[
        dict[GameState, int], list[int], list[int | None], list[list[int]]]:
    """Values by retrograde analysis of the whole reachable state graph.

    A second, independent oracle that handles R23 by its definition rather
    than by repetition checks: the states from which the hero's side can force
    a win are the hero's attractor of the won terminal states, those from which
    the others can force his loss the others' attractor of the lost ones, and
    everything else -- including every state from which play can go on forever
    -- is a draw.  Attractor levels are the distances (fastest win, longest
    resistance).  Returns ``(ids, value, dist, succ)`` with ``ids[state]`` the
    index of a state (discard pile stripped), or raises :class:`GraphTooLarge`.
    """
    if has_hidden_cards(state):
        raise HiddenCardsError("the retrograde oracle needs every card known")
    teams = state.rules.teams

    def hero_side(seat: int) -> bool:
        return seat % 2 == hero % 2 if teams else seat == hero

    def norm(s: GameState) -> GameState:
        return s.replace(out=0) if s.out else s

    root = norm(state)
    ids = {root: 0}
    states = [root]
    succ: list[list[int]] = []
    i = 0
    while i < len(states):
        s = states[i]
        out = []
        if not s.is_over:
            for mv in engine.legal_moves(s):
                t = norm(engine.play(s, mv))
                j = ids.get(t)
                if j is None:
                    if len(states) >= max_states:
                        raise GraphTooLarge(f"more than {max_states} states")
                    j = ids[t] = len(states)
                    states.append(t)
                out.append(j)
        succ.append(out)
        i += 1
    n = len(states)
    pred: list[list[int]] = [[] for _ in range(n)]
    for a, outs in enumerate(succ):
        for b in outs:
            pred[b].append(a)
    value = [0] * n
    dist: list[int | None] = [None] * n

    for target, prover_is_hero in ((1, True), (-1, False)):
        left = [len(set(succ[a])) for a in range(n)]
        frontier = []
        for a, s in enumerate(states):
            if s.is_over and s.final_outcome()[hero] == target:
                value[a] = target
                dist[a] = 0
                frontier.append(a)
        done = set(frontier)
        d = 0
        while frontier:
            nxt = []
            for b in frontier:
                for a in set(pred[b]):
                    if a in done:
                        continue
                    mover_is_prover = hero_side(states[a].to_move) == prover_is_hero
                    if mover_is_prover:
                        done.add(a)
                        value[a], dist[a] = target, d + 1
                        nxt.append(a)
                    else:
                        left[a] -= 1
                        if left[a] == 0:
                            done.add(a)
                            value[a], dist[a] = target, d + 1
                            nxt.append(a)
            frontier = nxt
            d += 1
    return ids, value, dist, succ


def retrograde_moves(state: GameState, hero: int | None = None,
                     max_states: int = 200_000) -> list[tuple[str, int, int | None]]:
    """[(move, value, distance)] for every legal move, by retrograde analysis."""
    if hero is None:
        hero = state.to_move
    ids, value, dist, _ = retrograde(state, hero, max_states)
    out = []
    for mv in engine.legal_moves(state):
        t = engine.play(state, mv)
        j = ids[t.replace(out=0) if t.out else t]
        d = dist[j]
        out.append((str(mv), value[j], None if d is None else d + 1))
    return out
