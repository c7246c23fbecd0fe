"""The core's quick wins (``quick_win`` in ext/_core.pyx) are sound.

Two players, pile empty, attacker to lead (with transfers too, R14).  Whenever the core
says the attacker surely wins -- the defender beats none of his cards (R2,
R16, R18), or all his cards share one rank and the defender holds more (R10,
R20) -- the pure-Python minimax over the rules engine must agree: a win for
the attacker.  The tests also check that both rules do occur, and that the
test is not claimed where it does not hold (transfers, three players).
"""
from __future__ import annotations

import random

import pytest
from solver_positions import deal_endgame

from solver.game.cards import beats, cards_of
from solver.game.rules import Rules
from solver.search import Solver
from solver.search.reference import ReferenceSolver


def core_state(solver: Solver, s):
    from solver.search.native import load

    return load(solver._core.search, s)


def lead_positions(seed: int, count: int, rules: Rules, sizes=None):
    rng = random.Random(seed)
    for _ in range(count):
        k = sizes(rng) if sizes else [rng.randint(1, 6), rng.randint(1, 6)]
        s = deal_endgame(rng, k, rules)
        if not s.is_over:
            yield s


def defender_beats_nothing(s) -> bool:
    att, dfd = s.hands[s.attacker], s.hands[s.defender]
    return not any(beats(d, a, s.trump) for a in cards_of(att) for d in cards_of(dfd))


def test_quick_wins_agree_with_the_minimax():
    """R2/R10/R16/R18/R20: every claimed quick win is a minimax win for the attacker."""
    solver = Solver(tt_mb=1)
    claimed = unbeatable = 0
    for s in lead_positions(31, 1500, Rules()):
        if not core_state(solver, s).attacker_surely_wins():
            continue
        claimed += 1
        unbeatable += defender_beats_nothing(s)
        assert ReferenceSolver(s, s.attacker).root(s)[0] == 1, s
    # both rules occur: cards the defender cannot beat, and one rank to shed
    assert claimed > 100 and 0 < unbeatable < claimed


def defender_can_pass_on(s) -> bool:
    """R14: the defender holds a card of a rank the attacker holds, or the
    attacker holds a rank twice (a card of it taken could pass the other on)."""
    att, dfd = list(cards_of(s.hands[s.attacker])), list(cards_of(s.hands[s.defender]))
    ranks = [c % 13 for c in att]
    return len(set(ranks)) < len(ranks) or any(c % 13 in ranks for c in dfd)


@pytest.mark.parametrize("rules", [Rules(transfer=True),
                                   Rules(transfer=True, transfer_by_trump_show=True)],
                         ids=["transfer", "show"])
def test_quick_wins_with_transfers_agree_with_the_minimax(rules):
    """R14/F13: with transfers a quick win is claimed only where the defender
    can pass no lead on (or the attacker sheds one rank: a transfer needs a new
    defender holding cards, R14), and each claimed one is a minimax win."""
    solver = Solver(tt_mb=1)
    claimed = unbeatable = 0
    for s in lead_positions(32, 1500, rules):
        if not core_state(solver, s).attacker_surely_wins():
            continue
        claimed += 1
        if defender_beats_nothing(s):
            unbeatable += 1
            one_rank = len({c % 13 for c in cards_of(s.hands[s.attacker])}) == 1
            assert one_rank or not defender_can_pass_on(s), s
        assert ReferenceSolver(s, s.attacker).root(s)[0] == 1, s
    assert claimed > 100 and 0 < unbeatable < claimed


def test_no_quick_win_where_the_defender_can_pass_the_lead_on():
    """R14: the defender beats nothing but holds a card of the attacker's
    rank: no quick win is claimed (he may transfer and win)."""
    solver = Solver(tt_mb=1)
    seen = 0
    for s in lead_positions(36, 3000, Rules(transfer=True)):
        if (defender_beats_nothing(s) and defender_can_pass_on(s)
                and len({c % 13 for c in cards_of(s.hands[s.attacker])}) > 1):
            seen += 1
            assert not core_state(solver, s).attacker_surely_wins(), s
    assert seen > 20


