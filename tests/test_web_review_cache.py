"""The web server keeps a review's answer by the record's content (docs/web.md):
the same record, seat and budget reviewed again is answered at once, from the
kept answer; another seat, or the record in another form, is judged by content."""
from __future__ import annotations

import time
from pathlib import Path

import pytest
from web_support import client

from solver.games import Game

ROOT = Path(__file__).resolve().parent.parent
RECORD = (ROOT / "docs" / "examples" / "full-game.txt").read_text()


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    with client(tmp_path_factory.mktemp("web")) as c:
        yield c


def finished(web, body: dict) -> dict:
    job = web.post("/api/jobs", json={"task": "review", **body}).json()
    for _ in range(1200):
        if job["state"] in ("done", "error", "cancelled"):
            return job
        time.sleep(0.1)
        job = web.get(f"/api/jobs/{job['id']}").json()
    raise AssertionError("the review did not finish")


def test_a_review_of_the_same_record_is_answered_from_the_kept_answer(web):
    body = {"game": RECORD, "seat": 1, "samples": 32}
    first = finished(web, body)
    assert first["state"] == "done" and first["cached"] is False
    # the same record again, also as its JSON object (the same content): at once
    for game in (RECORD, Game.parse(RECORD).to_json()):
        again = web.post("/api/jobs", json={"task": "review", **body, "game": game}).json()
        assert again["state"] == "done" and again["cached"] is True
        assert again["answer"] == first["answer"]
    # the blocking endpoint shares the kept answer
    r = web.post("/api/review", json=body)
    assert r.status_code == 200 and r.json() == first["answer"]
    # another seat (or other options) is another review
    other = finished(web, {**body, "seat": 2})
    assert other["cached"] is False and other["answer"]["seats"] == [2]
