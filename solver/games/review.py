"""Reviewing a game: the value of every decision of a seat (docs/game-record.md).

For each decision of a seat (a record move where it had more than one legal
move) the review gives the *win chance* -- expected points for that seat,
win 1, draw 1/2, loss 0 -- of the move played and of the best move:

* **exact** where the analysis knows every card and the pile is empty: a full
  record from the first empty-pile decision on, or a seat's record once its
  knowledge leaves one deal (two players with an empty pile, S1).  The
  exact solver (:meth:`solver.search.Solver.analyse`, S1/S2 for the seat as
  hero) values every move: win 1, draw 1/2, loss 0.
* **estimated** before that: the hint engine (:func:`solver.hints.hint_knowledge`)
  on the seat's knowledge at that moment, every move on the same seeded deals;
  the chance is ``win + draw / 2``.  An exact solve that runs out of its
  ``max_time`` falls back to the estimate.

The loss is best minus played, and the label follows it (:data:`LABELS`, in
the spirit of chess.com's expected-points classes).  The *decisive moments*
are the decisions where the exact value of the game for the seat changed
because of its own move.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable

from solver.errors import BudgetExceeded, OptionError
from solver.game.movegen import legal_moves
from solver.game.moves import Move
from solver.game.state import GameState
from solver.game.value import Value
from solver.games.record import Game
from solver.hints import hint_knowledge
from solver.hints.sampler import Sampler
from solver.search import Solver

#: Labels by the loss of win chance, upper bounds inclusive; above the last: blunder.
LABELS: tuple[tuple[float, str], ...] = (
    (0.005, "best"),
    (0.05, "good"),
    (0.10, "inaccuracy"),
    (0.20, "mistake"),
)
BLUNDER = "blunder"
LABEL_ORDER = ("best", "good", "inaccuracy", "mistake", "blunder")
#: Deals per estimated decision (the hint engine's default is 128).
REVIEW_SAMPLES = 64
#: Seconds an exact solve of one decision may take before it falls back to the estimate.
REVIEW_MAX_TIME = 5.0

POINTS = {Value.WIN: 1.0, Value.DRAW: 0.5, Value.LOSS: 0.0}


def label_of(loss: float) -> str:
    """The label of a loss of win chance (:data:`LABELS`)."""
    for bound, name in LABELS:
        if loss <= bound:
            return name
    return BLUNDER


@dataclass
class Decision:
    """One reviewed decision; ``number`` is the record's move number, seats 1-based."""

    number: int
    seat: int
    played: str
    best: str
    played_chance: float
    best_chance: float
    label: str
    exact: bool
    options: int
    played_value: Value | None = None   # exact values for the seat (None when estimated)
    best_value: Value | None = None

    @property
    def loss(self) -> float:
        return max(0.0, self.best_chance - self.played_chance)

    @property
    def decisive(self) -> bool:
        """The exact value changed by this move (the seat threw away a result)."""
        return self.exact and self.played_value != self.best_value

    def to_json(self) -> dict[str, Any]:
        r = lambda x: round(x, 4)  # noqa: E731
        return {"move": self.number, "seat": self.seat, "played": self.played,
                "best": self.best, "played_chance": r(self.played_chance),
                "best_chance": r(self.best_chance), "loss": r(self.loss), "label": self.label,
                "exact": self.exact, "options": self.options,
                "played_value": self.played_value.text if self.played_value else None,
                "best_value": self.best_value.text if self.best_value else None,
                "decisive": self.decisive}


@dataclass
class SeatSummary:
    seat: int
    decisions: int
    labels: dict[str, int]
    mean_loss: float
    exact: int

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "decisions": self.decisions, "labels": self.labels,
                "mean_loss": round(self.mean_loss, 4), "exact": self.exact}


@dataclass
class Review:
    """The answer of :func:`review`."""

    decisions: list[Decision]
    seats: list[int]
    seed: int
    samples: int
    outcome: tuple[int, ...] | None
    summaries: list[SeatSummary] = field(default_factory=list)
    interrupted: bool = False  # Ctrl-C stopped the review: the decisions so far

    @property
    def decisive(self) -> list[Decision]:
        return [d for d in self.decisions if d.decisive]

    def to_json(self) -> dict[str, Any]:
        return {"seats": self.seats, "seed": self.seed, "samples": self.samples,
                "outcome": list(self.outcome) if self.outcome else None,
                "decisions": [d.to_json() for d in self.decisions],
                "decisive": [d.number for d in self.decisive],
                "summary": [s.to_json() for s in self.summaries],
                "labels": {name: bound for bound, name in LABELS},
                "interrupted": self.interrupted}


