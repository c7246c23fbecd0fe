"""The sampler's invariant (OpenSpiel's ResampleInfostateTest) and its uniformity.

Every sampled deal is a complete, consistent game state that looks to the
asking seat exactly like the real position; the deals are uniform; small deal
sets are enumerated; impossible knowledge is refused with a ValueError.
"""
from __future__ import annotations

import math
import random
from collections import Counter
from dataclasses import replace

import pytest
from builders import cards, state

from solver.game.cards import bit, count, deck_mask, parse_card
from solver.game.deal import new_game
from solver.game.rules import parse_rules
from solver.game.state import GameState
from solver.hints.knowledge import PublicTracker, agrees_with, knowledge_of, replay, seat_view
from solver.hints.sampler import Sampler, consistent
from solver.policy.bots import RandomPolicy, greedy_move


def looks_the_same(deal: GameState, k) -> bool:
    """The deal seen by ``k.seat`` (knowing the same opponents' cards) is ``k.view``."""
    again = seat_view(deal, k.seat, k.view.hands).view
    return again == k.view


def chi2_critical(dof: int, z: float = 3.09) -> float:
    """Wilson-Hilferty upper quantile of chi-square (z=3.09: p = 0.001)."""
    a = 2 / (9 * dof)
    return dof * (1 - a + z * math.sqrt(a)) ** 3


@pytest.mark.parametrize("players,rules", [(2, ""), (2, "transfer"), (3, ""), (4, "transfer")])
def test_every_sampled_deal_looks_like_the_real_game(players, rules):
    rng = random.Random(11)
    r = parse_rules(rules)
    for seed in range(3):
        t = PublicTracker(new_game(players, r, seed=seed))
        policy = RandomPolicy()
        step = 0
        while not t.state.is_over and step < 300:
            if step % 3 == 0:
                for seat in range(players):
                    k = t.knowledge(seat)
                    sm = Sampler(k)
                    # the real game is one of the consistent deals
                    assert consistent(t.state, k)
                    for _ in range(2):
                        d = sm.sample(rng)
                        assert consistent(d, k)
                        assert looks_the_same(d, k)
            mover = t.state.to_move
            mv = greedy_move(t.state) if seed % 2 else policy.choose(t.state, mover, rng)
            t.play(mv)
            step += 1


def test_cards_picked_up_stay_known_and_drawn_cards_are_hidden():
    g = new_game(2, seed=4)
    t = PublicTracker(g)
    leader = g.to_move
    lead = greedy_move(g)
    t.play(lead)
    t.play(parse_move("take"))
    while t.state.table:  # P4: the attacker passes or throws in
        t.play(greedy_move(t.state))
    taker = 1 - leader
    k = t.knowledge(leader)
    assert k.view.hands[taker] & bit(lead.cards[0])
    assert k.view.hidden[taker] == 6  # his own six stay unknown
    # the attacker drew: the taker does not know what
    k2 = t.knowledge(taker)
    assert k2.view.hidden[leader] == count(t.state.hands[leader])


def parse_move(text):
    from solver.game.moves import Move

    return Move.parse(text)


def test_pool_of_a_notation_position():
    from solver.notation import parse_position

    pos = parse_position("trump 9H; pile 7; hands 6S 6D QC KS TD AH | ?6; attacker 1; "
                         "out 7S 8S 9S TS JS 6H 7H 8H TH 7D 8D 9D 6C 7C 8C 9C TC; me 1")
    k = knowledge_of(pos.state, pos.me)
    assert count(k.unseen) == 12
    assert k.pile_slots == 6 and k.hand_slots == (0, 6)
    assert not k.unseen & bit(parse_card("9H"))
    d = Sampler(k).sample(random.Random(1))
    assert d.pile_order[-1] == parse_card("9H") and len(d.pile_order) == 7
    assert consistent(d, k)


def test_known_opponent_cards_stay_in_every_deal():
    # seat 2 picked up AH earlier (everyone saw it); its two other cards are unknown
    out = deck_mask(36) & ~cards("6S 7S KH 8C 9C AH")
    view = GameState(rules=parse_rules(""), trump=1, hands=(cards("6S 7S KH"), cards("AH")),
                     hidden=(0, 2), attacker=0, defender=1, out=out)
    k = knowledge_of(view, 0)
    assert k.unseen == cards("8C 9C")
    sm = Sampler(k)
    assert sm.count() == 1
    (only,) = list(sm.enumerate())
    assert only.hands[1] == cards("8C 9C AH")
    assert consistent(only, k) and looks_the_same(only, k)


