"""`durak puzzle` commands, driven through click's CliRunner on a small collection."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from solver.cli import main

MINI = '''id = "mini"
title = "Mini collection"
introduction = "Two small puzzles for the command tests."

[[puzzle]]
id = "mini-001"
title = "Take and win"
position = "trump S; hands QD JC | QS JH JD; table AC; attacker 1"
task = "win"
hero = 2
solution = ["take"]
pv = ["take", "JC", "JC/AC", "JH", "take", "JD", "JD/QD", "+QS", "take"]
difficulty = { nodes = 239, plies = 9 }
tags = ["forced take"]
comment = "Covering with the last trump leaves the queen of diamonds to be thrown in."
'''

WRONG = MINI.replace('"mini"', '"wrong"', 1).replace("mini-001", "wrong-001") \
    .replace('solution = ["take"]', 'solution = ["AC/QS"]') \
    .replace('pv = ["take", "JC", "JC/AC", "JH", "take", "JD", "JD/QD", "+QS", "take"]', "pv = []")


@pytest.fixture()
def pdir(tmp_path):
    (tmp_path / "mini.toml").write_text(MINI, encoding="utf-8")
    return tmp_path


def run(pdir, *args, input=None):
    return CliRunner().invoke(main, ["puzzle", "--dir", str(pdir), *args], input=input)


def test_list(pdir):
    r = run(pdir, "list")
    assert r.exit_code == 0, r.output
    assert "mini-001" in r.output and "Mini collection" in r.output
    r = run(pdir, "list", "mini", "--json")
    d = json.loads(r.output)
    assert d["collections"][0]["id"] == "mini"
    assert d["collections"][0]["puzzles"][0]["id"] == "mini-001"


def test_list_unknown_collection_is_bad_input(pdir):
    r = run(pdir, "list", "nosuch")
    assert r.exit_code == 2 and "nosuch" in r.output


def test_show_hides_the_solution_unless_asked(pdir):
    r = run(pdir, "show", "mini-001")
    assert r.exit_code == 0, r.output
    assert "Seat 2 to move and win" in r.output and "QS JH JD" in r.output
    assert "Solution" not in r.output
    r = run(pdir, "show", "mini-001", "--solution")
    assert "Solution: take" in r.output and "1:JC" in r.output and "Comment:" in r.output
    d = json.loads(run(pdir, "show", "mini-001", "--json").output)
    assert d["id"] == "mini-001" and "solution" not in d
    d = json.loads(run(pdir, "show", "mini-001", "--json", "--solution").output)
    assert d["solution"] == ["take"] and d["difficulty"]["plies"] == 9


def test_show_unknown_id(pdir):
    r = run(pdir, "show", "nope-1")
    assert r.exit_code == 2 and "nope-1" in r.output


def test_solve_puts_the_solver_next_to_the_file(pdir):
    r = run(pdir, "solve", "mini-001")
    assert r.exit_code == 0, r.output
    assert "stored" in r.output and "solver" in r.output and "agrees" in r.output
    d = json.loads(run(pdir, "solve", "mini-001", "--json").output)
    assert d["agrees"] is True and d["solver"]["value"] == "win"
    assert d["solver"]["solution"] == ["take"] and d["stored"]["solution"] == ["take"]
    assert d["greedy"] != "take"


def test_check_passes_and_fails(pdir):
    r = run(pdir, "check")
    assert r.exit_code == 0, r.output
    assert "1 ok, 0 failed" in r.output
    (pdir / "wrong.toml").write_text(WRONG, encoding="utf-8")
    r = run(pdir, "check")
    assert r.exit_code == 1
    assert "MISMATCH wrong-001" in r.output and "1 failed" in r.output
    r = run(pdir, "check", "wrong", "--json")
    d = json.loads(r.output)
    assert r.exit_code == 1 and d["failed"] == 1 and d["results"][0]["problems"]
    r = run(pdir, "check", "--id", "mini-001")
    assert r.exit_code == 0


def test_check_a_collection_file_by_path(pdir):
    r = CliRunner().invoke(main, ["puzzle", "check", str(pdir / "mini.toml")])
    assert r.exit_code == 0, r.output


def test_bad_file_is_bad_input(pdir):
    (pdir / "broken.toml").write_text(MINI.replace('task = "win"', 'task = "mate"'))
    r = run(pdir, "list")
    assert r.exit_code == 2
    assert "broken.toml: puzzle mini-001: field 'task'" in r.output


def test_train_accepts_the_right_line(pdir):
    r = run(pdir, "train", "--id", "mini-001", input="take\nJC/AC\nJH\nJD\n+QS\n")
    assert r.exit_code == 0, r.output
    assert "take: correct." in r.output
    assert "Seat 1 leads JC." in r.output
    assert "seat 1 is the durak" in r.output and "Solved!" in r.output
    assert "Solved 1 of 1" in r.output


def test_train_refutes_a_wrong_move_and_allows_a_retry(pdir):
    r = run(pdir, "train", "mini", input="AC/QS\ntake\nquit\n")
    assert r.exit_code == 0, r.output
    assert "Wrong: after AC/QS you lose" in r.output
    assert "Refutation: 1:+QD 2:take" in r.output and "seat 2 is the durak" in r.output
    assert "take: correct." in r.output
    # quit in the middle: the puzzle is left, not missed
    assert "Solved 0 of" not in r.output and "1 puzzle left unfinished." in r.output


def test_train_counts_a_puzzle_with_a_wrong_move_failed_though_the_retry_finds_the_line(pdir):
    """A wrong move fails the puzzle for that try whatever follows, as the web page's
    tally counts it (tests/test_web_pages.py): the right line after it finishes the
    puzzle, not solved."""
    r = run(pdir, "train", "--id", "mini-001", input="AC/QS\ntake\nJC/AC\nJH\nJD\n+QS\n")
    assert r.exit_code == 0, r.output
    assert "Wrong: after AC/QS" in r.output and "take: correct." in r.output
    assert "Solved!" not in r.output
    assert "Finished, with help or a mistake on the way." in r.output
    assert "Solved 0 of 1 puzzle cleanly." in r.output


def test_train_hint_moves_and_bad_input(pdir):
    r = run(pdir, "train", "--id", "mini-001", input="hint\nhint\nmoves\nzz\nAC/JH\n")
    assert r.exit_code == 0, r.output
    assert "Hint: ask yourself whether you must cover at all." in r.output
    assert "Hint: take works here." in r.output
    assert "Legal moves: AC/QS take" in r.output
    assert "Not a move" in r.output and "not legal here" in r.output


def test_generate_is_deterministic_for_any_worker_count_and_checks(tmp_path):
    out1, out2 = tmp_path / "a.toml", tmp_path / "b.toml"
    args = ["puzzle", "generate", "--count", "2", "--seed", "9", "--max-cards", "7",
            "--min-depth", "4", "--tries", "300"]
    r1 = CliRunner().invoke(main, args + ["--out", str(out1)])
    r2 = CliRunner().invoke(main, args + ["--out", str(out2), "--workers", "2"])
    assert r1.exit_code == 0 and r2.exit_code == 0, r1.output
    assert out1.read_text() == out2.read_text()
    assert out1.read_text().count("[[puzzle]]") == 2
    r = CliRunner().invoke(main, ["puzzle", "check", str(out1)])
    assert r.exit_code == 0, r.output


def test_generate_json_and_stdout():
    args = ["puzzle", "generate", "--count", "1", "--seed", "3", "--max-cards", "6",
            "--min-depth", "3", "--tries", "200", "--players", "3", "--json"]
    r = CliRunner().invoke(main, args)
    assert r.exit_code == 0, r.output
    line = [x for x in r.output.splitlines() if x.startswith("{")][0]
    d = json.loads(line)
    assert d["count"] <= 1
    for p in d["puzzles"]:
        assert p["task"] == "avoid-durak" and p["hero"] >= 1


def test_check_with_the_reference_backend(pdir):
    r = CliRunner().invoke(main, ["puzzle", "--dir", str(pdir), "--backend", "reference", "check"])
    assert r.exit_code == 0, r.output
    assert "1 ok, 0 failed" in r.output


def test_solve_exits_1_when_the_solver_disagrees(pdir):
    (pdir / "wrong.toml").write_text(WRONG, encoding="utf-8")
    r = run(pdir, "solve", "wrong-001")
    assert r.exit_code == 1 and "MISMATCH" in r.output
    r = run(pdir, "solve", "wrong-001", "--json")
    assert r.exit_code == 1 and json.loads(r.output)["agrees"] is False
