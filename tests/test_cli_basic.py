"""`durak show`, `durak moves`, `durak play-out` on known positions."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.game.movegen import apply_move
from solver.game.moves import parse_move_with_seat
from solver.notation import parse_position

P2 = "trump H; hands 7S KH | 9C AH; table 6S/8S 8C; attacker 1"
HINT = ("trump 9H; pile 7; hands 6S 6D QC KS TD AH | ?6; attacker 1; out 7S 8S 9S TS JS 6H 7H "
        "8H TH 7D 8D 9D 6C 7C 8C 9C TC; me 1")


@pytest.fixture(scope="module")
def runner() -> CliRunner:
    return CliRunner()


def run(runner: CliRunner, *args: str, code: int = 0):
    result = runner.invoke(main, list(args))
    assert result.exit_code == code, (result.output, result.stderr)
    return result


def moves_json(runner: CliRunner, position: str) -> dict:
    return json.loads(run(runner, "moves", "--json", position).stdout)


# ------------------------------------------------------------------ moves

def test_P2_moves_cover_with_higher_suit_card_or_trump_or_take(runner):
    obj = moves_json(runner, P2)
    assert obj["to_move"] == 2 and obj["phase"] == "defend"
    assert obj["moves"] == ["8C/AH", "8C/9C", "take"]


def test_moves_text_output(runner):
    out = run(runner, "moves", P2).stdout
    assert "seat 2" in out and "8C/9C" in out and "take" in out


def test_R8_F4_multi_card_lead_bounded_by_defender_hand(runner):
    one = moves_json(runner, "trump H; hands 6S 6D QC | 7S; attacker 1")
    assert one["moves"] == ["6S", "6D", "QC"]
    two = moves_json(runner, "trump H; hands 6S 6D QC | 7S 8S; attacker 1")
    assert two["moves"] == ["6S", "6D", "6S,6D", "QC"]
    assert two["to_move"] == 1 and two["phase"] == "lead"


def test_R14_transfer_offered_when_next_defender_can_hold_the_cards(runner):
    obj = moves_json(runner, "trump S; hands 7D 9D | 8D TD 7H | JS QS; attacker 1; table 7C; "
                             "rules transfer")
    assert obj["moves"] == ["take", ">7H"]


def test_P4_thrower_may_add_after_take(runner):
    obj = moves_json(runner, "trump H; hands 7S KH | 9C AH | 6D; table 6S/8S 8C; attacker 1; "
                             "take")
    assert obj["to_move"] == 3 and obj["moves"] == ["+6D", "pass"] and obj["phase"] == "taken"


def test_R20_game_over_has_no_moves_and_an_outcome(runner):
    obj = moves_json(runner, "trump H; hands - | 9C AH | -; attacker 2")
    assert obj["to_move"] is None and obj["moves"] == []
    assert obj["outcome"]["result"] == "durak" and obj["outcome"]["durak"] == 2
    assert obj["outcome"]["scores"] == [1, -1, 1]


def test_R20_draw_when_nobody_holds_cards(runner):
    obj = moves_json(runner, "trump H; hands - | -")
    assert obj["outcome"]["result"] == "draw" and obj["to_move"] is None


def test_moves_accepts_json_and_file(runner, tmp_path):
    obj = {"trump": "H", "hands": [["7S", "KH"], ["9C", "AH"]],
           "table": [["6S", "8S"], ["8C", None]], "attacker": 1}
    assert moves_json(runner, json.dumps(obj))["moves"] == ["8C/AH", "8C/9C", "take"]
    f = tmp_path / "pos.txt"
    f.write_text("# a position\ntrump H\nhands 7S KH | 9C AH\ntable 6S/8S 8C\nattacker 1\n")
    assert moves_json(runner, str(f))["moves"] == ["8C/AH", "8C/9C", "take"]


# ------------------------------------------------------------------ show

def test_show_pretty_has_symbols_roles_table_and_moves(runner):
    out = run(runner, "show", P2).stdout
    assert "Trump ♥" in out
    assert "7♠ K♥" in out and "[attacker]" in out and "[defender, to move]" in out
    assert "6♠/8♠" in out and "8♣ (open)" in out
    assert "Seat 2 defends (P2): 8♣/A♥ 8♣/9♣ take" in out


def test_show_ascii(runner):
    out = run(runner, "show", "--ascii", P2).stdout
    assert "♥" not in out and "Trump H" in out and "6S/8S" in out


def test_show_hidden_mover_says_why_moves_are_unknown(runner):
    pos = HINT.replace("hands 6S 6D QC KS TD AH | ?6", "hands ?6 | 6S 6D QC KS TD AH")
    out = run(runner, "show", pos).stdout
    assert "moves unknown" in out and "hidden" in out
    assert "face-up 9♥" in out and "Out    17 cards" in out


def test_show_game_over(runner):
    out = run(runner, "show", "trump H; hands - | 9C AH | -; attacker 2").stdout
    assert "Game over: seat 2 is the durak" in out and "gone out" in out


def test_show_json(runner):
    obj = json.loads(run(runner, "show", "--json", P2).stdout)
    assert obj["position"] == "trump H; hands 7S KH | AH 9C; table 6S/8S 8C; attacker 1"
    assert obj["json"]["table"] == [["6S", "8S"], ["8C", None]]
    assert obj["moves"] == ["8C/AH", "8C/9C", "take"] and obj["to_move"] == 2


# ------------------------------------------------------------------ play-out

def test_play_out_is_deterministic_under_a_seed_and_ends(runner):
    a = json.loads(run(runner, "play-out", HINT, "--seed", "7", "--json").stdout)
    b = json.loads(run(runner, "play-out", HINT, "--seed", "7", "--json").stdout)
    assert a == b
    assert a["seed"] == 7 and a["finished"] is True
    assert a["outcome"]["result"] in ("durak", "draw")
    assert "?" not in a["start"]  # the hidden cards were dealt first
    assert all(":" in m for m in a["moves"])


def test_play_out_record_replays_legally_to_its_outcome(runner):
    rec = json.loads(run(runner, "play-out", HINT, "--seed", "11", "--json").stdout)
    state = parse_position(rec["start"]).state
    for text in rec["moves"]:
        seat, move = parse_move_with_seat(text)
        assert seat == state.to_move + 1
        state = apply_move(state, move)
    assert state.is_over
    assert rec["outcome"]["scores"] == list(state.outcome())


def test_play_out_text_record(runner):
    out = run(runner, "play-out", "trump S; hands 7D 9D | 8D TD | JS; attacker 1; rules transfer",
              "--seed", "3").stdout
    assert "   1. 1:" in out and "bout ends" in out and "game over after" in out


def test_play_out_max_moves_exits_3(runner):
    result = run(runner, "play-out", HINT, "--seed", "1", "--max-moves", "2", code=3)
    assert "not over" in result.stdout


def test_play_out_seeds_differ(runner):
    games = {tuple(json.loads(run(runner, "play-out", HINT, "--seed", str(s), "--json").stdout)
                   ["moves"]) for s in range(4)}
    assert len(games) > 1
