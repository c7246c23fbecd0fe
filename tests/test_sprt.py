"""The sequential test of `durak match --sprt` (solver.play.sprt): its error rates on
simulated deals, its decisions in real matches, and bad input."""
from __future__ import annotations

import json
import math
import random

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.errors import OptionError
from solver.play.match import MatchSpec, deal_score, match
from solver.play.sprt import MIN_DEALS, Sprt, SprtState, parse_sprt


def simulated_deal(rng: random.Random, score: float, draws: float = 0.05) -> float:
    """A two-game deal whose games are won with the chance that gives A the
    expected ``score`` (``draws`` of them drawn), the two seats correlated as
    a real deal's are: half the deals favour one seat strongly."""
    win = score - draws / 2
    games = []
    lean = rng.choice((-0.25, 0.25)) if rng.random() < 0.5 else 0.0
    for seat_lean in (lean, -lean):
        u = rng.random()
        w = min(max(win + seat_lean, 0.0), 1.0 - draws)
        games.append(1.0 if u < w else 0.5 if u < w + draws else 0.0)
    return sum(games) / 2


def run_test(test: Sprt, score: float, seed: int, most: int = 20_000) -> str | None:
    rng = random.Random(seed)
    state = SprtState(test)
    for _ in range(most):
        if state.add(simulated_deal(rng, score)) is not None:
            break
    return state.decision


def test_bounds_are_walds():
    t = Sprt(0.5, 0.55, alpha=0.05, beta=0.1)
    assert t.bounds == pytest.approx((math.log(0.1 / 0.95), math.log(0.9 / 0.05)))


def test_error_rates_hold_on_simulated_deals():
    """At the score of H0 the test accepts H1 in at most about alpha of the
    runs, at the score of H1 it accepts H0 in at most about beta; between,
    it leans to the nearer one."""
    test = Sprt(0.5, 0.55)
    runs = 300
    false_h1 = sum(run_test(test, 0.5, seed) == "H1" for seed in range(runs))
    false_h0 = sum(run_test(test, 0.55, 10_000 + seed) == "H0" for seed in range(runs))
    assert false_h1 <= 0.09 * runs, false_h1
    assert false_h0 <= 0.09 * runs, false_h0
    # far from both: the right answer nearly always, and quickly
    assert sum(run_test(test, 0.65, seed) == "H1" for seed in range(50)) == 50
    assert sum(run_test(test, 0.40, seed) == "H0" for seed in range(50)) == 50


def test_llr_sign_and_no_decision_before_min_deals():
    state = SprtState(Sprt(0.5, 0.6))
    for _ in range(MIN_DEALS - 1):
        assert state.add(1.0) is None  # overwhelming, but too few deals
    assert state.llr() > 0
    assert state.add(1.0) == "H1"
    assert state.add(0.0) == "H1"  # a decision is never revised
    assert state.deals == MIN_DEALS
    losing = SprtState(Sprt(0.5, 0.6))
    for _ in range(MIN_DEALS):
        losing.add(0.25)
    assert losing.llr() < 0 and losing.decision == "H0"


def test_deal_score_counts_draws_as_half():
    class G:
        def __init__(self, result: int):
            self.result = result
    assert deal_score([G(1), G(0)]) == 0.75
    assert deal_score([G(-1), G(-1), G(1)]) == pytest.approx(1 / 3)


def test_match_stops_at_the_same_deal_for_any_worker_count():
    spec = MatchSpec("greedy", "random", players=2, seed=3)
    one = match(spec, 400, workers=1, sprt=Sprt(0.5, 0.6))
    two = match(spec, 400, workers=2, sprt=Sprt(0.5, 0.6))
    assert one.sprt is not None and one.sprt.decision == "H1"  # greedy beats random
    assert len(one.games) == 2 * one.sprt.deals < 400
    assert [(g.deal, g.seat_a, g.result, g.moves) for g in one.games] == \
        [(g.deal, g.seat_a, g.result, g.moves) for g in two.games]
    assert two.sprt is not None and two.sprt.to_json() == one.sprt.to_json()


def test_three_players_score_one_minus_the_durak_share():
    res = match(MatchSpec("greedy", "greedy", players=3, seed=1), 3000, sprt=Sprt(0.5, 0.6))
    # with three players A's score is 1 minus its share of durak games: about
    # 2/3 for equals, so 0.5 against 0.6 is decided for H1; 0.75 against 0.85 for H0
    assert res.sprt is not None and res.sprt.decision == "H1"
    res = match(MatchSpec("greedy", "greedy", players=3, seed=1), 3000, sprt=Sprt(0.75, 0.85))
    assert res.sprt is not None and res.sprt.decision == "H0"
    assert len(res.games) == 3 * res.sprt.deals


def test_no_decision_within_the_cap_reports_every_game():
    res = match(MatchSpec("greedy", "random", players=2, seed=2), 8, sprt=Sprt(0.5, 0.6))
    assert len(res.games) == 8 and res.sprt is not None
    assert res.sprt.decision is None and res.sprt.deals == 4


def test_cli_sprt_json_and_text():
    args = ["match", "--a", "greedy", "--b", "random", "--games", "400", "--seed", "3",
            "--sprt", "0.5,0.6"]
    r = CliRunner().invoke(main, [*args, "--json"])
    assert r.exit_code == 0, r.output
    obj = json.loads(r.output)
    assert obj["sprt"]["decision"] == "H1" and obj["games"] == 2 * obj["sprt"]["deals"]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0 and "H1 accepted" in r.output
    plain = json.loads(CliRunner().invoke(main, ["match", "--a", "greedy", "--b", "random",
                                                 "--games", "2", "--json"]).output)
    assert plain["sprt"] is None


@pytest.mark.parametrize("bad", ["0.6,0.5", "0.5", "a,b", "0.5,1.5", "-0.1,0.5"])
def test_bad_sprt_is_exit_2(bad):
    with pytest.raises(OptionError, match=r"^sprt: .*S0.*S1"):
        parse_sprt(bad)
    r = CliRunner().invoke(main, ["match", "--a", "greedy", "--b", "random", "--sprt", bad])
    assert r.exit_code == 2 and "sprt" in r.output and "Traceback" not in r.output


def test_bad_error_rate_is_exit_2():
    r = CliRunner().invoke(main, ["match", "--a", "greedy", "--b", "random", "--sprt", "0.5,0.6",
                                  "--sprt-alpha", "0.7"])
    assert r.exit_code == 2
