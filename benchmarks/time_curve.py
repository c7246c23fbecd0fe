"""The time curve: the hint engine at several budgets, against the default and against greedy.

Not part of CI.  Each budget is a fixed amount of work -- deals per decision and
tree-search iterations per deal, the policy ``hint@DEALSxITERATIONS`` of
``durak match`` -- not seconds, because seconds measured on the shared machine
stretch with its load.  Each level is calibrated to seconds by the processor time
its decisions take (``cpu`` in the game files: other processes do not stretch it
as they stretch the wall time), reported beside the wall seconds.

Every level plays the same seeded deals: head to head against the default
(``hint``) on seed ``--seed``, and against greedy on seed ``--seed + 1``, so two
levels' rows against greedy are paired deal by deal (``solver.play.match.paired``,
what ``durak compare`` prints), and a head-to-head row is a paired comparison in
itself (both engines play both seats of every deal).  Games go into one file per
run (``benchmarks/match_log.py``): a stopped run resumes where it stopped::

    python benchmarks/time_curve.py play --level 4x=hint@1024 --games 100 --against hint --out curve/
    python benchmarks/time_curve.py table curve/

The table gives, per level and opponent: A's wins, draws and losses, its share of
the decided games with a Wilson interval, its mean score per deal with a 95%
interval over the deals (each deal played from both seats), against greedy the
paired difference from the default's score on the same deals, and the mean
processor seconds per decision of A (and the median wall seconds) and of B.
"""
from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from match_log import load, play, read, spec_of  # noqa: E402
from solver.play.match import deal_score, paired  # noqa: E402
from solver.play.sprt import parse_sprt  # noqa: E402

Z95 = 1.959964


def run_path(out: Path, level: str, against: str, seed: int, rules: str) -> Path:
    tag = rules.replace(",", "+") or "podkidnoy"
    return out / f"{level}-vs-{against}-{tag}-{seed}.jsonl"


def cmd_play(args: argparse.Namespace) -> None:
    label, _, policy = args.level.partition("=")
    if not policy:
        raise SystemExit("--level: LABEL=POLICY, e.g. 4x=hint@1024")
    seed = args.seed + (1 if args.against == "greedy" else 0)
    spec = spec_of(policy, args.against, seed, 2, args.rules)
    sprt = parse_sprt(args.sprt) if args.sprt else None
    res = play(spec, args.games, run_path(Path(args.out), label, args.against, seed, args.rules),
               args.workers, sprt=sprt)
    out = row(label, res.to_json(), res)
    if res.sprt is not None:
        out["sprt"] = res.sprt.to_json()
    print(json.dumps(out))


def deal_interval(res: Any) -> tuple[float, float, float]:
    """A's mean score per deal (win 1, draw 1/2) and its 95% normal interval over the deals."""
    by: dict[int, list] = {}
    for g in res.games:
        by.setdefault(g.deal, []).append(g)
    xs = [deal_score(gs) for gs in by.values() if len(gs) == res.spec.players]
    n = len(xs)
    if n < 2:
        return (xs[0] if xs else 0.0), 0.0, 1.0
    m = sum(xs) / n
    sd = math.sqrt(sum((x - m) ** 2 for x in xs) / (n - 1))
    return m, m - Z95 * sd / math.sqrt(n), m + Z95 * sd / math.sqrt(n)


def row(label: str, j: dict[str, Any], res: Any) -> dict[str, Any]:
    m, lo, hi = deal_interval(res)
    return {"level": label, "a": j["a"], "b": j["b"], "rules": j["rules"], "seed": j["seed"],
            "games": j["games"], "wins": j["wins"], "draws": j["draws"], "losses": j["losses"],
            "share": j["win_rate_decided"], "ci": j["ci95_decided"],
            "score": round(m, 4), "score_ci": [round(lo, 4), round(hi, 4)],
            "cpu": j["cpu_seconds_per_decision"]["a"], "cpu_b": j["cpu_seconds_per_decision"]["b"],
            "wall_median": j["seconds_per_decision_median"]["a"]}


def cmd_table(args: argparse.Namespace) -> None:
    runs = []
    for path in sorted(Path(args.out).glob("*.jsonl")):
        head = next((o["header"] for o in read(path) if "header" in o), None)
        if head is None:
            continue
        spec = spec_of(head["a"], head["b"], head["seed"], head["players"],
                       ",".join(head["rules"]))
        res = load(spec, path)
        if not res.games:
            continue
        label = path.name.split("-vs-")[0]
        runs.append((label, spec, res))
    # the default's run against greedy on each seed and rules: the pair for the others
    base = {(s.seed, tuple(s.rules.names())): r.to_json() for lab, s, r in runs
            if s.a == "hint" and s.b == "greedy"}
    print("| level | A | B | rules | games | A won / drew / lost | A's share of decided (95%) "
          "| A's score per deal (95%) | paired with the default on the same deals "
          "| A's s per decision: processor mean / wall median | B's processor mean |")
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for label, spec, res in sorted(runs, key=lambda t: (t[1].b, t[2].to_json()
                                                          ["cpu_seconds_per_decision"]["a"])):
        j = res.to_json()
        r = row(label, j, res)
        pair = "-"
        b = base.get((spec.seed, tuple(spec.rules.names())))
        if spec.b == "greedy" and b is not None and spec.a != "hint":
            p = paired(j, b)
            pair = (f"{p['score_difference']:+.3f} ({p['ci95'][0]:+.3f} to {p['ci95'][1]:+.3f}),"
                    f" {p['deals']} deals")
        rules = ",".join(r["rules"]) or "podkidnoy"
        lo, hi = r["ci"]
        print(f"| {label} | `{r['a']}` | `{r['b']}` | {rules} | {r['games']} | "
              f"{r['wins']} / {r['draws']} / {r['losses']} | {r['share']:.1%} "
              f"({lo:.1%}-{hi:.1%}) | {r['score']:.3f} ({r['score_ci'][0]:.3f}-"
              f"{r['score_ci'][1]:.3f}) | {pair} | {r['cpu']:.3f} / {r['wall_median']} | "
              f"{r['cpu_b']:.3f} |")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("play", help="play one level against one opponent (resumable)")
    p.add_argument("--level", required=True, help="LABEL=POLICY, e.g. 4x=hint@1024")
    p.add_argument("--against", default="hint", help="hint (the default) or greedy")
    p.add_argument("--games", type=int, default=100)
    p.add_argument("--seed", type=int, default=6211,
                   help="the head-to-head seed; against greedy seed + 1")
    p.add_argument("--rules", default="")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--sprt", default=None, metavar="S0,S1",
                   help="stop once the sequential test (alpha = beta = 5%%) decides, as "
                        "durak match --sprt; --games is then the most it plays")
    p.add_argument("--out", required=True)
    t = sub.add_parser("table", help="the markdown table of every run in a folder")
    t.add_argument("out")
    args = ap.parse_args()
    cmd_play(args) if args.cmd == "play" else cmd_table(args)


if __name__ == "__main__":
    main()
