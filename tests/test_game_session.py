"""The game-session model (solver/games/session.py): entries, undo, reload, the moves
a player types, the draws it asks for, the engine's seats, and hints that the review
never marks down."""
from __future__ import annotations

import functools
import random
import re

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from solver.errors import DurakError
from solver.game.cards import card_name, cards_of
from solver.game.deal import new_game
from solver.game.rules import parse_rules
from solver.games import Game
from solver.games.readings import split_entries
from solver.games.review import review
from solver.hints import HintResult
from solver.play.match import play_game
from solver.play.seats import GameSession
from solver.policy.bots import GreedyPolicy

RULES = ["", "transfer", "throw_in=neighbours", "trump_swap,transfer_by_trump_show",
         "first_out_wins", "deck=24", "first_bout_limit=5", "teams=2v2"]


def full_game(seed: int, players: int = 2, rules: str = "") -> Game:
    """A whole game of greedy players, as a full record."""
    start = new_game(players, parse_rules(rules), seed=seed)
    _, moves, _, _, _ = play_game([GreedyPolicy()] * players, start,
                                  [random.Random(seed)] * players)
    return Game.from_play(start, moves)


def follow_from(game: Game, seat: int, path=None) -> GameSession:
    """A followed game from ``seat`` with the header of ``game`` and no moves yet."""
    return GameSession(game.for_seat(seat).with_tokens([]), path)


def lenient(token: str, session: GameSession) -> str:
    """How a player types ``token``: the drawn cards alone; a move of the seat to move
    without its seat, a throw-in without its ``+``, a cover without the attack card."""
    if token.startswith("draw "):
        return token[5:]
    seat, move = token.split(":", 1)
    if int(seat) != session.turn().seat:
        return token
    if move.startswith("+"):
        return move[1:]
    if "/" in move:
        return move.split("/")[1]
    return move


# ------------------------------------------------------------------ typing a game in
def type_in(s: GameSession, want: list[str], typed: list[str] | None = None) -> list[str]:
    """Type the seat's record ``want`` into ``s`` as a player at the prompt would:
    leniently (:func:`lenient`); with a pass for each seat asked to throw in whose
    hand he cannot see, before he names his drawn cards (Enter at the prompt:
    ``""`` in ``typed``); and not naming the face-up trump he drew (known to the
    session).  Returns the entries that should result; ``typed``, when given, gets
    each line as typed."""
    expected: list[str] = []
    typed = [] if typed is None else typed
    i = 0
    while i < len(want):
        t = s.turn()
        hidden_asked = t.phase in ("throw", "taken") and t.moves is None and not t.draw_due
        if want[i].startswith("draw ") and not t.draw_due:
            if hidden_asked:
                expected.extend(s.enter(f"{t.seat}:pass").entries)
                typed.append("")
            else:  # only the face-up trump, which the session knows was drawn
                i += 1
            continue
        if hidden_asked and not re.match(rf"{t.seat}:(\+|pass)", want[i]):
            expected.extend(s.enter(f"{t.seat}:pass").entries)  # he added nothing: Enter
            typed.append("")
            continue
        if want[i].startswith("draw "):  # the unseen ones (the face-up trump is known)
            assert 1 <= t.draw_due <= len(want[i].split()) - 1
        line = lenient(want[i], s)
        try:
            acc = s.enter(line)
        except DurakError as e:  # a bare trump that covers two cards: type the cover whole
            assert "can mean" in str(e) and want[i] in str(e)
            line = want[i]
            acc = s.enter(line)
        typed.append(line)
        assert list(acc.entries) == want[i:i + len(acc.entries)]
        expected.extend(acc.entries)
        i += len(acc.entries)
    return expected


@pytest.mark.parametrize("seed,players,rules", [(7, 2, ""), (8, 2, "transfer"),
                                                (9, 3, ""), (10, 4, "throw_in=neighbours")])
def test_a_followed_game_typed_leniently_saves_the_seats_record(tmp_path, seed, players, rules):
    """A whole greedy game followed from seat 1 -- its own moves typed bare, the
    others' with their seat, a pass for the hidden throwers asked, the draws when
    asked -- saves the seat's record (with those passes written out), on disk after
    every entry, and ends as the game did (R20)."""
    game = full_game(seed, players, rules)
    seat_record = game.for_seat(1)
    want = seat_record.tokens()
    path = tmp_path / "g.txt"
    s = follow_from(game, 1, path)
    expected = type_in(s, want)
    saved = Game.parse(path.read_text())
    assert saved.tokens() == s.entries == expected
    assert saved.final == seat_record.final
    assert s.is_over and s.outcome["scores"] == list(game.outcome())


def test_drawn_cards_are_asked_for_before_anything_else():
    """R17: when a bout ends while the pile has cards, the asking seat's unseen drawn
    cards must be named first; they may be typed alone."""
    s = GameSession.follow(2, "9H", "6S 7S KH 8C 9C AC", me=1, attacker=2)
    for line in ("6D", "KH", "pass"):
        s.enter(line)
    assert s.turn().draw_due == 1
    with pytest.raises(DurakError, match="first name the 1 card you drew"):
        s.enter("6S")
    assert s.enter("7h").entries == ("draw 7H",)
    assert s.turn().draw_due == 0 and s.turn().moves[0] == "6S"


