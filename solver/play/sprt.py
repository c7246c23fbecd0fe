"""A sequential test for matches: stop as soon as the games say which of two scores holds.

A pilot that compares two engines (docs/hint.md) used to play a fixed 2,000
games, about an hour here, even when the first few hundred already showed the
change was no better.  Wald's sequential probability ratio test stops a match
as soon as the evidence for one of two hypotheses about A's expected score is
strong enough, with the error rates chosen in advance:

* ``H0``: A's expected score is ``s0``; ``H1``: it is ``s1`` (``s1 > s0``).
  The score of a game is 1 for a win, 1/2 for a draw, 0 for a loss (A is the
  durak), as in the match's report.
* The unit of evidence is a **deal**, not a game: a deal is played once with A
  in every seat, and the games of one deal are not independent (a deal that
  favours a seat favours it in both games).  Each deal contributes its mean
  score ``x``, and the test is the generalised SPRT for a normal mean with the
  variance estimated from the deals so far (as chess engine testing frameworks
  do): after ``n`` deals with mean ``m`` and variance ``v``,

      LLR = n * (s1 - s0) * (2 m - s0 - s1) / (2 v)

  and the match stops with ``H1`` once LLR >= log((1 - beta) / alpha), with
  ``H0`` once LLR <= log(beta / (1 - alpha)).
* No decision before :data:`MIN_DEALS` deals (the variance of a handful of
  deals is no estimate), and the variance is kept above :data:`MIN_VARIANCE`
  (a run of identical deals would make the ratio infinite).

The decision is taken deal by deal in deal order, so a match stops at the
same deal, with the same games, for any number of workers.
"""
from __future__ import annotations

import math
from dataclasses import dataclass

from solver.errors import OptionError

#: Deals before the test may decide.
MIN_DEALS = 16
#: Floor of the deals' score variance.
MIN_VARIANCE = 1e-3


@dataclass(frozen=True)
class Sprt:
    """The two hypotheses about A's expected score and the error rates.

    ``alpha``: the chance of accepting ``H1`` when ``H0`` holds; ``beta``: of
    accepting ``H0`` when ``H1`` holds.
    """

    s0: float
    s1: float
    alpha: float = 0.05
    beta: float = 0.05

    def __post_init__(self) -> None:
        if not (0.0 <= self.s0 < self.s1 <= 1.0):
            raise OptionError(f"sprt: need 0 <= S0 < S1 <= 1, got {self.s0:g},{self.s1:g}")
        for name, x in (("alpha", self.alpha), ("beta", self.beta)):
            if not 0.0 < x < 0.5:
                raise OptionError(f"sprt: {name} {x:g} is not between 0 and 0.5")

    @property
    def bounds(self) -> tuple[float, float]:
        """(lower, upper): accept ``H0`` at or below the first, ``H1`` at or above
        the second."""
        return (math.log(self.beta / (1 - self.alpha)), math.log((1 - self.beta) / self.alpha))


def parse_sprt(text: str, alpha: float = 0.05, beta: float = 0.05) -> Sprt:
    """``"S0,S1"`` (e.g. ``"0.5,0.55"``) as a :class:`Sprt`."""
    parts = [p.strip() for p in text.split(",")]
    if len(parts) != 2:
        raise OptionError(f"sprt: expected two scores S0,S1 (e.g. 0.5,0.55), got {text!r}")
    try:
        s0, s1 = (float(p) for p in parts)
    except ValueError:
        raise OptionError(f"sprt: {text!r} is not two numbers S0,S1") from None
    return Sprt(s0, s1, alpha, beta)


@dataclass
class SprtState:
    """The running test: deals seen, their scores' sums, and the decision."""

    test: Sprt
    deals: int = 0
    total: float = 0.0
    squares: float = 0.0
    decision: str | None = None  # "H0", "H1" or None (not yet, or never)

    def add(self, score: float) -> str | None:
        """Take one deal's mean score; the decision, once there is one (it is
        never revised)."""
        if self.decision is not None:
            return self.decision
        self.deals += 1
        self.total += score
        self.squares += score * score
        if self.deals >= MIN_DEALS:
            lo, hi = self.test.bounds
            llr = self.llr()
            if llr >= hi:
                self.decision = "H1"
            elif llr <= lo:
                self.decision = "H0"
        return self.decision

    def variance(self) -> float:
        """The deals' score variance (population form), at least :data:`MIN_VARIANCE`."""
        if not self.deals:
            return MIN_VARIANCE
        mean = self.total / self.deals
        return max(self.squares / self.deals - mean * mean, MIN_VARIANCE)

    def llr(self) -> float:
        """The log-likelihood ratio of ``H1`` against ``H0`` so far."""
        if not self.deals:
            return 0.0
        t = self.test
        mean = self.total / self.deals
        return self.deals * (t.s1 - t.s0) * (2 * mean - t.s0 - t.s1) / (2 * self.variance())

    def to_json(self) -> dict:
        lo, hi = self.test.bounds
        return {"s0": self.test.s0, "s1": self.test.s1, "alpha": self.test.alpha,
                "beta": self.test.beta, "deals": self.deals, "llr": round(self.llr(), 3),
                "bounds": [round(lo, 3), round(hi, 3)], "decision": self.decision}


__all__ = ["MIN_DEALS", "MIN_VARIANCE", "Sprt", "SprtState", "parse_sprt"]
