"""A number of 5,000 digits in every JSON input (issue 60, item 3).

Python reads at most 4,300 digits into an integer; ``json.loads`` lets the
``ValueError`` out as it is, which was an internal error (exit 1), an HTTP 500,
and a whole `durak batch` stopped by one line.  It is bad input: exit 2 with
one line naming the field, a 400 naming it, the batch item's own error line
with the batch going on.  The machinery: :mod:`solver.inputs.jsonin`, used by every
reader of JSON (and :func:`solver.inputs.jsonin.check_digits` by the text forms).
"""
from __future__ import annotations

import json
import os
import subprocess
import sys
import urllib.request
from pathlib import Path

import pytest
from terminal import as_at_a_terminal

from solver.games import Game
from solver.inputs.jsonin import NumberTooLong, loads

ROOT = Path(__file__).resolve().parent.parent
DURAK = [sys.executable, "-m", "solver.cli"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
BIG = "1" * 5000
SIMPLE = "trump H; hands 6S 7S KH | 8C 9C AH; attacker 1"
HIDDEN = ("trump 9H; pile 7; hands 6S 6D QC KS TD AH | ?6; attacker 1; "
          "out 7S 8S 9S TS JS 6H 7H 8H TH 7D 8D 9D 6C 7C 8C 9C TC; me 1")
RECORD = (ROOT / "docs" / "examples" / "full-game.txt").read_text()
TOO_LONG = "a number of 5,000 digits"


def big(template: str) -> str:
    """``template`` with ``N`` (as a JSON value) made a 5,000-digit number."""
    return template.replace('"N"', BIG).replace("N", BIG)


def record_json(**changes: str) -> str:
    """The example record as JSON, with fields set to raw JSON text."""
    obj = Game.parse(RECORD).to_json()
    text = json.dumps(obj)
    for key, raw in changes.items():
        text = text.replace(f'"{key}": {json.dumps(obj[key])}', f'"{key}": {raw}', 1)
    assert all(f'"{k}": {v}' in text for k, v in changes.items())
    return text


def durak(*args: str, stdin: str | None = None) -> subprocess.CompletedProcess:
    return subprocess.run([*DURAK, *args], input=stdin, text=True, capture_output=True, env=ENV,
                          cwd=ROOT, timeout=120, preexec_fn=as_at_a_terminal)


def test_the_reader_names_where_the_number_stands():
    with pytest.raises(NumberTooLong) as e:
        loads(big('{"hands": [["6S"], {"unknown": N}], "attacker": 1}'))
    assert e.value.field == "hands" and e.value.where == "hands[1].unknown"
    assert e.value.digits == 5000
    assert loads('{"a": [1, 2.5, "x"]}') == {"a": [1, 2.5, "x"]}
    with pytest.raises(json.JSONDecodeError, match="Expecting property name"):
        loads("{")


#: (command line, the field named).  JSON positions, JSON and text records, text positions.
CASES = [
    (["solve", big('{"trump": "H", "hands": [["6S"], ["7S"]], "attacker": N}')], "attacker"),
    (["solve", big('{"trump": "H", "hands": [["6S"], ["7S"]], "attacker": -N}')], "attacker"),
    (["analyse", big('{"trump": "H", "hands": [["6S"], {"unknown": N}], "attacker": 1}')],
     "hands"),
    (["moves", big('{"trump": "H", "hands": [["6S"], ["7S"]], "attacker": 1, "pile": N}')],
     "pile"),
    (["show", big('{"trump": "H", "hands": [["6S"], ["7S"]], "attacker": 1, "limit": N}')],
     "limit"),
    (["hint", big('{"trump": "H", "hands": [["6S"], ["7S"]], "attacker": 1, "me": N}')], "me"),
    (["solve", f"trump H; hands 6S | 7S; attacker {BIG}"], "attacker"),
    (["hint", "--game", record_json(players=BIG)], "players"),
    (["hint", "--game", record_json(me=BIG)], "me"),
    (["review", record_json(attacker=BIG)], "attacker"),
    (["hint", "--game", RECORD.replace("players 2", f"players {BIG}")], "players"),
]


@pytest.mark.parametrize("args, field", CASES, ids=[f"{c[0][0]}-{c[1]}-{i}"
                                                     for i, c in enumerate(CASES)])
def test_a_huge_number_is_bad_input_naming_its_field(args, field):
    r = durak(*args)
    assert r.returncode == 2, r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == 1 and "Traceback" not in r.stderr, r.stderr
    assert lines[0].startswith(f"durak: error: {field}: {TOO_LONG}"), lines[0]


def test_the_batch_writes_the_items_error_line_and_goes_on(tmp_path):
    lines = [json.dumps({"id": "a", "position": SIMPLE}),
             big('{"id": N, "position": "x"}'),
             big('{"id": "c", "position": "' + SIMPLE + '", "hero": N}'),
             big('{"id": "d", "position": {"trump": "H", "hands": [["6S"], ["7S"]], '
                 '"attacker": N}}'),
             json.dumps({"id": "e", "position": SIMPLE})]
    infile = tmp_path / "in.jsonl"
    infile.write_text("\n".join(lines) + "\n")
    r = durak("batch", "solve", str(infile))
    assert r.returncode == 0, r.stderr
    out = [json.loads(line) for line in r.stdout.splitlines()]
    assert [o["id"] for o in out] == ["a", 2, 3, 4, "e"]  # unread lines: their line number
    assert out[0]["value"] == "win" and out[4]["value"] == "win"
    assert out[1]["exit_code"] == 2 and f"IN line 2: id: {TOO_LONG}" in out[1]["error"]
    assert f"IN line 3: hero: {TOO_LONG}" in out[2]["error"]
    assert out[3]["exit_code"] == 2
    assert f"IN line 4: position: {TOO_LONG} at position.attacker" in out[3]["error"]
    # a review batch: the game's JSON record
    infile.write_text(json.dumps({"id": 1, "game": json.loads(record_json())})[:-1]
                      .replace('"attacker": 1', f'"attacker": {BIG}') + "}\n")
    r = durak("batch", "review", str(infile), "--max-time", "0.2")
    assert r.returncode == 0, r.stderr
    assert f"game: {TOO_LONG} at game.attacker" in json.loads(r.stdout)["error"]


def test_other_json_files_name_the_number(tmp_path):
    match = tmp_path / "m.json"
    match.write_text(big('{"players": 2, "seed": N, "rules": "", "per_game": []}'))
    r = durak("compare", str(match), str(match))
    assert r.returncode == 2 and f"seed: {TOO_LONG}" in r.stderr, r.stderr
    model = tmp_path / "model.json"
    model.write_text(big('{"version": N}'))
    r = durak("learn", "evaluate", str(model), "--games", "1")
    assert r.returncode == 2 and f"version: {TOO_LONG}" in r.stderr, r.stderr
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "x.toml").write_text(
        f'id = "x"\ntitle = "t"\nintroduction = "i"\n[[puzzle]]\nid = "x-1"\nhero = {BIG}\n')
    r = durak("puzzle", "--dir", str(tmp_path / "p"), "list")
    assert r.returncode == 2 and "line 6: a number of more than 4,300 digits" in r.stderr


