"""Rules tests, one or more per rule id of RULES.md, on hand-checked positions."""
from __future__ import annotations

import random

from builders import after, cards, moves, state

from solver.game.cards import beats
from solver.game.cards import parse_card as C
from solver.game.deal import new_game
from solver.game.movegen import legal_moves, play
from solver.game.rules import Rules, parse_rules
from solver.game.state import Phase
from solver.game.value import Value
from solver.notation import parse_position
from solver.search import Solver, analyse
from solver.search.native import move_text


# ----------------------------------------------------------------- R1, R2
def test_R1_deck_sizes():
    from solver.game.cards import count, deck_mask
    assert count(deck_mask(36)) == 36
    assert count(deck_mask(24)) == 24
    assert count(deck_mask(52)) == 52


def test_R2_beating():
    assert beats(C("8S"), C("6S"), trump=1)
    assert not beats(C("6S"), C("8S"), trump=1)
    assert not beats(C("8D"), C("8S"), trump=1)      # equal rank never beats
    assert beats(C("6H"), C("AS"), trump=1)          # any trump beats a non-trump
    assert not beats(C("AS"), C("6H"), trump=1)      # a trump only by a higher trump
    assert beats(C("7H"), C("6H"), trump=1)
    assert not beats(C("AD"), C("6S"), trump=1)      # another plain suit never beats


# ----------------------------------------------------------------- R5, R6
def test_R5_deal_six_each_trump_at_bottom():
    g = new_game(2, seed=7)
    from solver.game.cards import count, suit_of
    assert [count(h) for h in g.hands] == [6, 6]
    assert g.pile == 24 and g.pile_order[-1] == g.trump_card
    assert suit_of(g.trump_card) == g.trump


def test_R5_six_players_dealer_keeps_trump():
    g = new_game(6, seed=3)
    assert g.pile == 0 and g.trump_card == -1
    from solver.game.cards import suit_of

    # the trump is the suit of the dealer's (last seat's) last dealt card
    assert g.trump in {suit_of(c) for c in range(52) if g.hands[5] >> c & 1}


def test_R6_lowest_trump_leads():
    from solver.game.cards import cards_of, rank_of, suit_of
    for seed in range(30):
        g = new_game(3, seed=seed)
        lows = {s: min((rank_of(c) for c in cards_of(g.hands[s]) if suit_of(c) == g.trump), default=99)
                for s in range(3)}
        best = min(lows.values())
        expected = min(s for s in lows if lows[s] == best) if best < 99 else 0
        assert g.attacker == expected
        assert g.defender == (expected + 1) % 3


# ---------------------------------------------------------------- R8, F4
def test_R8_lead_single_or_same_rank_group():
    s = state(["6S 6D 9C", "7S 8S AH TD"])
    assert moves(s) == ["6S", "6D", "6S,6D", "9C"]


def test_F4_multi_card_lead_bounded_by_defender_hand():
    s = state(["6S 6D 6C", "7S AH"])
    assert "6S,6D,6C" not in moves(s)
    assert "6S,6D" in moves(s)


# --------------------------------------------------------------------- R9
def test_R9_no_throw_in_without_a_table_rank():
    s = state(["8C 9C KS", "8S TC AH QD"])
    s = after(s, "9C", "9C/TC")
    # no 9 and no ten in the attacker's hand: 8C may not be thrown, the bout ends (F2)
    assert s.phase is Phase.LEAD and s.attacker == 1


def test_R9_throw_in_matches_defence_card_rank():
    s = state(["TS 9D KS", "8S TD AH QD"])
    s = after(s, "9D", "9D/TD")
    assert moves(s) == ["+TS", "pass"]


# -------------------------------------------------------------------- R10
def test_R10_limit_from_defender_hand_at_bout_start():
    s = state(["6S 6D 6C 6H 7S", "7D 8S"], trump="C")
    s = after(s, "6S,6D")
    assert s.limit == 2
    s = after(s, "6S/8S", "6D/7D")
    # two attack cards already: the defender started with two, no throw-in
    assert s.phase is Phase.LEAD or s.is_over


def test_R10_limit_caps_at_six():
    s = state(["6S 6D 7S 7D 8S 8D 9S", "AH KH QH JH TH 9H 8H"], trump="H")
    s = after(s, "6S")
    assert s.limit == 6