def test_uniform_over_deals_chi_square():
    """A small case with 60 distinct deals: each drawn equally often (p = 0.001)."""
    # seat 1 knows 6S; seat 2 holds 2 hidden cards; pile: 3 unknown + face-up 9H.
    hand = cards("6S")
    out = deck_mask(36) & ~cards("6S 7S 8S 9S TS JS 9H")
    s = GameState(rules=parse_rules(""), trump=1, hands=(hand, 0), hidden=(0, 2), attacker=0,
                  defender=1, pile=4, trump_card=parse_card("9H"), out=out)
    k = knowledge_of(s, 0)
    sm = Sampler(k)
    total = sm.count()
    assert total == math.factorial(5) // math.factorial(2) == 60
    deals = list(sm.enumerate())
    keys = {(d.hands[1], d.pile_order) for d in deals}
    assert len(keys) == total and all(consistent(d, k) for d in deals)
    rng = random.Random(2024)
    n = 12000
    freq = Counter((d.hands[1], d.pile_order) for d in (sm.sample(rng) for _ in range(n)))
    assert set(freq) == keys
    exp = n / total
    chi2 = sum((freq[key] - exp) ** 2 / exp for key in keys)
    assert chi2 < chi2_critical(total - 1)
    # marginal: each unseen card is in seat 2's hand 2/5 of the time
    for c in (parse_card(x) for x in "7S 8S 9S TS JS".split()):
        share = sum(v for (h, _), v in freq.items() if h & bit(c)) / n
        assert abs(share - 0.4) < 4 * math.sqrt(0.4 * 0.6 / n)


def test_unknown_face_up_card_is_an_unseen_trump():
    # only the trump suit given while the pile has cards: the bottom is some unseen heart
    hand = cards("6S")
    out = deck_mask(36) & ~cards("6S 7S 8S 9H TH")
    s = GameState(rules=parse_rules(""), trump=1, hands=(hand, 0), hidden=(0, 2), attacker=0,
                  defender=1, pile=2, out=out)
    k = knowledge_of(s, 0)
    sm = Sampler(k)
    assert sm.count() == 2 * 3 * 1  # bottom 9H or TH, then 3 ways to pick the pile card
    deals = list(sm.enumerate())
    assert len(deals) == 6
    assert {d.pile_order[-1] for d in deals} == {parse_card("9H"), parse_card("TH")}
    assert all(consistent(d, k) for d in deals)


def test_enumerates_when_small_and_samples_when_large():
    g = new_game(2, seed=9)
    k = seat_view(g, 0)
    sm = Sampler(k)
    ds = sm.deals(16, random.Random(1))
    assert not ds.exhaustive and len(ds.states) == 16
    # pile empty, 3 players: only the split of the unseen cards is unknown
    t = replay(new_game(3, seed=1), [])
    s = t.state
    while s.pile or s.table:
        s = t.play(greedy_move(s))
    k3 = t.knowledge(s.to_move)
    sm3 = Sampler(k3)
    n = sm3.count()
    assert n == math.comb(sum(k3.hand_slots), max(k3.hand_slots))
    ds3 = sm3.deals(max(n, 1), random.Random(0))
    # every deal once, less those that break what the asking of throwers proved (F2)
    plain = Sampler(replace(k3, facts=()))
    agreeing = sum(agrees_with(d, k3.facts) for d in plain.enumerate())
    assert ds3.exhaustive and len(set(ds3.states)) == ds3.total == agreeing


