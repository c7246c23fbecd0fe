"""The core's prunings change how much it searches, never what it answers.

``Search.tune`` switches off the equivalent-cover pruning (``equiv``), the
canonical ranks between bouts (``iso``), the table entries between bouts only
with the one-order runs of cards added to a taker (``lead_table``), the quick
wins (``quick``), the enhanced transposition cut-offs (``etc``) and the
ply-count bound of ply-limited searches (``ply_bound``) and the single-card
leads of the other side under a ply limit (``single_limited``); the
multi-card-lead dominance and the shared two-prover table entries are always
on.  On positions too large for the
pure-Python oracles (those are in ``test_solver_oracle.py``) the solver with
everything on must give the same value and the same value and distance for
every root move as the solver with the switches off, and the same value as the
other provers' order.  Each side is a fresh :class:`Solver`, so no table entry
is shared between the two answers.
"""
from __future__ import annotations

import random

import pytest
from solver_positions import deal_endgame, random_prefix

from solver.game.rules import Rules
from solver.notation import parse_position
from solver.search import Solver


def answers(position, hero: int, **switches):
    solver = Solver(tt_mb=8)
    solver._core.search.tune(**switches)
    res = solver.analyse(position, hero + 1, pv=False)
    return res.value, res.distance, sorted((m.move, m.value, m.distance) for m in res.moves)


def positions(seed: int, count: int, sizes, rules_of, prefix: int):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        s = deal_endgame(rng, sizes(rng), rules_of(rng))
        if prefix:
            s = random_prefix(rng, s, rng.randint(0, prefix))
        if not s.is_over:
            out.append((s, rng.randrange(s.players)))
    return out


TWO = positions(
    21, 40, lambda r: [r.randint(3, 6), r.randint(3, 6)],
    lambda r: Rules(transfer=r.random() < 0.3, deck=r.choice([36, 36, 52])), 5)
OFF = dict(equiv=False, iso=False, lead_table=False, quick=False, etc=False,
           ply_bound=False, single_limited=False)

MANY = positions(
    22, 20, lambda r: [r.randint(1, 3) for _ in range(r.choice([3, 3, 4]))],
    lambda r: Rules(transfer=r.random() < 0.3, throw_in_neighbours=r.random() < 0.3), 3)


@pytest.mark.parametrize("case", range(len(TWO)))
def test_prunings_keep_two_player_answers(case):
    """R2/R9/R16: interchangeable covers, rank renumbering, quick wins, taker runs are exact."""
    s, _ = TWO[case]
    on = answers(s, s.to_move)
    assert on == answers(s, s.to_move, **OFF)


@pytest.mark.parametrize("case", range(len(MANY)))
def test_switches_keep_answers_with_three_and_four_players(case):
    """S2 paranoid values, R23 cycles: the same answers with the switches off."""
    s, hero = MANY[case]
    assert answers(s, hero) == answers(s, hero, **OFF)


#: Found with ``lead_table`` off alone (2026-12-02): the enhanced transposition
#: cut-off took an in-bout child for a quick win (a lead-state test), which
#: turned this lost position into a "win"; with every switch off at once the
#: quick wins are off too and the bug hid.
QUICK_IN_BOUT = "trump S; hands 7S 9H AH KD QC KC | 9S JS TD JD 8C TC; attacker 2"
SIX = positions(23, 6, lambda r: [6, 6], lambda r: Rules(transfer=r.random() < 0.3), 0)


@pytest.mark.parametrize("switch", sorted(OFF))
def test_each_switch_alone_keeps_answers(switch):
    """One switch off at a time, so no other switch hides its interplay."""
    cases = [(parse_position(QUICK_IN_BOUT).state, 1)] + SIX
    for s, hero in cases:
        assert answers(s, hero) == answers(s, hero, **{switch: False}), (switch, s)


def test_tune_reports_and_restores_settings():
    solver = Solver(tt_mb=1)
    search = solver._core.search
    on = {"equiv": 1, "iso": 1, "lead_table": 1, "quick": 1, "etc": 1, "ply_bound": 1,
          "single_limited": 1}
    assert search.tune() == on
    assert search.tune(**OFF) == dict.fromkeys(on, 0)
    assert search.tune(iso=True, quick=True) == {**dict.fromkeys(on, 0), "iso": 1, "quick": 1}


def test_the_guessed_winner_changes_the_rounds_not_the_answers():
    """The greedy playout's guess at the winner (``PREDICT_LEAN``) only shares
    the provers' round budgets out (S1, S2, R23): the same value, best moves
    and distance with equal turns, two players, transfer and bouts in
    progress included -- and the guess is live: the node counts differ."""
    from solver.search.driver import CoreBackend

    cases = TWO + SIX
    nodes = {0: 0, 16: 0}
    for s, hero in cases:
        got = {}
        for lean in (0, 16):
            backend = CoreBackend(8)
            backend.predict_lean = lean
            res = backend.run(s, hero, False, None, None, True, False)
            nodes[lean] += res.nodes
            got[lean] = (res.value, sorted(res.best), res.distance)
        assert got[0] == got[16], s
    assert nodes[0] != nodes[16]


def test_the_guess_is_the_greedy_players_result():
    """``_guess`` is the result for the hero of the greedy player in every
    seat, as the pure-Python reference plays it (``solver.hints.playout``),
    between bouts; no guess (0) while the pile has cards (its order lives in
    the search, not in the state)."""
    from solver.game.deal import new_game
    from solver.hints.playout import playout
    from solver.search.driver import CoreBackend

    backend = CoreBackend(1)
    leads = [(s, hero) for s, hero in TWO + SIX if not s.table]
    assert len(leads) >= 20
    for s, hero in leads:
        assert CoreBackend._guess(backend.load(s), hero) == playout(s, hero)[0], s
    fresh = new_game(2, Rules(), rng=random.Random(5))
    assert CoreBackend._guess(backend.load(fresh), 0) == 0