def test_R10_first_bout_limit_option():
    g = new_game(2, seed=11, rules=__import__("solver").parse_rules("first_bout_limit=5"))
    assert g.cap == 5
    from solver.game.movegen import lead_limit
    assert lead_limit(g) == 5


# --------------------------------------------------------------- R11, F1
def test_R11_take_even_when_able_to_beat():
    s = state(["6S 9D", "8S 7S"])
    s = after(s, "6S")
    assert moves(s) == ["6S/7S", "6S/8S", "take"]


def test_F1_no_take_when_everything_is_covered():
    s = state(["6S 6D 9D", "8S 7S 7D"], trump="C")
    s = after(s, "6S", "6S/8S")
    assert s.phase is Phase.THROW
    assert "take" not in moves(s)
    s = after(s, "+6D")
    assert "take" in moves(s)


# -------------------------------------------------------------- R12, F2, F3
def test_R12_main_attacker_asked_first_then_seat_order():
    s = state(["6S 9D", "9S 7C", "6D KC", "6C QC"], trump="H")
    s = after(s, "6S", "6S/9S")
    assert s.to_move == 0
    s = after(s, "pass")
    assert s.to_move == 2      # seat 3 is next after the main attacker, skipping the defender
    s = after(s, "pass")
    assert s.to_move == 3


def test_F2_thrower_without_card_not_asked():
    s = state(["7S AD", "9S 7C", "6D KC"], trump="H")
    s = after(s, "7S", "7S/9S")
    # nobody holds a 7 or a 9: the bout ends by itself (R15) and the defender leads
    assert s.phase is Phase.LEAD and s.attacker == 1


def test_F3_after_take_seat_adds_several_cards_one_at_a_time():
    s = state(["6S 6D 6C KD", "7C 8C 9C TC", "AD AC"], trump="H")
    s = after(s, "6S", "take")
    assert s.phase is Phase.TAKEN and s.to_move == 0
    s = after(s, "+6D")
    assert s.to_move == 0 and "+6C" in moves(s)
    s = after(s, "+6C")
    # no six left with seat 1 and none with seat 3: the defender picks up and
    # the seat after him (seat 3) leads next (R18)
    assert s.phase is Phase.LEAD and s.attacker == 2
    assert s.hands[1] == cards("7C 8C 9C TC 6S 6D 6C")


def test_R12_throw_in_neighbours_option():
    hands = ["6S 9D", "9S 7C", "6D KC", "6C QC", "6H JC"]
    s = state(hands, trump="H", rules="throw_in=neighbours")
    s = after(s, "6S", "6S/9S")
    s = after(s, "pass")
    # defender is seat 2; his neighbours are seats 1 and 3: seat 4 and 5 never asked
    assert s.to_move == 2
    s = after(s, "pass")
    assert s.phase is Phase.LEAD


def test_R12_two_players_only_the_attacker_throws():
    s = state(["6S 6D", "9S 7D TD"], trump="C")
    s = after(s, "6S", "6S/9S")
    assert s.to_move == 0


# --------------------------------------------------------------------- R13
def test_R13_throw_in_after_take_respects_limit():
    s = state(["6S 6D 6C 6H 9D", "7C 8C"], trump="C")
    s = after(s, "6S", "take")
    s = after(s, "+6D")
    # limit 2 reached: the defender picks up at once
    assert s.phase is Phase.LEAD
    assert s.hands[1] == cards("7C 8C 6S 6D")


# -------------------------------------------------------------- R14, F5
def test_R14_transfer_needs_new_defender_hand():
    s = state(["6S 9C", "6D 7D KH", "AS"], trump="H", rules="transfer")
    s = after(s, "6S")
    # seat 3 holds one card; after the transfer there would be two attack cards
    assert not any(m.startswith(">") for m in moves(s))
    s2 = state(["6S 9C", "6D 7D KH", "AS KS"], trump="H", rules="transfer")
    s2 = after(s2, "6S")
    assert ">6D" in moves(s2)
    s2 = after(s2, ">6D")
    assert s2.attacker == 1 and s2.defender == 2 and s2.limit == 2


