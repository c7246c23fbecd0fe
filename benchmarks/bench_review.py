"""Benchmark of `durak review` over a fixed set of recorded games.  Not part of CI.

The games are stored in ``benchmarks/games/`` (``durak match --record``, see its
README): ``eg-*`` the greedy player against the hint engine (the record's seat,
the one reviewed, is the greedy player's: it loses most games, so the move
where a game was lost is found), ``gr-*`` the greedy player against the random
one, chosen for their large endgames (12 to 18 cards in hand when the pile
empties: the exact solves the review must finish).  Each record's asking seat
is reviewed at the review's defaults (the hint's deals, seed 0, the exact
solves sharing ``--max-time``, the estimates on ``--workers`` threads), one
after another.  Printed: per family and overall, the median and the maximum
seconds per review, and the share of decisions exact; of the decisions with
every card placed, how many the exact solve left ``unclear``.  The CPU seconds
(every thread's) do not depend on what else the machine runs: on two free
cores a review's wall time is a little over half of them.

    python benchmarks/bench_review.py                    # every stored game
    python benchmarks/bench_review.py --games 10 --workers 1
    python benchmarks/bench_review.py --json review.json  # one line per game too

With ``--baseline`` every game is also reviewed on one thread (``--workers 1``),
in the same run, and the ratio of the medians is printed.
"""
from __future__ import annotations

import argparse
import json
import os
import statistics
import time
from pathlib import Path

from solver.games import Game
from solver.games.review import REVIEW_MAX_TIME, review

GAMES = Path(__file__).resolve().parent / "games"
#: The targets of issue 58: a typical (median) two-player review, and any.
TYPICAL_S, ANY_S = 5.0, 15.0


def one(path: Path, workers: int | None, max_time: float) -> dict:
    g = Game.parse(path.read_text())
    t0, c0 = time.perf_counter(), time.process_time()
    res = review(g, max_time=max_time, workers=workers)
    secs, cpu = time.perf_counter() - t0, time.process_time() - c0
    ds = res.decisions
    return {"game": path.name, "seconds": round(secs, 3), "cpu": round(cpu, 3),
            "decisions": len(ds),
            "exact": sum(d.exact for d in ds), "placed": sum(d.placed for d in ds),
            "unsolved": len(res.unsolved), "unclear": sum(d.label == "unclear" for d in ds),
            "exact_seconds": round(sum(d.seconds for d in ds if d.placed), 3),
            "lost_after": res.lost_after.number if res.lost_after else None}


def summary(rows: list[dict], name: str) -> str:
    secs = [r["seconds"] for r in rows]
    n = sum(r["decisions"] for r in rows)
    ex = sum(r["exact"] for r in rows)
    placed = sum(r["placed"] for r in rows)
    uns = sum(r["unsolved"] for r in rows)
    cpu = [r["cpu"] for r in rows]
    return (f"| {name} | {len(rows)} | {statistics.median(secs):.2f} | {max(secs):.2f} | "
            f"{statistics.median(cpu):.2f} | {max(cpu):.2f} | "
            f"{n} | {ex} ({100 * ex / max(1, n):.0f}%) | {placed - uns} of {placed} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=None, help="the first N stored games only")
    ap.add_argument("--workers", type=int, default=None, help="estimate threads (default: cores)")
    ap.add_argument("--max-time", type=float, default=REVIEW_MAX_TIME,
                    help="seconds the exact solves of one review share")
    ap.add_argument("--baseline", action="store_true",
                    help="also review every game on one thread, in the same run")
    ap.add_argument("--json", default=None, metavar="FILE", help="one JSON line per game")
    a = ap.parse_args()
    paths = sorted(GAMES.glob("*.txt"))[:a.games]
    rows, base = [], []
    for p in paths:
        r = one(p, a.workers, a.max_time)
        rows.append(r)
        print(f"{p.name}: {r['seconds']:.2f} s, {r['decisions']} decisions, {r['exact']} exact, "
              f"{r['unsolved']} unsolved", flush=True)
        if a.baseline:
            b = one(p, 1, a.max_time)
            base.append(b)
    print()
    print(f"load average at the end: {', '.join(f'{x:.1f}' for x in os.getloadavg())} "
          f"({os.cpu_count()} cores)")
    print("| games | n | median s | max s | median CPU s | max CPU s | decisions | exact | "
          "placed and solved |")
    print("|---|---|---|---|---|---|---|---|---|")
    for fam in sorted({r["game"].split("-")[0] for r in rows}):
        print(summary([r for r in rows if r["game"].startswith(fam + "-")], fam))
    print(summary(rows, "all"))
    med, top = statistics.median(r["seconds"] for r in rows), max(r["seconds"] for r in rows)
    print(f"\ntargets: median {med:.2f} s <= {TYPICAL_S:g} s: "
          f"{'met' if med <= TYPICAL_S else 'NOT met'}; max {top:.2f} s <= {ANY_S:g} s: "
          f"{'met' if top <= ANY_S else 'NOT met'}")
    if base:
        bmed = statistics.median(r["seconds"] for r in base)
        print(f"one thread: median {bmed:.2f} s, max {max(r['seconds'] for r in base):.2f} s; "
              f"the threads' median is {bmed / med:.2f}x faster")
    if a.json:
        with open(a.json, "w") as f:
            for r in rows:
                f.write(json.dumps(r) + "\n")


if __name__ == "__main__":
    main()
