"""The web board soaked (issue 73): `durak serve` for minutes under a steady mix of players.

Starts `durak serve` as a user would (a fresh process on a port of 127.0.0.1 the
system chooses, its own data directory) and lets ``--clients`` players (threads,
each on its own kept-alive connection, as a browser tab) use it for
``--minutes`` the way the pages' scripts do (solver/web/static/*.js):

- **board**: a position drawn (``/api/board``), moves clicked along it
  (``/api/line``), the legal moves asked (``/api/moves``: the latency measured);
- **analysis**: an analysis job followed every 250 ms, its variation stepped; a long
  one cancelled, or left to the server (nobody polls it: cancelled after 15 s); now
  and then ``/api/analyse`` asked directly and the connection dropped;
- **hint**: a hint job on a position with hidden cards;
- **game**: a deal against the engine played to its end by clicks (a hint or an
  undo on the way), its record fetched and read (``/api/record``), reviewed;
- **review**: a stored game of benchmarks/games reviewed (the second time of a
  record, the server's kept answer);
- **puzzle**: a puzzle played by clicks, wrong moves too, its solution shown at times;
- **pages**: the pages, their scripts, a language's catalogue, the status.

Every request goes to 127.0.0.1; every loop is bounded in count and time. While it
runs, the server's and its processes' resident memory (``VmRSS``) and the
server's open descriptors are read from /proc every few seconds.  At the end the
players stop, the server gets SIGTERM, and every process it had (the forkserver,
the job processes, the resource tracker) must be gone.

    python benchmarks/soak_web.py                          # 10 minutes, 20 players
    python benchmarks/soak_web.py --minutes 1 --clients 8 --json

Reports the requests answered, the errors (none expected; the 503s of a full
queue are counted apart), ``moves``' p50 and p99, the memory after the warm-up and
at the end (the growth should stay within 10 %), the descriptors at rest before
and after, and what the SIGTERM left.  Exit status 1 when a check fails.
"""
from __future__ import annotations

import argparse
import http.client
import json
import os
import random
import shutil
import signal
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.parse
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "benchmarks" / "games"
#: Positions every card of which is known: drawn, clicked along and analysed.
POSITIONS = [
    "trump H; hands 6S 7S KH | 8C 9C AH; attacker 1",
    "trump H; hands 7S KH 6D | 9C AH 8D; table 6S/8S 8C; attacker 1",
    "trump S; hands 6H 9H JC QD AS | 7H TH 8C KD 9S; attacker 1",
    "trump D; hands 7C 8C QH KD AS | 9C TH JH 6D 7D; attacker 2; rules transfer",
    "trump H; hands JS QS TH JH JC | QH KH KD 9C QC | 7S 8H 9H JD 8C; attacker 1",
]
#: A position with hidden cards: the hint's.
HIDDEN = ("trump 9H; pile 7; hands 6S 6D QC KS TD AH | ?6; attacker 1; out 7S 8S 9S TS JS 6H "
          "7H 8H TH 7D 8D 9D 6C 7C 8C 9C TC; me 1")
PAGES = ["/", "/follow", "/review", "/puzzles", "/rules", "/static/common.js",
         "/static/board.js", "/static/style.css", "/api/i18n/lt", "/api/i18n/ru",
         "/api/status", "/api/games", "/api/openapi.json"]
#: The most requests one player sends, and the longest one job is followed (seconds).
MAX_REQUESTS = 200_000
JOB_SECONDS = 120.0
#: The stored games reviewed (the same record twice: the server's kept answer).
REVIEWED = 8
#: A kept-alive connection idle this long is not reused (the server closes it at 5 s).
IDLE_SECONDS = 4.0
#: Seconds between two looks at the server's processes.
SAMPLE_SECONDS = 5.0


# ---------------------------------------------------------------- what is counted

@dataclass
class Tally:
    """What every player saw, counted under one lock."""

    lock: threading.Lock = field(default_factory=threading.Lock)
    answered: int = 0
    errors: list[str] = field(default_factory=list)
    moves_ms: list[float] = field(default_factory=list)
    by_kind: dict[str, int] = field(default_factory=dict)
    done: dict[str, int] = field(default_factory=dict)  # scenarios, games, jobs, "busy"

    def request(self, kind: str, status: int, ms: float) -> None:
        with self.lock:
            self.answered += 1
            self.by_kind[kind] = self.by_kind.get(kind, 0) + 1
            if kind == "moves" and status == 200:
                self.moves_ms.append(ms)

    def error(self, what: str) -> None:
        with self.lock:
            self.errors.append(what[:300])

    def count(self, what: str, n: int = 1) -> None:
        with self.lock:
            self.done[what] = self.done.get(what, 0) + n


