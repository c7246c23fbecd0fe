"""Benchmarks of the endgames players meet with 3-4 players, and of the anytime answer (issue 54).

Not part of CI.  Families (fixed seeds): the moment the pile empties, every
seat still holding what it drew -- three players 4-4-3, 5-5-5 and 6-6-6,
four players 4-4-4-4 and 5-5-5-5 -- a random seat to lead, the hero the seat
to move (``--heroes all``: every seat in turn), the rule options mixed in
(position i takes ``RULES[i % len(RULES)]``: plain podkidnoy, transfers,
transfers by showing a trump, throwing in by neighbours only,
``first_out_wins``, a 52-card deck; with four players also ``teams=2v2``).

Per family, three measurements of each position, each from a cleared table:

* **exact**: ``analyse`` as `durak analyse` runs it (``Solver.analyse``, two
  threads on two cores unless ``--threads``), capped at ``--max-time``
  (default 10 s): the share answered exactly within 1 s and within the cap;
* **anytime**: the answer of `durak analyse --max-time T` (``analyse_answer``,
  ``--anytime`` T, default 2 s): the time until it names a move (the
  recommended one, or an exact answer's best), the share that name one, and
  the slowest;
* **estimate**: where the exact answer is known, the estimate alone
  (``Solver.estimate`` against the coalition, nothing proven given, for
  ``--estimate-time`` seconds, default 0.5): how often its first move is one
  the exact solver proves best, over every such position and over the
  non-trivial ones (where not every move is best); and how often the
  anytime answer's recommended move is best.

    python benchmarks/bench_multi.py --family 3p555
    python benchmarks/bench_multi.py --family 3p443 --family 4p4444 --count 30
    python benchmarks/bench_multi.py --family 3p555 --heroes all --per-position
    python benchmarks/bench_multi.py --nontrivial 30 --heroes all --max-time 2

``--nontrivial N`` measures the estimate alone where it can go wrong: N
positions per family whose exact answer is known and where not every move is
best, beside the chance a random move would have.
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from solver.answers.commands import analyse_answer
from solver.cli.common import cores_for_one
from solver.errors import BudgetExceeded
from solver.game.deal import deal_endgame
from solver.game.rules import Rules
from solver.game.state import GameState
from solver.search import Solver
from solver.search.result import on_hero_side

FAMILIES = {
    "3p443": [4, 4, 3], "3p555": [5, 5, 5], "3p666": [6, 6, 6],
    "4p4444": [4, 4, 4, 4], "4p5555": [5, 5, 5, 5],
}
RULES = [Rules(), Rules(transfer=True), Rules(throw_in_neighbours=True),
         Rules(first_out_wins=True), Rules(transfer=True, transfer_by_trump_show=True),
         Rules(transfer=True, first_out_wins=True),
         Rules(deck=52, transfer=True, throw_in_neighbours=True)]
RULES_4 = RULES + [Rules(teams=True), Rules(teams=True, transfer=True)]


def positions(name: str, count: int) -> list[GameState]:
    """The family's first ``count`` positions (the same for any count)."""
    sizes = FAMILIES[name]
    rules = RULES if len(sizes) == 3 else RULES_4
    rng = random.Random(f"durak-multi-{name}")
    return [deal_endgame(rng, sizes, rules[i % len(rules)], attacker=rng.randrange(len(sizes)))
            for i in range(count)]


def cases(name: str, count: int, heroes: str) -> list[tuple[GameState, int]]:
    """(position, 1-based hero): the seat to move, or every seat."""
    out = []
    for s in positions(name, count):
        seats = range(1, s.players + 1) if heroes == "all" else [s.to_move + 1]
        out += [(s, h) for h in seats]
    return out


def exact(solver: Solver, state: GameState, hero: int, cap: float):
    """``analyse`` from a cleared table: (exact, seconds, answer or partial)."""
    solver.clear()
    t0 = time.perf_counter()
    try:
        r = solver.analyse(state, hero, max_time=cap)
        ok = True
    except BudgetExceeded as e:
        r, ok = e.partial, False
    return ok, time.perf_counter() - t0, r


def best_set(r) -> set[str]:
    """The moves an exact ``analyse`` answer proves best (every move of the value)."""
    return {m.move for m in r.moves if m.value == r.value}


def run(name: str, count: int, cap: float, anytime: float, est_time: float, threads: int,
        heroes: str) -> dict:
    solver = Solver(64, threads=threads)
    rows = []
    for state, hero in cases(name, count, heroes):
        ok, t, r = exact(solver, state, hero, cap)
        solver.clear()
        t0 = time.perf_counter()
        ans = analyse_answer(state, hero, max_time=anytime, solver=solver)
        t_any = time.perf_counter() - t0
        res = ans.result
        named = res.recommended or (res.best[0] if res.best else None)
        row = {"exact": ok, "t": t, "value": r.value, "t_any": t_any, "named": named,
               "by": res.recommended_by or ("proof" if res.best else None),
               "any_exact": ans.exact, "est_first": None, "trivial": None, "rec_best": None}
        if ok:
            best = best_set(r)
            row["trivial"] = len(best) == len(r.moves)
            row["rec_best"] = named in best
            solver.clear()
            est = solver.estimate(state, hero, max_time=est_time, seed=1)
            row["est_first"] = est.moves[0].move in best
            row["est_iters"] = est.iterations
            row["mine"] = on_hero_side(state, hero - 1, state.to_move)
        rows.append(row)
    n = len(rows)
    known = [x for x in rows if x["exact"]]
    hard = [x for x in known if not x["trivial"]]
    return {
        "family": name, "n": n,
        "exact1": sum(1 for x in rows if x["exact"] and x["t"] <= 1.0),
        "exact10": sum(1 for x in rows if x["exact"] and x["t"] <= cap),
        "exact_med": statistics.median(x["t"] for x in rows),
        "named": sum(1 for x in rows if x["named"]),
        "any_med": statistics.median(x["t_any"] for x in rows),
        "any_max": max(x["t_any"] for x in rows),
        "by_estimate": sum(1 for x in rows if x["by"] == "estimate"),
        "known": len(known), "est_ok": sum(1 for x in known if x["est_first"]),
        "hard": len(hard), "est_hard_ok": sum(1 for x in hard if x["est_first"]),
        "rec_ok": sum(1 for x in known if x["rec_best"]),
        "iters_med": statistics.median(x["est_iters"] for x in known) if known else 0,
        "rows": rows,
    }


