"""The core's retrograde analysis (ext/retro*.pxi) equals the pure-Python oracle.

Small games of 3+ players are solved whole by ``solver.search.retro``; the
values and distances of every move must be those of
``solver.search.reference.retrograde_moves`` (R23 by definition: a draw is
whatever neither side can force), with every rule option and 2-4 players.
"""
from __future__ import annotations

import random

import pytest
from solver_positions import f15_position, oracle_positions

from solver.errors import BudgetExceeded, OptionError
from solver.game.deal import deal_endgame
from solver.game.movegen import play
from solver.game.moves import Move
from solver.game.rules import Rules
from solver.game.value import Value
from solver.notation import parse_position
from solver.search import Solver, analyse, retro
from solver.search.native import core, move_text
from solver.search.reference import retrograde_moves




@pytest.mark.parametrize("case", range(4))
def test_core_retrograde_equals_the_oracle(case):
    solver = Solver(tt_mb=4)
    for s, hero in oracle_positions(100 + case, 30):
        graph = core.RetroGraph(solver.core_state(s), hero, 1_000_000)
        got = sorted((move_text(m), v, d) for m, v, d in graph.moves())
        want = sorted(retrograde_moves(s, hero))
        assert got == want, s


def test_F15_core_retrograde_equals_the_oracle_where_neighbours_go_out():
    """F15: the thrower after a take plays his last card and the seat before him
    joins (5-6 players, throw_in=neighbours); first_out_wins ends the game with
    the bout, so the graphs are small: every hero."""
    solver = Solver(tt_mb=4)
    rng = random.Random(151)
    checked = 0
    while checked < 20:
        s = f15_position(rng, small=True)
        if not s.rules.first_out_wins:
            continue
        checked += 1
        for hero in range(s.players):
            graph = core.RetroGraph(solver.core_state(s), hero, 1_000_000)
            got = sorted((move_text(m), v, d) for m, v, d in graph.moves())
            assert got == sorted(retrograde_moves(s, hero)), (s, hero)


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
    # (since solve asks each move only whether it keeps the value, this one is
    # answered by the search: the hero has lost, so every move is best)
    state = parse_position(BIG_3P).state
    full = Solver(tt_mb=1).solve(state)  # unbounded: the whole graph, exact
    assert full.exact and full.nodes > 1000  # more states than the budget below
    try:
        bounded = Solver(tt_mb=1).solve(state, max_nodes=1000)
    except BudgetExceeded as e:
        assert not e.value.partial.exact
    else:
        assert bounded.nodes <= 1000
        assert (bounded.value, set(bounded.best), bounded.distance) == (
            full.value, set(full.best), full.distance)


def test_a_time_budget_stops_the_graph_build_with_nothing_claimed():
    state = parse_position(BIG_3P).state
    with pytest.raises(BudgetExceeded) as e:
        Solver(tt_mb=1).solve(state, max_time=1e-6)
    part = e.value.partial
    assert not part.exact and part.value is None and part.best == []


# The largest 9-card 3-player graphs met (benchmarks/bench_retro.py and 1,100
# random 9-card positions, mid-bout ones included): the transfer with trump
# shows (R14) gives the most states.
WORST_9_CARDS = [
    "trump H; hands 7H 8H 9H | 7S 8S 9D | KS 7D AC; attacker 3; rules transfer,transfer_by_trump_show",
    "trump D; hands 9S 7H 7D 8D | 9D 9C | 7S 8S; table TH; attacker 2; "
    "rules transfer,transfer_by_trump_show,throw_in=neighbours",
]


@pytest.mark.parametrize("text", WORST_9_CARDS)
def test_every_9_card_3_player_game_is_solved_whole_and_exactly(text):
    # issue 15's guarantee rests on this: a 3-player game of 9 cards never goes
    # to the proof search (whose draws can take minutes, R23); its graph stays
    # well inside MAX_STATES (2.2 M and 2.8 M states here: 0.7-0.95 s as a
    # command, docs/benchmarks.md).  A graph that grew past the cap would fail here.
    state = parse_position(text).state
    assert retro.wanted(state)
    res = Solver(tt_mb=1).solve(state)
    assert res.exact and res.value is not None and res.best
    assert res.nodes <= 3_000_000 < retro.MAX_STATES


def test_a_graph_refuses_what_its_one_word_keys_cannot_hold():
    # a state's key is a nibble per card in play and the bout's fields: at most
    # 11 cards, and no pile (a drawn card would be a card the key does not know)
    solver = Solver(tt_mb=1)
    with_pile = parse_position("trump 9H; hands 6S 7S | 8C 9C | TD JD; pile KD 9H; attacker 1").state
    with pytest.raises(ValueError, match="pile"):
        core.RetroGraph(solver.core_state(with_pile), 0)
    twelve = deal_endgame(random.Random(3), [4, 4, 4], Rules())
    with pytest.raises(ValueError, match="11 cards"):
        core.RetroGraph(solver.core_state(twelve), 0)
    eleven = deal_endgame(random.Random(3), [4, 4, 3], Rules())
    with pytest.raises(OverflowError, match="more than 1000 states"):  # accepted, too big
        core.RetroGraph(solver.core_state(eleven), 0, 1000)


