"""What a player reads and types (issue 61): one card notation for people that reads
back (10♠, 7♥/A♥; ASCII TS for files and pipes), the prompt's answers to typos and
to cards not held, the record of a game against the engine with the engine's cards
face down until it ends, rule ids only under --verbose."""
from __future__ import annotations

import io
import random
import re

import pytest

from solver.cli.suggest import answer, distance, may, nearest
from solver.errors import DurakError, RecordError
from solver.game.cards import DECK_LOW_RANK, card_name, cards_of, deck_mask, parse_card
from solver.game.deal import new_game
from solver.game.movegen import legal_moves, play
from solver.game.moves import Move
from solver.game.rules import parse_rules
from solver.games import Game
from solver.games.seal import seal, unseal
from solver.games.session import OnlyMove
from solver.play.seats import GameSession
from solver.notation.people import (card_text, drop_rule_ids, move_text, people_text,
                                    symbols_wanted)


# ------------------------------------------------------------------ cards and moves
@pytest.mark.parametrize("deck", [24, 36, 52])
def test_every_card_reads_back_from_both_forms_and_the_ways_people_type_it(deck):
    for c in cards_of(deck_mask(deck)):
        people, ascii_ = card_text(c), card_text(c, symbols=False)
        assert ascii_ == card_name(c) and parse_card(people, deck) == c
        assert parse_card(ascii_, deck) == c and parse_card(ascii_.lower(), deck) == c
        if ascii_[0] == "T":
            assert people.startswith("10") and parse_card("10" + ascii_[1], deck) == c
    assert card_text(parse_card("TS")) == "10♠" and card_text(parse_card("ah")) == "A♥"


@pytest.mark.parametrize("seed,players,rules", [(1, 2, ""), (2, 3, "transfer"),
                                                (3, 2, "trump_swap,transfer_by_trump_show"),
                                                (4, 4, "deck=52")])
def test_every_move_of_random_games_reads_back_from_the_people_form(seed, players, rules):
    """Over random games, every legal move written for people parses to the same move,
    and people_text turns a line of moves into that form and back to ASCII."""
    rng = random.Random(seed)
    state = new_game(players, parse_rules(rules), seed=seed)
    deck = state.rules.deck
    seen = 0
    while not state.is_over:
        moves = legal_moves(state)
        for m in moves:
            shown = move_text(m)
            assert Move.parse(shown, deck) == m and Move.parse(move_text(m, False), deck) == m
            assert move_text(str(m)) == shown and f"3:{shown}" == move_text(f"3:{m}")
            seen += 1
        line = " ".join(str(m) for m in moves)
        assert people_text(line) == " ".join(move_text(m) for m in moves)
        assert people_text(people_text(line), symbols=False) == line
        state = play(state, rng.choice(moves))
    assert seen > 50


def test_people_text_leaves_words_and_rule_ids_alone():
    assert people_text("JSON PASS R17 7C is seen; TS/AS, 2:+8C") == \
        "JSON PASS R17 7♣ is seen; 10♠/A♠, 2:+8♣"
    assert people_text("10♠ and 7♣/A♣", symbols=False) == "TS and 7C/AC"


@pytest.mark.parametrize("text,plain", [
    ("seat 2 is the durak (R20)", "seat 2 is the durak"),
    ("first the 2 card(s) seat 1 drew (R17), e.g. `7H KD`", "first the 2 card(s) seat 1 drew, e.g. `7H KD`"),
    ("draw: nobody holds cards (R20-R22)", "draw: nobody holds cards"),
    ("Who leads the first bout (the lowest trump, R6; 1-2)", "Who leads the first bout (the lowest trump; 1-2)"),
    ("the game is over: no move may follow (R20); `undo`", "the game is over: no move may follow; `undo`"),
    ("a cover (P2, F3) of 7S (seven)", "a cover of 7S (seven)"),
])
def test_rule_ids_leave_a_players_message(text, plain):
    assert drop_rule_ids(text) == plain


def test_symbols_only_where_they_can_be_shown(monkeypatch):
    class Tty(io.StringIO):
        def __init__(self, encoding: str):
            super().__init__()
            self._enc = encoding

        @property
        def encoding(self) -> str:  # type: ignore[override]
            return self._enc

        def isatty(self) -> bool:
            return True

    monkeypatch.delenv("DURAK_CARDS", raising=False)
    assert symbols_wanted(Tty("utf-8")) and not symbols_wanted(Tty("latin-1"))
    assert not symbols_wanted(io.StringIO()) and not symbols_wanted(None)  # a pipe, a file
    monkeypatch.setenv("DURAK_CARDS", "ascii")
    assert not symbols_wanted(Tty("utf-8"))
    monkeypatch.setenv("DURAK_CARDS", "symbols")
    assert symbols_wanted(io.StringIO())


