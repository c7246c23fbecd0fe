"""Benchmark of a hint decision as the hint bot of ``durak match`` makes it.  Not part of CI.

Fixed games (seeded deals, played by the greedy player in every seat, so
every build sees the same positions) are followed from the start; at each
decision of seat 1 with more than one legal move the hint engine is asked as
``HintPolicy.choose`` asks it: the seat's knowledge with the facts of the
asking of throwers (F2), the default number of deals, seeded.  The table
gives the seconds per decision (mean, median, 99th percentile), the share
spent dealing (the sampler alone, timed on the same knowledge), and how many
deals the facts ruled out.

    python benchmarks/bench_hint.py                      # 3 and 2 players, 8 games each
    python benchmarks/bench_hint.py --players 3 --games 20 --repeat 3

``--person`` measures instead what a person runs (issue 68): games of the hint engine
against the greedy player (seeded, the bots' budget), each cut at decision points of
either seat with cards in the pile -- every third one and every one right after a
take -- written as full game records, and ``durak hint --game RECORD --json`` run on
each as a user runs it (a new process: its start-up counted, its defaults, ``--seed``
fixed).  The table gives the seconds per hint (median, 90th percentile, most), the
share of positions whose recommended move's 95% interval is within +-5 points, the
median half-width, and how many recommendations lay more than 3 points below the
highest chance shown (the issue's target: none)::

    python benchmarks/bench_hint.py --person --games 12

With ``--repeat N`` each decision's time is the least of N identical runs
(the same seed, so the same deals and the same answer: checked), the
machine's noise being what the minimum removes (``timeit``'s rule).
"""
from __future__ import annotations

import argparse
import json
import random
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from solver.game.deal import new_game
from solver.game.movegen import legal_moves
from solver.game.moves import Kind
from solver.games import Game
from solver.game.rules import parse_rules
from solver.hints import default_samples
from solver.hints.advise import hint_knowledge
from solver.hints.knowledge import PublicTracker
from solver.hints.sampler import Sampler
from solver.play.match import HintPolicy, play_game
from solver.policy.bots import GreedyPolicy, greedy_move


def decisions(players: int, rules: str, games: int, seat: int = 0):
    """The knowledge (facts included) of ``seat`` at each of its decisions with a
    choice, along greedy games of the seeded deals ``bench:{players}:{g}``."""
    for g in range(games):
        t = PublicTracker(new_game(players, parse_rules(rules),
                                   rng=random.Random(f"bench:{players}:{g}")))
        while not t.state.is_over and len(t.history) < 400:
            s = t.state
            if s.to_move == seat and len(legal_moves(s)) > 1:
                yield t.knowledge(seat)  # with the facts (PublicTracker.knowledge)
            t.play(greedy_move(s))


def timed(fn, repeat: int):
    best, out = None, None
    for _ in range(repeat):
        t0 = time.perf_counter()
        r = fn()
        dt = time.perf_counter() - t0
        if out is not None:
            assert r == out, "a repeated hint differs"
        out = r
        best = dt if best is None else min(best, dt)
    return best, out


def run(players: int, rules: str, games: int, repeat: int) -> dict:
    samples = default_samples(players)
    secs, deal_secs, rejected, facts = [], [], 0, 0
    for i, k in enumerate(decisions(players, rules, games)):
        seed = 1000 + i
        dt, _ = timed(lambda: hint_knowledge(k, samples=samples, seed=seed).best, repeat)
        secs.append(dt)

        def deal():
            sp = Sampler(k)
            sp.deals(samples, random.Random(seed))
            return sp.rejected

        ddt, rej = timed(deal, repeat)
        deal_secs.append(ddt)
        rejected += rej
        facts += len(k.facts)
    n = len(secs)
    srt = sorted(secs)
    return {"family": f"{players}p{' ' + rules if rules else ''}", "games": games, "decisions": n,
            "mean": statistics.mean(secs), "median": statistics.median(secs),
            "p99": srt[min(n - 1, int(0.99 * n))], "dealing": sum(deal_secs) / sum(secs),
            "deal_ms": 1000 * statistics.mean(deal_secs), "facts": facts / n,
            "rejected": rejected / n}


