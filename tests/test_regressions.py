"""The rules regression corpus (puzzles/regressions/rules.toml), through both engines.

Every case is a position where an engine once went wrong: the moves are played
by the readable rules (``solver.game.movegen``, each checked legal) and by the
compiled core, and both must reach the expected position with the expected
legal moves, state for state.
"""
from __future__ import annotations

import sys
from pathlib import Path

import pytest
from test_core_movegen import py_fields

from solver.game.movegen import apply_move, legal_moves
from solver.game.moves import Move
from solver.notation import format_position, parse_position
from solver.search.native import core, load, move_text

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover - the lowest supported Python
    import tomli as tomllib

CORPUS = Path(__file__).resolve().parent.parent / "puzzles" / "regressions" / "rules.toml"
CASES = tomllib.loads(CORPUS.read_text(encoding="utf-8"))["case"]


def test_the_corpus_is_well_formed():
    ids = [c["id"] for c in CASES]
    assert len(ids) == len(set(ids))
    for c in CASES:
        assert set(c) == {"id", "rule", "found", "position", "moves", "expect", "legal"}, c["id"]
        assert c["id"].startswith(c["rule"].split()[0]), c["id"]


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_regression_case(case):
    s = parse_position(case["position"]).state
    cs = load(core.Search(1), s)
    for text in case["moves"]:
        s = apply_move(s, Move.parse(text))
        cs = cs.play([move_text(m) for m in cs.moves()].index(text))
        assert cs.fields() == py_fields(s), (case["id"], text)
    assert format_position(s) == case["expect"]
    assert [str(m) for m in legal_moves(s)] == case["legal"]
    assert [move_text(m) for m in cs.moves()] == case["legal"]
