"""Reviewing a game: the value of every decision of a seat (docs/game-record.md).

For each decision of a seat (a record move where it had more than one legal
move) the review gives the *win chance* -- expected points for that seat,
win 1, draw 1/2, loss 0 -- of the move played and of the best move:

* **exact** where every card is known to the analysis and the pile is empty:
  for one seat, once its knowledge leaves one deal (two players with an empty
  pile, S1: the opponents' hands follow from what it saw); with every seat of
  a full record (``all_seats``), from the first empty-pile decision on.  The
  exact solver (:meth:`solver.search.Solver.analyse`, S1/S2 for the seat as
  hero) values every move: win 1, draw 1/2, loss 0.
* **estimated** before that: the hint the seat could have asked at that moment
  (:func:`solver.hints.hint_knowledge` on its knowledge, S3), at the hint's own
  default budget and on the same seeded deals, so that following the hint is
  never marked down: the best move *is* the hint's recommendation, and the
  loss is its chance minus the played move's (``win + draw / 2`` each).  An exact
  solve that runs out of its ``max_time`` falls back to the estimate.

The loss gives the label (:data:`LABELS`, in the spirit of chess.com's
expected-points classes); an estimate from fewer than :data:`MIN_DEALS` deals
(a time budget cut it) is labelled ``unclear``.  The *decisive moments* are the
decisions where the exact value of the game for the seat changed because of
its own move; :attr:`Review.lost_after` names the move after which the game was
lost by the estimates too (the last drop of the chance below one half).
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
from solver.hints import HintResult, Knowledge, default_samples, hint_knowledge
from solver.search import Solver, SolveResult

#: Labels by the loss of win chance, upper bounds inclusive; above the last: blunder.
LABELS: tuple[tuple[float, str], ...] = (
    (0.005, "best"),
    (0.05, "good"),
    (0.10, "inaccuracy"),
    (0.20, "mistake"),
)
BLUNDER = "blunder"
#: The label of an estimate from too few deals to judge the move.
UNCLEAR = "unclear"
LABEL_ORDER = ("best", "good", "inaccuracy", "mistake", "blunder", "unclear")
#: Deals per estimated decision: None, the hint engine's own default
#: (:func:`solver.hints.default_samples`: 256 with two players, 512 with more).
REVIEW_SAMPLES: int | None = None
#: The fewest deals an estimate needs for a label (else ``unclear``): at 32 deals
#: the interval of one move's chance is about +-0.17, of a difference less.
MIN_DEALS = 32
#: Seconds an exact solve of one decision may take before it falls back to the
#: estimate, and the most an estimate may take.
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
    """One reviewed decision; ``number`` is the record's move number, seats 1-based.

    ``deals``: the deals the estimate was scored on (0 when exact); ``wanted``:
    the deals it asked for; ``kept``: the hint's note when it kept the greedy
    player's move over one that scored higher (one line), else empty.
    """

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
    deals: int = 0
    wanted: int = 0
    kept: str = ""

    @property
    def loss(self) -> float:
        return max(0.0, self.best_chance - self.played_chance)

    @property
    def decisive(self) -> bool:
        """The exact value changed by this move (the seat threw away a result)."""
        return self.exact and self.played_value != self.best_value

    @property
    def cut(self) -> bool:
        """An estimate a time budget cut short of the deals it asked for."""
        return not self.exact and self.deals < self.wanted

    def to_json(self) -> dict[str, Any]:
        r = lambda x: round(x, 4)  # noqa: E731
        return {"move": self.number, "seat": self.seat, "played": self.played,
                "best": self.best, "played_chance": r(self.played_chance),
                "best_chance": r(self.best_chance), "loss": r(self.loss), "label": self.label,
                "exact": self.exact, "options": self.options,
                "played_value": self.played_value.text if self.played_value else None,
                "best_value": self.best_value.text if self.best_value else None,
                "decisive": self.decisive, "deals": self.deals, "deals_wanted": self.wanted,
                "kept": self.kept or None}


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
    """The answer of :func:`review`.  ``samples``: the deals asked for each estimate
    (the hint's default for the table when None was given)."""

    decisions: list[Decision]
    seats: list[int]
    seed: int
    samples: int
    outcome: tuple[int, ...] | None
    summaries: list[SeatSummary] = field(default_factory=list)
    interrupted: bool = False  # Ctrl-C stopped the review: the decisions so far
    total: int = 0             # the decisions there were to review

    @property
    def decisive(self) -> list[Decision]:
        return [d for d in self.decisions if d.decisive]

    @property
    def cut(self) -> list[Decision]:
        """The estimates a time budget cut short (the review then exits 3)."""
        return [d for d in self.decisions if d.cut]

    @property
    def lost_after(self) -> Decision | None:
        """For one seat that lost (or drew) the game: its decision after which the
        game was lost -- the last one where a move kept at least an even chance
        (best chance >= 1/2) and the move played fell below it, the chance never
        coming back to 1/2 after.  None when the seat won, when every choice was
        already below an even chance, or for a review of several seats."""
        if len(self.seats) != 1 or self.outcome is None:
            return None
        if self.outcome[self.seats[0] - 1] > 0:
            return None
        found = None
        for d in self.decisions:
            if d.label == UNCLEAR:
                continue
            if d.played_chance >= 0.5:
                found = None  # the game was not lost yet
            elif d.best_chance >= 0.5 and found is None:
                found = d
        return found

    def to_json(self) -> dict[str, Any]:
        lost = self.lost_after
        return {"seats": self.seats, "seed": self.seed, "samples": self.samples,
                "outcome": list(self.outcome) if self.outcome else None,
                "decisions": [d.to_json() for d in self.decisions],
                "decisive": [d.number for d in self.decisive],
                "lost_after": lost.number if lost is not None else None,
                "summary": [s.to_json() for s in self.summaries],
                "labels": {name: bound for bound, name in LABELS},
                "min_deals": MIN_DEALS,
                "cut": [d.number for d in self.cut],
                "reviewed": len(self.decisions), "total": self.total,
                "interrupted": self.interrupted}


def review(game: Game | str, seat: int | None = None, all_seats: bool = False,
           max_time: float | None = REVIEW_MAX_TIME, samples: int | None = REVIEW_SAMPLES,
           seed: int = 0, exact_only: bool = False, solver: Solver | None = None,
           progress: Callable[[int, int], None] | None = None,
           on_decision: Callable[[Decision], None] | None = None) -> Review:
    """Review the decisions of ``seat`` (1-based; default the record's asking seat),
    or of every seat with ``all_seats`` (a full record).

    ``max_time``: seconds per decision (an exact solve, or an estimate);
    ``samples``/``seed``: the hint engine's deals for estimated decisions (the
    same seed for every decision; samples default to the hint's own);
    ``exact_only``: review only the decisions that can be solved exactly;
    ``progress(done, total)`` after each move of the seat(s); ``on_decision`` gets
    each decision as soon as it is scored (a page fills in its table as the review
    goes on).
    """
    g = Game.parse(game) if isinstance(game, str) else game
    if samples is not None and samples < 1:
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
            d = _decide(g, states, i, s, mv, slv, max_time, samples, seed, exact_only,
                        all_seats)
            if d is not None:
                decisions.append(d)
                if on_decision is not None:
                    on_decision(d)
    except KeyboardInterrupt:  # Ctrl-C: the review of the decisions so far
        interrupted = True
    if progress is not None and not interrupted:
        progress(len(todo), len(todo))
    summaries = []
    for s in seats:
        ds = [d for d in decisions if d.seat == s + 1]
        labels = {name: sum(1 for d in ds if d.label == name) for name in LABEL_ORDER}
        judged = [d for d in ds if d.label != UNCLEAR]
        mean = sum(d.loss for d in judged) / len(judged) if judged else 0.0
        summaries.append(SeatSummary(s + 1, len(ds), labels, mean, sum(d.exact for d in ds)))
    asked = samples if samples is not None else default_samples(g.players)
    return Review(decisions, [s + 1 for s in seats], seed, asked, g.outcome(), summaries,
                  interrupted, len(todo))


def _exact_state(g: Game, states: list[GameState], i: int, s: int,
                 every_card: bool) -> GameState | None:
    """The fully known state before move ``i`` (0-based) that the review may solve for
    seat ``s``: with ``every_card`` (every seat of a full record) any empty-pile
    state of the record; else one the seat's knowledge pins down (:meth:`Game.known_state`)."""
    if every_card:
        state = states[i]
        return state if state.pile == 0 and not any(state.hidden) else None
    return g.known_state(s + 1, at=i + 1)


def advise(k: Knowledge, known: GameState | None, samples: int | None = None, seed: int = 0,
           max_time: float | None = None, exact_time: float | None = REVIEW_MAX_TIME,
           solver: Solver | None = None,
           progress: Callable[[int, int], None] | None = None) -> SolveResult | HintResult:
    """The answer a seat gets at a decision, the same for its hint during the game and
    for the review after it: where every card is placed (``known``: the state its
    knowledge ``k`` pins down, pile empty) the exact analysis of every move
    (:meth:`Solver.analyse`, the seat as hero) within ``exact_time`` seconds; else,
    or when that runs out, the hint engine on ``k`` (``samples``: default the
    hint's own; ``seed``; ``max_time`` caps the deals scored)."""
    if known is not None:
        try:
            return (solver or Solver()).analyse(known, hero=k.seat + 1, max_time=exact_time)
        except BudgetExceeded:
            pass
    want = samples if samples is not None else default_samples(k.view.players)
    return hint_knowledge(k, samples=want, seed=seed, max_time=max_time, progress=progress)


def _decide(g: Game, states: list[GameState], i: int, s: int, mv: Move, slv: Solver,
            max_time: float | None, samples: int | None, seed: int, exact_only: bool,
            every_card: bool) -> Decision | None:
    k = g.knowledge(s + 1, at=i + 1)
    moves = legal_moves(k.view)
    if len(moves) < 2:
        return None
    played = str(mv)
    full = _exact_state(g, states, i, s, every_card)
    if exact_only and full is None:
        return None
    # Ctrl-C inside raises Interrupted (a KeyboardInterrupt): the review stops there
    res = advise(k, full, samples, seed, max_time, max_time, slv)
    if isinstance(res, SolveResult):
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
    h = res
    chance = {m.move: m.win + m.draw / 2 for m in h.moves}
    best = h.best  # the hint's recommendation: following it is never marked down
    pc, bc = chance[played], chance[best]
    label = label_of(max(0.0, bc - pc)) if h.samples >= MIN_DEALS or h.exhaustive else UNCLEAR
    return Decision(i + 1, s + 1, played, best, pc, bc, label, False, len(moves),
                    deals=h.samples, wanted=h.wanted,
                    kept=h.kept.text() if h.kept is not None else "")


__all__ = ["BLUNDER", "LABELS", "MIN_DEALS", "UNCLEAR", "Decision", "Review", "SeatSummary",
           "advise", "label_of", "review"]
