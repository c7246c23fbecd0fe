"""A line the game prompt refuses, answered at the table's words (issue 69): the player
is "you", a typo at another seat's prompt gets the nearest moves as one at your own does,
a throw-in of the wrong rank says which ranks may be thrown in, and examples name only
cards that fit -- in English, Lithuanian and Russian."""
from __future__ import annotations

import io

import pytest

from solver.errors import DurakError
from solver.game.cards import card_name, cards_of, parse_card
from solver.games.session import GameSession
from solver.i18n import use_language

#: Seat 1 holds 6S 7S KH 8C 9C AC; seat 2 leads the first bout (trump hearts, 9H face up).
DEAL = ("9H", "6S 7S KH 8C 9C AC")


def session() -> GameSession:
    return GameSession.follow(2, *DEAL, me=1, attacker=2)


def two_to_draw() -> GameSession:
    """Seat 1 beats off 6D, draws 7H, leads 7S,7H, seat 2 takes: seat 1 drew two cards."""
    s = session()
    for line in ("6D", "KH", "2:pass", "7h", "7S,7H", "2:take"):
        s.enter(line)
    assert s.turn().draw_due == 2
    return s


def refused(s: GameSession, line: str) -> str:
    with pytest.raises(DurakError) as e:
        s.enter(line)
    return str(e.value)


def at_the_prompt(s: GameSession, lines: list[str], monkeypatch) -> str:
    """What the prompt of `durak game` says to ``lines`` (a pipe: cards in the notation)."""
    from solver.cli.prompt import GamePrompt

    feed = iter([x + "\n" for x in lines] + ["quit\n"])

    class Stdin(io.StringIO):
        def isatty(self) -> bool:
            return False

        def readline(self, *args: object) -> str:
            return next(feed, "")

    out: list[str] = []
    monkeypatch.setattr("sys.stdin", Stdin())
    monkeypatch.setattr("sys.stdout", io.StringIO())
    monkeypatch.delenv("DURAK_CARDS", raising=False)
    assert GamePrompt(s, "game", out=lambda x: out.append(str(x))).run() == 0
    return "\n".join(out)


@pytest.mark.parametrize("lang, both, one", [
    ("en", "you drew 2 cards; name both", "first name the 2 cards you drew (R17)"),
    ("lt", "ištraukėte 2 kortas; nurodykite abi", "pirmiausia nurodykite 2 ištrauktas kortas"),
    ("ru", "вы добрали 2 карты; назовите обе", "сначала назовите 2 добранные карты"),
])
def test_a_draw_of_the_wrong_size_says_how_many_you_drew(lang, both, one):
    """Not "seat 1 drew 2 unseen card(s) here, the record names 1": the player drew, the
    player names them; a move before the draw is asked to wait for it."""
    s = two_to_draw()
    with use_language(lang):
        assert refused(s, "8D") == both
        assert refused(s, "8D 9D TD") == both
        assert refused(s, "draw 8D") == both
        assert refused(s, "8C").startswith(one)  # a card of his hand: a move, too soon
    assert s.turn().draw_due == 2


@pytest.mark.parametrize("lang, gone, twice", [
    ("en", "you cannot have drawn 6D: it was discarded", "8D is named twice"),
    ("ru", "6D вы добрать не могли: она ушла в отбой", "8D названа дважды"),
])
def test_a_drawn_card_that_cannot_be_is_said_where_it_is(lang, gone, twice):
    """A card named as drawn that went to the discards, or named twice: said as at the
    table, without the record's "move 5 draw '...':" in front."""
    s = two_to_draw()
    with use_language(lang):
        assert refused(s, "6D 8D") == gone
        assert refused(s, "8D 8D") == twice


def test_examples_name_only_cards_you_have_not_seen():
    """What to type is shown with cards that fit: never one in your hand or one gone
    (the discards, the table); a lead of two is a pair of one rank."""
    from solver.games.readings import examples, unseen

    s = two_to_draw()
    view = s.state
    mask = unseen(view)
    for n in (1, 2, 6):
        shown = examples(view, n)
        assert len(shown) == n and all(mask >> parse_card(c) & 1 for c in shown)
    pair = examples(view, 2, pair=True)
    assert len(pair) == 2 and pair[0][0] == pair[1][0]
    gone = {card_name(c) for c in cards_of(view.out | view.hands[0] | view.hands[1])}
    assert {"6D", "KH", "6S", "8C"} <= gone
    assert not gone & set(examples(view, 12))
    with pytest.raises(DurakError, match="e.g. `KD TS`"):
        s.enter("8C")
    s2 = session()
    for line in ("6D", "KH", "2:pass"):
        s2.enter(line)
    with pytest.raises(DurakError, match="e.g. `7H`"):  # 7H not seen yet: an example
        s2.enter("6S")


@pytest.mark.parametrize("lang, near", [
    ("en", "'6x' is not a move: did you mean 6H, 6D or 6C?"),
    ("lt", "'6x' – ne ėjimas: gal turėjote omenyje 6H, 6D arba 6C?"),
    ("ru", "'6x' — это не ход: может быть, 6H, 6D или 6C?"),
])
def test_a_typo_at_another_seats_prompt_gets_the_nearest_moves(lang, near, monkeypatch):
    """`6x` at seat 2's prompt (its hand unseen) is answered as a typo at your own is:
    the moves it could make that are nearest -- not 6S, which you hold -- instead of the
    parser's three layers ("bad move '6x': unknown card '6x': bad suit 'X'")."""
    with use_language(lang):
        said = at_the_prompt(session(), ["6x"], monkeypatch)
    assert near in said
    assert "bad move" not in said and "6S?" not in said


@pytest.mark.parametrize("lang, words", [
    ("en", ("of rank 6 or K", "8C cannot be thrown in: only cards of the ranks on the table "
                              "may be (6 or K)")),
    ("lt", ("vertė 6 arba K", "8C negalima pridėti: pridedamos tik tos vertės kortos, kurios "
                              "jau yra ant stalo (6 arba K)")),
    ("ru", ("достоинство 6 или К", "8C подкинуть нельзя: подкидывают только карты "
                                   "достоинств, что уже на столе (6 или К)")),
])
def test_a_throw_in_of_the_wrong_rank_says_which_ranks_may_be_thrown_in(lang, words,
                                                                          monkeypatch):
    """At seat 2's throw-in prompt: the ranks on the table in the player's letters and
    without an article ("a 8"); `+8C` is refused with the ranks that may be thrown in,
    not "illegal move '+8C' here (legal: pass (of its known cards))"."""
    s = session()
    s.enter("6D")
    s.enter("KH")
    with use_language(lang):
        said = at_the_prompt(s, ["+8C"], monkeypatch)
    expect, refusal = words
    assert expect in said and refusal in said, said
    assert "illegal move" not in said and "(a " not in said
