"""The solver's API, CLI and JSON agree; refusals, budgets, R23, bench pin."""
from __future__ import annotations

import json
import random

import pytest
from click.testing import CliRunner
from solver_positions import deal_endgame

import solver.search.exact as search
from solver.cli.app import main
from solver.errors import BudgetExceeded, HiddenCardsError
from solver.game import movegen as engine
from solver.game.moves import Move
from solver.game.rules import Rules
from solver.game.value import Value
from solver.notation import parse_position
from solver.search import MoveValue, Solver, SolveResult
from solver.search.reference import retrograde_moves

SIMPLE = "trump H; hands 6S 7S KH | 8C 9C AH; attacker 1"
# three players, no transfer: the cards go round the table for ever (R23)
ROUND = "trump D; hands QH | 6H JH | KS 9C; attacker 3"


def test_solve_api_and_json_keys():
    r = search.solve(SIMPLE)
    assert (r.player, r.value, r.distance) == (1, Value.WIN, 6)
    assert r.best == ["6S", "7S"]
    assert r.exact and r.nodes > 0 and r.seconds >= 0
    d = r.to_json()
    for k in ("player", "value", "best", "pv", "nodes", "seconds", "distance"):
        assert k in d
    a = search.analyse(SIMPLE)
    assert [(m.move, m.value, m.distance) for m in a.moves] == [
        ("6S", Value.WIN, 6), ("7S", Value.WIN, 10), ("KH", Value.LOSS, 6)]
    assert a.to_json()["moves"][0] == {"move": "6S", "value": "win", "distance": 6}


def test_pv_plays_to_the_end_and_agrees_with_distance():
    r = search.solve(SIMPLE)
    s = parse_position(SIMPLE).state
    for m in r.pv:
        s = engine.play(s, Move.parse(m))
    assert s.is_over and s.outcome()[0] == 1
    assert len(r.pv) == r.distance


def test_accepts_json_dict_and_state():
    pos = parse_position(SIMPLE)
    r1 = search.solve(pos.to_json())
    r2 = search.solve(pos.state)
    r3 = Solver().solve(pos.state, 1)
    assert r1.value == r2.value == r3.value == Value.WIN


def test_hero_is_one_based_and_checked():
    assert search.solve(ROUND, hero=2).player == 2
    with pytest.raises(ValueError, match="hero: seat 4 is not in a 3-player game"):
        search.solve(ROUND, hero=4)


def test_hidden_cards_refused():
    text = ("trump 9H; pile 7; hands 6S 6D QC KS TD AH | ?6; attacker 1; "
            "out 7S 8S 9S TS JS 6H 7H 8H TH 7D 8D 9D 6C 7C 8C 9C TC")
    with pytest.raises(HiddenCardsError, match="durak hint"):
        search.solve(text)


def test_known_pile_is_solved_with_drawing():
    from builders import state
    for hands, pile, rules in ((["6S 9H", "7S 8D"], ["TS", "JH"], ""),
                               (["6S 9H KD", "7S 8D"], ["TS", "6H"], "trump_swap"),
                               (["6S 6D", "6C TD"], ["QS", "JH"], "transfer")):
        s = state(hands, trump="H", pile=pile, rules=rules)
        r = Solver().analyse(s)
        want = {m: Value(v) for m, v, _ in retrograde_moves(s, s.to_move)}
        assert {m.move: m.value for m in r.moves} == want


def test_budget_raises_with_partial():
    rng = random.Random(8)
    s = deal_endgame(rng, [8, 8])
    with pytest.raises(BudgetExceeded) as ei:
        Solver(4).solve(s, max_nodes=2000)
    p = ei.value.partial
    assert p.exact is False and p.nodes >= 2000


def test_value_fast_path():
    s = parse_position(SIMPLE).state
    assert Solver().value(s, 1) == Value.WIN
    assert Solver().value(s, 2) == Value.LOSS
    assert Solver().value(s) == Value.WIN  # the seat to move


