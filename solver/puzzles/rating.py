"""Ratings for puzzles and their player: Glicko-2, and a puzzle's provisional rating.

Glicko-2 as Mark Glickman's paper gives it, "Example of the Glicko-2 system"
(Boston University, 2013, http://www.glicko.net/glicko/glicko2.pdf), step by step
(the paper's step numbers in the comments); ``tests/test_puzzle_rating.py`` checks
the paper's worked example.  Each attempt at a puzzle is one game of the player
against the puzzle: a clean solve scores 1, anything else 0 (docs/guide/puzzles.md).

A puzzle's rating: the collections carry no fitted rating yet, so
:func:`provisional_rating` derives one from what the file says -- a later
fitted rating (a ``rating`` known for the puzzle) replaces it in that one place.
"""
from __future__ import annotations

import math
from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

#: The Glicko-2 scale factor between the Glicko scale and the internal one (step 2).
SCALE = 173.7178
#: The system constant tau: how fast the volatility may change (the paper's example: 0.5).
TAU = 0.5
#: The convergence tolerance of the volatility's iteration (step 5).
EPSILON = 0.000001
#: A new player's rating, deviation and volatility (step 1).
START = (1500.0, 350.0, 0.06)
#: The deviation a provisional puzzle rating is given (how unsure it is).
PUZZLE_RD = 150.0


@dataclass(frozen=True)
class Glicko:
    """A rating on the Glicko scale: ``rating``, its deviation ``rd``, the volatility ``vol``."""

    rating: float = START[0]
    rd: float = START[1]
    vol: float = START[2]

    def to_dict(self) -> dict[str, float]:
        return {"rating": round(self.rating, 2), "rd": round(self.rd, 2),
                "vol": round(self.vol, 6)}


def _g(phi: float) -> float:
    return 1.0 / math.sqrt(1.0 + 3.0 * phi * phi / (math.pi * math.pi))


def _e(mu: float, mu_j: float, phi_j: float) -> float:
    return 1.0 / (1.0 + math.exp(-_g(phi_j) * (mu - mu_j)))


def update(player: Glicko, games: Iterable[tuple[float, float, float]],
           tau: float = TAU) -> Glicko:
    """The player's rating after one rating period of ``games``: each one
    ``(opponent rating, opponent RD, score)`` with the score 1, 0.5 or 0.  With no
    game, only the deviation grows (the paper's note after step 8)."""
    # Step 2: to the Glicko-2 scale.
    mu = (player.rating - 1500.0) / SCALE
    phi = player.rd / SCALE
    sigma = player.vol
    opp = [((r - 1500.0) / SCALE, rd / SCALE, s) for r, rd, s in games]
    if not opp:
        phi_star = math.sqrt(phi * phi + sigma * sigma)
        return Glicko(player.rating, phi_star * SCALE, sigma)
    # Step 3: the estimated variance v of the rating from the game outcomes alone.
    v = 1.0 / sum(_g(pj) ** 2 * _e(mu, mj, pj) * (1 - _e(mu, mj, pj)) for mj, pj, _s in opp)
    # Step 4: the estimated improvement delta.
    part = sum(_g(pj) * (s - _e(mu, mj, pj)) for mj, pj, s in opp)
    delta = v * part
    # Step 5: the new volatility, by the Illinois algorithm on f.
    a = math.log(sigma * sigma)

    def f(x: float) -> float:
        ex = math.exp(x)
        top = ex * (delta * delta - phi * phi - v - ex)
        return top / (2.0 * (phi * phi + v + ex) ** 2) - (x - a) / (tau * tau)

    big_a = a
    if delta * delta > phi * phi + v:
        big_b = math.log(delta * delta - phi * phi - v)
    else:
        k = 1
        while f(a - k * tau) < 0:
            k += 1
        big_b = a - k * tau
    f_a, f_b = f(big_a), f(big_b)
    while abs(big_b - big_a) > EPSILON:
        big_c = big_a + (big_a - big_b) * f_a / (f_b - f_a)
        f_c = f(big_c)
        if f_c * f_b <= 0:
            big_a, f_a = big_b, f_b
        else:
            f_a /= 2.0
        big_b, f_b = big_c, f_c
    sigma_new = math.exp(big_a / 2.0)
    # Step 6: the pre-rating-period value phi*.
    phi_star = math.sqrt(phi * phi + sigma_new * sigma_new)
    # Step 7: the new deviation and rating.
    phi_new = 1.0 / math.sqrt(1.0 / (phi_star * phi_star) + 1.0 / v)
    mu_new = mu + phi_new * phi_new * part
    # Step 8: back to the Glicko scale.
    return Glicko(SCALE * mu_new + 1500.0, SCALE * phi_new, sigma_new)


def provisional_rating(p: Any) -> float:
    """A puzzle's rating until a fitted one exists: a ``rating`` the puzzle carries
    wins; otherwise ``1000 + 60 x plies + 40 x log10(nodes) + 120`` per seat past two
    ``+ 100`` for a draw task ``+ 60`` for a transfer or coalition tag, clamped to
    600..2400.  The plies are the solution line's (``difficulty.plies``, else the
    ``pv``'s length); nodes the solver's count on it.  A 5-ply two-seat puzzle of a
    few hundred nodes is about 1400; a 12-ply four-seat one about 2200.
    """
    fitted = getattr(p, "rating", None)
    if isinstance(fitted, (int, float)):
        return float(fitted)
    plies = getattr(p, "plies", None) or len(getattr(p, "pv", ()) or ()) or 5
    nodes = getattr(p, "nodes", None) or 100
    seats = getattr(p, "players", None) or _seats(getattr(p, "position", ""))
    tags = set(getattr(p, "tags", ()) or ())
    r = 1000.0 + 60.0 * min(plies, 20) + 40.0 * math.log10(max(nodes, 1))
    r += 120.0 * max(seats - 2, 0)
    r += 100.0 if getattr(p, "task", "") == "draw" else 0.0
    r += 60.0 if tags & {"transfer", "coalition", "teams"} else 0.0
    return max(600.0, min(2400.0, r))


def _seats(position: str) -> int:
    """The number of seats a position's text names (its hands, ``|``-separated)."""
    for part in position.split(";"):
        part = part.strip()
        if part.startswith("hands"):
            return part.count("|") + 1
    return 2


def expected(player: float, puzzle: float, puzzle_rd: float = PUZZLE_RD) -> float:
    """The chance Glicko-2 gives the player of solving a puzzle (step 3's E)."""
    return _e((player - 1500.0) / SCALE, (puzzle - 1500.0) / SCALE, puzzle_rd / SCALE)


__all__ = ["PUZZLE_RD", "START", "Glicko", "expected", "provisional_rating", "update"]
