"""The position notation (NOTATION.md): every field, the defaults, JSON, round trips."""
from __future__ import annotations

import json
import random

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from solver.errors import PositionError
from solver.game.cards import parse_card, to_mask
from solver.game.deal import new_game
from solver.game.determinize import deal_hidden, unseen_cards
from solver.game.movegen import legal_moves, play
from solver.game.rules import Rules
from solver.game.state import NO_COVER, Phase
from solver.notation import format_position, parse_position, position_to_json
from solver.notation.position import Position


def cards(text: str) -> int:
    return to_mask(parse_card(t) for t in text.split())


def c(text: str) -> int:
    return parse_card(text)


def parse(text: str):
    return parse_position(text).state


EXAMPLES = [  # NOTATION.md's examples and more, each a valid position
    "trump H; hands 6S 7S KH | 8C 9C AH; attacker 1",
    "trump H; hands 7S KH | 9C AH; table 6S/8S 8C; attacker 1",
    "trump 9H; pile 7; hands 6S 6D QC KS TD AH | ?6; attacker 1; out 7S 8S 9S TS JS 6H 7H "
    "8H TH 7D 8D 9D 6C 7C 8C 9C TC; me 1",
    "trump S; hands 7D 9D | 8D TD | JS; attacker 1; rules transfer",
    "trump H; hands 7S KH | 9C AH | 6D; table 6S/8S 8C; attacker 1; take",
    "trump D; hands 6S 7S 8S | 9S TS JS QS | 6C; attacker 1; table 6H/7H; turn 3",
    "trump 9H; hands 6S 7S | 8S 9S; attacker 2; pile 7D 9H",
    "trump H; hands - | 6S | 7S; attacker 2",
    "trump H; hands 6S 7S | 8S 9S | 6C 7C | 8C 9C; attacker 1; rules teams=2v2,transfer",
    "trump H; hands 6S 6D | 7S 8S | 9C; attacker 1; table 6C 6H; rules transfer",
    "trump H; hands 6S 7S KH | 8C 9C AH; attacker 1; limit 2",
]


# ------------------------------------------------------------------ fields

def test_trump_suit_card_and_symbol():
    assert parse("trump h; hands 6S | 7S; attacker 1").trump == 1
    assert parse("trump ♦; hands 6S | 7S; attacker 1").trump == 2
    s = parse("trump 9H; pile 34; hands 6S | 7S; attacker 1")
    assert (s.trump, s.trump_card, s.pile, s.pile_order) == (1, c("9H"), 34, None)


def test_hands_known_unknown_and_empty():
    s = parse("trump 9H; pile 26; hands KH ?4 | ?5 | -; attacker 1")
    assert s.hands == (cards("KH"), 0, 0)
    assert s.hidden == (4, 5, 0)
    assert s.hand_size(0) == 5


def test_cards_accept_ten_symbols_and_any_case():
    s = parse("trump h; hands 10♠ th | qd; attacker 1")
    assert s.hands == (cards("TS TH"), cards("QD"))


def test_table_pairs_in_play_order():
    s = parse("trump H; hands 7S KH | 9C AH; table 6S/8S 8C; attacker 1")
    assert s.table == ((c("6S"), c("8S")), (c("8C"), NO_COVER))
    assert s.phase is Phase.DEFEND and s.to_move == 1


def test_seats_are_one_based_in_text():
    s = parse("trump H; hands 6S | 7S | 8S; attacker 2")
    assert (s.attacker, s.defender) == (1, 2)


def test_R4_defender_default_is_next_active_seat():
    s = parse("trump H; hands 6S | - | 8S; attacker 1; table 6D")
    assert s.defender == 2


def test_R22_defender_default_skips_partner():
    s = parse("trump H; hands 6S | - | 8S | 9S; attacker 1; rules teams=2v2")
    assert s.defender == 3


def test_defender_given_and_matching_is_accepted():
    assert parse("trump H; hands 6S | 7S | 8S; attacker 1; defender 2").defender == 1


def test_take_sets_P4_and_turn_defaults_to_main_attacker():
    s = parse("trump H; hands 7S 8D | 9C AH | 6D; table 6S/8S 8C; attacker 1; take")
    assert s.take and s.phase is Phase.TAKEN
    assert s.turn == 0  # seat 1 holds 8D, a table rank


def test_F2_turn_skips_throwers_without_a_card():
    s = parse("trump H; hands 7S KH | 9C AH | 6D; table 6S/8S 8C; attacker 1; take")
    assert s.turn == 2


def test_P3_turn_field_starts_the_asking_there():
    text = "trump D; hands 6S 7S 8S | 9S TS JS QS | 6C; attacker 1; table 6H/7H"
    assert parse(text).turn == 0
    assert parse(text + "; turn 3").turn == 2