def test_R14_two_players_transfer_returns_attack():
    s = state(["6S 6C 9C", "6D 7D KH AS"], trump="H", rules="transfer")
    s = after(s, "6S", ">6D")
    assert s.attacker == 1 and s.defender == 0
    assert ">6C" in moves(s)


def test_F5_no_transfer_after_a_cover():
    s = state(["6S 6C 9C", "6D 7S KH AD"], trump="H", rules="transfer")
    s = after(s, "6S,6C")
    s = after(s, "6S/7S")
    assert not any(m.startswith(">") for m in moves(s))


def test_R14_transfer_by_trump_show_once_per_bout():
    s = state(["6S 9C 6D", "6H 7D KH", "AS KS QS"], trump="H",
              rules="transfer,transfer_by_trump_show")
    s = after(s, "6S")
    assert ">!6H" in moves(s)
    s = after(s, ">!6H")
    assert s.attacker == 1 and s.defender == 2
    assert s.hands[1] == cards("6H 7D KH")  # the shown trump is kept


def test_R14_transfer_bounded_by_six_attack_cards():
    s = state(["6S 6C 6D", "6H 7D KH", "AS KS QS JS TS 9S 8S"], trump="D",
              rules="transfer", cap=2)
    s = after(s, "6S,6C")
    assert not any(m.startswith(">") for m in moves(s))


# ----------------------------------------------------------------- R15-R18
def test_R15_success_discards_and_defender_leads():
    s = state(["6S 9C", "8S 7D"], trump="H")
    s = after(s, "6S", "6S/8S")
    assert s.phase is Phase.LEAD and s.attacker == 1 and s.defender == 0
    assert s.out == cards("6S 8S")


def test_R16_take_adds_table_to_hand_covers_included():
    s = state(["6S 6D 9C", "7S 8C"], trump="H")
    s = after(s, "6S", "6S/7S", "+6D", "take")
    # the limit (two cards) is reached: the defender picks up attack and cover cards
    assert s.phase is Phase.LEAD
    assert s.hands[1] == cards("8C 6S 7S 6D")
    assert s.attacker == 0   # R18, two players: the same attacker leads again


def test_R17_drawing_order_and_face_up_trump_last():
    s = state(["6S 7S 8S 9S TS JS", "7D 8D 9D TD JD QD", "7C 8C 9C TC JC QC"],
              trump="H", pile=["AS", "KS", "QS", "AH"])
    s = after(s, "6S", "6S/AH" if False else "take")
    s = after(s, "pass") if s.phase is not Phase.LEAD else s
    # attacker (seat 1) draws first: one card (AS); seat 3 needs none; the defender
    # drew nothing (7 cards). Then nothing else changes.
    assert s.hands[0] == cards("7S 8S 9S TS JS AS")
    assert s.pile == 3


def test_R17_defender_draws_last_gets_face_up_trump():
    s = state(["6S 7S 9D TD JD QD", "8S 9C"], trump="H", pile=["AS", "KH"])
    s = after(s, "6S", "6S/8S")
    # attacker draws first (AS), the defender last gets the face-up KH
    assert s.hands[0] == cards("7S 9D TD JD QD AS")
    assert s.hands[1] == cards("9C KH")
    assert s.pile == 0 and s.trump_card == -1


def test_R18_next_attacker_after_take_two_players():
    s = state(["6S 9C", "8C 7D"], trump="H", pile=["AS", "KS", "QH"])
    s = after(s, "6S", "take")
    assert s.attacker == 0 and s.defender == 1


def test_R18_next_attacker_after_take_three_players():
    s = state(["6S 9C", "8C 7D", "AC KC"], trump="H", pile=["AS", "KS", "QH"])
    s = after(s, "6S", "take")
    assert s.attacker == 2 and s.defender == 0


def test_F8_leader_after_take_skips_seat_that_went_out():
    s = state(["6S", "8C 7D", "6D", "AC KC"], trump="H")
    s = after(s, "6S", "take")
    # seat 3 is asked in P4 and throws his last card: he has gone out
    s = after(s, "+6D")
    assert s.phase is Phase.LEAD
    assert s.attacker == 3 and s.defender == 1   # seat 1 went out too (played his only card)


