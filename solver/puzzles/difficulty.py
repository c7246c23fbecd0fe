"""Puzzle and bot ratings fitted together: a 1PL item-response (Rasch) model on the Elo scale.

The chance that a solver of rating ``t`` solves a puzzle of rating ``r`` is

    P(solved) = 1 / (1 + 10 ** ((r - t) / 400))

(Elo's logistic curve: 400 points are odds of 10 to 1).  Given the ladder's
results -- ``k`` of ``n`` attempts of bot ``b`` at puzzle ``p`` solved -- the bots'
and the puzzles' ratings maximise the likelihood times a normal prior on every
puzzle's rating (mean 1500, standard deviation :data:`PRIOR_SD`): a puzzle every
bot solves, or none does, still gets a finite rating, pulled towards the middle by
how little the ladder tells of it.  The fit is pure Python (no numpy: it runs
where the package does), alternating one Newton step for every bot and one for
every puzzle until nothing moves by more than ``tol``; the scale is then shifted
so that the puzzles' mean is 1500 (docs/lab/puzzle-ratings.md).
"""
from __future__ import annotations

import math
from dataclasses import dataclass, field

#: Elo's scale: 400 points, odds of 10 to 1.
SCALE = 400.0 / math.log(10.0)
CENTRE = 1500.0
#: The prior's standard deviation of a puzzle's rating.
PRIOR_SD = 350.0
#: A weak prior on the bots too, so that a bot solving everything stays finite.
BOT_PRIOR_SD = 1000.0


@dataclass
class Fit:
    """The fitted ratings, and how the fit went."""

    bots: dict[str, float]
    puzzles: dict[str, float]
    iterations: int
    log_likelihood: float
    counts: dict[tuple[str, str], tuple[int, int]] = field(default_factory=dict)


def expected(player: float, puzzle: float) -> float:
    """The chance a solver of rating ``player`` solves a puzzle of rating ``puzzle``."""
    return 1.0 / (1.0 + 10.0 ** ((puzzle - player) / 400.0))


def fit(results: dict[tuple[str, str], tuple[int, int]], iterations: int = 500,
        tol: float = 0.01) -> Fit:
    """Ratings from ``{(bot, puzzle): (solved, attempts)}``."""
    bots = sorted({b for b, _p in results})
    puzzles = sorted({p for _b, p in results})
    theta = {b: CENTRE for b in bots}
    beta = {p: CENTRE for p in puzzles}
    by_bot: dict[str, list[tuple[str, int, int]]] = {b: [] for b in bots}
    by_puzzle: dict[str, list[tuple[str, int, int]]] = {p: [] for p in puzzles}
    for (b, p), (k, n) in results.items():
        by_bot[b].append((p, k, n))
        by_puzzle[p].append((b, k, n))
    it = 0
    for it in range(1, iterations + 1):
        moved = 0.0
        for b in bots:  # one Newton step per bot: d/dt of the log likelihood and its curvature
            g = -(theta[b] - CENTRE) / BOT_PRIOR_SD ** 2
            h = 1.0 / BOT_PRIOR_SD ** 2
            for p, k, n in by_bot[b]:
                q = expected(theta[b], beta[p])
                g += (k - n * q) / SCALE
                h += n * q * (1 - q) / SCALE ** 2
            step = max(-200.0, min(200.0, g / h))
            theta[b] += step
            moved = max(moved, abs(step))
        for p in puzzles:
            g = -(beta[p] - CENTRE) / PRIOR_SD ** 2
            h = 1.0 / PRIOR_SD ** 2
            for b, k, n in by_puzzle[p]:
                q = expected(theta[b], beta[p])
                g -= (k - n * q) / SCALE
                h += n * q * (1 - q) / SCALE ** 2
            step = max(-200.0, min(200.0, g / h))
            beta[p] += step
            moved = max(moved, abs(step))
        if moved < tol:
            break
    shift = CENTRE - sum(beta.values()) / max(1, len(beta))
    theta = {b: t + shift for b, t in theta.items()}
    beta = {p: r + shift for p, r in beta.items()}
    ll = 0.0
    for (b, p), (k, n) in results.items():
        q = min(1 - 1e-12, max(1e-12, expected(theta[b], beta[p])))
        ll += k * math.log(q) + (n - k) * math.log(1 - q)
    return Fit(theta, beta, it, ll, dict(results))


__all__ = ["CENTRE", "PRIOR_SD", "SCALE", "Fit", "expected", "fit"]
