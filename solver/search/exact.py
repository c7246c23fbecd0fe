"""The exact endgame solver: the public face of the Cython search (S1, S2, R23).

Use :class:`Solver` when solving many positions (it keeps its transposition
table in C memory between calls); the module functions :func:`solve` and
:func:`analyse` use one shared solver.  Every entry point takes a position in
any accepted form (a position string, a JSON-like dict, a parsed ``Position``
or a :class:`GameState`), a **1-based** hero seat (default: the seat to move)
and the same budget keywords, ``max_time`` (seconds) and ``max_nodes``.

A budget that runs out raises :class:`~solver.errors.BudgetExceeded` whose
``partial`` holds what was proven (value bounds, moves valued so far);
Ctrl-C raises :class:`~solver.errors.Interrupted` (a ``KeyboardInterrupt``)
with the same ``partial``.
How the search works is documented in ``ext/`` and ``docs/solver.md``.
"""
from __future__ import annotations

import time
from typing import Any

from solver.errors import BudgetExceeded, Interrupted, OptionError, PositionError
from solver.i18n import _, as_given, ngettext, number
from solver.game.movegen import play
from solver.game.moves import Move
from solver.game.state import GameState
from solver.game.value import Value
from solver.notation import parse_position
from solver.search import retro
from solver.search.driver import CoreBackend
from solver.search.native import core, move_text
from solver.search.reference import ReferenceSolver, reference_value
from solver.search.result import (Estimate, EstimatedMove, MoveValue, SolveResult, check_solvable,
                                  on_hero_side, rank_moves)

#: The transposition table of a solver made without ``tt_mb`` (MB of C memory).
DEFAULT_TT_MB = 64
#: The time budget of `durak solve` and `durak analyse` (and of a batch's
#: solve/analyse items) when none is given, seconds.
DEFAULT_MAX_TIME = 60.0
#: The largest node budget a solver takes from a user (the core counts nodes in 63 bits).
MAX_NODES = 1 << 62


#: The anytime estimate (:meth:`Solver.estimate`, ``ext/uct.pxi``): the
#: UCB1 constant, the playouts' share of random moves, and the lead states
#: the proof search answers at the tree's leaves (at most this many cards in
#: play, this many nodes per prover).  Chosen by measurement on the families
#: of ``benchmarks/bench_multi.py`` (docs/solver.md, "The anytime estimate").
ESTIMATE_EXPLORE = 1.0
ESTIMATE_EPS = 0.0
ESTIMATE_LEAF_CARDS = 0
ESTIMATE_LEAF_NODES = 2048
#: The estimate's tree grows to at most this many nodes (64 bytes each).
ESTIMATE_TREE = 1 << 21
#: The models of the others the estimate knows (``model``).
MODELS = ("coalition", "independent")


def budget_message(max_time: float | None, max_nodes: int | None) -> str:
    """What :class:`BudgetExceeded` says when these budgets ran out."""
    return _budget_message(max_time, max_nodes)


def _budget_message(max_time: float | None, max_nodes: int | None) -> str:
    parts = []
    if max_time is not None:
        parts.append(_("{seconds} s").format(seconds=as_given(max_time)))
    if max_nodes is not None:
        parts.append(ngettext("{n} node", "{n} nodes", max_nodes).format(n=number(max_nodes)))
    return _("search budget of {budget} ran out before the answer was exact").format(
        budget=" / ".join(parts))


def to_state(position: Any) -> GameState:
    """The :class:`GameState` of a position given in any accepted form."""
    return parse_position(position).state


def hero_index(state: GameState, hero: int | None) -> int:
    """The 0-based seat of a 1-based ``hero`` (default: the seat to move, or seat 1 at the end)."""
    if hero is None:
        return state.to_move if not state.is_over else 0
    if isinstance(hero, bool) or not isinstance(hero, int) or not 1 <= hero <= state.players:
        raise PositionError("hero", _("seat {seat} is not in a {n}-player game").format(
            seat=repr(hero), n=state.players))
    return hero - 1


