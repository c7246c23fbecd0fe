"""The anytime answer (issue 54): an estimate beside what is proven.

* ``Solver.estimate`` (``ext/anytime.pxi``'s ``anytime_scores``) scores every legal
  move exactly once, with 2-6 players, every rule option and bouts in
  progress, under both models of the others; with a count of playouts and
  no clock it repeats exactly.
* Every bound its tree proves -- finished games, the table's proofs, the
  proof search at small leaves -- holds the oracle's value of the move
  (``reference.retrograde_moves``), and so do the moves it calls solved.
* With enough playouts its first move keeps the exact value on small
  endgames (the coalition model, S2), and against independent players with
  two players (where the two models are one game).
* ``solve_answer`` / ``analyse_answer`` under a ladder of budgets: the proven
  parts of every partial answer are the exact answer's (value, bounds, best
  moves, moves' values and distances), the recommended move is legal, a
  move recommended by proof is a best move of the exact answer, and a move
  recommended by the estimate is never one the partial answer proves worse
  while another is not.
* An exact answer that needs no estimate prints exactly what it printed
  before; an exact 3-player answer lost for the seat to move is ranked by
  the estimate against independent players; the CLI labels which is which.
"""
from __future__ import annotations

import json
import random
import signal
import subprocess
import sys
import time

import pytest
from click.testing import CliRunner
from solver_positions import OPTION_SETS, deal_endgame, game_states, oracle_positions

from solver.answers import commands as answers
from solver.answers.commands import analyse_answer, estimate_reserve, solve_answer
from solver.cli.app import main
from solver.errors import BudgetExceeded, OptionError
from solver.game import movegen as engine
from solver.game.rules import Rules
from solver.game.value import Value
from solver.search import Solver
from solver.search.native import core, move_text
from solver.search.reference import GraphTooLarge, retrograde_moves
from solver.search.result import on_hero_side, proven_standing
from terminal import as_at_a_terminal

#: a 3-player endgame whose exact answer takes tens of seconds (README): a hero win
HARD_3P = "trump H; hands JS QS TH JH JC | QH KH KD 9C QC | 7S 8H 9H JD 8C; attacker 1"
# a 6-6-6 endgame whose value and moves stay unproven for seconds (deal_endgame seed 0)
HARD_666 = "trump C; hands 6S JH AH 7D 9D TD | JS KS 7H TH 9C QC | 7S 9S AS JD 7C AC; attacker 3"


def texts(state) -> list[str]:
    return [str(m) for m in engine.legal_moves(state)]




# ------------------------------------------------------------------ the estimate
@pytest.mark.parametrize("model", ["coalition", "independent"])
def test_the_estimate_scores_every_legal_move_once(model):
    solver = Solver(4)
    seen = 0
    for s in game_states(54, 60):
        if s.pile and s.pile_order is None:
            continue
        hero = random.Random(seen).randrange(s.players) + 1
        est = solver.estimate(s, hero, model=model, iterations=400, seed=seen)
        assert sorted(m.move for m in est.moves) == sorted(texts(s)), s
        assert est.model == model and est.method == "uct" and est.iterations <= 400
        assert sum(m.visits for m in est.moves) <= est.iterations
        for m in est.moves:
            assert -1.0 <= m.score <= 1.0
            assert (m.own is not None) == (model == "independent")
        mine = on_hero_side(s, hero - 1, s.to_move)
        keys = [est.mover_key(m, mine) for m in est.moves]
        assert keys == sorted(keys, reverse=True)  # best first for the seat to move
        seen += 1
    assert seen > 30


def test_the_estimate_repeats_with_a_count_of_playouts():
    solver = Solver(4)
    for s in game_states(55, 20):
        if s.pile and s.pile_order is None:
            continue
        for model in ("coalition", "independent"):
            a = solver.estimate(s, s.to_move + 1, model=model, iterations=500, seed=3)
            b = solver.estimate(s, s.to_move + 1, model=model, iterations=500, seed=3)
            assert a.moves == b.moves and a.iterations == b.iterations


