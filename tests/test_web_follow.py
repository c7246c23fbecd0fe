"""The web API for following a game, reviewing a record and training puzzles.

Followed games are the game-session model behind HTTP (solver/web/follow.py); the
review is `durak review --json`, run as a job that reports each decision as it is
scored; the puzzles are `durak puzzle list/show --json` and `durak puzzle train`'s
judgement of a move.
"""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from web_support import FOLLOWED, FOLLOWED_DEAL, client, followed_entries

from solver.cli import main
from solver.games.review import REVIEW_MAX_TIME
from solver.search import Solver
from solver.web.worker import run_task

ROOT = Path(__file__).resolve().parent.parent


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    with client(tmp_path_factory.mktemp("follow")) as c:
        yield c


def cli(*args: str) -> dict:
    r = CliRunner().invoke(main, list(args))
    assert r.exit_code == 0, (r.stdout, r.stderr)
    return json.loads(r.stdout)


def new_game(web) -> dict:
    r = web.post("/api/follow", json=FOLLOWED_DEAL)
    assert r.status_code == 201, r.json()
    return r.json()


def enter(web, gid: str, entry: str) -> dict:
    r = web.post(f"/api/follow/{gid}/enter", json={"entry": entry})
    assert r.status_code == 200, (entry, r.json())
    return r.json()


# ------------------------------------------------------------ following a game

def test_a_whole_game_entered_entry_by_entry_is_the_hand_written_record(web):
    g = new_game(web)
    assert g["ask"]["kind"] == "mine" and g["board"]["status"] == "Your move: lead a card"
    for e in followed_entries():
        g = enter(web, g["id"], e)
    assert g["over"] and g["ask"]["kind"] == "over"
    assert g["outcome"]["result"] == "draw"
    rec = web.get(f"/api/follow/{g['id']}/record")
    assert rec.headers["content-disposition"].startswith("attachment")
    assert rec.text == FOLLOWED
    assert web.get(f"/api/records/{g['id']}").text == FOLLOWED
    assert g["id"] in [x["id"] for x in web.get("/api/follow").json()["games"]]


def test_what_the_page_is_asked_to_enter_next(web):
    g = new_game(web)
    gid = g["id"]
    g = enter(web, gid, "1:KD")
    a = g["ask"]
    assert a["kind"] == "other" and a["seat"] == 2 and a["phase"] == "defend"
    # every card seat 2 may hold that covers KD (higher diamonds, any trump), one entry each
    assert a["options"]["AD"] == [{"entry": "2:KD/AD", "kind": "cover", "target": "KD",
                                   "label": "Seat 2 covers K\u2666 with A\u2666"}]
    assert "KH" not in a["options"] and "7H" not in a["options"]  # face-up trump, my card
    assert "9D" not in a["options"]  # too low
    assert [b["entry"] for b in a["buttons"]] == ["2:take"]
    # the grid: every card of the deck with its place as seat 1 knows it
    places = {c["card"]: c["place"] for row in g["grid"] for c in row}
    assert len(places) == 36 and places["KD"] == "table" and places["AS"] == "you"
    assert places["KH"] == "face-up" and places["6S"] is None
    g = enter(web, gid, "2:take")
    assert g["ask"]["kind"] == "mine"  # seat 1 may throw in its other king before the take
    assert g["board"]["status"] == "Your move: throw in a card before the take, or pass"
    g = enter(web, gid, "1:pass")
    assert g["ask"]["kind"] == "draw" and g["ask"]["count"] == 1
    assert "KD" not in g["ask"]["cards"] and "6S" in g["ask"]["cards"]
    g = enter(web, gid, "draw 6S")
    places = {c["card"]: c["place"] for row in g["grid"] for c in row}
    assert places["KD"] == "seat 2"  # seen picked up
    assert g["ask"]["kind"] == "mine"


def test_a_hidden_thrower_asked_to_throw_in_gets_a_passed_button(web):
    g = new_game(web)
    for e in ["1:QC", "2:take", "draw QH", "1:KD", "2:KD/AD", "1:pass", "draw TC", "2:7S",
              "1:7S/AS"]:
        g = enter(web, g["id"], e)
    a = g["ask"]
    assert a["kind"] == "other" and a["seat"] == 2 and a["phase"] == "throw"
    assert {"entry": "2:pass", "kind": "pass",
            "label": "Seat 2 passed (threw nothing in)"} in a["buttons"]
    assert [o["entry"] for o in a["options"]["7D"]] == ["2:+7D"]


