"""Every page fits its screen in every language, in Chromium (issue 69;
tests/browser_support.py: without Playwright or the browser every test skips and says
why).  Each page -- the board and its analysis, the editor, Play (a game with its hint,
a finished game with its review), Follow (a game going on, a finished one reviewed
under the board), Review with a reviewed game (every card seen too), Puzzles with a
refutation, the rules -- in English, Lithuanian and Russian, at 1280 px and at 390 px (a phone):

- no page wider than the window, no panel wider than itself (a panel's, a board's, a
  scrolling box's content wider than its box is cut or scrolled away: the review's
  table was 645 px in a 504 px panel in Lithuanian, its labels out of sight), no table
  cell whose text is cut, nothing out of the window's sides;
- the header at most two lines on a phone, one on a laptop (Russian took three on a
  phone);
- after a finished game on a phone, the board not docked over more than a third of
  the screen (it stayed docked over 60 % of it while the review was read);
- every column of a finished game's review shown (a phone hid the best move's chance).

``DURAK_SHOTS=DIR`` keeps a screenshot of each page in each language and width."""
from __future__ import annotations

import json
import os
import time
import urllib.request
from pathlib import Path
from urllib.parse import quote

import pytest
import browser_support  # noqa: F401 (skips this module when there is no browser)
from web_support import FOLLOW_START, FOLLOWED, LAPTOP, PHONE, SMALL, live_server
from web_support import HIDDEN_BOARD as BOARD

from solver.web.api import Limits

ROOT = Path(__file__).resolve().parent.parent

#: What does not fit, in words: the page wider than the window; a panel, a board, a
#: scrolling box, a table cell or a box of text whose content is wider than the box (cut,
#: scrolled out of sight, or running over what is beside it: a card's tag); text cut by
#: an ellipsis; an element out of the window's sides.
OVERFLOW = """() => {
  const out = [], root = document.documentElement, W = root.clientWidth;
  const name = (e) => (e.id ? '#' + e.id : e.tagName.toLowerCase()
      + (e.classList.length ? '.' + [...e.classList].join('.') : ''))
      + ' "' + (e.textContent || '').trim().replace(/\\s+/g, ' ').slice(0, 40) + '"';
  if (root.scrollWidth > W) out.push(`the page is ${root.scrollWidth} px wide in a ${W} px window`);
  const flagged = [];
  for (const e of document.body.querySelectorAll('*')) {
    if (e instanceof SVGElement && e.tagName.toLowerCase() !== 'svg') continue;
    if (!e.getClientRects().length || flagged.some(f => f.contains(e))) continue;
    const cs = getComputedStyle(e);
    if (cs.visibility === 'hidden') continue;
    const text = [...e.childNodes].some(n => n.nodeType === 3 && n.textContent.trim());
    const boxed = cs.overflowX !== 'visible' || cs.textOverflow === 'ellipsis'
      || (text && !cs.display.startsWith('inline') && cs.display !== 'contents')
      || e.matches('.panel, .durak-board, .board-dock, .col-board, .col-side, main, header, td, th');
    if (boxed && e.clientWidth > 0 && e.scrollWidth > e.clientWidth + 1) {
      out.push(`${name(e)}: ${e.scrollWidth} px of content in ${e.clientWidth} px`);
      flagged.push(e);
      continue;
    }
    const r = e.getBoundingClientRect();
    if (r.width > 0 && (r.right > W + 1 || r.left < -1)) {
      out.push(`${name(e)}: from ${Math.round(r.left)} to ${Math.round(r.right)} px in a ${W} px window`);
      flagged.push(e);
    }
  }
  return out;
}"""

#: How many lines the header's items (the title, the tabs, the pages, the switcher) take.
HEADER_LINES = """() => {
  const items = [...document.querySelectorAll(
      'header.top h1, header.top .tabs button, header.top nav.pages a, header.top .lang-switch')]
    .filter(e => e.getClientRects().length).map(e => e.getBoundingClientRect());
  items.sort((a, b) => a.top - b.top);
  let lines = 0, bottom = -Infinity;
  for (const r of items) if (r.top >= bottom - 2) { lines += 1; bottom = r.bottom; }
  else bottom = Math.max(bottom, r.bottom);
  return lines;
}"""

#: The share of the window a board docked at its top covers, scrolled to the page's end.
DOCKED = """() => {
  window.scrollTo(0, document.documentElement.scrollHeight);
  let share = 0;
  for (const d of document.querySelectorAll('.board-dock')) {
    const r = d.getBoundingClientRect();
    if (!d.getClientRects().length || getComputedStyle(d).position !== 'sticky') continue;
    if (r.top <= 1 && r.bottom > 0) share = Math.max(share, Math.min(r.bottom, innerHeight) / innerHeight);
  }
  return share;
}"""

#: The cells of a finished game's review table that are not shown.
HIDDEN_CELLS = """(sel) => [...document.querySelectorAll(sel + ' .review-table th, ' + sel + ' .review-table td')]
  .filter(c => !c.getClientRects().length).map(c => c.className || c.textContent)"""


def call(server: str, path: str, body: dict | None = None) -> dict:
    req = urllib.request.Request(server + path, method="GET" if body is None else "POST",
                                 data=None if body is None else json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=60) as r:
        return json.loads(r.read())


