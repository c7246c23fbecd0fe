"""Damaged learning data (issue 60, item 7), through the real commands.

`durak learn train` on a shard cut short, holding a junk line, missing a field,
holding a number too long to read, or not gzip at all: exit 2, one line naming
the shard and the line (it was exit 1 with ``EOFError`` or ``KeyError``, or
exit 4 naming no file).  `durak learn generate --resume` reads each shard it
keeps through and plays a damaged one again, to the bytes of an unbroken run.
The machinery: :func:`solver.learn.generate.read_shard`.
"""
from __future__ import annotations

import gzip
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from terminal import as_at_a_terminal

from test_output_targets import tiny_data

pytest.importorskip("numpy", reason="durak learn train needs numpy (the train extra)")

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}


def durak(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "solver.cli", *args], text=True,
                          capture_output=True, env=ENV, cwd=ROOT, timeout=300,
                          preexec_fn=as_at_a_terminal)


def lines_of(path: Path) -> list[str]:
    with gzip.open(path, "rt", encoding="utf-8") as fh:
        return fh.read().splitlines()


def rewrite(path: Path, lines: list[str]) -> None:
    with gzip.open(path, "wt", encoding="utf-8") as fh:
        fh.write("\n".join(lines) + "\n")


def _cut_short(p: Path) -> None:
    data = p.read_bytes()
    p.write_bytes(data[: len(data) - 12])  # the gzip trailer and the end of the data gone


def _junk_line(p: Path) -> None:
    lines = lines_of(p)
    rewrite(p, lines[:2] + ["}{ not an example"] + lines[2:])


def _no_scores(p: Path) -> None:
    lines = lines_of(p)
    row = json.loads(lines[1])
    del row["scores"]
    rewrite(p, [lines[0], json.dumps(row)] + lines[2:])


def _wrong_length(p: Path) -> None:
    lines = lines_of(p)
    row = json.loads(lines[0])
    row["features"] = row["features"][:1]
    rewrite(p, [json.dumps(row)] + lines[1:])


def _huge_number(p: Path) -> None:
    lines = lines_of(p)
    row = json.loads(lines[3])
    row["chosen"] = -1
    huge = json.dumps(row).replace('"chosen": -1', '"chosen": ' + "9" * 5000)
    rewrite(p, lines[:3] + [huge])


def _not_gzip(p: Path) -> None:
    p.write_text("\n".join(lines_of(p)) + "\n")  # the same lines, not compressed


@pytest.mark.parametrize("damage, line, says", [
    (_cut_short, None, "the file is cut short"),
    (_junk_line, 3, "not one JSON example"),
    (_no_scores, 2, "no 'scores'"),
    (_wrong_length, 1, "'features' must hold, for each of the 2 moves"),
    (_huge_number, 4, "chosen: a number of 5,000 digits"),
    (_not_gzip, 1, "not a gzip file"),
])
def test_train_on_a_damaged_shard_names_the_shard_and_the_line(tmp_path, damage, line, says):
    data = tiny_data(tmp_path / "data")
    shard = data / "shard-00000.jsonl.gz"
    damage(shard)
    r = durak("learn", "train", str(data), "--epochs", "1", "--out", str(tmp_path / "m.json"))
    assert r.returncode == 2, r.stderr
    errors = [ln for ln in r.stderr.splitlines() if ln.startswith("durak:")]
    assert len(errors) == 1 and "Traceback" not in r.stderr, r.stderr
    where = f"durak: error: {str(shard)!r}: line {line}: " if line else \
        f"durak: error: {str(shard)!r}: line "
    assert errors[0].startswith(where) and says in errors[0], errors[0]
    assert not (tmp_path / "m.json").exists()


def test_resume_plays_a_damaged_shard_again(tmp_path):
    args = ["learn", "generate", "--games", "2", "--shard-games", "1", "--samples", "4",
            "--iterations", "0", "--seed", "3", "-j", "1"]
    out = tmp_path / "data"
    assert durak(*args, "--out", str(out)).returncode == 0
    shards = [out / f"shard-{i:05d}.jsonl.gz" for i in range(2)]
    whole = [p.read_bytes() for p in shards]
    _cut_short(shards[1])
    kept = os.stat(shards[0]).st_mtime_ns
    r = durak(*args, "--out", str(out), "--resume", "--json")
    assert r.returncode == 0, r.stderr
    assert json.loads(r.stdout)["written"] == 1
    said = [ln for ln in r.stderr.splitlines() if "played again" in ln]
    assert len(said) == 1 and str(shards[1]) in said[0] and "cut short" in said[0], r.stderr
    assert [p.read_bytes() for p in shards] == whole
    assert os.stat(shards[0]).st_mtime_ns == kept  # the whole one was kept as it was
    # a shard holding another shard's games is not kept either
    shards[0].write_bytes(whole[1])
    r = durak(*args, "--out", str(out), "--resume")
    assert r.returncode == 0 and "not one of this shard's" in r.stderr, r.stderr
    assert [p.read_bytes() for p in shards] == whole
