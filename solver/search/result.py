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
from solver.i18n import N_, _, ngettext
from solver.game.state import GameState
from solver.game.value import Value, value_text

_HINT = N_("use `durak hint` for positions with hidden cards or an unknown pile")


@dataclass
class MoveValue:
    """One legal move and its value for the hero (S2a)."""

    move: str
    value: Value | None  # None: a budget ran out before it was proven
    distance: int | None  # plies to the end of the game after best play, this move included

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "value": value_text(self.value), "distance": self.distance}


@dataclass
class EstimatedMove:
    """One move as the anytime estimate scored it (not a proof).

    ``score`` is the hero's mean result over the search's iterations through
    the move (+1 win, 0 draw, -1 loss; S2a: for the hero, also for the
    others' moves), kept inside what the search proved of the move;
    ``own``: under the independent model, the mean result of the seat to
    move for himself (None under the coalition model, where it is the
    hero's side's or its negation).  ``solved``: the move's value, where the
    estimate's own search tree proved it (finished games, the table's
    proofs, the proof search at small leaves), else None."""

    move: str
    score: float
    visits: int
    own: float | None = None
    solved: Value | None = None
    #: what the estimate's tree proved of the move's value for the hero (-1..1;
    #: what it was given included), the coalition model only
    lower: int = -1
    upper: int = 1

    def to_json(self) -> dict[str, Any]:
        d: dict[str, Any] = {"move": self.move, "score": round(self.score, 4),
                             "visits": self.visits}
        if self.own is not None:
            d["own"] = round(self.own, 4)
        if self.solved is not None:
            d["solved"] = self.solved.text
        return d


@dataclass
class Estimate:
    """The anytime estimate of a position's moves (:meth:`Solver.estimate`).

    ``method`` ``"uct"``: a UCT search over the fully known position with
    greedy playouts.  ``model`` ``"coalition"``: the others minimise the
    hero's result (S2, the value the solver proves); ``"independent"``: each
    seat (each team, R22) plays for its own result.  ``moves``: best first
    for the seat to move under the model.  ``iterations``: the search's
    playouts; ``interrupted``: Ctrl-C ended it early."""

    method: str
    model: str
    moves: list[EstimatedMove]
    iterations: int
    seconds: float
    interrupted: bool = False

    def to_json(self) -> dict[str, Any]:
        return {"method": self.method, "model": self.model,
                "moves": [m.to_json() for m in self.moves],
                "iterations": self.iterations, "seconds": round(self.seconds, 6),
                "interrupted": self.interrupted}

    def mover_score(self, m: EstimatedMove, mine: bool) -> float:
        """The move's score for the seat to move (``mine``: he plays for the hero's side)."""
        if m.own is not None:
            return m.own
        return m.score if mine else -m.score

    def mover_key(self, m: EstimatedMove, mine: bool) -> tuple[float, int, int]:
        """How the seat to move ranks the move, highest first: its score, then
        what is proven of it for him (a proven win above an estimated +1),
        then its playouts."""
        proven = m.lower if mine else -m.upper
        return self.mover_score(m, mine), proven if m.own is None else -1, m.visits


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
    #: The anytime estimate of the moves (issue 54), where one was made: the
    #: answer was cut off before it was exact, or every move is proven lost
    #: for the seat to move with 3+ players (then against independent
    #: players, for practical play).  Never a proof; the proven fields above
    #: are what the search proved, whatever the estimate says.
    estimate: Estimate | None = None
    #: The move to play, where an estimate took part (else ``best[0]``):
    #: :func:`recommend`'s rule.
    recommended: str | None = None
    #: ``"proof"``: proven to keep the position's value; ``"proof, estimate"``:
    #: proven so, and picked by the estimate among several proven alike;
    #: ``"estimate"``: not proven to keep the value (none is yet), picked by
    #: the estimate among the moves not proven worse.
    recommended_by: str | None = None

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
        if self.recommended is not None:
            d["recommended"] = self.recommended
            d["recommended_by"] = self.recommended_by
        if self.estimate is not None:
            d["estimate"] = self.estimate.to_json()
        return d