def played_game(server: str, seed: int, to_the_end: bool) -> str:
    """A game against the greedy engine, through the API: seat 1 plays the first move
    offered each time, to the end or for a move."""
    g = call(server, "/api/games", {"players": 2, "engine": "greedy", "seed": seed})
    for _ in range(400):
        while g["thinking"]:
            time.sleep(0.05)
            g = call(server, f"/api/games/{g['id']}")
        if g["over"] or (not to_the_end and g["moves_played"] > 1):
            return str(g["id"])
        g = call(server, f"/api/games/{g['id']}/play", {"move": g["board"]["moves"][0]["move"]})
    raise AssertionError("the game did not end")


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    # a review's whole budget a few seconds: the tables fill as they do with 30
    with live_server(tmp_path_factory.mktemp("web"), limits=Limits(review_time=3.0)) as base:
        yield base


@pytest.fixture(scope="module")
def games(server):
    return {"playing": played_game(server, 5, to_the_end=False),
            "over": played_game(server, 3, to_the_end=True),
            "following": call(server, "/api/follow", {"record": FOLLOW_START})["id"],
            "followed": call(server, "/api/follow", {"record": FOLLOWED})["id"]}


def ready(page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']", state="attached")


def visit(page, server: str, games: dict, name: str) -> None:
    """Bring the page to the state named ``name``."""
    if name == "board":
        ready(page, f"{server}/?position={quote(BOARD)}")
    elif name == "analysis":
        ready(page, f"{server}/?position={quote(SMALL)}")
        page.click("#analyse-btn")
        page.wait_for_selector("#pv-moves button")
    elif name == "editor":
        page.click("#tab-editor")
        # the position analysed, taken over by the editor (not its empty first state)
        page.wait_for_function("document.getElementById('ed-text').textContent.includes('attacker')")
    elif name == "play":
        ready(page, f"{server}/?game={games['playing']}")
        page.click("#tab-play")
        page.wait_for_selector("#play-hint:not([disabled])")
        page.click("#play-hint")
        page.wait_for_selector("#play-hint-result .verdict", timeout=120_000)
    elif name == "play-over":
        ready(page, f"{server}/?game={games['over']}")
        page.click("#tab-play")
        page.click("#play-review")
        page.wait_for_selector("#play-hint-result .review-table", timeout=120_000)
    elif name == "follow":
        ready(page, f"{server}/follow?id={games['following']}")
    elif name == "follow-over":
        ready(page, f"{server}/follow?id={games['followed']}")
        page.click("#fw-review-here")
        page.wait_for_selector("#fw-hint-result .review-table", timeout=120_000)
    elif name == "review":
        ready(page, f"{server}/review")
        page.fill("#rv-text", (ROOT / "docs" / "examples" / "full-game.txt").read_text())
        page.check("#rv-hindsight")  # every card seen: the move list's marks and its key too
        page.click("#rv-go")
        page.wait_for_selector("#rv-summary .status-line", timeout=120_000)
        page.wait_for_selector("#rv-seen-summary")
    elif name == "puzzles":
        ready(page, f"{server}/puzzles?id=pod-001")
        page.click("#pz-board .action[data-move='take']")
        page.wait_for_selector("#pz-refutation")
    elif name == "rules":
        page.goto(f"{server}/rules")
    else:
        raise ValueError(name)


PAGES = ("board", "analysis", "editor", "play", "play-over", "follow", "follow-over", "review",
         "puzzles", "rules")


def shoot(page, name: str) -> None:
    where = os.environ.get("DURAK_SHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        page.evaluate("window.scrollTo(0, 0)")
        page.screenshot(path=str(Path(where) / f"{name}.png"), full_page=True)


@pytest.mark.parametrize("lang", ["en", "lt", "ru"])
@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1280", "390"])
def test_every_page_fits_its_panels_in_every_language(browser, server, games, lang, viewport):
    ctx = browser.new_context(viewport=viewport, locale=lang,
                              extra_http_headers={"Accept-Language": lang})
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    pg.set_default_timeout(60_000)
    phone = viewport is PHONE
    wrong: dict[str, list[str]] = {}
    try:
        for name in PAGES:
            visit(pg, server, games, name)
            pg.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
            found = list(pg.evaluate(OVERFLOW))
            lines = pg.evaluate(HEADER_LINES)
            if lines > (2 if phone else 1):
                found.append(f"the header takes {lines} lines")
            if name.endswith("-over"):
                where = "#play-hint-result" if name == "play-over" else "#fw-hint-result"
                hidden = pg.evaluate(HIDDEN_CELLS, where)
                if hidden:
                    found.append(f"the review's cells not shown: {sorted(set(hidden))}")
                shoot(pg, f"{name}-{lang}-{viewport['width']}")
                if phone:
                    share = pg.evaluate(DOCKED)
                    if share > 1 / 3:
                        found.append(f"the finished board docked over {share:.0%} of the screen")
            else:
                shoot(pg, f"{name}-{lang}-{viewport['width']}")
            if found:
                wrong[name] = found[:6]
    finally:
        ctx.close()
    assert wrong == {}, json.dumps(wrong, indent=1, ensure_ascii=False)
    assert errors == [], errors
