"""The web board in Lithuanian and Russian, in Chromium (issue 64; tests/browser_support.py:
without Playwright or the browser every test skips and says why): each page loaded with
``Accept-Language: lt`` or ``ru`` -- the board and its analysis, the editor, Play with a
game in progress, Follow, Review with a review done, Puzzles, the rules -- shows no English
word a player reads (notation, numbers and the words the catalogues keep are allowed);
the page's plural forms are gettext's; the switcher changes the language, remembers it
and keeps the game in progress.  ``DURAK_SHOTS=DIR`` keeps screenshots of the board and
Play in each language at 390 and 1280 px."""
from __future__ import annotations

import json
import os
import urllib.request
from pathlib import Path
from urllib.parse import quote

import pytest
import browser_support  # noqa: F401 (skips this module when there is no browser)
from english_words import left_in_english as english_left
from web_support import LAPTOP, PHONE, SMALL, live_server
from web_support import FOLLOW_START as FOLLOWED
from web_support import HIDDEN_BOARD as BOARD

from solver.i18n import catalogue_json, ngettext, use_language

ROOT = Path(__file__).resolve().parent.parent

#: What a page's text reads, without what is notation (code, a position, the entries as
#: typed, the record) or the page's own name: every text node and the attributes a
#: person reads.
PAGE_TEXT = """() => {
  const body = document.body.cloneNode(true);
  for (const e of body.querySelectorAll(
      'code, textarea, script, style, [translate="no"], .position-code, #fw-entries, '
      + '#ed-text, .badge-notation, #lang-switch')) e.remove();
  const attrs = [];
  for (const e of body.querySelectorAll('[title], [placeholder], [aria-label]'))
    for (const a of ['title', 'placeholder', 'aria-label'])
      if (e.getAttribute(a)) attrs.push(e.getAttribute(a));
  return body.textContent + ' ' + attrs.join(' ') + ' ' + document.title;
}"""


def left_in_english(page) -> set[str]:
    """The catalogues' English words left on a page (tests/english_words.py)."""
    return english_left(page.evaluate(PAGE_TEXT))


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    with live_server(tmp_path_factory.mktemp("web")) as base:
        yield base


def new_page(browser, lang: str, viewport=LAPTOP):
    ctx = browser.new_context(viewport=viewport, locale=lang,
                              extra_http_headers={"Accept-Language": f"{lang},en;q=0.3"})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.set_default_timeout(60_000)
    return ctx, pg, errors


def ready(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']", state="attached")


def post(server: str, path: str, body: dict, lang: str) -> dict:
    req = urllib.request.Request(server + path, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json",
                                          "Accept-Language": lang})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


#: How the line under the table begins on the player's turn and at the end, by language.
MY_TURN = {"en": ("Your move", "Game over"), "lt": ("Jūsų ėjimas", "Partija baigta"),
           "ru": ("Ваш ход", "Партия окончена")}


def wait_for_my_turn(page) -> None:
    """The player's turn (or the game's end) in the page's language, the engine done."""
    page.wait_for_function(
        "(words) => { const s = document.getElementById('play-status').textContent;"
        " const g = document.getElementById('play-hint');"
        " return words.some(w => s.startsWith(w)) && (g.disabled === false || s.startsWith(words[1])); }",
        arg=list(MY_TURN[page.evaluate("document.documentElement.lang")]), timeout=60_000)


def play_a_move(page) -> None:
    """Click the first move offered, and wait for the engine's answer: the player's turn."""
    n = page.evaluate("Play.game.snapshot.history.length")
    page.click("#play-board .action >> nth=0")
    page.wait_for_function(f"Play.game.snapshot.history.length > {n}", timeout=60_000)
    wait_for_my_turn(page)


def start_a_game_and_move(page, seed: int) -> None:
    """Play: a new game against the greedy player on ``seed``, one move of ours made."""
    page.click("#tab-play")
    page.select_option("#pl-engine", "greedy")
    page.fill("#pl-seed", str(seed))
    page.click("#pl-start")
    wait_for_my_turn(page)
    play_a_move(page)