class Busy(Exception):
    """The server's queue is full (503): counted apart, the player goes on."""


class Failed(Exception):
    """An answer no player should get: counted as an error."""


class Player:
    """One browser tab: a kept-alive connection and the page's habits."""

    def __init__(self, port: int, tally: Tally, rng: random.Random, deadline: float):
        self.port = port
        self.tally = tally
        self.rng = rng
        self.deadline = deadline
        self.sent = 0
        self.conn: http.client.HTTPConnection | None = None
        self.last = 0.0

    # ------------------------------------------------------------ HTTP
    def call(self, method: str, path: str, body: Any = None, kind: str = "",
             ok: tuple[int, ...] = (200, 201, 202)) -> Any:
        """One request; its JSON answer (or text).  An unexpected status is
        :class:`Failed`, a full queue :class:`Busy`."""
        if self.sent >= MAX_REQUESTS:
            raise TimeoutError("request cap")
        self.sent += 1
        if self.conn is None or time.monotonic() - self.last > IDLE_SECONDS:
            self.close()
            self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=60)
        headers = {"Accept-Language": self.rng.choice(["en", "lt", "ru", "en-GB,en"])}
        data = None
        if body is not None:
            data = json.dumps(body).encode()
            headers["Content-Type"] = "application/json"
        t = time.perf_counter()
        try:
            self.conn.request(method, path, data, headers)
            r = self.conn.getresponse()
            raw = r.read()
        except (OSError, http.client.HTTPException) as e:
            self.close()
            raise Failed(f"{method} {path.split('?')[0]}: {type(e).__name__}: {e}") from None
        ms = (time.perf_counter() - t) * 1000
        self.last = time.monotonic()
        if r.getheader("connection", "").lower() == "close":
            self.close()
        self.tally.request(kind or path.split("?")[0].split("/")[2 if path.startswith("/api/")
                                                               else 1], r.status, ms)
        text = raw.decode("utf-8", "replace")
        try:
            answer = json.loads(text) if r.getheader("content-type", "").startswith(
                "application/json") else text
        except ValueError:
            answer = text
        if r.status == 503 and isinstance(answer, dict) and "busy" in str(answer.get("error")):
            raise Busy()
        if r.status not in ok:
            raise Failed(f"{method} {path.split('?')[0]}: {r.status} {text[:200]}")
        return answer

    def close(self) -> None:
        if self.conn is not None:
            self.conn.close()
        self.conn = None

    def think(self, lo: float = 0.3, hi: float = 1.2) -> None:
        """A person between two clicks."""
        time.sleep(min(self.rng.uniform(lo, hi), max(0.0, self.deadline - time.monotonic())))

    def over(self) -> bool:
        return time.monotonic() >= self.deadline

    # ------------------------------------------------------------ jobs
    def follow(self, job: dict[str, Any], cancel_after: float | None = None,
               abandon_after: float | None = None) -> dict[str, Any] | None:
        """Poll a job as the page does (every 250 ms) until it ends; cancel it (the
        page's Cancel) after ``cancel_after`` s -- or at the end of the run, or after
        :data:`JOB_SECONDS` (an error) -- or stop polling after ``abandon_after`` s (the
        page closed: the server cancels it).  The last state; None when abandoned."""
        start, cancelled = time.monotonic(), False
        while job["state"] not in ("done", "error", "cancelled"):
            waited = time.monotonic() - start
            if abandon_after is not None and waited > abandon_after:
                self.tally.count("jobs left to the server")
                return None
            if not cancelled and (self.over() or waited > JOB_SECONDS or (
                    cancel_after is not None and waited > cancel_after)):
                if waited > JOB_SECONDS:
                    self.tally.error(f"job {job['task']} {job['state']} after {waited:.0f} s")
                job = self.call("DELETE", f"/api/jobs/{job['id']}", kind="cancel")
                self.tally.count("jobs cancelled")
                cancelled = True
                continue
            time.sleep(0.25)
            job = self.call("GET", f"/api/jobs/{job['id']}", kind="job poll")
        if job["state"] == "error":
            raise Failed(f"job {job['task']}: {job.get('error')}")
        if job["state"] == "done":
            self.tally.count(f"{job['task']} answered")
        return job