def person_records(games: int, seed: int, tmp: Path) -> list[Path]:
    """Full records of hint-vs-greedy games cut at decision points (see the module's
    docstring), each seen by the seat to move."""
    out = []
    for g in range(games):
        start = new_game(2, parse_rules(""), rng=random.Random(f"person:{seed}:{g}"))
        pols = [HintPolicy(), GreedyPolicy()] if g % 2 == 0 else [GreedyPolicy(), HintPolicy()]
        _res, moves, *_ = play_game(pols, start, [random.Random(g), random.Random(g + 1)])
        t = PublicTracker(start)
        took = False
        for i, mv in enumerate(moves):
            s = t.state
            if s.pile and len(legal_moves(s)) > 1 and (took or i % 3 == 0):
                path = tmp / f"g{g:03d}-m{i:03d}.txt"
                path.write_text(Game.from_play(start, moves[:i], me=s.to_move + 1).format())
                out.append(path)
            took = mv.kind is Kind.TAKE
            t.play(mv)
    return out


def run_person(games: int, seed: int, extra: list[str]) -> dict:
    """``durak hint --game`` on each cut record, as a user runs it."""
    secs, halves, below = [], [], 0
    with tempfile.TemporaryDirectory() as d:
        records = person_records(games, seed, Path(d))
        for n, path in enumerate(records):
            t0 = time.perf_counter()
            r = subprocess.run([sys.executable, "-m", "solver.cli", "hint", "--game", str(path),
                                "--seed", str(n), "--json", *extra],
                               capture_output=True, text=True, check=True)
            secs.append(time.perf_counter() - t0)
            ans = json.loads(r.stdout)
            by = {m["move"]: m for m in ans["moves"]}
            lo, hi = by[ans["best"]]["chance_ci95"]
            halves.append((hi - lo) / 2)
            top = max(m["chance"] for m in ans["moves"])
            below += by[ans["best"]]["chance"] < top - 0.03
            print(f"\r{n + 1}/{len(records)} hints", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    srt = sorted(secs)
    n = len(secs)
    return {"positions": n, "median": statistics.median(secs),
            "p90": srt[min(n - 1, int(0.9 * n))], "max": srt[-1],
            "within5": sum(h <= 0.05 for h in halves) / n,
            "half_median": statistics.median(halves), "below3": below}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--person", action="store_true",
                    help="durak hint --game at its defaults on cut records, as a user runs it")
    ap.add_argument("--seed", type=int, default=68)
    ap.add_argument("--hint-args", default="",
                    help="more options for durak hint under --person (e.g. '--workers 2')")
    ap.add_argument("--players", type=int, action="append")
    ap.add_argument("--rules", default="")
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=1)
    a = ap.parse_args()
    if a.person:
        r = run_person(a.games, a.seed, a.hint_args.split())
        print("| positions | s median | s p90 | s max | interval within +-5 points | median "
              "half-width | recommended > 3 points below the best |")
        print("|---|---|---|---|---|---|---|")
        print(f"| {r['positions']} | {r['median']:.2f} | {r['p90']:.2f} | {r['max']:.2f} "
              f"| {r['within5']:.0%} | {100 * r['half_median']:.1f} points | {r['below3']} |")
        return
    print("| family | games | decisions | s mean | s median | s p99 | dealing ms (share) "
          "| facts per decision | deals ruled out per decision |")
    print("|---|---|---|---|---|---|---|---|---|")
    for p in a.players or [3, 2]:
        r = run(p, a.rules, a.games, a.repeat)
        print(f"| {r['family']} | {r['games']} | {r['decisions']} | {r['mean']:.4f} "
              f"| {r['median']:.4f} | {r['p99']:.3f} | {r['deal_ms']:.1f} ({r['dealing']:.0%}) "
              f"| {r['facts']:.1f} | {r['rejected']:.0f} |", flush=True)


if __name__ == "__main__":
    main()
