"""The C greedy player and playouts (ext/playout.pxi) equal the Python ones.

On every state of random and greedy games from fresh deals (2-6 players, every
rules option: transfer and its show variant R14, throw_in=neighbours R12,
teams R22, first_out_wins R21, first_bout_limit R10, trump_swap R7 with a
known pile, 24 and 52 cards R1) the core's greedy move is the move
``bots.greedy_move`` chooses, and a playout from the state gives the same
result and card margin as ``hint.playout`` -- also with the R23 move limit
cut short, and stopping where the pile has run out between bouts (the
endgame hand-over of the hint engine).
"""
from __future__ import annotations

import random

import pytest
from solver_positions import NEIGHBOUR_RULES, OPTION_SETS, deal_few_ranks, f15_position

from solver.game import movegen as engine
from solver.game.deal import new_game
from solver.game.rules import Rules
from solver.game.state import GameState
from solver.hints.playout import playout
from solver.policy.bots import greedy_move
from solver.search.native import core, load, move_text

TEAM_SETS = [
    Rules(teams=True),
    Rules(teams=True, transfer=True, first_out_wins=True),
    Rules(teams=True, throw_in_neighbours=True, trump_swap=True),
]


def attack_order(s: GameState) -> tuple[int, ...]:
    return tuple(a for a, _ in s.table)


def check_state(search, s: GameState, limit: int) -> None:
    """The greedy move and the playout agree on one state."""
    cs = load(search, s)
    gi = core.greedy_index(cs, attack_order(s))
    if s.is_over:
        assert gi == -1
    else:
        assert move_text(cs.moves()[gi]) == str(greedy_move(s)), s
    me = s.to_move if s.to_move >= 0 else 0
    want = playout(s, me, limit)
    r, margin, steps, end = core.greedy_playout(cs, me, limit, attack_order(s))
    assert end is None
    assert (r, margin) == want, (s, me, limit)


def walk(search, s: GameState, rng: random.Random, mover: str, limit: int = 1500) -> int:
    """One game; every state checked; moves random or greedy."""
    seen = 0
    for _ in range(400):
        check_state(search, s, limit)
        seen += 1
        if s.is_over:
            break
        moves = engine.legal_moves(s)
        m = greedy_move(s) if mover == "greedy" else moves[rng.randrange(len(moves))]
        s = engine.play(s, m)
    return seen


@pytest.mark.parametrize("rules_index", range(len(OPTION_SETS)))
def test_greedy_move_and_playout_equal_python(rules_index):
    rules = OPTION_SETS[rules_index]
    rng = random.Random(4000 + rules_index)
    search = core.Search(1)
    seen = 0
    for g in range(6):
        players = rng.randint(2, 4 if rules.deck == 24 else 6)
        start = new_game(players, rules, rng=rng)
        seen += walk(search, start, rng, "random" if g % 2 else "greedy")
    assert seen > 150


def test_teams_greedy_move_and_playout_equal_python():
    rng = random.Random(41)
    search = core.Search(1)
    seen = 0
    for rules in TEAM_SETS:
        for g in range(4):
            seen += walk(search, new_game(4, rules, rng=rng), rng, "random" if g % 2 else "greedy")
    assert seen > 300


def test_F15_greedy_move_and_playout_where_neighbours_go_out():
    """F15: from F15's case built directly (5-6 players, throw_in=neighbours: a
    thrower after a take with his last card, the seat before him able to join)
    and from deals biased to it, greedy and random games; every state checked."""
    rng = random.Random(1515)
    search = core.Search(1)
    seen = 0
    for g in range(40):
        seen += walk(search, f15_position(rng), rng, "random" if g % 2 else "greedy")
        s = deal_few_ranks(rng, rng.randint(4, 6), rng.choice(NEIGHBOUR_RULES))
        seen += walk(search, s, rng, "random" if g % 2 else "greedy")
    assert seen > 500


def test_two_player_transfer_and_podkidnoy_many_games():
    """The hint engine's own games (2 players): many deals, random and greedy moves."""
    rng = random.Random(5)
    search = core.Search(1)
    seen = 0
    for g in range(24):
        rules = Rules(transfer=True) if g % 2 else Rules()
        seen += walk(search, new_game(2, rules, rng=rng), rng, "random" if g % 4 < 2 else "greedy")
    assert seen > 800


@pytest.mark.parametrize("limit", [1, 7, 40])
def test_move_limit_counts_as_a_draw_like_python(limit):
    """R23: a playout cut at ``limit`` moves is a draw with margin 0 in both."""
    rng = random.Random(limit)
    search = core.Search(1)
    for _ in range(20):
        s = new_game(rng.randint(2, 5), Rules(transfer=True), rng=rng)
        check_state(search, s, limit)