# ---------------------------------------------------------------- what players do

def board(p: Player) -> None:
    """A position drawn and moves clicked along it, the legal moves asked each time."""
    start = p.rng.choice(POSITIONS)
    view = p.call("POST", "/api/board", {"position": start})
    line: list[str] = []
    moves = [m["move"] for m in view["board"]["moves"]]
    for _ in range(p.rng.randint(2, 12)):
        if not moves or p.over():
            break
        p.think(0.05, 0.4)
        line.append(p.rng.choice(moves))
        boards = p.call("POST", "/api/line", {"position": start, "moves": line})["boards"]
        now = boards[-1]
        if now["outcome"] is None:
            moves = p.call("POST", "/api/moves", {"position": now["position"]})["moves"]
        else:
            moves = []
        if p.rng.random() < 0.2:
            p.call("GET", "/api/show?position=" + urllib.parse.quote(now["position"]))
    p.tally.count("boards clicked")


def analysis(p: Player) -> None:
    """An analysis followed (or cancelled, or left), its variation stepped; or asked
    directly with the connection dropped before the answer."""
    position = p.rng.choice(POSITIONS)
    if p.rng.random() < 0.05:  # the client goes away: its search is cancelled
        port_conn = http.client.HTTPConnection("127.0.0.1", p.port, timeout=10)
        port_conn.request("POST", "/api/analyse", json.dumps({"position": POSITIONS[-1],
                                                              "max_time": 20}),
                          {"Content-Type": "application/json"})
        time.sleep(p.rng.uniform(0.2, 1.0))
        port_conn.close()
        p.tally.count("clients gone")
        return
    r = p.rng.random()
    if r < 0.5:  # a long one (the 3-player position), cancelled or left
        position = POSITIONS[-1]
    job = p.call("POST", "/api/jobs", {"task": "analyse", "position": position,
                                       "max_time": p.rng.choice([1, 2, 3])})
    job = p.follow(job, cancel_after=p.rng.uniform(0.3, 0.9) if r < 0.4 else None,
                   abandon_after=p.rng.uniform(0.3, 0.9) if 0.4 <= r < 0.5 else None)
    if job and job["state"] == "done" and job["answer"].get("pv"):
        p.call("POST", "/api/line", {"position": position, "moves": job["answer"]["pv"]})


def hint(p: Player) -> None:
    """A hint on a position with hidden cards (sometimes cancelled)."""
    job = p.call("POST", "/api/jobs", {"task": "hint", "position": HIDDEN,
                                       "samples": p.rng.choice([32, 64])})
    p.follow(job, cancel_after=1.0 if p.rng.random() < 0.2 else None)


def game(p: Player) -> None:
    """A deal against the engine played to its end by clicks, then read and reviewed."""
    body: dict[str, Any] = {"players": p.rng.choice([2, 2, 2, 3]),
                            "engine": "hint" if p.rng.random() < 0.05 else "greedy",
                            "seed": p.rng.randrange(1 << 30)}
    if p.rng.random() < 0.3:
        body["rules"] = ["transfer"]
    g = p.call("POST", "/api/games", body)
    for _ in range(400):
        if g.get("engine_error"):
            raise Failed(f"game {g['id']}: {g['engine_error']}")
        if g["over"] or p.over():
            break
        if g["thinking"] or g["board"]["to_move"] != g["me"]:
            time.sleep(0.3)  # the page polls while the engine thinks
            g = p.call("GET", f"/api/games/{g['id']}", kind="game")
            continue
        p.think()
        r = p.rng.random()
        if r < 0.04:
            job = p.call("POST", f"/api/games/{g['id']}/hint", {"samples": 32})
            p.follow(job)
        elif r < 0.07 and any(e.startswith(f"{g['me']}:") for e in g["snapshot"]["history"]):
            g = p.call("POST", f"/api/games/{g['id']}/undo", {}, kind="game")
            p.tally.count("undos")
            continue
        move = p.rng.choice(g["board"]["moves"])["move"]
        g = p.call("POST", f"/api/games/{g['id']}/play", {"move": move}, kind="game")
    if not g["over"]:
        return
    p.tally.count("games played to the end")
    record = p.call("GET", f"/api/games/{g['id']}/record", kind="record")
    p.call("POST", "/api/record", {"game": record})
    if p.rng.random() < 0.3:
        review(p, record, g["me"])


