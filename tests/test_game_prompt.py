"""The game prompt at a real terminal (a pseudo-terminal, pexpect): a whole game against
the engine and a whole followed game, each with a Ctrl-C in the middle and a restart
from the saved record (#48, #51 item 8)."""
from __future__ import annotations

import os
import re
import sys

import pytest

from solver.games import Game

from test_game_session import follow_from, full_game, type_in
from terminal import as_at_a_terminal

pexpect = pytest.importorskip("pexpect", reason="the prompt tests need pexpect (the test extra)")

#: Every prompt the game shows: the player's move, another seat's, the draw, the end.
PROMPT = r"(your move|seat \d|your \d drawn cards?|game over)> "
ANSI = re.compile(r"\x1b\[[0-9;?]*[a-zA-Z]")


def spawn(*args: str, data_dir) -> "pexpect.spawn":
    env = dict(os.environ, DURAK_DATA_DIR=str(data_dir), COLUMNS="120", TERM="xterm")
    return pexpect.spawn(sys.executable, ["-m", "solver.cli", *args], env=env, encoding="utf-8",
                         timeout=60, dimensions=(50, 120), preexec_fn=as_at_a_terminal)


def next_prompt(child) -> tuple[str, str]:
    """Wait for the next prompt; returns (which prompt, the text printed before it)."""
    child.expect(PROMPT)
    return child.match.group(1), ANSI.sub("", child.before)


def your_moves(text: str) -> list[str]:
    found = re.findall(r"Your move \([^)]*\): (.*?)\s+hint", text)
    assert found, text
    return found[-1].split()


def interrupt(child) -> str:
    """Ctrl-C at the prompt: the session ends with 130 and names the saved record."""
    child.sendintr()
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 130, child.before
    out = ANSI.sub("", child.before)
    assert "interrupted: the record" in out and "is saved in" in out
    return out


def test_a_whole_game_against_the_engine_with_ctrl_c_and_resume(tmp_path):
    """`durak play`: moves typed at the prompt, the engine's answers, Ctrl-C in the
    middle (exit 130, nothing lost), `--resume` from the record, the game played to
    its end, `review` at the prompt, `quit`."""
    record = tmp_path / "play.txt"
    child = spawn("play", "--vs", "greedy", "--seed", "5", "--record", str(record),
                  data_dir=tmp_path)
    which, text = next_prompt(child)
    assert "new game: 2 players" in text and str(record) in text
    typed = 0
    while typed < 6:
        assert which == "your move"
        child.sendline(your_moves(text)[0])
        typed += 1
        which, text = next_prompt(child)
    before = Game.parse(record.read_text())
    interrupt(child)
    assert Game.parse(record.read_text()).tokens() == before.tokens()  # nothing lost
    child = spawn("play", "--resume", str(record), data_dir=tmp_path)
    which, text = next_prompt(child)
    assert "going on with the game" in text
    while which == "your move":
        moves = your_moves(text)
        child.sendline(moves[-1] if moves[-1] != "take" or len(moves) == 1 else moves[0])
        which, text = next_prompt(child)
    assert which == "game over" and "Game over:" in text
    child.sendline("review")
    which, text = next_prompt(child)
    assert "review of seat 1" in text and "decisions" in text
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    game = Game.parse(record.read_text())
    assert game.outcome() is not None and game.engine == ((1,), "greedy")
    assert game.tokens()[:len(before.tokens())] == before.tokens()


def typed_lines(game: Game, seat: int = 1) -> list[str]:
    """The lines a player at the prompt types to follow ``game`` from ``seat``
    (:func:`test_game_session.type_in`: his own moves bare, the others' with their
    seat, Enter for a hidden thrower who added nothing, his drawn cards when asked)."""
    lines: list[str] = []
    type_in(follow_from(game, seat), game.for_seat(seat).tokens(), lines)
    return lines


@pytest.mark.parametrize("seed,players", [(4, 2), (9, 3)])
def test_a_whole_followed_game_with_ctrl_c_and_resume(tmp_path, seed, players):
    """`durak game`: a whole real game followed from seat 1 -- the table set up by
    options, every move typed as a player would, the drawn cards when asked --
    with a Ctrl-C in the middle and `--resume`; the record saved ends where the
    game did, with the seat's knowledge of it."""
    game = full_game(seed, players)
    lines = typed_lines(game)
    start = game.for_seat(1)
    header = ["--players", str(players), "--rules", "", "--seat", "1",
              "--trump", game.format().split("trump ", 1)[1].split()[0],
              "--deal", " ".join(start.format().split("deal 1 ", 1)[1].split("\n")[0].split()),
              "--attacker", str(start.start().attacker + 1)]
    record = tmp_path / "follow.txt"
    child = spawn("game", *header, "--record", str(record), data_dir=tmp_path)
    which, text = next_prompt(child)
    assert str(record) in text
    half = len(lines) // 2
    for line in lines[:half]:
        child.sendline(line)
        which, text = next_prompt(child)
        assert "error" not in text, (line, text)
    interrupt(child)
    child = spawn("game", "--resume", str(record), data_dir=tmp_path)
    which, text = next_prompt(child)
    hinted = False
    for line in lines[half:]:
        if which == "your move" and not hinted:  # the advice the review will judge by
            child.sendline("hint")
            which, text = next_prompt(child)
            assert "recommended:" in text or "exact value of every move" in text, text
            hinted = True
        child.sendline(line)
        which, text = next_prompt(child)
        assert "error" not in text, (line, text)
    assert hinted
    assert which == "game over"
    child.sendeof()  # Ctrl-D leaves like quit
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    saved = Game.parse(record.read_text())
    assert saved.final == start.final and saved.outcome() == game.outcome()


def test_a_whole_game_against_the_engine_in_lithuanian(tmp_path):
    """`durak play --lang lt` at a terminal to the end of a game (issue 64): the prompts,
    the board, the moves offered and the game's narration in Lithuanian, each move typed
    as the prompt offers it (cards for people, `imu` for take, `pas` for pass), the
    record the same notation as in English."""
    record = tmp_path / "lt.txt"
    child = spawn("play", "--lang", "lt", "--vs", "greedy", "--seed", "5", "--record",
                  str(record), data_dir=tmp_path)
    prompt = r"(jūsų ėjimas|žaidėjas \d|partija baigta)> "
    said = ""
    child.expect(prompt)
    text = ANSI.sub("", child.before)
    assert "nauja partija: 2 žaidėjai" in text and "Koziris" in text
    while child.match.group(1) == "jūsų ėjimas":
        said += text
        offered = re.findall(r"Jūsų ėjimas \([^)]*\): (.*?)\s+hint", text)[-1].split()
        # the last offer, but not a take while a card still beats: the game goes on
        child.sendline(offered[-1] if offered[-1] != "imu" or len(offered) == 1 else offered[0])
        child.expect(prompt)
        text = ANSI.sub("", child.before)
    said += text
    assert child.match.group(1) == "partija baigta"
    assert re.search(r"Partija baigta: .*; (jūs laimėjote|jūs pralaimėjote|jums lygiosios)", said)
    assert "Žaidėjas 2 puola" in said and "traukia" in said
    for english in ("Seat ", " leads ", " covers ", " takes", " draws ", "Your move", "Trump "):
        assert english not in said, english
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    assert child.exitstatus == 0
    assert "išeita: įrašas" in ANSI.sub("", child.before)
    game = Game.parse(record.read_text())  # the record: the notation, whatever the language
    assert game.outcome() is not None and "imu" not in record.read_text()