def test_the_portable_key_loops_equal_the_bmi2_instructions():
    # a key is gathered with pext/pdep where the CPU has them fast, else by
    # loops: both must give the same graphs (on a CPU without them, both runs
    # take the loops)
    solver = Solver(tt_mb=4)
    had = core.fast_bits()
    try:
        for s, hero in oracle_positions(200, 20):
            got = []
            for fast in (False, True):
                core.fast_bits(fast)
                graph = core.RetroGraph(solver.core_state(s), hero, 1_000_000)
                got.append((graph.states_count, sorted((move_text(m), v, d)
                                                       for m, v, d in graph.moves())))
            assert got[0] == got[1], s
    finally:
        core.fast_bits(had)


def test_two_threads_build_the_same_graph():
    # past 100,000 states a helper thread expands the states ahead of the builder
    # (Solver(threads=2), what `durak solve` uses on a machine with two cores):
    # the same states in the same order, so the same values, moves and variation
    text = "trump H; hands KS KH QD | JS 7C TC | 9S 8D 8C; attacker 1"
    state = parse_position(text).state
    solver = Solver(tt_mb=1)
    graphs = [core.RetroGraph(solver.core_state(state), 0, 3_000_000, 0.0, threads)
              for threads in (1, 2)]
    assert graphs[0].states_count > 100_000
    assert ([(g.states_count, g.root(), g.moves(), g.variation()) for g in graphs[:1]]
            == [(g.states_count, g.root(), g.moves(), g.variation()) for g in graphs[1:]])
    one, two = Solver(tt_mb=1).analyse(state), Solver(tt_mb=1, threads=2).analyse(state)
    assert (one.value, one.distance, one.pv, one.moves) == (two.value, two.distance, two.pv,
                                                            two.moves)
    with pytest.raises(OptionError, match="threads: 1 or 2, got 3"):
        Solver(threads=3)
    # a graph that outgrows its cap while the helper runs stops it and says so
    with pytest.raises(OverflowError, match="more than 200000 states"):
        core.RetroGraph(solver.core_state(state), 0, 200_000, 0.0, 2)


# ------------------------------------------------- ten cards: search, then graph
TEN_3P = "trump H; hands 9S QS 6H 7D KD JC | TC AC | 6D KC; attacker 1"  # 2.3 M states
TEN_4P = "trump H; hands 6H TH 9D | QS KH 9C | 7S QH | TS 6C; attacker 1"  # 3.9 M states


def answer(res):
    return (res.value, res.distance, sorted(res.best),
            [(m.move, m.value, m.distance) for m in res.moves])


@pytest.mark.parametrize("text", [TEN_3P, TEN_4P])
def test_ten_cards_the_graph_answers_as_the_search_does(text, monkeypatch):
    """One card past MAX_CARDS the search runs first (retro.FALLBACK_TRIAL);
    where it does not answer in time the whole graph does.  Both ways must
    give every move's value and distance alike, for each seat as hero."""
    state = parse_position(text).state
    assert retro.fallback(state) and not retro.wanted(state)
    for hero in range(1, state.players + 1):
        searched = Solver(16).analyse(text, hero)
        monkeypatch.setattr(retro, "FALLBACK_TRIAL", 1e-6)  # the search gives up at once
        whole = Solver(16).analyse(text, hero)
        monkeypatch.undo()
        assert whole.nodes > 2_000_000 > searched.nodes  # the graph's states were counted
        assert answer(whole) == answer(searched)


def test_ten_cards_a_budget_during_the_graph_keeps_what_the_search_proved(monkeypatch):
    monkeypatch.setattr(retro, "FALLBACK_TRIAL", 1e-6)
    with pytest.raises(BudgetExceeded) as e:
        Solver(16).solve(TEN_4P, 1, max_time=0.3)  # the graph needs about 2 s
    assert not e.value.partial.exact
    # a node budget bounds the graph (3.9 M states): it overflows at the
    # budget, which is then spent, and the search's partial answer stands
    with pytest.raises(BudgetExceeded) as e:
        Solver(16).solve(TEN_4P, 1, max_nodes=100_000)
    assert e.value.partial.nodes <= 100_000 + 2048


def test_ten_cards_states_too_many_for_the_graph_leave_the_rest_to_the_search(monkeypatch):
    searched = Solver(16).solve(TEN_4P, 1)  # the search alone: about 22,000 nodes
    monkeypatch.setattr(retro, "FALLBACK_TRIAL", 1e-6)
    monkeypatch.setattr(retro, "FALLBACK_STATES", 10_000)
    res = Solver(16).solve(TEN_4P, 1, max_nodes=200_000)
    assert res.exact and answer(res) == answer(searched)
    # graph + search: the search before and after the graph shares its table, so
    # together they may take a little less than the search alone, not less by 10,000
    assert 10_000 + 0.8 * searched.nodes <= res.nodes <= 200_000 + 2048
    # 10,000 nodes of the budget went to the graph
    with pytest.raises(BudgetExceeded):
        Solver(16).solve(TEN_4P, 1, max_nodes=30_000)


def test_five_players_with_ten_cards_are_not_built_as_graphs():
    # their graphs run past 20 M states (docs/solver.md)
    state = parse_position("trump S; hands 9H QC | 7S 6H | 8S 7D | JH 7C | KH AC; "
                           "attacker 1").state
    assert not retro.fallback(state)
