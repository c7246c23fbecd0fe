"""Every command that takes a time budget stops within it (issue 73).

docs/guide/commands.md promises: a budget that runs out ends the command with exit 3
and what is known printed, within the budget plus a small overhead (the process's
start-up, reading the input, the last unit of work a budget is checked between).
Each command that takes ``--max-time`` (``durak hint``: ``--time``) is run here as a
user runs it -- its own process -- with a tiny budget on an input that needs far more.
Two figures are held (the commands page gives both): the CPU time the process spent,
which no other job on the machine changes, to the budget on every core plus
:data:`CPU_OVERHEAD`; and the wall time to the budget plus :data:`OVERHEAD`, measured
generously for two cores shared by a dozen jobs (the full suite beside other work).
"""
from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import time
from pathlib import Path

from web_support import HARD, client

from solver.web.api import Limits

ROOT = Path(__file__).resolve().parent.parent
DURAK = [sys.executable, "-m", "solver.cli"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
       "COLUMNS": "200"}
#: Wall-clock seconds a command may run past its budget (docs/guide/commands.md,
#: "Answers for people and for programs"): the process's start-up and the last unit
#: of work, stretched by a busy machine (0.1-0.3 s on a quiet one, up to 2.2 s measured
#: at a load average of 10-15 on the two cores).
OVERHEAD = 3.0
#: CPU seconds a command may spend past its budget on every core it may use: its
#: start-up and the last unit of work (0.1-0.3 s measured).
CPU_OVERHEAD = 1.0
#: The cores a command's work may use (the review's estimates run on two threads).
CORES = 2
#: A tiny budget: every input below needs far more.
TINY = 0.01
#: A game of the greedy player against the hint engine (17 decisions of the reviewed
#: seat, one with every card placed): its review takes seconds.
GAME = ROOT / "benchmarks" / "games" / "eg-58-deal0000-a1.txt"
#: Hidden cards: the hint wants 256 deals.
HIDDEN = "trump 9H; hands 7S KH 9D TC JS QD | ?6; pile 24; attacker 1"


def durak(*args: str, stdin: str | None = None) -> tuple[subprocess.CompletedProcess, float]:
    """Run ``durak ARGS`` in its own process; the result and its wall-clock seconds,
    once its CPU seconds are held to the budget (:data:`CPU_OVERHEAD`).

    A run past the budget and the wall-clock overhead is run once more and the
    faster run kept: a moment when the shared machine gave the process no core is
    no finding, a budget that is not kept is late both times."""
    best: tuple[subprocess.CompletedProcess, float] | None = None
    for _attempt in range(2):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        t0 = time.monotonic()
        r = subprocess.run([*DURAK, *args], input=stdin, text=True, capture_output=True,
                           env=ENV, cwd=ROOT, timeout=120)
        took = time.monotonic() - t0
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
        assert cpu < TINY * CORES + CPU_OVERHEAD, (args[:2], cpu)
        if best is None or took < best[1]:
            best = (r, took)
        if took < TINY + OVERHEAD:
            break
    assert best is not None
    return best


def test_a_review_stops_within_its_budget_and_lists_the_decisions_not_reached():
    r, took = durak("review", str(GAME), "--max-time", str(TINY), "--json")
    assert r.returncode == 3, (r.returncode, r.stderr)
    assert took < TINY + OVERHEAD, took
    ans = json.loads(r.stdout)
    reached = {d["move"] for d in ans["decisions"]}
    assert ans["not_reached"], ans
    assert not reached & set(ans["not_reached"])
    # every decision there was is either reviewed or listed as not reached
    full = subprocess.run([*DURAK, "review", str(GAME), "--json", "--samples", "32"],
                          text=True, capture_output=True, env=ENV, cwd=ROOT, timeout=120)
    assert full.returncode == 0, full.stderr
    assert reached | set(ans["not_reached"]) == {d["move"] for d in json.loads(full.stdout)[
        "decisions"]}
    assert "not reached" in r.stderr and "budget" in r.stderr


def test_a_review_for_people_names_the_decisions_not_reached():
    r, took = durak("review", str(GAME), "--max-time", str(TINY))
    assert r.returncode == 3, (r.returncode, r.stderr)
    assert took < TINY + OVERHEAD, took
    assert "not reached: move" in r.stdout, r.stdout


def test_the_exact_solves_of_a_review_keep_to_its_budget():
    # a game with a large endgame: its exact solves alone, from the end backwards
    game = next(p for p in sorted(GAME.parent.glob("gr-*.txt")))
    r, took = durak("review", str(game), "--exact-only", "--max-time", str(TINY), "--json")
    assert r.returncode == 3, (r.returncode, r.stderr)
    assert took < TINY + OVERHEAD, took
    assert json.loads(r.stdout)["not_reached"]


def test_solve_and_analyse_stop_within_their_budget():
    for command in ("solve", "analyse"):
        r, took = durak(command, HARD, "--max-time", str(TINY), "--json")
        assert r.returncode == 3, (command, r.returncode, r.stderr)
        assert took < TINY + OVERHEAD, (command, took)
        ans = json.loads(r.stdout)
        assert ans["exact"] is False and ans["recommended"], ans  # what is known


def test_hint_stops_within_its_time():
    for flag in ("--time", "--max-time"):
        r, took = durak("hint", HIDDEN, flag, str(TINY), "--json")
        assert r.returncode == 3, (flag, r.returncode, r.stderr)
        assert took < TINY + OVERHEAD, (flag, took)
        ans = json.loads(r.stdout)
        assert 0 < ans["samples"] < 256 and ans["best"], ans


def test_batch_items_stop_within_their_budget():
    game = json.dumps({"game": GAME.read_text()})
    for task, line in (("solve", HARD), ("analyse", HARD), ("hint", HIDDEN), ("review", game)):
        r, took = durak("batch", task, "-", "--max-time", str(TINY), "-j", "1", stdin=line + "\n")
        assert r.returncode == 0, (task, r.returncode, r.stderr)  # every item has its line
        assert took < TINY + OVERHEAD, (task, took)
        ans = json.loads(r.stdout)
        assert ans["exit_code"] == 3 and ans["error"].startswith("budget: "), (task, ans)


def test_the_servers_budget_bounds_a_review_too(tmp_path):
    # `durak serve --max-time` caps solve, analyse and hint (tests/test_web_api.py);
    # a review asks its own, capped by the server: the whole review keeps to it
    with client(tmp_path, limits=Limits(max_time=TINY)) as c:
        t0 = time.monotonic()
        r = c.post("/api/solve", json={"position": HARD})
        assert r.status_code == 200 and r.headers["x-durak-exit-code"] == "3"
        assert time.monotonic() - t0 < TINY + OVERHEAD
        t0 = time.monotonic()
        r = c.post("/api/review", json={"game": GAME.read_text(), "max_time": TINY})
        took = time.monotonic() - t0
        assert r.status_code == 200 and r.headers["x-durak-exit-code"] == "3", r.text
        assert took < TINY + OVERHEAD, took
        assert r.json()["not_reached"]
