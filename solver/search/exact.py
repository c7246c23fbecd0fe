"""The exact endgame solver: the Python face of the Cython search (S1, S2, R23).

Use :class:`Solver` when solving many positions (it keeps its transposition
table in C memory between calls); the module functions :func:`solve` and
:func:`analyse` take a position string, a JSON-like dict, a parsed
``Position`` or a :class:`GameState`, and a 1-based hero seat.

Values are for the hero (S2, S2a): the side to move with two players, a chosen
seat with more (the others play as one coalition; under ``teams=2v2`` the
hero's partner plays with him).  ``win`` means the hero's side can force a
decisive result in its favour, ``loss`` that the others can force one against
it, ``draw`` everything else -- including endless play (R23).

``distance`` is in plies (one move of the turn protocol P1-P4, passes
included): the fastest forced win for a won position, the longest resistance
for a lost one, ``None`` for a draw.

How the search works is documented in ``ext/_core.pyx`` and ``docs/solver.md``.
"""
from __future__ import annotations

import time
from dataclasses import asdict, dataclass, field
from typing import Any

from .errors import BudgetExceeded, HiddenCardsError
from .state import GameState

VALUE_NAMES = {1: "win", 0: "draw", -1: "loss"}
_HINT = "use `durak hint` for positions with hidden cards or an unknown pile"


@dataclass
class MoveValue:
    """One legal move and its value for the hero (S2a)."""

    move: str
    value: str  # 'win' | 'draw' | 'loss' (or 'unknown' when a budget ran out)
    distance: int | None  # plies to the end of the game after best play, this move included

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "value": self.value, "distance": self.distance}


@dataclass
class SolveResult:
    """The answer of :meth:`Solver.solve` / :meth:`Solver.analyse`.

    ``player`` is 1-based.  When ``exact`` is false (a budget ran out) ``value``
    is ``'unknown'`` unless it was proven, and ``lower``/``upper`` bound it.
    """

    player: int
    value: str
    best: list[str]
    pv: list[str]
    distance: int | None
    nodes: int
    seconds: float
    exact: bool = True
    moves: list[MoveValue] = field(default_factory=list)
    lower: str = "loss"
    upper: str = "win"
    interrupted: bool = False

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "player": self.player,
            "value": self.value,
            "best": list(self.best),
            "pv": list(self.pv),
            "distance": self.distance,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "exact": self.exact,
        }
        if not self.exact:
            d["lower"] = self.lower
            d["upper"] = self.upper
        if self.moves:
            d["moves"] = [m.to_json() for m in self.moves]
        return d


def check_solvable(state: GameState) -> None:
    """Refuse hidden hands and piles of unknown order (S3)."""
    hidden = [i + 1 for i, h in enumerate(state.hidden) if h]
    if hidden:
        seats = ", ".join(str(s) for s in hidden)
        raise HiddenCardsError(
            f"hands: seat {seats} holds hidden cards; the exact solver needs every card "
            f"known -- {_HINT}")
    if state.pile > 0 and state.pile_order is None:
        raise HiddenCardsError(
            f"pile: {state.pile} cards in an unknown order; the exact solver needs every "
            f"card known -- {_HINT}")


def _budget_message(max_time, max_nodes) -> str:
    parts = []
    if max_time is not None:
        parts.append(f"{max_time:g} s")
    if max_nodes is not None:
        parts.append(f"{max_nodes} nodes")
    return "search budget of " + " / ".join(parts) + " ran out before the answer was exact"


class Solver:
    """An exact solver that keeps its transposition table between calls.

    ``tt_mb`` sizes the table (C memory, fixed for the life of the solver).
    ``backend`` is ``"core"`` (the Cython search) or ``"reference"`` (the slow
    pure-Python minimax of :mod:`solver.reference`, for tests).
    """

    def __init__(self, tt_mb: int = 64, backend: str = "core"):
        if tt_mb < 1:
            raise ValueError(f"tt_mb: {tt_mb} must be at least 1")
        self.tt_mb = tt_mb
        self.backend = backend
        self._core = None
        if backend == "core":
            from ._solver_core import CoreBackend

            self._core = CoreBackend(tt_mb)
        elif backend != "reference":
            raise ValueError(f"backend: unknown backend {backend!r}")

    # ---------------------------------------------------------------- API
    def value(self, state: GameState, hero: int | None = None) -> int:
        """+1 / 0 / -1 for ``hero`` (0-based; default the seat to move), fastest path."""
        check_solvable(state)
        if state.is_over:
            return state.outcome()[hero if hero is not None else 0]
        if hero is None:
            hero = state.to_move
        if self._core is not None:
            return self._core.value(state, hero)
        from .reference import reference_value

        return reference_value(state, hero)[0]

    def solve(self, state: GameState, hero: int | None = None, *, max_time: float | None = None,
              max_nodes: int | None = None, distance: bool = True, pv: bool = True) -> SolveResult:
        """Value, best moves, principal variation and distance for ``hero`` (0-based)."""
        return self._run(state, hero, False, max_time, max_nodes, distance, pv)

    def analyse(self, state: GameState, hero: int | None = None, *, max_time: float | None = None,
                max_nodes: int | None = None, distance: bool = True,
                pv: bool = True) -> SolveResult:
        """As :meth:`solve`, with every legal move and its value, best first."""
        return self._run(state, hero, True, max_time, max_nodes, distance, pv)

    # ------------------------------------------------------------ details
    def _run(self, state, hero, all_moves, max_time, max_nodes, distance, pv) -> SolveResult:
        check_solvable(state)
        if hero is None:
            hero = state.to_move if not state.is_over else 0
        if not 0 <= hero < state.players:
            raise ValueError(f"hero: seat {hero + 1} is not in a {state.players}-player game")
        t0 = time.perf_counter()
        if state.is_over:
            v = state.outcome()[hero]
            return SolveResult(hero + 1, VALUE_NAMES[v], [], [], 0, 0, 0.0, True, [],
                               VALUE_NAMES[v], VALUE_NAMES[v])
        if self._core is not None:
            res = self._core.run(state, hero, all_moves, max_time, max_nodes, distance, pv)
        else:
            res = _reference_run(state, hero, all_moves, pv)
        res.seconds = time.perf_counter() - t0
        if not res.exact:
            msg = ("interrupted before the answer was exact" if res.interrupted
                   else _budget_message(max_time, max_nodes))
            raise BudgetExceeded(msg, partial=res)
        return res


