"""Seats seen leaving the greedy player's move (``PublicTracker.not_greedy``) and
the hint engine's answer to it (``HintConfig.uct_mix_not_greedy``).

The greedy playout in a searched deal's score is a model of the opponent; once a
seat is *proved* not to play as the greedy player (docs/hint.md, "An opponent
seen leaving the greedy move"), the engine weighs that model less.  The proof
uses only public cards (S3), so it must never catch a greedy player.
"""
from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from builders import state
from click.testing import CliRunner

from solver.cli import main
from solver.errors import OptionError
from solver.game.cards import bit, deck_mask
from solver.game.deal import new_game
from solver.game.moves import Move
from solver.game.rules import parse_rules
from solver.games import Game
from solver.hints import HintConfig, hint_knowledge
from solver.hints.knowledge import PublicTracker, seat_view
from solver.play.match import HintPolicy, make_policy, play_game
from solver.policy.bots import RandomPolicy, greedy_move


def _with_out(s):
    """``s`` with every card not in a hand or the pile in the discard pile (``out``)."""
    return s.replace(out=deck_mask(s.rules.deck) & ~s.all_cards() & ~sum(bit(c) for c in s.pile_order))


def _follow(start, moves):
    """Trackers along a played game, one per move (before it)."""
    t = PublicTracker(start)
    for mv in moves:
        yield t
        t.play(mv)
    yield t


def _seen_after(start, texts: list[str], seat: int) -> list[tuple[int, ...]]:
    """``not_greedy(seat)`` after each of the moves given as text."""
    t = PublicTracker(start)
    out = []
    for text in texts:
        t.play(Move.parse(text))
        out.append(t.not_greedy(seat))
    return out


def test_S3_a_lead_above_a_card_picked_up_in_a_take_is_caught():
    # Seat 2 takes 6S (R16: everyone sees it go into his hand).  When he leads
    # 9S with it still in hand, the greedy player would have led 6S: caught.
    s = _with_out(state(["6S 7D JC", "9S 8D QC"], trump="H", attacker=0,
                        pile=["AD", "KD", "7C", "AH"]))
    seen = _seen_after(s, ["6S", "take", "7D", "7D/8D", "pass", "9S"], seat=0)
    assert seen == [(), (), (), (), (), (1,)]
    # leading the 6S itself, the cheapest card, says nothing
    assert _seen_after(s, ["6S", "take", "7D", "7D/8D", "pass", "6S"], seat=0)[-1] == ()
    # the seat itself is never reported, and the other seat sees the same proof
    t = PublicTracker(s)
    for text in ["6S", "take", "7D", "7D/8D", "pass", "9S"]:
        t.play(Move.parse(text))
    assert t.not_greedy(1) == ()
    assert t.knowledge(0).not_greedy == (1,) and t.knowledge(1).not_greedy == ()


def test_P3_adding_a_dearer_card_first_is_caught_once_the_cheaper_one_is_added():
    # 8S/9S on the table: the greedy player adds the cheapest card he would add
    # (8D before 9D).  Adding 9D says nothing yet; adding 8D in the same bout,
    # before any draw, proves he held it then.
    s = _with_out(state(["8S 9D 8D JC", "9S TD 9C QC"], trump="H", attacker=0,
                        pile=["AD", "KD", "7C", "AH"]))
    assert _seen_after(s, ["8S", "8S/9S", "+9D", "9D/TD", "+8D"], seat=1) == [(), (), (), (), (0,)]
    assert _seen_after(s, ["8S", "8S/9S", "+8D", "8D/TD", "+9D"], seat=1)[-1] == ()


@pytest.mark.parametrize("players", [2, 3, 4, 6])
@pytest.mark.parametrize("rules", ["", "transfer", "trump_swap"])
def test_S3_a_greedy_player_is_never_caught(players, rules):
    """Every seat greedy, 2-6 players, every rule set: nobody is ever caught,
    from any seat's view at any moment (the proof rests on public cards only)."""
    for seed in range(6):
        start = new_game(players, parse_rules(rules), seed=seed)
        pols = [make_policy("greedy")] * players
        _, moves, *_ = play_game(pols, start, [random.Random(s) for s in range(players)])
        for t in _follow(start, moves):
            assert all(t.not_greedy(s) == () for s in range(players))


@pytest.mark.parametrize("rules", ["", "transfer"])
def test_S3_a_caught_seat_really_left_the_greedy_move(rules):
    """``hint-fast`` against greedy: whenever a seat is caught it has made a move
    the greedy player would not have made (checked on the real hands), the greedy
    seat is never caught, and the hint seat is caught in some games."""
    caught_games = 0
    for seed in range(4):
        start = new_game(2, parse_rules(rules), seed=seed)
        pols = [make_policy("hint-fast", hint_samples=16), make_policy("greedy")]
        _, moves, *_ = play_game(pols, start, [random.Random(s) for s in range(2)])
        caught = False
        for t in _follow(start, moves):
            assert t.not_greedy(0) == ()  # the greedy seat
            if t.not_greedy(1) == (0,):
                caught = True
                assert any(t.movers[i] == 0 and greedy_move(t.before[i]) != t.history[i]
                           for i in range(len(t.history)))
        caught_games += caught
    assert caught_games >= 1


def _two_player_knowledge():
    """The view of the seat to lead in a dealt two-player game (the pile full)."""
    s = new_game(2, parse_rules(""), seed=11)
    return seat_view(s, s.to_move)


