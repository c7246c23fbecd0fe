"""Malformed and impossible positions: `durak moves` exits 2 with one line naming
the field and the token, never a traceback (NOTATION.md, "Machine output")."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from solver.cli import main

TWO = "trump H; hands 6S 7S | 8C 9C; attacker 1"
THREE = "trump H; hands 6S 7S | 8C 9C | TD JD; attacker 1"
P2 = "trump H; hands 7S KH | 9C AH; table 6S/8S 8C; attacker 1"  # seat 2 to cover 8C

# (test id, position, substrings the error line must hold)
CASES = [
    # syntax
    ("unknown_field", TWO + "; colour red", ["colour", "unknown field", "column"]),
    ("duplicate_field", "trump H; trump S; hands 6S | 7S; attacker 1",
     ["trump", "duplicate field", "column 10"]),
    ("not_key_value", "9H; hands 6S | 7S; attacker 1", ["expected 'key value'", "'9H'"]),
    ("empty_hands_field", "trump H; hands ; attacker 1", ["hands", "empty value"]),
    ("empty_seat", "trump H; hands 6S || 7S; attacker 1", ["hands", "seat 2", "'-'"]),
    ("missing_trump", "hands 6S | 7S; attacker 1", ["trump", "required"]),
    ("missing_hands", "trump H; attacker 1", ["hands", "required"]),
    ("missing_attacker", "trump H; hands 6S | 7S", ["attacker", "required"]),
    ("take_with_value", P2 + "; take now", ["take", "no value", "'now'"]),
    ("bad_pair", "trump H; hands 7S | 9C; table 6S/; attacker 1", ["table", "'6S/'"]),
    ("malformed_seat_number", "trump H; hands 6S | 7S; attacker one",
     ["attacker", "expected a number", "'one'"]),
    ("malformed_limit", P2 + "; limit x", ["limit", "'x'"]),
    ("negative_pile", "trump 9H; hands 6S | 7S; attacker 1; pile -3", ["pile", "'-3'"]),
    ("bad_unknown_count", "trump H; hands 6S ?x | 7S; attacker 1", ["hands", "'?x'"]),
    # cards
    ("unknown_card", "trump H; hands 6S 1X | 7S; attacker 1", ["hands", "'1X'", "seat 1"]),
    ("bad_suit", "trump H; hands 6S | 7Z; attacker 1", ["hands", "'7Z'", "bad suit"]),
    ("trump_not_suit_or_card", "trump X; hands 6S | 7S; attacker 1", ["trump", "'X'"]),
    ("R1_card_outside_24_deck", "trump H; hands 6S 9S | TS; attacker 1; rules deck=24",
     ["hands", "'6S'", "24-card deck"]),
    ("R1_card_outside_36_deck", "trump H; hands 2S | 7S; attacker 1", ["'2S'", "36-card deck"]),
    ("R1_duplicate_card_two_hands", "trump H; hands 6S 7S | 7S; attacker 1",
     ["duplicate card '7S'", "seat 1's hand", "seat 2's hand", "column 24"]),
    ("R1_duplicate_card_hand_and_table", "trump H; hands 6S 8S | 9C; table 8S; attacker 1",
     ["table", "duplicate card '8S'", "seat 1's hand"]),
    ("R1_duplicate_card_out", TWO + "; out 6S", ["out", "duplicate card '6S'"]),
    ("R5_face_up_card_duplicate", "trump 9H; pile 20; hands 9H ?5 | ?6; attacker 1",
     ["trump", "duplicate card '9H'", "face-up"]),
    ("R1_more_cards_than_deck", "trump H; hands ?20 | ?20; attacker 1",
     ["hands", "more cards than the deck", "36"]),
    ("R1_counts_do_not_add_up_with_out", TWO + "; out 6H", ["out", "counts do not add up"]),
    ("R1_out_needed_with_hidden_cards", "trump H; hands 6S ?5 | ?6; attacker 1",
     ["out", "not placed"]),
    # seats
    ("R3_one_seat", "trump H; hands 6S 7S; attacker 1", ["hands", "2..6"]),
    ("R3_seven_seats", "trump H; hands 6S | 7S | 8S | 9S | TS | JS | QS; attacker 1",
     ["hands", "7 seat", "2..6"]),
    ("R22_teams_need_four_seats", THREE + "; rules teams=2v2", ["rules", "teams=2v2", "4 seats"]),
    ("attacker_seat_does_not_exist", "trump H; hands 6S | 7S; attacker 3",
     ["attacker", "'3'", "does not exist"]),
    ("attacker_seat_zero", "trump H; hands 6S | 7S; attacker 0", ["attacker", "'0'"]),
    ("F7_attacker_out_cannot_lead", "trump H; hands - | 6S | 7S; attacker 1",
     ["attacker", "seat '1'", "no cards to lead"]),
    ("R4_defender_not_next_seat", THREE + "; defender 3", ["defender", "seat '3'", "seat 2"]),
    ("R4_defender_is_attacker", THREE + "; defender 1", ["defender", "also the attacker"]),
    ("F7_defender_gone_out", "trump H; hands 6S | - | 7S; attacker 1; defender 2",
     ["defender", "seat '2'", "gone out"]),
    ("F7_nobody_to_attack", "trump H; hands 7S | -; table 6S; attacker 1",
     ["attacker", "nobody to attack"]),
    ("me_out_of_range", TWO + "; me 4", ["me", "'4'", "does not exist"]),
    # trump and pile
    ("R5_pile_needs_face_up_card", "trump H; pile 5; hands 6S | 7S; attacker 1",
     ["trump", "face-up card", "'H'"]),
    ("R5_face_up_card_with_empty_pile", "trump 9H; hands 6S | 7S; attacker 1",
     ["trump", "'9H'", "pile is empty"]),
    ("R5_pile_list_trump_mismatch", "trump 9H; hands 6S | 7S; attacker 1; pile 7D 8H",
     ["trump", "'9H'", "'8H'"]),
    # the table
    ("R2_cover_does_not_beat", "trump H; hands 9S | 9C; table 8S/7S; attacker 1",
     ["table", "'7S' does not beat '8S'", "R2"]),
    ("R2_equal_rank_never_beats", "trump H; hands 9S | 9C; table 8S/8D; attacker 1",
     ["table", "'8D' does not beat '8S'"]),
    ("R9_throw_in_rank_not_on_table", "trump H; hands 8S | 9C AH KH; table 6S/7S 9D; attacker 1",
     ["table", "'9D'", "R9"]),
    ("R10_more_than_six_attack_cards",
     "trump S; hands AH | KH KD; table 6D/7D 6H/8H 6C/7C 7H/8S 8D/9D 8C/9C 9H; attacker 1",
     ["table", "7 attack cards", "R10"]),
    ("P2_open_cards_beyond_defender_hand", "trump H; hands 7S 8S | 9C; table 6D 6H; attacker 1",
     ["table", "2 open attack cards", "holds only 1"]),
    ("P3_throw_in_before_cover", "trump H; hands 9S | JS QS KS; table 6S/7S 6C 7D; attacker 1",
     ["table", "'7D'", "'6C'", "P3"]),
    ("F6_limit_above_default", P2 + "; limit 5", ["limit", "'5'", "above the default 3"]),
    ("R10_limit_below_attack_cards", P2 + "; limit 1", ["limit", "'1'", "below the 2 attack"]),
    ("R10_limit_above_six",
     "trump H; hands 7S | 6C 7C 8C 9C TC JC QC; table 6S; attacker 1; limit 7",
     ["limit", "'7'", "above 6"]),
    ("F6_limit_between_bouts_above_cap", TWO + "; limit 8", ["limit", "'8'", "1..6"]),
    ("F1_take_with_nothing_open", "trump H; hands 8S 9S | 9C; table 6S/7S; attacker 1; take",
     ["take", "F1"]),
    ("F1_take_with_empty_table", TWO + "; take", ["take", "nothing is open"]),
    ("P2_turn_while_defender_to_move", P2 + "; turn 1", ["turn", "'1'", "P2"]),
    ("P1_turn_with_empty_table", TWO + "; turn 1", ["turn", "'1'", "table is empty"]),
    ("R12_turn_seat_not_a_thrower",
     "trump D; hands 6S 7S 8S | 9S TS JS QS | 6C; attacker 1; table 6H/7H; turn 2",
     ["turn", "seat '2'", "not a thrower"]),
    ("R14_shown_without_option", "trump S; hands 6S | 7D | 8D; table 6D; attacker 1; shown 6S",
     ["shown", "'6S'", "transfer_by_trump_show"]),
    ("unknown_rules_option", TWO + "; rules transfers", ["rules", "'transfers'", "unknown option"]),
    # JSON
    ("json_syntax_error", '{"trump": "H", "hands": [["6S"], ["7S"]], "attacker": 1,}',
     ["JSON", "line 1 column"]),
    ("json_hands_wrong_type", '{"trump": "H", "hands": "6S 7S", "attacker": 1}',
     ["hands", "expected a list of hands"]),
    ("json_seat_wrong_type", '{"trump": "H", "hands": [["6S"], ["7S"]], "attacker": "1"}',
     ["attacker", "whole number", '"1"']),
    ("json_unknown_key", '{"trump": "H", "hands": [["6S"], ["7S"]], "attacker": 1, "x": 2}',
     ["'x'", "unknown field"]),
    ("json_card_wrong_type", '{"trump": "H", "hands": [[6], ["7S"]], "attacker": 1}',
     ["hands", "hands[0][0]", "expected a string"]),
    ("json_not_an_object", '{"trump": "H", "hands": [["6S"], ["7S"]], "attacker": 1} x',
     ["JSON", "Extra data"]),
]


@pytest.fixture(scope="module")
def runner() -> CliRunner:
    return CliRunner()


@pytest.mark.parametrize("position,expected", [(p, e) for _, p, e in CASES],
                         ids=[name for name, _, _ in CASES])
def test_bad_position_exits_2_with_one_line(runner, position, expected):
    result = runner.invoke(main, ["moves", position])
    assert result.exit_code == 2, (result.exit_code, result.output, result.stderr)
    err = result.stderr
    assert "Traceback" not in result.output and "Traceback" not in err
    assert result.stdout == ""
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    assert lines[0].startswith("durak: error: ")
    for piece in expected:
        assert piece in lines[0], (piece, lines[0])


def test_there_are_at_least_35_cases():
    assert len(CASES) >= 35
    assert len({name for name, _, _ in CASES}) == len(CASES)


def test_hidden_cards_of_the_mover_exit_2(runner):
    pos = ("trump 9H; pile 7; hands ?6 | 6S 6D QC KS TD AH; attacker 1; out 7S 8S 9S TS JS "
           "6H 7H 8H TH 7D 8D 9D 6C 7C 8C 9C TC")
    result = runner.invoke(main, ["moves", pos])
    assert result.exit_code == 2
    assert "seat 1" in result.stderr and "hidden" in result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
