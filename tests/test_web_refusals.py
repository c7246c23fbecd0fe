"""The web board's refusals in the player's language (issue 69): every line the server
answers with when it cannot do what a page asked -- the engine choosing its move (409),
the server stopping (503), a number of 5,000 digits, a body too large, a field out of
range, a job cancelled, a game that is not there, nothing to undo -- is in the language of
the request (``Accept-Language``, the switcher's cookie), the JSON keys and the field
names English; a budget's message is translated in the answer and, percent-encoded, in the
``X-Durak-Budget`` header, which carries ASCII only."""
from __future__ import annotations

import re
import time
from urllib.parse import unquote

import pytest
from english_words import left_in_english
from web_support import HARD, SMALL, client

from solver.i18n import use_language
from solver.web.server import stopping_message

LANGS = ("lt", "ru")
#: A JSON position whose attacker has 5,000 digits.
LONG = "1" * 5000


def said(lang: str) -> dict[str, str]:
    return {"Accept-Language": f"{lang},en;q=0.3"}


#: What a refusal names as the API spells it: fields, tasks, the engine's strengths.
API_NAMES = {"position", "hero", "seed", "seat", "players", "rules", "attacker", "trump", "deal",
             "game", "record", "line", "move", "entry", "task", "solve", "analyse", "hint",
             "review", "greedy", "strong", "true", "false"}


def english_in(text: str) -> set[str]:
    """The English words of a refusal, but the field it names first (``seed:``, a JSON
    key), the tokens it quotes, the API's names (fields, tasks) and what stays notation
    (``application/json``)."""
    text = re.sub(r"^[a-z_.\[\]0-9]+: ", "", text)
    text = re.sub(r"'[^']*'|\"[^\"]*\"|`[^`]*`|\S+/\S+|\w+_\w+|Content-Type", " ", text)
    return left_in_english(text) - API_NAMES


def in_language(text: str, lang: str, english: str) -> None:
    """``text`` is the player's: no English word left, and not the English line."""
    assert text != english, (lang, text)
    assert english_in(text) == set(), (lang, text)
    if lang == "ru":
        assert re.search("[а-яё]", text), text


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    with client(tmp_path_factory.mktemp("web"), workers=1) as c:
        yield c


class Busy:
    """An engine move that never ends (the game's engine is choosing)."""

    def done(self) -> bool:
        return False


def test_the_engine_choosing_its_move_is_said_in_the_players_language(web):
    g = web.post("/api/games", json={"players": 2, "engine": "greedy", "seed": 3}).json()
    games = web.app.state.games
    while games.thinking(g["id"]):
        time.sleep(0.05)
    games._advancing[g["id"]] = Busy()
    try:
        english = {}
        for lang in ("en",) + LANGS:
            play = web.post(f"/api/games/{g['id']}/play", json={"move": "6S"}, headers=said(lang))
            hint = web.post(f"/api/games/{g['id']}/hint", json={}, headers=said(lang))
            assert play.status_code == hint.status_code == 409
            assert set(play.json()) == {"error"}
            if lang == "en":
                english = {"play": play.json()["error"], "hint": hint.json()["error"]}
                assert english["play"] == "the engine is choosing its move; wait for it"
                continue
            in_language(play.json()["error"], lang, english["play"])
            in_language(hint.json()["error"], lang, english["hint"])
    finally:
        del games._advancing[g["id"]]
    # and the first undo of a game nobody has moved in
    g = web.post("/api/games", json={"players": 2, "engine": "greedy", "seed": 4}).json()
    for lang in LANGS:
        r = web.post(f"/api/games/{g['id']}/undo", json={}, headers=said(lang))
        assert r.status_code == 400
        in_language(r.json()["error"], lang, "nothing to undo: you have not moved yet")


@pytest.mark.parametrize("lang", LANGS)
def test_a_number_of_5000_digits_is_refused_in_the_players_language(web, lang):
    english = web.post("/api/show", content=f'{{"position": "{SMALL}", "seed": {LONG}}}',
                       headers={"content-type": "application/json"}).json()["error"]
    assert english.startswith("seed: a number of 5,000 digits")
    # in the body: the number's field named, the rest the player's
    r = web.post("/api/show", content=f'{{"position": "{SMALL}", "seed": {LONG}}}',
                 headers={"content-type": "application/json", **said(lang)})
    assert r.status_code == 400 and r.json()["exit_code"] == 2
    assert r.json()["error"].startswith("seed: ") and "5\u00a0000" in r.json()["error"]
    in_language(r.json()["error"], lang, english)
    # in a JSON position, and in a position's text
    pos = f'{{"position": {{"trump": "H", "hands": [["6S"], ["7S"]], "attacker": {LONG}}}}}'
    r = web.post("/api/show", content=pos, headers={"content-type": "application/json",
                                                    **said(lang)})
    assert r.status_code == 400 and r.json()["field"] == "position"
    assert "position.attacker" in r.json()["error"]
    in_language(r.json()["error"], lang, english)
    r = web.post("/api/show", json={"position": f"{SMALL}; pile {LONG}"}, headers=said(lang))
    assert r.status_code == 400 and r.json()["field"] == "pile"
    in_language(r.json()["error"], lang, english)


