"""The match harness: seat rotation, determinism over workers, the CLI."""
from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.errors import OptionError
from solver.game.rules import parse_rules
from solver.hints import HintConfig
from solver.play.match import (HintPolicy, MatchSpec, deal_of, make_policy, match, play_game,
                               play_match_game)


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


def test_budget_policy_is_the_engine_at_fixed_deals_and_iterations():
    # `hint@DEALSxITERATIONS`: the default engine at a fixed amount of work (the time
    # curve's levels, measured as work because a loaded machine stretches seconds)
    p = make_policy("hint@64x40")
    assert p.samples == 64 and p.config.uct_iters == 40 and p.name == "hint@64x40"
    assert make_policy("hint@512").samples == 512 and make_policy("hint@512").config.uct_iters == 300
    # the same games as the engine given the same work another way
    same = play_match_game(MatchSpec("hint@8x20", "greedy", seed=6), 0, 1)
    pols = [make_policy("greedy"), HintPolicy(8, config=HintConfig(uct_iters=20))]
    rngs = [random.Random(f"policy:6:0:1:{s}") for s in range(2)]
    _, moves, _, _, _ = play_game(pols, deal_of(MatchSpec("hint", "greedy", seed=6), 0), rngs)
    assert same.moves == [str(m) for m in moves]
    for bad in ("hint@", "hint@0", "hint@8x", "hint@x8", "hint@8x-1", "hint@8y8", "hint@8x999999"):
        with pytest.raises(OptionError, match="hint@DEALS"):
            make_policy(bad)
    r = CliRunner().invoke(main, ["match", "--a", "hint@4x8", "--b", "greedy", "--games", "2",
                                  "--json"])
    assert r.exit_code == 0, r.output
    assert json.loads(r.output)["a"] == "hint@4x8"
    r = CliRunner().invoke(main, ["match", "--a", "hint@4x", "--b", "greedy", "--games", "2"])
    assert r.exit_code == 2 and "hint@DEALS" in r.output and "Traceback" not in r.output


def test_match_reports_the_processor_seconds_of_each_side():
    # the work of a decision, which other processes do not stretch: the hint engine
    # spends far more of it than the greedy player, and never more than the wall time
    # allows on one core
    res = match(MatchSpec("hint@16x30", "greedy", seed=2), 2)
    for g in res.games:
        assert g.cpu["a"] > 0 and g.cpu["a"] <= g.seconds["a"] * 1.05 + 0.01
    obj = res.to_json()
    assert obj["cpu_seconds_per_decision"]["a"] > obj["cpu_seconds_per_decision"]["b"] * 5


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
    from solver.play.match import time_bin, time_bin_top
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


# ---------------------------------------------------------------- paired comparison
def _match_json(a: str, b: str, games: int, seed: int = 3, players: int = 2) -> dict:
    return match(MatchSpec(a, b, players=players, seed=seed), games).to_json()


def test_match_json_lists_every_game_and_agrees_with_its_totals():
    obj = _match_json("greedy", "random", 12, players=3)
    rows = obj["per_game"]
    assert len(rows) == obj["games"] == 12
    assert {(r["deal"], r["seat_a"]) for r in rows} == {(d, s) for d in range(4) for s in (1, 2, 3)}
    assert sum(r["result"] > 0 for r in rows) == obj["wins"]
    assert sum(r["result"] < 0 for r in rows) == obj["losses"]


def test_compare_pairs_two_matches_deal_by_deal(tmp_path):
    from solver.play.match import paired
    good, bad = _match_json("greedy", "random", 40), _match_json("random", "random", 40)
    same = paired(good, good)
    assert same["deals"] == 20 and same["score_difference"] == 0 and same["ci95"] == [0, 0]
    res = paired(good, bad)

    def deal_means(obj):
        by: dict[int, list[float]] = {}
        for r in obj["per_game"]:
            by.setdefault(r["deal"], []).append({1: 1.0, 0: 0.5, -1: 0.0}[r["result"]])
        return {d: sum(v) / len(v) for d, v in by.items()}

    gm, bm = deal_means(good), deal_means(bad)
    want = sum(gm[d] - bm[d] for d in gm) / len(gm)
    assert res["score_difference"] == pytest.approx(want, abs=1e-4)
    assert res["ci95"][0] > 0  # greedy beats random by far more than the noise
    assert res["first"]["wins"] == good["wins"] and res["second"]["losses"] == bad["losses"]
    f1, f2 = tmp_path / "good.json", tmp_path / "bad.json"
    f1.write_text(json.dumps(good))
    f2.write_text(json.dumps(bad))
    r = CliRunner().invoke(main, ["compare", str(f1), str(f2), "--json"])
    assert r.exit_code == 0 and json.loads(r.output) == res
    r = CliRunner().invoke(main, ["compare", str(f1), str(f2)])
    assert r.exit_code == 0 and "20 deals in common" in r.output and "95% interval" in r.output


@pytest.mark.parametrize("change, message", [
    (lambda o: o.update(seed=9), "not played on the same deals"),
    (lambda o: o.pop("per_game"), "per-game results"),
    (lambda o: o["per_game"].__setitem__(0, {"deal": 0, "seat_a": 7, "result": 1}), "per_game[0]"),
    (lambda o: o.update(per_game="x"), "per_game[0]"),
])
def test_compare_refuses_matches_it_cannot_pair(tmp_path, change, message):
    good = _match_json("greedy", "random", 4)
    other = json.loads(json.dumps(good))
    change(other)
    f1, f2 = tmp_path / "a.json", tmp_path / "b.json"
    f1.write_text(json.dumps(good))
    f2.write_text(json.dumps(other))
    r = CliRunner().invoke(main, ["compare", str(f1), str(f2)])
    assert r.exit_code == 2 and message in r.output and "Traceback" not in r.output


def test_compare_names_the_file_it_cannot_read(tmp_path):
    f = tmp_path / "x.json"
    f.write_text("{not json")
    for args, message in ((["compare", str(f), str(f)], "is not JSON"),
                          (["compare", str(tmp_path / "none.json"), str(f)], "cannot read")):
        r = CliRunner().invoke(main, args)
        assert r.exit_code == 2 and "MATCH1" in r.output and message in r.output