def test_a_bare_card_is_the_one_move_it_can_be():
    """A card typed alone is a cover of the one attack card it beats (R2), or a
    throw-in (P3); where it beats two, the message names both and nothing changes."""
    s = GameSession.follow(2, "6H", "7H 8S 9S TS JS QS", me=2, attacker=1)
    s.enter("1:6S,6C")
    with pytest.raises(DurakError, match=r"can mean 2:6S/7H or 2:6C/7H"):
        s.enter("7H")
    assert s.entries == ["1:6S,6C"]
    assert s.enter("9S").entries == ("2:6S/9S",)
    t = GameSession.follow(2, "7H", "6S 6C 9S TS JS QS", me=1, attacker=1)
    t.enter("6S")
    t.enter("2:8S")  # seat 2's cover, typed without the attack card
    assert t.entries == ["1:6S", "2:6S/8S"]
    assert t.enter("6c").entries == ("1:+6C",)


def test_a_move_that_fits_nothing_says_why_and_changes_nothing():
    s = GameSession.follow(2, "9H", "6S 7S KH 8C 9C AC", me=1, attacker=2)
    s.enter("2:6D")
    with pytest.raises(DurakError, match="illegal move"):
        s.enter("7S")  # 7S beats no diamond (R2)
    with pytest.raises(DurakError, match="it is seat 1's turn"):
        s.enter("2:+6D")
    with pytest.raises(DurakError, match="not a move"):
        s.enter("cover it")
    assert s.entries == ["2:6D"]
    s.enter("KH")
    with pytest.raises(DurakError, match="KH is seen twice: it is on the table"):
        s.enter("2:+KH")
    assert s.entries == ["2:6D", "1:6D/KH"]


def test_hidden_throwers_passes_before_a_draw_are_entered_and_the_move_waits():
    """In a followed game a move of the next bout implies that the hidden throwers
    passed (P3); when that ends a bout after which the player draws, the passes are
    entered, the draw is asked for, and the move is played after it."""
    s = GameSession.follow(3, "9H", "6S 7S KH 8C 9C AC", me=1, attacker=1)
    s.enter("6S")
    s.enter("2:6S/TS")
    acc = s.enter("2:8S")
    assert acc.entries == ("3:pass",) and "name the 1 card" in acc.note
    assert s.turn().draw_due == 1
    acc = s.enter("QS")
    assert acc.entries == ("draw QS", "2:8S")
    assert s.undo() == "2:8S" and s.undo() == "draw QS"


def test_split_entries_cuts_a_line_as_a_record_writes_it():
    assert split_entries("1:6S 2:6S/AS 1:+AC 2:take draw 8H TS") == [
        "1:6S", "2:6S/AS", "1:+AC", "2:take", "draw 8H TS"]
    assert split_entries("7s 7h") == ["7s 7h"]
    assert split_entries("2:pass draw 7H  # a note") == ["2:pass", "draw 7H"]


# ------------------------------------------------------------------ undo and reload
@functools.lru_cache(maxsize=None)
def typed_game(seed: int, players: int) -> tuple[Game, list[str]]:
    """A greedy game and its entries as the prompt takes them from seat 1."""
    game = full_game(seed, players)
    whole = follow_from(game, 1)
    type_in(whole, game.for_seat(1).tokens())
    return game, whole.entries

@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])  # shrinking a game is slow
@given(seed=st.integers(0, 40), players=st.integers(2, 4),
       actions=st.lists(st.sampled_from(["next", "next", "next", "undo", "reload"]),
                        min_size=1, max_size=90))
def test_entries_undos_and_reloads_replay_to_the_saved_record(tmp_path_factory, seed, players,
                                                              actions):
    """Any sequence of entries, undos and reloads of a followed game leaves a record on
    disk that replays to the session's state, and an undo takes back exactly the last
    accepted entry of any kind (a move, a pass, a draw)."""
    path = tmp_path_factory.mktemp("rec") / "g.txt"
    game, want = typed_game(seed, players)
    s = follow_from(game, 1, path)
    states = [s.state]
    for a in actions:
        n = len(s.entries)
        if a == "next" and n < len(want):
            acc = s.enter(want[n])
            assert acc.entries == (want[n],)
            states.append(s.state)
        elif a == "undo" and n:
            assert s.undo() == want[n - 1]
            states.pop()
            assert s.state == states[-1]
        elif a == "reload":
            s.close()
            s = GameSession.load(path.read_text(), path)
        saved = Game.parse(path.read_text())
        assert saved.tokens() == s.entries == want[:len(s.entries)]
        assert saved.final == s.state
    s.close()


@settings(max_examples=15, deadline=None, suppress_health_check=[HealthCheck.too_slow],
          phases=[Phase.explicit, Phase.reuse, Phase.generate])
@given(seed=st.integers(0, 1_000), players=st.integers(2, 6), rules=st.sampled_from(RULES),
       actions=st.lists(st.sampled_from(["move", "move", "move", "undo", "reload"]),
                        min_size=1, max_size=120))
