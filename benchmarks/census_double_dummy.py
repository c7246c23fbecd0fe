"""The double-dummy census (issue 71): how often the first attacker wins a dealt
game of Durak when both players see every card and the pile's order.

Each game is dealt from a fixed seed (two players, 36 cards, R5-R7), played to
its end by the greedy player in both seats (a realistic path through the deal),
then walked back from its end: every position between bouts (P1) is valued
exactly for the first attacker (R6) with every card and the pile's order seen
(``Solver.value``, one table for the whole walk), until a position is not solved
within what is left of the game's budget.  The value at the largest pile reached
is the game's entry.  A position reached is exact; past it nothing is guessed.

    python benchmarks/census_double_dummy.py --games 1000 -j 2 --out /tmp/census.json
    python benchmarks/census_double_dummy.py --games 20 --budget 1   # a quick look

Prints, per rule set and for the pile reached (bands), the share of games the
first attacker wins, draws and loses with every card seen (95 % Wilson
intervals), and writes every game's row to ``--out``.  Not part of CI.
"""
from __future__ import annotations

import argparse
import json
import math
import random
import sys
import time
from collections import Counter
from concurrent.futures import ProcessPoolExecutor

from solver.errors import BudgetExceeded
from solver.game.deal import new_game
from solver.game.movegen import legal_moves, play
from solver.game.rules import Rules
from solver.policy.bots import greedy_move
from solver.search import Solver

RULE_SETS = {"podkidnoy": Rules(), "transfer": Rules(transfer=True)}
SEED = 71000
#: pile bands of the table: the pile at the largest position reached
BANDS = [(0, 0, "0"), (1, 6, "1-6"), (7, 12, "7-12"), (13, 18, "13-18"), (19, 24, "19-24")]


def greedy_game(seed: int, rules: Rules) -> list:
    """The positions of one greedy-vs-greedy game, in order (R23: at most 2,000 plies)."""
    s = new_game(2, rules, seed=seed)
    path = [s]
    while not s.is_over and len(path) < 2000:
        mv = greedy_move(s)
        assert mv in legal_moves(s)
        s = play(s, mv)
        path.append(s)
    return path


def census_game(job: tuple[int, str, float, int]) -> dict:
    """One game's entry: the first attacker's double-dummy value at the largest
    pile reached within ``budget`` seconds, walking back from the game's end."""
    index, name, budget, tt_mb = job
    rules = RULE_SETS[name]
    path = greedy_game(SEED + index, rules)
    first = path[0].attacker
    leads = [s for s in path if not s.is_over and not s.table]  # between bouts (P1)
    slv = Solver(tt_mb=tt_mb)
    t0 = time.monotonic()
    reached = None
    for s in reversed(leads):
        left = budget - (time.monotonic() - t0)
        if left <= 0:
            break
        try:
            v = int(slv.value(s, hero=first + 1, max_time=left))
        except BudgetExceeded:
            break
        reached = (s.pile, v, len(path) - 1 - path[::-1].index(s))
    end = path[-1]
    greedy = end.final_outcome()[first] if end.is_over else 0
    row = {"game": index, "rules": name, "first_attacker": first + 1,
           "plies": len(path) - 1, "greedy_result": greedy,
           "seconds": round(time.monotonic() - t0, 3)}
    if reached is None:
        row.update(pile=None, value=None, ply=None)
    else:
        row.update(pile=reached[0], value=reached[1], ply=reached[2])
    row["start_pile"] = path[0].pile
    return row


def wilson(k: int, n: int) -> tuple[float, float]:
    if n == 0:
        return (0.0, 0.0)
    z = 1.96
    p = k / n
    d = 1 + z * z / n
    c = p + z * z / (2 * n)
    h = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (max(0.0, (c - h) / d), min(1.0, (c + h) / d))


def share(k: int, n: int) -> str:
    lo, hi = wilson(k, n)
    return f"{100 * k / n:.1f} % ({100 * lo:.1f}-{100 * hi:.1f})" if n else "-"


def table(rows: list[dict]) -> str:
    out = ["| rules | pile reached | games | first attacker wins | draws | loses |",
           "|---|---|---|---|---|---|"]
    for name in RULE_SETS:
        mine = [r for r in rows if r["rules"] == name and r["value"] is not None]
        groups = [("all", mine)] + [
            (label, [r for r in mine if lo <= r["pile"] <= hi]) for lo, hi, label in BANDS]
        for label, g in groups:
            if not g:
                continue
            c = Counter(r["value"] for r in g)
            out.append(f"| {name} | {label} | {len(g)} | {share(c[1], len(g))} | "
                       f"{share(c[0], len(g))} | {share(c[-1], len(g))} |")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=1000, help="games in all (half each rule set)")
    ap.add_argument("--budget", type=float, default=2.0, help="seconds per game's walk")
    ap.add_argument("--tt-mb", type=int, default=128)
    ap.add_argument("-j", "--workers", type=int, default=1)
    ap.add_argument("--out", default=None, help="write every game's row (JSON) here")
    args = ap.parse_args()
    jobs = [(i, "podkidnoy" if i % 2 == 0 else "transfer", args.budget, args.tt_mb)
            for i in range(args.games)]
    rows: list[dict] = []
    t0 = time.monotonic()
    with ProcessPoolExecutor(args.workers) as pool:
        for row in pool.map(census_game, jobs, chunksize=4):
            rows.append(row)
            if len(rows) % 50 == 0:
                print(f"  {len(rows)} games, {time.monotonic() - t0:.0f} s", file=sys.stderr,
                      flush=True)
    print(table(rows))
    unreached = sum(r["value"] is None for r in rows)
    piles = Counter(r["pile"] for r in rows if r["value"] is not None)
    print(f"\n{len(rows)} games, {unreached} with no position reached; budget {args.budget:g} s "
          f"a game; {time.monotonic() - t0:.0f} s wall")
    print("largest pile reached: " + ", ".join(f"{p}: {n}" for p, n in sorted(piles.items())))
    greedy = Counter(r["greedy_result"] for r in rows)
    print(f"the greedy games themselves: first attacker won {greedy[1]}, drew {greedy[0]}, "
          f"lost {greedy[-1]}")
    if args.out:
        with open(args.out, "w") as fh:
            json.dump({"budget": args.budget, "games": rows}, fh, indent=0)


if __name__ == "__main__":
    main()
