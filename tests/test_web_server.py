"""`durak serve` as a real server: the command, its socket, a client that goes away."""
from __future__ import annotations

import contextlib
import json
import os
import signal
import socket
import subprocess
import sys
import threading
import time
import urllib.parse
import urllib.request
from pathlib import Path
from typing import Iterator

import pytest
from web_support import HARD, SMALL, client, free_port, live_server
from terminal import as_at_a_terminal

ROOT = Path(__file__).resolve().parent.parent


def get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=10) as r:
        return json.loads(r.read())


def post(url: str, body: dict) -> tuple[int, dict]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    try:
        with urllib.request.urlopen(req, timeout=30) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


def test_a_client_that_goes_away_cancels_its_search(tmp_path):
    with live_server(tmp_path) as base:
        port = int(base.rsplit(":", 1)[1])
        body = json.dumps({"position": HARD, "max_time": 40}).encode()
        s = socket.create_connection(("127.0.0.1", port))
        s.sendall(b"POST /api/analyse HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                  b"Content-Type: application/json\r\nContent-Length: "
                  + str(len(body)).encode() + b"\r\n\r\n" + body)
        deadline = time.monotonic() + 5
        while get(base + "/api/status")["running"] != 1:
            assert time.monotonic() < deadline
            time.sleep(0.05)
        s.close()  # the client goes away
        t = time.monotonic()
        while get(base + "/api/status")["running"] != 0:
            assert time.monotonic() - t < 3, "the search went on without its client"
            time.sleep(0.05)
        assert post(base + "/api/solve", {"position": SMALL})[0] == 200


def test_a_foreign_host_name_is_refused(tmp_path):
    with live_server(tmp_path, allowed_hosts=["127.0.0.1", "localhost"]) as base:
        req = urllib.request.Request(base + "/api/status", headers={"Host": "evil.example"})
        try:
            urllib.request.urlopen(req, timeout=10)
            status = 200
        except urllib.error.HTTPError as e:
            status = e.code
        assert status == 400
        assert get(base + "/api/status")["workers"] == 2


def _serve(*args: str, env: dict | None = None) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-m", "solver.cli", "serve", *args], cwd=ROOT,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            env={**os.environ, **(env or {})}, preexec_fn=as_at_a_terminal)


def test_durak_serve_serves_the_board_and_stops_on_ctrl_c(tmp_path):
    port = free_port()
    proc = _serve("--port", str(port), "--data-dir", str(tmp_path), "--workers", "1")
    try:
        deadline = time.monotonic() + 30
        while True:
            try:
                with urllib.request.urlopen(f"http://127.0.0.1:{port}/", timeout=2) as r:
                    page = r.read().decode()
                break
            except OSError:
                assert proc.poll() is None, proc.communicate()
                assert time.monotonic() < deadline
                time.sleep(0.1)
        assert "Durak board" in page
        assert get(f"http://127.0.0.1:{port}/api/status")["workers"] == 1
        assert post(f"http://127.0.0.1:{port}/api/solve", {"position": SMALL})[1]["value"] == "win"
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=20)
    assert proc.returncode == 0, err
    assert f"http://127.0.0.1:{port}/" in err


def test_serve_open_opens_the_board_on_its_position_once_it_answers(tmp_path):
    # webbrowser honours $BROWSER: a stand-in browser that loads the page it is given
    seen = tmp_path / "opened.txt"
    browser = tmp_path / "browser.py"
    browser.write_text(
        "import sys, urllib.request\n"
        "with urllib.request.urlopen(sys.argv[1], timeout=10) as r:\n"
        "    page = r.read().decode()\n"
        f"open({str(seen)!r}, 'w').write(sys.argv[1] + '\\n' + str('Durak board' in page))\n")
    port = free_port()
    proc = _serve("--port", str(port), "--data-dir", str(tmp_path), "--workers", "1", "--open",
                  "--position", SMALL, env={"BROWSER": f"{sys.executable} {browser} %s"})
    try:
        deadline = time.monotonic() + 30
        while not seen.exists() or not seen.read_text().endswith(("True", "False")):
            assert proc.poll() is None, proc.communicate()
            assert time.monotonic() < deadline, "the browser was not opened"
            time.sleep(0.1)
    finally:
        proc.send_signal(signal.SIGINT)
        proc.communicate(timeout=20)
    url, loaded = seen.read_text().splitlines()
    assert url == f"http://127.0.0.1:{port}/?position={urllib.parse.quote(SMALL)}"
    assert loaded == "True"  # the server answered when the browser asked


def test_durak_serve_on_a_port_in_use_says_so_in_one_line(tmp_path):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        proc = _serve("--port", str(port), "--data-dir", str(tmp_path))
        out, err = proc.communicate(timeout=30)
    assert proc.returncode == 2
    assert err.strip() == f"durak: error: 127.0.0.1:{port} is in use (give another with --port)"