# ----------------------------------------------------------------- R19, R20
def test_R19_no_going_out_while_pile_has_cards():
    s = state(["6S", "8S 7D"], trump="H", pile=["AS", "KH"])
    s = after(s, "6S", "6S/8S")
    assert not s.is_over
    assert s.hands[0] == cards("AS KH") and s.hands[1] == cards("7D")


def test_R20_last_player_with_cards_is_durak():
    s = state(["6S", "8S 7D"], trump="H")
    s = after(s, "6S", "6S/8S")
    assert s.is_over and s.outcome() == (1, -1)


def test_R20_draw_when_both_go_out_in_the_same_bout():
    s = state(["6S", "8S"], trump="H")
    s = after(s, "6S", "6S/8S")
    assert s.is_over and s.outcome() == (0, 0)


def test_R20_three_players_game_goes_on_until_one_left():
    s = state(["6S", "8S 7D", "9C TC"], trump="H")
    s = after(s, "6S", "6S/8S")
    assert not s.is_over
    assert s.attacker == 1 and s.defender == 2


def test_F7_player_out_mid_bout_is_skipped_by_transfer():
    s = state(["6S 9C", "6D", "AS KS", "QS JS TC"], trump="H", rules="transfer")
    s = after(s, "6S")
    assert ">6D" in moves(s)
    s = after(s, ">6D")
    assert s.attacker == 1 and s.defender == 2


# -------------------------------------------------------------------- R21
def test_R21_first_out_wins():
    s = state(["6S", "8S 7D", "9C TC"], trump="H", rules="first_out_wins")
    s = after(s, "6S", "6S/8S")
    assert s.is_over and s.outcome() == (1, -1, -1)


# -------------------------------------------------------------------- R22
def test_R22_partners_never_attack_each_other():
    s = state(["6S 7S", "8C 9C", "6D JD", "QC KC"], trump="H", rules="teams=2v2")
    assert s.defender == 1
    s = after(s, "6S", "take")
    # seat 3 is the attacker's partner and may throw in; seat 2's partner (4) may not
    assert s.throw_order() == [0, 2]


def test_R22_team_loses_when_only_it_holds_cards():
    s = state(["6S", "8S 9D", "-" if False else "", "QC"], trump="H", rules="teams=2v2")
    s = s.replace(hands=(cards("6S"), cards("8S 9D"), 0, cards("QC")))
    s = after(s, "6S", "6S/8S")
    assert s.is_over
    assert s.outcome() == (1, -1, 1, -1)


# -------------------------------------------------------------------- R7
def test_R7_trump_swap():
    s = state(["6H 9C", "8S 7D"], trump="H", pile=["AS", "KH"], rules="trump_swap")
    assert "swap" in moves(s)
    s = after(s, "swap")
    assert s.hands[0] == cards("KH 9C") and s.trump_card == __import__("solver").parse_card("6H")
    assert "swap" not in moves(s)


# -------------------------------------------------------------------- R1 decks
def test_R1_deck24_and_deck52_games_deal():
    from solver import parse_rules
    g24 = new_game(4, rules=parse_rules("deck=24"), seed=1)
    assert g24.pile == 0
    g52 = new_game(2, rules=parse_rules("deck=52"), seed=1)
    assert g52.pile == 40


def test_game_over_has_no_moves():
    s = state(["", "8S"], trump="H")
    assert s.is_over and legal_moves(s) == []


# ---------------------------------------------------------------- P4, F3, F7, F11
# After a take under throw_in=neighbours, a thrower who plays his last card with
# the pile empty goes out; the seats that passed before him are not asked again
# (P4, F3), and a seat that has just become the defender's neighbour is (F7, F11).
NEIGHBOURS_3P = ("trump S; hands KD | 7C 8C 9C | KC; table KS; attacker 1; take; turn 3; "
                 "rules throw_in=neighbours")
NEIGHBOURS_4P = ("trump S; hands KD | 7C 8C 9C 9D | KC | KH; table KS; attacker 1; take; "
                 "turn 3; rules throw_in=neighbours")


def _after_throw(text: str, move: str):
    s = parse_position(text).state
    m = next(m for m in legal_moves(s) if str(m) == move)
    return s, play(s, m)