def review(p: Player, record: str | None = None, seat: int | None = None) -> None:
    """A record reviewed: one of the stored games unless given."""
    if record is None:
        path = p.rng.choice(sorted(GAMES.glob("*.txt"))[:REVIEWED])
        record = path.read_text()
        rec = p.call("POST", "/api/record", {"game": record})
        seat = rec["me"]
    job = p.call("POST", "/api/jobs", {"task": "review", "game": record, "seat": seat,
                                       "max_time": 1, "samples": 16})
    p.follow(job, cancel_after=p.rng.uniform(1, 5) if p.rng.random() < 0.2 else None)


_PUZZLES: list[str] = []


def puzzle(p: Player) -> None:
    """A puzzle played by clicks: a legal move, the right one after a wrong one; its
    solution shown at times."""
    if not _PUZZLES:
        listing = p.call("GET", "/api/puzzles")
        _PUZZLES.extend(q["id"] for c in listing["collections"] for q in c["puzzles"])
    pid = p.rng.choice(_PUZZLES)
    shown = p.call("GET", f"/api/puzzles/{pid}?solution=1" if p.rng.random() < 0.5
                   else f"/api/puzzles/{pid}", kind="puzzles")
    view, line = shown["board"], list[str]()
    for _ in range(40):
        if not view["moves"] or p.over():
            break
        p.think(0.1, 0.5)
        move = p.rng.choice(view["moves"])["move"]
        a = p.call("POST", f"/api/puzzles/{pid}/move", {"line": line, "move": move},
                   kind="puzzle move")
        if not a["ok"]:
            if not a["good"]:
                break
            a = p.call("POST", f"/api/puzzles/{pid}/move", {"line": line, "move": a["good"][0]},
                       kind="puzzle move")
        line, view = a["line"], a["board"]
        if a["over"]:
            p.tally.count("puzzles finished")
            break


def pages(p: Player) -> None:
    for path in p.rng.sample(PAGES, 4):
        p.call("GET", path, kind="pages")
        p.think(0.05, 0.2)


#: What a player does next, and how often.
MIX: list[tuple[Callable[[Player], None], float]] = [
    (board, 0.32), (analysis, 0.15), (hint, 0.08), (game, 0.2), (review, 0.05),
    (puzzle, 0.12), (pages, 0.08)]


def play(p: Player) -> None:
    """One player's session: what it does, until the deadline."""
    steps, weights = zip(*MIX)
    while not p.over() and p.sent < MAX_REQUESTS:
        step = p.rng.choices(steps, weights)[0]
        try:
            step(p)
            p.tally.count(step.__name__)
        except Busy:
            p.tally.count("busy")
            p.think(0.5, 1.5)
        except Failed as e:
            p.tally.error(str(e))
            p.think()
        except TimeoutError:
            break
        p.think(1.0, 3.0)
    p.close()


# ---------------------------------------------------------------- the server's processes

def _stat(pid: int) -> tuple[str, int] | None:
    """A process's state letter and parent, or None when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
        return fields[0], int(fields[1])
    except (OSError, IndexError, ValueError):
        return None


def alive(pid: int) -> bool:
    return (st := _stat(pid)) is not None and st[0] != "Z"


def descendants(pid: int) -> set[int]:
    """Every process below ``pid`` now."""
    kids: dict[int, list[int]] = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit() and (st := _stat(int(entry))) is not None:
            kids.setdefault(st[1], []).append(int(entry))
    out, todo = set(), [pid]
    while todo:
        for k in kids.get(todo.pop(), []):
            out.add(k)
            todo.append(k)
    return out


def rss_mib(pid: int) -> float | None:
    """Resident memory (``VmRSS``), MiB."""
    try:
        with open(f"/proc/{pid}/status") as fh:
            for line in fh:
                if line.startswith("VmRSS:"):
                    return int(line.split()[1]) / 1024
    except OSError:
        pass
    return None


def open_files(pid: int) -> int | None:
    try:
        return len(os.listdir(f"/proc/{pid}/fd"))
    except OSError:
        return None


def is_forkserver(pid: int) -> bool:
    try:
        with open(f"/proc/{pid}/cmdline", "rb") as fh:
            return b"forkserver" in fh.read()
    except OSError:
        return False


@dataclass
class Sample:
    """The server's processes at one moment: resident memory (MiB), descriptors."""

    t: float
    server_mib: float
    server_fds: int
    forkserver_mib: float
    jobs_mib: dict[int, float]  # each job process (the forkserver's children)
    pids: set[int]              # every process below the server

    @property
    def largest_job(self) -> float:
        return max(self.jobs_mib.values(), default=0.0)


