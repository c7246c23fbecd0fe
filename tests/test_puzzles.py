"""The puzzle format (solver/puzzles.py), the verifier, the generator and the shipped collections."""
from __future__ import annotations

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.game.rules import parse_rules
from solver.game.value import Value
from solver.puzzles.collection import (PuzzleFormatError, check_puzzle, default_dir,
                                       format_collection, load_all, load_collection,
                                       parse_collection)
from solver.puzzles.generate import TRIES_PER_PUZZLE, GenOptions, as_collection, generate
from solver.search import Solver

HEADER = '''id = "mini"
title = "Mini"
introduction = """
Small puzzles for the tests.
"""
'''

TAKE_AND_WIN = '''
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
'''


def parse(body: str):
    return parse_collection(HEADER + body, "mini.toml")


def error_of(body: str) -> PuzzleFormatError:
    with pytest.raises(PuzzleFormatError) as ei:
        parse(body)
    return ei.value


# ------------------------------------------------------------------ parser

def test_parses_a_collection():
    c = parse(TAKE_AND_WIN)
    assert (c.id, c.title, c.introduction) == ("mini", "Mini", "Small puzzles for the tests.")
    (p,) = c.puzzles
    assert p.id == "mini-001" and p.hero == 2 and p.task == "win"
    assert p.solution == ("take",) and p.pv[:3] == ("take", "JC", "JC/AC")
    assert (p.nodes, p.plies) == (239, 9)
    assert p.tags == ("forced take",) and p.collection == "mini"
    assert p.task_text == "Seat 2 to move and win"
    assert p.state().to_move == 1


def test_format_round_trips():
    c = parse(TAKE_AND_WIN)
    again = parse_collection(format_collection(c), "again.toml")
    assert [p.__dict__ | {"path": ""} for p in again.puzzles] == \
        [p.__dict__ | {"path": ""} for p in c.puzzles]
    assert again.introduction == c.introduction


def test_moves_are_made_canonical():
    c = parse(TAKE_AND_WIN.replace('solution = ["take"]', 'solution = ["TAKE"]')
              .replace('"JC/AC"', '"jc/ac"'))
    assert c.puzzles[0].solution == ("take",) and "JC/AC" in c.puzzles[0].pv


@pytest.mark.parametrize("field", ["title", "position", "task", "solution"])
def test_missing_field_is_named(field):
    body = "\n".join(line for line in TAKE_AND_WIN.splitlines()
                     if not line.startswith(f"{field} ="))
    e = error_of(body)
    assert (e.path, e.puzzle, e.field) == ("mini.toml", "mini-001", field)
    assert str(e).startswith(f"mini.toml: puzzle mini-001: field '{field}': missing")


def test_missing_id_names_the_puzzle_by_number():
    e = error_of(TAKE_AND_WIN.replace('id = "mini-001"\n', ""))
    assert e.puzzle == "#1" and e.field == "id"


def test_bad_position_quotes_the_notation_error():
    e = error_of(TAKE_AND_WIN.replace("table AC", "table AC; bogus 3"))
    assert e.field == "position" and e.puzzle == "mini-001"
    assert "bogus" in str(e)


def test_duplicate_card_in_position():
    e = error_of(TAKE_AND_WIN.replace("hands QD JC", "hands QD JC QS"))
    assert e.field == "position"


def test_wrong_task():
    e = error_of(TAKE_AND_WIN.replace('task = "win"', 'task = "mate"'))
    assert e.field == "task" and "unknown task 'mate'" in str(e)


def test_avoid_durak_needs_three_players():
    e = error_of(TAKE_AND_WIN.replace('task = "win"', 'task = "avoid-durak"'))
    assert e.field == "task"


def test_hero_must_be_the_seat_to_move():
    e = error_of(TAKE_AND_WIN.replace("hero = 2", "hero = 1"))
    assert e.field == "hero" and "seat to move" in str(e)


def test_illegal_solution_move():
    e = error_of(TAKE_AND_WIN.replace('solution = ["take"]', 'solution = ["AC/JH"]'))
    assert e.field == "solution" and "not legal" in str(e)


def test_unparsable_solution_move():
    e = error_of(TAKE_AND_WIN.replace('solution = ["take"]', 'solution = ["XX"]'))
    assert e.field == "solution"


def test_pv_must_start_with_a_solution_and_be_legal():
    e = error_of(TAKE_AND_WIN.replace('pv = ["take", "JC"', 'pv = ["AC/QS", "JC"'))
    assert e.field == "pv"
    e = error_of(TAKE_AND_WIN.replace('"JC/AC", "JH"', '"JC/AC", "KH"'))
    assert e.field == "pv" and "move 4" in str(e)