def nontrivial(name: str, want: int, cap: float, est_time: float, threads: int,
               heroes: str) -> dict:
    """The estimate on positions where it can go wrong: the family's positions
    (in order, the same for any ``want``) whose exact answer is known within
    ``cap`` and where not every move is best for the seat to move; until
    ``want`` are found (or 40 times as many were looked at)."""
    solver = Solver(64, threads=threads)
    seen = found = ok = 0
    margins = []
    for state, hero in cases(name, want * 40, heroes):
        seen += 1
        done, _, r = exact(solver, state, hero, cap)
        if not done:
            continue
        best = best_set(r)
        if len(best) == len(r.moves):
            continue
        solver.clear()
        est = solver.estimate(state, hero, max_time=est_time, seed=1)
        found += 1
        ok += est.moves[0].move in best
        margins.append(len(best) / len(r.moves))
        if found == want:
            break
    return {"family": name, "seen": seen, "found": found, "ok": ok,
            "share_best": statistics.mean(margins) if margins else 0.0}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--family", action="append", choices=sorted(FAMILIES))
    ap.add_argument("--count", type=int, default=20)
    ap.add_argument("--max-time", type=float, default=10.0, help="the exact analyse's cap, s")
    ap.add_argument("--anytime", type=float, default=2.0,
                    help="the anytime answer's budget, s (durak analyse --max-time)")
    ap.add_argument("--estimate-time", type=float, default=0.5,
                    help="the estimate alone, s (its first move against the exact answer)")
    ap.add_argument("--threads", type=int, choices=(1, 2), default=cores_for_one())
    ap.add_argument("--heroes", choices=("mover", "all"), default="mover")
    ap.add_argument("--per-position", action="store_true")
    ap.add_argument("--nontrivial", type=int, default=0, metavar="N",
                    help="only the estimate, on N positions per family where not every "
                         "move is best (the exact answer known within --max-time)")
    a = ap.parse_args()
    if a.nontrivial:
        print(f"threads: {a.threads}; exact cap {a.max_time:g} s; estimate alone "
              f"{a.estimate_time:g} s; heroes: {a.heroes}")
        print("| family | positions looked at | non-trivial found | estimate's first move "
              "proven best | a random move's chance (mean share of best moves) |")
        print("|---|---|---|---|---|")
        for f in a.family or list(FAMILIES):
            r = nontrivial(f, a.nontrivial, a.max_time, a.estimate_time, a.threads, a.heroes)
            print(f"| {f} | {r['seen']} | {r['found']} | {r['ok']}/{r['found']} | "
                  f"{r['share_best']:.0%} |", flush=True)
        return
    print(f"threads: {a.threads}; exact cap {a.max_time:g} s; anytime budget {a.anytime:g} s; "
          f"estimate alone {a.estimate_time:g} s; heroes: {a.heroes}")
    print("| family | n | exact ≤ 1 s | exact ≤ cap | exact median s | move named | "
          "anytime median s | anytime max s | recommended by the estimate | "
          "estimate's first move best (all known) | (non-trivial) | recommended best | "
          "estimate playouts (median) |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    results = []
    for f in a.family or list(FAMILIES):
        r = run(f, a.count, a.max_time, a.anytime, a.estimate_time, a.threads, a.heroes)
        results.append(r)
        print(f"| {f} | {r['n']} | {r['exact1']} | {r['exact10']} | {r['exact_med']:.2f} | "
              f"{r['named']}/{r['n']} | {r['any_med']:.2f} | {r['any_max']:.2f} | "
              f"{r['by_estimate']} | {r['est_ok']}/{r['known']} | "
              f"{r['est_hard_ok']}/{r['hard']} | {r['rec_ok']}/{r['known']} | "
              f"{r['iters_med']:,.0f} |", flush=True)
    if a.per_position:
        for r in results:
            print()
            print(f"{r['family']}: per position")
            print("| # | exact s | value | anytime s | named | by | estimate first best | "
                  "trivial |")
            print("|---|---|---|---|---|---|---|---|")
            for i, x in enumerate(r["rows"]):
                v = x["value"].text if x["value"] is not None else "-"
                print(f"| {i} | {x['t']:.2f}{'' if x['exact'] else '*'} | {v} | "
                      f"{x['t_any']:.2f} | {x['named']} | {x['by']} | {x['est_first']} | "
                      f"{x['trivial']} |")


if __name__ == "__main__":
    main()
