"""Where more time goes: how often a bigger budget changes the hint engine's move.  Not CI.

A head-to-head match can only tell two budgets apart at the decisions where they
play different moves.  This benchmark asks the engine at each decision of fixed
games (seat 1 along greedy games of seeded deals, as ``bench_hint.py``: the seat's
knowledge with the facts, pile of at least ``--min-pile`` cards, where the engine
samples) at several budgets -- deals x iterations per deal -- and a reference
budget far above them, each on its own seed, and reports:

* how often each budget plays the reference's move, with a Wilson interval;
* how often the default budget (256 x 300) plays another move on another seed
  (the noise of the deals at the default);
* the processor seconds per decision of each budget.

If four times the deals moves the agreement with the reference from 80% to 90%, a
tenth of the decisions change -- at most that much can a match between the two
show::

    python benchmarks/budget_agreement.py --games 8 --out agreement.jsonl
"""
from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_hint import decisions  # noqa: E402
from solver.hints import HintConfig  # noqa: E402
from solver.hints.advise import hint_knowledge  # noqa: E402
from solver.hints.stats import wilson  # noqa: E402

#: (label, deals, iterations per deal); the first is the default, the last the reference.
BUDGETS = (("256x300", 256, 300), ("256x300 other seed", 256, 300), ("1024x300", 1024, 300),
           ("256x1200", 256, 1200), ("4096x300", 4096, 300))


def ask(k, deals: int, iters: int, seed: int) -> tuple[str, float, bool, dict[str, float]]:
    """The move, the processor seconds, whether it is a move as good as the top
    (within the noise) recommended over the top, and every move's chance (the hint's:
    of not being the durak, a draw counted half) in this budget's own table."""
    t0 = time.process_time()
    res = hint_knowledge(k, samples=deals, seed=seed, config=HintConfig(uct_iters=iters))
    chances = {m.move: round(m.chance, 4) for m in res.moves}
    return res.best, time.process_time() - t0, res.best != res.top, chances


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--games", type=int, default=8)
    ap.add_argument("--min-pile", type=int, default=3)
    ap.add_argument("--rules", default="")
    ap.add_argument("--out", required=True)
    ap.add_argument("--reference", default="4096x300",
                    help="the budget the others are compared with (a label of BUDGETS)")
    args = ap.parse_args()
    out = Path(args.out)
    done = sum(1 for _ in out.open()) if out.exists() else 0
    with out.open("a") as f:
        for i, k in enumerate(decisions(2, args.rules, args.games)):
            if k.view.pile < args.min_pile:
                continue
            if done:
                done -= 1
                continue
            row = {"pile": k.view.pile, "phase": int(k.view.phase)}
            for j, (label, deals, iters) in enumerate(BUDGETS):
                row[label] = ask(k, deals, iters, 1000 * i + j)
            f.write(json.dumps(row) + "\n")
            f.flush()
    rows = [json.loads(line) for line in out.open()]
    ref = args.reference
    print(f"{len(rows)} decisions (pile {args.min_pile}+), reference {ref}")
    print("| budget | plays the reference's move (95%) | plays the default's move | "
          "a move as good as the top kept over it | the reference's chance of its move "
          "minus of the default's, per decision | processor s per decision |"
          "\n|---|---|---|---|---|---|")
    for label, _, _ in BUDGETS:
        if label == ref:
            continue
        same = sum(1 for r in rows if r[label][0] == r[ref][0])
        dflt = sum(1 for r in rows if r[label][0] == r["256x300"][0])
        lo, hi = wilson(same, len(rows))
        cpu = sum(r[label][1] for r in rows) / len(rows)
        kept = sum(1 for r in rows if r[label][2])
        gain = sum(r[ref][3][r[label][0]] - r[ref][3][r["256x300"][0]] for r in rows) / len(rows)
        print(f"| {label} | {same / len(rows):.0%} ({lo:.0%}-{hi:.0%}) | "
              f"{dflt / len(rows):.0%} | {kept / len(rows):.0%} | {gain:+.4f} | {cpu:.3f} |")


if __name__ == "__main__":
    main()