class Solver:
    """An exact solver that keeps its transposition table between calls.

    ``tt_mb`` sizes the table (C memory, fixed for the life of the solver).
    ``backend`` is ``"core"`` (the Cython search) or ``"reference"`` (the slow
    pure-Python minimax of :mod:`solver.search.reference`, for tests).
    ``threads``: 2 lets a big game of 3+ players solved whole (its graph past
    100,000 states) be built by two threads, and runs the two provers of
    every value that takes more than a few thousand nodes on two threads
    sharing the table (an eighth of ``tt_mb`` goes to the second thread's
    side table) -- what one position on an otherwise idle machine wants
    (`durak solve`); 1 for a solver among parallel workers.  Node counts
    then vary from run to run (which thread gets where first), and so may
    which of several equally good moves the variation takes; values,
    distances and the best moves do not.  Seats are 1-based, as everywhere
    in the public API.
    """

    def __init__(self, tt_mb: int = DEFAULT_TT_MB, backend: str = "core", threads: int = 1):
        if tt_mb < 1:
            raise OptionError(f"tt_mb: {tt_mb} must be at least 1")
        if backend not in ("core", "reference"):
            raise OptionError(f"backend: unknown backend {backend!r}")
        if threads not in (1, 2):
            raise OptionError(f"threads: 1 or 2, got {threads!r}")
        self.tt_mb = tt_mb
        self.backend = backend
        self.threads = threads
        try:
            self._core = CoreBackend(tt_mb, threads) if backend == "core" else None
        except MemoryError:
            raise OptionError(f"tt_mb: a table of {tt_mb} MiB cannot be allocated here") from None

    # ---------------------------------------------------------------- API
    def value(self, position: Any, hero: int | None = None, *,
              max_nodes: int | None = None, max_time: float | None = None) -> Value:
        """The value for ``hero``: the fastest path (no distance, no moves).

        ``position`` may also be a state of the compiled core loaded by
        :meth:`core_state` of this solver (where a core playout stopped).
        With ``max_nodes`` or ``max_time`` (seconds) a search that needs more
        raises :class:`BudgetExceeded` (what it proved stays in the table).
        """
        if isinstance(position, core.CState):
            if self._core is None:
                raise TypeError("position: a core state needs the core backend")
            players = self._core.search.game[0]
            if hero is None or not 1 <= hero <= players:
                raise PositionError("hero", _("seat {seat} is not in a {n}-player game").format(
                    seat=repr(hero), n=players))
            v = self._core.budgeted_value(position, hero - 1, max_nodes or 0, max_time)
            if v is None:
                raise BudgetExceeded(_budget_message(max_time, max_nodes))
            return Value(v)
        state = to_state(position)
        check_solvable(state)
        h = hero_index(state, hero)
        if state.is_over:
            return Value(state.final_outcome()[h])
        if self._core is None:
            return Value(reference_value(state, h)[0])
        if max_nodes is not None or max_time is not None:
            v = self._core.budgeted_value(self._core.load(state), h, max_nodes or 0, max_time)
            if v is None:
                raise BudgetExceeded(_budget_message(max_time, max_nodes))
            return Value(v)
        return Value(self._core.value(state, h))

    def solve(self, position: Any, hero: int | None = None, *, max_time: float | None = None,
              max_nodes: int | None = None, distance: bool = True,
              pv: bool = True) -> SolveResult:
        """Value, best moves, principal variation and distance for ``hero``."""
        return self._run(position, hero, False, max_time, max_nodes, distance, pv)

    def analyse(self, position: Any, hero: int | None = None, *,
                max_time: float | None = None, max_nodes: int | None = None,
                distance: bool = True, pv: bool = True) -> SolveResult:
        """As :meth:`solve`, with every legal move and its value, best first."""
        return self._run(position, hero, True, max_time, max_nodes, distance, pv)

    def estimate(self, position: Any, hero: int | None = None, *, model: str = "coalition",
                 max_time: float | None = None, iterations: int | None = None, seed: int = 0,
                 known: list[tuple[int, int]] | None = None,
                 root: tuple[int, int] = (-1, 1), leaf_cards: int | None = None,
                 use_table: bool = True) -> Estimate:
        """Every legal move scored by the anytime estimate (not a proof): a UCT
        search over the fully known position with greedy playouts
        (``ext/uct.pxi``), the others modelled as the coalition of S2
        (``model="coalition"``: they minimise the hero's result) or as
        independent players (``"independent"``: each seat, each team under
        ``teams``, maximises its own).

        Stops after ``max_time`` seconds or ``iterations`` playouts (at least
        one must be given; with ``iterations`` alone the answer repeats
        exactly), on Ctrl-C (``interrupted``), or once its tree proves the
        position's value (coalition).  Under the coalition model the tree
        keeps proven bounds (finished games; with ``use_table`` what this
        solver's table has proven of the lead states it meets; at most
        ``leaf_cards`` cards in play, the proof search's answer) and takes
        ``known`` -- per legal move, in move order, bounds (lo, hi) on its
        value for the hero proven before, -1..1 -- and ``root``, the
        position's.  The moves come best first for the seat to move."""
        if self._core is None:
            raise TypeError("estimate: needs the core backend")
        if model not in MODELS:
            raise OptionError(f"model: {model!r} is not one of {', '.join(MODELS)}")
        if not max_time and not iterations:
            raise OptionError("estimate: give max_time or iterations")
        state = to_state(position)
        check_solvable(state)
        h = hero_index(state, hero)
        t0 = time.perf_counter()
        if state.is_over:
            return Estimate("uct", model, [], 0, 0.0)
        st = self._core.load(state)
        order = tuple(a for a, _c in state.table)
        out, stats = core.anytime_scores(
            st, h, MODELS.index(model), float(max_time or 0.0), int(iterations or 0), order,
            ESTIMATE_EXPLORE, ESTIMATE_EPS, seed,
            ESTIMATE_LEAF_CARDS if leaf_cards is None else leaf_cards, ESTIMATE_LEAF_NODES,
            use_table, tuple(known or ()), root[0], root[1], ESTIMATE_TREE)
        mine = on_hero_side(state, h, state.to_move)
        moves = []
        given = known or [(-1, 1)] * len(out)
        for mv, (score, own, visits, lo, hi, _margin), (glo, ghi) in zip(st.moves(), out, given):
            # ``solved``: what the estimate's own tree proved, not what it was given
            moves.append(EstimatedMove(move_text(mv), score, visits,
                                       own if model == "independent" else None,
                                       Value(lo) if lo == hi and glo < ghi else None, lo, hi))
        est = Estimate("uct", model, moves, stats["iterations"], time.perf_counter() - t0,
                       stats["interrupted"])
        # best first for the seat to move (Estimate.mover_key), then move order
        est.moves = [m for _v, _k, m in sorted(
            ((tuple(-x for x in est.mover_key(m, mine)), i, m) for i, m in enumerate(moves)),
            key=lambda t: (t[0], t[1]))]
        return est

    def clear(self) -> None:
        """Empty the transposition table (its memory stays allocated).

        Values and distances never depend on what the table holds, but which of
        several equally good moves the variation takes can: a table cleared
        before each position gives every position the answer a fresh solver
        (the command) gives.
        """
        if self._core is not None:
            self._core.search.clear()

    def core_state(self, position: Any) -> Any:
        """``position`` loaded into this solver's compiled core (every card known).

        For the core's own routines, such as the greedy playouts of the hint
        engine: a state where they stop can be valued by :meth:`value` in the
        same table.
        """
        if self._core is None:
            raise TypeError("core_state: needs the core backend")
        return self._core.load(to_state(position))

    # ------------------------------------------------------------ details
    def _run(self, position: Any, hero: int | None, all_moves: bool, max_time: float | None,
             max_nodes: int | None, distance: bool, pv: bool) -> SolveResult:
        state = to_state(position)
        check_solvable(state)
        h = hero_index(state, hero)
        t0 = time.perf_counter()
        if state.is_over:
            v = Value(state.final_outcome()[h])
            return SolveResult(h + 1, v, [], [], 0, 0, 0.0, True, [], v, v)
        res: SolveResult | None
        if self._core is None:
            res = _reference_run(state, h, all_moves, pv)
        else:
            # small games of 3+ players whole (no repetition troubles, R23), else the search
            res = (retro.solve_small(self._core.load(state), state, h, all_moves, pv,
                                     max_time, max_nodes, self.threads)
                   if retro.wanted(state) else None)
            if res is None and retro.fallback(state):
                res = self._search_then_graph(state, h, all_moves, max_time, max_nodes,
                                              distance, pv)
            elif res is None:
                res = self._core.run(state, h, all_moves, max_time, max_nodes, distance, pv)
        res.seconds = time.perf_counter() - t0
        if not res.exact:
            if res.interrupted:  # a KeyboardInterrupt: no caller takes it for a budget
                raise Interrupted(partial=res)
            raise BudgetExceeded(_budget_message(max_time, max_nodes), partial=res)
        return res

    def _search_then_graph(self, state: GameState, h: int, all_moves: bool,
                           max_time: float | None, max_nodes: int | None, distance: bool,
                           pv: bool) -> SolveResult:
        """A game one card too big for a graph first (``retro.fallback``): the
        proof search for at most ``retro.FALLBACK_TRIAL`` seconds, then, if
        it has not answered, the whole graph with what is left of the budget,
        and if the graph outgrows ``retro.FALLBACK_STATES`` the search again
        (its table kept).  The nodes reported are the search's nodes and the
        graph's states.  Ctrl-C or a budget that runs out during the graph
        answers with what the search proved."""
        core = self._core
        assert core is not None  # solve() asks this only of the compiled core
        t0 = time.monotonic()
        trial = retro.FALLBACK_TRIAL if max_time is None else min(max_time, retro.FALLBACK_TRIAL)
        res = core.run(state, h, all_moves, trial, max_nodes, distance, pv)
        if res.exact or res.interrupted:
            return res
        left = _budget_left(max_time, max_nodes, t0, res.nodes)
        if left is None:
            return res  # the caller's own budget ran out during the trial
        try:
            whole = retro.solve_small(core.load(state), state, h, all_moves, pv,
                                      *left, self.threads, retro.FALLBACK_STATES)
        except KeyboardInterrupt:
            res.interrupted = True
            return res
        if whole is not None:
            if not whole.exact:
                return res  # out of time building the graph: what the search proved
            whole.nodes += res.nodes
            return whole
        # too big a graph (its states count against a node budget): the search goes on
        res.nodes += retro.FALLBACK_STATES if left[1] is None else min(retro.FALLBACK_STATES,
                                                                       left[1])
        left = _budget_left(max_time, max_nodes, t0, res.nodes)
        if left is None:
            return res
        again = core.run(state, h, all_moves, *left, distance, pv)
        again.nodes += res.nodes
        return again


