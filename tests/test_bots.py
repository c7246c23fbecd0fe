"""Bots: legal moves only, no peeking at hidden cards, greedy beats random."""
from __future__ import annotations

import random

import pytest
from builders import state

from solver.game.deal import new_game
from solver.game.movegen import legal_moves, play
from solver.game.moves import Kind, Move
from solver.game.rules import parse_rules
from solver.hints.knowledge import PublicTracker
from solver.play.match import MatchSpec, match
from solver.policy.bots import GreedyPolicy, Policy, RandomPolicy, greedy_move, make_policy


def test_policies_follow_the_protocol():
    assert isinstance(RandomPolicy(), Policy) and isinstance(GreedyPolicy(), Policy)
    with pytest.raises(ValueError, match="unknown policy 'clever'"):
        make_policy("clever")


@pytest.mark.parametrize("players,rules", [(2, ""), (2, "transfer"), (3, ""),
                                           (4, "transfer,throw_in=neighbours"),
                                           (2, "trump_swap,transfer_by_trump_show")])
def test_bots_play_legal_moves_and_use_only_their_view(players, rules):
    rng = random.Random(3)
    for seed in range(4):
        t = PublicTracker(new_game(players, parse_rules(rules), seed=seed))
        pols = [GreedyPolicy() if (s + seed) % 2 else RandomPolicy() for s in range(players)]
        steps = 0
        while not t.state.is_over and steps < 600:
            s = t.state
            seat = s.to_move
            view = t.knowledge(seat).view
            assert any(view.hidden[o] for o in range(players) if o != seat) or s.pile == 0
            # the greedy move is the same whether or not the opponents' cards are shown
            assert greedy_move(view) == greedy_move(s)
            m = pols[seat].choose(view, seat, rng)
            assert m in legal_moves(s)
            t.play(m)
            steps += 1


def test_greedy_leads_lowest_non_trump_pair_together():
    s = state(["6S 6D QC AH 7H", "8C 9C TC JC QD KD"], trump="H")
    assert str(greedy_move(s)) == "6S,6D"
    s2 = state(["9S QC AH 7H", "8C 9C TC JC QD KD"], trump="H")
    assert str(greedy_move(s2)) == "9S"


def test_greedy_covers_cheaply_and_takes_rather_than_spend_high_trumps_early():
    # cover with the cheapest non-trump that beats
    s = state(["6S 9S", "7S 8S AS KH"], trump="H", pile=[f"{r}D" for r in "6789TJ"] + ["9H"])
    s = play(s, Move.parse("6S"))
    assert str(greedy_move(s)) == "6S/7S"
    # only the ace of trumps would beat it while the pile is big: take
    s = state(["AS 9S", "7D 8C AH KC"], trump="H", pile=[f"{r}D" for r in "6789TJ"] + ["9H"])
    s = play(s, Move.parse("AS"))
    assert greedy_move(s).kind is Kind.TAKE
    # the same with the pile empty: cover
    s = state(["AS 9S", "7D 8C AH KC"], trump="H")
    s = play(s, Move.parse("AS"))
    assert str(greedy_move(s)) == "AS/AH"


def test_greedy_throws_cheap_cards_and_keeps_trumps():
    s = state(["6S 6H 6C KD", "7S 8S 9D TD JD"], trump="H",
              pile=[f"{r}C" for r in "789TJ"] + ["9H"])
    s = play(s, Move.parse("6S"))
    s = play(s, Move.parse("6S/7S"))
    assert str(greedy_move(s)) == "+6C"


def test_greedy_beats_random():
    res = match(MatchSpec("greedy", "random", seed=5), 60)
    j = res.to_json()
    assert j["games"] == 60
    assert res.wins >= 0.85 * 60, j