def test_the_estimate_refuses_what_it_cannot_do():
    s = deal_endgame(random.Random(1), [3, 3, 3])
    with pytest.raises(OptionError, match="model: 'paranoid' is not one of"):
        Solver(4).estimate(s, 1, model="paranoid", iterations=10)
    with pytest.raises(OptionError, match="give max_time or iterations"):
        Solver(4).estimate(s, 1)
    with pytest.raises(TypeError, match="estimate: needs the core backend"):
        Solver(4, backend="reference").estimate(s, 1, iterations=10)


@pytest.mark.parametrize("case", range(3))
def test_every_bound_the_estimate_proves_holds_the_oracle_value(case):
    """Terminal states, the table's proofs and the proof search at small
    leaves: every (lo, hi) of a root move holds its exact value, and so does
    the root's; a move called solved has its exact value."""
    solver = Solver(4)
    proven = solved = 0
    for s, hero in oracle_positions(540 + case, 40, most=3):
        try:
            truth = retrograde_moves(s, hero, max_states=20_000)
        except GraphTooLarge:
            continue
        want = {m: v for m, v, _ in truth}
        root_value = max(want.values()) if on_hero_side(s, hero, s.to_move) else min(want.values())
        solver.clear()
        if case:  # a table that holds partial proofs of this position
            try:
                solver.analyse(s, hero + 1, max_nodes=300 * case)
            except BudgetExceeded:  # the partial proofs stay in the table
                pass
        st = solver.core_state(s)
        out, stats = core.anytime_scores(st, hero, 0, 0.0, 3000, tuple(a for a, _ in s.table),
                                         seed=case, leaf_cards=6 if case != 1 else 0,
                                         leaf_nodes=1024, use_table=bool(case))
        assert stats["root"][0] <= root_value <= stats["root"][1], s
        for mv, (_, _, _, lo, hi, _) in zip(st.moves(), out):
            v = want[move_text(mv)]
            assert lo <= v <= hi, (s, hero, move_text(mv))
            proven += (lo, hi) != (-1, 1)
        est = solver.estimate(s, hero + 1, iterations=3000, seed=case, leaf_cards=6)
        for m in est.moves:
            if m.solved is not None:
                assert m.solved == Value(want[m.move]), (s, hero, m)
                solved += 1
    assert proven > 30 and solved > 30


def test_the_estimate_finds_a_best_move_on_small_endgames():
    """S2 (the coalition) with 3-4 players and teams, and two players under
    both models: enough playouts put a move of the exact value first."""
    rng = random.Random(56)
    solver = Solver(8)
    checked = 0
    for _ in range(80):
        n = rng.choice([2, 3, 3, 4])
        rules = rng.choice(OPTION_SETS[:8] + [Rules(teams=True)] * 2)
        if rules.teams and n != 4:
            rules = Rules()
        s = deal_endgame(rng, [rng.randint(1, 3) for _ in range(n)], rules)
        if s.is_over:
            continue
        hero = rng.randrange(n) + 1
        res = solver.analyse(s, hero, distance=False, pv=False)
        value = {m.move: m.value for m in res.moves}
        models = ["coalition", "independent"] if n == 2 else ["coalition"]
        for model in models:
            est = solver.estimate(s, hero, model=model, iterations=4000, seed=2,
                                  use_table=False)
            assert value[est.moves[0].move] == res.value, (s, hero, model)
            checked += 1
    assert checked > 60


def test_against_independent_players_each_seat_plays_for_itself():
    """Under the independent model the seat to move ranks by his own result:
    with the hero not to move, ``own`` is the mover's, not the hero's negation."""
    rng = random.Random(57)
    differ = 0
    solver = Solver(4)
    for _ in range(40):
        s = deal_endgame(rng, [2, 2, 2], Rules())
        hero = (s.to_move + 1) % 3 + 1
        est = solver.estimate(s, hero, model="independent", iterations=2000, seed=1)
        co = solver.estimate(s, hero, model="coalition", iterations=2000, seed=1)
        assert all(m.own is not None for m in est.moves)
        assert all(m.own is None for m in co.moves)
        differ += any(abs(m.own + m.score) > 1e-6 for m in est.moves)  # type: ignore[operator]
    assert differ > 5


