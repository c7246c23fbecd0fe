"""The Cython core's rules equal solver.game.movegen's, state by state (issue 3).

Random play-outs from fresh deals (every option, 2-6 players, known pile
order, so drawing R17 and trump_swap R7 are exercised) and from small
endgames: at every state the core's legal moves, as move text and in the
same order, equal ``engine.legal_moves``, and the core's next state equals
``engine.play``'s for every legal move.
"""
from __future__ import annotations

import random

import pytest
from solver_positions import (NEIGHBOUR_RULES, OPTION_SETS, deal_few_ranks, f15_position,
                              joins_before, neighbour_move)

from solver.game import movegen as engine
from solver.game.deal import new_game
from solver.game.rules import Rules
from solver.game.state import GameState
from solver.search.native import core, load, move_text


def py_fields(s: GameState) -> dict:
    att, opn, cov = s.table_masks()
    return dict(hands=tuple(s.hands), att=att, opn=opn, cov=cov, shown=s.shown,
                attacker=s.attacker, defender=s.defender, turn=s.turn, take=int(s.take),
                limit=s.limit, cap=s.cap, over=int(s.is_over), pile=s.pile,
                trump_card=s.trump_card if s.pile > 0 else -1, fresh=int(s.out == 0))


def check_walk(search, s: GameState, rng: random.Random, max_steps: int = 400,
               choose=None, seen_f15: list[int] | None = None) -> int:
    """Walk one play-out, comparing every state and every successor; returns states seen.

    ``choose(rng, state, moves)`` picks the index of the move to go on with
    (default: uniform); ``seen_f15`` gets one count for every successor compared
    that is F15's case (a seat nobody asked joins ahead of a thrower who goes out).
    """
    cs = load(search, s)
    seen = 0
    for _ in range(max_steps):
        seen += 1
        assert cs.fields() == py_fields(s), f"state differs at {s}"
        py_moves = engine.legal_moves(s)
        c_moves = cs.moves()
        assert [move_text(m) for m in c_moves] == [str(m) for m in py_moves], s
        if not py_moves:
            break
        for i, mv in enumerate(py_moves):
            assert cs.play(i).fields() == py_fields(engine.play(s, mv)), (s, str(mv))
            if seen_f15 is not None and joins_before(s, mv):
                seen_f15.append(int(joins_before(s, mv, asked=True)))
        i = rng.randrange(len(py_moves)) if choose is None else choose(rng, s, py_moves)
        s = engine.play(s, py_moves[i])
        cs = cs.play(i)
    return seen


@pytest.mark.parametrize("rules_index", range(len(OPTION_SETS)))
def test_core_equals_engine_on_deals(rules_index):
    rules = OPTION_SETS[rules_index]
    rng = random.Random(1000 + rules_index)
    search = core.Search(1)
    total = 0
    for g in range(12):
        players = rng.randint(2, 6)
        if rules.deck == 24:
            players = rng.randint(2, 4)
        total += check_walk(search, new_game(players, rules, rng=rng), rng)
    assert total > 300


def test_core_equals_engine_teams():
    rng = random.Random(7)
    search = core.Search(1)
    for rules in (Rules(teams=True), Rules(teams=True, transfer=True, first_out_wins=True),
                  Rules(teams=True, throw_in_neighbours=True)):
        for _ in range(10):
            check_walk(search, new_game(4, rules, rng=rng), rng)


def test_F15_core_equals_engine_where_neighbours_go_out():
    """F15 (F7, F11, P3, P4): play-outs biased to seats going out mid-bout under
    throw_in=neighbours -- 4-6 players, one to three cards a seat of two or three
    ranks, the pile empty, the biggest leads, takes and throw-ins preferred --
    and play-outs from F15's case built directly (the thrower asked after a take
    plays his last card; the seat before him, never asked, can add)."""
    rng = random.Random(15)
    search = core.Search(1)
    states = 0
    f15: list[int] = []
    for _ in range(400):
        s = deal_few_ranks(rng, rng.randint(4, 6), rng.choice(NEIGHBOUR_RULES))
        states += check_walk(search, s, rng, choose=neighbour_move, seen_f15=f15)
    for _ in range(300):
        states += check_walk(search, f15_position(rng), rng, seen_f15=f15)
    assert states > 8000 and len(f15) > 300 and sum(f15) > 150, (states, len(f15), sum(f15))


@pytest.mark.slow
def test_core_equals_engine_many_deals():
    rng = random.Random(99)
    search = core.Search(1)
    for g in range(600):
        rules = OPTION_SETS[g % len(OPTION_SETS)]
        players = rng.randint(2, 4 if rules.deck == 24 else 6)
        check_walk(search, new_game(players, rules, rng=rng), rng)


def test_the_core_has_one_flag_for_every_boolean_rule_option():
    from solver.game.rules import FLAG_OPTIONS
    from solver.search.native import core

    assert set(core.RULE_FLAGS) == {attr for attr, _ in FLAG_OPTIONS}
    bits = list(core.RULE_FLAGS.values())
    assert len(set(bits)) == len(bits) and all(b and b & (b - 1) == 0 for b in bits)
