"""The Rasch fit of solvers and puzzles (solver/puzzles/difficulty.py) on synthetic data."""
from __future__ import annotations

import random

from solver.puzzles.difficulty import expected, fit


def test_expected_is_elo_logistic() -> None:
    assert expected(1500, 1500) == 0.5
    assert abs(expected(1900, 1500) - 10 / 11) < 1e-12


def test_fit_recovers_known_abilities() -> None:
    rng = random.Random(7)
    bots = {"a": 900.0, "b": 1200.0, "c": 1450.0, "d": 1650.0, "e": 1850.0, "f": 2150.0}
    puzzles = {f"p{i}": rng.gauss(1500, 300) for i in range(1200)}
    results = {}
    for b, t in bots.items():
        for p, r in puzzles.items():
            n = 4
            k = sum(rng.random() < expected(t, r) for _ in range(n))
            results[(b, p)] = (k, n)
    got = fit(results)
    mean = sum(puzzles.values()) / len(puzzles)
    for b, t in bots.items():  # the fit's scale is centred on the puzzles' mean
        assert abs(got.bots[b] - (t - mean + 1500)) < 60, (b, got.bots[b], t)
    # puzzle ratings: ordered as the truth (six bots tell each puzzle only roughly)
    pairs = [(puzzles[p], got.puzzles[p]) for p in puzzles]
    xs, ys = zip(*pairs)
    mx, my = sum(xs) / len(xs), sum(ys) / len(ys)
    cov = sum((x - mx) * (y - my) for x, y in pairs)
    var = (sum((x - mx) ** 2 for x in xs) * sum((y - my) ** 2 for y in ys)) ** 0.5
    assert cov / var > 0.8
    assert abs(sum(ys) / len(ys) - 1500) < 1e-6


def test_fit_keeps_unanimous_puzzles_finite() -> None:
    results = {("weak", "easy"): (3, 3), ("strong", "easy"): (3, 3),
               ("weak", "hard"): (0, 3), ("strong", "hard"): (0, 3),
               ("weak", "mid"): (0, 3), ("strong", "mid"): (3, 3)}
    got = fit(results)
    assert got.puzzles["easy"] < got.puzzles["mid"] < got.puzzles["hard"]
    assert all(900 < r < 2100 for r in got.puzzles.values())
    assert got.bots["weak"] < got.bots["strong"]
