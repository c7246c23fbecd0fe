"""A game's record that can no longer be saved (issue 60, item 2), at a real terminal.

The record's folder is deleted or replaced under a running `durak play` or
`durak game`: the prompt says once that saving failed and where the moves can
go (``save FILE``), the game goes on -- the engine keeps moving -- and leaving
never claims a save that did not happen: the record is printed and the exit
code is 4.  ``save FILE`` sends the record to another file, where it is saved
from then on; a folder that comes back is used again.  The machinery:
:mod:`solver.games.recordfile`, the prompt (:mod:`solver.cli.prompt`).
"""
from __future__ import annotations

import re
import shutil

import pytest

from solver.games import Game

from test_game_prompt import ANSI, next_prompt, spawn, your_moves

pexpect = pytest.importorskip("pexpect", reason="the prompt tests need pexpect (the test extra)")

FAILED = "saving the record failed"


def play_moves(child, text: str, n: int) -> str:
    """Type ``n`` of the player's moves (the first legal one each time)."""
    for _ in range(n):
        child.sendline(your_moves(text)[0])
        which, text = next_prompt(child)
        assert which == "your move", text
    return text


def leave(child) -> tuple[int, str]:
    child.sendline("quit")
    child.expect(pexpect.EOF)
    child.close()
    return child.exitstatus, ANSI.sub("", child.before)


def engine_moves(text: str) -> list[str]:
    """The engine's moves as the prompt tells them (``Seat 2 leads 6C``; the
    narration's indented lines, such as its draws, are not moves)."""
    return re.findall(r"^Seat 2 .*$", text, re.M)


def printed_record(out: str) -> Game:
    """The record the prompt printed on the way out."""
    start = out.index("# durak game record")
    end = out.index("quit: the record")
    return Game.parse(out[start:end])


@pytest.mark.parametrize("how", ["deleted", "replaced by a file"])
def test_play_goes_on_when_the_folder_goes_and_never_claims_a_save(tmp_path, how):
    folder = tmp_path / "records"
    record = folder / "play.txt"
    child = spawn("play", "--vs", "greedy", "--seed", "5", "--record", str(record),
                  data_dir=tmp_path)
    which, text = next_prompt(child)
    text = play_moves(child, text, 2)
    saved = Game.parse(record.read_text()).tokens()
    shutil.rmtree(folder)
    if how == "replaced by a file":
        folder.write_text("not a folder\n")
    seen = ""
    for _ in range(8):  # until the engine has moved (and saved) twice after the failure
        child.sendline(your_moves(text)[0])
        which, text = next_prompt(child)
        seen += text
        assert which == "your move", text
        if len(engine_moves(seen)) >= 2:
            break
    assert len(engine_moves(seen)) >= 2  # the engine goes on moving
    assert seen.count(FAILED) == 1, seen  # said once
    assert "save FILE" in seen and str(record) in seen
    assert "Traceback" not in seen and ".tmp" not in seen and "Errno" not in seen
    code, out = leave(child)
    assert code == 4, out
    assert "is saved in" not in out and "could not be saved" in out
    game = printed_record(out)
    assert len(game.tokens()) > len(saved) and game.tokens()[:len(saved)] == saved
    if how == "deleted":
        assert not folder.exists()
    else:
        assert folder.read_text() == "not a folder\n"


def test_save_file_takes_the_record_elsewhere_and_it_is_saved_there(tmp_path):
    folder = tmp_path / "records"
    record = folder / "play.txt"
    other = tmp_path / "elsewhere.txt"
    child = spawn("play", "--vs", "greedy", "--seed", "5", "--record", str(record),
                  data_dir=tmp_path)
    which, text = next_prompt(child)
    text = play_moves(child, text, 1)
    shutil.rmtree(folder)
    child.sendline(your_moves(text)[0])
    which, text = next_prompt(child)
    assert FAILED in text
    child.sendline(f"save {other}")
    which, said = next_prompt(child)
    assert f"to {other}; the record is saved there after every entry" in said
    text = play_moves(child, text, 2)  # saved in the other file as they are typed
    code, out = leave(child)
    assert code == 0, out
    assert f"is saved in {other}" in out
    entries = Game.parse(other.read_text()).tokens()
    assert f"record ({len(entries)} entries)" in out and len(entries) >= 6


def test_a_folder_that_comes_back_is_used_again(tmp_path):
    folder = tmp_path / "records"
    record = folder / "play.txt"
    child = spawn("play", "--vs", "greedy", "--seed", "5", "--record", str(record),
                  data_dir=tmp_path)
    which, text = next_prompt(child)
    shutil.rmtree(folder)
    text = play_moves(child, text, 1)
    assert FAILED in text
    folder.mkdir()
    text = play_moves(child, text, 1)
    assert f"the record is saved again in {record}" in text
    code, out = leave(child)
    assert code == 0 and "is saved in" in out
    assert len(Game.parse(record.read_text()).tokens()) >= 4


def test_a_followed_game_says_so_too(tmp_path):
    """`durak game` shares the saver: an entry after the folder went, `quit`: exit 4."""
    from test_output_targets import MIDGAME
    folder = tmp_path / "records"
    record = folder / "game.txt"
    child = spawn("game", MIDGAME, "--record", str(record), data_dir=tmp_path)
    which, text = next_prompt(child)
    shutil.rmtree(folder)
    child.sendline("undo")
    which, text = next_prompt(child)
    assert text.count(FAILED) == 1 and "undone:" in text
    code, out = leave(child)
    assert code == 4 and "is saved in" not in out and "could not be saved" in out
