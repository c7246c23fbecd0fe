"""The top-level Python API mirrors the commands (NOTATION.md, "The Python API")."""
from __future__ import annotations

import json

from click.testing import CliRunner

import solver
from solver import Value
from solver.cli import main

POS = "trump H; hands 6S 7S KH | 8C 9C AH; attacker 1"


def test_solve_matches_cli_json():
    api = solver.solve(POS)
    out = CliRunner().invoke(main, ["solve", POS, "--json"])
    assert out.exit_code == 0
    cli = json.loads(out.output)
    assert (api.value.text, api.best, api.pv) == (cli["value"], cli["best"], cli["pv"])
    # seat 1 wins by leading a spade: the king of trumps would be the losing lead
    assert api.value == Value.WIN and "KH" not in api.best


def test_analyse_gives_every_legal_move():
    res = solver.analyse(POS)
    state = solver.parse_position(POS).state
    from solver.game.movegen import legal_moves
    assert sorted(m.move for m in res.moves) == sorted(str(m) for m in legal_moves(state))
    assert {m.move: m.value for m in res.moves}["KH"] == Value.LOSS


def test_hint_api_is_seeded():
    pos = ("trump 9H; pile 7; hands 6S 6D QC KS TD AH | ?6; attacker 1; "
           "out 7S 8S 9S TS JS 6H 7H 8H TH 7D 8D 9D 6C 7C 8C 9C TC; me 1")
    a = solver.hint(pos, samples=8, seed=3)
    b = solver.hint(pos, samples=8, seed=3)
    assert a.best == b.best and a.samples == b.samples == 8


HIDDEN = ("trump 9H; pile 7; hands 6S 6D QC KS TD AH | ?6; attacker 1; "
          "out 7S 8S 9S TS JS 6H 7H 8H TH 7D 8D 9D 6C 7C 8C 9C TC; me 1")


def test_S3_analyse_on_hidden_cards_shows_the_hint_table():
    out = CliRunner().invoke(main, ["analyse", HIDDEN, "--json"])
    assert out.exit_code == 0, out.output
    data = json.loads(out.output)
    assert data["player"] == 1 and data["samples"] > 0
    assert {m["move"] for m in data["moves"]} == {"6S", "6D", "6S,6D", "QC", "KS", "TD", "AH"}
    for m in data["moves"]:  # each share is rounded to 4 decimals in the JSON
        assert abs(m["win"] + m["draw"] + m["loss"] - 1) < 3e-4


def test_S3_solve_refuses_hidden_cards_and_points_to_hint():
    out = CliRunner().invoke(main, ["solve", HIDDEN])
    assert out.exit_code == 2
    assert "durak hint" in out.output
