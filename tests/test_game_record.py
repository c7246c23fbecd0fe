"""Game records (docs/game-record.md): round trips, knowledge, `durak hint --game`, bad records."""
from __future__ import annotations

import json
import random
from dataclasses import replace

import pytest
from click.testing import CliRunner

import solver
from solver.cli import main
from solver.errors import RecordError
from solver.game.deal import new_game
from solver.game.rules import parse_rules
from solver.games import Game
from solver.hints import hint_knowledge
from solver.hints.knowledge import PublicTracker
from solver.play.match import MatchSpec, play_game, play_match_game
from solver.policy.bots import GreedyPolicy, RandomPolicy

#: (players, rules) of the seeded games: 2-6 players and several options.
SETUPS = [
    (2, ""), (2, "transfer"), (2, "transfer_by_trump_show,trump_swap"), (3, ""),
    (3, "transfer,throw_in=neighbours"), (4, "teams=2v2"), (4, "first_out_wins,deck=24"),
    (5, "first_bout_limit=5"), (6, ""), (6, "transfer"), (2, "deck=24,trump_swap"),
    (3, "first_out_wins"),
]


def seeded_game(i: int, greedy_only: bool = False):
    """Game ``i``: a dealt start, the moves of random/greedy bots, and the outcome."""
    players, rules = SETUPS[i % len(SETUPS)]
    start = new_game(players, parse_rules(rules), seed=1000 + i)
    pols = [GreedyPolicy() if greedy_only or (s + i) % 2 else RandomPolicy()
            for s in range(players)]
    rngs = [random.Random(f"{i}:{s}") for s in range(players)]
    outcome, moves, _, _, cut = play_game(pols, start, rngs)
    assert not cut
    return start, moves, outcome


def run(*args: str, code: int = 0, stdin: str | None = None):
    r = CliRunner().invoke(main, list(args), input=stdin)
    assert r.exit_code == code, (r.exit_code, r.output)
    return r


# ---------------------------------------------------------------- round trips
@pytest.mark.parametrize("i", range(36))
def test_full_record_round_trips_to_the_same_end(i):
    """A full record (every deal and the pile) formats, parses back and replays to the
    same final position and outcome (R20-R22) as the game that was played."""
    start, moves, outcome = seeded_game(i)
    game = Game.from_play(start, moves, me=1 + i % start.players)
    t = PublicTracker(start)
    for m in moves:
        t.play(m)
    one_line = "; ".join(ln for ln in game.format().splitlines() if not ln.startswith("#"))
    for text in (game.format(), json.dumps(game.to_json()), one_line):
        back = Game.parse(text)
        assert back.full
        assert back.final == t.state
        assert back.outcome() == outcome
        assert [m for _, m in back.moves] == moves
        assert back.format() == game.format()


@pytest.mark.parametrize("i", range(12))
def test_seat_record_replays_to_the_same_end_with_hidden_hands(i):
    """A record of one seat (its deal and draws only, R17) replays every move; at the
    end every card has been played, so nothing stays hidden (R19, R20)."""
    start, moves, outcome = seeded_game(i)
    me = 1 + i % start.players
    seat = Game.parse(Game.from_play(start, moves).for_seat(me).format())
    assert not seat.full and list(seat.deals) == [me - 1]
    assert seat.outcome() == outcome
    assert len(seat.moves) == len(moves)


# ---------------------------------------------------------------- knowledge
@pytest.mark.parametrize("i", range(12))
def test_seat_record_cut_anywhere_knows_what_public_tracker_knows(i):
    """S3: a seat's record cut before any move of that seat gives exactly the
    Knowledge PublicTracker computes there (discards, pick-ups R16, the face-up
    trump drawn R17 or swapped R7, hand and pile sizes).  All but the facts of
    the asking of throwers (F2): a seat's record writes a thrower with hidden
    cards who did not throw as passing, whether he was asked or not, so it
    proves nothing about his hand."""
    start, moves, _ = seeded_game(i)
    me = 1 + i % start.players
    seat = Game.parse(Game.from_play(start, moves).for_seat(me).format())
    t = PublicTracker(start)
    checked = 0
    for n, m in enumerate(moves):
        if t.state.to_move == me - 1:
            tracked = replace(t.knowledge(me - 1), facts=())
            assert seat.with_moves(n).knowledge() == tracked, n
            assert seat.knowledge(at=n + 1) == tracked, n
            checked += 1
        t.play(m)
    assert checked > 3


