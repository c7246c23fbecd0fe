"""The board on the network (`durak serve --lan`, issue 72): every route behind the
pairing token for a request that is not this machine's own, the token exchanged for a
cookie and dropped from the address, wrong tokens slowed and capped, the Host check, no
CORS; the command's pairing address, its QR code and its token options.

Starlette's test client is "not this machine" (its server is ``testserver``); given
``base_url="http://127.0.0.1"`` and a loopback client it is (solver/web/lan.py).
"""
from __future__ import annotations

import os
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from web_support import TestClient, client, free_port

from solver.web import lan
from solver.web.app import create_app

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "test-token-0123456789"


def pairing() -> lan.Pairing:
    return lan.Pairing(TOKEN, ["http://192.0.2.7:8000/"])


def every_request(routes, prefix: str = ""):
    """(method, path) for every route of the app, mounts included: a route added later is
    asked for without this test changing."""
    for r in routes:
        if isinstance(r, Mount):
            base = prefix + r.path
            yield "GET", base + "/"
            if isinstance(r.app, StaticFiles):
                for f in sorted(Path(r.app.directory).iterdir()):
                    yield "GET", f"{base}/{f.name}"
            yield from every_request(r.routes, base)
        elif isinstance(r, Route):
            path = re.sub(r"\{[^}]+\}", "x", prefix + r.path)
            for method in sorted(r.methods or {"GET"}):
                if method != "HEAD":
                    yield method, path


@pytest.fixture(scope="module")
def guarded_app(tmp_path_factory):
    app = create_app(workers=1, data_dir=str(tmp_path_factory.mktemp("lan")), pairing=pairing())
    with TestClient(app, follow_redirects=False) as c:
        yield app, c


def local_client(app) -> TestClient:
    return TestClient(app, base_url="http://127.0.0.1:8000", client=("127.0.0.1", 50000),
                      follow_redirects=False)


def test_every_route_is_refused_without_the_token_with_one_line(guarded_app):
    app, remote = guarded_app
    asked = list(every_request(app.routes))
    paths = {p for _, p in asked}
    # the enumeration reaches the pages, the API, the OpenAPI document and the static files
    assert {"/", "/follow", "/pair", "/api/openapi.json", "/api/follow/x/enter",
            "/static/style.css", "/static/follow.js"} <= paths, sorted(paths)
    here = local_client(app)
    for method, path in asked + [("GET", "/no/such/page")]:
        r = remote.request(method, path, json={} if method == "POST" else None)
        assert r.status_code == 401, (method, path, r.status_code)
        assert r.headers["content-type"].startswith("text/plain")
        assert r.text.count("\n") == 1 and "<" not in r.text and "pairing token" in r.text
        assert "access-control-allow-origin" not in r.headers
        # the same request from this machine is the route's own answer
        mine = here.request(method, path, json={} if method == "POST" else None)
        assert mine.status_code not in (401, 403, 429), (method, path, mine.text[:200])


def test_the_token_is_exchanged_for_a_cookie_and_dropped_from_the_address(guarded_app):
    app, remote = guarded_app
    r = remote.get(f"/follow?id=abc&token={TOKEN}&x=1")
    assert r.status_code == 303
    assert r.headers["location"] == "/follow?id=abc&x=1"
    cookie = r.headers["set-cookie"]
    assert cookie.startswith(f"{lan.COOKIE}=") and TOKEN not in cookie
    for flag in ("HttpOnly", "SameSite=Strict", "Path=/"):
        assert flag in cookie
    value = cookie.split(";")[0].split("=", 1)[1]
    paired = TestClient(app, follow_redirects=False, cookies={lan.COOKIE: value})
    page = paired.get("/follow?id=abc")
    assert page.status_code == 200 and "<html" in page.text
    assert paired.get("/api/openapi.json").status_code == 200
    assert paired.post("/api/show", json={"position": "trump H; hands 6S | 7S; attacker 1"}
                       ).status_code == 200
    # the POST rules hold for a paired device as for this machine: JSON only
    assert paired.post("/api/show", content=b"position=x",
                       headers={"content-type": "application/x-www-form-urlencoded"}
                       ).status_code == 415
    # a cookie of another run (another secret) is no pass
    other = lan.Pairing(TOKEN, ["http://192.0.2.7:8000/"]).cookie_value
    assert other != value
    assert TestClient(app, cookies={lan.COOKIE: other}).get("/").status_code == 401