def test_an_impossible_entry_is_refused_with_one_line_and_nothing_changes(web):
    g = new_game(web)
    gid = g["id"]
    enter(web, gid, "1:KD")
    for entry, line in [("2:KD/7H", "'2:KD/7H': 7H is seen twice: it is in seat 1's hand"),
                        ("2:KD/9D", "9D does not beat KD"),
                        ("1:7H", "it is seat 2's turn"),
                        ("draw 6S", "draws nothing here")]:
        r = web.post(f"/api/follow/{gid}/enter", json={"entry": entry})
        assert r.status_code == 400 and line in r.json()["error"], (entry, r.json())
        assert "\n" not in r.json()["error"]
    assert web.get(f"/api/follow/{gid}").json()["entries"] == ["1:KD"]


def test_undo_takes_back_exactly_the_last_entry(web):
    g = new_game(web)
    gid = g["id"]
    for e in ["1:QC", "2:take", "draw QH"]:
        enter(web, gid, e)
    r = web.post(f"/api/follow/{gid}/undo", json={})
    assert r.status_code == 200 and r.json()["entries"] == ["1:QC", "2:take"]
    assert r.json()["ask"]["kind"] == "draw"


def test_a_record_pasted_in_goes_on_and_bad_set_ups_are_one_line(web):
    half = FOLLOWED.split("2:8S,8D")[0]
    r = web.post("/api/follow", json={"record": half})
    assert r.status_code == 201
    n = len(r.json()["entries"])
    assert n > 10 and r.json()["entries"] == followed_entries()[:n]
    assert r.json()["ask"]["kind"] == "other" and r.json()["ask"]["lead"]
    for body, fragment in [({**FOLLOWED_DEAL, "deal": ["AS", "7H"]}, "deal 1: a deal has 6 cards"),
                           ({**FOLLOWED_DEAL, "trump": "AS"}, "AS"),
                           ({**FOLLOWED_DEAL, "players": 9}, "players: 9 is out of range"),
                           ({"record": "players 2"}, "deal: the asking seat's own deal is missing"),
                           ({"record": half, "players": 2}, "not both")]:
        r = web.post("/api/follow", json=body)
        assert r.status_code == 400 and fragment in r.json()["error"], (body, r.json())
    assert web.get("/api/follow/nope").status_code == 404


def test_a_hint_for_the_players_turn_is_the_sessions_advice(web):
    g = new_game(web)
    for e in ["1:QC", "2:take", "draw QH"]:
        g = enter(web, g["id"], e)
    job = web.post(f"/api/follow/{g['id']}/hint", json={"samples": 32}).json()
    while job["state"] not in ("done", "error", "cancelled"):
        time.sleep(0.1)
        job = web.get(f"/api/jobs/{job['id']}").json()
    assert job["state"] == "done", job
    assert job["answer"]["player"] == 1 and job["answer"]["samples"] == 32
    assert {m["move"] for m in job["answer"]["moves"]} == set(g["snapshot"]["moves"])
    g = enter(web, g["id"], "1:KD")
    r = web.post(f"/api/follow/{g['id']}/hint", json={})
    assert r.status_code == 400 and "a hint is for seat 1, the player, on his turn" in r.json()["error"]


def test_a_followed_game_survives_a_server_restart(tmp_path):
    with client(tmp_path) as c:
        gid = new_game(c)["id"]
        for e in followed_entries()[:10]:
            enter(c, gid, e)
    with client(tmp_path) as c:
        g = c.get(f"/api/follow/{gid}").json()
        assert g["entries"] == followed_entries()[:10]
        # not a game against the engine
        assert c.get(f"/api/games/{gid}").status_code == 404
        assert c.get("/api/games").json()["games"] == []


# ------------------------------------------------------------ records and the review