def test_hint_game_gives_the_hint_of_the_tracked_knowledge():
    """`durak hint --game` (file and stdin) answers on PublicTracker's knowledge (S3)."""
    start, moves, _ = seeded_game(0)
    full = Game.from_play(start, moves)
    t = PublicTracker(start)
    cuts = []
    for n, m in enumerate(moves):
        if t.state.to_move == 0 and t.state.pile > 0 and n > 4:
            cuts.append((n, t.knowledge(0)))
        t.play(m)
    assert len(cuts) >= 2
    for n, k in cuts[:2]:
        text = full.for_seat(1).with_moves(n).format()
        want = hint_knowledge(k, samples=16, seed=5).to_json()
        got = json.loads(run("hint", "--game", "-", "-n", "16", "--seed", "5", "--json",
                             stdin=text).output)
        assert got == want
    # a full record: --me picks the asking seat
    n, k = cuts[0]
    got = json.loads(run("hint", "--game", full.with_moves(n).format(), "--me", "1", "-n", "16",
                         "--seed", "5", "--json").output)
    assert got == hint_knowledge(k, samples=16, seed=5).to_json()


def test_hint_game_and_position_exclude_each_other():
    r = run("hint", code=2)
    assert "either POSITION or --game" in r.output


# ---------------------------------------------------------------- a record by hand
HAND = """
# a two-player game seen by seat 1
players 2
trump 9H
me 1
deal 1 6S 7S KH 8C 9C AC
moves
2:6D 1:take 2:+6C 2:pass
2:7D 1:take 2:pass
"""


def test_a_record_written_by_hand():
    g = solver.Game.parse(HAND)
    assert g.players == 2 and not g.full and len(g.moves) == 7
    k = g.knowledge()
    # seat 1 picked up 6D 6C 7D (R16) and drew nothing (R17); seat 2 drew 2 then 1
    assert k.view.hand_size(0) == 9 and k.view.hand_size(1) == 6
    assert k.view.pile == 21 and k.view.trump_card == solver.parse_card("9H")
    assert g.format().splitlines()[-2:] == ["2:6D 1:take 2:+6C 2:pass", "2:7D 1:take 2:pass"]


# ---------------------------------------------------------------- bad records
BAD = [
    # (record, the words the one-line message must hold)
    (HAND.replace("1:take 2:+6C", "1:6D/8C 2:+6C"), ["move 2", "'1:6D/8C'", "illegal"]),
    (HAND.replace("2:+6C", "2:+6S"), ["move 3", "'2:+6S'", "6S is seen twice"]),
    (HAND.replace("2:7D", "2:6D"), ["move 5", "'2:6D'", "6D is seen twice"]),
    (HAND.replace("2:pass\n2:7D", "2:pass draw 7H\n2:7D"), ["move 4", "draw", "draws nothing"]),
    (HAND.replace("2:+6C", "+6C"), ["move 3", "'+6C'", "needs its seat"]),
    (HAND.replace("1:take 2:+6C", "2:take 2:+6C"), ["move 2", "not seat 2's"]),
    (HAND.replace("2:6D", "2:6Z"), ["move 1", "'2:6Z'"]),
    (HAND.replace("deal 1 6S", "deal 1 9H"), ["trump", "9H"]),
    (HAND.replace("players 2", "players 7"), ["players"]),
    (HAND.replace("me 1", "me 1\ncolour red"), ["colour", "unknown key"]),
    (HAND.replace("deal 1 6S 7S", "deal 1 6S"), ["deal 1", "6 cards"]),
]


@pytest.mark.parametrize("record,words", BAD)
def test_bad_records_exit_2_with_the_move_and_token(record, words, tmp_path):
    with pytest.raises(RecordError):
        Game.parse(record)
    f = tmp_path / "bad.txt"
    f.write_text(record)
    for cmd in (["hint", "--game", str(f)], ["review", str(f), "--json"],
                ["review", str(f), "--plot", str(tmp_path / "p.svg")]):
        r = run(*cmd, code=2)
        line = r.output.strip()
        assert "\n" not in line and line.startswith("durak: error:")
        for w in words:
            assert w in line, (w, line)
    assert not (tmp_path / "p.svg").exists()  # nothing half-written


def test_moves_after_the_end_of_the_game_are_refused():
    start, moves, _ = seeded_game(0)
    game = Game.from_play(start, moves)
    last_seat = game.moves[-1][0]
    text = game.format() + f"{last_seat}:pass\n"
    with pytest.raises(RecordError, match=rf"move {len(moves) + 1} .*game is already over"):
        Game.parse(text)