@pytest.mark.parametrize("lang", LANGS)
def test_the_apis_refusals_are_in_the_players_language(web, lang):
    asked: list[tuple[str, str, dict]] = [
        ("post", "/api/solve", {"json": {"position": SMALL, "max_time": -1}}),
        ("post", "/api/solve", {"json": {"position": SMALL, "hero": 0}}),
        ("post", "/api/solve", {"json": {"position": SMALL, "hero": 3}}),
        ("post", "/api/solve", {"json": {"position": SMALL, "depth": 3}}),
        ("post", "/api/solve", {"json": {}}),
        ("post", "/api/solve", {"content": b"[1, 2]", "headers": {"content-type": "application/json"}}),
        ("post", "/api/solve", {"content": b"{}", "headers": {"content-type": "text/plain"}}),
        ("post", "/api/show", {"json": {"position": SMALL + " " * 1_000_000}}),
        ("post", "/api/review", {"json": {"game": "x", "seat": 1, "all": True}}),
        ("post", "/api/jobs", {"json": {"task": "dance"}}),
        ("get", "/api/jobs/nosuchjob", {}),
        ("get", "/api/games/nosuchgame", {}),
        ("get", "/api/follow/nosuchgame", {}),
        ("get", "/api/puzzles/nosuchpuzzle", {}),
        ("post", "/api/games", {"json": {"engine": "perfect"}}),
        ("post", "/api/follow", {"json": {"players": 2, "trump": "9H"}}),
        ("post", "/api/puzzles/pod-001/move", {"json": {"line": ["1:6S"] * 201}}),
    ]
    for method, path, kw in asked:
        english = getattr(web, method)(path, **kw)
        kw = {**kw, "headers": {**kw.get("headers", {}), **said(lang)}}
        r = getattr(web, method)(path, **kw)
        assert r.status_code == english.status_code and r.status_code >= 400, (path, r.text)
        assert set(r.json()) <= {"error", "field", "exit_code"}, r.json()
        in_language(r.json()["error"], lang, english.json()["error"])


def test_a_cancelled_job_and_a_stopping_server_are_said_in_each_readers_language(tmp_path):
    with client(tmp_path, workers=1) as c:
        job = c.post("/api/jobs", json={"task": "analyse", "position": HARD, "max_time": 30},
                     headers=said("lt")).json()
        c.delete(f"/api/jobs/{job['id']}", headers=said("lt"))
        while c.get(f"/api/jobs/{job['id']}").json()["state"] != "cancelled":
            time.sleep(0.05)
        words = {lang: c.get(f"/api/jobs/{job['id']}", headers=said(lang)).json()
                 for lang in ("en", "lt", "ru")}
        assert {w["state"] for w in words.values()} == {"cancelled"}
        assert words["en"]["error"] == "cancelled"
        for lang in LANGS:  # the page that polls reads it in its own language
            in_language(words[lang]["error"], lang, "cancelled")
        # the server stops with a job in flight: its poll, and every new job, in each
        # reader's words
        job = c.post("/api/jobs", json={"task": "analyse", "position": HARD, "max_time": 30},
                     headers=said("ru")).json()
        assert c.app.state.pool.stop(stopping_message("SIGTERM"), 143) == 1
        english = "the server is stopping (SIGTERM); try again once it is back"
        for lang in ("en",) + LANGS:
            polled = c.get(f"/api/jobs/{job['id']}", headers=said(lang)).json()
            asked = c.post("/api/jobs", json={"task": "solve", "position": SMALL},
                           headers=said(lang))
            assert polled["exit_code"] == 143 and asked.status_code == 503
            with use_language(lang):
                assert polled["error"] == asked.json()["error"] == str(stopping_message("SIGTERM"))
            if lang != "en":
                in_language(polled["error"], lang, english)
                assert "SIGTERM" in polled["error"]
        # the switcher's cookie decides over the browser's language
        c.cookies.set("durak_lang", "lt")
        with use_language("lt"):
            assert c.get(f"/api/jobs/{job['id']}", headers=said("ru")).json()["error"] == \
                str(stopping_message("SIGTERM"))


def test_a_budgets_message_is_translated_and_its_header_is_ascii(web):
    """The header carries the message percent-encoded (it held '?' for every Lithuanian
    letter); the job's answer carries it as it is."""
    body = {"position": HARD, "max_nodes": 20000}  # one worker's thread: the same every time
    for lang in ("en",) + LANGS:
        r = web.post("/api/analyse", json=body, headers=said(lang))
        assert r.status_code == 200 and r.headers["x-durak-exit-code"] == "3"
        header = r.headers["x-durak-budget"]
        assert header.isascii()
        job = web.post("/api/jobs", json={"task": "analyse", **body}, headers=said(lang)).json()
        while job["state"] not in ("done", "error", "cancelled"):
            time.sleep(0.1)
            job = web.get(f"/api/jobs/{job['id']}", headers=said(lang)).json()
        assert job["exit_code"] == 3
        assert unquote(header) == job["budget"]
        if lang == "en":
            english = job["budget"]
            assert header == english  # English reads as it is
        else:
            in_language(job["budget"], lang, english)