# ------------------------------------------------------------------ typos
DEFEND = ["6C/AC", "6C/KC", "take"]
THROW = ["+TS", "+JD", "pass"]
LEAD = ["6H", "7H", "7D", "7H,7D", "AD"]
#: (typed, the legal moves -- None: another seat's turn --, what the prompt answers)
TYPOS = [
    ("tkae", DEFEND, "'tkae' is not a move: did you mean take?"),
    ("teke", DEFEND, "'teke' is not a move: did you mean take?"),
    ("paas", THROW, "'paas' is not a move: did you mean pass?"),
    ("pas", THROW, "'pas' is not a move: did you mean pass?"),
    ("paas", DEFEND, "pass is not a move now; you may cover 6♣ with A♣ or K♣, or take"),
    ("hnit", DEFEND, "'hnit' is not a move: did you mean hint?"),
    ("atuo", DEFEND, "'atuo' is not a move: did you mean auto?"),
    ("udno", DEFEND, "'udno' is not a move: did you mean undo?"),
    ("reveiw", LEAD, "'reveiw' is not a move: did you mean review?"),
    ("ace", DEFEND, "'ace' is not a move: did you mean 6♣/A♣?"),
    ("ace", LEAD, "'ace' is not a move: did you mean A♦?"),
    ("sevens", LEAD, "'sevens' is not a move: did you mean 7♥, 7♦ or 7♥,7♦?"),
    ("6c/ad", DEFEND, "you don't hold A♦; you may cover 6♣ with A♣ or K♣, or take"),
    ("6c/kh", DEFEND, "6♣/K♥ does not beat; you may cover 6♣ with A♣ or K♣, or take"),
    ("2:take", DEFEND, "it is seat 1's turn; you may cover 6♣ with A♣ or K♣, or take"),
    ("10ss", THROW, "'10ss' is not a move: did you mean +10♠?"),
    ("+jdd", THROW, "'+jdd' is not a move: did you mean +J♦?"),
    ("zz", DEFEND, "'zz' is not a move; you may cover 6♣ with A♣ or K♣, or take"),
    ("tkae", None, "'tkae' is not a move: did you mean take?"),
    ("pss", None, "'pss' is not a move: did you mean pass?"),
    ("6S", DEFEND, None),  # only cards the session refused for its own reason
    ("AC", ["6C/AC", "7C/AC"], "'A♣' can mean 1:6♣/A♣ or 1:7♣/A♣: type the one you mean"),
]


#: The session's refusal of each of those it refuses for a reason of its own.
REFUSED = {"6c/ad": "you don't hold AD", "6c/kh": "6C/KH does not beat",
           "2:take": "it is seat 1's turn", "6S": "x",
           "AC": "'AC' can mean 1:6C/AC or 1:7C/AC: type the one you mean"}


@pytest.mark.parametrize("typed,moves,said", TYPOS)
def test_a_typo_gets_its_nearest_legal_reading(typed, moves, said):
    got = answer(typed, REFUSED.get(typed, "x"), moves)
    if said is None:
        assert got == "x; you may cover 6♣ with A♣ or K♣, or take"
    else:
        assert got == said


def test_the_edit_distance_counts_a_swap_as_one():
    assert distance("tkae", "take") == 1 and distance("take", "take") == 0
    assert distance("pas", "pass") == 1 and distance("hint", "undo") == 4
    assert nearest("qqqq", ["take"]) == []


def test_what_you_may_do_in_words():
    assert may(THROW) == "throw in 10♠ or J♦, or pass"
    assert may(LEAD) == "lead 6♥, 7♥, 7♦, 7♥ 7♦ or A♦"
    assert may(["6C/AC", "7C/AC", "take", ">6H"]) == \
        "cover 6♣ with A♣, cover 7♣ with A♣, take or transfer with 6♥"
    assert may(THROW, symbols=False) == "throw in TS or JD, or pass"


