"""The C baseline of benchmarks/bench_baseline.py plays the same game as the solver.

``benchmarks/baseline/alphabeta.c`` is a plain alpha-beta solver written apart
from the core (issue 13's fixed reference); its values must equal the
solver's on random 2-player pile-empty endgames of the default rules (S1:
small and lopsided hands, either seat leading, every trump suit).  Skipped
when no C compiler is found.
"""
from __future__ import annotations

import random
import sys
from pathlib import Path

import pytest

from solver import Solver
from solver.game.deal import deal_endgame
from solver.search.reference import reference_value

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import bench_baseline  # noqa: E402  (benchmarks/ is not a package)

pytestmark = pytest.mark.skipif(bench_baseline.compiler() is None,
                                reason="no C compiler found")


@pytest.fixture(scope="module")
def baseline(tmp_path_factory):
    exe = bench_baseline.compile_baseline(str(tmp_path_factory.mktemp("baseline")))
    with bench_baseline.Baseline(exe, max_time=60.0, tt_bits=16) as b:
        yield b


def random_endgames(seed: int, count: int, most: int):
    rng = random.Random(seed)
    for _ in range(count):
        sizes = [rng.randint(1, most), rng.randint(1, most)]
        yield deal_endgame(rng, sizes)


def test_S1_baseline_values_equal_the_solver(baseline):
    solver = Solver(tt_mb=16)
    for s in random_endgames(13, 1000, 7):
        v, nodes, _ = baseline.solve(s)
        assert nodes > 0
        assert v == int(solver.value(s, hero=s.to_move + 1)), s


def test_S1_baseline_values_equal_the_reference_minimax(baseline):
    for s in random_endgames(1313, 200, 4):
        v, _, _ = baseline.solve(s)
        assert v == reference_value(s, s.to_move)[0], s


def test_the_baseline_refuses_positions_it_does_not_play():
    s = deal_endgame(random.Random(1), [3, 3, 3])
    with pytest.raises(ValueError, match="plays 2-player default-rules positions at a lead"):
        bench_baseline.position_line(s)
