"""Double dummy: two-player positions with the pile's order known (R17), solved
by the core's search, agree with the pure-Python minimax (issue 71).

With the pile's order known every draw is determined -- a move of nobody, made
inside the end of each bout (R15-R18) -- so the game is one of perfect
information and the proof search values it like any endgame.  These are the
positions the hindsight review, the census and the hint engine's exact solves
of sampled deals ask about; the small ones here are solved both ways.
"""
from __future__ import annotations

import random

import pytest
from solver_positions import OPTION_SETS, random_prefix

from solver.game.cards import cards_of
from solver.game.deal import deal_known_pile as known_pile_deal
from solver.game.rules import Rules
from solver.search import Solver
from solver.search.reference import reference_value

#: option sets that two players can play (teams needs four), the 36- and 24-card decks
TWO_PLAYER_RULES = [r for r in OPTION_SETS if r.deck in (24, 36)]


def small_known_pile_positions(seed: int, count: int):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        rules = rng.choice(TWO_PLAYER_RULES)
        s = known_pile_deal(rng, (rng.randint(1, 3), rng.randint(1, 3)), rng.randint(1, 3),
                            rules, fresh=rng.random() < 0.2)
        s = random_prefix(rng, s, rng.choice([0, 0, 1, 2, 3]))
        if not s.is_over:
            out.append(s)
    return out


@pytest.mark.parametrize("seed", range(4))
def test_known_pile_values_agree_with_the_minimax(seed):
    """R17/R20/R23: with the pile's order known, the core's value for either
    seat equals the reference minimax's on small positions of every two-player
    option set (transfers, shows, trump swap, first-bout limit, first out wins)."""
    solver = Solver(tt_mb=4)
    values = set()
    for s in small_known_pile_positions(7100 + seed, 300):
        for hero in (0, 1):
            want = reference_value(s, hero)[0]
            got = solver.value(s, hero=hero + 1)
            assert got == want, (s, hero)
            values.add(want)
    assert values == {-1, 0, 1}


def test_draws_shared_by_both_hands_agree_with_the_minimax():
    """R17: the attacker draws first, up to six, then the defender, from the
    top of the pile.  Small hands take the whole pile into the attacker's; here
    the attacker holds five or six, so the pile is shared and its order counts."""
    solver = Solver(tt_mb=4)
    rng = random.Random(7110)
    shared = 0
    for _ in range(12):
        s = known_pile_deal(rng, (rng.randint(5, 6), rng.randint(1, 2)), rng.randint(2, 3),
                            rng.choice([Rules(), Rules(transfer=True)]), attacker=0)
        shared += len(list(cards_of(s.hands[0]))) + s.pile - 1 > 6  # the defender draws too
        assert solver.value(s, hero=1) == reference_value(s, 0)[0], s
    assert shared >= 5


def test_a_whole_deal_out_of_time_says_so():
    """A whole deal (pile 24) is beyond a tenth of a second: the value's time
    budget ends the search with BudgetExceeded, promptly (the hindsight review and
    the census walk back until it does)."""
    import time

    from solver.errors import BudgetExceeded

    s = known_pile_deal(random.Random(7120), (6, 6), 24, Rules(transfer=True))
    t0 = time.monotonic()
    with pytest.raises(BudgetExceeded):
        Solver(tt_mb=16).value(s, hero=s.attacker + 1, max_time=0.1)
    assert time.monotonic() - t0 < 2.0


def test_hint_exact6_solves_a_sampled_deal_of_six_exactly():
    """``hint-exact6`` (issue 71): a sampled deal whose pile holds six cards is
    solved exactly with its own pile order -- every move's whole value, the
    solver's -- where the default engine takes the expectimax or a search."""
    from solver.game.movegen import legal_moves
    from solver.hints.evaluate import evaluate_deal
    from solver.play.match import make_policy

    policy = make_policy("hint-exact6")
    assert policy.config.exact_pile == 6 and policy.name == "hint-exact6"
    s = known_pile_deal(random.Random(7103), (6, 6), 6, Rules())
    moves = legal_moves(s)
    scores, _, exact = evaluate_deal(s, moves, s.to_move, policy.config)
    solved = Solver().analyse(s, s.to_move + 1, distance=False, pv=False)
    values = {m.move: int(m.value) for m in solved.moves}
    assert exact and scores == [values[str(m)] for m in moves]
    assert not evaluate_deal(s, moves, s.to_move, make_policy("hint").config)[2]


def test_the_census_entry_is_the_exact_value_at_the_largest_pile_reached():
    """benchmarks/census_double_dummy.py: a game's entry is the exact value for the
    first attacker (R6) of a position between bouts of its greedy game (P1), every
    card seen -- the one with the largest pile its walk back reached."""
    import sys
    from pathlib import Path

    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
    import census_double_dummy as census

    row = census.census_game((1, "transfer", 3.0, 16))
    path = census.greedy_game(census.SEED + 1, census.RULE_SETS["transfer"])
    assert row["plies"] == len(path) - 1 and row["start_pile"] == 24
    assert row["value"] is not None and row["pile"] is not None
    s = path[row["ply"]]
    assert not s.table and s.pile == row["pile"]
    first = path[0].attacker
    assert row["value"] == int(Solver(tt_mb=16).value(s, hero=first + 1))
    # nothing before it was solved within the walk (the walk stops at the first miss)
    assert all(p.pile >= row["pile"] for p in path[:row["ply"]])
