"""How far past its time budget each command runs.  Not part of CI.

Every command that takes ``--max-time`` (``durak hint``: ``--time``) is run as a user
runs it, in its own process, with a budget far too small for its input (the inputs
of tests/test_budgets.py), and the wall time past the budget is printed -- the
median and the largest over ``--runs`` runs -- with the CPU seconds the process
spent (every thread's), which no other job on the machine changes.  That is the overhead
docs/guide/commands.md promises a bound for: the process's start-up, reading the
input, and the last unit of work a budget is checked between.

    python benchmarks/bench_budgets.py                # budget 0.01 s, 5 runs each
    python benchmarks/bench_budgets.py --budget 1 --runs 3
"""
from __future__ import annotations

import argparse
import json
import os
import resource
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HARD = "trump H; hands JS QS TH JH JC | QH KH KD 9C QC | 7S 8H 9H JD 8C; attacker 1"
HIDDEN = "trump 9H; hands 7S KH 9D TC JS QD | ?6; pile 24; attacker 1"
GAME = ROOT / "benchmarks" / "games" / "eg-58-deal0000-a1.txt"


def commands(budget: str) -> dict[str, tuple[list[str], str | None]]:
    """Each command with a budget: its arguments and its standard input."""
    game = json.dumps({"game": GAME.read_text()})
    return {
        "solve": (["solve", HARD, "--max-time", budget, "--json"], None),
        "analyse": (["analyse", HARD, "--max-time", budget, "--json"], None),
        "hint": (["hint", HIDDEN, "--time", budget, "--json"], None),
        "review": (["review", str(GAME), "--max-time", budget, "--json"], None),
        "batch analyse": (["batch", "analyse", "-", "--max-time", budget, "-j", "1"], HARD),
        "batch review": (["batch", "review", "-", "--max-time", budget, "-j", "1"], game),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--budget", default="0.01", help="seconds (default 0.01)")
    ap.add_argument("--runs", type=int, default=5)
    args = ap.parse_args()
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    print(f"budget {args.budget} s, {args.runs} runs each, load average "
          f"{os.getloadavg()[0]:.1f}")
    worst = 0.0
    for name, (argv, stdin) in commands(args.budget).items():
        over, cpu, codes = [], [], set()
        for _ in range(args.runs):
            before = resource.getrusage(resource.RUSAGE_CHILDREN)
            t0 = time.monotonic()
            r = subprocess.run([sys.executable, "-m", "solver.cli", *argv], input=stdin,
                               text=True, capture_output=True, env=env, cwd=ROOT)
            over.append(time.monotonic() - t0 - float(args.budget))
            after = resource.getrusage(resource.RUSAGE_CHILDREN)
            cpu.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
            codes.add(r.returncode)
        worst = max(worst, max(over))
        print(f"{name:14} past the budget: median {statistics.median(over):.2f} s, "
              f"max {max(over):.2f} s; CPU max {max(cpu):.2f} s "
              f"(exit {', '.join(map(str, sorted(codes)))})")
    print(f"largest: {worst:.2f} s; load average {os.getloadavg()[0]:.1f}")


if __name__ == "__main__":
    main()
