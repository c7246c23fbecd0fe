"""Games against the engine through the web API: the game-session model behind HTTP."""
from __future__ import annotations

import time

import pytest
from web_support import client

from solver.games.session import GameSession


def wait_for_turn(c, gid: str, timeout: float = 60) -> dict:
    """The game once the engine has answered (it moves in the background)."""
    deadline = time.monotonic() + timeout
    while True:
        g = c.get(f"/api/games/{gid}").json()
        if not g["thinking"]:
            return g
        assert time.monotonic() < deadline, "the engine did not answer"
        time.sleep(0.05)


def play_to_the_end(c, gid: str, limit: int = 400) -> dict:
    g = wait_for_turn(c, gid)
    for _ in range(limit):
        if g["over"]:
            return g
        board = g["board"]
        assert board["to_move"] == g["me"] and board["moves"]
        r = c.post(f"/api/games/{gid}/play", json={"move": board["moves"][0]["move"]})
        assert r.status_code == 200, r.json()
        g = wait_for_turn(c, gid)
    raise AssertionError("the game did not end")


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    with client(tmp_path_factory.mktemp("games")) as c:
        yield c


def test_a_whole_game_against_the_engine_is_played_through_the_api(web):
    r = web.post("/api/games", json={"players": 2, "engine": "greedy", "seed": 11})
    assert r.status_code == 201
    g = play_to_the_end(web, r.json()["id"])
    assert g["over"] and g["outcome"]["result"] in ("durak", "draw")
    assert g["board"]["status"].startswith("Game over:")
    # the record replays to the same end in the game-session model
    rec = web.get(f"/api/games/{g['id']}/record")
    assert rec.headers["content-disposition"].startswith("attachment")
    assert GameSession.load(rec.text).outcome == g["outcome"]
    # and `durak review` reads it: the player's decisions valued
    r = web.post("/api/review", json={"game": rec.text, "seat": 1, "samples": 32})
    assert r.status_code == 200, r.json()
    assert r.json()["decisions"] and {d["seat"] for d in r.json()["decisions"]} == {1}


@pytest.mark.parametrize("players,rules", [(3, ["transfer"]), (4, ["teams=2v2"]),
                                           (2, ["trump_swap", "first_bout_limit=5"])])
def test_games_of_more_players_and_rule_options(web, players, rules):
    r = web.post("/api/games", json={"players": players, "engine": "greedy", "seed": 3,
                                     "rules": rules})
    assert r.status_code == 201, r.json()
    g = play_to_the_end(web, r.json()["id"])
    assert g["over"] and sorted(g["snapshot"]["rules"]) == sorted(rules)


def test_the_player_sees_only_his_own_hand(web):
    g = wait_for_turn(web, web.post("/api/games", json={"engine": "greedy",
                                                        "seed": 4}).json()["id"])
    me, other = g["board"]["seats"]
    assert me["name"] == "you" and len(me["cards"]) >= 1
    assert other["name"] == "engine" and other["cards"] == [] and other["hidden"] == other["size"]


def test_a_bad_move_is_refused_with_one_line_and_nothing_changes(web):
    gid = web.post("/api/games", json={"engine": "greedy", "seed": 5}).json()["id"]
    g = wait_for_turn(web, gid)
    before = g["snapshot"]["history"]
    r = web.post(f"/api/games/{gid}/play", json={"move": "QX"})
    assert r.status_code == 400 and "\n" not in r.json()["error"]
    r = web.post(f"/api/games/{gid}/play", json={"move": "2:take"})
    assert r.status_code == 400 and r.json()["error"] == "move '2:take': you play seat 1"
    held = set(g["board"]["seats"][0]["cards"])
    absent = next(c for c in ("6S", "7S", "8S", "9S", "TS", "JS", "QS") if c not in held)
    r = web.post(f"/api/games/{gid}/play", json={"move": absent})
    assert r.status_code == 400
    assert web.get(f"/api/games/{gid}").json()["snapshot"]["history"] == before


def test_undo_takes_back_the_players_move_and_the_engines_answers(web):
    gid = web.post("/api/games", json={"engine": "greedy", "seed": 6}).json()["id"]
    g = wait_for_turn(web, gid)
    before = g["snapshot"]["history"]
    web.post(f"/api/games/{gid}/play", json={"move": g["board"]["moves"][0]["move"]})
    wait_for_turn(web, gid)
    r = web.post(f"/api/games/{gid}/undo", json={})
    assert r.status_code == 200
    assert wait_for_turn(web, gid)["snapshot"]["history"] == before


def test_a_hint_is_a_job_whose_answer_is_the_hint(web):
    gid = web.post("/api/games", json={"engine": "greedy", "seed": 7}).json()["id"]
    g = wait_for_turn(web, gid)
    job = web.post(f"/api/games/{gid}/hint", json={"samples": 64}).json()
    while job["state"] not in ("done", "error", "cancelled"):
        time.sleep(0.1)
        job = web.get(f"/api/jobs/{job['id']}").json()
    assert job["state"] == "done", job
    ans = job["answer"]
    assert ans["samples"] == 64 and ans["player"] == 1
    assert {m["move"] for m in ans["moves"]} == {m["move"] for m in g["board"]["moves"]}


def test_a_game_survives_a_server_restart(tmp_path):
    with client(tmp_path) as c:
        gid = c.post("/api/games", json={"engine": "greedy", "seed": 8}).json()["id"]
        g = wait_for_turn(c, gid)
        c.post(f"/api/games/{gid}/play", json={"move": g["board"]["moves"][0]["move"]})
        g = wait_for_turn(c, gid)
    with client(tmp_path) as c:  # a new server on the same data directory
        again = wait_for_turn(c, gid)
        assert again["snapshot"]["history"] == g["snapshot"]["history"]
        assert [x["id"] for x in c.get("/api/games").json()["games"]] == [gid]
        assert play_to_the_end(c, gid)["over"]


def test_bad_game_requests(web):
    assert web.get("/api/games/nope").status_code == 404
    for body, fragment in [({"players": 7}, "players: 7 is out of range"),
                           ({"engine": "god"}, "engine: 'god'"),
                           ({"rules": ["nonsense"]}, "rules:"),
                           ({"rules": "transfer"}, "rules: expected a list"),
                           ({"color": "red"}, "unknown field(s) 'color'")]:
        r = web.post("/api/games", json=body)
        assert r.status_code == 400 and fragment in r.json()["error"], (body, r.json())


def test_the_server_keeps_nothing_per_game_once_its_moves_are_made(web):
    """Issue 73's soak: the engine's finished background moves and a lock per game were
    kept for good -- memory that grew with every game played.  Once the engine has
    answered, nothing is left for the game but its session (at most 64 kept) and its
    row in the store; a request for a game nobody has leaves nothing either."""
    games, follows = web.app.state.games, web.app.state.follows
    for seed in (21, 22):
        r = web.post("/api/games", json={"players": 2, "engine": "greedy", "seed": seed})
        g = play_to_the_end(web, r.json()["id"])
        assert g["over"]
    assert dict(games._advancing) == {} and len(games.locks) == 0
    for n in range(50):  # ids nobody has: 404 each, nothing kept
        r = web.post(f"/api/follow/nosuchgame{n}/enter", json={"entry": "1:6S"})
        assert r.status_code == 404
        assert web.post(f"/api/games/nosuchgame{n}/play", json={"move": "6S"}).status_code == 404
    assert len(follows.locks) == 0 and len(games.locks) == 0
