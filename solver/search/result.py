"""What the exact solver answers: typed results, and how moves are ranked (S2, S2a).

Values are for the hero (S2, S2a): the side to move with two players, a chosen
seat with more (the others play as one coalition; under ``teams=2v2`` the
hero's partner plays with him).  ``win`` means the hero's side can force a
decisive result in its favour, ``loss`` that the others can force one against
it, ``draw`` everything else -- including endless play (R23).

``distance`` is in plies (one move of the turn protocol P1-P4, passes
included): the fastest forced win for a won position, the longest resistance
for a lost one, ``None`` for a draw.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from solver.errors import HiddenCardsError
from solver.game.state import GameState
from solver.game.value import Value, value_text

_HINT = "use `durak hint` for positions with hidden cards or an unknown pile"


@dataclass
class MoveValue:
    """One legal move and its value for the hero (S2a)."""

    move: str
    value: Value | None  # None: a budget ran out before it was proven
    distance: int | None  # plies to the end of the game after best play, this move included

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "value": value_text(self.value), "distance": self.distance}


@dataclass
class SolveResult:
    """The answer of :meth:`Solver.solve` / :meth:`Solver.analyse`.

    ``player`` is 1-based.  When ``exact`` is false (a budget ran out) ``value``
    is ``None`` unless it was proven, and ``lower``/``upper`` bound it; a
    decisive value whose distance was not finished comes with the plies
    proven so far (``distance_lower``/``distance_upper``), and with the moves
    answered so far: ``best`` those proven to keep the value
    (``best_complete`` false while some are not asked), and under
    ``analyse`` every move in ``moves``, its value and distance None where
    not proven.
    """

    player: int
    value: Value | None
    best: list[str]
    pv: list[str]
    distance: int | None
    nodes: int
    seconds: float
    exact: bool = True
    moves: list[MoveValue] = field(default_factory=list)
    lower: Value = Value.LOSS
    upper: Value = Value.WIN
    interrupted: bool = False
    #: A decisive value proven, its distance not (a budget ran out): the plies
    #: proven so far, at least ``distance_lower`` and at most ``distance_upper``
    #: (None: no upper bound proven).
    distance_lower: int | None = None
    distance_upper: int | None = None
    #: A partial answer: whether ``best`` names every best move.  It lists
    #: there the moves proven to keep the value (none can do better than the
    #: position); False while some moves were not asked.  (An exact answer's
    #: ``best`` is always complete.)
    best_complete: bool = False

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "player": self.player,
            "value": value_text(self.value),
            "best": list(self.best),
            "pv": list(self.pv),
            "distance": self.distance,
            "nodes": self.nodes,
            "seconds": round(self.seconds, 6),
            "exact": self.exact,
        }
        if not self.exact:
            d["lower"] = self.lower.text
            d["upper"] = self.upper.text
            if self.distance is None and self.distance_lower is not None:
                d["distance_bounds"] = [self.distance_lower, self.distance_upper]
            d["best_complete"] = self.best_complete
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


def _order_key(mine: bool) -> Callable[[MoveValue], tuple[int, int]]:
    """Sort key for (value, distance): best for the mover first."""
    def key(mv: MoveValue) -> tuple[int, int]:
        assert mv.value is not None, "only proven moves are ranked"
        v = int(mv.value)
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


def rank_partial(moves: list[MoveValue], mine: bool) -> list[MoveValue]:
    """A partial answer's moves: the valued ones as :func:`rank_moves` sorts
    them (of one value, those with a proven distance first), then the moves
    not valued yet, in move order."""
    proven = [m for m in moves if m.value is not None]
    key = _order_key(mine)
    proven.sort(key=lambda m: (key(m)[0], m.distance is None, key(m)[1]))
    return proven + [m for m in moves if m.value is None]


def on_hero_side(state: GameState, hero: int, seat: int) -> bool:
    """Whether ``seat`` plays for the hero (both 0-based): himself, or his partner under teams (R22)."""
    if state.rules.teams:
        return seat % 2 == hero % 2
    return seat == hero