def test_a_card_you_do_not_hold_is_said_so_without_telling_where_it_is():
    """Against the engine, a card in the pile or in the engine's hand is only "not
    yours": the session says so (no "still in the pile"), the prompt adds the moves."""
    s = GameSession.new(2, seed=5, engine="greedy")
    while s.engine_to_move:
        s.engine_move()
    mine = s.state.hands[0]
    elsewhere = next(c for c in cards_of(deck_mask(36)) if not (mine | s.state.table_mask) >> c & 1)
    name = card_name(elsewhere)
    for typed in (name, f"+{name}", f"6C/{name}"):
        with pytest.raises(DurakError) as e:
            s.enter(typed)
        assert str(e.value) == f"you don't hold {name}"
    said = answer(name, str(e.value), list(s.turn().moves))
    assert said.startswith(f"you don't hold {card_text(elsewhere)}; you may ")
    assert "pile" not in said and "seat 2" not in said


def test_a_hint_with_one_legal_move_answers_at_once():
    s = GameSession.new(2, seed=5, engine="greedy")
    rng = random.Random(0)
    while not s.is_over:
        if s.engine_to_move:
            s.engine_move()
            continue
        moves = s.turn().moves
        if len(moves) == 1:
            res = s.hint(samples=4)
            assert isinstance(res, OnlyMove) and res.best == moves[0]
            assert res.to_json()["moves"] == [{"move": moves[0]}]
            return
        s.enter(rng.choice(moves))
    pytest.fail("no turn with one legal move in this game")
# ------------------------------------------------------------------ the record face down
def test_the_engines_cards_stay_face_down_in_the_record_until_the_game_ends(tmp_path):
    path = tmp_path / "p.txt"
    s = GameSession.new(2, seed=11, engine="greedy", path=path)
    engine_deal = " ".join(card_name(c) for c in cards_of(s.game.deals[1]))
    pile = " ".join(card_name(c) for c in s.game.pile)
    rng = random.Random(1)
    while not s.is_over:
        text = path.read_text()
        assert "sealed " in text and engine_deal not in text and pile not in text
        assert not re.search(r"^(deal 2|pile)\b", text, re.M)
        assert f"deal 1 {' '.join(card_name(c) for c in cards_of(s.game.deals[0]))}" in text
        again = Game.parse(text)  # reads, resumes and reviews as a plain record
        assert again.format() == s.game.format() and again.final == s.state
        s.engine_move() if s.engine_to_move else s.enter(rng.choice(s.turn().moves))
    text = path.read_text()
    assert "sealed" not in text and f"deal 2 {engine_deal}" in text and f"pile {pile}" in text
    s.close()


def test_a_broken_seal_is_a_record_error():
    s = GameSession.new(2, seed=2, engine="greedy")
    text = s.record_text()
    assert unseal(text) != text and seal(unseal(text)) == text
    with pytest.raises(RecordError, match="sealed"):
        Game.parse(re.sub(r"sealed \S+", "sealed abc$%", text))
    followed = GameSession.follow(2, "9H", "6S 7S KH 8C 9C AC", me=1, attacker=2)
    assert seal(followed.record_text()) == followed.record_text()  # nothing to hide


# ------------------------------------------------------------------ at the prompt
@pytest.mark.parametrize("verbose", [False, True])
def test_the_prompt_tells_the_game_and_answers_a_typo(monkeypatch, verbose):
    """`durak game` fed lines on a pipe: each entry told (ASCII on a pipe), a typo
    answered with its nearest reading and nothing entered, the rule ids only under
    --verbose."""
    from solver.cli.prompt import GamePrompt

    s = GameSession.follow(2, "9H", "6S 7S KH 8C 9C AC", me=1, attacker=2)
    lines = iter(["6D\n", "tkae\n", "KH\n", "\n", "7h\n", "hnit\n", "quit\n"])

    class Stdin(io.StringIO):
        def isatty(self) -> bool:
            return False

        def readline(self, *args: object) -> str:
            return next(lines, "")

    out: list[str] = []
    monkeypatch.setattr("sys.stdin", Stdin())
    monkeypatch.setattr("sys.stdout", io.StringIO())
    monkeypatch.delenv("DURAK_CARDS", raising=False)
    code = GamePrompt(s, "game", out=lambda x: out.append(str(x)), verbose=verbose).run()
    assert code == 0
    said = "\n".join(out)
    for line in ("Seat 2 leads 6D", "'tkae' is not a move: did you mean take?",
                 "You cover 6D with KH", "Seat 2: done", "Beaten off by you: 6D KH to the discards",
                 "Seat 2 draws 1 card", "You draw 7H", "You lead against seat 2",
                 "'hnit' is not a move: did you mean hint?"):
        assert line in [x.strip() for x in out], (line, said)
    assert s.entries == ["2:6D", "1:6D/KH", "2:pass", "draw 7H"]
    assert ("(R17)" in said) == verbose
