"""What a review says of each decision (docs/game-record.md): the labels, a decision
valued and labelled, each seat's summary, where the game was lost, and the review as a
whole -- the answer :func:`solver.games.review.review` builds.

A decision's *chance* is the hint's one number (docs/rules.md, "The chance a hint
shows"): the chance of not being the durak, a draw counted half -- exactly, win 1,
draw 1/2, loss 0 (:data:`POINTS`).  The loss of a decision is the best chance minus
the played move's, nothing when the move played is as good as the best within the
noise of an estimate (:attr:`Decision.as_good`); the label follows from the loss
(:data:`LABELS`, in the spirit of chess.com's expected-points classes).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any

from solver.game.value import Value
from solver.i18n import as_given, ngettext

if TYPE_CHECKING:
    from solver.games.hindsight import Hindsight

#: Labels by the loss of win chance, upper bounds inclusive; above the last: blunder.
LABELS: tuple[tuple[float, str], ...] = (
    (0.005, "best"),
    (0.05, "good"),
    (0.10, "inaccuracy"),
    (0.20, "mistake"),
)
BLUNDER = "blunder"
#: The label of a decision the review cannot judge: an estimate from too few
#: deals, or an exact solve that ran out of the review's budget.
UNCLEAR = "unclear"
LABEL_ORDER = ("best", "good", "inaccuracy", "mistake", "blunder", "unclear")
#: The fewest deals an estimate needs for a label (else ``unclear``): at 32 deals
#: the interval of one move's chance is about +-0.17, of a difference less.
MIN_DEALS = 32
#: An exact value as points for the seat: the chance a solved decision shows.
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

    ``played_chance``/``best_chance``: None when unknown (an exact solve that ran
    out: ``note`` says so).  ``deals``: the deals the estimate was scored on (0
    when exact); ``wanted``: the deals it asked for; ``as_good``: the move
    played is as good as the best within the noise of the estimate (the hint's
    "as good", :func:`solver.hints.ranking.choose`: the paired test on the same
    deals, at most two points lower), so it is labelled best and loses
    nothing, although ``best`` names the move with the highest chance and
    ``best_chance`` that chance; ``placed``: every card was placed (the decision is exact,
    or ``unclear`` because its exact solve ran out); ``every_deal``: the estimate
    scored every deal consistent with the seat's knowledge (fewer than asked);
    ``seconds``: the time its answer took.
    """

    number: int
    seat: int
    played: str
    best: str
    played_chance: float | None
    best_chance: float | None
    label: str
    exact: bool
    options: int
    played_value: Value | None = None   # exact values for the seat (None when estimated)
    best_value: Value | None = None
    deals: int = 0
    wanted: int = 0
    as_good: bool = False
    placed: bool = False
    note: str = ""
    every_deal: bool = False
    seconds: float = 0.0  # not in the JSON, which repeats exactly

    @property
    def loss(self) -> float | None:
        if self.played_chance is None or self.best_chance is None:
            return None
        return 0.0 if self.as_good else max(0.0, self.best_chance - self.played_chance)

    @property
    def how(self) -> str:
        """``exact``, ``estimate`` or ``unsolved`` (every card placed, the exact solve ran out)."""
        return "exact" if self.exact else "unsolved" if self.placed else "estimate"

    @property
    def cut(self) -> bool:
        """An estimate a time budget cut short of the deals it asked for."""
        return not self.exact and not self.placed and self.deals < self.wanted

    def to_json(self) -> dict[str, Any]:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, 4)
        return {"move": self.number, "seat": self.seat, "played": self.played,
                "best": self.best or None, "played_chance": r(self.played_chance),
                "best_chance": r(self.best_chance), "loss": r(self.loss), "label": self.label,
                "exact": self.exact, "how": self.how, "options": self.options,
                "played_value": self.played_value.text if self.played_value else None,
                "best_value": self.best_value.text if self.best_value else None,
                "deals": self.deals, "deals_wanted": self.wanted,
                "every_deal": self.every_deal, "as_good": self.as_good,
                "note": self.note or None}


@dataclass
class SeatSummary:
    seat: int
    decisions: int
    labels: dict[str, int]
    mean_loss: float
    exact: int
    lost_after: int | None = None  # the record's move number (:func:`lost_after`)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "decisions": self.decisions, "labels": self.labels,
                "mean_loss": round(self.mean_loss, 4), "exact": self.exact,
                "lost_after": self.lost_after}


def lost_after(decisions: list[Decision], lost: bool) -> Decision | None:
    """Where a seat's game was lost (docs/guide/games.md): for a seat that ``lost``,
    its last decision whose best move had a chance of at least one half -- after it
    the best chance never again reaches one half.  ``decisions``: that seat's, in
    order; those whose chances are unknown (an exact solve ran out) say nothing
    and are passed over.  None when the seat did not lose, or when no decision of
    it ever had an even chance (the game was lost before its first choice)."""
    if not lost:
        return None
    found = None
    for d in decisions:
        if d.best_chance is not None and d.best_chance >= 0.5:
            found = d
    return found