def _exact_state(game: Game, index: int, seat0: int) -> GameState | None:
    """The fully known state before move ``index`` (0-based) if the analysis may solve it."""
    state = game.positions()[index]
    if state.pile == 0 and not any(state.hidden):
        return state
    if game.full:
        return None
    k = game.knowledge(seat0 + 1, at=index + 1)
    if k.view.pile > 0:
        return None
    sampler = Sampler(k)
    if sampler.count() != 1:
        return None
    return next(iter(sampler.enumerate()))


def review(game: Game | str, seat: int | None = None, all_seats: bool = False,
           max_time: float | None = REVIEW_MAX_TIME, samples: int = REVIEW_SAMPLES,
           seed: int = 0, exact_only: bool = False, solver: Solver | None = None,
           progress: Callable[[int, int], None] | None = None) -> Review:
    """Review the decisions of ``seat`` (1-based; default the record's asking seat),
    or of every seat with ``all_seats`` (a full record).

    ``max_time``: seconds per exact solve; ``samples``/``seed``: the hint
    engine's deals for estimated decisions (the same seed for every decision);
    ``exact_only``: review only the decisions that can be solved exactly.
    """
    g = Game.parse(game) if isinstance(game, str) else game
    if samples < 1:
        raise OptionError(f"samples: need at least 1, got {samples}")
    if all_seats:
        if not g.full:
            raise OptionError("all: --all needs a full record (every deal and the pile order)")
        seats = list(range(g.players))
    else:
        s0 = g.me if seat is None else seat - 1
        if not 0 <= s0 < g.players:
            raise OptionError(f"seat: seat {seat} is not at this {g.players}-player table")
        if s0 not in g.deals:
            raise OptionError(f"seat: the record does not hold the deal of seat {s0 + 1}")
        seats = [s0]
    slv = solver or Solver()
    states = g.positions()
    todo = [(i, s, m) for i, (s, m) in enumerate(g.replay().moves) if s in seats]
    decisions: list[Decision] = []
    interrupted = False
    try:
        for done, (i, s, mv) in enumerate(todo, 1):
            if progress is not None:
                progress(done - 1, len(todo))
            d = _decide(g, states, i, s, mv, slv, max_time, samples, seed, exact_only)
            if d is not None:
                decisions.append(d)
    except KeyboardInterrupt:  # Ctrl-C: the review of the decisions so far
        interrupted = True
    if progress is not None and not interrupted:
        progress(len(todo), len(todo))
    summaries = []
    for s in seats:
        ds = [d for d in decisions if d.seat == s + 1]
        labels = {name: sum(1 for d in ds if d.label == name) for name in LABEL_ORDER}
        mean = sum(d.loss for d in ds) / len(ds) if ds else 0.0
        summaries.append(SeatSummary(s + 1, len(ds), labels, mean, sum(d.exact for d in ds)))
    return Review(decisions, [s + 1 for s in seats], seed, samples, g.outcome(), summaries,
                  interrupted)


def _decide(g: Game, states: list[GameState], i: int, s: int, mv: Move, slv: Solver, max_time: float | None,
            samples: int, seed: int, exact_only: bool) -> Decision | None:
    view = g.knowledge(s + 1, at=i + 1).view
    moves = legal_moves(view)
    if len(moves) < 2:
        return None
    played = str(mv)
    full = _exact_state(g, i, s)
    if full is not None:
        try:
            res = slv.analyse(full, hero=s + 1, max_time=max_time)
        except BudgetExceeded:
            res = None
        if res is not None:
            vals = {m.move: m.value for m in res.moves}
            pv = vals[played]
            best = res.best[0]
            bv = vals[best]
            assert pv is not None and bv is not None  # an exact analysis values every move
            pc, bc = POINTS[pv], POINTS[bv]
            return Decision(i + 1, s + 1, played, best, pc, bc, label_of(bc - pc), True,
                            len(moves), pv, bv)
    if exact_only:
        return None
    k = g.knowledge(s + 1, at=i + 1)
    h = hint_knowledge(k, samples=samples, seed=seed, max_time=max_time)
    chance = {m.move: m.win + m.draw / 2 for m in h.moves}
    best = max(h.moves, key=lambda m: chance[m.move]).move
    pc, bc = chance[played], chance[best]
    return Decision(i + 1, s + 1, played, best, pc, bc, label_of(bc - pc), False, len(moves))


__all__ = ["BLUNDER", "LABELS", "Decision", "Review", "SeatSummary", "label_of", "review"]
