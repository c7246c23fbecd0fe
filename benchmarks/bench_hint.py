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

With ``--repeat N`` each decision's time is the least of N identical runs
(the same seed, so the same deals and the same answer: checked), the
machine's noise being what the minimum removes (``timeit``'s rule).
"""
from __future__ import annotations

import argparse
import random
import statistics
import time

from solver.game.deal import new_game
from solver.game.movegen import legal_moves
from solver.game.rules import parse_rules
from solver.hints import default_samples
from solver.hints.advise import hint_knowledge
from solver.hints.knowledge import PublicTracker
from solver.hints.sampler import Sampler
from solver.policy.bots import greedy_move


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


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--players", type=int, action="append")
    ap.add_argument("--rules", default="")
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--repeat", type=int, default=1)
    a = ap.parse_args()
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
