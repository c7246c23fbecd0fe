"""The hint's ranking by chance against the engine before it, head to head.  Not part of CI.

Issue 68 changed how the hint engine recommends a move: the highest chance of
not being the durak, or a move as good within the noise (the greedy player's
kept among those), with the deals dealt in proportion to the facts' likelihood
instead of weighed by it.  This plays ``hint`` (today's default) against
``hint-utility`` (the engine before: the highest utility, the greedy move kept
within one standard error, the deals weighed) on seat-swapped seeded deals at
the bots' budget, into a resumable game file (``benchmarks/match_log.py``), and
reports A's share of the decided games with its Wilson 95% interval, the
paired deal scores, and Wald's sequential test between A's expected score
``S0`` (inferior) and ``S1`` (level) over the deals in order::

    python benchmarks/ranking_match.py --games 1200 --seed 6801 --workers 2 \\
        --file /tmp/ranking-6801.jsonl

The result is in docs/lab/hint-chance.md.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from match_log import games_in, play, spec_of, sprt_state  # noqa: E402

from solver.play.sprt import Sprt  # noqa: E402


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--a", default="hint")
    ap.add_argument("--b", default="hint-utility")
    ap.add_argument("--games", type=int, default=1200)
    ap.add_argument("--seed", type=int, default=6801)
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--rules", default="")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--file", type=Path, required=True)
    ap.add_argument("--sprt", default="0.46,0.50", help="S0,S1 of the sequential test")
    args = ap.parse_args()
    spec = spec_of(args.a, args.b, args.seed, args.players, args.rules)
    res = play(spec, args.games, args.file, workers=args.workers)
    obj = res.to_json()
    s0, s1 = (float(x) for x in args.sprt.split(","))
    test = sprt_state(spec, games_in(spec, args.file), Sprt(s0, s1))
    keys = ("games", "wins", "draws", "losses", "win_rate_decided", "ci95_decided",
            "mean_seconds")
    out = {k: obj[k] for k in keys if k in obj}
    out["sprt"] = {"s0": s0, "s1": s1, "decision": test.decision, "deals": test.deals,
                   "llr": round(test.llr(), 3)}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