def sample(server: int, t0: float) -> Sample | None:
    mib, fds = rss_mib(server), open_files(server)
    if mib is None or fds is None:
        return None
    pids = descendants(server)
    forks = [pid for pid in pids if (st := _stat(pid)) is not None and st[1] == server
             and is_forkserver(pid)]
    jobs = {pid: r for pid in pids if (st := _stat(pid)) is not None and st[1] in forks
            and (r := rss_mib(pid)) is not None}
    return Sample(round(time.monotonic() - t0, 1), mib, fds,
                  sum(rss_mib(f) or 0.0 for f in forks), jobs, pids)


# ---------------------------------------------------------------- the run

def start_server(data: str, workers: int | None
                 ) -> tuple[subprocess.Popen, int, int, list[str]]:
    """`durak serve --port 0`; its port (from the first line), its workers and its
    stderr's lines, read by a thread as they come."""
    cmd = [sys.executable, "-m", "solver.cli", "serve", "--port", "0", "--data-dir", data]
    if workers:
        cmd += ["--workers", str(workers)]
    proc = subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
                            text=True)
    assert proc.stderr is not None
    first = proc.stderr.readline()
    if "serving the board on http://127.0.0.1:" not in first:
        proc.kill()
        raise SystemExit(f"the server did not start: {first}{proc.stderr.read()}")
    port = int(first.split("127.0.0.1:", 1)[1].split("/", 1)[0])
    lines, err = [first.rstrip("\n")], proc.stderr
    threading.Thread(target=lambda: lines.extend(ln.rstrip("\n") for ln in err),
                     daemon=True).start()
    deadline = time.monotonic() + 60
    while True:
        try:
            c = http.client.HTTPConnection("127.0.0.1", port, timeout=5)
            c.request("GET", "/api/status")
            status = json.loads(c.getresponse().read())
            c.close()
            return proc, port, status["workers"], lines
        except OSError:
            if time.monotonic() > deadline or proc.poll() is not None:
                proc.kill()
                raise SystemExit("the server did not answer")
            time.sleep(0.1)


def _quiet_fds(pid: int, seconds: float = 3.0) -> int | None:
    """The server's open descriptors once the connections have closed: the least seen
    over ``seconds`` (a closed connection gives its descriptor back a moment later)."""
    seen = []
    end = time.monotonic() + seconds
    while time.monotonic() < end:
        if (n := open_files(pid)) is not None:
            seen.append(n)
        time.sleep(0.2)
    return min(seen, default=None)


def percentile(xs: list[float], q: float) -> float:
    ys = sorted(xs)
    return ys[min(len(ys) - 1, int(round(q * (len(ys) - 1))))] if ys else float("nan")


