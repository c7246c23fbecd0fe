"""`durak serve` started, flooded and stopped (issue 60, items 4, 5 and 6).

- Stopped by SIGTERM or Ctrl-C with three analyses in flight: each request is
  answered 503 with the reason, the server prints nothing but its goodbye
  line, exits 0 and leaves no process behind.
- Started on a damaged game store: one line naming the file and what to do,
  exit 4, before it claims to serve.
- A flood of connections that send half a request, against an open-file limit
  lowered in the server's process: it goes on answering, says so once, no
  traceback; a request whose headers do not come in time gets 408.

The machinery: :mod:`solver.web.server`, :meth:`solver.web.jobs.WorkerPool.stop`,
:class:`solver.web.store.GameStore`.
"""
from __future__ import annotations

import contextlib
import json
import os
import resource
import signal
import socket
import sqlite3
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

import pytest
from terminal import as_at_a_terminal
from web_support import HARD, SMALL

from test_web_server import _alive, _descendants

from solver.i18n import use_language
from solver.web.server import stopping_message

ROOT = Path(__file__).resolve().parent.parent
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}

linux_only = pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads the process tree")


def serve(data_dir: Path, *args: str, files: int | None = None) -> subprocess.Popen:
    """`durak serve --port 0` (the port it prints); ``files``: its open-file limit."""
    def child() -> None:
        as_at_a_terminal()
        if files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    return subprocess.Popen([sys.executable, "-m", "solver.cli", "serve", "--port", "0",
                             "--data-dir", str(data_dir), *args], cwd=ROOT, env=ENV, text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, preexec_fn=child)


def base_url(proc: subprocess.Popen) -> tuple[str, str]:
    """The served URL from the first line (it names the port the system chose)."""
    assert proc.stderr is not None
    first = proc.stderr.readline()
    assert first.startswith("durak: serving the board on http://127.0.0.1:"), first
    url = first.split(" on ", 1)[1].split(" ", 1)[0].rstrip("/")
    deadline = time.monotonic() + 60
    while True:
        try:
            get(url + "/api/status")
            return url, first
        except OSError:
            assert proc.poll() is None and time.monotonic() < deadline, proc.communicate()
            time.sleep(0.1)


def get(url: str, timeout: float = 10) -> dict:
    with urllib.request.urlopen(url, timeout=timeout) as r:
        return json.loads(r.read())


def post(url: str, body: dict, lang: str = "en") -> tuple[int, dict]:
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json",
                                          "Accept-Language": lang})
    try:
        with urllib.request.urlopen(req, timeout=60) as r:
            return r.status, json.loads(r.read())
    except urllib.error.HTTPError as e:
        return e.code, json.loads(e.read())


# ------------------------------------------------------------ 4. stopped with work in flight

@linux_only
@pytest.mark.parametrize("sig, name, code", [(signal.SIGTERM, "SIGTERM", 143),
                                             (signal.SIGINT, "Ctrl-C", 130)])
def test_stopping_answers_the_requests_in_flight_503_and_leaves_nothing(tmp_path, sig, name,
                                                                         code):
    proc = serve(tmp_path, "--workers", "2")
    try:
        base, first = base_url(proc)
        answers: list[tuple[str, int, dict]] = []  # each in its browser's language
        clients = [threading.Thread(target=lambda lang=lang: answers.append((lang, *post(
            base + "/api/analyse", {"position": HARD, "max_time": 60}, lang))))
            for lang in ("en", "lt", "ru")]
        for c in clients:
            c.start()
        deadline = time.monotonic() + 30
        while True:  # two analysing, one waiting for a worker
            st = get(base + "/api/status")
            if st["running"] == 2 and st["queued"] == 1:
                break
            assert time.monotonic() < deadline, st
            time.sleep(0.05)
        processes = _descendants(proc.pid)
        assert len(processes) >= 3  # the forkserver and the two workers
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    for c in clients:
        c.join(30)
    assert proc.returncode == 0, err
    assert err.splitlines() == [f"durak: stopped serving the board ({name}; 3 job(s) in "
                                "flight stopped, their requests answered 503)"], err
    assert len(answers) == 3
    for lang, status, answer in answers:
        assert status == 503, answer
        with use_language(lang):
            assert answer == {"error": str(stopping_message(name)), "exit_code": code}
        if lang == "en":
            assert answer["error"] == f"the server is stopping ({name}); try again once it is back"
    deadline = time.monotonic() + 5
    while any(_alive(p) for p in processes):
        assert time.monotonic() < deadline, [p for p in processes if _alive(p)]
        time.sleep(0.1)


# ------------------------------------------------------------ 5. a damaged store

def _foreign_db(path: Path) -> None:
    db = sqlite3.connect(path)
    db.execute("CREATE TABLE games (name TEXT, score INTEGER)")
    db.commit()
    db.close()


