"""The prover driver: composes the core's two boolean searches into answers.

The core (``ext/``) answers one question at a time -- can this side force a
decisive result, within so many plies? -- and the backend asks the questions
that make up an answer, each kind in a module of its own: the value
(:mod:`~solver.search.prover`: both provers in turn, with growing node
budgets), the distance (:mod:`~solver.search.distance`: ply-limited proofs),
every move's value (:mod:`~solver.search.moves`) and the principal variation
(:mod:`~solver.search.variation`); :mod:`~solver.search.threads` runs a
question in a helper thread.  This module puts them together in the order an
answer needs them (:meth:`CoreBackend.run`).  :class:`solver.search.Solver`
is the public face.
"""
from __future__ import annotations

import time

from solver._core import CState
from solver.game.state import GameState
from solver.game.value import Value
from solver.search.moves import MoveAnalysis
from solver.search.native import core as _core
from solver.search.native import load, move_text
from solver.search.prover import PARALLEL_FROM, PREDICT_LEAN, UNLIM, Aborted, Stopped
from solver.search.result import MoveValue, SolveResult, on_hero_side, rank_moves, rank_partial
from solver.search.variation import Variation


class CoreBackend(MoveAnalysis, Variation):
    """Values, distances and variations from the core's boolean searches.

    ``threads`` 2: a helper search shares the table and, in its own thread,
    runs the others' prover while this one runs the hero's side's, for every
    value that is not settled within a few thousand nodes
    (``_decide_parallel``).  Its side table of repetition-dependent failures
    takes an eighth of ``tt_mb``.
    """

    helper: CoreBackend | None

    def __init__(self, tt_mb: int, threads: int = 1):
        helper_mb = max(1, tt_mb // 8) if threads > 1 else 0
        self.search = _core.Search(max(1, tt_mb - helper_mb))
        self.helper = None
        self.parallel_from = PARALLEL_FROM  # (tests set 0: every value on two threads)
        self.helper_busy = False  # the helper thread asks moves (_ask_moves)
        #: the root move of the last successful proof of :meth:`_decide` (an
        #: index into the state's moves, or -1): a move that keeps the value
        #: when the prover moves at the root, asked first among the moves
        self.decided_move = -1
        #: while ``_ask_moves`` runs this thread's own question beside the
        #: helper's moves: the distance walks it starts, for the helper to join
        self.joinable = None
        self.walks_joined = 0  # (how often the helper did: for tests)
        self.shared_limits = 0  # (limits of a _Deepening this thread proved: for tests)
        if helper_mb:
            self.helper = CoreBackend(helper_mb)
            self.helper.search.share_table(self.search)
        self.deadline = 0.0
        self.max_nodes = 0
        self.distance_schedule = "upward"
        self.predict_lean = PREDICT_LEAN  # (0: equal turns; tests and benchmarks compare)

    # ------------------------------------------------------------- API
    def load(self, state: GameState) -> CState:
        """``state`` as a state of this backend's core search."""
        if self.helper is not None:
            load(self.helper.search, state)  # the same game, for _decide_parallel
        return load(self.search, state)

    def value(self, state: GameState, hero: int) -> int:
        self.deadline = 0.0
        self.max_nodes = 0
        st = self.load(state)
        self.search.new_generation()
        return self._value(st, hero)

    def budgeted_value(self, st: CState, hero: int, max_nodes: int,
                       max_time: float | None = None) -> int | None:
        """The exact value of core state ``st`` for ``hero`` within
        ``max_nodes`` nodes (0: no limit) and ``max_time`` seconds (None: no
        limit), or None (the hint engine's endgame question, the review's
        hindsight; the same provers, deepening and table as :meth:`run`)."""
        if st.fields()["over"]:
            return st.hero_outcome(hero)
        self.deadline = (time.monotonic() + max_time) if max_time else 0.0
        self.search.reset_nodes()
        self.search.new_generation()
        self.max_nodes = max_nodes
        try:
            return self._decide(st, hero)[0]
        except Aborted as e:
            if e.interrupted:  # Ctrl-C is the caller's to see, not an exhausted budget
                raise KeyboardInterrupt from None
            return None
        finally:
            self.max_nodes = 0
            self.deadline = 0.0

    def run(self, state: GameState, hero: int, all_moves: bool, max_time: float | None,
            max_nodes: int | None, want_distance: bool, want_pv: bool) -> SolveResult:
        """``solve`` (``all_moves`` false) or ``analyse``.

        The value first (the two provers), then: for ``solve`` every move's
        value only (the best moves are those of the best value) and the
        root's own distance; for ``analyse`` every move's value and distance
        in the same table (the winner's moves start their distance search at
        the root's distance less one).  The variation is read from the
        provers' deciding moves (``_pv``), not from re-solved children."""
        self.deadline = (time.monotonic() + max_time) if max_time else 0.0
        self.max_nodes = int(max_nodes) if max_nodes else 0
        self.reset_nodes()
        self.search.new_generation()
        st = self.load(state)
        self.decided_move = -1
        result = SolveResult(hero + 1, None, [], [], None, 0, 0.0, False, [], Value.LOSS,
                             Value.WIN)
        mine = on_hero_side(state, hero, st.to_move())
        dist_known: list[int] = []  # the root distance's [lower, upper] as proven
        found: list[int] = []  # the root distance, once found
        # the moves' answers as they come, for a partial answer: analyse's
        # values, then its (value, distance) pairs; solve's keeps-the-value
        valued: list = []
        measured: list = []
        kept: list = []
        try:
            bounds = [-1, 1]  # [lower, upper]
            try:
                value, ub = self._decide(st, hero, bounds)
            finally:
                result.lower, result.upper = Value(bounds[0]), Value(bounds[1])
            assert value is not None  # without fail_ends every question is decided
            # the value proof's move at the root keeps a win of the mover's side
            lead = self.decided_move if value != 0 and (value > 0) == mine else -1
            result.value = Value(value)
            result.lower = result.upper = result.value
            dist = None

            def root_distance() -> None:
                found.append(self._distance(st, hero, 1 if value > 0 else 0, ub,
                                            track=dist_known))

            need_distance = value != 0 and (want_pv or want_distance)
            if need_distance and want_distance:
                dist_known[:] = [1, ub]  # (the value's own proof: at most ub plies)
            if all_moves:
                if need_distance:
                    # every move's value first, then the root's distance and
                    # the moves' distances: a budget that runs out on the
                    # distances still shows which moves keep the value
                    kids = self._children(st, hero, False, value, None, mine,
                                          progress=valued, lead=lead)
                    values = [v for _, v, _ in kids]
                    root_distance()
                    dist = found[0]
                    if want_distance:
                        kids = self._children(st, hero, True, value, dist, mine, values,
                                              progress=measured)
                else:
                    kids = self._children(st, hero, want_distance, value, dist, mine,
                                          progress=measured, lead=lead)
                moves = [MoveValue(move_text(mv), Value(v), d) for mv, v, d in kids]
                ordered, best = rank_moves(moves, mine)
                result.moves = ordered
            else:
                # with two threads the best moves run beside the root's distance
                best = self._best_moves(st, hero, value, mine,
                                        root_distance if need_distance else None, kept,
                                        lead)
                dist = found[0] if need_distance else None
                ordered = [MoveValue(m, Value(value), None) for m in best]
            if want_distance:
                result.distance = dist
            if want_pv:
                result.pv = self._pv(st, hero, state, value, dist, ordered)
            if result.pv and result.pv[0] in best:
                # the variation's move first (the fastest win, the longest
                # resistance), the others in move order
                best.remove(result.pv[0])
                best.insert(0, result.pv[0])
            result.best = best
            result.exact = True
        except Aborted as e:
            result.exact = False
            result.interrupted = e.interrupted
        except KeyboardInterrupt:  # Ctrl-C between two proofs: what is proven stands
            result.exact = False
            result.interrupted = True
        if not result.exact and want_distance and result.distance is None and found:
            result.distance = found[0]  # proven before the budget ran out on the rest
        elif not result.exact and want_distance and result.distance is None and dist_known:
            lo, hi = dist_known
            if lo > 1 or hi < UNLIM - 1:  # (1 and "finite" say nothing)
                result.distance_lower = lo
                result.distance_upper = hi if hi < UNLIM - 1 else None
        if not result.exact:
            if result.value is not None:
                self._partial_moves(st, result, mine, all_moves, valued, measured, kept)
        result.nodes = self.nodes
        return result

    @staticmethod
    def _partial_moves(st: CState, result: SolveResult, mine: bool, all_moves: bool,
                       valued: list, measured: list, kept: list) -> None:
        """What a budget that ran out after the value leaves of the moves:
        ``analyse`` lists every move with its value and distance where
        proven (None where not); both commands give as ``best`` the moves
        proven to keep the node's value (no move can do better than the
        node), ``best_complete`` saying whether every move was asked."""
        moves = st.moves()
        if all_moves:
            values: list[int | None] = [None] * len(moves)
            dists: list[int | None] = [None] * len(moves)
            for i in range(len(moves)):
                if i < len(measured) and measured[i] is not None:
                    values[i], dists[i] = measured[i]
                elif i < len(valued) and valued[i] is not None:
                    values[i] = valued[i][0]
            result.moves = rank_partial(
                [MoveValue(move_text(mv), None if v is None else Value(v), d)
                 for mv, v, d in zip(moves, values, dists)], mine)
            keeps = [None if v is None else v == result.value for v in values]
        else:
            keeps = list(kept) if len(kept) == len(moves) else [None] * len(moves)
        result.best = [move_text(mv) for mv, k in zip(moves, keeps) if k]
        result.best_complete = all(k is not None for k in keeps) and bool(moves)

    @property
    def nodes(self) -> int:
        """Nodes searched since the last ``reset_nodes``, the helper's included."""
        return self.search.nodes + (self.helper.search.nodes if self.helper else 0)

    def reset_nodes(self) -> None:
        self.search.reset_nodes()
        if self.helper is not None:
            self.helper.search.reset_nodes()


__all__ = ["Aborted", "CoreBackend", "Stopped"]