def soak(minutes: float = 10.0, clients: int = 20, workers: int | None = None,
         warmup: float | None = None, seed: int = 1) -> dict[str, Any]:
    """Run the soak; its report (see :func:`checks` for what must hold).

    ``warmup`` (seconds; default 3 minutes, at most half the run): memory is compared
    between its end and the run's end, so that what the server fills once is not taken
    for a leak -- the 64 games it keeps in memory (20 players finish that many in about
    two and a half minutes), the 256 finished jobs it keeps for their answers, the
    puzzles read on first use.
    """
    seconds = minutes * 60
    warmup = min(180.0, seconds / 2) if warmup is None else warmup
    data = tempfile.mkdtemp(prefix="durak-soak-")
    proc, port, workers, stderr = start_server(data, workers)
    tally = Tally()
    samples: list[Sample] = []
    t0 = time.monotonic()
    try:
        fds_before = _quiet_fds(proc.pid, 1.0)
        deadline = t0 + seconds
        players = [Player(port, tally, random.Random(seed * 1000 + i), deadline)
                   for i in range(clients)]
        threads = [threading.Thread(target=play, args=(pl,), daemon=True) for pl in players]
        for th in threads:
            th.start()
            time.sleep(min(0.2, warmup / max(1, clients) / 4))  # not all in the same instant
        warm: Sample | None = None
        while time.monotonic() < deadline:
            time.sleep(min(SAMPLE_SECONDS, max(0.0, deadline - time.monotonic())))
            if (s := sample(proc.pid, t0)) is not None:
                samples.append(s)
                if warm is None and s.t >= warmup:
                    warm = s
        until = time.monotonic() + JOB_SECONDS
        for th in threads:
            th.join(max(0.0, until - time.monotonic()))
        stuck = sum(th.is_alive() for th in threads)
        if stuck:
            tally.error(f"{stuck} player(s) still waiting {JOB_SECONDS:g} s after the end")
        if (end := sample(proc.pid, t0)) is not None:
            samples.append(end)
        fds_after = _quiet_fds(proc.pid)
        before_stop = descendants(proc.pid)
        proc.send_signal(signal.SIGTERM)
        try:
            code: int | None = proc.wait(30)
        except subprocess.TimeoutExpired:
            code = None
        time.sleep(0.5)
        stop_deadline = time.monotonic() + 5
        while any(alive(pid) for pid in before_stop) and time.monotonic() < stop_deadline:
            time.sleep(0.1)
        left = sorted(pid for pid in before_stop if alive(pid))
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(10)
        shutil.rmtree(data, ignore_errors=True)
    if warm is None and samples:
        warm = samples[0]
    return {
        "minutes": minutes, "clients": clients, "workers": workers, "warmup_s": warmup,
        "seconds": round(time.monotonic() - t0, 1),
        "requests": tally.answered, "errors": len(tally.errors), "error_lines": tally.errors[:20],
        "busy_503": tally.done.get("busy", 0),
        "by_kind": dict(sorted(tally.by_kind.items())),
        "done": dict(sorted((k, v) for k, v in tally.done.items() if k != "busy")),
        "moves": {"requests": len(tally.moves_ms),
                  "p50_ms": round(percentile(tally.moves_ms, 0.5), 2),
                  "p99_ms": round(percentile(tally.moves_ms, 0.99), 2),
                  "max_ms": round(max(tally.moves_ms, default=float("nan")), 2)},
        "memory_mib": {
            "server": _growth(samples, warm, "server_mib"),
            "forkserver": _growth(samples, warm, "forkserver_mib"),
            "largest_job": _growth(samples, warm, "largest_job"),
        },
        "server_fds": {"at_rest_before": fds_before, "at_rest_after": fds_after,
                       "under_load_min": min((s.server_fds for s in samples), default=None),
                       "under_load_max": max((s.server_fds for s in samples), default=None)},
        "series": [{"t": s.t, "server_mib": round(s.server_mib, 1), "fds": s.server_fds,
                    "jobs_mib": {str(k): round(v, 1) for k, v in sorted(s.jobs_mib.items())}}
                   for s in samples],
        "stop": {"exit_code": code, "processes_before": len(before_stop), "left": left,
                 "stderr": stderr[1:]},
    }


def _growth(samples: list[Sample], warm: Sample | None, key: str) -> dict[str, Any]:
    """A process's memory at the end of the warm-up and at the end of the run, each the
    median of the looks over the minute before (a job process is twice its size for the
    moment a strong engine's move takes), and the growth between the two."""
    if warm is None or not samples:
        return {"after_warmup": None, "end": None, "growth_pct": None}

    def typical(until: float) -> float:
        return statistics.median(getattr(s, key) for s in samples if until - 60 <= s.t <= until)

    a, b = typical(warm.t), typical(samples[-1].t)
    return {"after_warmup": round(a, 1), "end": round(b, 1),
            "growth_pct": round(100 * (b - a) / a, 1) if a else None}