def test_a_wrong_token_is_slowed_and_capped_per_client(tmp_path, monkeypatch):
    monkeypatch.setattr(lan, "WRONG_DELAY", 0.2)
    monkeypatch.setattr(lan, "WRONG_DELAY_MAX", 0.4)
    monkeypatch.setattr(lan, "WRONG_LIMIT", 3)
    app = create_app(workers=1, data_dir=str(tmp_path), pairing=pairing())
    c = TestClient(app, follow_redirects=False)
    waits = []
    for i in range(3):
        t = time.monotonic()
        r = c.get(f"/?token=wrong-token-{i}")
        waits.append(time.monotonic() - t)
        assert r.status_code == 403 and r.text.count("\n") == 1
    assert waits[0] >= 0.2 and waits[1] >= 0.4 and waits[2] >= 0.4, waits
    t = time.monotonic()
    r = c.get(f"/?token={TOKEN}")  # capped: even the right one waits out the window
    assert r.status_code == 429 and time.monotonic() - t < 0.2
    # another client is not held by this one's tries
    other = TestClient(app, follow_redirects=False, client=("192.0.2.99", 1))
    assert other.get(f"/?token={TOKEN}").status_code == 303


def test_tokens_and_cookies_are_compared_in_constant_time(monkeypatch):
    seen = []
    real = lan.hmac.compare_digest
    monkeypatch.setattr(lan.hmac, "compare_digest", lambda a, b: seen.append(1) or real(a, b))
    p = pairing()
    assert p.token_is(TOKEN) and not p.token_is("x" * len(TOKEN))
    assert p.cookie_is(p.cookie_value) and not p.cookie_is("0" * 64)
    assert len(seen) == 4


def test_this_machines_own_requests_need_no_token(guarded_app):
    app, _ = guarded_app
    here = local_client(app)
    assert here.get("/").status_code == 200
    assert here.get("/api/status").json()["workers"] == 1
    # 127.0.0.2 is loopback, but not the address this machine's browser uses: a token
    scope = {"server": ("127.0.0.2", 8000), "client": ("127.0.0.1", 5)}
    assert not lan.is_local(scope)
    assert lan.is_local({"server": ("127.0.0.1", 8000), "client": ("127.0.0.1", 5)})
    assert lan.is_local({"server": ("::1", 8000), "client": ("::1", 5)})
    assert not lan.is_local({"server": ("127.0.0.1", 8000), "client": ("192.0.2.4", 5)})
    assert not lan.is_local({"server": ("192.0.2.1", 8000), "client": ("127.0.0.1", 5)})


def test_the_host_check_takes_the_machines_addresses_and_names_only(tmp_path):
    hosts = lan.allowed_hosts(["192.0.2.7"])
    assert {"127.0.0.1", "localhost", "[::1]", "192.0.2.7"} <= set(hosts)
    assert set(lan.machine_names()) <= set(hosts)
    app = create_app(workers=1, data_dir=str(tmp_path), pairing=pairing(),
                     allowed_hosts=hosts + ["testserver"])
    c = TestClient(app, follow_redirects=False)
    assert c.get("/", headers={"host": "evil.example"}).status_code == 400
    assert c.get(f"/?token={TOKEN}", headers={"host": "192.0.2.7:8000"}).status_code == 303


def test_the_pair_page_shows_the_address_and_its_qr_code_to_this_machine_only(guarded_app):
    pytest.importorskip("segno", reason="the QR code needs segno (the lan extra)")
    app, remote = guarded_app
    page = local_client(app).get("/pair").text
    url = pairing().url()
    assert url.replace("&", "&amp;") in page and "<svg" in page
    r = remote.get(f"/pair?token={TOKEN}")
    value = r.headers["set-cookie"].split(";")[0].split("=", 1)[1]
    paired = TestClient(app, cookies={lan.COOKIE: value}).get("/pair").text
    assert TOKEN not in paired and "This device is paired" in paired