def test_round_the_table_is_a_draw_by_repetition():
    """R23: every line goes on for ever, so the value rests on repetitions."""
    pos = parse_position(ROUND)
    r = search.analyse(ROUND, hero=2)
    assert r.value == Value.DRAW and r.distance is None
    # the principal variation does not end the game: it repeats
    s = pos.state
    for m in r.pv:
        s = engine.play(s, Move.parse(m))
    assert not s.is_over
    want = {m: Value(v) for m, v, _ in retrograde_moves(pos.state, 1)}
    assert {m.move: m.value for m in r.moves} == want
    # each seat's value is the best of its move values when it moves, else the worst
    for hero in (1, 3):
        values = [v for _, v, _ in retrograde_moves(pos.state, hero - 1)]
        best = max if pos.state.to_move == hero - 1 else min
        assert search.solve(ROUND, hero=hero).value == Value(best(values))


def test_repetition_values_agree_with_retrograde_on_cyclic_games():
    """3-player positions where cycles occur: the core equals the retrograde oracle."""
    rng = random.Random(21)
    solver = Solver(8)
    draws = 0
    for _ in range(150):
        s = deal_endgame(rng, [rng.randint(1, 2) for _ in range(3)],
                         Rules(transfer=rng.random() < 0.5))
        hero = rng.randrange(3)
        want = {m: Value(v) for m, v, _ in retrograde_moves(s, hero)}
        got = solver.analyse(s, hero + 1)
        assert {m.move: m.value for m in got.moves} == want
        draws += got.value == Value.DRAW
    assert draws > 5


# ------------------------------------------------------------------ CLI
def test_cli_solve_json_matches_api():
    res = CliRunner().invoke(main, ["solve", SIMPLE, "--json"])
    assert res.exit_code == 0, res.output
    d = json.loads(res.output)
    api = search.solve(SIMPLE).to_json()
    for k in ("player", "value", "best", "pv", "distance"):
        assert d[k] == api[k]


def test_cli_threads_one_repeats_its_node_counts_and_two_give_the_same_answer():
    # an 8 v 8 endgame big enough for the helper thread to take part
    text = "trump S; hands 6S 9S TS QS KS 7H 9H JC | 7S 8S JS AS 6H 8H TH 6C; attacker 1"
    runs = {}
    for threads in ("1", "1", "2"):
        for cmd in ("solve", "analyse"):
            res = CliRunner().invoke(main, [cmd, text, "--threads", threads, "--json"])
            assert res.exit_code == 0, res.output
            runs.setdefault((cmd, threads), []).append(json.loads(res.output))
    for cmd in ("solve", "analyse"):
        a, b = runs[(cmd, "1")]
        assert a["nodes"] == b["nodes"]
        two = runs[(cmd, "2")][0]
        assert (two["value"], two["distance"], sorted(two["best"])) == \
            (a["value"], a["distance"], sorted(a["best"]))
    assert [(m["move"], m["value"], m["distance"]) for m in runs[("analyse", "2")][0]["moves"]] \
        == [(m["move"], m["value"], m["distance"]) for m in runs[("analyse", "1")][0]["moves"]]
    res = CliRunner().invoke(main, ["solve", text, "--threads", "3"])
    assert res.exit_code == 2 and "--threads" in res.output


def test_cli_analyse_table_and_json():
    res = CliRunner().invoke(main, ["analyse", SIMPLE])
    assert res.exit_code == 0 and "KH" in res.output and "loss" in res.output
    res = CliRunner().invoke(main, ["analyse", ROUND, "--hero", "2", "--json"])
    d = json.loads(res.output)
    assert d["player"] == 2 and d["value"] == "draw" and len(d["moves"]) == 2


def test_cli_hidden_and_bad_input_exit_2():
    res = CliRunner().invoke(main, ["solve", "trump H; hands ?3 | 8C; attacker 1"])
    assert res.exit_code == 2
    res = CliRunner().invoke(main, ["solve", "trump X; hands 6S | 7S; attacker 1"])
    assert res.exit_code == 2


