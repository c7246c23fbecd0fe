"""The hint engine: exact answers where the deal is forced, determinism, the CLI."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.game.cards import deck_mask
from solver.game.deal import new_game
from solver.game.movegen import legal_moves, play
from solver.game.moves import Move
from solver.game.value import Value
from solver.hints import (DEFAULT_SAMPLES, DEFAULT_SAMPLES_MULTI, HintConfig, default_samples,
                          evaluate_deal, hint, hint_knowledge)
from solver.hints.knowledge import PublicTracker, knowledge_of, seat_view
from solver.hints.ranking import aggregate
from solver.hints.stats import wilson
from solver.policy.bots import greedy_move
from solver.search import Solver
from solver.search.result import MoveValue, SolveResult

POS = ("trump 9H; pile 7; hands 6S 6D QC KS TD AH | ?6; attacker 1; "
       "out 7S 8S 9S TS JS 6H 7H 8H TH 7D 8D 9D 6C 7C 8C 9C TC; me 1")
ONE_DEAL = ("trump H; hands 7S KH QD | ?3; attacker 1; "
            "out 6S 8S TS JS QS KS AS 6H 7H 8H 9H TH JH 6D 7D 8D 9D TD JD KD AD "
            "6C 7C 8C 9C TC JC QC 9S KC")


def endgame(seed: int, players: int = 2):
    """A dealt game played greedily until the pile is empty, between bouts."""
    s = new_game(players, seed=seed)
    while not s.is_over and (s.pile or s.table):
        s = play(s, greedy_move(s))
    return s


@pytest.mark.parametrize("seed", [0, 1, 3, 4])
def test_single_consistent_deal_gives_the_solvers_exact_answer(seed):
    s = endgame(seed)
    assert not s.is_over  # the seeds' greedy games reach an endgame with the pile empty
    me = s.to_move
    k = seat_view(s, me)          # the opponent's hand is hidden, but forced (S1)
    assert k.view.hidden[1 - me] > 0
    res = hint_knowledge(k, samples=8, seed=1)
    assert res.exhaustive and res.samples == 1 and res.exact_deals == 1
    exact = Solver(tt_mb=16).analyse(s, me + 1, distance=False, pv=False)
    values = {mv.move: int(mv.value) for mv in exact.moves}
    assert res.best in exact.best
    for m in res.moves:
        assert m.score == values[m.move]
        assert m.ci95[0] == m.ci95[1] == m.win  # enumerated and exact: no interval


class StandIn:
    """A tiny solver stand-in: a fixed value per move (the Solver API, nothing more)."""

    backend = "core"

    def __init__(self, values: dict[str, Value]):
        self.values = values
        self.calls = 0

    def analyse(self, state, hero, distance=False, pv=False, max_nodes=None):
        self.calls += 1
        moves = [MoveValue(str(m), self.values.get(str(m), Value.LOSS), None)
                 for m in legal_moves(state)]
        return SolveResult(hero, Value.WIN, [], [], None, 0, 0.0, True, moves)


def test_exact_deals_use_the_solver_values():
    res = hint(ONE_DEAL, samples=4, seed=0, solver=StandIn({"QD": Value.WIN, "7S": Value.DRAW}))
    assert res.best == "QD" and res.exhaustive
    by = {m.move: m for m in res.moves}
    assert by["QD"].win == 1 and by["7S"].draw == 1 and by["KH"].loss == 1
    assert [m.move for m in res.moves][:2] == ["QD", "7S"]


def test_one_deal_position_with_the_real_solver():
    res = hint(ONE_DEAL, samples=4, seed=0)
    exact = Solver(tt_mb=16)
    from solver.notation import parse_position

    st = parse_position(ONE_DEAL).state
    full = st.replace(hands=(st.hands[0], deck_mask(36) & ~st.all_cards()), hidden=(0, 0))
    a = exact.analyse(full, 1, distance=False, pv=False)
    assert res.best in a.best


def test_hint_on_a_dask_cluster_is_the_same():
    pytest.importorskip("distributed")
    a = hint(POS, samples=20, seed=3).to_json()
    assert hint(POS, samples=20, seed=3, workers=2, scheduler="local").to_json() == a


def test_a_time_budget_with_workers_keeps_a_prefix_of_the_deals():
    res = hint(POS, samples=5000, seed=2, workers=2, max_time=0.3)
    assert 1 <= res.samples <= 5000
    assert res.to_json()["moves"]


def test_seeded_hint_is_deterministic_and_independent_of_workers():
    a = hint(POS, samples=6, seed=5).to_json()
    b = hint(POS, samples=6, seed=5).to_json()
    c = hint(POS, samples=6, seed=5, workers=2).to_json()
    assert a == b == c
    many = hint(POS, samples=40, seed=7).to_json()
    assert hint(POS, samples=40, seed=7, workers=2).to_json() == many  # several chunks each
    assert a["samples"] == 6 and a["seed"] == 5 and a["player"] == 1
    assert {"move", "win", "draw", "loss", "score", "ci95"} <= set(a["moves"][0])
    assert a["best"] == a["moves"][0]["move"]
    assert sorted(m["move"] for m in a["moves"]) == sorted(
        str(m) for m in legal_moves(knowledge_of(__import__("solver.notation").notation
                                                 .parse_position(POS).state, 0).view))
    for m in a["moves"]:
        assert abs(m["win"] + m["draw"] + m["loss"] - 1) < 1e-3
        assert m["ci95"][0] <= m["win"] <= m["ci95"][1]


def test_time_budget_scores_a_prefix_of_the_seeded_deals():
    # a budget that has run out after the first deal: exactly that deal is scored
    res = hint(POS, samples=500, seed=2, max_time=1e-9, config=HintConfig(uct_iters=0))
    assert res.samples == 1
    first = hint(POS, samples=500, seed=2, max_time=1e-9,
                 config=HintConfig(playouts="python", uct_iters=0))
    assert [m.to_json() for m in res.moves] == [m.to_json() for m in first.moves]


def test_every_move_scored_on_the_same_deals():
    g = new_game(2, seed=12)
    k = seat_view(g, g.to_move)
    res = hint_knowledge(k, samples=5, seed=3)
    assert {m.n for m in res.moves} == {5}
    shares = sum(m.best for m in res.moves)
    assert abs(shares - 1) < 1e-9


def test_playout_scores_are_results_for_the_asking_seat():
    g = new_game(2, seed=2)
    moves = legal_moves(g)
    cfg = HintConfig(solver="never", uct_iters=0)
    rows, margins, exact = evaluate_deal(g, moves, g.to_move, cfg)
    assert not exact and len(rows) == len(moves) and set(rows) <= {-1, 0, 1}
    other, omargins, _ = evaluate_deal(g, moves, 1 - g.to_move, cfg)
    assert other == [-x for x in rows]  # two players: one's win is the other's loss
    assert omargins == [-x for x in margins]
    for r, m in zip(rows, margins):  # the winner holds no card at the end
        assert (r > 0) == (m > 0) and (r < 0) == (m < 0)


def test_hint_follows_a_real_game_record():
    t = PublicTracker(new_game(3, seed=8))
    for _ in range(12):
        t.play(greedy_move(t.state))
    seat = t.state.to_move
    res = hint_knowledge(t.knowledge(seat), samples=3, seed=0)
    assert res.player == seat + 1
    assert Move.parse(res.best) in legal_moves(t.state)


def test_statistics_helpers():
    lo, hi = wilson(5, 10)
    assert 0.2 < lo < 0.5 < hi < 0.8
    ms = [Move.parse("6S"), Move.parse("7S")]
    rows = [[1, -1], [1, 1], [-1, -1]]
    out = aggregate(ms, rows, exact=False)
    assert out[0].move == "6S" and out[0].win == pytest.approx(2 / 3)
    assert out[0].best == pytest.approx((1 + 0.5 + 0.5) / 3)
    # equal scores: the card margin decides
    tied = aggregate(ms, [[1, 1]], exact=False, margins=[[2.0, 5.0]])
    assert tied[0].move == "7S"


# ---------------------------------------------------------------- CLI
def run(*args):
    return CliRunner().invoke(main, list(args))


def test_cli_json_is_one_object_and_seeded():
    r1 = run("hint", POS, "--samples", "4", "--seed", "9", "--json")
    r2 = run("hint", POS, "--samples", "4", "--seed", "9", "--json", "--workers", "2")
    assert r1.exit_code == 0, r1.output
    obj = json.loads(r1.output)
    assert obj == json.loads(r2.output)
    assert obj["seed"] == 9 and obj["samples"] == 4 and obj["top"] == obj["moves"][0]["move"]
    assert obj["best"] in obj["as_good"] and obj["moves"][0]["as_good"]


def test_cli_table():
    r = run("hint", ONE_DEAL, "--seed", "1")
    assert r.exit_code == 0, r.output
    assert "recommended" in r.output and "every card placed: 1 deal, solved exactly" in r.output


@pytest.mark.parametrize("args", [
    ["hint", "trump H; hands ?2 | 7S KH; attacker 1"],            # own hand hidden
    ["hint", POS, "--samples", "0"],
    ["hint", POS, "--workers", "0"],
    ["hint", "trump H; hands 7S | ; attacker 1; bogus 3"],
    ["hint", POS, "--me", "3"],
    ["hint", "trump H; hands 7S KH | ?2; attacker 1; me 2"],        # seat 2's hand is hidden
])
def test_cli_bad_input_exits_2(args):
    r = run(*args)
    assert r.exit_code == 2, r.output


def test_asking_seat_not_to_move_sees_the_movers_best_first():
    pos = ("trump H; hands 7S KH | 8S 9H; attacker 1; me 2; out 6S 9S TS JS QS KS AS 6H 7H 8H "
           "TH JH QH AH 6D 7D 8D 9D TD JD QD KD AD 6C 7C 8C 9C TC JC QC KC AC")
    res = hint(pos, samples=4, seed=0)
    assert res.player == 2 and res.to_move == 1
    by = {m.move: m.score for m in res.moves}
    assert by == {"KH": -1, "7S": 0}   # scores are seat 2's
    assert res.best == "KH"            # the mover's best: seat 2 loses


def test_the_default_number_of_deals_grows_with_the_players():
    # docs/hint.md: three players gain from more deals (the durak in 6.3% of 3,000
    # games at 128, 5.1% at 512), two with the tree search up to 256
    assert default_samples(2) == DEFAULT_SAMPLES == 256
    assert default_samples(3) == default_samples(6) == DEFAULT_SAMPLES_MULTI == 512
    three = new_game(3, seed=4)
    res = hint_knowledge(knowledge_of(three, three.to_move), seed=1)
    assert not res.exhaustive and res.samples == 512
    two = new_game(2, seed=4)
    assert hint_knowledge(knowledge_of(two, two.to_move), seed=1).samples == 256
