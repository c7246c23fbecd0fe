"""Statistics of the hint engine: intervals of rates and means, paired differences."""
from __future__ import annotations

import math
from typing import Sequence

#: The two-sided 95% normal quantile.
Z95 = 1.959963984540054
#: Weight of the mean card margin next to the mean score when moves are ranked.
MARGIN_WEIGHT = 0.1 / 6


def wilson(k: float, n: float, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion ``k/n``."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_ci(xs: Sequence[float], z: float = Z95) -> tuple[float, float, float]:
    """Mean and normal 95% interval of scores in [-1, 1]."""
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, -1.0, 1.0
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    half = z * math.sqrt(var / n)
    return m, max(-1.0, m - half), min(1.0, m + half)


def paired_advantage(a: int, b: int, scores: Sequence[Sequence[float]],
                     margins: Sequence[Sequence[float]]) -> tuple[float, float]:
    """Mean and standard error of the utility of move ``a`` minus move ``b``,
    deal by deal (the deals are shared, so the luck of the deal cancels)."""
    ds = [(r[a] + MARGIN_WEIGHT * m[a]) - (r[b] + MARGIN_WEIGHT * m[b])
          for r, m in zip(scores, margins)]
    n = len(ds)
    mean = sum(ds) / n
    if n < 2:
        return mean, float("inf")
    var = sum((x - mean) ** 2 for x in ds) / (n - 1)
    return mean, math.sqrt(var / n)


def weighted_mean_se(xs: Sequence[float], ws: Sequence[float]) -> tuple[float, float, float]:
    """Weighted mean of ``xs`` (weights ``ws`` summing to 1), its standard error
    and Kish's effective number of values ``(sum w)^2 / sum w^2``: the weighted
    variance, with the ``n / (n - 1)`` correction at that number, over it.  The
    error is infinite below two effective values."""
    mean = sum(x * w for x, w in zip(xs, ws))
    q = sum(w * w for w in ws)
    n_eff = 1.0 / q if q > 0 else 0.0
    if n_eff < 2:
        return mean, float("inf"), n_eff
    var = sum(w * (x - mean) ** 2 for x, w in zip(xs, ws)) * n_eff / (n_eff - 1)
    return mean, math.sqrt(var / n_eff), n_eff


def chance(score: float) -> float:
    """A mean score (+1 win, 0 draw, -1 loss) as the chance a player reads: the chance
    of not being the durak with a draw counted half (docs/rules.md, "The chance a hint
    shows"), ``(1 + score) / 2``."""
    return (1.0 + score) / 2.0


def paired_difference(a: int, b: int, scores: Sequence[Sequence[float]],
                      weights: Sequence[float] | None = None) -> tuple[float, float]:
    """Mean and standard error of move ``a``'s chance minus move ``b``'s, deal by deal
    (the same deals, so the luck of the deal cancels; docs/hint.md, "As good").
    ``weights`` (summing to 1): weighted, the error at Kish's effective number of
    deals.  The error is infinite below two (effective) deals."""
    ds = [(r[a] - r[b]) / 2.0 for r in scores]
    if weights is not None:
        mean, se, _n = weighted_mean_se(ds, weights)
        return mean, se
    n = len(ds)
    mean = sum(ds) / n if n else 0.0
    if n < 2:
        return mean, float("inf")
    var = sum((x - mean) ** 2 for x in ds) / (n - 1)
    return mean, math.sqrt(var / n)