# ------------------------------------------------------------------ the anytime answer
def _ladder_positions():
    """(position, hero): 2-4 players, options, teams, both sides to move; each
    solved exactly in well under a second (a hero seat that is not to move
    makes the coalition's choice the question)."""
    for sizes, seed, rules, heroes in (
            ([4, 4, 3], 1, Rules(), (2, 3)), ([4, 4, 3], 2, Rules(transfer=True), (2,)),
            ([4, 4, 4], 3, Rules(), (1, 3)), ([3, 3, 3, 3], 3, Rules(teams=True), (1, 4)),
            ([3, 3, 3, 3], 4, Rules(throw_in_neighbours=True), (2, 3)),
            ([6, 6], 5, Rules(transfer=True), (1,)), ([6, 6], 8, Rules(), (1,))):
        s = deal_endgame(random.Random(seed), sizes, rules)
        for hero in heroes:
            yield s, hero


def test_the_anytime_answer_keeps_the_proven_parts_of_the_exact_answer(monkeypatch):
    monkeypatch.setattr(answers, "ESTIMATE_ITERATIONS", 3000)  # (a node budget: a count of playouts)
    partials = by_estimate = by_proof = 0
    for s, hero in _ladder_positions():
        full = Solver(16).analyse(s, hero)
        truth = {m.move: m for m in full.moves}
        legal = texts(s)
        mine = on_hero_side(s, hero - 1, s.to_move)
        for all_moves in (False, True):
            answer = analyse_answer if all_moves else solve_answer
            exact = answer(s, hero, solver=Solver(16))
            budget = 400
            while budget < exact.result.nodes:
                ans = answer(s, hero, max_nodes=budget, solver=Solver(16))
                budget = budget * 2
                if ans.exact:
                    break
                p = ans.result
                partials += 1
                # the proven parts: those of the exact answer
                assert p.lower <= full.value <= p.upper
                if p.value is not None:
                    assert p.value == full.value
                    assert set(p.best) <= set(exact.result.best)
                for m in p.moves:
                    if m.value is not None:
                        assert m.value == truth[m.move].value
                    if m.distance is not None:
                        assert m.distance == truth[m.move].distance
                # the recommendation: legal, and honest about its basis
                assert p.recommended in legal
                # no estimate where a move is proven to keep the value (the mover not lost)
                assert (p.estimate is None) == (p.recommended_by == "proof")
                for e in p.estimate.moves if p.estimate is not None else ():
                    if e.solved is not None:
                        assert e.solved == truth[e.move].value
                standing = proven_standing(p, legal, mine)
                rec = standing[legal.index(p.recommended)]
                if p.recommended_by.startswith("proof"):
                    assert rec == 1 and p.recommended in full.best
                    by_proof += 1
                else:
                    assert p.recommended_by == "estimate"
                    assert rec is None and 1 not in standing
                    by_estimate += 1
                d = p.to_json()
                assert d["recommended"] == p.recommended
                assert p.estimate is None or d["estimate"]["model"] in ("coalition",
                                                                        "independent")
    # (173 partial answers: 106 recommended by the estimate, 67 by proof)
    assert partials > 120 and by_estimate > 70 and by_proof > 40


def test_an_exact_answer_that_needs_no_estimate_is_unchanged():
    s = deal_endgame(random.Random(8), [6, 6])
    ans = solve_answer(s, solver=Solver(16))
    plain = Solver(16).solve(s)
    assert ans.exact and ans.result.estimate is None and ans.result.recommended is None
    d, e = ans.result.to_json(), plain.to_json()
    assert {k: v for k, v in d.items() if k not in ("nodes", "seconds")} == \
        {k: v for k, v in e.items() if k not in ("nodes", "seconds")}


