"""The value-only search against a plain C alpha-beta baseline (issue 13).  Not part of CI.

Issue 13's target: the value alone (``Solver.value``'s path) at least 10x the
speed of a plain C alpha-beta + transposition-table solver of the same rules
on the same 8 v 8 positions in one run.  The baseline is
``benchmarks/baseline/alphabeta.c`` (2 players, pile empty, default rules:
no transfer); this script compiles it with ``cc -O2`` (``$CC`` if set) into a
temporary directory and keeps it running as a subprocess.

Each position (``bench_solver.positions``: the same fixed seeds) is solved by
the baseline and then by the core's value search (``bench_solver.solve_one``:
a cleared 64 MiB table, the two boolean searches), back to back, so the
machine's noise hits both alike.  The two values must agree on every position
the baseline finishes (exit 1 otherwise: a bug in the baseline, since the
core is cross-checked against the pure-Python oracle).  A position the
baseline does not finish within ``--max-time`` counts as the cap and is
reported.  Node counts are printed but do not compare: one baseline node is
one call of its search, the core counts its own nodes of two boolean searches
over canonical states.

    python benchmarks/bench_baseline.py                 # 8 v 8, 30 positions
    python benchmarks/bench_baseline.py --family 6v6    # a quick look
    python benchmarks/bench_baseline.py --count 10 --max-time 10 --verbose
    python benchmarks/bench_baseline.py --threads 2     # the core as `durak solve` runs it
"""
from __future__ import annotations

import argparse
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

from bench_solver import FAMILIES, positions, solve_one

from solver.game.state import Phase
from solver.search.driver import CoreBackend

SOURCE = Path(__file__).resolve().parent / "baseline" / "alphabeta.c"
#: The families the baseline can play: two players, default rules.
BASELINE_FAMILIES = sorted(f for f, (sizes, transfer) in FAMILIES.items()
                           if len(sizes) == 2 and not transfer)
WORDS = {"win": 1, "draw": 0, "loss": -1}


def compiler() -> str | None:
    """The C compiler to use: ``$CC``, else ``cc``, ``gcc`` or ``clang`` on the path."""
    for name in (os.environ.get("CC"), "cc", "gcc", "clang"):
        if name and shutil.which(name):
            return name
    return None


def compile_baseline(directory: str) -> str:
    """Build ``alphabeta.c`` with ``-O2`` into ``directory``; the executable's path."""
    cc = compiler()
    if cc is None:
        raise RuntimeError("no C compiler found (set CC)")
    exe = os.path.join(directory, "alphabeta")
    subprocess.run([cc, "-O2", "-o", exe, str(SOURCE)], check=True)
    return exe


def position_line(state) -> str:
    """The baseline's input line: trump, the two hands as hex masks, the attacker."""
    if state.players != 2 or state.rules.any_transfer or state.phase is not Phase.LEAD:
        raise ValueError("the baseline plays 2-player default-rules positions at a lead")
    if state.pile or any(state.hidden):
        raise ValueError("the baseline needs the pile empty and every card known")
    return f"{state.trump} {state.hands[0]:x} {state.hands[1]:x} {state.attacker}\n"