def test_P3_nobody_can_throw_ends_the_bout():
    s = parse("trump D; hands 9S | TS JS | QS; attacker 1; table 6H/7H")
    assert not s.table and s.out & cards("6H 7H")
    assert s.attacker == 1  # R18: the defender leads the next bout


def test_P4_nobody_can_throw_defender_picks_up():
    s = parse("trump D; hands 9S | TS JS | QS; attacker 1; table 6H; take")
    assert not s.table and s.hands[1] == cards("TS JS 6H")
    assert s.attacker == 2  # R18: the seat after the defender leads


def test_pile_number_and_known_order_extension():
    s = parse("trump 9H; hands 6S 7S | 8S 9S; attacker 2; pile 7D 9H")
    assert s.pile == 2 and s.pile_order == (c("7D"), c("9H")) and s.trump_card == c("9H")
    assert parse("trump H; hands 6S 7S | 8S 9S; attacker 2; pile 7D 9H") == s


def test_out_default_is_everything_not_elsewhere():
    s = parse("trump H; hands 6S | 7S; attacker 1")
    assert s.out == cards(" ".join(f"{r}{u}" for u in "SHDC" for r in "6789TJQKA")) \
        & ~cards("6S 7S")


def test_out_default_empty_when_unseen_fills_hidden_slots():
    s = parse("trump 9H; pile 24; hands 6S 7S 8S 9S TS JS | ?6; attacker 1")
    assert s.out == 0


def test_out_given():
    text = EXAMPLES[2]
    s = parse(text)
    assert s.out == cards("7S 8S 9S TS JS 6H 7H 8H TH 7D 8D 9D 6C 7C 8C 9C TC")


def test_limit_default_and_lowered():
    s = parse("trump H; hands 7S KH | 9C AH; table 6S/8S 8C; attacker 1")
    assert s.limit == 3  # two cards in hand + one cover
    s = parse("trump H; hands 7S KH | 9C AH TC; table 6S/8S 8C; attacker 1; limit 2")
    assert s.limit == 2


def test_R10_first_bout_limit_default_cap():
    hands = "hands 6S 7S 8S 9S TS JS | 6C 7C 8C 9C TC JC"
    s = parse(f"trump 6H; pile 24; {hands}; attacker 1; rules first_bout_limit=5")
    assert s.cap == 5
    s = parse(f"trump 6H; pile 23; {hands}; attacker 1; table 6D; rules first_bout_limit=5")
    assert s.limit == 5
    # something discarded: no longer the first bout (docs/rules.md)
    s = parse(f"trump 6H; pile 22; {hands}; attacker 1; out 6D 7D; rules first_bout_limit=5")
    assert s.cap == 6
    # a 24-card deal to four players leaves no pile: its first bout is capped all the same
    deal = ("hands 9S TS JS QS KS AS | 9H TH JH QH KH AH | 9D TD JD QD KD AD | "
            "9C TC JC QC KC AC")
    s = parse(f"trump C; {deal}; attacker 1; rules first_bout_limit=5,deck=24")
    assert s.cap == 5
    led = deal.replace("9S ", "")
    s = parse(f"trump C; {led}; attacker 1; table 9S; rules first_bout_limit=5,deck=24")
    assert (s.cap, s.limit) == (5, 5)


def test_F6_limit_between_bouts_lowers_the_cap():
    s = parse("trump H; hands 6S 7S KH | 8C 9C AH; attacker 1; limit 2")
    assert s.cap == 2 and s.limit == 0


def test_me_and_rules():
    p = parse_position("trump S; hands 7D 9D | 8D TD | JS; attacker 1; rules transfer; me 3")
    assert p.me == 2 and p.state.rules == Rules(transfer=True)
    assert p.view_seat == 2
    assert parse_position("trump S; hands 7D | 8D; attacker 1").view_seat == 0


def test_R9_throw_in_rank_from_cover_card():
    s = parse("trump H; hands 7D KH | 9C AH QS; table 6S/7S 7C; attacker 1")
    assert s.phase is Phase.DEFEND


def test_R14_shown_extension():
    s = parse("trump S; hands 7D 6S | 8D TD | JS 9H; attacker 1; table 6D; shown 6S; "
              "rules transfer_by_trump_show")
    assert s.shown == cards("6S")


def test_multiline_file_with_comments():
    text = """# a position file
    trump H
    hands 7S KH | 9C AH   # seat 2 holds the ace
    table 6S/8S 8C
    attacker 1
    """
    assert parse(text) == parse("trump H; hands 7S KH | 9C AH; table 6S/8S 8C; attacker 1")


def test_key_colon_form():
    assert parse("trump: H; hands: 6S | 7S; attacker: 1") == \
        parse("trump H; hands 6S | 7S; attacker 1")


# ------------------------------------------------------------------ JSON

