"""The shipped mined collection (puzzles/mined.jsonl.gz, issue 70): big, fast to load,
no two puzzles alike, verified, themed and rated."""
from __future__ import annotations

import json
import random
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.game.state import GameState
from solver.notation import format_position, parse_position
from solver.puzzles.collection import check_puzzle
from solver.puzzles.ladder import BOTS
from solver.puzzles.mine import (MINED_FILE, canonical_key, load_library, load_mined,
                                 read_records)
from solver.puzzles.mine import _transformed
from solver.search import Solver

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"
MINED = PUZZLES / MINED_FILE


@pytest.fixture(scope="module")
def records() -> list[dict]:
    return read_records(MINED)


def test_loads_fast_and_holds_three_thousand() -> None:
    t0 = time.perf_counter()
    colls = load_mined(MINED)
    seconds = time.perf_counter() - t0
    n = sum(len(c.puzzles) for c in colls)
    assert n >= 3000
    assert seconds < 1.0, seconds
    assert MINED.stat().st_size < 4_000_000


def test_no_two_equivalent(records: list[dict]) -> None:
    keys = [r["key"] for r in records]
    assert len(set(keys)) == len(keys)
    assert len({r["id"] for r in records}) == len(records)
    for r in random.Random(1).sample(records, 50):  # the stored key is the position's own
        assert canonical_key(parse_position(r["position"]).state, r["task"]) == r["key"]


def test_canonical_key_forgets_suit_names_and_seat_numbers() -> None:
    state = parse_position("trump D; hands 8S 9S AS QC | 9H 8C TD; table AD; attacker 1; "
                           "take").state
    key = canonical_key(state, "win")
    for perm in ((1, 0, 2, 3), (3, 2, 1, 0), (2, 3, 1, 0)):
        assert canonical_key(_transformed(state, perm, 0), "win") == key
    three = parse_position("trump H; hands 6S 7S | 8C 9C | TD JD; attacker 2").state
    rotated: GameState = _transformed(three, (0, 1, 2, 3), 1)
    assert format_position(rotated) != format_position(three)
    assert canonical_key(rotated, "avoid-durak") == canonical_key(three, "avoid-durak")
    assert canonical_key(three, "win") != canonical_key(three, "avoid-durak")
    # the trump suit is not a plain suit: renaming it is another position
    other = parse_position("trump S; hands 8S 9S AS QC | 9H 8C TD; table AD; attacker 1; "
                           "take").state
    assert canonical_key(other, "win") != key


def test_families_and_their_counts(records: list[dict]) -> None:
    per: dict[str, int] = {}
    for r in records:
        per[r["family"]] = per.get(r["family"], 0) + 1
    assert per["mined-podkidnoy"] >= 500 and per["mined-transfer"] >= 500
    assert per["mined-3p"] >= 100
    assert len(per) >= 5


def test_a_sample_is_verified_by_the_checker() -> None:
    puzzles = [p for c in load_mined(MINED) for p in c.puzzles]
    solver = Solver(tt_mb=16)
    for p in random.Random(70).sample(puzzles, 30):
        res = check_puzzle(p, solver)
        assert res.ok, (p.id, res.problems)
        assert len(p.solution) == 1 and p.pv


def test_every_puzzle_has_themes_a_title_and_a_rating() -> None:
    colls = load_library(PUZZLES)
    for c in colls:
        for p in c.puzzles:
            assert p.rating is not None, p.id
            if c.path.endswith(MINED_FILE):
                assert p.tags and p.title and p.comment
                assert p.text("title", "lt") != p.title or p.text("title", "ru") != p.title


def test_the_ladder_fails_more_as_the_rating_rises(records: list[dict]) -> None:
    rated = sorted((r["rating"], r["ladder"]) for r in records)
    third = len(rated) // 3
    low, high = rated[:third], rated[-third:]
    for i, (name, _n) in enumerate(BOTS):
        lo = sum(ks[i] for _r, ks in low) / len(low)
        hi = sum(ks[i] for _r, ks in high) / len(high)
        assert hi < lo, name
    # and the bots' success over all puzzles rises up the ladder, by and large
    totals = [sum(ks[i] for _r, ks in rated) for i in range(len(BOTS))]
    assert totals[0] < totals[2] < totals[-1]


def test_hand_made_studies_with_longer_lines_rate_higher() -> None:
    """The hand-made collections carry no difficulty mark but their line's length: the
    half with the longer forced lines rates above the half with the shorter ones."""
    hand = [p for c in load_library(PUZZLES) if not c.path.endswith(MINED_FILE)
            for p in c.puzzles]
    plies = sorted(p.plies or len(p.pv) for p in hand)
    median = plies[len(plies) // 2]
    short = [p.rating for p in hand if (p.plies or len(p.pv)) < median]
    long_ = [p.rating for p in hand if (p.plies or len(p.pv)) >= median]
    assert sum(long_) / len(long_) > sum(short) / len(short) + 50


def test_the_commands_see_the_mined_collections() -> None:
    r = CliRunner().invoke(main, ["puzzle", "list", "--count", "--json"])
    assert r.exit_code == 0, r.output
    counts = json.loads(r.output)
    assert counts["total"] == sum(counts["collections"].values()) >= 3100
    assert counts["collections"]["mined-3p"] >= 100
    r = CliRunner().invoke(main, ["puzzle", "list", "--count"])
    assert r.exit_code == 0 and "mined-podkidnoy" in r.output and "total" in r.output
    r = CliRunner().invoke(main, ["puzzle", "show", "mpk-0001", "--json", "--solution"])
    assert r.exit_code == 0, r.output
    shown = json.loads(r.output)
    assert shown["collection"] == "mined-podkidnoy" and shown["rating"] > 0 and shown["pv"]
    r = CliRunner().invoke(main, ["puzzle", "check", "-j", "2", "--id", "mpk-0001",
                                  "--id", "m3p-0001", "--id", "mo-001"])
    assert r.exit_code == 0, r.output
    assert "checked 3 puzzles" in r.output


@pytest.mark.parametrize("name,content,problem", [
    ("mined.jsonl.gz", b"not gzip", "cannot read the mined puzzles: Not a gzipped file"),
    ("ratings.json", b'{"puzzles": 3}', "not a ratings file"),
    ("ratings.json", b"\xff\xfe", "cannot read: not UTF-8 text (byte 0xff at offset 0)"),
])
def test_a_damaged_mined_file_or_ratings_file_in_a_users_directory_is_named(tmp_path, name,
                                                                            content, problem):
    """A --dir is the user's: a damaged mined file or ratings file is one line naming the
    file, exit 2, no traceback."""
    for f in PUZZLES.glob("*.toml"):
        (tmp_path / f.name).write_bytes(f.read_bytes())
    (tmp_path / name).write_bytes(content)
    r = CliRunner().invoke(main, ["puzzle", "--dir", str(tmp_path), "list", "--count"])
    assert r.exit_code == 2, r.output
    assert f"{tmp_path / name}: {problem}" in r.output and "Traceback" not in r.output, r.output
