"""What an output option may be aimed at (issue 60, items 1 and 9): a device, a FIFO,
a symbolic link -- and errors that name the file and the system's reason.

Every whole-file writer (game/play ``--record`` and ``save FILE``, ``play-out
--record``, ``puzzle generate --out``, ``review --plot``, ``learn train --out``)
and the file of lines (``batch --out``) run as real commands at copies of
/dev/null and /dev/full made with ``mknod`` in a temporary folder: the device
is written in place and stays a device (never replaced by a rename), /dev/full
is exit 4 with ``No space left on device`` naming the file.  A FIFO is written
in place, a link followed (the link stays), a block device refused.  The
machinery: :mod:`solver.run.outfile`.
"""
from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
import threading
from pathlib import Path

import pytest
from terminal import as_at_a_terminal

ROOT = Path(__file__).resolve().parent.parent
DURAK = [sys.executable, "-m", "solver.cli"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
DEAL = "trump KC; hands AS 7H JH 7C 8C TC | JS 9H TD JD QD 6C; attacker 2; pile 24"
SIMPLE = "trump H; hands 6S 7S KH | 8C 9C AH; attacker 1"
RECORD = str(ROOT / "docs" / "examples" / "full-game.txt")
MIDGAME = str(ROOT / "docs" / "examples" / "seat1-midgame.txt")

as_root = pytest.mark.skipif(not hasattr(os, "geteuid") or os.geteuid() != 0,
                             reason="mknod of a character device needs root")


def durak(*args: str, stdin: str | None = None, cwd: Path = ROOT,
          timeout: float = 120) -> subprocess.CompletedProcess:
    return subprocess.run([*DURAK, *args], input=stdin, text=True, capture_output=True,
                          env={**ENV, "DURAK_DATA_DIR": str(cwd / "data")}, cwd=cwd,
                          timeout=timeout, preexec_fn=as_at_a_terminal)


def device(folder: Path, name: str, minor: int) -> Path:
    """A copy of /dev/null (minor 3) or /dev/full (minor 7) named ``name``."""
    path = folder / name
    os.mknod(path, 0o666 | stat.S_IFCHR, os.makedev(1, minor))
    return path


def is_the_device(path: Path, minor: int) -> bool:
    st = os.lstat(path)
    return stat.S_ISCHR(st.st_mode) and os.minor(st.st_rdev) == minor


def tiny_data(folder: Path) -> Path:
    """A learning data folder of one shard of two made-up decisions (`learn train`'s input)."""
    from solver.learn.generate import shard_path, write_shard
    rows = [{"game": g, "ply": 0, "seat": 0, "rules": "", "position": SIMPLE, "pile": 0,
             "moves": ["6S", "7S"], "features": [[0, 3], [1, 4]], "greedy": 0, "chosen": g % 2,
             "scores": [0.5, -0.5], "exact": True, "outcome": 1} for g in range(4)]
    folder.mkdir()
    write_shard(shard_path(folder, 0), rows)
    return folder


#: Each whole-file writer: (name, the command's arguments before the target, after it, stdin).
WRITERS = {
    "play-out --record": (["play-out", DEAL, "--seed", "3", "--record"], [], None),
    "puzzle generate --out": (["puzzle", "generate", "--count", "1", "--seed", "1", "--out"],
                              [], None),
    "review --plot": (["review", RECORD, "--exact-only", "--plot"], [], None),
    "learn train --out": (["learn", "train", "DATA", "--epochs", "1", "--out"], [], None),
    "game --record": (["game", MIDGAME, "--record"], [], "quit\n"),
    "play --record": (["play", "--vs", "random", "--seed", "2", "--record"], [], "quit\n"),
    "batch --out": (["batch", "solve", "IN", "--out"], [], None),
}


def writer_args(name: str, target: Path, folder: Path) -> tuple[list[str], str | None]:
    before, after, stdin = WRITERS[name]
    if "DATA" in before:
        data = folder / "data-in"
        if not data.exists():
            tiny_data(data)
        before = [str(data) if a == "DATA" else a for a in before]
    if "IN" in before:
        infile = folder / "in.jsonl"
        infile.write_text(json.dumps({"id": 1, "position": SIMPLE}) + "\n")
        before = [str(infile) if a == "IN" else a for a in before]
    return [*before, str(target), *after], stdin


@as_root
@pytest.mark.parametrize("name", list(WRITERS))
def test_a_device_copy_is_written_in_place_never_replaced(tmp_path, name):
    null = device(tmp_path, "null.png", 3)
    full = device(tmp_path, "full.png", 7)
    args, stdin = writer_args(name, null, tmp_path)
    r = durak(*args, stdin=stdin, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert is_the_device(null, 3), "the device was replaced by a file"
    args, stdin = writer_args(name, full, tmp_path)
    r = durak(*args, stdin=stdin, cwd=tmp_path)
    assert is_the_device(full, 7), "the device was replaced by a file"
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr
    # (game and play: the first save fails, so the session does not start: nothing is lost yet)
    assert r.returncode == 4, r.stderr
    line = [ln for ln in r.stderr.splitlines() if ln.startswith("durak: error:")]
    assert line == [f"durak: error: file {str(full)!r}: No space left on device"], r.stderr
    # no temporary file was left beside the devices, no lock file
    left = sorted(p.name for p in tmp_path.iterdir() if p.name.startswith("."))
    assert left == [], left


@as_root
def test_save_file_at_the_prompt_writes_into_a_device(tmp_path):
    null = device(tmp_path, "null", 3)
    full = device(tmp_path, "full", 7)
    r = durak("play", "--vs", "random", "--seed", "2", "--record", str(tmp_path / "g.txt"),
              stdin=f"save {null}\nsave {full}\nquit\n", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert f"saved 0 entries to {null}" in r.stdout
    assert f"error: {full}: No space left on device" in r.stdout
    assert is_the_device(null, 3) and is_the_device(full, 7)


@as_root
def test_a_block_device_is_refused_and_left_alone(tmp_path):
    blk = tmp_path / "disk"
    os.mknod(blk, 0o600 | stat.S_IFBLK, os.makedev(7, 200))  # a loop device's number
    for args in (["play-out", DEAL, "--seed", "3", "--record", str(blk)],
                 ["batch", "solve", "-", "--out", str(blk)]):
        r = durak(*args, stdin=json.dumps({"position": SIMPLE}) + "\n", cwd=tmp_path)
        assert r.returncode == 4, r.stderr
        assert f"file {str(blk)!r}: a block device" in r.stderr
        assert stat.S_ISBLK(os.lstat(blk).st_mode)


def test_a_fifo_is_written_in_place(tmp_path):
    fifo = tmp_path / "record.fifo"
    os.mkfifo(fifo)
    got: list[bytes] = []
    reader = threading.Thread(target=lambda: got.append(fifo.read_bytes()), daemon=True)
    reader.start()
    r = durak("play-out", DEAL, "--seed", "3", "--record", str(fifo), cwd=tmp_path)
    reader.join(30)
    assert r.returncode == 0, r.stderr
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert got and got[0].decode().startswith("# durak game record")
    assert sorted(p.name for p in tmp_path.iterdir()) == ["record.fifo"]


def test_a_link_is_followed_never_replaced(tmp_path):
    (tmp_path / "real").mkdir()
    target = tmp_path / "real" / "g.txt"
    target.write_text("old\n")
    link = tmp_path / "g.txt"
    link.symlink_to(target)
    r = durak("play-out", DEAL, "--seed", "3", "--record", str(link), cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert link.is_symlink() and os.readlink(link) == str(target)
    assert target.read_text().startswith("# durak game record")
    dangling = tmp_path / "new.txt"
    dangling.symlink_to(tmp_path / "real" / "made.txt")
    r = durak("puzzle", "generate", "--count", "1", "--seed", "1", "--out", str(dangling),
              cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert dangling.is_symlink() and (tmp_path / "real" / "made.txt").read_text().startswith("id")


# ---------------------------------------------------------------- 9. batch --out a device

def test_batch_out_dev_null_answers_and_dev_full_names_the_reason(tmp_path):
    infile = tmp_path / "in.jsonl"
    infile.write_text(json.dumps({"id": 1, "position": SIMPLE}) + "\n")
    r = durak("batch", "solve", str(infile), "--out", "/dev/null", cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert "1 answered" in r.stderr
    assert stat.S_ISCHR(os.stat("/dev/null").st_mode)
    r = durak("batch", "solve", str(infile), "--out", "/dev/full", cwd=tmp_path)
    assert r.returncode == 4
    assert r.stderr.splitlines()[-1] == "durak: error: file '/dev/full': No space left on device"


@pytest.mark.parametrize("where, reason", [
    ("missing/out.jsonl", "no such folder 'missing'"),
    (".", "Is a directory"),
])
def test_every_error_about_an_output_names_the_file_and_the_reason(tmp_path, where, reason):
    infile = tmp_path / "in.jsonl"
    infile.write_text(json.dumps({"id": 1, "position": SIMPLE}) + "\n")
    for args in (["batch", "solve", str(infile), "--out", where],
                 ["play-out", DEAL, "--seed", "3", "--record", where],
                 ["learn", "train", str(tiny_data(tmp_path / f"d{len(os.listdir(tmp_path))}")),
                  "--epochs", "1", "--out", where]):
        r = durak(*args, cwd=tmp_path)
        assert r.returncode == 4, (args, r.stderr)
        assert r.stderr.splitlines()[-1] == f"durak: error: file {where!r}: {reason}", r.stderr
