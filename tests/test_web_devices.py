"""A phone at a real table, as a second device would be (issue 72): `durak serve --lan`
bound to 127.0.0.2 plays the computer's network address (the kernel routes it to this
machine, so nothing leaves it; solver/web/lan.py counts only 127.0.0.1 and ::1 as this
machine's own), the laptop on 127.0.0.1.  Chromium with a phone's viewport and user agent
is refused without the token, pairs by the printed address, follows the game the laptop
enters -- each entry on the phone within a second, measured -- enters its own, keeps an
entry through a lost connection and sends it once, and of two entries made at once one is
refused and shown the other device's game.  ``DURAK_SHOTS=DIR`` keeps screenshots of
/pair and of the paired phone's follow page at 390 and 1280 px."""
from __future__ import annotations

import os
import re
import statistics
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
import browser_support  # noqa: F401 (skips this module when there is no browser)
from web_support import FOLLOWED_DEAL, followed_entries, free_port

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "table-token-for-tests"
PHONE_UA = ("Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) "
            "Chrome/126.0.0.0 Mobile Safari/537.36")
#: Seconds an entry may take to appear on the other device (the page polls every 0.5 s).
LIVE_SECONDS = 1.0


@pytest.fixture(scope="module")
def lan(tmp_path_factory):
    """`durak serve --lan` on 127.0.0.2 (and 127.0.0.1): the two base URLs."""
    port = free_port()
    proc = subprocess.Popen(
        [sys.executable, "-m", "solver.cli", "serve", "--lan", "--host", "127.0.0.2", "--port",
         str(port), "--workers", "1", "--data-dir", str(tmp_path_factory.mktemp("lan"))],
        cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True,
        env={**os.environ, "DURAK_TOKEN": TOKEN})
    deadline = time.monotonic() + 60
    while True:
        try:
            urllib.request.urlopen(f"http://127.0.0.1:{port}/api/status", timeout=2).close()
            break
        except OSError:
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "durak serve --lan did not start"
            time.sleep(0.1)
    try:
        yield f"http://127.0.0.1:{port}", f"http://127.0.0.2:{port}"
    finally:
        proc.terminate()
        proc.communicate(timeout=30)


def context(browser, phone: bool):
    if phone:
        ctx = browser.new_context(viewport={"width": 390, "height": 844}, user_agent=PHONE_UA,
                                  is_mobile=True, has_touch=True, device_scale_factor=2)
    else:
        ctx = browser.new_context(viewport={"width": 1280, "height": 800})
    ctx.set_default_timeout(60_000)
    pg = ctx.new_page()
    errors: list[str] = []
    pg.on("pageerror", lambda e: errors.append(str(e)))
    return ctx, pg, errors


def shoot(page, name: str) -> None:
    where = os.environ.get("DURAK_SHOTS")
    if where:
        Path(where).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(where) / f"{name}.png"))


def entries(page) -> list[str]:
    return page.evaluate("Follow.view ? Follow.view.entries : []")


def enter(page, entry: str) -> None:
    """Enter through the page's own code (kept in its outbox, sent with the version and
    an id), as a click would."""
    page.evaluate("(e) => { Follow.enter(e); }", entry)


