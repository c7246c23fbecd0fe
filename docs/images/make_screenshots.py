"""The web board's screenshots in docs/images/ (docs/web.md, README.md): how they were made.

Starts `durak serve` on a free port of 127.0.0.1 with a fresh data directory,
drives Debian's Chromium through Playwright (as tests/test_web_browser.py
does) and saves each page at a laptop's size (1280x800) and a phone's
(390x844).  Run from the repository's root (``board``: only the board's
tabs; ``pages``: only the follow, review and puzzle pages):

    python docs/images/make_screenshots.py [board|pages]
"""
from __future__ import annotations

import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator
from urllib.parse import quote

from playwright.sync_api import Page, sync_playwright

ROOT = Path(__file__).resolve().parents[2]
OUT = Path(__file__).resolve().parent
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]
LAPTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}

SMALL = "trump H; hands 6S 7S KH | 8C 9C AH; attacker 1"
THREE = "trump S; hands 7D 9D 6C | 8D TD 7C | JS 7H 8C; attacker 1; rules transfer"
BOARD = ("trump 9H; pile 7; hands 6S 6D QC KS TD AH | ?6; table 8S/JS 8D; attacker 1; "
         "out 7S 9S TS 6H 7H 8H TH 7D 9D 6C 7C 8C 9C TC; me 1")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def ready(page: Page, url: str) -> None:
    page.goto(url)
    page.wait_for_selector("body[data-ready='1']", state="attached")


@contextmanager
def chromium() -> Iterator[Any]:
    """Debian's Chromium (or $DURAK_CHROMIUM), headless, through Playwright."""
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=os.environ.get("DURAK_CHROMIUM",
                                                                   "/usr/bin/chromium"),
                                    headless=True, args=ARGS)
        yield browser
        browser.close()


def shots(base: str, groups: set[str]) -> None:
    if "board" in groups:
        board_shots(base)
    if "pages" in groups:
        page_shots(base)


def board_shots(base: str) -> None:
    with chromium() as browser:
        for size, suffix in ((LAPTOP, ""), (PHONE, "-phone")):
            page = browser.new_page(viewport=size)
            # the board: a bout in progress, the pile with its face-up trump, a hidden hand
            ready(page, f"{base}/?position={quote(BOARD)}")
            page.screenshot(path=OUT / f"web-board{suffix}.png", full_page=True)
            # the analysis, its variation stepped to the second move
            ready(page, f"{base}/?position={quote(SMALL)}")
            page.click("#analyse-btn")
            page.wait_for_selector("#pv-moves button")
            page.click("#pv-next")
            page.click("#pv-next")
            page.screenshot(path=OUT / f"web-analysis{suffix}.png", full_page=True)
            # the editor, a position being built by clicks: 7D from seat 1's hand to the table
            ready(page, f"{base}/?position={quote(THREE)}")
            page.click("#tab-editor")
            page.wait_for_function("document.getElementById('ed-text').textContent.length > 0")
            page.click("#ed-places button[data-place='ta']")
            page.click("#ed-grid .card[data-card='7D']")
            page.wait_for_function("document.getElementById('ed-text').textContent"
                                   ".includes('table 7D')")
            page.screenshot(path=OUT / f"web-editor{suffix}.png", full_page=True)
            # a game in progress, with a hint
            page.click("#tab-play")
            page.select_option("#pl-engine", "greedy")
            page.fill("#pl-seed", "7")
            page.click("#pl-start")
            for _ in range(3):
                page.wait_for_function("document.getElementById('play-status').textContent"
                                       ".startsWith('Your move')", timeout=60_000)
                page.locator("#play-board .card.playable").first.click()
                page.wait_for_timeout(300)
            page.wait_for_function("document.getElementById('play-status').textContent"
                                   ".startsWith('Your move')", timeout=60_000)
            page.click("#play-hint")
            page.wait_for_selector("#play-hint-result table.hint-table", timeout=60_000)
            page.screenshot(path=OUT / f"web-game{suffix}.png", full_page=True)
            page.close()


#: A followed game (tests/web_support.py's): entered up to the middle of a bout.
FOLLOW_DEAL = {"players": 2, "seat": 1, "attacker": 1, "trump": "KH",
               "deal": ["AS", "7H", "TH", "KD", "QC", "KC"]}
FOLLOW_ENTRIES = ["1:QC", "2:take", "draw QH", "1:KD", "2:KD/AD", "1:pass", "draw TC",
                  "2:7S", "1:7S/AS", "2:pass", "draw JD", "1:TC", "2:TC/QC", "1:pass", "draw JC",
                  "2:8S,8D", "1:8D/JD"]


def post(base: str, path: str, body: dict) -> dict:
    req = urllib.request.Request(base + path, data=json.dumps(body).encode(),
                                 headers={"Content-Type": "application/json"})
    return json.loads(urllib.request.urlopen(req, timeout=30).read())


def page_shots(base: str) -> None:
    # a followed game, seat 2 has led a pair; and a record of `durak match --record`
    with tempfile.TemporaryDirectory() as d:
        subprocess.run([sys.executable, "-m", "solver.cli", "match", "--a", "random", "--b",
                        "random", "--games", "1", "--players", "2", "--seed", "1", "--record",
                        d], cwd=ROOT, check=True, stdout=subprocess.DEVNULL)
        record = (Path(d) / "deal0000-a1.txt").read_text()
    with chromium() as browser:
        for size, suffix in ((LAPTOP, ""), (PHONE, "-phone")):
            page = browser.new_page(viewport=size)
            # follow: seat 1 covers the pair (the second cover by a click); seat 2 is asked
            # to throw in: the cards it may hold are outlined in the grid, or it passed
            gid = post(base, "/api/follow", FOLLOW_DEAL)["id"]
            for e in FOLLOW_ENTRIES:
                post(base, f"/api/follow/{gid}/enter", {"entry": e})
            ready(page, f"{base}/follow?id={gid}")
            page.click("#fw-board .card.playable[data-card='7H']")
            page.wait_for_function("document.getElementById('fw-entries').textContent"
                                   ".includes('/7\u2665')")
            page.screenshot(path=OUT / f"web-follow{suffix}.png", full_page=True)
            # review: the match record, its decisive move selected
            ready(page, f"{base}/review?record={quote(record)}")
            page.wait_for_selector("#rv-summary .decisive-link", timeout=120_000)
            page.click("#rv-summary .decisive-link")
            page.screenshot(path=OUT / f"web-review{suffix}.png", full_page=True)
            # puzzles: a wrong move and its refutation
            page.evaluate("localStorage.clear()")
            ready(page, f"{base}/puzzles?id=pod-001")
            page.click("#pz-board .action[data-move='take']")
            page.wait_for_selector("#pz-refutation")
            page.screenshot(path=OUT / f"web-puzzles{suffix}.png", full_page=True)
            page.close()


def main() -> int:
    groups = set(sys.argv[1:]) or {"board", "pages"}
    port = free_port()
    data = tempfile.mkdtemp(prefix="durak-shots-")
    server = subprocess.Popen([sys.executable, "-m", "solver.cli", "serve", "--port", str(port),
                               "--data-dir", data], cwd=ROOT)
    base = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                urllib.request.urlopen(base + "/api/status", timeout=1).read()
                break
            except OSError:
                time.sleep(0.1)
        shots(base, groups)
    finally:
        server.send_signal(signal.SIGINT)
        server.wait(20)
    for f in sorted(OUT.glob("web-*.png")):
        print(f.relative_to(ROOT))
    return 0


if __name__ == "__main__":
    sys.exit(main())
