"""Two devices on one game (issue 72, solver/web/sync.py): a version on every game, the late
entry refused with 409 and the game as it is now, an entry sent twice entered once, and
two devices entering at the same moment keeping one consistent record."""
from __future__ import annotations

import json
import threading
import urllib.error
import urllib.request

import pytest
from web_support import FOLLOWED, FOLLOWED_DEAL, client, followed_entries, live_server


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    with client(tmp_path_factory.mktemp("sync"), workers=1) as c:
        yield c


def new_follow(web) -> dict:
    r = web.post("/api/follow", json=FOLLOWED_DEAL)
    assert r.status_code == 201
    return r.json()


def test_every_change_moves_the_version_on_and_a_late_entry_is_refused_with_the_game(web):
    g = new_follow(web)
    gid, v0 = g["id"], g["version"]
    assert web.get(f"/api/follow/{gid}/version").json() == {"version": v0}
    first, second = followed_entries()[:2]
    r = web.post(f"/api/follow/{gid}/enter", json={"entry": first, "version": v0})
    assert r.status_code == 200 and r.json()["version"] == v0 + 1
    assert web.get(f"/api/follow/{gid}/version").json() == {"version": v0 + 1}
    # the other device, still on v0, enters the same move: refused, shown the game now
    late = web.post(f"/api/follow/{gid}/enter", json={"entry": first, "version": v0})
    assert late.status_code == 409
    body = late.json()
    assert "another device changed this game first" in body["error"]
    assert body["game"]["entries"] == [first] and body["game"]["version"] == v0 + 1
    ok = web.post(f"/api/follow/{gid}/enter", json={"entry": second, "version": v0 + 1})
    assert ok.json()["entries"] == [first, second]
    # an undo made on an old version is refused too; on the current one it works
    assert web.post(f"/api/follow/{gid}/undo", json={"version": v0}).status_code == 409
    undone = web.post(f"/api/follow/{gid}/undo", json={"version": v0 + 2})
    assert undone.json()["entries"] == [first] and undone.json()["version"] == v0 + 3
    # programs that send no version go on as before; a bad one is 400
    assert web.post(f"/api/follow/{gid}/undo").status_code == 200
    assert web.post(f"/api/follow/{gid}/enter", json={"entry": first, "version": "x"}
                    ).status_code == 400


def test_an_entry_sent_again_is_not_entered_twice(web):
    gid = new_follow(web)["id"]
    first = followed_entries()[0]
    body = {"entry": first, "entry_id": "phone-1-abc", "version": 0}
    one = web.post(f"/api/follow/{gid}/enter", json=body)
    again = web.post(f"/api/follow/{gid}/enter", json=body)  # its answer was lost
    assert one.status_code == again.status_code == 200
    assert again.json()["entries"] == [first] and again.json()["version"] == 1
    assert web.post(f"/api/follow/{gid}/enter", json={"entry": first, "entry_id": "bad id!"}
                    ).status_code == 400


def test_the_version_survives_a_restart(tmp_path):
    with client(tmp_path, workers=1) as c:
        gid = c.post("/api/follow", json=FOLLOWED_DEAL).json()["id"]
        c.post(f"/api/follow/{gid}/enter", json={"entry": followed_entries()[0],
                                                  "entry_id": "kept-id"})
    with client(tmp_path, workers=1) as c:
        assert c.get(f"/api/follow/{gid}/version").json() == {"version": 1}
        again = c.post(f"/api/follow/{gid}/enter", json={"entry": followed_entries()[0],
                                                          "entry_id": "kept-id"})
        assert again.json()["entries"] == [followed_entries()[0]]


def test_a_game_against_the_engine_has_a_version_too(web):
    g = web.post("/api/games", json={"players": 2, "engine": "random", "seed": 3})
    if g.status_code == 400:  # the page's strengths only
        g = web.post("/api/games", json={"players": 2, "engine": "greedy", "seed": 3})
    g = g.json()
    gid = g["id"]
    for _ in range(200):
        g = web.get(f"/api/games/{gid}").json()
        if not g["thinking"]:
            break
    v = g["version"]
    assert web.get(f"/api/games/{gid}/version").json() == {"version": v}
    move = g["board"]["moves"][0]["move"]
    assert web.post(f"/api/games/{gid}/play", json={"move": move, "version": v - 1}
                    ).status_code == 409
    r = web.post(f"/api/games/{gid}/play", json={"move": move, "version": v, "entry_id": "m1"})
    assert r.status_code == 200 and r.json()["version"] > v


def _post(url: str, body: dict) -> tuple[int, dict]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_two_devices_entering_at_once_keep_one_record(tmp_path):
    entries = followed_entries()
    with live_server(tmp_path, workers=1) as base:
        gid = _post(base + "/api/follow", FOLLOWED_DEAL)[1]["id"]
        version = 0
        for entry in entries:
            answers: list[tuple[int, dict]] = []
            start = threading.Barrier(2)

            def device() -> None:
                start.wait()
                answers.append(_post(f"{base}/api/follow/{gid}/enter",
                                     {"entry": entry, "version": version}))

            threads = [threading.Thread(target=device) for _ in range(2)]
            for t in threads:
                t.start()
            for t in threads:
                t.join()
            codes = sorted(code for code, _ in answers)
            assert codes == [200, 409], (entry, answers)
            late = next(body for code, body in answers if code == 409)
            assert late["game"]["version"] == version + 1
            version += 1
        with urllib.request.urlopen(f"{base}/api/follow/{gid}/record", timeout=30) as r:
            record = r.read().decode()
    assert record.split("moves\n", 1)[1] == FOLLOWED.split("moves\n", 1)[1]
