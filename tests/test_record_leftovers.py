"""What `durak play` and `durak game` leave behind and say about the record file (issue 73).

- no ``.NAME.lock`` is left on any way out: a refused ``--resume`` (a record of the
  other kind), a first save the disk refuses, a stream that breaks;
- a refused ``--resume`` leaves the record as it was (it was rewritten, its
  comments dropped, before the refusal);
- a file name is shown as typed, never as the terminal's commands: an escape
  sequence in ``save FILE`` is shown escaped, rich's markup (``[bold]``) as text;
- a record file replaced by a folder is not said to hold the entries saved before.
"""
from __future__ import annotations

import errno
import io
import os
import re
import subprocess
import sys
from pathlib import Path

from click.testing import CliRunner

from solver.cli.app import main
from solver.cli.prompt import GamePrompt
from solver.games import recordfile
from solver.play.seats import GameSession

ROOT = Path(__file__).resolve().parent.parent
DURAK = [sys.executable, "-m", "solver.cli"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
FOLLOWED = (ROOT / "docs" / "examples" / "full-game.txt").read_text()
ESC = "\x1b"


def durak(*args: str, cwd: Path) -> subprocess.CompletedProcess:
    return subprocess.run([*DURAK, *args], text=True, capture_output=True, env=ENV, cwd=cwd,
                          stdin=subprocess.DEVNULL, timeout=120)


def locks(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".lock"))


def engine_record(folder: Path) -> Path:
    """A game against the engine, saved by `durak play` (no move yet)."""
    path = folder / "engine.txt"
    r = CliRunner().invoke(main, ["play", "--vs", "greedy", "--seed", "3", "--record",
                                  str(path)], input="quit\n")
    assert r.exit_code == 0, r.output
    assert locks(folder) == []
    return path


def test_a_refused_resume_leaves_no_lock_and_the_record_as_it_was(tmp_path):
    followed = tmp_path / "followed.txt"
    followed.write_text("# my note on this game\n" + FOLLOWED)
    before = followed.read_bytes()
    r = durak("play", "--resume", str(followed), cwd=tmp_path)
    assert r.returncode == 2 and "not a game against the engine" in r.stderr, r.stderr
    assert locks(tmp_path) == [] and followed.read_bytes() == before
    engine = engine_record(tmp_path)
    before = engine.read_bytes()
    for args in (["game", "--resume", str(engine)], ["game", str(engine), "--record",
                                                      str(tmp_path / "copy.txt")]):
        r = durak(*args, cwd=tmp_path)
        assert r.returncode == 2 and "a game against the engine" in r.stderr, r.stderr
        assert locks(tmp_path) == [] and engine.read_bytes() == before
        assert not (tmp_path / "copy.txt").exists()


def test_a_first_save_the_disk_refuses_leaves_no_lock(tmp_path, monkeypatch):
    def full(path, text, option="output"):
        raise OSError(errno.ENOSPC, "No space left on device", path)

    monkeypatch.setattr(recordfile, "write_whole", full)
    for args in (["play", "--vs", "greedy", "--seed", "3"],
                 ["game", "--players", "2", "--rules", "", "--trump", "9H", "--deal",
                  "6S 7S 8S 9S TS JS",
                  "--seat", "1", "--attacker", "1"]):
        record = tmp_path / f"{args[0]}.txt"
        r = CliRunner().invoke(main, [*args, "--record", str(record)], input="quit\n")
        assert r.exit_code == 4, r.output
        assert "No space left on device" in r.output
        assert locks(tmp_path) == [] and not record.exists()


def test_a_prompt_that_breaks_off_leaves_no_lock(tmp_path, monkeypatch):
    def broken(self):
        raise BrokenPipeError(errno.EPIPE, "Broken pipe")

    monkeypatch.setattr(GamePrompt, "run", broken)
    record = tmp_path / "r.txt"
    r = CliRunner().invoke(main, ["play", "--vs", "greedy", "--seed", "3", "--record",
                                  str(record)], input="quit\n")
    assert r.exit_code != 0 and record.exists()
    assert locks(tmp_path) == []


def test_save_shows_a_file_name_as_typed_not_as_terminal_commands(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    name = f"{ESC}[31mred[bold]{ESC}]0;title\a.txt"
    r = CliRunner().invoke(main, ["play", "--vs", "greedy", "--seed", "3", "--record",
                                  f"{ESC}[2Jrec.txt"], input=f"save {name}\nquit\n")
    assert r.exit_code == 0, r.output
    assert (tmp_path / name).exists()  # saved under the name typed
    assert ESC not in r.output and "\a" not in r.output, repr(r.output)
    assert re.search(r"saved \d+ entr(y|ies) to \\x1b\[31mred\[bold\]\\x1b\]0;title\\x07\.txt\n",
                     r.output), r.output
    assert "the record is saved in \\x1b[2Jrec.txt" in r.output, r.output


def test_a_record_replaced_by_a_folder_is_not_said_to_hold_the_entries(tmp_path, monkeypatch):
    record = tmp_path / "r.txt"
    session = GameSession.new(2, seed=3, engine="greedy", path=record)
    said: list = []
    prompt = GamePrompt(session, "play", out=said.append)
    monkeypatch.setattr(sys, "stdin", io.StringIO(""))
    prompt._engine_moves()
    prompt._do(session.turn().moves[0])
    saved = session.record_file.saved
    assert saved and saved >= 1
    record.unlink()
    record.mkdir()
    prompt._do(session.turn().moves[0])
    prompt._saving_news()
    text = " ".join(str(s) for s in said)
    assert "saving the record failed" in text, text
    assert "holds the first" not in text and "a folder is there now" in text, text
    assert session.record_file.held() == "a folder is there now"
    session.close()
    assert locks(tmp_path) == []
