"""The core's retrograde analysis (ext/retro.pxi) equals the pure-Python oracle.

Small games of 3+ players are solved whole by ``solver.search.retro``; the
values and distances of every move must be those of
``solver.search.reference.retrograde_moves`` (R23 by definition: a draw is
whatever neither side can force), with every rule option and 2-4 players.
"""
from __future__ import annotations

import io
import random

import pytest
from solver_positions import OPTION_SETS, random_prefix

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


@pytest.mark.parametrize("rules", [Rules(), Rules(transfer=True), Rules(throw_in_neighbours=True)])
def test_two_threads_build_the_same_graph(rules):
    # past PAR_FROM states a helper thread expands states ahead of the builder:
    # the graph, its values, distances and variation must not change (S1, S2, R23)
    rng = random.Random(11)
    built = 0
    while built < 2:
        s = deal_endgame(rng, [3, 3, 2], rules)
        one = core.RetroGraph(Solver(tt_mb=1).core_state(s), 0, 3_000_000, 0.0, 1)
        if one.states_count < 30_000:
            continue  # too small for the helper thread to start
        two = core.RetroGraph(Solver(tt_mb=1).core_state(s), 0, 3_000_000, 0.0, 2)
        assert two.states_count == one.states_count
        assert two.root() == one.root()
        assert two.moves() == one.moves()
        assert two.variation() == one.variation()
        built += 1


def test_the_second_thread_is_asked_for_only_with_a_free_core(monkeypatch):
    # two threads on one busy core are slower than one: retro.threads() reads the
    # kernel's count of runnable tasks
    assert retro.threads() in (1, 2)
    real_open = open

    def fake(running):
        def opener(path, *a, **k):
            if path == "/proc/loadavg":
                return io.StringIO(f"0.50 0.40 0.30 {running}/90 1234\n")
            return real_open(path, *a, **k)
        return opener
    monkeypatch.setattr(retro.os, "sched_getaffinity", lambda pid: {0, 1})
    monkeypatch.setattr("builtins.open", fake(1))
    assert retro.threads() == 2  # only we run
    monkeypatch.setattr("builtins.open", fake(2))
    assert retro.threads() == 1  # someone else has the other core