def _budget_left(max_time: float | None, max_nodes: int | None, since: float,
                 spent: int) -> tuple[float | None, int | None] | None:
    """What is left of a budget (seconds, nodes; None: no limit) after
    ``spent`` nodes and the time since ``since``; None when it has run out."""
    seconds = None if max_time is None else max_time - (time.monotonic() - since)
    nodes = None if max_nodes is None else max_nodes - spent
    if (seconds is not None and seconds <= 0) or (nodes is not None and nodes <= 0):
        return None
    return seconds, nodes


def _reference_run(state: GameState, hero: int, all_moves: bool, want_pv: bool) -> SolveResult:
    ref = ReferenceSolver(state, hero)
    v, d = ref.root(state)
    moves = [MoveValue(m, Value(mv), md) for m, mv, md in ref.moves(state)]
    mine = on_hero_side(state, hero, state.to_move)
    ordered, best = rank_moves(moves, mine)
    pv: list[str] = []
    if want_pv and ordered:
        s = state
        seen = {s}
        while not s.is_over and len(pv) < 1000:
            r = ReferenceSolver(s, hero)
            ms = [MoveValue(m, Value(mv), md) for m, mv, md in r.moves(s)]
            o, _rest = rank_moves(ms, on_hero_side(s, hero, s.to_move))
            pv.append(o[0].move)
            s = play(s, Move.parse(o[0].move, state.rules.deck))
            if s in seen:
                break
            seen.add(s)
    return SolveResult(hero + 1, Value(v), best, pv, d, ref.nodes, 0.0, True,
                       ordered if all_moves else [], Value(v), Value(v))


