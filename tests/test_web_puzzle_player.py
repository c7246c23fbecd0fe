"""The puzzles page's player (issue 70) in Chromium: the rating moves after a solved
puzzle, the theme picker serves a puzzle of its theme, the dashboard fits a phone."""
from __future__ import annotations

import pytest
import browser_support  # noqa: F401 (skips this module when there is no browser)
from test_web_pages import PHONE, new_page, play_to_the_end, ready
from web_support import client, live_server


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with live_server(tmp_path_factory.mktemp("player")) as base:
        yield base


def test_the_rating_moves_the_theme_picker_serves_and_the_dashboard_fits_a_phone(browser, server):
    ctx, page, errors = new_page(browser, {"width": 1280, "height": 800})
    ready(page, f"{server}/puzzles?id=pod-002")
    assert page.inner_text("#pz-rating") == "1500"
    play_to_the_end(page, "pod-002")
    page.wait_for_selector("#pz-solved")
    page.wait_for_function("document.getElementById('pz-rating').textContent !== '1500'")
    assert int(page.inner_text("#pz-rating")) > 1500
    assert page.inner_text("#pz-change").startswith("+")
    assert "100%" in page.inner_text("#pz-themes")
    # the theme picker: the next puzzle served is of that theme
    page.select_option("#pz-theme", "transfer")
    page.wait_for_function("Puzzles.p && Puzzles.p.tags.includes('transfer')")
    # the daily puzzle: the one the server names for today; Next puzzle after a served one
    # serves again (here by rating, the theme kept)
    daily = page.evaluate("api('/api/puzzles/player').then(r => r.data.daily)")
    page.click("#pz-daily")
    page.wait_for_function(f"Puzzles.p && Puzzles.p.id === {daily!r}")
    page.click("#pz-rated")
    page.wait_for_function("PuzzlePlayer.served === Puzzles.p.id"
                           " && Puzzles.p.tags.includes('transfer')")
    ctx.close()
    assert errors == [], errors

    ctx, phone, errors = new_page(browser, PHONE)
    ready(phone, f"{server}/puzzles")
    phone.wait_for_function("Puzzles.p !== null")  # served by rating with no id
    assert phone.is_visible("#pz-dashboard") and phone.is_visible("#pz-rated")
    assert phone.locator("#pz-chart").inner_text() != "" or phone.locator("#pz-chart svg").count()
    width = phone.evaluate("document.documentElement.scrollWidth")
    assert width <= 390, width
    box = phone.locator("#pz-dashboard").bounding_box()
    assert box["x"] >= 0 and box["x"] + box["width"] <= 390
    ctx.close()
    assert errors == [], errors


def test_the_api_serves_keeps_a_result_and_refuses_bad_bodies(tmp_path):
    with client(tmp_path) as c:
        d = c.get("/api/puzzles/player").json()
        assert d["rating"] == 1500 and d["attempts"] == 0 and d["daily"]
        assert {"theme", "words", "count"} <= set(d["choices"][0])
        r = c.get("/api/puzzles/next", params={"mode": "rated", "theme": "transfer"}).json()
        assert r["why"] == "rating" and r["rating"] > 0
        assert "transfer" in c.get(f"/api/puzzles/{r['id']}").json()["tags"]
        assert c.get("/api/puzzles/next", params={"mode": "daily"}).json()["id"] == d["daily"]
        out = c.post(f"/api/puzzles/{r['id']}/result", json={"solved": False}).json()
        assert out["change"] < 0 and out["due"]
        assert c.get("/api/puzzles/player").json()["reviews"] == 1
        assert c.post("/api/puzzles/pod-001/result", json={"solved": "yes"}).status_code == 400
        assert c.post("/api/puzzles/pod-001/result",
                      json={"solved": True, "mode": "blitz"}).status_code == 400
        assert c.post("/api/puzzles/nosuch/result", json={"solved": True}).status_code == 400
        assert c.get("/api/puzzles/next", params={"theme": "nosuch"}).status_code == 400
    with client(tmp_path) as c:  # the server restarted: the record is the data folder's
        assert c.get("/api/puzzles/player").json()["attempts"] == 1