def test_json_form_of_notation_md():
    obj = {"trump": "H", "hands": [["7S", "KH"], ["9C", "AH"]],
           "table": [["6S", "8S"], ["8C", None]], "attacker": 1, "rules": ["transfer"]}
    s = parse_position(obj).state
    assert s == parse("trump H; hands 7S KH | 9C AH; table 6S/8S 8C; attacker 1; rules transfer")
    assert parse_position(json.dumps(obj)).state == s


def test_json_unknown_cards_object():
    obj = {"trump": "9H", "pile": 5, "hands": [{"known": ["KH"], "unknown": 4}, ["6S"]],
           "attacker": 1, "out": []}
    with pytest.raises(PositionError, match=r"out: counts do not add up: .* = 11, the deck has 36"):
        parse_position(obj)
    obj["hands"][1] = {"known": [], "unknown": 5}
    obj["pile"] = 26
    s = parse_position(obj).state
    assert s.hidden == (4, 5) and s.pile == 26


def test_json_pile_list_extension():
    obj = {"trump": "H", "hands": [["6S"], ["7S"]], "attacker": 1, "pile": ["7D", "9H"]}
    assert parse_position(obj).state.pile_order == (c("7D"), c("9H"))


@pytest.mark.parametrize("text", EXAMPLES)
def test_position_to_json_round_trip(text):
    p = parse_position(text)
    obj = position_to_json(p.state, p.me)
    assert parse_position(obj) == p
    assert parse_position(json.dumps(obj)) == p


# ------------------------------------------------------------------ round trips

@pytest.mark.parametrize("text", EXAMPLES)
def test_format_round_trip_and_fixed_point(text):
    p = parse_position(text)
    f = format_position(p.state, p.me)
    assert parse_position(f) == p
    assert format_position(parse_position(f).state, p.me) == f
    assert str(p) == f


def test_format_is_canonical_one_line():
    f = format_position(parse("trump h; hands kh 7s | 9c ah; table 6s/8s 8c; attacker  1"))
    assert f == "trump H; hands 7S KH | AH 9C; table 6S/8S 8C; attacker 1"


def test_parse_accepts_state_and_position():
    p = parse_position(EXAMPLES[0])
    assert parse_position(p) is p
    assert parse_position(p.state) == Position(p.state)


OPTIONS = ("transfer", "transfer_by_trump_show", "throw_in_neighbours", "first_bout_limit",
           "trump_swap", "first_out_wins")


@st.composite
def game_setups(draw):
    players = draw(st.integers(2, 6))
    teams = players == 4 and draw(st.booleans())
    deck = draw(st.sampled_from([24, 36, 52]))
    if players * 6 > deck:
        deck = 52
    flags = {o: draw(st.booleans()) for o in OPTIONS}
    return players, Rules(teams=teams, deck=deck, **flags), draw(st.integers(0, 2**32))


@settings(max_examples=40, deadline=None)
@given(game_setups())
def test_round_trip_of_states_reached_by_random_play(setup):
    """format/parse and JSON round trips hold at every state of a random game."""
    players, rules, seed = setup
    rng = random.Random(seed)
    state = new_game(players, rules, rng=rng)
    for _ in range(250):
        text = format_position(state)
        assert parse_position(text).state == state, text
        assert format_position(parse_position(text).state) == text
        assert parse_position(position_to_json(state)).state == state, text
        if state.is_over:
            break
        state = play(state, rng.choice(legal_moves(state)))


# ------------------------------------------------------------------ determinize

def test_deal_hidden_fills_every_slot_and_keeps_the_face_up_trump():
    p = parse_position(EXAMPLES[2])
    dealt = deal_hidden(p.state, random.Random(5))
    assert dealt.hidden == (0, 0) and dealt.pile_order[-1] == c("9H")
    assert len(dealt.pile_order) == 7 and unseen_cards(dealt) == 0
    assert dealt.hands[0] == p.state.hands[0] and dealt.out == p.state.out
    assert deal_hidden(p.state, random.Random(5)) == dealt


def test_F7_main_attacker_may_hold_no_cards_mid_bout():
    s = parse("trump H; hands - | 9C AH | 7D; table 6S/8S 8C; attacker 1")
    assert s.attacker == 0 and s.defender == 1 and s.to_move == 1


def test_F7_defender_skips_seat_gone_out_after_attacker():
    s = parse("trump H; hands 8D | - | 9C AH; table 6S; attacker 1")
    assert s.defender == 2


def test_over_position_needs_no_attacker():
    s = parse("trump H; hands - | 9C AH")
    assert s.is_over and s.attacker == -1 and s.defender == -1
    assert format_position(s) == "trump H; hands - | AH 9C"


def test_hidden_pile_with_out_given_round_trips():
    p = parse_position(EXAMPLES[2])
    assert "out 7S 8S 9S TS JS" in format_position(p.state, p.me)