def test_an_exact_three_player_loss_is_ranked_against_independent_players():
    """Every move loses against the coalition: the moves are still ranked for
    practical play, by the estimate against independent players, and the
    answer says so; the proven parts are the exact answer's."""
    found = 0
    for seed in range(30):
        s = deal_endgame(random.Random(seed), [3, 3, 3], Rules())
        if len(texts(s)) < 2:
            continue
        ans = analyse_answer(s, s.to_move + 1, solver=Solver(16))
        if not ans.exact or ans.result.value != Value.LOSS:
            continue
        res = ans.result
        plain = Solver(16).analyse(s, s.to_move + 1)
        assert [(m.move, m.value, m.distance) for m in res.moves] == \
            [(m.move, m.value, m.distance) for m in plain.moves]
        assert res.estimate is not None and res.estimate.model == "independent"
        assert res.recommended_by == "proof, estimate" and res.recommended in res.best
        assert res.recommended == res.estimate.moves[0].move
        again = analyse_answer(s, s.to_move + 1, solver=Solver(16))
        assert again.result.recommended == res.recommended  # a count of playouts: it repeats
        found += 1
        if found == 6:
            break
    assert found == 6


def test_the_estimate_has_its_share_of_the_time_budget():
    assert estimate_reserve(None) == 0.0
    assert estimate_reserve(2.0) == pytest.approx(0.5)
    assert estimate_reserve(60.0) == pytest.approx(1.0)
    t0 = time.monotonic()
    ans = analyse_answer(HARD_3P, 1, max_time=1.0, solver=Solver(16))
    took = time.monotonic() - t0
    assert not ans.exact and ans.budget is not None and "1 s" in ans.budget
    assert ans.result.recommended in texts(deal_state(HARD_3P))
    if ans.result.recommended_by == "proof":
        # the cut search proved a move keeps the value: nothing is estimated
        assert ans.result.estimate is None and ans.result.recommended in ans.result.best
    else:
        assert ans.result.estimate is not None and ans.result.estimate.iterations > 0
    assert took < 3.0  # the budget, and some slack for a loaded machine


def deal_state(text: str):
    from solver.notation import parse_position
    return parse_position(text).state


# ------------------------------------------------------------------ the CLI
def test_the_cli_labels_what_is_proven_and_what_is_estimated():
    # a node budget with one thread cuts the search at the same place on any machine
    r = CliRunner().invoke(main, ["analyse", HARD_3P, "--max-nodes", "20000", "--threads", "1"])
    assert r.exit_code == 3
    assert "recommended: " in r.output and "estimate (not a proof)" in r.output
    assert "playouts" in r.output
    r = CliRunner().invoke(main, ["solve", HARD_3P, "--max-nodes", "20000", "--json",
                                  "--threads", "1"])
    assert r.exit_code == 3
    d = json.loads(r.output[r.output.index("{"):])
    for k in ("player", "value", "best", "pv", "distance", "nodes", "seconds", "exact",
              "lower", "upper", "best_complete", "recommended", "recommended_by", "estimate"):
        assert k in d
    assert d["recommended"] in texts(deal_state(HARD_3P))
    assert set(d["estimate"]) >= {"method", "model", "moves", "iterations", "seconds"}
    assert all({"move", "score", "visits"} <= set(m) for m in d["estimate"]["moves"])


def test_batch_lines_carry_the_recommended_move(tmp_path):
    src = tmp_path / "in.jsonl"
    src.write_text(json.dumps({"id": "hard", "position": HARD_3P, "hero": 1}) + "\n")
    r = CliRunner().invoke(main, ["batch", "analyse", str(src), "--max-time", "0.6", "-j", "1"])
    line = json.loads(r.output.splitlines()[0])
    assert line["id"] == "hard" and line["exit_code"] == 3
    assert line["recommended"] in texts(deal_state(HARD_3P))


def test_ctrl_c_still_recommends_a_move_and_exits_130():
    p = subprocess.Popen([sys.executable, "-m", "solver.cli", "analyse", HARD_666, "--json"],
                         stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                         preexec_fn=as_at_a_terminal)
    time.sleep(3.0)
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=60)
    assert p.returncode == 130, err
    d = json.loads(out)
    assert d["exact"] is False and d["recommended"] in texts(deal_state(HARD_666))
    assert d["estimate"]["seconds"] < 1.0

