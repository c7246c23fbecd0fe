"""What the exact expectimax over the last draws costs on real positions.  Not part of CI.

Seeded two-player games are played by the greedy player to the first decision
with a choice at a pile of ``--pile`` cards or fewer (and at least 3: with 2 or
fewer the order is forced and the hint solves the deal exactly already); there
the deal as dealt (every card known, the pile's order kept only as a set) is
valued by ``core.chance_scores`` (``ext/chance.pxi``) within the budgets, and by
the exact solver with the deal's own pile order (``Solver.analyse``, what the
hint does at ``exact_pile``), for comparison.  The table gives, per position,
the seconds of each, whether the expectimax finished within its budgets, and
its counters (states inside the bouts, leaves proven, chance outcomes)::

    python benchmarks/bench_chance.py --games 10 --pile 4
"""
from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.policy.bots import greedy_move  # noqa: E402
from solver.errors import BudgetExceeded  # noqa: E402
from solver.game.deal import new_game  # noqa: E402
from solver.game.movegen import legal_moves, play  # noqa: E402
from solver.game.rules import parse_rules  # noqa: E402
from solver.search import Solver  # noqa: E402
from solver.search.native import core  # noqa: E402


def positions(games: int, pile: int, rules: str):
    for g in range(games * 4):
        s = new_game(2, parse_rules(rules), rng=random.Random(f"chance:{g}"))
        while not s.is_over and (s.pile > pile or len(legal_moves(s)) < 2):
            s = play(s, greedy_move(s))
        if not s.is_over and s.pile >= 3:
            yield g, s
            games -= 1
            if games == 0:
                return


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=10)
    ap.add_argument("--pile", type=int, default=4)
    ap.add_argument("--rules", default="")
    ap.add_argument("--leaf-nodes", type=int, default=500_000)
    ap.add_argument("--max-nodes", type=int, default=20_000_000)
    ap.add_argument("--max-time", type=float, default=20.0)
    args = ap.parse_args()
    print("| game | pile | expectimax s | finished | bout states | leaves | draws | "
          "exact with the deal's order, s |\n|---|---|---|---|---|---|---|---|")
    times, done = [], 0
    for g, s in positions(args.games, args.pile, args.rules):
        slv = Solver(tt_mb=64)
        t0 = time.perf_counter()
        vals, st = core.chance_scores(slv.core_state(s), s.to_move, args.leaf_nodes,
                                      args.max_nodes, args.max_time)
        dt = time.perf_counter() - t0
        times.append(dt)
        done += vals is not None
        t0 = time.perf_counter()
        try:
            Solver(tt_mb=64).analyse(s, s.to_move + 1, distance=False, pv=False,
                                     max_nodes=args.max_nodes)
            ex = f"{time.perf_counter() - t0:.3f}"
        except BudgetExceeded:
            ex = f"over {args.max_nodes:,} nodes"
        print(f"| {g} | {s.pile} | {dt:.3f} | {'yes' if vals is not None else 'no'} | "
              f"{st['bout_nodes']} | {st['leaves']} | {st['draws']} | {ex} |", flush=True)
    if times:
        print(f"\n{done} of {len(times)} finished; median {statistics.median(times):.3f} s a deal")


if __name__ == "__main__":
    main()