def checks(report: dict[str, Any], growth_pct: float = 10.0, job_growth_pct: float = 10.0,
           fd_slack: int = 4) -> list[str]:
    """What failed, in words: errors, memory grown past ``growth_pct`` (the server, the
    forkserver; ``job_growth_pct``: the largest job process), descriptors at rest not back
    where they were, a process left or an exit other than 0 after the SIGTERM, a
    traceback on stderr."""
    bad = []
    if report["errors"]:
        bad.append(f"{report['errors']} error(s): {report['error_lines'][:3]}")
    for key, m in report["memory_mib"].items():
        bound = job_growth_pct if key == "largest_job" else growth_pct
        if m["growth_pct"] is None or m["growth_pct"] > bound:
            bad.append(f"{key}'s memory grew {m['growth_pct']} % after the warm-up "
                       f"({m['after_warmup']} to {m['end']} MiB)")
    fds = report["server_fds"]
    if fds["at_rest_before"] is None or fds["at_rest_after"] is None \
            or fds["at_rest_after"] > fds["at_rest_before"] + fd_slack:
        bad.append(f"open descriptors at rest: {fds['at_rest_before']} before, "
                   f"{fds['at_rest_after']} after")
    stop = report["stop"]
    if stop["exit_code"] != 0:
        bad.append(f"exit code {stop['exit_code']} after SIGTERM")
    if stop["left"]:
        bad.append(f"processes left after SIGTERM: {stop['left']}")
    if any("Traceback" in ln or "ERROR" in ln for ln in stop["stderr"]):
        bad.append("a traceback on stderr: " + " | ".join(stop["stderr"][:5]))
    if not stop["stderr"] or not stop["stderr"][-1].startswith("durak: stopped serving"):
        bad.append(f"not the goodbye line last: {stop['stderr'][-3:]}")
    return bad


def table(report: dict[str, Any]) -> str:
    mem, fds, mv, stop = (report["memory_mib"], report["server_fds"], report["moves"],
                          report["stop"])
    rows = [
        ("players, workers, minutes", f"{report['clients']}, {report['workers']}, "
                                      f"{report['minutes']:g} (warm-up {report['warmup_s']:g} s; "
                                      f"{report['seconds']:g} s in all)"),
        ("requests answered", f"{report['requests']:,}"),
        ("errors", str(report["errors"])),
        ("503, the queue full", str(report["busy_503"])),
        ("moves: requests, p50, p99, max", f"{mv['requests']:,}, {mv['p50_ms']} ms, "
                                           f"{mv['p99_ms']} ms, {mv['max_ms']} ms"),
    ]
    for key, name in (("server", "the server"), ("forkserver", "the forkserver"),
                      ("largest_job", "the largest job process")):
        m = mem[key]
        rows.append((f"RSS of {name}: after warm-up, end",
                     f"{m['after_warmup']} MiB, {m['end']} MiB ({m['growth_pct']:+} %)"
                     if m["growth_pct"] is not None else "not measured"))
    rows.append(("server's descriptors: at rest before, after",
                 f"{fds['at_rest_before']}, {fds['at_rest_after']} (under load "
                 f"{fds['under_load_min']}..{fds['under_load_max']})"))
    rows.append(("SIGTERM: exit code, processes, left",
                 f"{stop['exit_code']}, {stop['processes_before']}, {len(stop['left'])}"))
    rows.append(("done", ", ".join(f"{k} {v}" for k, v in report["done"].items())))
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k:<{width}}  {v}" for k, v in rows)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--minutes", type=float, default=10.0)
    ap.add_argument("--clients", type=int, default=20)
    ap.add_argument("--workers", type=int, default=None, help="the server's (default: its own)")
    ap.add_argument("--warmup", type=float, default=None,
                    help="seconds (default: 180, at most half the run)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="one JSON object, the series included")
    args = ap.parse_args()
    if not 0.5 <= args.minutes <= 240 or not 1 <= args.clients <= 64:
        ap.error("--minutes 0.5..240, --clients 1..64")
    report = soak(args.minutes, args.clients, args.workers, args.warmup, args.seed)
    bad = checks(report)
    report["failed"] = bad
    if args.json:
        print(json.dumps(report))
    else:
        print(table(report))
        for line in bad:
            print(f"FAILED: {line}")
        for line in report["error_lines"][:10]:
            print(f"  error: {line}")
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
