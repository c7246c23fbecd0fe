"""The hint table at the terminal (issue 68): one number per move, its chance, ordered
by it; the recommended move starred, the moves as good as the top marked; the call
and what the others' moves told under it in a player's words; the engine's figures
only under --verbose."""
from __future__ import annotations

import json
from pathlib import Path

from click.testing import CliRunner

from solver.cli import main
from solver.hints import hint

ROOT = Path(__file__).resolve().parent.parent
#: With seed 1 and 256 deals 6D has the highest chance, 6S and the greedy player's
#: 6S,6D are as good within the noise, and 6S,6D is recommended: the thriftier play.
HIDDEN = ("trump 9H; pile 7; hands 6S 6D QC KS TD AH | ?6; attacker 1; out 7S 8S 9S TS JS 6H 7H "
          "8H TH 7D 8D 9D 6C 7C 8C 9C TC; me 1")
#: Words of the engine that a player's view does not show.
ENGINE_WORDS = ("utility", "greedy", "standard error", "score", "margin", "effective")


def rows(output: str) -> list[list[str]]:
    """The table's body rows, cell by cell."""
    out = []
    for line in output.splitlines():
        if line.startswith("\u2502"):
            out.append([c.strip() for c in line.strip("\u2502").split("\u2502")])
    return out


def test_the_rows_follow_the_chance_and_the_star_is_within_the_noise_of_the_top():
    res = hint(HIDDEN, seed=1, samples=256)
    assert res.top == "6D" and res.best == "6S,6D" and res.choice.reason == "plain"
    r = CliRunner().invoke(main, ["hint", HIDDEN, "--seed", "1", "--samples", "256"])
    assert r.exit_code == 0, r.output
    assert "chance \u25bc" in r.output
    body = rows(r.output)
    assert [row[1] for row in body] == [m.move for m in res.moves]
    chances = [int(row[2].rstrip("%")) for row in body]
    assert chances == sorted(chances, reverse=True)
    assert body[0][1] == "6D"                                   # the top is the first row
    assert [row[1] for row in body if row[0] == "*"] == ["6S,6D"]  # the star: as good
    assert {row[1] for row in body if row[0] == "="} == {"6D", "6S"}
    star = next(m for m in res.moves if m.move == "6S,6D")
    assert res.moves[0].chance - star.chance <= 0.02            # never clearly lower
    words = " ".join(r.output.split())
    assert "recommended: 6S,6D (*), your chance 33% (30%\u201337%)" in words
    assert "A close call: 6D, 6S as good within the noise; 6S,6D is the thriftier play" in words
    assert not any(w in r.output.lower() for w in ENGINE_WORDS), r.output


def test_a_clear_best_is_the_top_row_and_says_how_far_the_next_is():
    r = CliRunner().invoke(main, ["hint", "--game", str(ROOT / "docs/examples/seat1-midgame.txt"),
                                  "--seed", "1", "--samples", "256"])
    assert r.exit_code == 0, r.output
    body = rows(r.output)
    assert body[0][0] == "*" and sum(row[0] == "*" for row in body) == 1
    assert not any(row[0] == "=" for row in body)
    assert f"{body[0][1]} stands out: the next best, {body[1][1]}, has {body[1][2]}" in \
        " ".join(r.output.split())
    assert "Seat 2 holds 9D: you saw it go into the hand" in r.output


def test_verbose_adds_the_engine_figures_and_json_names_them():
    r = CliRunner().invoke(main, ["hint", HIDDEN, "--seed", "1", "--samples", "64", "--verbose"])
    assert r.exit_code == 0, r.output
    head = r.output.splitlines()[2]
    for col in ("deals won", "drawn", "lost", "mean score", "best in", "card margin"):
        assert col in head
    assert "64 deals of" in r.output and "recommended by" in r.output
    j = CliRunner().invoke(main, ["hint", HIDDEN, "--seed", "1", "--samples", "64", "--json"])
    obj = json.loads(j.output)
    m = obj["moves"][0]
    assert abs(m["chance"] - (1 + m["score"]) / 2) < 1e-4
    assert m["chance_ci95"][0] <= m["chance"] <= m["chance_ci95"][1]
    assert {"card_margin", "deals_best_share", "tie_break_utility"} <= set(m)
    assert not {"utility", "best_share", "margin"} & set(m) and "kept" not in obj
    assert obj["best"] in obj["as_good"] and obj["top"] == m["move"]
    assert obj["chance"] == next(x["chance"] for x in obj["moves"] if x["move"] == obj["best"])