def _descendants(pid: int) -> set[int]:
    """Every process below ``pid`` now (from /proc)."""
    kids: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                with open(f"/proc/{entry}/stat") as fh:
                    ppid = int(fh.read().rsplit(")", 1)[1].split()[1])
            except OSError:
                continue
            kids.setdefault(ppid, []).append(int(entry))
    out, todo = set(), [pid]
    while todo:
        for k in kids.get(todo.pop(), []):
            out.add(k)
            todo.append(k)
    return out


def _alive(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def test_a_server_killed_outright_leaves_no_process_behind(tmp_path):
    """SIGKILL to `durak serve` in the middle of a search: its job processes and their
    forkserver end too (the forkserver dies with the server, each job process with
    the forkserver)."""
    if not os.path.isdir("/proc"):
        pytest.skip("needs /proc to find the processes")
    port = free_port()
    proc = _serve("--port", str(port), "--data-dir", str(tmp_path), "--workers", "2")
    deadline = time.monotonic() + 30
    while True:
        try:
            get(f"http://127.0.0.1:{port}/api/status")
            break
        except OSError:
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.1)
    status, job = post(f"http://127.0.0.1:{port}/api/jobs",
                       {"task": "analyse", "position": HARD, "max_time": 30})
    assert status == 202
    while get(f"http://127.0.0.1:{port}/api/status")["running"] != 1:
        time.sleep(0.05)
    started = _descendants(proc.pid)
    assert len(started) >= 2  # the forkserver and its job processes
    proc.kill()
    proc.communicate(timeout=10)
    deadline = time.monotonic() + 5
    while any(_alive(p) for p in started):
        assert time.monotonic() < deadline, [p for p in started if _alive(p)]
        time.sleep(0.1)


# ------------------------------------------------------------ issue 73: the caps kept

@contextlib.contextmanager
def durak_server(tmp_path: Path) -> Iterator[int]:
    """`durak serve`'s own server (its connection bounds) in a thread; yields its port."""
    from solver.web import server
    from solver.web.app import create_app
    srv = server.make_server(create_app(workers=1, data_dir=str(tmp_path)),
                             server.Bounds(max_connections=50))
    sock = server.bind("127.0.0.1", 0)
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not srv.started:
            assert time.monotonic() < deadline and thread.is_alive()
            time.sleep(0.02)
        yield sock.getsockname()[1]
    finally:
        srv.should_exit = True
        thread.join(15)
        sock.close()


def _exchange(port: int, request: bytes) -> bytes:
    """Send ``request`` whole, then read until the server closes or 2 s of silence."""
    with socket.create_connection(("127.0.0.1", port), timeout=10) as s:
        s.sendall(request)
        s.settimeout(2)
        data = b""
        with contextlib.suppress(socket.timeout, ConnectionResetError):
            while chunk := s.recv(65536):
                data += chunk
    return data


@pytest.mark.parametrize("kib", [17, 21, 60, 200])
def test_headers_over_16_kb_are_refused_with_431(tmp_path, kib):
    """docs/web.md: a request's headers are at most 16 KB.  h11 counts only headers still
    incomplete, so a larger block that arrives in one read used to be served."""
    cookie = b"Cookie: c=" + b"x" * (kib * 1024) + b"\r\n"
    with durak_server(tmp_path) as port:
        answer = _exchange(port, b"GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\n" + cookie
                           + b"\r\n")
        head, _, body = answer.partition(b"\r\n\r\n")
        assert head.startswith(b"HTTP/1.1 431 "), answer[:300]
        assert b"connection: close" in head.lower()
        assert body == b"the request's headers are over 16 KB", body[:300]
        # a request just under the cap is served, and the server goes on
        fits = b"Cookie: c=" + b"x" * (15 * 1024) + b"\r\n"
        answer = _exchange(port, b"GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\n"
                                 b"Connection: close\r\n" + fits + b"\r\n")
        assert answer.startswith(b"HTTP/1.1 200 "), answer[:300]


def test_headers_over_16_kb_after_a_kept_alive_request_are_refused(tmp_path):
    """The cap holds for every request of a kept-alive connection, the next one's head
    arriving with the previous request (pipelined) or after it."""
    small = b"GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n"
    big = (b"GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: c="
           + b"x" * (40 * 1024) + b"\r\n\r\n")
    with durak_server(tmp_path) as port:
        answer = _exchange(port, small + big)
        assert answer.startswith(b"HTTP/1.1 200 "), answer[:300]
        assert answer.count(b"HTTP/1.1 ") == 2 and b"HTTP/1.1 431 " in answer, answer[-400:]


@pytest.mark.parametrize("path", ["/api/i18n/", "/rules/"])
def test_an_unknown_language_is_not_echoed_whole(tmp_path, path):
    """A 50 KB name in the path: the 404 quotes it cut, as every other refusal does
    (:func:`solver.errors.shorten`)."""
    name = "q" * 50_000
    with client(tmp_path, workers=1) as c:
        r = c.get(path + name)
    assert r.status_code == 404
    error = r.json()["error"]
    assert len(error) < 300, len(error)
    assert "q" * 61 not in error and ",0" in error and " characters]..." in error, error
