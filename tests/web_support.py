"""What the web app's tests share: the in-process client and a live server.

The in-process client is Starlette's ``TestClient`` (httpx, a test extra); a
live server is uvicorn on a free port of 127.0.0.1 in a thread of the test
process, for what only a real socket shows (a client that goes away, the
browser).
"""
from __future__ import annotations

import contextlib
import socket
import threading
import time
import warnings
from typing import Any, Iterator

import pytest

pytest.importorskip("starlette")
pytest.importorskip("uvicorn")
pytest.importorskip("httpx", reason="the web tests need httpx (the test extra)")

import uvicorn  # noqa: E402

from solver.web.app import create_app  # noqa: E402

with warnings.catch_warnings():
    # Starlette 1.x would rather have httpx2, which is not on this machine's registry
    warnings.simplefilter("ignore")
    from starlette.testclient import TestClient  # noqa: E402

#: A 2-player position every card known: seat 1 wins in 6 plies.
SMALL = "trump H; hands 6S 7S KH | 8C 9C AH; attacker 1"
#: The browser windows the pages are looked at in: a phone's and a laptop's.
PHONE = {"width": 390, "height": 844}
LAPTOP = {"width": 1280, "height": 800}
#: A bout in progress with a hidden hand and a pile (docs/images/make_screenshots.py's).
HIDDEN_BOARD = ("trump 9H; pile 7; hands 6S 6D QC KS TD AH | ?6; table 8S/JS 8D; attacker 1; "
                "out 7S 9S TS 6H 7H 8H TH 7D 9D 6C 7C 8C 9C TC; me 1")
#: A followed game at its start: seat 2 leads, the page asks what it played.
FOLLOW_START = "players 2\ntrump 9H\nme 1\ndeal 1 6S 7S KH 8C 9C AC\nattacker 2\n"
#: A 3-player position whose analysis takes about 30 s on two cores: budgets run out.
HARD = "trump H; hands JS QS TH JH JC | QH KH KD 9C QC | 7S 8H 9H JD 8C; attacker 1"
#: A position with hidden cards (the hint's).
HIDDEN = ("trump 9H; pile 7; hands 6S 6D QC KS TD AH | ?6; attacker 1; out 7S 8S 9S TS JS 6H 7H "
          "8H TH 7D 8D 9D 6C 7C 8C 9C TC; me 1")


def client(tmp_path: Any, **kw: Any) -> TestClient:
    """The app in-process, its games in ``tmp_path``; use it as a context manager."""
    return TestClient(create_app(workers=kw.pop("workers", 2), data_dir=str(tmp_path), **kw))


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@contextlib.contextmanager
def live_server(tmp_path: Any, **kw: Any) -> Iterator[str]:
    """uvicorn serving the app on 127.0.0.1 in a thread; yields its base URL."""
    port = free_port()
    app = create_app(workers=kw.pop("workers", 2), data_dir=str(tmp_path), **kw)
    server = uvicorn.Server(uvicorn.Config(app, host="127.0.0.1", port=port, log_level="warning",
                                           timeout_graceful_shutdown=2))
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    deadline = time.monotonic() + 20
    while not server.started:
        if time.monotonic() > deadline or not thread.is_alive():
            raise RuntimeError("the live server did not start")
        time.sleep(0.02)
    try:
        yield f"http://127.0.0.1:{port}"
    finally:
        server.should_exit = True
        thread.join(15)

#: A whole 2-player game followed from seat 1 (its deal, its draws, the others' cards as
#: they were played, the passes of seat 2 when it was asked to throw in), written by hand
#: as the record format writes it (docs/game-record.md): what the follow page must save.
FOLLOWED_DEAL = {"players": 2, "seat": 1, "attacker": 1, "trump": "KH",
                 "deal": ["AS", "7H", "TH", "KD", "QC", "KC"]}
FOLLOWED = """\
# durak game record (docs/game-record.md)
players 2
trump KH
me 1
attacker 1
deal 1 AS 7H TH KD QC KC
moves
1:QC 2:take draw QH
1:KD 2:KD/AD 1:pass draw TC
2:7S 1:7S/AS 2:pass draw JD
1:TC 2:TC/QC 1:pass draw JC
2:8S,8D 1:8D/JD 1:8S/7H 2:pass draw 6S 8H
1:6S 2:6S/TS 1:pass draw 9D
2:7D 1:7D/9D 2:pass draw 9S
1:9S 2:9S/QS 1:pass draw JS
2:6D 1:6D/8H 2:pass draw 9H
1:JS 2:JS/KS 1:+JC 2:JC/AC 1:+KC 2:KC/AH draw 6H 7C 8C
2:6C 1:6C/7C 2:pass
1:8C 2:8C/9C 1:+9H 2:9H/JH
2:TD 1:TD/6H 2:pass
1:TH 2:TH/KH
2:QD 1:QD/QH
"""


def followed_entries() -> list[str]:
    """The entries of :data:`FOLLOWED`, in order (``1:QC``, ``draw QH``, ...)."""
    from solver.games.session import split_entries
    moves = FOLLOWED.split("moves\n", 1)[1]
    return [e for line in moves.splitlines() for e in split_entries(line)]