def test_equal_attacks_cover_follows_table_order():
    """Two attack cards of equal cost (7S, 7D) and two trumps: the first attack
    in table order gets the cheaper trump (bots._best_cover_plan), in C too."""
    from solver.notation import parse_position

    for table, want in (("7S 7D", "7S/6H"), ("7D 7S", "7D/6H")):
        pos = parse_position(f"trump H; hands 9C TC JC QC | 6H 8H; table {table}; "
                             "attacker 1; pile 0")
        s = pos.state
        assert str(greedy_move(s)) == want
        cs = load(core.Search(1), s)
        assert move_text(cs.moves()[core.greedy_index(cs, attack_order(s))]) == want
    with pytest.raises(ValueError, match="table_order must list the attack cards"):
        core.greedy_index(cs, (0,))


def test_first_move_then_playout_equals_python():
    """``first`` plays a candidate move before the playout, as hint.evaluate does."""
    rng = random.Random(11)
    search = core.Search(1)
    for g in range(30):
        s = new_game(2 + g % 3, Rules(transfer=bool(g % 2)), rng=rng)
        for _ in range(rng.randrange(30)):
            if s.is_over:
                break
            s = engine.play(s, greedy_move(s))
        if s.is_over:
            continue
        me = rng.randrange(s.players)
        cs = load(search, s)
        for i, m in enumerate(engine.legal_moves(s)):
            after = engine.play(s, m)
            r, margin, _, _ = core.greedy_playout(cs, me, 1500, attack_order(s), i)
            assert (r, margin) == playout(after, me), (s, str(m))


def test_stop_at_endgame_hands_over_the_python_position():
    """With ``stop_at_endgame`` the C playout stops where hint.playout calls its
    endgame hook: the same position, the same margin; continuing from there
    gives the plain playout's result."""
    rng = random.Random(3)
    search = core.Search(1)
    stopped = 0
    for g in range(40):
        s = new_game(2, Rules(transfer=bool(g % 2)), rng=rng)
        for _ in range(rng.randrange(20)):
            s = engine.play(s, greedy_move(s))
        seen: list[GameState] = []

        def hook(st: GameState, me: int):
            seen.append(st)
            return None

        want = playout(s, 0, endgame=hook)
        cs = load(search, s)
        r, margin, steps, end = core.greedy_playout(cs, 0, 1500, attack_order(s), -1, True)
        if not seen:
            assert end is None and (r, margin) == want
            continue
        stopped += 1
        assert r is None and end is not None
        assert end.fields() == load(search, seen[0]).fields()
        assert margin == seen[0].hand_size(1) - seen[0].hand_size(0)
        r2, m2, _, _ = core.greedy_playout(end, 0, 1500 - steps)
        assert (r2, m2) == want
    assert stopped > 20


def test_hint_is_the_same_with_core_and_python_playouts():
    """hint_knowledge gives the same table with the C playouts as with the
    Python reference: mid-game deals, deals whose pile holds at most 2 cards
    (the exact endgame hand-over), empty-pile deals (exact, playout tie-break),
    2 and 3 players, with and without transfer."""
    from solver.hints import HintConfig, hint_knowledge
    from solver.hints.knowledge import PublicTracker

    rng = random.Random(8)
    piles = []
    for g in range(16):
        t = PublicTracker(new_game(2 if g < 12 else 3, Rules(transfer=bool(g % 2)), rng=rng))
        target = (rng.randrange(0, 10), 1, 2, 0)[g % 4]  # pile sizes the engine treats apart
        while not t.state.is_over and (t.state.pile > target or t.state.table):
            t.play(greedy_move(t.state))
        s = t.state
        if s.is_over:
            continue
        k = t.knowledge(s.to_move)
        a = hint_knowledge(k, samples=8, seed=g, config=HintConfig(playouts="python", uct_iters=0))
        b = hint_knowledge(k, samples=8, seed=g, config=HintConfig(uct_iters=0))
        assert a.to_json() == b.to_json(), s
        piles.append(s.pile)
    assert 0 in piles and any(1 <= p <= 2 for p in piles) and max(piles) > 2


def test_unknown_playout_backend_is_refused():
    from solver.hints import HintConfig, evaluate_deal

    g = new_game(2, seed=4)
    with pytest.raises(ValueError, match="playouts"):
        evaluate_deal(g, engine.legal_moves(g), 0, HintConfig(playouts="fortran"))
