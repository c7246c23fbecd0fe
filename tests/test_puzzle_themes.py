"""Themes found from the solution line (solver/puzzles/themes.py), held to the hand-made studies."""
from __future__ import annotations

from pathlib import Path

import pytest

from solver.puzzles.collection import load_collection
from solver.puzzles.themes import THEMES, detect, title_and_comment

PUZZLES = Path(__file__).resolve().parent.parent / "puzzles"

#: Hand-made puzzles outside motifs.toml whose authors' tags the detector reads
#: otherwise, and why (motifs.toml has no exception).
EXCEPTIONS = {
    # "Hold back the throw-in": the author calls the passing a squeeze; the detector
    # finds it as the quiet move (the squeeze is the hero's own throw-in into a take)
    ("mp-003", "squeeze"),
    # the defender has already taken; the throw-in that wins is the right throw-in,
    # not a squeeze of a defender who had covered
    ("tr-018", "squeeze"),
}


def _puzzles(name: str) -> list:
    return load_collection(PUZZLES / f"{name}.toml").puzzles


@pytest.mark.parametrize("p", _puzzles("motifs"), ids=lambda p: p.id)
def test_motif_study_tags_are_found(p) -> None:
    found = detect(p.position, p.task, p.hero, p.pv)
    assert set(p.tags) <= set(found), (p.id, sorted(set(p.tags) - set(found)))


def test_the_other_collections_tags_are_found_but_the_exceptions() -> None:
    missing = set()
    for name in ("podkidnoy", "transfer", "multiplayer"):
        for p in _puzzles(name):
            found = set(detect(p.position, p.task, p.hero, p.pv))
            missing |= {(p.id, t) for t in set(p.tags) - found - {"generated"}}
    assert missing == EXCEPTIONS


def test_squeeze_needs_the_cover_before_the_throw_in() -> None:
    # mo-010: TS TS/KS +KD take -- the defender covered, the throw-in he cannot beat
    assert "squeeze" in detect("trump D; hands KS TH 8D | TS KD 8C; attacker 2", "win", 2,
                               ["TS", "TS/KS", "+KD", "take", "8C", "8C/8D"])
    # a lead he takes at once: no squeeze, no throw-in
    found = detect("trump D; hands TH KD TC | KH; attacker 1", "win", 1,
                   ["TC", "take", "TH", "TH/KH", "+KD", "take"])
    assert "lead" in found and "last trump" in found


def test_forced_take_and_quiet_move() -> None:
    found = detect("trump S; hands 6D JD | 6S JS QC; table QH; attacker 1", "win", 2,
                   ["take", "6D", "6D/6S", "JS", "take", "QH,QC", "QH/JS", "take"])
    assert "forced take" in found and "defence" in found
    found = detect("trump D; hands 8S 9S AS | 9H 8C; table AD; attacker 1; take", "win", 1,
                   ["pass", "8S", "8S/AD", "+AS", "take", "9S", "9S/AS"])
    assert "quiet move" in found


def test_titles_and_comments_in_three_languages() -> None:
    en = title_and_comment(("squeeze", "take"), 12, "en")
    assert en == ("The throw-in squeeze", "Themes: squeeze, take. The forced line is 12 plies long.")
    for lang in ("lt", "ru"):
        title, comment = title_and_comment(("squeeze", "take"), 12, lang)
        assert title != en[0] and comment != en[1], lang
    assert len({name for name, _p, _t in THEMES}) == len(THEMES)
