"""The exact expectimax over the last draws (``ext/chance.pxi``, issue 62).

A deal's hands with the pile's hidden cards as a set: every draw (R17) a chance
node over the orders of the hidden cards still in the pile, minimax between the
draws, the exact solver once no hidden card is left (S1).  The compiled search
is held to the pure-Python reference (``solver.hints.chance``), which takes every
order of the hidden cards and plays the rules engine's moves.
"""
from __future__ import annotations

import pytest

from solver.game.movegen import legal_moves
from solver.hints import HintConfig
from solver.hints.chance import chance_values
from solver.hints.evaluate import evaluate_deal
from solver.play.match import make_policy
from solver.notation import parse_position
from solver.search import Solver
from solver.search.native import core

#: Defender to answer one attack card, a pile of three or four (the last card the
#: face-up trump); found by a seeded random search for positions whose values are
#: not all whole (a draw decides them), each quick for the reference.
POSITIONS = [
    "trump JH; hands AD TC QD 8S TS | KC AH QC; table TH; pile 9C AS 9S JH; attacker 1",
    "trump JH; hands 9C QC 7S 7H | 7C 9S; table KH; pile TD 6D QS JH; attacker 1",
    "trump 8H; hands 9S KD KC KS | 6S 8C 9H; table AD; pile 6H 7C AS 8H; attacker 1",
    "trump TH; hands JS 8S 8C JC 9C | QD KD; table 9D; pile 8D TD KS TH; attacker 1",
    "trump JH; hands AD TD 8H TH 6H | QD 9H AS; table QS; pile KS 9S JH; attacker 1",
    "trump QH; hands TC 6D QD JC KC | AC TS 7H; table JD; pile 9H 6H 6C QH; attacker 1",
    "trump JH; hands QD AC QS 7D 6H | 8C TS TC JD; table 9D; pile QH AS 8S JH; attacker 1",
    "trump 8H; hands 8D AC AS 9D | KD TC KH 7C; table TS; pile 7H QS 7D 8H; attacker 1",
    "trump 8H; hands 8D AC AS 9D | KD TC KH 7C; table TS; pile 7H QS 7D 8H; attacker 1; "
    "rules transfer",
]


def core_values(text: str, solver: Solver) -> list[float] | None:
    s = parse_position(text).state
    vals, _ = core.chance_scores(solver.core_state(s), s.to_move, 500_000, 20_000_000)
    return vals


@pytest.mark.parametrize("text", POSITIONS)
def test_the_core_is_the_reference(text):
    """R17, S1: the compiled expectimax gives the reference's expected results, move by move."""
    slv = Solver()
    s = parse_position(text).state
    ref = chance_values(s, s.to_move, slv)
    got = core_values(text, slv)
    assert got is not None and len(got) == len(legal_moves(s)) == len(ref)
    assert got == pytest.approx(ref, abs=1e-12)


def test_the_draws_make_the_values_fractional():
    """Where the draw decides, a move's value is a mean over the orders, not a result:
    the positions above are not all whole (and each value is a multiple of one over
    the number of ways the hidden cards split)."""
    slv = Solver()
    fractions = 0
    for text in POSITIONS:
        vals = core_values(text, slv)
        assert vals is not None and all(-1.0 <= v <= 1.0 for v in vals)
        fractions += any(v not in (-1.0, 0.0, 1.0) for v in vals)
    assert fractions >= 6


def test_a_draw_by_hand():
    """Seat 2 must answer the trump KH holding 7C 9S (hearts trump): it takes (R11, R16).
    Seat 1, with four cards, then draws two of the hidden TD 6D QS, and seat 2 the
    third and the face-up JH (R17: the attacker first): three splits, each as likely.
    With QS or TD seat 2 wins the endgame, with 6D it loses: (1 + 1 - 1) / 3."""
    text = POSITIONS[1]
    s = parse_position(text).state
    assert [str(m) for m in legal_moves(s)] == ["take"]
    assert core_values(text, Solver()) == pytest.approx([1 / 3])
    assert chance_values(s, s.to_move) == pytest.approx([1 / 3])


def test_the_pile_order_of_the_deal_does_not_matter():
    """The hidden cards are a set: any order of them in the deal gives the same values."""
    slv = Solver()
    base = "trump JH; hands AD TC QD 8S TS | KC AH QC; table TH; attacker 1; pile "
    vals = {tuple(core_values(base + p, slv) or ()) for p in
            ("9C AS 9S JH", "AS 9S 9C JH", "9S 9C AS JH")}
    assert len(vals) == 1


def test_a_budget_that_runs_out_answers_none():
    slv = Solver()
    s = parse_position(POSITIONS[0]).state
    vals, stats = core.chance_scores(slv.core_state(s), s.to_move, 500_000, 5)
    assert vals is None and stats["nodes"] >= 5


def test_bad_arguments():
    slv = Solver()
    three = parse_position("trump 9H; hands 6S 7S | 8S 9C | AH JD; pile 7C KD 9H; "
                           "attacker 1").state
    with pytest.raises(ValueError, match="two players"):
        core.chance_scores(slv.core_state(three), 0)
    two = parse_position(POSITIONS[0]).state
    with pytest.raises(ValueError, match="seat 5"):
        core.chance_scores(slv.core_state(two), 5)


def test_the_hint_values_deals_of_the_last_draws_by_it():
    """``HintConfig.chance_pile``: a deal whose pile holds more than ``exact_pile`` and at
    most ``chance_pile`` cards is scored by the expectimax (ties by the greedy
    playout, as exact deals); past the budget, by the search of each deal."""
    s = parse_position(POSITIONS[0]).state
    moves = legal_moves(s)
    on = HintConfig(chance_pile=4)
    scores, margins, exact = evaluate_deal(s, moves, s.to_move, on)
    assert scores == pytest.approx(chance_values(s, s.to_move)) and not exact
    off = evaluate_deal(s, moves, s.to_move, HintConfig())
    assert off[0] != scores  # the search of each deal, without the exact draws
    starved = evaluate_deal(s, moves, s.to_move, HintConfig(chance_pile=4, chance_nodes=5))
    assert starved == off
    below = evaluate_deal(s, moves, s.to_move, HintConfig(chance_pile=3))
    assert below == off  # a pile of four is past chance_pile=3


def test_hint_exact4_solves_deals_of_four_with_the_sampled_order():
    """``hint-exact4`` (``exact_pile`` 4): a deal with four cards in the pile is solved
    exactly with its own (sampled) pile order -- whole values, the solver's -- where the
    default engine (``exact_pile`` 2) searches it; the expectimax instead averages over
    the orders, so the two differ where a draw decides (docs/lab/strength.md)."""
    s = parse_position(POSITIONS[0]).state
    moves = legal_moves(s)
    policy = make_policy("hint-exact4")
    assert policy.config.exact_pile == 4 and policy.name == "hint-exact4"
    scores, _, exact = evaluate_deal(s, moves, s.to_move, policy.config)
    solved = Solver().analyse(s, s.to_move + 1, distance=False, pv=False)
    by_move = {m.move: m.value for m in solved.moves}
    assert exact and scores == [by_move[str(m)] for m in moves]
    assert not evaluate_deal(s, moves, s.to_move, HintConfig())[2]
    assert scores != pytest.approx(chance_values(s, s.to_move))
    assert make_policy("hint-exact4@64x100").config.exact_pile == 4