@dataclass
class Review:
    """The answer of :func:`review`.  ``samples``: the deals asked for each estimate
    (the hint's default for the table when None was given); ``max_time``: the
    review's budget in seconds; ``not_reached``: the record's move numbers of
    the decisions the budget (or Ctrl-C) ended the review before; ``seconds``:
    the whole review's; ``hindsight``: every position valued with every card seen,
    when asked (:mod:`solver.games.hindsight`)."""

    decisions: list[Decision]
    seats: list[int]
    seed: int
    samples: int
    outcome: tuple[int, ...] | None
    summaries: list[SeatSummary] = field(default_factory=list)
    interrupted: bool = False  # Ctrl-C stopped the review: the decisions so far
    total: int = 0             # the decisions there were to review
    max_time: float | None = None
    seconds: float = 0.0  # the whole review's (not in the JSON)
    not_reached: list[int] = field(default_factory=list)
    hindsight: Hindsight | None = None

    def lost_after_of(self, seat: int) -> Decision | None:
        """:func:`lost_after` for ``seat`` (1-based) of this review; None when the review
        stopped before every decision was reached (a later one may have had an even
        chance)."""
        if self.outcome is None or self.interrupted or self.not_reached:
            return None
        return lost_after([d for d in self.decisions if d.seat == seat],
                          self.outcome[seat - 1] < 0)

    @property
    def lost_after(self) -> Decision | None:
        """For a review of one seat that lost: its decision after which the game was
        lost (:func:`lost_after`); None otherwise."""
        return self.lost_after_of(self.seats[0]) if len(self.seats) == 1 else None

    @property
    def decisive(self) -> list[Decision]:
        """Per seat that lost, the drop that decided its game: the move played at its
        :func:`lost_after` decision when that move's chance was below one half."""
        out = []
        for s in self.seats:
            d = self.lost_after_of(s)
            if d is not None and d.played_chance is not None and d.played_chance < 0.5:
                out.append(d)
        return out

    @property
    def cut(self) -> list[Decision]:
        """The estimates a time budget cut short (the review then exits 3)."""
        return [d for d in self.decisions if d.cut]

    @property
    def unsolved(self) -> list[Decision]:
        """The decisions with every card placed whose exact solve ran out (exit 3)."""
        return [d for d in self.decisions if d.how == "unsolved"]

    def budget_text(self) -> str | None:
        """What ran out, one line in the current language (the review then exits 3), or
        None: decisions not reached, exact solves left unclear, estimates cut short of
        their deals."""
        parts = []
        seconds = as_given(self.max_time or 0)
        if self.not_reached:
            n = len(self.not_reached)
            moves = ", ".join(map(str, self.not_reached))
            parts.append((ngettext(
                "the review's {seconds} s ran out before {n} decision was reached (move "
                "{moves}): not reached, not reviewed",
                "the review's {seconds} s ran out before {n} decisions were reached (moves "
                "{moves}): not reached, not reviewed", n) if self.max_time is not None
                else ngettext(
                "the time ran out before {n} decision was reached (move {moves}): not "
                "reached, not reviewed",
                "the time ran out before {n} decisions were reached (moves {moves}): not "
                "reached, not reviewed", n)).format(seconds=seconds, n=n, moves=moves))
        if self.unsolved:
            n = len(self.unsolved)
            moves = ", ".join(str(d.number) for d in self.unsolved)
            parts.append((ngettext(
                "the review's {seconds} s ran out before {n} position with every card placed "
                "was solved (move {moves}): 'unclear'",
                "the review's {seconds} s ran out before {n} positions with every card placed "
                "were solved (moves {moves}): 'unclear'", n) if self.max_time is not None
                else ngettext(
                "the time ran out before {n} position with every card placed was solved "
                "(move {moves}): 'unclear'",
                "the time ran out before {n} positions with every card placed were solved "
                "(moves {moves}): 'unclear'", n)).format(seconds=seconds, n=n, moves=moves))
        if self.cut:
            n = len(self.cut)
            parts.append(ngettext(
                "{n} estimate was cut short of its deals (move {moves}); a label needs {least} "
                "deals, else it is 'unclear'",
                "{n} estimates were cut short of their deals (moves {moves}); a label needs "
                "{least} deals, else it is 'unclear'", n).format(
                    n=n, moves=", ".join(str(d.number) for d in self.cut), least=MIN_DEALS))
        return "; ".join(parts) or None

    def to_json(self) -> dict[str, Any]:
        lost = self.lost_after
        seen = self.hindsight.to_json() if self.hindsight is not None else {}
        return {"seats": self.seats, "seed": self.seed, "samples": self.samples,
                "outcome": list(self.outcome) if self.outcome else None,
                "decisions": [d.to_json() for d in self.decisions],
                "decisive": [d.number for d in self.decisive],
                "lost_after": lost.number if lost is not None else None,
                "summary": [s.to_json() for s in self.summaries],
                "labels": {name: bound for bound, name in LABELS},
                "min_deals": MIN_DEALS,
                "cut": [d.number for d in self.cut],
                "unsolved": [d.number for d in self.unsolved],
                "not_reached": self.not_reached,
                "exact": sum(d.exact for d in self.decisions),
                "max_time": self.max_time,
                "reviewed": len(self.decisions), "total": self.total,
                "interrupted": self.interrupted, **seen}


__all__ = ["BLUNDER", "LABELS", "LABEL_ORDER", "MIN_DEALS", "POINTS", "UNCLEAR", "Decision",
           "Review", "SeatSummary", "label_of", "lost_after"]