def _post(base: str, path: str, body: str) -> tuple[int, dict]:
    req = urllib.request.Request(base + path, data=body.encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_the_server_answers_400_naming_the_field(tmp_path):
    from web_support import live_server
    pos = '{"trump": "H", "hands": [["6S"], ["7S"]], "attacker": 1}'
    # (the body's field; a number inside one is named by its JSON path)
    cases = [
        ("/api/solve", big('{"position": {"trump": "H", "hands": [["6S"], ["7S"]], '
                           '"attacker": N}}'), "position: " + TOO_LONG + " at position.attacker"),
        ("/api/solve", big('{"position": "' + SIMPLE + '", "max_nodes": N}'), "max_nodes"),
        ("/api/hint", big('{"position": "' + HIDDEN + '", "seed": N}'), "seed"),
        ("/api/show", big('{"position": "trump H; hands 6S | 7S; attacker N"}'), "attacker"),
        ("/api/review", '{"game": ' + record_json(players=BIG) + "}",
         "game: " + TOO_LONG + " at game.players"),
        ("/api/games", big('{"players": 2, "seed": N}'), "seed"),
        ("/api/line", big('{"position": ' + pos + ', "moves": [N]}'),
         "moves: " + TOO_LONG + " at moves[0]"),
    ]
    with live_server(tmp_path, workers=1) as base:
        for path, body, field in cases:
            status, answer = _post(base, path, body)
            assert status == 400, (path, answer)
            assert answer["exit_code"] == 2 and TOO_LONG in answer["error"], answer
            assert answer["error"].startswith(field if ":" in field else f"{field}: "), answer
            assert answer["field"] == field.split(":")[0]
        status, answer = _post(base, "/api/solve", json.dumps({"position": SIMPLE}))
        assert status == 200 and answer["value"] == "win"
