"""Throughput of `durak batch solve` (issue 17).  Not part of CI.

Deals ``--count`` random pile-empty endgames of a family (fixed seeds; 6v6
by default, 8v8 or a mix with ``--family``), writes them one per line and
runs ``durak batch solve`` on them as a user would (a fresh process each,
start-up, pool or cluster start included) with 1 and 2 local worker
processes and on a 2-worker Dask LocalCluster (``--scheduler local``, when
Dask is installed).  Reports wall time, positions per second and the
scaling efficiency at 2 workers (rate / (2 x the 1-worker rate)), and checks
every configuration gives the same answers (the effort fields ``nodes`` and
``seconds`` aside).  Each round also measures a control: the efficiency of
two processes of a pure CPU loop, which is what the shared machine offers at
that moment (no batch can scale better).

    python benchmarks/bench_batch.py                       # 1,000 6v6 positions
    python benchmarks/bench_batch.py --family 8v8 --count 100
    python benchmarks/bench_batch.py --no-dask
    python benchmarks/bench_batch.py --repeat 3              # best of 3 interleaved rounds
"""
from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile
import time

from solver.game.deal import deal_endgame
from solver.notation import format_position

FAMILIES = {"6v6": [[6, 6]], "8v8": [[8, 8]], "mix": [[6, 6], [8, 8]]}
DURAK = [sys.executable, "-c", "from solver.cli import main; main()"]
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def positions(family: str, count: int, seed: int) -> list[str]:
    sizes = FAMILIES[family]
    return [format_position(deal_endgame(random.Random(seed + i), sizes[i % len(sizes)]))
            for i in range(count)]


def run(args: list[str], inp: str, out: str) -> float:
    t0 = time.perf_counter()
    r = subprocess.run(DURAK + ["batch", "solve", inp, "--out", out] + args, cwd=ROOT,
                       capture_output=True, text=True)
    secs = time.perf_counter() - t0
    if r.returncode != 0:
        raise SystemExit(f"durak batch failed ({r.returncode}): {r.stderr}")
    print("   ", r.stderr.strip().splitlines()[-1], file=sys.stderr)
    return secs


def control() -> float:
    """The machine's own scaling now: the efficiency of 2 processes of a pure CPU loop
    over 1 (other jobs on a shared machine lower it; no batch can beat it)."""
    loop = [sys.executable, "-c", "sum(i * i for i in range(6_000_000))"]
    t0 = time.perf_counter()
    subprocess.run(loop, check=True)
    one = time.perf_counter() - t0
    t0 = time.perf_counter()
    procs = [subprocess.Popen(loop) for _ in range(2)]
    for p in procs:
        p.wait()
    two = time.perf_counter() - t0
    return one / two


def answers(path: str) -> list[dict]:
    with open(path, encoding="utf-8") as fh:
        return [{k: v for k, v in json.loads(line).items() if k not in ("nodes", "seconds")}
                for line in fh]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--family", choices=sorted(FAMILIES), default="6v6")
    ap.add_argument("--count", type=int, default=1000)
    ap.add_argument("--seed", type=int, default=70000)
    ap.add_argument("--no-dask", action="store_true", help="skip the Dask LocalCluster run")
    ap.add_argument("--repeat", type=int, default=1,
                    help="rounds of every configuration, interleaved; each the best of them")
    a = ap.parse_args()
    configs = [("1 local worker", ["-j", "1"]), ("2 local workers", ["-j", "2"])]
    if not a.no_dask:
        configs.append(("Dask LocalCluster, 2 workers", ["-j", "2", "--scheduler", "local"]))
    with tempfile.TemporaryDirectory() as tmp:
        inp = os.path.join(tmp, "in.txt")
        with open(inp, "w", encoding="utf-8") as fh:
            fh.write("\n".join(positions(a.family, a.count, a.seed)) + "\n")
        best = {name: float("inf") for name, _ in configs}
        controls = []
        ref, same = None, {name: True for name, _ in configs}
        for rnd in range(a.repeat):
            controls.append(control())
            for k, (name, args) in enumerate(configs):
                out = os.path.join(tmp, f"out{k}.jsonl")
                print(f"{name} (round {rnd + 1}) ...", file=sys.stderr)
                best[name] = min(best[name], run(args, inp, out))
                got = answers(out)
                if ref is None:
                    ref = got
                same[name] = same[name] and got == ref
        rows = [(name, best[name], a.count / best[name], same[name]) for name, _ in configs]
    base = rows[0][2]
    print(f"\n`durak batch solve`, {a.count} {a.family} positions (seeds {a.seed}+), "
          f"os.cpu_count() = {os.cpu_count()}, best of {a.repeat} round(s)\n")
    print("| configuration | wall s | positions/s | efficiency at 2 workers | same answers |")
    print("|---|---:|---:|---:|---|")
    for name, secs, rate, same in rows:
        eff = "" if name.startswith("1 ") else f"{rate / (2 * base):.0%}"
        print(f"| {name} | {secs:.2f} | {rate:.1f} | {eff} | {'yes' if same else 'NO'} |")
    print("\ncontrol, a pure CPU loop in 2 processes vs 1 (the machine's own efficiency at 2, "
          "per round): " + ", ".join(f"{c:.0%}" for c in controls))


if __name__ == "__main__":
    main()