def check_solvable(state: GameState) -> None:
    """Refuse hidden hands and piles of unknown order (S3)."""
    hidden = [i + 1 for i, h in enumerate(state.hidden) if h]
    if hidden:
        seats = ", ".join(str(s) for s in hidden)
        raise HiddenCardsError("hands: " + _(
            "seat {seats} holds hidden cards; the exact solver needs every card known -- "
            "{hint}").format(seats=seats, hint=_(_HINT)))
    if state.pile > 0 and state.pile_order is None:
        raise HiddenCardsError("pile: " + ngettext(
            "{n} cards in an unknown order; the exact solver needs every card known -- {hint}",
            "{n} cards in an unknown order; the exact solver needs every card known -- {hint}",
            state.pile).format(n=state.pile, hint=_(_HINT)))


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


def proven_standing(result: SolveResult, moves: list[str], mine: bool) -> list[int | None]:
    """What the proof search proved of each legal move (``moves``, in move
    order), for the seat to move (``mine``: he plays for the hero's side):
    1 the move keeps the position's proven value (none does better), -1 it
    is proven worse than another move or than the position, None not known.

    From ``result.moves`` (every move valued so far, ``analyse``) and from
    ``result.best`` (the moves proven to keep the value; with
    ``best_complete``, or in an exact answer, the others do not)."""
    sign = 1 if mine else -1
    values = {m.move: m.value for m in result.moves if m.value is not None}
    # the least the mover is proven to reach: his side's bound of the position, or a move's value
    floor = int(result.lower) if mine else -int(result.upper)
    if values:
        floor = max(floor, max(sign * int(v) for v in values.values()))
    value = result.value
    keeps = set(result.best) if value is not None else set()
    complete = value is not None and (result.exact or result.best_complete) and bool(keeps)
    out: list[int | None] = []
    for mv in moves:
        v = values.get(mv)
        if value is not None and (mv in keeps or v == value):
            out.append(1)
        elif (v is not None and sign * int(v) < floor) or complete:
            out.append(-1)
        else:
            out.append(None)
    return out


def recommend(result: SolveResult, moves: list[str], mine: bool,
              estimate: Estimate | None) -> tuple[str | None, str | None, list[str]]:
    """The move to play, how it was chosen, and every legal move ranked, by
    one rule: what is proven outranks every estimate.

    1. The moves proven to keep the position's value come first (nothing
       can do better), in the proof's own order (``best``: the variation's
       move, the fastest win or the longest resistance, first) -- except
       where the position is proven lost for the seat to move and an
       estimate ranks them (every move loses against best play, so the
       estimate against the players as they are picks one, for practical
       play): ``"proof, estimate"``.
    2. Else the moves not proven worse than another, best first by the
       estimate for the seat to move: ``"estimate"``.
    3. The moves proven worse come last (by the estimate, then move order)
       and are never recommended while another move is not proven worse.

    ``moves``: the legal moves in move order."""
    if not moves:
        return None, None, []
    standing = proven_standing(result, moves, mine)
    est: dict[str, float] = {}
    if estimate is not None:
        for i, m in enumerate(estimate.moves):  # (best first for the seat to move)
            est[m.move] = -i

    def by_estimate(mv: str) -> tuple[float, int]:
        return (-est.get(mv, -len(moves) - 1), moves.index(mv))

    proven = [mv for mv, k in zip(moves, standing) if k == 1]
    if proven:
        order = [mv for mv in result.best if mv in proven] + \
            [mv for mv in proven if mv not in result.best]
        value = int(result.value) if result.value is not None else 0
        lost = value != 0 and (value < 0) == mine
        if lost and est and len(order) > 1:
            order.sort(key=by_estimate)
            basis = "proof, estimate"
        else:
            basis = "proof"
    else:
        order = sorted((mv for mv, k in zip(moves, standing) if k is None), key=by_estimate)
        basis = "estimate" if est else "move order"
    rest = [mv for mv, k in zip(moves, standing) if mv not in order and k is None]
    worse = [mv for mv, k in zip(moves, standing) if k == -1]
    ranked = order + sorted(rest, key=by_estimate) + sorted(worse, key=by_estimate)
    return ranked[0], basis, ranked