class Baseline:
    """The compiled baseline as a running process: one position in, one answer out."""

    def __init__(self, exe: str, max_time: float, tt_bits: int = 20):
        self.proc = subprocess.Popen([exe, str(max_time), str(tt_bits)], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, text=True)

    def solve(self, state) -> tuple[int | None, int, float]:
        """(value for the seat to move, or None past the cap; nodes; seconds)."""
        self.proc.stdin.write(position_line(state))
        self.proc.stdin.flush()
        reply = self.proc.stdout.readline().split()
        if len(reply) != 3:
            raise RuntimeError(f"the baseline answered {reply!r}")
        return WORDS.get(reply[0]), int(reply[1]), float(reply[2])

    def close(self) -> None:
        self.proc.stdin.close()
        self.proc.wait()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def run(family: str, count: int, max_time: float, tt_mb: int, tt_bits: int,
        verbose: bool = False, threads: int = 1) -> dict:
    """Both searches on every position of ``family``, back to back; the
    core's on ``threads`` threads (2: the two provers at once past a few
    thousand nodes, as `durak solve` runs on two cores)."""
    backend = CoreBackend(tt_mb, threads)
    rows = []
    with tempfile.TemporaryDirectory() as tmp, \
            Baseline(compile_baseline(tmp), max_time, tt_bits) as base:
        for i, s in enumerate(positions(family, count)):
            bv, bn, bt = base.solve(s)
            cv, ct, cn, _ = solve_one(backend, s, max_time)
            bt = max_time if bv is None else bt
            rows.append((bv, bn, bt, cv, cn, ct))
            if verbose:
                print(f"{i:3d}  baseline {bv!s:>4} {bn:>11,} nodes {bt:8.4f} s   "
                      f"core {cv!s:>4} {cn:>10,} nodes {ct:8.4f} s   {bt / ct:7.1f}x",
                      file=sys.stderr, flush=True)
    disagree = [i for i, r in enumerate(rows)
                if r[0] is not None and r[3] is not None and r[0] != r[3]]
    bt = [r[2] for r in rows]
    ct = [r[5] for r in rows]
    return {
        "family": family, "n": count,
        "base_med": statistics.median(bt), "core_med": statistics.median(ct),
        "base_total": sum(bt), "core_total": sum(ct),
        "base_max": max(bt), "core_max": max(ct),
        "ratio_med": statistics.median(b / max(c, 1e-9) for b, c in zip(bt, ct)),
        "capped": [i for i, r in enumerate(rows) if r[0] is None],
        "core_unsolved": [i for i, r in enumerate(rows) if r[3] is None],
        "disagree": disagree,
        "both": sum(1 for r in rows if r[0] is not None and r[3] is not None),
        "base_nodes": int(statistics.median(r[1] for r in rows)),
        "core_nodes": int(statistics.median(r[4] for r in rows)),
    }


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--family", default="8v8", choices=BASELINE_FAMILIES)
    ap.add_argument("--count", type=int, default=30)
    ap.add_argument("--max-time", type=float, default=30.0,
                    help="per position, seconds (the baseline's cap; the core's too)")
    ap.add_argument("--tt-mb", type=int, default=64, help="the core's table")
    ap.add_argument("--tt-bits", type=int, default=20,
                    help="the baseline's table: 2**N entries of 48 bytes (20: 48 MiB)")
    ap.add_argument("--verbose", action="store_true", help="one line per position on stderr")
    ap.add_argument("--threads", type=int, choices=(1, 2), default=1,
                    help="the core's threads (default 1, like the baseline; 2: as `durak "
                         "solve` runs on two cores)")
    a = ap.parse_args()
    r = run(a.family, a.count, a.max_time, a.tt_mb, a.tt_bits, a.verbose, a.threads)
    print(f"core threads: {a.threads}")
    print("| family | n | baseline median s | value median s | ratio of medians | "
          "baseline total s | value total s | ratio of totals | baseline max s | value max s | "
          "baseline capped | median ratio per position | median nodes baseline / value |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    print(f"| {r['family']} | {r['n']} | {r['base_med']:.4f} | {r['core_med']:.4f} | "
          f"{r['base_med'] / r['core_med']:.1f} | {r['base_total']:.3f} | "
          f"{r['core_total']:.3f} | {r['base_total'] / r['core_total']:.1f} | "
          f"{r['base_max']:.3f} | {r['core_max']:.3f} | {len(r['capped'])} | {r['ratio_med']:.1f} | "
          f"{r['base_nodes']:,} / {r['core_nodes']:,} |")
    if r["capped"]:
        print(f"baseline past the {a.max_time:g} s cap (counted as the cap): "
              f"positions {r['capped']}")
    if r["core_unsolved"]:
        print(f"value search past the cap: positions {r['core_unsolved']}")
    print("node counts do not compare: a baseline node is one call of its alpha-beta, "
          "the core counts the nodes of its two boolean searches over canonical states")
    if r["disagree"]:
        print(f"VALUES DISAGREE on positions {r['disagree']}: a bug in the baseline")
        sys.exit(1)
    print(f"values agree on all {r['both']} positions both finished")


if __name__ == "__main__":
    main()
