"""The hint table at the terminal: ordered by the utility column it shows, the
recommended move starred, and a kept greedy move's reason in one line."""
from __future__ import annotations

from pathlib import Path

from click.testing import CliRunner

from solver.cli import main
from solver.hints import hint

ROOT = Path(__file__).resolve().parent.parent
#: With seed 1 the hint keeps the greedy player's move (6S,6D) over the top-scored 6D.
HIDDEN = ("trump 9H; pile 7; hands 6S 6D QC KS TD AH | ?6; attacker 1; out 7S 8S 9S TS JS 6H 7H "
          "8H TH 7D 8D 9D 6C 7C 8C 9C TC; me 1")


def rows(output: str) -> list[list[str]]:
    """The table's body rows, cell by cell."""
    out = []
    for line in output.splitlines():
        if line.startswith("\u2502"):
            out.append([c.strip() for c in line.strip("\u2502").split("\u2502")])
    return out


def test_the_rows_follow_the_utility_column_and_the_kept_move_says_why():
    res = hint(HIDDEN, seed=1)
    assert res.kept is not None and res.best == res.moves[0].move == "6S,6D"
    r = CliRunner().invoke(main, ["hint", HIDDEN, "--seed", "1"])
    assert r.exit_code == 0, r.output
    assert "utility \u25bc" in r.output
    body = rows(r.output)
    utils = [float(row[2]) for row in body]
    assert utils == sorted(utils, reverse=True)
    assert [row[1] for row in body] == [m.move for m in res.by_utility()]
    starred = [row[1] for row in body if row[0] == "*"]
    assert starred == ["6S,6D"] and body[0][1] == "6D"  # the kept move is not the top row
    assert ("recommended: 6S,6D (marked *): the greedy player's move, kept over 6D, whose "
            "utility is +0.015 higher on the same deals, within one standard error") in \
        " ".join(r.output.split())
    # the utility is the score plus the card margin / 60, as shown
    for m in res.moves:
        assert abs(m.utility - (m.score + m.margin / 60)) < 1e-12


def test_without_a_kept_move_the_starred_row_is_the_top_one():
    r = CliRunner().invoke(main, ["hint", "--game", str(ROOT / "docs/examples/seat1-midgame.txt"), "--seed", "1"])
    assert r.exit_code == 0, r.output
    body = rows(r.output)
    assert body[0][0] == "*" and sum(row[0] == "*" for row in body) == 1
    assert f"recommended: {body[0][1]} (marked *, the highest utility)" in r.output