def test_a_records_moves_and_boards(web):
    r = web.post("/api/record", json={"game": FOLLOWED})
    assert r.status_code == 200
    d = r.json()
    assert len(d["boards"]) == len(d["moves"]) + 1 and d["me"] == 1 and not d["full"]
    assert d["moves"][0] == {"number": 1, "seat": 1, "move": "QC", "token": "1:QC", "pile": 24}
    assert d["boards"][-1]["outcome"]["result"] == "draw"
    r = web.post("/api/record", json={"game": "players 2\ntrump 9H"})
    assert r.status_code == 400


def test_a_review_job_reports_each_decision_as_it_is_scored():
    game = (ROOT / "docs/examples/full-game.txt").read_text()
    seen: list[dict] = []
    params = {"game": game, "seat": 1, "all": False, "exact_only": True,
              "max_time": REVIEW_MAX_TIME, "samples": None, "seed": 0, "wall": 600.0}
    answer, code, budget = run_task("review", params, Solver(16), lambda d, t: None,
                                    seen.append)
    assert code == 0 and budget is None
    # the exact decisions are solved from the game's end backwards: each is sent as it
    # is scored, the answer lists them in the game's order
    assert [d["move"] for d in seen] == sorted((d["move"] for d in seen), reverse=True)
    assert sorted(seen, key=lambda d: d["move"]) == answer["decisions"] and len(seen) == 5
    want = cli("review", "--json", "--exact-only", "--seat", "1",
               str(ROOT / "docs/examples/full-game.txt"))
    assert answer == want


def test_a_review_past_the_servers_wall_clock_cap_answers_with_the_decisions_so_far():
    game = (ROOT / "docs/examples/full-game.txt").read_text()
    params = {"game": game, "seat": 1, "all": False, "exact_only": False, "max_time": 5.0,
              "samples": None, "seed": 0, "wall": 1.0}
    t0 = time.monotonic()
    answer, code, budget = run_task("review", params, Solver(16), lambda d, t: None)
    assert time.monotonic() - t0 < 4
    assert code == 3 and answer["interrupted"] and answer["reviewed"] < answer["total"]
    assert budget.startswith("the server's cap of 1 s for one review ran out after")


# ------------------------------------------------------------ puzzles

def test_the_puzzle_list_and_a_puzzle_are_what_the_commands_print(web):
    want = cli("puzzle", "list", "--json")
    for c in want["collections"]:
        c.pop("path")
    assert web.get("/api/puzzles").json() == want
    got = web.get("/api/puzzles/pod-001").json()
    assert {k: v for k, v in got.items() if k != "board"} == cli("puzzle", "show", "pod-001",
                                                                "--json")
    assert got["board"]["to_move"] == 1
    full = web.get("/api/puzzles/pod-001", params={"solution": "1"}).json()
    assert full["solution"] == cli("puzzle", "show", "pod-001", "--json",
                                   "--solution")["solution"]
    assert web.get("/api/puzzles/nope").status_code == 400


def test_a_wrong_puzzle_move_gets_its_refutation_and_a_right_one_the_best_defence(web):
    r = web.post("/api/puzzles/pod-001/move", json={"line": [], "move": "take"})
    assert r.status_code == 200
    a = r.json()
    assert not a["ok"] and a["words"] == "you lose" and a["good"] == ["9S/9D"]
    assert a["refutation"] == ["2:QH", "1:QH/9D"]
    assert a["refutation_end"]["text"] == "seat 1 is the durak (R20)" and a["line"] == []
    line: list[str] = []
    sol = web.get("/api/puzzles/pod-001", params={"solution": "1"}).json()
    for _ in range(20):  # play the solution's moves (any good move) to the end
        s = web.post("/api/puzzles/pod-001/move", json={"line": line}).json()
        if s["over"]:
            break
        moves = [m["move"] for m in s["board"]["moves"]]
        pick = next(m for m in moves
                    if web.post("/api/puzzles/pod-001/move",
                                json={"line": line, "move": m}).json()["ok"])
        a = web.post("/api/puzzles/pod-001/move", json={"line": line, "move": pick}).json()
        assert a["ok"] and a["line"][:len(line)] == line
        line = a["line"]
        if a["over"]:
            break
    assert a["over"] and a["outcome"]["scores"][0] == 1
    assert line[0] == f"1:{sol['solution'][0]}"
    r = web.post("/api/puzzles/pod-001/move", json={"line": ["1:AS"], "move": "take"})
    assert r.status_code == 400 and "line: move 1" in r.json()["error"]
