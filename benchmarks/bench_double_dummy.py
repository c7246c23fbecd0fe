"""Benchmark of double dummy (issue 71): two-player deals with every card seen
and the pile's order known, solved exactly from the pile down.

Families (fixed seeds): random deals of 6 v 6, attacker to lead, a known pile of
6, 12 or 24 cards (24: the whole deal of 36 cards, nothing discarded), the rest of
the deck discarded, half podkidnoy and half perevodnoy (transfers, R14).  Each
deal is valued for the attacker by ``Solver.value`` from a fresh table (the
question the hindsight review, the census and the hint engine ask), within a
per-deal budget; ``--solve`` times ``Solver.solve`` instead (the best moves too,
what `durak solve` prints).  Prints each family's median, its 90th and 95th
percentile (a deal the budget ended counts as the budget), the share within the
issue's targets, and how many were solved::

    python benchmarks/bench_double_dummy.py                       # piles 6 and 12
    python benchmarks/bench_double_dummy.py --family 6 --count 100
    python benchmarks/bench_double_dummy.py --family 24 --count 4 --max-time 600 --threads 2

Targets (issue 71, two cores shared, one thread): pile 6 median <= 50 ms and 95 %
within 1 s; pile 12 median <= 2 s and 90 % within 30 s; whole deals: how many of
50 are solved within 10 minutes each on two threads.  Not part of CI.
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import time

from solver.errors import BudgetExceeded
from solver.game.deal import deal_known_pile
from solver.game.rules import Rules
from solver.notation import format_position
from solver.search import Solver

RULE_SETS = {"podkidnoy": Rules(), "transfer": Rules(transfer=True)}
#: family (pile) -> (median target, (share, within seconds)), from issue 71
TARGETS = {6: (0.05, (0.95, 1.0)), 12: (2.0, (0.90, 30.0)), 24: (None, (None, 600.0))}
DEFAULT_BUDGET = {6: 10.0, 12: 30.0, 24: 600.0}
SEED = 7100


def deals(pile: int, count: int) -> list[tuple[str, object]]:
    """``count`` deals, alternately podkidnoy and perevodnoy, from fixed seeds."""
    out = []
    for i in range(count):
        name = "podkidnoy" if i % 2 == 0 else "transfer"
        rng = random.Random(SEED + 1000 * pile + i)
        out.append((name, deal_known_pile(rng, (6, 6), pile, RULE_SETS[name])))
    return out


def percentile(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, int(q * len(xs)))]


def run_family(pile: int, count: int, budget: float, threads: int, tt_mb: int,
               solve: bool, verbose: bool) -> dict:
    slv = Solver(tt_mb=tt_mb, threads=threads)
    rows = []
    for i, (name, s) in enumerate(deals(pile, count)):
        slv.clear()
        t0 = time.perf_counter()
        try:
            if solve:
                value = str(slv.solve(s, hero=s.attacker + 1, max_time=budget,
                                      distance=False, pv=False).value)
            else:
                value = str(slv.value(s, hero=s.attacker + 1, max_time=budget))
        except BudgetExceeded:
            value = None
        took = time.perf_counter() - t0
        rows.append({"deal": i, "rules": name, "value": value, "seconds": round(took, 4)})
        if verbose:
            print(f"  {pile:2d} #{i:<3d} {name:9s} {value or 'budget':5s} {took:8.3f} s  "
                  f"{format_position(s)}", flush=True)
    return summarise(pile, rows, budget)


def summarise(pile: int, rows: list[dict], budget: float) -> dict:
    times = [r["seconds"] if r["value"] is not None else budget for r in rows]
    median_target, (share_target, within) = TARGETS[pile]
    out = {"pile": pile, "deals": len(rows), "budget": budget,
           "solved": sum(r["value"] is not None for r in rows),
           "median": round(statistics.median(times), 4),
           "p90": round(percentile(times, 0.90), 4), "p95": round(percentile(times, 0.95), 4),
           "within": within,
           "share_within": round(sum(r["value"] is not None and r["seconds"] <= within
                                     for r in rows) / len(rows), 3),
           "by_rules": {}, "rows": rows}
    for name in RULE_SETS:
        ts = [t for t, r in zip(times, rows) if r["rules"] == name]
        if ts:
            out["by_rules"][name] = {"median": round(statistics.median(ts), 4),
                                     "solved": sum(r["value"] is not None for r in rows
                                                   if r["rules"] == name),
                                     "deals": len(ts)}
    out["median_target"] = median_target
    out["share_target"] = share_target
    return out


def report(f: dict) -> None:
    print(f"pile {f['pile']}: {f['solved']} of {f['deals']} solved within {f['budget']:g} s; "
          f"median {f['median']:.3f} s, p90 {f['p90']:.3f} s, p95 {f['p95']:.3f} s")
    if f["median_target"] is not None:
        met = "met" if f["median"] <= f["median_target"] else "NOT met"
        print(f"  median target <= {f['median_target']:g} s: {met}")
    if f["share_target"] is not None:
        met = "met" if f["share_within"] >= f["share_target"] else "NOT met"
        print(f"  within {f['within']:g} s: {100 * f['share_within']:.0f} % "
              f"(target {100 * f['share_target']:.0f} %): {met}")
    for name, b in f["by_rules"].items():
        print(f"  {name:9s} median {b['median']:.3f} s, {b['solved']} of {b['deals']} solved")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--family", type=int, action="append", choices=sorted(TARGETS),
                    help="pile size (repeatable; default 6 and 12)")
    ap.add_argument("--count", type=int, default=50, help="deals per family (half each rule set)")
    ap.add_argument("--max-time", type=float, default=None,
                    help="seconds per deal (default: 10 for pile 6, 30 for 12, 600 for 24)")
    ap.add_argument("--threads", type=int, default=1, choices=(1, 2))
    ap.add_argument("--tt-mb", type=int, default=512)
    ap.add_argument("--solve", action="store_true", help="time Solver.solve (best moves too)")
    ap.add_argument("--json", dest="json_file", default=None, help="write every row here")
    ap.add_argument("-v", "--verbose", action="store_true", help="one line per deal")
    args = ap.parse_args()
    results = []
    for pile in args.family or [6, 12]:
        budget = args.max_time or DEFAULT_BUDGET[pile]
        f = run_family(pile, args.count, budget, args.threads, args.tt_mb, args.solve,
                       args.verbose)
        report(f)
        results.append(f)
    if args.json_file:
        with open(args.json_file, "w") as fh:
            json.dump({"threads": args.threads, "solve": args.solve, "families": results}, fh,
                      indent=1)


if __name__ == "__main__":
    main()