def test_refuses_impossible_knowledge():
    from solver.errors import PositionError

    s = state(["6S 7S", "8C 9C"], out="")
    bad = s.replace(hands=(s.hands[0], 0), hidden=(0, 5))  # 5 hidden, 30+ unseen
    with pytest.raises(ValueError, match="unaccounted"):
        knowledge_of(bad, 0)
    with pytest.raises(PositionError, match="own hand"):
        knowledge_of(s.replace(hidden=(1, 0)), 0)
    # a pile whose face-up card must be an unseen trump, but every trump is seen: the
    # knowledge refuses it, and so does the sampler handed such knowledge
    hand = cards("6H 7H 8H 9H TH JH QH KH AH")
    out = deck_mask(36) & ~(hand | cards("6S"))
    s2 = GameState(rules=parse_rules(""), trump=1, hands=(hand, 0), hidden=(0, 0), attacker=0,
                   defender=1, pile=1, out=out)
    with pytest.raises(PositionError, match="no unseen trump is left to lie face up"):
        knowledge_of(s2, 0)
    one_left = s2.replace(hands=(hand & ~cards("AH"), 0), pile=2)  # AH may lie face up
    k = knowledge_of(one_left, 0)
    assert k.bottom_mask == cards("AH") and Sampler(k).count() == 1
    with pytest.raises(PositionError, match="no unseen trump can be the face-up card"):
        Sampler(replace(k, bottom_mask=0, pile_slots=k.pile_slots + 1))


def test_seeded_sampling_is_reproducible():
    k = seat_view(new_game(3, seed=5), 1)
    a = [Sampler(k).sample(random.Random(7)) for _ in range(3)]
    b = [Sampler(k).sample(random.Random(7)) for _ in range(3)]
    assert a == b


def test_core_dealer_is_exact_rejection_with_the_bottom_drawn_each_time():
    """``deal_hands`` (ext/deal.pxi) on a case small enough to list: every outcome
    that agrees with the fact equally often, the face-up bottom included.

    Pool 0..5, seat 0 gets 2 cards and must hold one of {0, 1} (a certain F2
    fact), seat 1 gets 1, the bottom is 1 or 4, the rest is the pile.  With the
    bottom 1 seat 0 needs card 0 (24 outcomes), with 4 it has 42: exact
    rejection gives the bottom 1 with probability 24/66, where drawing the
    bottom once and rejecting only the hands would give 1/2."""
    from solver.search.native import core
    fact = (0, (1 << 64) - 1, 0, 0b11, True, 0)
    outcomes = set()
    for b in (1, 4):
        rest = [c for c in range(6) if c != b]
        for pair in ((x, y) for i, x in enumerate(rest) for y in rest[i + 1:]):
            if not {0, 1} & set(pair):
                continue
            left = [c for c in rest if c not in pair]
            for one in left:
                pile = [c for c in left if c != one]
                for order in (tuple(pile), tuple(reversed(pile))):
                    outcomes.add((bit(pair[0]) | bit(pair[1]), bit(one), order, b))
    assert len(outcomes) == 66
    rng = random.Random(5)
    n = 300 * len(outcomes)
    freq: Counter = Counter()
    rejected = 0
    for _ in range(n):
        parts, pile, bottom, rej = core.deal_hands(tuple(range(6)), (2, 1), (0, 0), (fact,),
                                                   (1, 4), 100, rng.getrandbits(64))
        rejected += rej
        freq[(parts[0], parts[1], tuple(pile), bottom)] += 1
    assert set(freq) == outcomes and rejected > 0
    exp = n / len(outcomes)
    assert sum((freq[o] - exp) ** 2 / exp for o in outcomes) < chi2_critical(len(outcomes) - 1)
    share = sum(v for o, v in freq.items() if o[3] == 1) / n
    assert abs(share - 24 / 66) < 4 * math.sqrt(0.25 / n)


def test_core_dealer_gives_the_last_attempt_when_no_deal_agrees():
    from solver.search.native import core
    never = (0, (1 << 64) - 1, 0, 0b111111, False, 0)  # seat 0 holds none of 0..5: impossible
    parts, cards_left, bottom, rejected = core.deal_hands(tuple(range(6)), (2, 1), (0, 0),
                                                          (never,), (), 7, 1)
    assert parts is None and rejected == 7 and sorted(cards_left) == list(range(6))
    assert bottom == -1


def test_core_dealer_takes_any_number_of_facts():
    """A long game of six players can prove hundreds of facts: no fixed cap."""
    from solver.search.native import core
    always = (1, (1 << 64) - 1, 0b1, 0b1, True, 0)  # seat 1 held card 0: put back, so true
    parts, pile, bottom, rejected = core.deal_hands(tuple(range(1, 7)), (2, 1), (0, 0),
                                                    (always,) * 5000, (), 10, 3)
    assert parts is not None and rejected == 0 and len(pile) == 3
