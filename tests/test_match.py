"""The match harness: seat rotation, determinism over workers, the CLI."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.game.rules import parse_rules
from solver.match import HintPolicy, MatchSpec, make_policy, match, play_match_game


def test_each_deal_is_played_from_every_seat():
    res = match(MatchSpec("greedy", "random", players=3, seed=2), 7)
    assert len(res.games) == 9  # rounded up to whole deals
    assert [(g.deal, g.seat_a) for g in res.games] == [(d, s) for d in range(3) for s in range(3)]
    first = [g for g in res.games if g.deal == 0]
    # the same deal: the first move is the same whichever seat A sits in when both are greedy
    same = match(MatchSpec("greedy", "greedy", players=2, seed=4), 4)
    a, b = [g for g in same.games if g.deal == 0]
    assert a.moves == b.moves and a.result == -b.result
    assert all(g.result in (-1, 0, 1) for g in first)


def test_match_is_deterministic_for_any_worker_count():
    spec = MatchSpec("greedy", "random", players=2, rules=parse_rules("transfer"), seed=3)
    one = match(spec, 6, workers=1)
    two = match(spec, 6, workers=2)
    assert [(g.result, g.moves) for g in one.games] == [(g.result, g.moves) for g in two.games]


def test_match_on_a_dask_cluster_plays_the_same_games():
    pytest.importorskip("distributed")
    spec = MatchSpec("greedy", "random", players=3, seed=5)
    one = match(spec, 9, workers=1)
    dask = match(spec, 9, workers=2, scheduler="local")
    assert [(g.deal, g.seat_a, g.result, g.moves) for g in one.games] == \
        [(g.deal, g.seat_a, g.result, g.moves) for g in dask.games]


def test_hint_bot_plays_a_whole_game():
    rec = play_match_game(MatchSpec("hint", "greedy", seed=1, hint_samples=2), 0, 1)
    assert rec.result in (-1, 0, 1) and rec.decisions["a"] > 0
    assert HintPolicy(samples=2).name == "hint"


def test_cli_match_json():
    r = CliRunner().invoke(main, ["match", "--a", "greedy", "--b", "random", "--games", "4",
                                  "--seed", "1", "--json"])
    assert r.exit_code == 0, r.output
    obj = json.loads(r.output)
    assert obj["games"] == 4 and obj["wins"] + obj["draws"] + obj["losses"] == 4
    assert len(obj["ci95_decided"]) == 2 and "seconds_per_decision" in obj


def test_cli_match_table_and_bad_input():
    r = CliRunner().invoke(main, ["match", "--a", "greedy", "--b", "random", "--games", "2"])
    assert r.exit_code == 0 and "A wins" in r.output
    for args in (["--rules", "nonsense"], ["--players", "9"], ["--games", "0"],
                 ["--players", "3", "--rules", "teams=2v2"], ["--a", "clever"]):
        r = CliRunner().invoke(main, ["match", "--b", "random", *(args if "--a" in args else ["--a", "greedy", *args])])
        assert r.exit_code == 2, (args, r.output)


def test_hint_fast_is_the_engine_at_128_deals_whatever_the_players():
    # `hint` takes the engine's default deals (more with three players or more);
    # `hint-fast` keeps the earlier 128 for matches against it
    assert make_policy("hint").samples is None
    fast = make_policy("hint-fast")
    assert fast.samples == 128 and fast.name == "hint-fast"
    assert make_policy("hint-fast", hint_samples=16).samples == 16


def test_cli_match_offers_every_policy_including_inference():
    # `hint-inf` (the hint engine weighing deals by the opponents' moves) is a policy
    # of the command as of the library
    res = CliRunner().invoke(main, ["match", "--a", "hint-inf", "--b", "greedy", "--games", "2",
                                    "--seed", "3", "--hint-samples", "4", "--json"])
    assert res.exit_code == 0, res.output
    obj = json.loads(res.output)
    assert obj["a"] == "hint-inf" and obj["games"] == 2


def test_match_reports_the_median_and_99th_percentile_time_per_decision():
    # every decision lands in one quarter-octave bin; the quantiles are bin tops
    from solver.match import time_bin, time_bin_top
    for b in (0, 10, 40, 80):
        assert time_bin(time_bin_top(b) * 0.999) == b
    assert time_bin(0.0) == 0 and time_bin(1e9) == 111
    res = match(MatchSpec("hint", "greedy", seed=2, hint_samples=8), 4)
    for side in "ab":
        assert sum(sum(g.time_bins[side].values()) for g in res.games) == sum(
            g.decisions[side] for g in res.games)
    obj = res.to_json()
    med, p99 = obj["seconds_per_decision_median"]["a"], obj["seconds_per_decision_p99"]["a"]
    assert 0 < med <= p99 and p99 >= obj["seconds_per_decision"]["a"] / 10
    r = CliRunner().invoke(main, ["match", "--a", "hint", "--b", "greedy", "--games", "2",
                                  "--hint-samples", "4"])
    assert r.exit_code == 0 and "99th percentile" in r.output