def test_a_draw_with_the_wrong_cards_is_refused():
    """R17: the asking seat draws as many cards as it lacks; naming more is an error."""
    start, moves, _ = seeded_game(0)
    text = Game.from_play(start, moves).for_seat(1).format()
    line = next(ln for ln in text.splitlines() if " draw " in ln)
    drawn = line.split(" draw ")[1].split()
    worse = text.replace(line, line + " " + drawn[0])
    with pytest.raises(RecordError, match="named twice|seen twice"):
        Game.parse(worse)
    fewer = text.replace(line, line.rsplit(" ", 1)[0]) if len(drawn) > 1 else None
    if fewer is not None:
        with pytest.raises(RecordError, match=r"drew \d+ unseen card\(s\) here \(R17\)"):
            Game.parse(fewer)


# ---------------------------------------------------------------- writers
def test_match_record_writes_full_records_that_replay_to_the_match_result(tmp_path):
    run("match", "--a", "greedy", "--b", "random", "--games", "3", "--players", "3",
        "--rules", "transfer", "--seed", "2", "--record", str(tmp_path / "games"))
    files = sorted((tmp_path / "games").iterdir())
    assert [f.name for f in files] == [f"deal0000-a{s}.txt" for s in (1, 2, 3)]
    spec = MatchSpec("greedy", "random", players=3, rules=parse_rules("transfer"), seed=2)
    for s, f in enumerate(files):
        g = Game.parse(f.read_text())
        rec = play_match_game(spec, 0, s)
        assert g.full and g.me == s and [str(m) for _, m in g.moves] == rec.moves
        assert g.outcome()[s] == rec.result


def test_play_out_record_needs_a_deal_and_writes_a_replayable_record(tmp_path):
    deal = "trump KC; hands AS 7H JH 7C 8C TC | JS 9H TD JD QD 6C; attacker 2; pile 24"
    out = tmp_path / "g.txt"
    r = run("play-out", deal, "--seed", "3", "--record", str(out), "--json")
    played = json.loads(r.output)
    g = Game.parse(out.read_text())
    assert g.full and [f"{s}:{m}" for s, m in g.moves] == played["moves"]
    assert list(g.outcome()) == played["outcome"]["scores"]
    bad = tmp_path / "no.txt"
    r = run("play-out", "trump H; hands 6S 7S KH | 8C 9C AH; attacker 1", "--record", str(bad),
            code=2)
    assert "at the deal" in r.output and not bad.exists()


def test_game_loop_with_piped_commands(tmp_path):
    """`durak game`: moves (with or without seat), draw, show, hint, undo, save; a bad move
    is reported and left out (stdin may be a pipe); the record is kept in the file
    named by --record after every entry."""
    start = tmp_path / "start.txt"
    start.write_text("players 2\ntrump 9H\nme 1\ndeal 1 6S 7S KH 8C 9C AC\nattacker 2\n")
    saved = tmp_path / "saved.txt"
    kept = tmp_path / "kept.txt"
    cmds = ("2:6D\n6D/KH\n2:pass draw 7H\nshow\n1:6S 2:6S/AS 1:+AC 2:take draw 8H TS\n"
            "1:7S,7H\n2:KH\nundo\nhint\nsave " + str(saved) + "\n")
    r = run("game", str(start), "-n", "8", "--record", str(kept), stdin=cmds)
    assert "error: '2:KH': KH is seen twice: it was discarded" in r.output
    assert "undone: 1:7S,7H" in r.output and "recommended:" in r.output
    assert "Pile   22 cards" in r.output
    g = Game.parse(saved.read_text())
    assert [f"{s}:{m}" for s, m in g.moves] == ["2:6D", "1:6D/KH", "2:pass", "1:6S", "2:6S/AS",
                                                "1:+AC", "2:take"]
    assert g.knowledge() == Game.parse(HAND2).knowledge()
    assert Game.parse(kept.read_text()).tokens() == g.tokens()  # saved after every entry
    assert start.read_text().count("\n") == 5  # the record started from is left alone


HAND2 = """players 2; trump 9H; me 1; deal 1 6S 7S KH 8C 9C AC; attacker 2
moves 2:6D 1:6D/KH 2:pass draw 7H 1:6S 2:6S/AS 1:+AC 2:take draw 8H TS"""


def test_game_loop_caps_the_deals_per_hint(tmp_path):
    """`durak game -n`: capped like `durak hint --samples` (bad input: exit 2, the option named)."""
    start = tmp_path / "start.txt"
    start.write_text("players 2\ntrump 9H\nme 1\ndeal 1 6S 7S KH 8C 9C AC\nattacker 2\n")
    r = run("game", str(start), "-n", "1000001", stdin="show\n", code=2)
    assert "--samples" in r.output and "1000001" in r.output
