"""A hint's chances laid on the board (solver/web/chances.py) and the game log of the
web pages (issue 61): the chances of each card and button are the hint table's own,
an exact answer shows values, the one legal move none; the log of a followed game
tells the bout ends and the player's draw by name."""
from __future__ import annotations

import time

import pytest
from web_support import FOLLOWED_DEAL, client

from solver.game.moves import Move
from solver.web.board import move_view
from solver.i18n import use_language
from solver.web.chances import card_chances, chances, move_chances


def views(*moves: str) -> list[dict]:
    return [move_view(Move.parse(m)) for m in moves]


HINT = {"best": "7H,7D", "samples": 256, "digits": 0,
        "moves": [{"move": "7H,7D", "chance": 0.588, "as_good": True},
                  {"move": "AS", "chance": 0.563, "as_good": True},
                  {"move": "7D", "chance": 0.559, "as_good": False},
                  {"move": "7H", "chance": 0.553, "as_good": False},
                  {"move": "8C", "chance": 0.457, "as_good": False}]}


def test_a_card_shows_the_best_chance_of_the_moves_that_play_it():
    c = chances(HINT, views("7H", "7D", "7H,7D", "AS", "8C"))
    assert c["best"] == "7H,7D"
    assert c["moves"]["7D"] == {"chance": 0.559, "text": "56%", "best": False, "as_good": False}
    assert c["moves"]["AS"] == {"chance": 0.563, "text": "56%", "best": False, "as_good": True}
    assert c["cards"]["7H"] == {"chance": 0.588, "text": "59%", "move": "7H,7D", "best": True,
                                "as_good": True}
    assert c["cards"]["7D"]["chance"] == 0.588 and c["cards"]["7D"]["best"]
    assert c["cards"]["AS"] == {"chance": 0.563, "text": "56%", "move": "AS", "best": False,
                                "as_good": True}
    assert c["cards"]["8C"]["as_good"] is False
    assert set(c["cards"]) == {"7H", "7D", "AS", "8C"}


def test_the_chance_is_printed_at_the_answers_digits_in_the_requests_language():
    one = {**HINT, "digits": 1}
    assert chances(one, views("7D"))["moves"]["7D"]["text"] == "55.9%"
    with use_language("ru"):
        assert chances(one, views("7D"))["moves"]["7D"]["text"] == "55,9\u00a0%"


def test_a_cover_card_is_the_card_in_hand_and_take_is_a_button():
    ans = {"best": "take", "digits": 0,
           "moves": [{"move": "take", "chance": 0.45, "as_good": True},
                     {"move": "7C/AC", "chance": 0.4, "as_good": False},
                     {"move": "6C/AC", "chance": 0.3, "as_good": False}]}
    c = chances(ans, views("6C/AC", "7C/AC", "take"))
    assert set(c["cards"]) == {"AC"} and c["cards"]["AC"]["chance"] == 0.4
    assert not c["cards"]["AC"]["best"] and c["moves"]["take"]["best"]
    assert not c["cards"]["AC"]["as_good"]


def test_an_exact_answer_shows_values_and_the_one_move_shows_none():
    exact = {"best": ["6S"], "recommended": "6S",
             "moves": [{"move": "6S", "value": "win"}, {"move": "KH", "value": "loss"}]}
    c = chances(exact, views("6S", "KH"))
    assert c["cards"]["6S"] == {"chance": 1.0, "text": "win", "move": "6S", "best": True,
                                "as_good": True}
    assert c["cards"]["KH"]["text"] == "loss"
    only = move_chances({"best": "take", "only": True, "moves": [{"move": "take"}]})
    assert only == {"take": {"chance": None, "text": "only move", "best": True, "as_good": True}}
    assert card_chances(only, views("take")) == {}


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    with client(tmp_path_factory.mktemp("chances")) as c:
        yield c


def wait(web, job: dict) -> dict:
    for _ in range(600):
        if job["state"] in ("done", "error", "cancelled"):
            return job
        time.sleep(0.1)
        job = web.get(f"/api/jobs/{job['id']}").json()
    raise AssertionError("the job did not end")


def test_the_game_hint_job_carries_each_cards_chance(web):
    g = web.post("/api/games", json={"players": 2, "engine": "greedy", "seed": 4}).json()
    for _ in range(100):
        g = web.get(f"/api/games/{g['id']}").json()
        if not g["thinking"]:
            break
        time.sleep(0.1)
    job = wait(web, web.post(f"/api/games/{g['id']}/hint", json={"samples": 32}).json())
    ans = job["answer"]
    rows = {m["move"]: m["chance"] for m in ans["moves"]}
    assert {m: c["chance"] for m, c in ans["chances"]["moves"].items()} == rows
    good = {m["move"] for m in ans["moves"] if m["as_good"]} | {ans["best"]}
    assert {m for m, c in ans["chances"]["moves"].items() if c["as_good"]} == good
    for card, c in ans["chances"]["cards"].items():
        plays = [m["move"] for m in g["board"]["moves"] if card in m["cards"]]
        assert c["chance"] == max(rows[m] for m in plays)


def test_the_follow_log_tells_the_bout_end_and_your_draw_by_name(web):
    g = web.post("/api/follow", json=FOLLOWED_DEAL).json()
    for e in ["1:QC", "2:take", "draw QH"]:
        g = web.post(f"/api/follow/{g['id']}/enter", json={"entry": e}).json()
    texts = [t["text"] for t in g["log"]]
    assert texts == ["You lead Q♣", "Seat 2 takes", "Seat 2 picks up 1 card: Q♣",
                     "You draw Q♥", "You lead against seat 2"]
    assert g["log"][-2] == {"kind": "draw", "seat": 1, "cards": ["QH"], "count": 1, "to": None,
                            "move": None, "text": "You draw Q♥", "entry": 3}