@pytest.mark.parametrize("damage, why", [
    (lambda p: p.write_bytes(b"these are not the games you are looking for\n" * 100),
     "not a game store that can be read (file is not a database): damaged, or another "
     "program's file"),
    (lambda p: p.write_bytes(os.urandom(4096)), "not a game store that can be read"),
    (_foreign_db, "another program's database (its games table has other columns"),
])
def test_a_damaged_store_is_refused_before_serving(tmp_path, damage, why):
    store = tmp_path / "games.sqlite3"
    damage(store)
    before = store.read_bytes()
    proc = serve(tmp_path)
    out, err = proc.communicate(timeout=60)
    assert proc.returncode == 4, err
    lines = err.splitlines()
    assert len(lines) == 1 and "serving" not in err and "Traceback" not in err, err
    assert lines[0].startswith(f"durak: error: file {str(store)!r}: {why}"), lines[0]
    assert lines[0].endswith("move it aside (the board then starts with no kept games) or "
                             "give another --data-dir")
    assert store.read_bytes() == before  # left as it was


# ------------------------------------------------------------ 6. half-open connections

@linux_only
def test_a_flood_of_half_requests_does_not_stop_the_server(tmp_path):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    try:
        _flood(tmp_path, soft, hard)
    finally:
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))


def _flood(tmp_path: Path, soft: int, hard: int) -> None:
    files = 512  # the open-file limit of the server's process
    room = 300  # this test's own files beyond its end of the flood's connections
    if hard != resource.RLIM_INFINITY and hard < files + room:
        try:  # root may raise the hard limit
            resource.setrlimit(resource.RLIMIT_NOFILE, (files + room, files + room))
            hard = files + room
        except (ValueError, OSError):  # a smaller flood: still more than the server's files
            files = hard - room
            if files < 128:
                pytest.skip(f"the flood needs {128 + room} open files here; the hard limit "
                            f"is {hard} and only root may raise it")
    if soft != resource.RLIM_INFINITY and soft < files + room:
        resource.setrlimit(resource.RLIMIT_NOFILE, (files + room, hard))
    proc = serve(tmp_path, "--workers", "1", files=files)
    flood: list[socket.socket] = []
    try:
        base, _ = base_url(proc)
        port = int(base.rsplit(":", 1)[1])
        for _ in range(files + 200):  # more connections than the server has files
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.sendall(b"GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # half a request
            flood.append(s)
        for _ in range(5):  # the board still answers, during the flood
            assert get(base + "/api/status", timeout=5)["workers"] == 1
        assert post(base + "/api/solve", {"position": SMALL})[1]["value"] == "win"
        for s in flood:
            s.close()
        flood.clear()
        assert get(base + "/api/status")["workers"] == 1
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    finally:
        for s in flood:
            s.close()
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0
    assert "Traceback" not in err and "Too many open files" not in err, err[:2000]
    lines = err.splitlines()
    said = [ln for ln in lines if "connections at once" in ln]
    assert len(said) == 1, err  # the refusal said once, not per connection
    assert lines[-1] == "durak: stopped serving the board (Ctrl-C)"
    assert len(lines) == 2, err


def test_headers_that_do_not_come_in_time_get_408(tmp_path):
    from solver.web import server
    from solver.web.app import create_app
    bounds = server.Bounds(max_connections=50, header_seconds=0.5, body_seconds=0.5)
    srv = server.make_server(create_app(workers=1, data_dir=str(tmp_path)), bounds)
    sock = server.bind("127.0.0.1", 0)
    port = sock.getsockname()[1]
    thread = threading.Thread(target=srv.run, kwargs={"sockets": [sock]}, daemon=True)
    thread.start()
    try:
        deadline = time.monotonic() + 30
        while not srv.started:
            assert time.monotonic() < deadline
            time.sleep(0.02)
        with socket.create_connection(("127.0.0.1", port), timeout=10) as slow:
            slow.sendall(b"GET /api/status HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # and no more
            answer = b""
            while chunk := slow.recv(4096):  # the server closes it
                answer += chunk
        assert answer.startswith(b"HTTP/1.1 408 Request Timeout"), answer
        with socket.create_connection(("127.0.0.1", port), timeout=10) as slow:
            body = json.dumps({"position": SMALL}).encode()
            slow.sendall(b"POST /api/solve HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: "
                         b"application/json\r\nContent-Length: " + str(len(body)).encode()
                         + b"\r\n\r\n" + body[:5])  # a body that stops coming
            assert slow.recv(4096) == b""  # closed
        assert get(f"http://127.0.0.1:{port}/api/status")["workers"] == 1
    finally:
        srv.should_exit = True
        thread.join(15)
        sock.close()


# ------------------------------------------------------------ issue 73: stopped mid-request

def _half_posted(base: str, path: str = "/api/solve", language: str = "") -> socket.socket:
    """A POST whose headers are in and whose body has only begun to arrive (``language``:
    a header line that asks for one)."""
    port = int(base.rsplit(":", 1)[1])
    s = socket.create_connection(("127.0.0.1", port), timeout=10)
    s.sendall(f"POST {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n"
              f"{language}Content-Length: 100\r\n\r\n".encode() + b'{"posi')
    return s


def _answer(s: socket.socket) -> bytes:
    """Everything the server sends until it closes the connection."""
    s.settimeout(10)
    data = b""
    with contextlib.suppress(ConnectionResetError):
        while chunk := s.recv(65536):
            data += chunk
    return data


@linux_only
@pytest.mark.parametrize("sig, name, code, twice, lang", [
    (signal.SIGTERM, "SIGTERM", 143, False, "en"), (signal.SIGINT, "Ctrl-C", 130, False, "ru"),
    (signal.SIGTERM, "SIGTERM", 143, True, "lt")])
def test_a_request_whose_body_is_still_coming_is_answered_503_at_the_stop(tmp_path, sig, name,
                                                                          code, twice, lang):
    """Stopped while a POST's body is arriving: uvicorn would wait out its grace period,
    then cancel the request (a 50-line traceback, a 500).  It is answered 503 with the
    reason at once, and the server's only line is its goodbye -- a second signal
    50 ms after the first too."""
    proc = serve(tmp_path, "--workers", "1")
    try:
        base, _ = base_url(proc)
        # in the request's language: the browser's, or the switcher's cookie
        slow = _half_posted(base, language={"en": "", "ru": "Accept-Language: ru\r\n",
                                            "lt": "Cookie: durak_lang=lt\r\n"}[lang])
        time.sleep(0.3)  # the request is in the app, reading its body
        assert get(base + "/api/status")["running"] == 0
        t = time.monotonic()
        proc.send_signal(sig)
        if twice:
            time.sleep(0.05)
            proc.send_signal(sig)
        out, err = proc.communicate(timeout=30)
        took = time.monotonic() - t
    finally:
        if proc.poll() is None:
            proc.kill()
    answer = _answer(slow)
    slow.close()
    assert proc.returncode == 0, err
    assert err.splitlines() == [f"durak: stopped serving the board ({name})"], err
    head, _, body = answer.partition(b"\r\n\r\n")
    assert head.startswith(b"HTTP/1.1 503 "), answer
    with use_language(lang):
        assert json.loads(body) == {"error": str(stopping_message(name)), "exit_code": code}
    if lang != "en":
        assert "stopping" not in json.loads(body)["error"]
    assert took < 1.8, f"the stop took {took:.2f} s"  # uvicorn waited out its 2 s grace period


def _job_running(base: str) -> None:
    """An analysis in flight (its worker searching) on a server of one worker."""
    status, job = post(base + "/api/jobs", {"task": "analyse", "position": HARD, "max_time": 60})
    assert status == 202, job
    deadline = time.monotonic() + 30
    while get(base + "/api/status")["running"] != 1:
        assert time.monotonic() < deadline
        time.sleep(0.05)


@linux_only
@pytest.mark.parametrize("sig, name, delay_ms", [
    *[(signal.SIGTERM, "SIGTERM", ms) for ms in (10, 50, 100, 150, 200, 400)],
    *[(signal.SIGINT, "Ctrl-C", ms) for ms in (10, 100, 200)]])
def test_a_second_signal_during_the_stop_is_harmless(tmp_path, sig, name, delay_ms):
    """A second SIGTERM (Ctrl-C) while the server stops: it once printed a 10-line
    traceback (the app's shutdown skipped, its lifespan task cancelled) or, a little later,
    ended the process by the signal (exit 143).  Now: the goodbye line alone, exit 0, and
    no process left -- the job processes and their forkserver included."""
    proc = serve(tmp_path, "--workers", "1")
    try:
        base, _ = base_url(proc)
        _job_running(base)
        processes = _descendants(proc.pid)
        assert len(processes) >= 2  # the forkserver and the job process at least
        proc.send_signal(sig)
        time.sleep(delay_ms / 1000)
        proc.send_signal(sig)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 0, err
    assert "Traceback" not in err and "ERROR" not in err, err
    assert err.splitlines() == [f"durak: stopped serving the board ({name}; 1 job(s) in "
                                "flight stopped, their requests answered 503)"], err
    deadline = time.monotonic() + 5
    while any(_alive(p) for p in processes):
        assert time.monotonic() < deadline, [p for p in processes if _alive(p)]
        time.sleep(0.1)