def test_the_hint_weighs_the_greedy_playout_less_against_a_caught_seat():
    """With a caught opponent the answer is exactly the one at ``uct_mix =
    uct_mix_not_greedy``; without, the one at ``uct_mix``."""
    k = _two_player_knowledge()
    caught = replace(k, not_greedy=(1 - k.seat,))
    cfg = HintConfig(uct_iters=60, uct_mix=0.9, uct_mix_not_greedy=0.0, uct_mix_early=None)
    as_caught = hint_knowledge(caught, samples=24, seed=5, config=cfg)
    as_zero = hint_knowledge(k, samples=24, seed=5,
                             config=HintConfig(uct_iters=60, uct_mix=0.0, uct_mix_early=None))
    plain = hint_knowledge(k, samples=24, seed=5, config=cfg)
    scores = lambda r: [(m.move, m.score) for m in r.moves]  # noqa: E731
    assert scores(as_caught) == scores(as_zero) != scores(plain)
    assert as_caught.to_json()["not_greedy"] == [2 - k.seat] and as_caught.playout_weight == 0.0
    assert plain.to_json()["not_greedy"] == [] and plain.playout_weight == 0.9
    # None keeps uct_mix whoever is caught
    off = hint_knowledge(caught, samples=24, seed=5,
                         config=HintConfig(uct_iters=60, uct_mix=0.9, uct_mix_not_greedy=None,
                                           uct_mix_early=None))
    assert scores(off) == scores(plain)


def test_the_hint_weighs_the_greedy_playout_less_early_in_the_game():
    """While the pile holds ``early_pile`` cards or more the answer is exactly the
    one at ``uct_mix = uct_mix_early``; below it, the one at ``uct_mix``; a caught
    seat's weight comes first."""
    k = _two_player_knowledge()  # the pile full: 24 cards
    scores = lambda r: [(m.move, m.score) for m in r.moves]  # noqa: E731
    early = HintConfig(uct_iters=60, uct_mix=0.9, uct_mix_early=0.0, early_pile=24)
    late = replace(early, early_pile=25)
    at_zero = hint_knowledge(k, samples=24, seed=5,
                             config=HintConfig(uct_iters=60, uct_mix=0.0, uct_mix_early=None))
    at_mix = hint_knowledge(k, samples=24, seed=5,
                            config=HintConfig(uct_iters=60, uct_mix=0.9, uct_mix_early=None))
    a = hint_knowledge(k, samples=24, seed=5, config=early)
    b = hint_knowledge(k, samples=24, seed=5, config=late)
    assert scores(a) == scores(at_zero) != scores(b) == scores(at_mix)
    assert a.playout_weight == 0.0 and b.playout_weight == 0.9
    caught = hint_knowledge(replace(k, not_greedy=(1 - k.seat,)), samples=24, seed=5,
                            config=replace(early, uct_mix_not_greedy=0.9))
    assert scores(caught) == scores(at_mix)
    with pytest.raises(OptionError, match="uct_mix_early"):
        hint_knowledge(k, samples=4, seed=1, config=HintConfig(uct_mix_early=1.5, early_pile=30))
    with pytest.raises(OptionError, match="early_pile"):
        hint_knowledge(k, samples=4, seed=1, config=HintConfig(early_pile=-1))


def test_uct_mix_not_greedy_outside_0_to_1_is_refused():
    with pytest.raises(OptionError, match="uct_mix_not_greedy"):
        hint_knowledge(_two_player_knowledge(), samples=4, seed=1,
                       config=HintConfig(uct_mix_not_greedy=1.5))


def test_the_hint_bot_is_told_who_was_caught_and_hint_fast_is_not():
    told: list[tuple[int, ...]] = []

    class Spy(HintPolicy):
        def choose(self, state, seat, rng, **kw):
            told.append(tuple(kw.get("not_greedy", ("absent",))))
            return super().choose(state, seat, rng, **kw)

    start = new_game(2, parse_rules(""), seed=3)
    play_game([Spy(samples=8), make_policy("hint-fast", hint_samples=16)], start,
              [random.Random(s) for s in range(2)])
    assert (1,) in told and ("absent",) not in told
    told.clear()
    play_game([Spy(samples=8, facts=False), make_policy("greedy")], start,
              [random.Random(s) for s in range(2)])
    assert set(told) == {("absent",)}


def test_durak_hint_game_reports_a_caught_seat_from_a_seat_record():
    """A player's own record (hidden hands) catches the same seats as the full
    game, and ``durak hint --game`` answers with the weight that follows."""
    start = new_game(2, parse_rules(""), seed=21)
    pols = [make_policy("greedy"), RandomPolicy()]
    _, moves, *_ = play_game(pols, start, [random.Random(s) for s in range(2)])
    record = Game.from_play(start, moves).for_seat(1)
    cut = None
    for n, t in enumerate(_follow(start, moves)):
        if n < len(moves) and t.state.to_move == 0 and t.state.pile > 0 and t.not_greedy(0):
            cut = n
            break
    assert cut is not None
    text = record.with_moves(cut).format()
    assert Game.parse(text).knowledge().not_greedy == (1,)
    r = CliRunner().invoke(main, ["hint", "--game", "-", "-n", "16", "--seed", "5", "--json"],
                           input=text)
    assert r.exit_code == 0, r.output
    got = json.loads(r.output)
    assert got["not_greedy"] == [2] and got["playout_weight"] == HintConfig().uct_mix_not_greedy
    r = CliRunner().invoke(main, ["hint", "--game", "-", "-n", "16", "--seed", "5", "--verbose"],
                           input=text)  # the engine's details
    assert r.exit_code == 0 and "seen leaving the greedy player's move" in r.output
