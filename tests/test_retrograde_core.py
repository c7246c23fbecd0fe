"""The core's retrograde analysis (ext/retro.pxi) equals the pure-Python oracle.

Small games of 3+ players are solved whole by ``solver.search.retro``; the
values and distances of every move must be those of
``solver.search.reference.retrograde_moves`` (R23 by definition: a draw is
whatever neither side can force), with every rule option and 2-4 players.
"""
from __future__ import annotations

import random

import pytest
from solver_positions import OPTION_SETS, random_prefix

from solver.errors import BudgetExceeded
from solver.game.deal import deal_endgame
from solver.game.movegen import play
from solver.game.moves import Move
from solver.game.rules import Rules
from solver.game.value import Value
from solver.notation import parse_position
from solver.search import Solver, analyse, retro
from solver.search.native import core, move_text
from solver.search.reference import retrograde_moves


def small_positions(seed: int, count: int):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        players = rng.choice([2, 3, 3, 4])
        # the oracle drops the discard pile from its states, and so cannot follow
        # first_bout_limit (the first bout lasts until the first discard)
        rules = rng.choice([r for r in OPTION_SETS if r.deck == 36 and not r.first_bout_limit]
                           + [Rules(teams=True)])
        if rules.teams and players != 4:
            continue
        sizes = [rng.randint(1, 2) for _ in range(players)]
        s = random_prefix(rng, deal_endgame(rng, sizes, rules), rng.randint(0, 3))
        if not s.is_over:
            out.append((s, rng.randrange(players)))
    return out


@pytest.mark.parametrize("case", range(4))
def test_core_retrograde_equals_the_oracle(case):
    solver = Solver(tt_mb=4)
    for s, hero in small_positions(100 + case, 30):
        graph = core.RetroGraph(solver.core_state(s), hero, 1_000_000)
        got = sorted((move_text(m), v, d) for m, v, d in graph.moves())
        want = sorted(retrograde_moves(s, hero))
        assert got == want, s


def test_the_variation_plays_to_the_stated_end():
    text = "trump H; hands KS KH QD | JS 7C TC | 9S 8D 8C; attacker 1"
    res = analyse(text, hero=1)
    assert res.value == Value.WIN and res.distance == 19 and res.best == ["QD"]
    assert {m.move: (m.value, m.distance) for m in res.moves} == {
        "QD": (Value.WIN, 19), "KS": (Value.DRAW, None), "KH": (Value.LOSS, 41),
        "KS,KH": (Value.LOSS, 20)}
    s = parse_position(text).state
    for m in res.pv:
        s = play(s, Move.parse(m))
    assert s.is_over and s.outcome()[0] == 1 and len(res.pv) == res.distance


def test_small_multiplayer_games_go_to_the_retrograde_path():
    s = parse_position("trump H; hands KS KH QD | JS 7C TC | 9S 8D 8C; attacker 1").state
    assert retro.wanted(s)
    assert not retro.wanted(parse_position("trump H; hands 6S 7S KH | 8C 9C AH; attacker 1").state)
    big = deal_endgame(random.Random(1), [4, 3, 3], Rules())
    assert not retro.wanted(big)


BIG_3P = "trump H; hands 7H 8H 9H | 7S 8S 9D | KS 7D AC; attacker 3; rules transfer"


def test_a_node_budget_bounds_the_graph_too():
    # a graph state costs about a search node: max_nodes caps the graph's states, and
    # a game that does not fit is answered (or refused) by the search within the budget
    state = parse_position(BIG_3P).state
    with pytest.raises(BudgetExceeded) as e:
        Solver(tt_mb=1).solve(state, max_nodes=1000)
    assert not e.value.partial.exact
    assert Solver(tt_mb=1).solve(state).exact  # unbounded: the whole graph, exact


def test_a_time_budget_stops_the_graph_build_with_nothing_claimed():
    state = parse_position(BIG_3P).state
    with pytest.raises(BudgetExceeded) as e:
        Solver(tt_mb=1).solve(state, max_time=1e-6)
    part = e.value.partial
    assert not part.exact and part.value is None and part.best == []