def test_games_against_the_engine_replay_and_undo_to_the_players_turn(tmp_path_factory, seed,
                                                                      players, rules, actions):
    """A game against the engine (every rules option, 2-6 players): the engine answers
    from its seat's view, the record saved after every move replays to the game,
    reloading goes on where it was, and `undo_turn` returns to the player's turn with
    the state he had there."""
    if "teams" in rules:
        players = 4
    path = tmp_path_factory.mktemp("rec") / "p.txt"
    s = GameSession.new(players, parse_rules(rules), seed=seed, human=1, engine="greedy",
                        path=path)
    rng = random.Random(seed)
    mine: list[tuple[int, object]] = []  # (entries before the player's move, state then)
    for a in actions:
        while s.engine_to_move:
            s.engine_move()
        if s.is_over:
            break
        t = s.turn()
        assert t.seat == 1 and t.moves
        if a == "move":
            mine.append((len(s.entries), s.state))
            s.enter(rng.choice(t.moves))
        elif a == "undo" and mine:
            n, state = mine.pop()
            s.undo_turn()
            assert len(s.entries) == n and s.state == state
        elif a == "reload":
            s.close()
            s = GameSession.load(path.read_text(), path)
        saved = Game.parse(path.read_text())
        assert saved.tokens() == s.entries and saved.final == s.state and saved.engine
    s.close()


# ------------------------------------------------------------------ what the player sees
def test_the_player_never_sees_the_engines_hand():
    """The snapshot and the turn show the engine's cards only where everyone saw them
    (picked up, R16) or where they follow from what the player saw (pile empty)."""
    s = GameSession.new(2, seed=3, human=1, engine="greedy")
    while not s.is_over:
        snap = s.snapshot()
        other = snap["seats"][1]
        state = s.state
        view = s.knowledge().view
        assert set(other["cards"]) == {c for c in _names(view.hands[1])} or snap["exact"]
        if state.pile > 0:
            assert other["hidden"] == state.hand_size(1) - len(other["cards"])
        t = s.turn()
        if t.seat == 2 and not snap["exact"]:
            assert t.moves is None
        if s.engine_to_move:
            s.engine_move()
        else:
            s.enter(t.moves[0])
    assert s.snapshot()["over"]


def _names(mask: int) -> list[str]:
    return [card_name(c) for c in cards_of(mask)]


def test_a_second_session_on_the_same_record_file_is_refused(tmp_path):
    path = tmp_path / "g.txt"
    a = GameSession.new(2, seed=1, path=path)
    with pytest.raises(DurakError, match="open in another durak session"):
        GameSession.load(path.read_text(), path)
    a.close()
    GameSession.load(path.read_text(), path).close()


# ------------------------------------------------------------------ hints and the review
# three players with transfers at seed 13: seed 11's endgame has a position no exact
# analysis finishes in 10 s (the hint estimates it, the review's 30 s run out: 50 s a run)
@pytest.mark.parametrize("seed,players,rules", [(1, 2, ""), (2, 2, "transfer"), (6, 3, ""),
                                                (13, 3, "transfer")])
def test_the_review_never_marks_the_hints_move_down(seed, players, rules):
    """A player who follows the in-game hint at every decision (its default deals cut
    to 32 here for time, the review given the same) gets `best` on every decision of
    the review: the review judges each decision by the advice he saw -- the hint
    table, or the exact analysis once every card is placed (#48)."""
    s = GameSession.new(players, parse_rules(rules), seed=seed, human=1, engine="greedy")
    hinted: dict[int, str] = {}
    estimated: set[int] = set()  # decisions whose exact analysis ran out of time
    while not s.is_over:
        if s.engine_to_move:
            s.engine_move()
            continue
        t = s.turn()
        if len(t.moves) > 1:
            number = sum(1 for e in s.entries if not e.startswith("draw")) + 1
            # the advice a player sees: the exact analysis within its 10 s, else the
            # estimate (a three-player analysis may not finish in any time a test has)
            res = s.hint(samples=32)
            best = res.best if isinstance(res, HintResult) else res.best[0]
            if isinstance(res, HintResult) and s.known_state() is not None:
                estimated.add(number)
            hinted[number] = best
            s.enter(best)
        else:
            s.enter(t.moves[0])
    res = review(s.game, seat=1, samples=32, seed=0)
    assert len(res.decisions) == len(hinted) > 5
    assert any(not d.exact for d in res.decisions)
    if players == 2:  # once the pile is empty every card is placed (S1): exact advice
        assert any(d.exact for d in res.decisions)
    for d in res.decisions:
        assert d.played == hinted[d.number]
        if d.how == "unsolved":  # a busy machine may spend the review's time on one solve:
            continue             # unclear, never marked down
        if d.exact and d.number in estimated:  # the player saw the estimate, the review
            continue                           # solved it: judged by another answer
        assert d.label == "best" and d.loss == 0.0, d
        if not d.exact:  # the best is the highest chance; the hint's move as good as it
            assert (d.best == d.played or d.as_good) and d.deals == d.wanted <= 32
            assert d.best_chance >= d.played_chance