def test_P4_F3_a_seat_that_passed_is_not_asked_again_when_the_thrower_goes_out():
    _, after = _after_throw(NEIGHBOURS_3P, "+KC")
    # seat 1 has passed: the bout ends and seat 2 picks up KS and KC
    assert not after.table and after.hand_size(1) == 5
    assert after.attacker == 0  # R18: the seat after the taker (seat 3 is out) leads


def test_F7_F11_the_new_neighbour_is_asked_when_the_thrower_goes_out():
    _, after = _after_throw(NEIGHBOURS_4P, "+KC")
    assert after.table and after.to_move == 3  # seat 4, not seat 1


def test_F7_the_core_agrees_after_the_thrower_goes_out():
    for text in (NEIGHBOURS_3P, NEIGHBOURS_4P):
        before, after = _after_throw(text, "+KC")
        st = Solver(tt_mb=1).core_state(before)
        i = [move_text(m) for m in st.moves()].index("+KC")
        core_after = st.play(i)
        assert core_after.to_move() == after.to_move
        assert sorted(move_text(m) for m in core_after.moves()) == sorted(
            str(m) for m in legal_moves(after))


def test_F7_analyse_values_the_throw_as_the_rules_play_it():
    res = analyse(NEIGHBOURS_4P, hero=1)
    by = {m.move: m.value for m in res.moves}
    assert by["+KC"] == Value.LOSS  # seat 4 throws KH next; seat 1 is left the durak


# ---------------------------------------------------------------------- F15
# Under throw_in=neighbours, when a neighbour of the defender goes out mid-bout
# (F7) the next active seat on that side becomes a neighbour at once (F11) and is
# asked in R12 order like any thrower who has not passed (P3, P4, F3); the bout
# does not end before he has passed or cannot add (F2).  He has not passed merely
# because seats before him did.  Issue 51, item 10: seat 2 led his last card, so
# seat 1 is seat 3's neighbour; seats 2 and 4 (9D) cannot add and seat 1 is asked.
# When he throws his last card, seat 5 -- before him in R12 order -- becomes the
# neighbour; nobody has asked him.
F15_P4 = ("trump S; hands KD | - | 7C 8C 9C | 9D | KH; table KS; attacker 2; take; turn 1; "
          "rules throw_in=neighbours")
# the same in P3: seat 3 has covered KS; seat 1 throws his last card, seat 3 covers
# it, and the next round of asking reaches seat 5
F15_P3 = ("trump S; hands KD | - | AD 7C 8C | 9D | KH; table KS/AS; attacker 2; turn 1; "
          "rules throw_in=neighbours")


def _core_after(text: str, *move_texts: str):
    """The core's state after the moves, and the rules engine's."""
    s = parse_position(text).state
    cs = Solver(tt_mb=1).core_state(s)
    for t in move_texts:
        cs = cs.play([move_text(m) for m in cs.moves()].index(t))
        s = after(s, t)
    return cs, s


def test_F15_P4_the_new_neighbour_before_the_thrower_is_asked_when_he_goes_out():
    _, s = _after_throw(F15_P4, "+KD")
    assert s.hand_size(0) == 0 and s.throw_order() == [1, 3, 4]
    # the bout goes on, still taken, and seat 5 is asked
    assert s.phase is Phase.TAKEN and s.take and s.to_move == 4
    assert moves(s) == ["+KH", "pass"]
    # a pass ends it: seat 3 picks up KS KD, seat 4 leads (R18)
    done = after(s, "pass")
    assert not done.table and done.hands[2] == cards("7C 8C 9C KS KD") and done.attacker == 3
    # a throw-in is his last card too: nobody is left to ask
    done = after(s, "+KH")
    assert not done.table and done.hands[2] == cards("7C 8C 9C KS KD KH") and done.attacker == 3


def test_F15_P4_the_core_asks_the_new_neighbour_too():
    cs, s = _core_after(F15_P4, "+KD")
    assert cs.to_move() == s.to_move == 4
    assert [move_text(m) for m in cs.moves()] == moves(s) == ["+KH", "pass"]
    for t in ("pass", "+KH"):
        cs2, s2 = _core_after(F15_P4, "+KD", t)
        assert cs2.fields()["hands"] == s2.hands and cs2.fields()["attacker"] == s2.attacker