def _order_key(mine: bool):
    """Sort key for (value, distance): best for the mover first."""
    def key(mv: MoveValue):
        v = {"win": 1, "draw": 0, "loss": -1}[mv.value]
        d = mv.distance if mv.distance is not None else 0
        # hero side: win fast, lose slow; coalition: the reverse
        k = (-v, d if v > 0 else -d) if mine else (v, -d if v > 0 else d)
        return k
    return key


def rank_moves(moves: list[MoveValue], mine: bool) -> tuple[list[MoveValue], list[str]]:
    """Moves sorted best first for the mover, and every move of the best value."""
    ms = sorted(moves, key=_order_key(mine))
    if not ms:
        return ms, []
    best_v = ms[0].value
    return ms, [m.move for m in ms if m.value == best_v]


def on_hero_side(state: GameState, hero: int, seat: int) -> bool:
    if state.rules.teams:
        return seat % 2 == hero % 2
    return seat == hero


def _reference_run(state: GameState, hero: int, all_moves: bool, want_pv: bool) -> SolveResult:
    from . import engine
    from .moves import Move
    from .reference import ReferenceSolver

    ref = ReferenceSolver(state, hero)
    v, d = ref.root(state)
    moves = [MoveValue(m, VALUE_NAMES[mv], md) for m, mv, md in ref.moves(state)]
    mine = on_hero_side(state, hero, state.to_move)
    ordered, best = rank_moves(moves, mine)
    pv: list[str] = []
    if want_pv and ordered:
        s = state
        seen = {s}
        while not s.is_over and len(pv) < 1000:
            r = ReferenceSolver(s, hero)
            ms = [MoveValue(m, VALUE_NAMES[mv], md) for m, mv, md in r.moves(s)]
            o, _ = rank_moves(ms, on_hero_side(s, hero, s.to_move))
            pv.append(o[0].move)
            s = engine.play(s, Move.parse(o[0].move, state.rules.deck))
            if s in seen:
                break
            seen.add(s)
    return SolveResult(hero + 1, VALUE_NAMES[v], best, pv, d, ref.nodes, 0.0, True,
                       ordered if all_moves else [], VALUE_NAMES[v], VALUE_NAMES[v])


# ------------------------------------------------------------ module API
def _to_state(position) -> GameState:
    if isinstance(position, GameState):
        return position
    st = getattr(position, "state", None)
    if isinstance(st, GameState):
        return st
    try:
        from .notation import parse_position
    except ImportError:  # pragma: no cover - the notation module lands separately
        raise TypeError("position: pass a GameState (solver.notation is not available)")
    return parse_position(position).state


_default_solver: Solver | None = None


def _solver(tt_mb: int | None) -> Solver:
    global _default_solver
    if tt_mb is not None:
        return Solver(tt_mb)
    if _default_solver is None:
        _default_solver = Solver()
    return _default_solver


def _hero0(state: GameState, hero: int | None) -> int | None:
    if hero is None:
        return None
    if not 1 <= hero <= state.players:
        raise ValueError(f"hero: seat {hero} is not in a {state.players}-player game")
    return hero - 1


def solve(position, hero: int | None = None, *, tt_mb: int | None = None, **kw) -> SolveResult:
    """Solve a position exactly; ``hero`` is 1-based (default the seat to move)."""
    state = _to_state(position)
    return _solver(tt_mb).solve(state, _hero0(state, hero), **kw)


def analyse(position, hero: int | None = None, *, tt_mb: int | None = None,
            **kw) -> SolveResult:
    """Every legal move with its exact value; ``hero`` is 1-based."""
    state = _to_state(position)
    return _solver(tt_mb).analyse(state, _hero0(state, hero), **kw)


__all__ = ["MoveValue", "SolveResult", "Solver", "solve", "analyse", "check_solvable"]
_ = asdict  # dataclasses helpers re-exported for callers that want plain dicts