# ------------------------------------------------------------ module API
_shared: Solver | None = None


def _solver(tt_mb: int | None) -> Solver:
    global _shared
    if tt_mb is not None:
        return Solver(tt_mb)
    if _shared is None:
        _shared = Solver()
    return _shared


def solve(position: Any, hero: int | None = None, *, max_time: float | None = None,
          max_nodes: int | None = None, distance: bool = True, pv: bool = True,
          tt_mb: int | None = None) -> SolveResult:
    """Solve a position exactly; ``hero`` is 1-based (default the seat to move)."""
    return _solver(tt_mb).solve(position, hero, max_time=max_time, max_nodes=max_nodes,
                                distance=distance, pv=pv)


def analyse(position: Any, hero: int | None = None, *, max_time: float | None = None,
            max_nodes: int | None = None, distance: bool = True, pv: bool = True,
            tt_mb: int | None = None) -> SolveResult:
    """Every legal move with its exact value and distance; ``hero`` is 1-based."""
    return _solver(tt_mb).analyse(position, hero, max_time=max_time, max_nodes=max_nodes,
                                  distance=distance, pv=pv)


__all__ = ["DEFAULT_MAX_TIME", "DEFAULT_TT_MB", "MAX_NODES", "MODELS", "Solver", "analyse", "budget_message",
           "hero_index", "solve", "to_state"]
