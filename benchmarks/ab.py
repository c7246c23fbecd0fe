"""A/B of two revisions in one run: a match or a decision benchmark, paired.  Not part of CI.

Speed on the shared host moves 30-50% between days, so a figure measured
yesterday is no base for today's.  This harness builds the base revision
into its own git worktree (``/tmp/durak-ab/<commit>``, the compiled core
built in place there, once), starts one runner process per revision (each
imports its own ``solver`` package: ``PYTHONPATH`` is its tree), and gives
both the same work in the same order, so that whatever the host does hits
both alike:

* ``match``: the same seeded deals (``solver.play.match.play_match_game``: each
  deal from every seat), the two runners side by side, one core each.  A
  deal's score is A's mean over its seats (win 1, draw 1/2, loss 0); the
  report is each side's share of decided games with its Wilson interval,
  the paired difference of the deal scores with its 95% interval, and the
  paired ratio of A's seconds per decision (geometric mean of the per-deal
  ratios, 95% interval).
* ``bench``: the decisions of seat 1 along greedy games of fixed seeded
  deals (as ``bench_hint.py``), each timed in one revision then the other,
  the order alternating from decision to decision, one at a time; the
  report is the paired ratio head/base of the seconds (geometric mean of
  the per-decision ratios, 95% interval) and both medians.

The head is the working tree this script is in (``--head REV`` builds a
revision instead).  Policies are named per side: ``--a`` for the head,
``--base-a`` for the base (default: the same name), so a new policy can be
set against the base's default::

    python benchmarks/ab.py main match --a hint-learn --base-a hint --b greedy --games 400 --seed 101
    python benchmarks/ab.py main match --a hint-learn --b hint-uct --base-a hint --base-b hint --games 200
    python benchmarks/ab.py HEAD~3 bench --a hint --games 4
"""
from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import subprocess
import sys
import threading
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent.parent
CACHE = Path(os.environ.get("DURAK_AB_DIR", "/tmp/durak-ab"))
#: The commit each revision named on the command line was built from.
BUILT: dict[str, str] = {}
Z95 = 1.959964

#: What a runner runs: JSON jobs on stdin, one JSON answer per line on stdout.
RUNNER = r'''
import json, random, sys, time
from solver.play.match import MatchSpec, play_match_game, make_policy
from solver.game.rules import parse_rules
from solver.game.deal import new_game
from solver.game.movegen import legal_moves
from solver.policy.bots import greedy_move
from solver.hints.knowledge import PublicTracker

cache = {}
print(json.dumps({"ready": True}), flush=True)
for line in sys.stdin:
    job = json.loads(line)
    if job["op"] == "game":
        spec = MatchSpec(job["a"], job["b"], job["players"], parse_rules(job["rules"]),
                         job["seed"], job.get("hint_samples"), job.get("hint_time"))
        rec = play_match_game(spec, job["deal"], job["seat"])
        print(json.dumps({"result": rec.result, "decisions": rec.decisions["a"],
                          "seconds": rec.seconds["a"]}), flush=True)
    elif job["op"] == "decision":
        key = (job["players"], job["rules"], job["games"])
        if key not in cache:
            # the positions: seat 1's decisions along greedy games (replayed from the moves)
            seen = []
            for g in range(job["games"]):
                t = PublicTracker(new_game(job["players"], parse_rules(job["rules"]),
                                           rng=random.Random(f"bench:{job['players']}:{g}")))
                while not t.state.is_over and len(t.history) < 400:
                    s = t.state
                    if s.to_move == 0 and len(legal_moves(s)) > 1:
                        seen.append((g, len(t.history)))
                    t.play(greedy_move(s))
            cache[key] = seen
        g, ply = cache[key][job["index"]]
        t = PublicTracker(new_game(job["players"], parse_rules(job["rules"]),
                                   rng=random.Random(f"bench:{job['players']}:{g}")))
        for _ in range(ply):
            t.play(greedy_move(t.state))
        pol = make_policy(job["policy"], job.get("hint_samples"), job.get("hint_time"))
        rng = random.Random(f"ab:{job['index']}")
        from solver.play.match import choose_move
        t0 = time.perf_counter()
        mv = choose_move(pol, t, 0, rng)
        dt = time.perf_counter() - t0
        print(json.dumps({"seconds": dt, "move": str(mv), "count": len(cache[key])}), flush=True)
    else:
        print(json.dumps({"error": "unknown op"}), flush=True)
'''


def git(*args: str, cwd: Path = HERE) -> str:
    return subprocess.run(["git", *args], cwd=cwd, check=True, capture_output=True,
                          text=True).stdout.strip()