def test_cli_budget_exit_3_prints_partial():
    rng = random.Random(8)
    from solver.notation import format_position
    text = format_position(deal_endgame(rng, [8, 8]))
    res = CliRunner().invoke(main, ["solve", text, "--max-nodes", "1000", "--json"])
    assert res.exit_code == 3
    d = json.loads(res.output.splitlines()[0] if res.output.startswith("{") else
                   res.output[res.output.index("{"):])
    assert d["exact"] is False


def test_cli_budget_after_the_value_says_the_value_is_proven():
    """S1: a budget that runs out after the value is proven still reports it, exit 3."""
    text = "trump D; hands JS 8H AH 7C JC QC | 7H TH 9D AD 6C 8C; attacker 1"
    res = CliRunner().invoke(main, ["solve", text, "--max-nodes", "16384"])
    assert res.exit_code == 3
    # the distance walk had proven 19 plies out of reach when the budget ran out;
    # every move of a lost position keeps the loss, so the best moves are known
    assert ("seat 1: loss in 19 plies or more (value proven; exact distance and variation "
            "not finished)") in res.output
    full = Solver(8).solve(parse_position(text).state)
    assert (full.value, full.distance) == (Value.LOSS, 21)
    best = next(line for line in res.output.splitlines() if line.startswith("best: "))
    assert sorted(best.split()[1:]) == sorted(full.best) and len(full.best) == 7


def test_a_partial_answer_bounds_the_distance_it_did_not_finish():
    """A budget that runs out after a decisive value, before its distance is
    found, reports the plies proven so far; they hold the exact distance (two
    and three players, solve and analyse), and a distance already found is
    reported as such."""
    bounded = upper = exact = 0
    for sizes, seed in (([8, 8], 1), ([8, 8], 2), ([4, 4, 4], 1), ([4, 4, 4], 2)):
        s = deal_endgame(random.Random(seed), sizes)
        for command in ("solve", "analyse"):
            full = getattr(Solver(16), command)(s)
            assert full.distance is not None
            budget = 500
            while budget < full.nodes * 0.9:
                with pytest.raises(BudgetExceeded) as ei:
                    getattr(Solver(16), command)(s, max_nodes=budget)
                p = ei.value.partial
                if p.distance is not None:
                    assert (p.value, p.distance) == (full.value, full.distance)
                    exact += 1
                elif p.distance_lower is not None:
                    assert p.value == full.value
                    assert 1 <= p.distance_lower <= full.distance
                    assert p.distance_upper is None or full.distance <= p.distance_upper
                    assert p.to_json()["distance_bounds"] == [p.distance_lower,
                                                              p.distance_upper]
                    bounded += 1
                    upper += p.distance_upper is not None
                budget = budget * 3 // 2
    # (this ladder gives 16 bounded partials, 2 with an upper bound, and 6 exact distances)
    assert bounded >= 10 and upper >= 1 and exact >= 4


def test_a_partial_answer_keeps_the_moves_answered_so_far():
    """S2: a budget that runs out after the value leaves the moves proven so
    far.  Over a ladder of node budgets (two and three players), ``solve``'s
    partial best moves are best moves of the full answer (all of them when
    ``best_complete``), and ``analyse``'s partial moves carry the full
    answer's value and distance wherever they carry one."""
    some_best = incomplete = valued = measured = 0
    for sizes, seed in (([8, 8], 1), ([8, 8], 2), ([4, 4, 4], 1), ([4, 4, 4], 2),
                        ([5, 5], 4)):
        s = deal_endgame(random.Random(seed), sizes)
        for all_moves in (False, True):
            ask = Solver(16).analyse if all_moves else Solver(16).solve
            full = ask(s)
            truth = {m.move: m for m in full.moves}
            budget = 500
            while budget < full.nodes:
                try:
                    (Solver(16).analyse if all_moves else Solver(16).solve)(s, max_nodes=budget)
                    break  # (the budget is counted between proofs: it may just suffice)
                except BudgetExceeded as e:
                    p = e.partial
                budget = budget * 3 // 2
                if p.value is None:
                    assert not p.best and not p.moves
                    continue
                assert set(p.best) <= set(full.best)
                if p.best_complete:
                    assert sorted(p.best) == sorted(full.best)
                else:
                    incomplete += 1
                assert p.to_json()["best_complete"] is p.best_complete
                some_best += bool(p.best)
                if all_moves:
                    assert sorted(m.move for m in p.moves) == sorted(truth)
                    for m in p.moves:
                        if m.value is not None:
                            assert m.value == truth[m.move].value
                            valued += 1
                        if m.distance is not None:
                            assert m.distance == truth[m.move].distance
                            measured += 1
    # (this ladder gives 37 partials with best moves, 38 with some moves not
    # asked, 198 moves valued and 30 with their distance)
    assert some_best >= 20 and incomplete >= 20 and valued >= 100 and measured >= 20


