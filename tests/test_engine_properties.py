"""Property tests: random legal play-outs never reach an impossible state.

Every option of RULES.md with 2-6 players; the invariants are the ones the
notation validator enforces on user input, so a state the engine can reach is
always a state a user can write down.
"""
from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from solver_positions import (NEIGHBOUR_RULES, deal_few_ranks, f15_position, joins_before,
                              neighbour_move)

from solver.game.cards import beats, bit, count, deck_mask, rank_of
from solver.game.deal import new_game
from solver.game.movegen import legal_moves, play
from solver.game.moves import Kind, Move
from solver.game.rules import Rules
from solver.game.state import NO_COVER, GameState, Phase

OPTION_SETS = [
    Rules(),
    Rules(transfer=True),
    Rules(transfer=True, transfer_by_trump_show=True),
    Rules(throw_in_neighbours=True),
    Rules(first_bout_limit=True, trump_swap=True),
    Rules(first_out_wins=True),
    Rules(teams=True),
    Rules(teams=True, transfer=True, first_out_wins=True),
    Rules(deck=24),
    Rules(deck=52, transfer=True),
]


def check_invariants(s: GameState) -> None:
    deck = deck_mask(s.rules.deck)
    parts = list(s.hands) + [s.out, s.table_mask]
    if s.pile_order:
        parts.append(sum(1 << c for c in s.pile_order))
    total = 0
    for p in parts:
        assert total & p == 0, "a card is in two places"
        total |= p
    assert total == deck, "cards are lost or created"
    assert count(s.table_mask) == len(s.table) + sum(c != NO_COVER for _, c in s.table)
    if s.pile:
        assert s.pile == len(s.pile_order) and s.pile_order[-1] == s.trump_card
    if s.is_over:
        assert legal_moves(s) == []
        return
    assert 0 <= s.attacker < s.players and 0 <= s.defender < s.players
    assert s.attacker != s.defender
    assert s.team(s.attacker) != s.team(s.defender)
    if not s.table:
        assert s.active(s.attacker) and s.active(s.defender)
        assert s.defender == s.defender_for(s.attacker)
        assert s.phase is Phase.LEAD
    else:
        assert len(s.table) <= s.limit <= s.cap <= 6          # R10
        ranks = set()
        for a, c in s.table:                                   # R9
            if ranks:
                assert rank_of(a) in ranks
            ranks.add(rank_of(a))
            if c != NO_COVER:
                assert beats(c, a, s.trump)                    # R2
                ranks.add(rank_of(c))
        if s.phase is Phase.DEFEND:
            assert len(s.open_attacks) <= s.hand_size(s.defender)
        if s.phase in (Phase.THROW, Phase.TAKEN):
            assert s.turn in s.throw_order() and s.can_throw(s.turn)   # F2
    assert legal_moves(s), "the seat to move has no move"


@settings(max_examples=60, deadline=None)
@given(seed=st.integers(0, 2**32 - 1), players=st.integers(2, 6),
       option=st.sampled_from(range(len(OPTION_SETS))))
def test_random_playouts_keep_invariants(seed, players, option):
    rules = OPTION_SETS[option]
    if rules.teams:
        players = 4
    if rules.deck == 24:
        players = min(players, 4)
    s = new_game(players, rules, seed=seed)
    rng = random.Random(seed)
    for _ in range(5000):
        check_invariants(s)
        if s.is_over:
            break
        s = play(s, rng.choice(legal_moves(s)))
    assert s.is_over, "a random game of Durak should end well within 5000 moves"
    result = s.outcome()
    assert result is not None and len(result) == players


def test_R23_two_players_without_transfer_always_end():
    """R23: without transfer a 2-player game always progresses; random games end."""
    for seed in range(50):
        s = new_game(2, seed=seed)
        rng = random.Random(seed)
        n = 0
        while not s.is_over:
            s = play(s, rng.choice(legal_moves(s)))
            n += 1
        assert n < 400


# ---------------------------------------------------------------------- F15
def _unsettled(s: GameState, m: Move) -> GameState | None:
    """The state just after ``m``, before anyone is asked (P3, P4); None after a
    move that leaves the defender to answer or changes no table (lead, transfer,
    show, swap, a P3 throw-in)."""
    seat = s.to_move
    hands = list(s.hands)
    if m.kind is Kind.PASS:
        return s
    if m.kind is Kind.TAKE:
        return s.replace(take=True)
    if m.kind is Kind.COVER:
        hands[seat] &= ~bit(m.cards[0])
        table = tuple((a, m.cards[0] if a == m.target else c) for a, c in s.table)
        return s.replace(hands=tuple(hands), table=table)
    if m.kind is Kind.THROW and s.take:
        hands[seat] &= ~bit(m.cards[0])
        return s.replace(hands=tuple(hands), table=s.table + ((m.cards[0], NO_COVER),))
    return None


def test_F15_asking_follows_an_explicit_record_of_who_passed():
    """F15, F3, F2, P3, P4, held against a model that records who has passed.

    The engine keeps no such record: the seat asked (``turn``) and the R12 order
    say it -- everyone before him in the order has passed or cannot add.  The
    model keeps the set: a pass adds the seat; a P4 throw-in keeps it (F3); any
    other move starts a new round (P3: after the defender's answer, from the main
    attacker; P4: after the take).  After every move the seat asked must be the
    first thrower of the order *then* who has not passed and can add (F2, F15:
    a seat that has just become the defender's neighbour has not passed, wherever
    he sits), and the bout ends exactly when there is none.  On biased walks where
    neighbours go out under throw_in=neighbours and on random games with every
    option: both that the engine follows F15 and that ``turn`` loses nothing.
    """
    rng = random.Random(1515)
    walks = [(deal_few_ranks(rng, rng.randint(4, 6), rng.choice(NEIGHBOUR_RULES)), True)
             for _ in range(300)]
    walks += [(f15_position(rng), True) for _ in range(200)]
    for i, rules in enumerate(OPTION_SETS * 3):
        players = 4 if rules.teams else rng.randint(2, 4 if rules.deck == 24 else 6)
        walks.append((new_game(players, rules, rng=rng), False))
    checked = joined = 0
    for s, biased in walks:
        passed: set[int] = set()
        while not s.is_over:
            ms = legal_moves(s)
            m = ms[neighbour_move(rng, s, ms) if biased else rng.randrange(len(ms))]
            seat = s.to_move
            mid = _unsettled(s, m)
            if m.kind is Kind.PASS:
                passed = passed | {seat}
            elif not (m.kind is Kind.THROW and s.take) and m.kind is not Kind.SWAP:
                passed = set()
            joined += joins_before(s, m, asked=True)
            t = play(s, m)
            if mid is not None and mid.phase in (Phase.THROW, Phase.TAKEN):
                want = [x for x in mid.throw_order() if x not in passed and mid.can_throw(x)]
                if want:
                    assert t.table and t.turn == want[0], (s, str(m))
                else:
                    assert not t.table, (s, str(m))  # the bout has ended
                checked += 1
            if t.phase in (Phase.THROW, Phase.TAKEN):
                order = t.throw_order()
                i = order.index(t.turn)
                assert all(x in passed or not t.can_throw(x) for x in order[:i]), (s, str(m))
                assert not passed & set(order[i:]), (s, str(m))
            s = t
    assert checked > 5000 and joined > 100, (checked, joined)