def test_wrong_types_and_unknown_fields():
    assert error_of(TAKE_AND_WIN.replace("hero = 2", 'hero = "2"')).field == "hero"
    assert error_of(TAKE_AND_WIN.replace('tags = ["forced take"]', 'tags = "take"')).field == "tags"
    assert error_of(TAKE_AND_WIN + 'colour = "red"\n').field == "colour"
    assert error_of(TAKE_AND_WIN.replace("plies = 9", "plys = 9")).field == "difficulty.plys"


def test_duplicate_ids_and_bad_toml():
    e = error_of(TAKE_AND_WIN + TAKE_AND_WIN)
    assert e.field == "id" and "duplicate" in str(e)
    with pytest.raises(PuzzleFormatError, match="not valid TOML"):
        parse_collection("id = ", "broken.toml")
    with pytest.raises(PuzzleFormatError, match="introduction"):
        parse_collection('id = "x"\ntitle = "x"\n', "header.toml")


def test_load_collection_names_the_file(tmp_path):
    f = tmp_path / "bad.toml"
    f.write_text(HEADER + TAKE_AND_WIN.replace('task = "win"', 'task = "lose"'))
    with pytest.raises(PuzzleFormatError, match=r"bad\.toml: puzzle mini-001: field 'task'"):
        load_collection(f)


# ---------------------------------------------------------------- verifier

def test_check_accepts_a_right_puzzle():
    (p,) = parse(TAKE_AND_WIN).puzzles
    r = check_puzzle(p, Solver(tt_mb=4))
    assert r.ok, r.problems
    assert r.value == Value.WIN and r.solution == ("take",) and r.greedy != "take"
    assert r.distance == 9


def test_check_reports_every_disagreement():
    body = (TAKE_AND_WIN.replace('solution = ["take"]', 'solution = ["take", "AC/QS"]')
            .replace('pv = ["take", "JC", "JC/AC", "JH", "take", "JD", "JD/QD", "+QS", "take"]',
                     'pv = []')
            .replace("plies = 9", "plies = 7"))
    (p,) = parse(body).puzzles
    r = check_puzzle(p, Solver(tt_mb=4))
    assert not r.ok
    text = "\n".join(r.problems)
    assert "solution" in text and "plies" in text


def test_check_catches_a_greedy_solution():
    # both 6S and 7S win here and greedy leads 6S: not a puzzle
    body = '''
[[puzzle]]
id = "mini-002"
title = "Too easy"
position = "trump H; hands 6S 7S KH | 8C 9C AH; attacker 1"
task = "win"
solution = ["6S", "7S"]
'''
    (p,) = parse(body).puzzles
    r = check_puzzle(p, Solver(tt_mb=4))
    assert r.solution == ("6S", "7S")
    assert any("greedy" in x for x in r.problems)


# ------------------------------------------------------------- collections

def test_shipped_collections_parse_and_are_big_enough():
    colls = load_all()
    ids = {c.id for c in colls}
    assert {"podkidnoy", "transfer", "multiplayer", "motifs"} <= ids
    assert sum(len(c.puzzles) for c in colls) >= 100
    for c in colls:
        assert c.introduction and len(c.puzzles) >= 15, c.id
    mp = next(c for c in colls if c.id == "multiplayer")
    assert all(p.state().players >= 3 for p in mp.puzzles)
    tr = next(c for c in colls if c.id == "transfer")
    assert all(p.state().rules.transfer for p in tr.puzzles)


def test_the_whole_collection_checks():
    """The collection's regression test: every stored solution re-verified (CI)."""
    r = CliRunner().invoke(main, ["puzzle", "check"])
    assert r.exit_code == 0, r.output
    assert " 0 failed" in r.output.splitlines()[-1]


def test_default_dir_is_the_checkout():
    assert (default_dir() / "README.md").is_file()


# --------------------------------------------------------------- generator

def _gen(seed: int, **kw):
    opts = GenOptions(count=3, seed=seed, max_cards=7, min_depth=4, tries=300, **kw)
    return format_collection(as_collection(generate(opts), "gen", "Generated", "For a test."))


def test_the_default_budget_finds_what_the_readme_asks():
    """`durak puzzle generate --count 3 --seed 1 --players 2` (the README's example) with
    the default budget: at 60 candidates a puzzle it found 2 of the 3 and exited 3."""
    opts = GenOptions(count=3, seed=1, players=2)
    assert opts.budget == 3 * TRIES_PER_PUZZLE
    assert GenOptions(count=3, tries=50).budget == 50
    assert len(generate(opts)) == 3


def test_generator_is_deterministic():
    a, b = _gen(5), _gen(5)
    assert a == b
    assert a.count("[[puzzle]]") == 3
    assert _gen(6) != a


def test_generated_puzzles_verify():
    text = _gen(7, rules=parse_rules("transfer"), method="sample")
    c = parse_collection(text, "gen.toml")
    assert c.puzzles
    solver = Solver(tt_mb=4)
    for p in c.puzzles:
        assert p.plies >= 4
        r = check_puzzle(p, solver)
        assert r.ok, (p.id, r.problems)
