"""Benchmark of small games of 3+ players solved whole (issue 15): `durak solve` as users run it.

Families (fixed seeds): random 3-player endgames with 9 cards in play (3-3-3,
4-3-2, 5-2-2, 4-4-1) under six rule sets (plain, transfer, throw-in by
neighbours, transfer with shows, first out wins, trump swap).  Each position
is answered by ``Solver.solve`` -- value, best moves, distance and variation,
what `durak solve` prints -- from a fresh solver, which for these positions
is the retrograde analysis of ``ext/retro.pxi``.  Not part of CI.

    python benchmarks/bench_retro.py                # 144 positions
    python benchmarks/bench_retro.py --per-rule 2   # a quicker look
    python benchmarks/bench_retro.py --threads 2    # a big graph built by two threads
    python benchmarks/bench_retro.py --cli          # `durak solve --json`, a process each
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

from solver.game.deal import deal_endgame
from solver.game.rules import Rules
from solver.notation import format_position
from solver.search import Solver

RULE_SETS = [Rules(), Rules(transfer=True), Rules(throw_in_neighbours=True),
             Rules(transfer=True, transfer_by_trump_show=True), Rules(first_out_wins=True),
             Rules(trump_swap=True)]
SIZES = [[3, 3, 3], [4, 3, 2], [5, 2, 2], [4, 4, 1]]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--per-rule", type=int, default=6, help="deals per rule set and hand sizes")
    ap.add_argument("--threads", type=int, default=1, choices=(1, 2),
                    help="in process: Solver(threads=N) (`durak solve` uses 2 on two cores)")
    ap.add_argument("--cli", action="store_true",
                    help="time `durak solve POSITION --json` in a new process per position")
    args = ap.parse_args()
    # the `durak` installed beside this Python (not a shim that finds one)
    durak = Path(sys.executable).with_name("durak")
    command = [str(durak)] if durak.exists() else [sys.executable, "-m", "solver.cli"]
    times, states = [], []
    worst = (0.0, "")
    for rules in RULE_SETS:
        rng = random.Random(7)
        for _ in range(args.per_rule):
            for sizes in SIZES:
                s = deal_endgame(rng, sizes, rules)
                t0 = time.perf_counter()
                if args.cli:
                    out = subprocess.run([*command, "solve", format_position(s), "--json"],
                                         capture_output=True, text=True, check=True).stdout
                    nodes = json.loads(out)["nodes"]
                else:
                    nodes = Solver(tt_mb=16, threads=args.threads).solve(s).nodes
                dt = time.perf_counter() - t0
                times.append(dt)
                states.append(nodes)
                if dt > worst[0]:
                    worst = (dt, f"{sizes} {rules.names() or 'podkidnoy'}")
    times.sort()
    n = len(times)
    what = ("`durak solve --json`, a new process each (wall time)" if args.cli
            else f"`Solver.solve` (value, best moves, distance, pv), {args.threads} thread(s)")
    print(f"{n} positions, 3 players, 9 cards: {what}")
    print(f"median {statistics.median(times):.3f} s, 90th percentile {times[int(0.9 * n)]:.3f} s, "
          f"max {times[-1]:.3f} s ({worst[1]}); under 1 s: {sum(t < 1 for t in times)} of {n}")
    print(f"states per position: median {int(statistics.median(states)):,}, max {max(states):,}")


if __name__ == "__main__":
    main()