def test_a_phone_pairs_by_the_address_and_follows_the_laptops_game_live(browser, lan):
    laptop_url, phone_url = lan
    laptop_ctx, laptop, laptop_errors = context(browser, phone=False)
    phone_ctx, phone, phone_errors = context(browser, phone=True)
    try:
        # the laptop (this machine: no token) starts following a game
        laptop.goto(f"{laptop_url}/follow?new=1")
        laptop.wait_for_selector("body[data-ready='1']", state="attached")
        assert laptop.locator("#link-pair").count() == 1  # "Pair a phone" in the header
        laptop.click(f"#fs-grid .card[data-card='{FOLLOWED_DEAL['trump']}']")
        for c in FOLLOWED_DEAL["deal"]:
            laptop.click(f"#fs-grid .card[data-card='{c}']")
        laptop.select_option("#fs-attacker", str(FOLLOWED_DEAL["attacker"]))
        laptop.click("#fs-start")
        laptop.wait_for_selector("#game:not([hidden])")
        gid = laptop.evaluate("Follow.id")

        # the laptop's /pair: the phone's address with the token, and its QR code
        laptop.goto(f"{laptop_url}/pair")
        assert laptop.inner_text("#pair-url") == f"{phone_url}/?token={TOKEN}"
        assert laptop.locator("#pair-qr svg").count() == 1
        shoot(laptop, "web-pair")
        laptop.set_viewport_size({"width": 390, "height": 844})
        shoot(laptop, "web-pair-phone")
        laptop.set_viewport_size({"width": 1280, "height": 800})
        laptop.goto(f"{laptop_url}/follow?id={gid}")
        laptop.wait_for_selector("#game:not([hidden])")

        # the phone without the token: refused, one line, nothing of the page
        r = phone.goto(f"{phone_url}/follow?id={gid}")
        assert r.status == 401
        text = phone.inner_text("body")
        assert "pairing token" in text and text.strip().count("\n") == 0
        assert phone.request.get(f"{phone_url}/static/follow.js").status == 401
        assert phone.request.get(f"{phone_url}/api/follow/{gid}").status == 401

        # paired by the address: the token gone from the address bar, the game shown
        r = phone.goto(f"{phone_url}/follow?id={gid}&token={TOKEN}")
        assert r.status == 200
        assert phone.url == f"{phone_url}/follow?id={gid}"
        phone.wait_for_selector("#game:not([hidden])")
        assert phone.locator("#paired").count() == 1 and phone.locator("#link-pair").count() == 0
        cookie = next(c for c in phone_ctx.cookies() if c["name"] == "durak_pair")
        assert cookie["httpOnly"] and cookie["sameSite"] == "Strict"
        assert phone.evaluate("document.cookie") == ""  # HttpOnly: no script reads it
        assert phone.evaluate("fetch('/manifest.webmanifest').then(r => r.json())"
                              )["start_url"] == "/follow"

        # the laptop enters; each entry appears on the phone within a second
        todo = followed_entries()
        delays = []
        for entry in todo[:6]:
            before = len(entries(phone))
            enter(laptop, entry)
            laptop.wait_for_function(f"Follow.view.entries.length === {before + 1}")
            t = time.monotonic()
            phone.wait_for_function(f"Follow.view && Follow.view.entries.length === {before + 1}",
                                    timeout=10_000)
            delays.append(time.monotonic() - t)
        print(f"\nlaptop -> phone: median {statistics.median(delays):.2f} s, "
              f"max {max(delays):.2f} s over {len(delays)} entries")
        assert max(delays) <= LIVE_SECONDS, delays
        assert entries(phone) == todo[:6]

        # the phone enters; the laptop sees it
        enter(phone, todo[6])
        laptop.wait_for_function("Follow.view.entries.length === 7", timeout=10_000)
        shoot(phone, "web-follow-paired-phone")
        phone.set_viewport_size({"width": 1280, "height": 800})
        shoot(phone, "web-follow-paired")
        phone.set_viewport_size({"width": 390, "height": 844})

        # a lost connection: the entry kept on the phone, shown as such, sent once back
        phone_ctx.set_offline(True)
        enter(phone, todo[7])
        phone.wait_for_selector("#conn-lost:not([hidden])")
        assert "Connection lost" in phone.inner_text("#conn-lost")
        shoot(phone, "web-follow-offline-phone")
        assert phone.evaluate(f"JSON.parse(localStorage.getItem('durak.follow.outbox.{gid}'))"
                              f".map(i => i.entry)") == [todo[7]]
        time.sleep(1.0)
        assert len(entries(laptop)) == 7
        phone_ctx.set_offline(False)
        laptop.wait_for_function("Follow.view.entries.length === 8", timeout=15_000)
        phone.wait_for_selector("#conn-lost", state="hidden", timeout=15_000)
        assert entries(laptop) == todo[:8] and entries(phone) == todo[:8]
        assert phone.evaluate(f"localStorage.getItem('durak.follow.outbox.{gid}')") is None

        # two devices enter at once: one is refused and shown the other's game
        assert laptop.evaluate("Follow.view.version") == phone.evaluate("Follow.view.version")
        laptop.evaluate("(e) => { window.setTimeout(() => Follow.enter(e), 0); }", todo[8])
        enter(phone, todo[8])
        laptop.wait_for_function("Follow.view.entries.length === 9 && !Follow.busy")
        phone.wait_for_function("Follow.view.entries.length === 9 && !Follow.busy")
        refused = [p.inner_text("#fw-error") for p in (laptop, phone)]
        assert sum("another device changed this game first" in e for e in refused) == 1, refused
        assert entries(laptop) == entries(phone) == todo[:9]
    finally:
        laptop_ctx.close()
        phone_ctx.close()
    assert laptop_errors == [] and phone_errors == []