def test_F15_P4_the_game_is_not_scored_before_the_new_neighbour_is_asked():
    # first_out_wins: seats 2 and 1 have gone out in this bout, so it ends the game;
    # seat 5 may still throw KH in, go out in the same bout and share the win (R21)
    text = F15_P4.replace("throw_in=neighbours", "throw_in=neighbours,first_out_wins")
    _, s = _after_throw(text, "+KD")
    assert not s.is_over and s.to_move == 4
    assert after(s, "pass").outcome() == (0, 0, -1, -1, -1)
    assert after(s, "+KH").outcome() == (0, 0, -1, -1, 0)
    # the solver values the throw as the rules play it (S2a: for the hero, seat 5)
    by = {m.move: m.value for m in analyse(text, hero=5).moves}
    assert by == {"+KD": Value.DRAW, "pass": Value.LOSS}


def test_F15_P4_a_new_neighbour_who_cannot_add_is_not_asked():
    # F2: with 9H instead of KH seat 5 cannot add; the bout ends, as in the core
    text = F15_P4.replace("| KH;", "| 9H;")
    cs, s = _core_after(text, "+KD")
    assert not s.table and s.hands[2] == cards("7C 8C 9C KS KD") and s.attacker == 3
    assert cs.fields()["hands"] == s.hands and cs.to_move() == s.to_move == 3


def test_F15_P3_the_new_neighbour_is_asked_in_the_next_round():
    s = parse_position(F15_P3).state
    assert s.to_move == 0 and moves(s) == ["+KD", "pass"]
    s = after(s, "+KD")
    assert s.phase is Phase.DEFEND and s.hand_size(0) == 0
    covered = after(s, "KD/AD")
    assert covered.phase is Phase.THROW and covered.to_move == 4
    assert moves(covered) == ["+KH", "pass"]
    # a take after the throw-in: P4 asks from the main attacker on, seat 5 too
    taken = after(s, "take")
    assert taken.phase is Phase.TAKEN and taken.to_move == 4 and moves(taken) == ["+KH", "pass"]
    for path in (("+KD", "KD/AD"), ("+KD", "take")):
        cs, s2 = _core_after(F15_P3, *path)
        assert cs.to_move() == s2.to_move == 4
        assert [move_text(m) for m in cs.moves()] == moves(s2)


def test_F15_four_players_the_seat_behind_the_attacker_joins_when_he_goes_out():
    # seat 1 (the main attacker) throws his last card; seat 4 becomes seat 2's
    # neighbour, after him in R12 order; seat 3 (6H) cannot add
    text = ("trump S; hands KD | 7C 8C 9C 9D | 6H | KH; table KS; attacker 1; take; "
            "rules throw_in=neighbours")
    cs, s = _core_after(text, "+KD")
    assert s.throw_order() == [0, 2, 3] and s.to_move == cs.to_move() == 3
    assert moves(s) == ["+KH", "pass"]


def test_F15_three_players_have_no_new_neighbour():
    # with three players the defender's neighbours are the two other seats: under
    # throw_in=neighbours the active throwers are those of the default rules, and
    # one going out brings nobody new (NEIGHBOURS_3P: seat 1 passed, the bout ends)
    rules = parse_rules("throw_in=neighbours")
    for seed in range(20):
        s = new_game(3, rules, seed=seed)
        rng = random.Random(seed)
        while not s.is_over:
            if s.table:
                everyone = s.replace(rules=Rules()).throw_order()
                assert s.throw_order() == everyone or (
                    [x for x in s.throw_order() if s.active(x)]
                    == [x for x in everyone if s.active(x)])
            s = play(s, rng.choice(legal_moves(s)))


def test_F15_teams_the_new_neighbour_is_the_defenders_partner():
    # teams=2v2: seat 1 throws his last card; the seat beyond him on that side is
    # seat 4, the defender's partner, who never throws in (R22): nobody joins
    text = ("trump S; hands KD | 7C 8C 9C 9D | 6H | KH; table KS; attacker 1; take; "
            "rules throw_in=neighbours,teams=2v2")
    cs, s = _core_after(text, "+KD")
    assert not s.table and s.hands[1] == cards("7C 8C 9C 9D KS KD") and s.hands[3] == cards("KH")
    assert cs.fields()["hands"] == s.hands