def test_a_board_on_this_machine_only_has_no_token_and_pair_says_how(tmp_path):
    with client(tmp_path, workers=1) as c:
        assert c.get("/api/status").status_code == 200
        assert "durak serve --lan" in c.get("/pair").text


def _serve(*args: str, env: dict | None = None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "solver.cli", "serve", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **(env or {})})


def _first_lines(proc: subprocess.Popen, n: int) -> list[str]:
    lines = []
    deadline = time.monotonic() + 60
    while len(lines) < n and time.monotonic() < deadline:
        line = proc.stderr.readline()
        if not line:
            break
        lines.append(line.rstrip("\n"))
    return lines


def test_serve_lan_prints_the_paired_address_and_a_qr_code(tmp_path):
    pytest.importorskip("segno", reason="the QR code needs segno (the lan extra)")
    port = free_port()
    proc = _serve("--lan", "--host", "127.0.0.2", "--port", str(port), "--workers", "1",
                  "--data-dir", str(tmp_path), env={lan.TOKEN_ENV: ""})
    try:
        lines = _first_lines(proc, 4)
        assert lines[0].startswith(f"durak: serving the board on http://127.0.0.1:{port}/ and "
                                   f"on the network at http://127.0.0.2:{port}/"), lines
        m = re.search(rf"open (http://127\.0\.0\.2:{port}/\?token=([\w-]+))", lines[1])
        assert m and len(m[2]) >= 20, lines[1]
        assert "\u2588" in lines[2] or "\u2580" in lines[2]  # the QR code's blocks
    finally:
        proc.terminate()
        proc.communicate(timeout=30)
    # a token fixed by the environment; a bad one is one line, exit 2
    proc = _serve("--lan", "--host", "127.0.0.2", "--port", "0", "--workers", "1",
                  "--data-dir", str(tmp_path), env={lan.TOKEN_ENV: "my-table-token"})
    try:
        assert "?token=my-table-token " in _first_lines(proc, 2)[1]
    finally:
        proc.terminate()
        proc.communicate(timeout=30)
    bad = _serve("--lan", "--host", "127.0.0.2", "--token", "short", "--data-dir", str(tmp_path))
    out, err = bad.communicate(timeout=60)
    assert bad.returncode == 2 and err.count("\n") == 1 and "--token: 5 character(s)" in err


def test_without_segno_the_command_says_what_to_install(monkeypatch, capsys):
    from solver.cli import serve
    monkeypatch.setitem(sys.modules, "segno", None)
    serve._say_pairing(lan.Pairing(TOKEN, ["http://192.0.2.7:8000/"]))
    err = capsys.readouterr().err
    assert "the QR code needs segno: pip install 'durak-solver[lan]'" in err


def test_serve_lan_open_opens_the_paired_address(tmp_path):
    # a stand-in browser ($BROWSER) that keeps cookies, as a browser does, and loads the page
    seen = tmp_path / "opened.txt"
    browser = tmp_path / "browser.py"
    browser.write_text(
        "import sys, urllib.request, http.cookiejar\n"
        "opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor("
        "http.cookiejar.CookieJar()))\n"
        "with opener.open(sys.argv[1], timeout=10) as r:\n"
        "    page, where = r.read().decode(), r.url\n"
        f"open({str(seen)!r}, 'w').write(sys.argv[1] + '\\n' + where + '\\n' "
        "+ str('Durak board' in page))\n")
    port = free_port()
    proc = _serve("--lan", "--host", "127.0.0.2", "--port", str(port), "--data-dir",
                  str(tmp_path), "--workers", "1", "--open", "--token", TOKEN,
                  env={"BROWSER": f"{sys.executable} {browser} %s"})
    try:
        deadline = time.monotonic() + 60
        while not seen.exists() or not seen.read_text().endswith(("True", "False")):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the browser was not opened"
            time.sleep(0.1)
    finally:
        proc.terminate()
        proc.communicate(timeout=30)
    opened, landed, loaded = seen.read_text().splitlines()
    assert opened == f"http://127.0.0.2:{port}/?token={TOKEN}"
    assert landed == f"http://127.0.0.2:{port}/" and loaded == "True"