def test_no_quick_wins_for_three_players():
    """S2 coalitions are outside the rules' argument."""
    solver = Solver(tt_mb=1)
    for s in lead_positions(33, 200, Rules(), sizes=lambda r: [r.randint(1, 4)] * 3):
        assert not core_state(solver, s).attacker_surely_wins()


def test_one_rank_needs_a_defender_with_more_cards():
    """R20: shedding every card in one bout wins only if the defender keeps one."""
    solver = Solver(tt_mb=1)
    rng = random.Random(34)
    draws = wins = 0
    for _ in range(400):
        # one card each: the attacker is out after his lead whatever happens
        s = deal_endgame(rng, [1, rng.randint(1, 2)], Rules(), attacker=0)
        quick = core_state(solver, s).attacker_surely_wins()
        value = ReferenceSolver(s, s.attacker).root(s)[0]
        if len(list(cards_of(s.hands[1]))) == 2:
            assert quick and value == 1, s
            wins += 1
        elif not defender_beats_nothing(s):
            # the defender covers with his last card: both out, a draw
            assert not quick and value == 0, s
            draws += 1
        else:
            assert quick and value == 1, s
    assert draws > 10 and wins > 10


def hero_out_states(seed: int, count: int):
    """Positions of 3-4 players in which the hero has gone out, bouts in
    progress too.  (Under teams the game is over once the hero's team is.)"""
    from solver_positions import OPTION_SETS, random_prefix

    rng = random.Random(seed)
    for _ in range(count):
        players = rng.choice([3, 3, 3, 4])
        hero = rng.randrange(players)
        top = 4 if players == 3 else 2
        sizes = [0 if seat == hero else rng.randint(1, top) for seat in range(players)]
        s = deal_endgame(rng, sizes, rng.choice(OPTION_SETS))
        s = random_prefix(rng, s, rng.choice([0, 0, rng.randint(1, 5)]))
        if not s.is_over:
            yield s, hero


def test_quick_wins_of_two_left_of_three_agree_with_the_retrograde_oracle():
    """R18/R20: with one of three players out and the hero one of the two
    left, a claimed quick win makes the defender the durak; with the hero
    out none is claimed (both left are the others', who need not win)."""
    from solver.search.reference import retrograde

    solver = Solver(tt_mb=1)
    rng = random.Random(35)
    claimed = lost = 0
    for _ in range(500):
        gone = rng.randrange(3)
        s = deal_endgame(rng, [0 if seat == gone else rng.randint(1, 4) for seat in range(3)],
                         Rules())
        hero = rng.randrange(3)
        if s.is_over or not core_state(solver, s).attacker_surely_wins(hero):
            continue
        assert hero != gone, s
        claimed += 1
        ids, value, _, _ = retrograde(s, hero, 20_000)
        want = -1 if hero == s.defender else 1
        lost += want < 0
        assert value[ids[s.replace(out=0)]] == want, s
    assert claimed > 40 and 0 < lost < claimed


def test_decisions_for_three_players_agree_with_the_retrograde_oracle():
    """R18/R20/R23: where the core says the hero surely escapes (out, two
    others with an odd number of cards) the oracle's value is a win; where it
    says the hero's side is out for good, the value is not a loss."""
    from solver.search.reference import GraphTooLarge, retrograde

    solver = Solver(tt_mb=1)
    escapes = out = even = 0
    for s, hero in hero_out_states(33, 250):
        st = core_state(solver, s)
        sure = st.hero_surely_escapes(hero)
        assert st.hero_side_is_out(hero), s
        if sure:
            assert not (s.rules.transfer or s.rules.first_out_wins), s
        try:
            ids, value, _, _ = retrograde(s, hero, 20_000)
        except GraphTooLarge:
            continue
        v = value[ids[s.replace(out=0) if s.out else s]]
        out += 1
        assert v >= 0, s
        if sure:
            escapes += 1
            assert v == 1, s
        elif not s.table and sum(1 for h in s.hands if h) == 2:
            even += v == 0  # an even total: the two may go out together
    assert escapes > 20 and out > 150 and even > 10