def shoot(page, name: str) -> None:
    where = os.environ.get("DURAK_SHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(where) / f"{name}.png"), full_page=False)


@pytest.mark.parametrize("lang", ["lt", "ru"])
def test_every_page_in_the_browsers_language_with_no_english_left(browser, server, lang):
    ctx, pg, errors = new_page(browser, lang)
    found: dict[str, set[str]] = {}
    try:
        # the board: a position and its exact analysis, the variation
        ready(pg, f"{server}/?position={quote(SMALL)}")
        assert pg.evaluate("document.documentElement.lang") == lang
        pg.click("#analyse-btn")
        pg.wait_for_selector("#pv-moves button")
        found["analysis"] = left_in_english(pg)
        shoot(pg, f"analysis-{lang}")
        # the editor
        pg.click("#tab-editor")
        pg.wait_for_function("document.getElementById('ed-text').textContent.length > 0")
        found["editor"] = left_in_english(pg)
        shoot(pg, f"editor-{lang}")
        # Play: a game in progress, a move made
        start_a_game_and_move(pg, seed=7)
        assert pg.inner_text("#play-log")
        found["play"] = left_in_english(pg)
        shoot(pg, f"play-{lang}")
        # the hint table of the game, its chances on the cards
        pg.click("#play-hint")
        pg.wait_for_function("() => document.querySelector('#play-hint-result .verdict')"
                             " || document.getElementById('play-error').textContent", timeout=120_000)
        assert not pg.inner_text("#play-error"), (pg.inner_text("#play-error"), errors)
        found["hint"] = left_in_english(pg)
        shoot(pg, f"hint-{lang}")
        # Follow: a game at a real table, the other seat's turn to enter
        v = post(server, "/api/follow", {"record": FOLLOWED}, lang)
        ready(pg, f"{server}/follow?id={v['id']}")
        found["follow"] = left_in_english(pg)
        shoot(pg, f"follow-{lang}")
        # Review: a whole game reviewed
        ready(pg, f"{server}/review")
        pg.fill("#rv-text", (ROOT / "docs" / "examples" / "full-game.txt").read_text())
        pg.fill("#rv-time", "30")
        pg.click("#rv-go")
        pg.wait_for_selector("#rv-summary .status-line", timeout=180_000)
        found["review"] = left_in_english(pg)
        shoot(pg, f"review-{lang}")
        # Puzzles: one answered wrongly, its refutation shown
        ready(pg, f"{server}/puzzles?id=pod-001")
        pg.click("#pz-board .action[data-move='take']")
        pg.wait_for_selector("#pz-refutation")
        found["puzzles"] = left_in_english(pg)
        shoot(pg, f"puzzles-{lang}")
        # the rules
        pg.goto(f"{server}/rules")
        assert pg.evaluate("document.querySelectorAll('li[id^=R]').length") == 23
        found["rules"] = left_in_english(pg)
        shoot(pg, f"rules-{lang}")
        # the page's plural forms are the catalogue's (1, 21 / 2, 22 / 5, 25)
        ready(pg, f"{server}/puzzles")
        got = pg.evaluate("[1, 2, 5, 11, 21, 22, 25].map(n => ngt('{n} card', '{n} cards', n))")
        with use_language(lang):
            assert got == [ngettext("{n} card", "{n} cards", n).format(n=n)
                           for n in (1, 2, 5, 11, 21, 22, 25)]
    finally:
        ctx.close()
    assert {k: sorted(v) for k, v in found.items() if v} == {}, repr(found)
    assert errors == [], errors


def test_the_switcher_changes_the_language_remembers_it_and_keeps_the_game(browser, server):
    ctx, pg, errors = new_page(browser, "ru")
    try:
        ready(pg, server + "/")
        assert pg.inner_text("#tab-analysis") == "Позиция и анализ"
        start_a_game_and_move(pg, seed=11)
        game = pg.evaluate("localStorage.getItem('durak.game')")
        position = pg.evaluate("Play.game.board.position")
        assert pg.inner_text("#play-status").startswith("Ваш ход")
        with pg.expect_navigation():
            pg.select_option("#lang-switch", "lt")
        pg.wait_for_selector("body[data-ready='1']", state="attached")
        wait_for_my_turn(pg)
        assert pg.evaluate("document.documentElement.lang") == "lt"
        assert pg.evaluate("Play.game.id") == game
        assert pg.evaluate("Play.game.board.position") == position
        assert pg.inner_text("#play-status").startswith("Jūsų ėjimas")
        assert "Žaidėjas" in pg.inner_text("#play-log") or "Jūs" in pg.inner_text("#play-log")
        # remembered: another page, the browser still asking for Russian
        ready(pg, server + "/puzzles")
        assert pg.evaluate("document.documentElement.lang") == "lt"
        assert any(c["name"] == "durak_lang" and c["value"] == "lt" for c in ctx.cookies())
    finally:
        ctx.close()
    assert errors == [], errors


@pytest.mark.parametrize("lang", ["en", "lt", "ru"])
@pytest.mark.parametrize("viewport", [PHONE, LAPTOP], ids=["390", "1280"])
def test_the_board_and_play_fit_the_screen_in_each_language(browser, server, lang, viewport):
    """Longer words (Lithuanian, Russian) still fit a phone: no page wider than the
    screen; screenshots kept with DURAK_SHOTS."""
    ctx, pg, errors = new_page(browser, lang, viewport)
    try:
        ready(pg, f"{server}/?position={quote(BOARD)}")
        assert pg.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        shoot(pg, f"board-{lang}-{viewport['width']}")
        start_a_game_and_move(pg, seed=7)
        assert pg.evaluate("document.documentElement.scrollWidth") <= viewport["width"]
        shoot(pg, f"play-{lang}-{viewport['width']}")
    finally:
        ctx.close()
    assert errors == [], errors


def refuse(status: int, text: str):
    """A route answered as the server answers before the app: plain text."""
    return lambda route: route.fulfill(status=status, body=text,
                                       content_type="text/plain; charset=utf-8")


@pytest.mark.parametrize("lang", ["lt", "ru"])
def test_a_refusal_the_page_reads_is_in_its_language(browser, server, lang):
    """The server's refusals in the page's language (issue 69): a position refused with
    a number of 5,000 digits, and the answers that are not the app's JSON (too many
    connections, 503; the headers too slow, 408), which the page words itself."""
    ctx, pg, errors = new_page(browser, lang)
    try:
        ready(pg, f"{server}/?position={quote(SMALL + '; pile ' + '1' * 5000)}")
        shown = pg.inner_text("#position-error")
        assert shown.startswith("pile: ") and not english_left(shown[6:]), shown
        for status, text in ((503, "too many connections at once; try again in a moment"),
                             (408, "the request did not arrive in time; try again")):
            pg.route("**/api/board", refuse(status, text))
            pg.fill("#position-text", SMALL)
            pg.click("#position-show")
            pg.wait_for_function("document.getElementById('position-error').textContent")
            shown = pg.inner_text("#position-error")
            assert shown == catalogue_json(lang)["messages"][text] != text, shown
            pg.unroute("**/api/board")
    finally:
        ctx.close()
    assert errors == [], errors