def build_tree(rev: str) -> Path:
    """A worktree of ``rev`` with its compiled core built in place (made once)."""
    sha = git("rev-parse", "--verify", f"{rev}^{{commit}}")
    BUILT[rev] = sha[:7]
    d = CACHE / sha[:12]
    if not (d / ".ab-built").exists():
        CACHE.mkdir(parents=True, exist_ok=True)
        if not d.exists():
            git("worktree", "add", "--detach", str(d), sha)
        print(f"ab: building {rev} ({sha[:12]}) in {d} ...", file=sys.stderr, flush=True)
        subprocess.run(["nice", "-n", "10", sys.executable, "setup.py", "build_ext", "--inplace"],
                       cwd=d, check=True, stdout=subprocess.DEVNULL)
        (d / ".ab-built").write_text(sha + "\n")
    return d


class Runner:
    """One revision's runner process: ``ask(job)`` sends a job and returns its answer."""

    def __init__(self, tree: Path, name: str):
        env = dict(os.environ, PYTHONPATH=str(tree))
        self.name = name
        self.p = subprocess.Popen([sys.executable, "-c", RUNNER], cwd=tree, env=env,
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
        self.ask_raw()

    def ask_raw(self) -> dict:
        line = self.p.stdout.readline()
        if not line:
            raise RuntimeError(f"ab: the {self.name} runner died")
        return json.loads(line)

    def ask(self, job: dict) -> dict:
        self.p.stdin.write(json.dumps(job) + "\n")
        self.p.stdin.flush()
        return self.ask_raw()

    def close(self) -> None:
        self.p.stdin.close()
        self.p.wait(timeout=30)


def mean_ci(xs: list[float]) -> tuple[float, float, float]:
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, m, m
    h = Z95 * statistics.stdev(xs) / math.sqrt(n)
    return m, m - h, m + h


def wilson(k: int, n: int) -> tuple[float, float]:
    if not n:
        return 0.0, 1.0
    p, z2 = k / n, Z95 * Z95
    c = (p + z2 / (2 * n)) / (1 + z2 / n)
    h = Z95 * math.sqrt(p * (1 - p) / n + z2 / (4 * n * n)) / (1 + z2 / n)
    return c - h, c + h


def ratio_ci(logs: list[float]) -> tuple[float, float, float]:
    m, lo, hi = mean_ci(logs)
    return math.exp(m), math.exp(lo), math.exp(hi)


def run_match(args: argparse.Namespace, head: Runner, base: Runner) -> dict:
    deals = math.ceil(args.games / args.players)
    common = {"op": "game", "players": args.players, "rules": args.rules,
              "seed": args.seed, "hint_samples": args.hint_samples, "hint_time": args.hint_time}
    out: dict[str, list] = {"head": [], "base": []}

    def play(r: Runner, side: str, a: str, b: str) -> None:
        for d in range(deals):
            out[side].append([r.ask(dict(common, a=a, b=b, deal=d, seat=s))
                              for s in range(args.players)])
            print(f"ab: {side} deal {d + 1}/{deals}", file=sys.stderr, flush=True)

    t0 = time.time()
    ths = [threading.Thread(target=play, args=(head, "head", args.a, args.b)),
           threading.Thread(target=play, args=(base, "base", args.base_a or args.a,
                                               args.base_b or args.b))]
    for t in ths:
        t.start()
    for t in ths:
        t.join()
    score = lambda r: 1.0 if r > 0 else 0.5 if r == 0 else 0.0  # noqa: E731
    diffs, logs = [], []
    for h, b in zip(out["head"], out["base"]):
        diffs.append(sum(score(g["result"]) for g in h) / len(h)
                     - sum(score(g["result"]) for g in b) / len(b))
        hd, bd = sum(g["decisions"] for g in h), sum(g["decisions"] for g in b)
        hs, bs = sum(g["seconds"] for g in h), sum(g["seconds"] for g in b)
        if hd and bd and hs > 0 and bs > 0:
            logs.append(math.log((hs / hd) / (bs / bd)))
    res: dict = {"kind": "match", "deals": deals, "games": deals * args.players,
                 "wall_seconds": round(time.time() - t0, 1)}
    for side in ("head", "base"):
        rs = [g["result"] for d in out[side] for g in d]
        w, lo = sum(r > 0 for r in rs), sum(r < 0 for r in rs)
        ci = wilson(w, w + lo)
        secs = sum(g["seconds"] for d in out[side] for g in d)
        dec = sum(g["decisions"] for d in out[side] for g in d)
        res[side] = {"wins": w, "draws": len(rs) - w - lo, "losses": lo,
                     "share_decided": round(w / (w + lo), 4) if w + lo else None,
                     "ci95": [round(ci[0], 4), round(ci[1], 4)],
                     "durak_rate": round(lo / len(rs), 4),
                     "seconds_per_decision": round(secs / dec, 4) if dec else None}
    m, lo, hi = mean_ci(diffs)
    res["score_difference"] = {"mean": round(m, 4), "ci95": [round(lo, 4), round(hi, 4)]}
    if logs:
        r, rlo, rhi = ratio_ci(logs)
        res["time_ratio"] = {"geomean": round(r, 3), "ci95": [round(rlo, 3), round(rhi, 3)]}
    return res


def run_bench(args: argparse.Namespace, head: Runner, base: Runner) -> dict:
    job = {"op": "decision", "players": args.players, "rules": args.rules, "games": args.games,
           "hint_samples": args.hint_samples, "hint_time": args.hint_time}
    first = head.ask(dict(job, policy=args.a, index=0))  # also tells how many positions
    n = first["count"] if args.positions is None else min(args.positions, first["count"])
    hs, bs, logs, same = [], [], [], 0
    for i in range(n):
        pair = [(head, args.a, hs), (base, args.base_a or args.a, bs)]
        if i % 2:
            pair.reverse()
        moves = []
        for r, pol, into in pair:
            ans = r.ask(dict(job, policy=pol, index=i))
            into.append(ans["seconds"])
            moves.append(ans["move"])
        same += moves[0] == moves[1]
        logs.append(math.log(hs[-1] / bs[-1]))
    r, lo, hi = ratio_ci(logs)
    return {"kind": "bench", "decisions": n, "same_move": same,
            "head_median": round(statistics.median(hs), 4),
            "base_median": round(statistics.median(bs), 4),
            "time_ratio": {"geomean": round(r, 3), "ci95": [round(lo, 3), round(hi, 3)]}}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("base", help="the base revision (a commit, branch or tag)")
    ap.add_argument("what", choices=("match", "bench"))
    ap.add_argument("--head", default=None, help="a revision for the head (default: this tree)")
    ap.add_argument("--a", default="hint", help="policy A in the head (match), or the timed policy")
    ap.add_argument("--base-a", default=None, help="policy A in the base (default: --a)")
    ap.add_argument("--b", default="greedy", help="policy B in the head (match)")
    ap.add_argument("--base-b", default=None, help="policy B in the base (default: --b)")
    ap.add_argument("--games", type=int, default=200,
                    help="match: games (whole deals); bench: greedy games whose decisions are timed")
    ap.add_argument("--positions", type=int, default=None, help="bench: at most this many")
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--rules", default="")
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--hint-samples", type=int, default=None)
    ap.add_argument("--hint-time", type=float, default=None)
    ap.add_argument("--json", action="store_true")
    args = ap.parse_args()
    base_tree = build_tree(args.base)
    head_tree = build_tree(args.head) if args.head else HERE
    head, base = Runner(head_tree, "head"), Runner(base_tree, "base")
    try:
        res = run_match(args, head, base) if args.what == "match" else run_bench(args, head, base)
    finally:
        head.close()
        base.close()
    res.update({"base_rev": BUILT[args.base],
                "head_rev": args.head or "working tree", "a": args.a,
                "base_a": args.base_a or args.a, "b": args.b, "base_b": args.base_b or args.b,
                "players": args.players,
                "rules": args.rules, "seed": args.seed})
    if args.json:
        print(json.dumps(res))
        return
    print(text(res))


def text(res: dict) -> str:
    """The answer for people."""
    head = f"head ({res['head_rev']}) {res['a']}"
    base = f"base ({res['base_rev']}) {res['base_a']}"
    lines = []
    if res["kind"] == "match":
        lines.append(f"{res['games']} games ({res['deals']} deals) against {res['b']} "
                     f"(base: {res.get('base_b', res['b'])}), "
                     f"{res['players']} players, {res['rules'] or 'podkidnoy'}, seed {res['seed']}, "
                     f"{res['wall_seconds']} s")
        for name, side in ((head, res["head"]), (base, res["base"])):
            lo, hi = side["ci95"]
            lines.append(f"{name}: won {side['wins']}, drew {side['draws']}, lost {side['losses']}: "
                         f"{side['share_decided']:.1%} of decided ({lo:.1%}-{hi:.1%}), "
                         f"{side['seconds_per_decision']} s per decision")
        d = res["score_difference"]
        lines.append(f"score difference head - base (paired by deal): {d['mean']:+.4f} "
                     f"(95% interval {d['ci95'][0]:+.4f} to {d['ci95'][1]:+.4f})")
    else:
        lines.append(f"{res['decisions']} decisions timed alternately; the same move in "
                     f"{res['same_move']}; medians: {head} {res['head_median']} s, "
                     f"{base} {res['base_median']} s")
    if "time_ratio" in res:
        r = res["time_ratio"]
        lines.append(f"time per decision head / base: {r['geomean']:.3f} "
                     f"(95% interval {r['ci95'][0]:.3f}-{r['ci95'][1]:.3f}; geometric mean of paired ratios)")
    return "\n".join(lines)


if __name__ == "__main__":
    main()