def test_a_win_cut_off_after_its_value_names_a_winning_move():
    """S2: the value proof's own move at the root is asked first among the
    best moves (its proof is in the table), so a budget that runs out any
    time after the mover's win is proven still names a move that keeps it
    (before, 61 of these 172 partial answers named none)."""
    partials = 0
    for seed in range(12):
        for sizes in ([8, 8], [6, 6]):
            s = deal_endgame(random.Random(seed), sizes)
            full = Solver(16).solve(s)
            if full.value != Value.WIN:
                continue
            budget = 300
            while budget < full.nodes:
                try:
                    Solver(16).solve(s, max_nodes=budget)
                    break
                except BudgetExceeded as e:
                    p = e.partial
                budget = budget * 5 // 4
                if p.value == Value.WIN:
                    assert p.best and set(p.best) <= set(full.best)
                    partials += 1
    assert partials >= 150  # (172)


def test_partial_answer_names_what_is_unfinished(capsys):
    """A budget that ran out in the variation, after every move was valued,
    says only the variation is missing; before the moves, both."""
    from solver.cli.solve import print_solve as _print

    moves = [MoveValue("9D", Value.LOSS, 23), MoveValue("AH", Value.LOSS, 15)]
    done = SolveResult(1, Value.LOSS, ["9D", "AH"], [], 23, 10, 1.0, False, moves,
                       Value.LOSS, Value.LOSS, best_complete=True)
    _print(done, True)
    out = capsys.readouterr().out
    assert "value proven; variation not finished" in out and "best: 9D AH" in out
    some = SolveResult(1, Value.WIN, ["QS"], [], None, 10, 1.0, False,
                       [MoveValue("QS", Value.WIN, None), MoveValue("TH", None, None)],
                       Value.WIN, Value.WIN, distance_lower=61)
    _print(some, True)
    out = capsys.readouterr().out
    assert ("win in 61 plies or more (value proven; exact distance, best moves, moves' "
            "distances and variation not finished)") in out
    assert "best so far: QS" in out and "unknown" in out
    assert some.to_json()["best_complete"] is False
    _print(SolveResult(1, Value.LOSS, [], [], 23, 10, 1.0, False, [], Value.LOSS, Value.LOSS),
           True)
    assert ("loss in 23 plies (value proven; best moves and variation not finished)"
            in capsys.readouterr().out)
    open_distance = SolveResult(1, Value.WIN, [], [], None, 10, 1.0, False, [], Value.WIN,
                                Value.WIN, distance_lower=19, distance_upper=25)
    _print(open_distance, False)
    assert ("win in 19-25 plies (value proven; exact distance, best moves and variation not "
            "finished)") in capsys.readouterr().out
    open_distance.distance_upper = None
    _print(open_distance, False)
    assert "win in 19 plies or more (value proven; exact distance" in capsys.readouterr().out


# ------------------------------------------------------------------ bench pin
def test_bench_node_count_is_pinned():
    """Stockfish-style: total nodes over a fixed set; change it only on purpose."""
    rng = random.Random(2024)
    solver = Solver(16)
    total = 0
    for i in range(12):
        s = deal_endgame(rng, [5, 5], Rules(transfer=i % 2 == 1), attacker=0)
        total += solver.solve(s, distance=False, pv=False).nodes
    assert total == BENCH_NODES, f"bench nodes changed: {total}"


BENCH_NODES = 20555
