"""`durak serve` soaked for a minute (issue 73): benchmarks/soak_web.py's short run.

Eight players use a real `durak serve` for 60 seconds the way the pages do -- board
clicks, analyses (cancelled, left to the server, a client gone), hints, games against
the engine to their end, reviews, puzzles, the pages -- and the server must answer
every request (a full queue's 503 aside), keep its memory bounded and its open
descriptors where they were, and leave no process after a SIGTERM.

The 10-minute run, held to 10 % of memory growth after a 2-minute warm-up, is the
benchmark's (docs/benchmarks.md).  A minute is too short for the server's caches to
fill (the games it keeps in memory, the finished jobs it keeps for their answers), so
the bound here is looser: it catches a leak of a request's worth, not a slow one.
"""
from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "benchmarks"))
import soak_web  # noqa: E402  (benchmarks/ is not a package)

pytestmark = pytest.mark.skipif(not os.path.isdir("/proc"), reason="reads /proc")

#: The growth allowed between the warm-up and the end of a minute: the server's memory, a
#: job process's (a fresh one, after a cancel, grows to its table's size in its first jobs).
GROWTH_PCT = 25.0
JOB_GROWTH_PCT = 100.0


def test_a_minute_of_players_leaves_no_error_no_growth_and_no_process():
    report = soak_web.soak(minutes=1, clients=8, warmup=30)
    failed = soak_web.checks(report, growth_pct=GROWTH_PCT, job_growth_pct=JOB_GROWTH_PCT)
    assert not failed, (failed, soak_web.table(report))
    assert report["errors"] == 0, report["error_lines"]
    assert report["requests"] > 300, soak_web.table(report)  # the players did play
    done = report["done"]
    for kind in ("board", "analysis", "game", "puzzle"):
        assert done.get(kind), (kind, done)
    assert report["moves"]["requests"] > 0
    stop = report["stop"]
    assert stop["exit_code"] == 0 and stop["left"] == [] and stop["processes_before"] >= 3
    fds = report["server_fds"]
    assert fds["at_rest_after"] <= fds["at_rest_before"] + 4, fds
