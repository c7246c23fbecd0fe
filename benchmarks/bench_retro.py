"""Benchmark of small games of 3+ players solved whole (issue 15): `durak solve` as users run it.

Families (fixed seeds): random 3-player endgames with 9 cards in play (3-3-3,
4-3-2, 5-2-2, 4-4-1) under six rule sets (plain, transfer, throw-in by
neighbours, transfer with shows, first out wins, trump swap).  Each position
is answered by ``Solver.solve`` -- value, best moves, distance and variation,
what `durak solve` prints -- from a fresh solver, which for these positions
is the retrograde analysis of ``ext/retro*.pxi``.  Not part of CI.

    python benchmarks/bench_retro.py                # 144 positions
    python benchmarks/bench_retro.py --per-rule 2   # a quicker look
    python benchmarks/bench_retro.py --threads 2    # a big graph built by two threads
    python benchmarks/bench_retro.py --cli          # `durak solve --json`, a process each
    python benchmarks/bench_retro.py --cards 10 --threads 2   # 10 cards: the search, then the graph

With ``--cards 10`` (4-3-3, 5-3-2, 6-2-2, 4-4-2) the answer comes from the
proof search where it answers within ``retro.FALLBACK_TRIAL`` and from the
graph otherwise, as `durak solve` does; ``--max-time`` (default 60 s, the
command's) bounds each, and a position it ends counts as not answered.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path

from solver.errors import BudgetExceeded
from solver.game.deal import deal_endgame
from solver.game.rules import Rules
from solver.notation import format_position
from solver.search import Solver

RULE_SETS = [Rules(), Rules(transfer=True), Rules(throw_in_neighbours=True),
             Rules(transfer=True, transfer_by_trump_show=True), Rules(first_out_wins=True),
             Rules(trump_swap=True)]
SIZES = {9: [[3, 3, 3], [4, 3, 2], [5, 2, 2], [4, 4, 1]],
         10: [[4, 3, 3], [5, 3, 2], [6, 2, 2], [4, 4, 2]]}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-rule", type=int, default=6, help="deals per rule set and hand sizes")
    ap.add_argument("--threads", type=int, default=1, choices=(1, 2),
                    help="in process: Solver(threads=N) (`durak solve` uses 2 on two cores)")
    ap.add_argument("--cli", action="store_true",
                    help="time `durak solve POSITION --json` in a new process per position")
    ap.add_argument("--cards", type=int, default=9, choices=sorted(SIZES),
                    help="cards in play (9: solved whole; 10: the search first)")
    ap.add_argument("--max-time", type=float, default=60.0, help="per position, seconds")
    args = ap.parse_args()
    # the `durak` installed beside this Python (not a shim that finds one)
    durak = Path(sys.executable).with_name("durak")
    command = [str(durak)] if durak.exists() else [sys.executable, "-m", "solver.cli"]
    times, states = [], []
    worst = (0.0, "")
    unanswered = 0
    for rules in RULE_SETS:
        rng = random.Random(7)
        for _ in range(args.per_rule):
            for sizes in SIZES[args.cards]:
                s = deal_endgame(rng, sizes, rules)
                t0 = time.perf_counter()
                if args.cli:
                    run = subprocess.run([*command, "solve", format_position(s), "--json",
                                          "--max-time", str(args.max_time)],
                                         capture_output=True, text=True)
                    if run.returncode not in (0, 3):
                        raise SystemExit(f"durak solve failed: {run.stderr}")
                    answer = json.loads(run.stdout)
                    nodes = answer["nodes"]
                    unanswered += not answer["exact"]
                else:
                    try:
                        nodes = Solver(tt_mb=16, threads=args.threads).solve(
                            s, max_time=args.max_time).nodes
                    except BudgetExceeded as e:
                        nodes = e.partial.nodes
                        unanswered += 1
                dt = time.perf_counter() - t0
                times.append(dt)
                states.append(nodes)
                if dt > worst[0]:
                    worst = (dt, f"{sizes} {rules.names() or 'podkidnoy'}")
    times.sort()
    n = len(times)
    what = ("`durak solve --json`, a new process each (wall time)" if args.cli
            else f"`Solver.solve` (value, best moves, distance, pv), {args.threads} thread(s)")
    print(f"{n} positions, 3 players, {args.cards} cards: {what}")
    print(f"median {statistics.median(times):.3f} s, 90th percentile {times[int(0.9 * n)]:.3f} s, "
          f"max {times[-1]:.3f} s ({worst[1]}); under 1 s: {sum(t < 1 for t in times)} of {n}")
    print(f"states (and nodes) per position: median {int(statistics.median(states)):,}, "
          f"max {max(states):,}; not answered within {args.max_time:g} s: {unanswered}")


if __name__ == "__main__":
    main()
