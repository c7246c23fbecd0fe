"""The census of the hint engine's decisive mistakes: where its lost games are lost.  Not CI.

Three steps, each resumable, each writing JSON lines as it goes:

``play``: seat-swapped games of the default engine (A, ``hint``) against an
opponent (B: ``greedy``, or the engine itself at a stronger budget such as
``hint@1024``), the games of ``durak match --a hint --b B --seed S``, into a
game file (``benchmarks/match_log.py``)::

    python benchmarks/census.py play --b greedy --games 1000 --seed 6201 --out census/greedy.jsonl

``review``: every game A lost, replayed move by move.  At each of A's decisions
(a choice of two moves or more) the engine is asked again exactly as it was in
the game (the same knowledge, facts and seed: the move it played comes back, which
is checked), so its own table is at hand: the chance it gave its move, with the
interval.  The game is then reviewed with the project's review
(``solver.games.review``): exact where every card is known to A (the pile
empty), else the hint A could have asked, at ``--samples`` deals (four times the
engine's, a second and stronger opinion on other deals).  The decision after which
the game was lost (``Review.lost_after``: the last where a move kept an even chance
and the move played fell below it for good) is the game's *decisive* decision.
For it the engine is asked again on ``--reasks`` fresh seeds: how often it plays
the same move says whether the mistake was noise (more deals would change it) or
the evaluation's own view (more deals would not).  Where the pile holds at most
``--clair-pile`` cards every A decision is also valued with every card and the
pile order seen (``Solver.value``, a node budget): whether the game was already
lost before the pile was small, which no review of A's view can tell::

    python benchmarks/census.py review census/greedy.jsonl --out census/greedy-review.jsonl

``table``: the decisive decisions by phase (pile size), by the situation (lead,
defend, throw-in, after a take) and the move (lead, cover, take, transfer,
throw-in, pass), by kind (the move played against the review's best: took where
a cover was best, threw in a trump, led a dearer card...) and by how sure the
engine was, with Wilson intervals, as markdown (docs/lab/strength.md)::

    python benchmarks/census.py table census/greedy-review.jsonl census/strong-review.jsonl
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

import solver.play.match as match_mod  # noqa: E402
from match_log import games_in, play, read, spec_of  # noqa: E402
from solver.policy.bots import card_cost  # noqa: E402
from solver.errors import BudgetExceeded  # noqa: E402
from solver.game.cards import suit_of  # noqa: E402
from solver.game.movegen import legal_moves  # noqa: E402
from solver.game.moves import Kind, Move  # noqa: E402
from solver.game.state import GameState, Phase  # noqa: E402
from solver.games.review import review  # noqa: E402
from solver.hints import hint_knowledge  # noqa: E402
from solver.hints.knowledge import PublicTracker  # noqa: E402
from solver.hints.stats import wilson  # noqa: E402
from solver.play.match import choose_move, deal_of, game_record, make_policy  # noqa: E402
from solver.search import Solver  # noqa: E402

#: Pile-size buckets of the tables (cards still to draw): the endgame, the last
#: bout before it, the last few draws, the middle game, the opening.
#: A decision whose loss of chance (the review's) is at least this is a mistake of
#: the table ("inaccuracy" or worse, solver.games.review.LABELS), re-asked.
REASK_LOSS = 0.05
PILE_BUCKETS = ((0, 0, "0"), (1, 2, "1-2"), (3, 6, "3-6"), (7, 12, "7-12"), (13, 99, "13+"))
SITUATIONS = {Phase.LEAD: "lead", Phase.DEFEND: "defend", Phase.THROW: "throw-in",
              Phase.TAKEN: "after a take"}
MOVE_NAMES = {Kind.LEAD: "lead", Kind.COVER: "cover", Kind.TAKE: "take",
              Kind.TRANSFER: "transfer", Kind.SHOW: "transfer", Kind.THROW: "throw-in",
              Kind.PASS: "pass", Kind.SWAP: "swap"}


def pile_bucket(pile: int) -> str:
    return next(name for lo, hi, name in PILE_BUCKETS if lo <= pile <= hi)


def _trumps(move: Move, trump: int) -> int:
    return sum(1 for c in move.cards if suit_of(c) == trump)


def kind_of(state: GameState, played: Move, best: Move) -> str:
    """What the move played did where the best move did otherwise, in a player's words."""
    p, b = MOVE_NAMES[played.kind], MOVE_NAMES[best.kind]
    if p != b:
        verbs = {"take": "took", "cover": "covered", "transfer": "transferred",
                 "throw-in": "threw in", "pass": "passed", "lead": "led"}
        article = {"cover": "a cover", "take": "a take", "transfer": "a transfer",
                   "throw-in": "a throw-in", "pass": "a pass", "lead": "a lead"}
        return f"{verbs.get(p, p)} where {article.get(b, b)} was best"
    trump = state.trump
    tp, tb = _trumps(played, trump), _trumps(best, trump)
    verb = {"lead": "led", "cover": "covered with", "throw-in": "threw in",
            "transfer": "transferred with"}.get(p, p)
    if tp > tb:
        return f"{verb} a trump where a plain card was best"
    if tp < tb:
        return f"{verb} a plain card where a trump was best"
    if len(played.cards) != len(best.cards):
        more = "more" if len(played.cards) > len(best.cards) else "fewer"
        return f"{verb} {more} cards than best"
    cp = sum(card_cost(c, trump) for c in played.cards)
    cb = sum(card_cost(c, trump) for c in best.cards)
    if cp > cb:
        return f"{verb} a dearer card (kept a cheaper one)"
    if cp < cb:
        return f"{verb} a cheaper card (kept a dearer one)"
    return f"{verb} another card of the same cost"


# ---------------------------------------------------------------- the engine's answers
class _Recorder:
    """Stands in for ``solver.play.match.hint_knowledge`` while a game is replayed: the
    same call, its knowledge and answer kept (the hint bot's own path, untouched)."""

    def __init__(self) -> None:
        self.calls: list[tuple[Any, dict[str, Any], Any]] = []

    def __call__(self, k: Any, **kw: Any) -> Any:
        res = hint_knowledge(k, **kw)
        self.calls.append((k, kw, res))
        return res


def engine_side(spec: Any, rec: Any, side: str) -> tuple[str, str, int, int]:
    """The engine reviewed on ``side`` (``a``, or ``b`` of a two-player match): its
    policy, its opponent's, its seat (0-based) and its result."""
    if side == "a":
        return spec.a, spec.b, rec.seat_a, rec.result
    return spec.b, spec.a, 1 - rec.seat_a, -rec.result


def engine_answers(spec: Any, rec: Any, side: str = "a"
                   ) -> dict[int, tuple[Any, dict[str, Any], Any]]:
    """The engine's hint at each of its decisions with a choice, by the record's move
    index (0-based), exactly as in the game (the same seeds): (knowledge, call, answer)."""
    name, _, seat, _ = engine_side(spec, rec, side)
    start = deal_of(spec, rec.deal)
    policy = make_policy(name, spec.hint_samples, spec.hint_time)
    rng = random.Random(f"policy:{spec.seed}:{rec.deal}:{rec.seat_a}:{seat}")
    t = PublicTracker(start)
    out = {}
    recorder = _Recorder()
    saved = match_mod.hint_knowledge
    match_mod.hint_knowledge = recorder  # type: ignore[assignment]
    try:
        for i, text in enumerate(rec.moves):
            s = t.state
            move = Move.parse(text, s.rules.deck)
            if s.to_move == seat and len(legal_moves(s)) > 1:
                got = choose_move(policy, t, seat, rng)
                if got != move:
                    raise SystemExit(f"deal {rec.deal} seat {seat + 1} move {i + 1}: the "
                                     f"engine now plays {got}, the game has {move} (not the same "
                                     "build?)")
                out[i] = recorder.calls[-1]
            t.play(move)
    finally:
        match_mod.hint_knowledge = saved
    return out


def _chance(h: Any) -> float:
    return h.win + h.draw / 2


def engine_view(res: Any, played: str, best: str | None) -> dict[str, Any]:
    """The engine's table at a decision: its move's chance with the interval of its
    score (as a chance), and the same for the review's best move."""
    by = {m.move: m for m in res.moves}

    def one(name: str | None) -> dict[str, Any] | None:
        if name is None or name not in by:
            return None
        m = by[name]
        lo, hi = m.score_ci95
        return {"move": name, "chance": round(_chance(m), 4),
                "ci": [round((lo + 1) / 2, 4), round((hi + 1) / 2, 4)],
                "rank": res.moves.index(m) + 1}

    return {"played": one(played), "review_best": one(best), "samples": res.samples,
            "exact": res.kind == "exact",
            "choice": res.choice.to_json() if res.choice else None,
            "moves": len(res.moves)}


def clairvoyant(states: list[GameState], moves: list[Move], seat: int, idx: list[int],
                max_pile: int, nodes: int, slv: Solver) -> dict[int, list[int | None]]:
    """For each of A's decisions at a pile of at most ``max_pile``: the exact value
    for A (1 win, 0 draw, -1 loss, None past the budget) of the whole state, every
    card and the pile order seen, before the move and after it."""
    out: dict[int, list[int | None]] = {}

    def val(st: GameState) -> int | None:
        if st.is_over:
            o = st.final_outcome()[seat]
            return 1 if o > 0 else 0 if o == 0 else -1
        try:
            return int(slv.value(st, seat + 1, max_nodes=nodes))
        except BudgetExceeded:
            return None

    for i in idx:
        if states[i].pile <= max_pile:
            out[i] = [val(states[i]), val(states[i + 1])]
    return out


def review_game(spec: Any, rec: Any, samples: int, reasks: int, clair_pile: int,
                clair_nodes: int, slv: Solver, side: str = "a") -> dict[str, Any]:
    """Everything the table needs about one lost game (see the module docstring)."""
    t0 = time.perf_counter()
    name, other, seat, result = engine_side(spec, rec, side)
    game = game_record(spec, rec)
    states = game.positions()
    moves = [m for _, m in game.moves]
    answers = engine_answers(spec, rec, side)
    rv = review(game, seat=seat + 1, samples=samples, seed=7 + rec.deal)
    by_number = {d.number: d for d in rv.decisions}
    clair = clairvoyant(states, moves, seat, sorted(answers), clair_pile, clair_nodes, slv)
    lost = rv.lost_after
    decisions = []
    for i, (k, kw, res) in sorted(answers.items()):
        st = states[i]
        d = by_number.get(i + 1)
        row: dict[str, Any] = {
            "ply": i + 1, "pile": st.pile, "situation": SITUATIONS[st.phase],
            "played": str(moves[i]), "move": MOVE_NAMES[moves[i].kind],
            "hand": bin(st.hands[seat]).count("1"),
            "other_hand": bin(st.hands[1 - seat]).count("1"),
        }
        if d is not None:
            row["review"] = {"best": d.best, "played_chance": d.played_chance,
                             "best_chance": d.best_chance, "label": d.label, "exact": d.exact,
                             "deals": d.deals}
            if d.best != str(moves[i]) and d.label not in ("best", "unclear"):
                row["kind"] = kind_of(st, moves[i], Move.parse(d.best, st.rules.deck))
        row["engine"] = engine_view(res, str(moves[i]), d.best if d is not None else None)
        if i in clair:
            row["clair"] = clair[i]
        if lost is not None and d is lost:
            row["decisive"] = True
        loss = d.loss if d is not None else None
        if row.get("decisive") or (loss is not None and loss >= REASK_LOSS):
            same = 0
            for r in range(reasks):
                again = hint_knowledge(k, **{**kw, "seed": 1_000_003 * (r + 1) + i})
                same += again.best == str(moves[i])
            row["reasks"] = [same, reasks]
        decisions.append(row)
    return {"engine": name, "opponent": other, "side": side, "seed": spec.seed,
            "rules": spec.rules.names(), "deal": rec.deal, "seat": seat + 1, "result": result,
            "decisions": decisions, "lost_after": lost.number if lost is not None else None,
            "review_samples": rv.samples, "seconds": round(time.perf_counter() - t0, 1)}


def cmd_calibrate(args: argparse.Namespace) -> None:
    """A's own estimate at each of its decisions against how the game ended, for the
    first ``--games`` games of a game file (won, drawn and lost alike)."""
    src = Path(args.games)
    spec = _header_spec(src)
    out = Path(args.out)
    done = {(o["deal"], o["seat"]) for o in read(out)}
    recs = [r for r in sorted(games_in(spec, src).values(), key=lambda r: (r.deal, r.seat_a))
            if (r.deal, r.seat_a + 1) not in done][:max(0, args.limit - len(done))]
    with out.open("a") as f:
        for n, rec in enumerate(recs, 1):
            answers = engine_answers(spec, rec)
            states = game_record(spec, rec).positions()
            rows = []
            for i, (_, _, res) in sorted(answers.items()):
                top = res.moves[0]
                rows.append({"ply": i + 1, "pile": states[i].pile,
                             "score": round(top.score, 4), "chance": round(_chance(top), 4),
                             "exact": res.kind == "exact", "deals": res.samples})
            f.write(json.dumps({"deal": rec.deal, "seat": rec.seat_a + 1, "result": rec.result,
                                "decisions": rows}) + "\n")
            f.flush()
            print(f"\r{out.name}: {n}/{len(recs)} games", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)


def calibration(path: str) -> str:
    """Per pile bucket and band of A's estimate (its mean score as a chance, (score+1)/2):
    the decisions, the mean estimate, the games' mean points for A (win 1, draw 1/2)
    with a 95% interval over the games."""
    import math
    cells: dict[tuple[str, int], list[tuple[float, float, int]]] = {}
    for g in read(Path(path)):
        pts = 1.0 if g["result"] > 0 else 0.5 if g["result"] == 0 else 0.0
        for r in g["decisions"]:
            c = (r["score"] + 1) / 2
            band = min(4, int(c * 5))
            cells.setdefault((pile_bucket(r["pile"]), band), []).append((c, pts, g["deal"]))
    out = ["| pile | A's estimate (mean score as a chance) | decisions | mean estimate | "
           "A's points at the end (95%) | estimate minus points |", "|---|---|---|---|---|---|"]
    for _, _, b in PILE_BUCKETS:
        for band in range(5):
            xs = cells.get((b, band))
            if not xs:
                continue
            n = len(xs)
            est = sum(x[0] for x in xs) / n
            pts = sum(x[1] for x in xs) / n
            sd = math.sqrt(sum((x[1] - pts) ** 2 for x in xs) / max(1, n - 1))
            half = 1.96 * sd / math.sqrt(n)  # decisions of one game are correlated: optimistic
            out.append(f"| {b} | {band / 5:.1f}-{(band + 1) / 5:.1f} | {n} | {est:.3f} | "
                       f"{pts:.3f} ({max(0, pts - half):.3f}-{min(1, pts + half):.3f}) | "
                       f"{est - pts:+.3f} |")
    return "\n".join(out)


def cmd_play(args: argparse.Namespace) -> None:
    spec = spec_of(args.a, args.b, args.seed, 2, args.rules)
    res = play(spec, args.games, Path(args.out), args.workers)
    j = res.to_json()
    print(json.dumps({k: j[k] for k in ("a", "b", "rules", "seed", "games", "wins", "draws",
                                        "losses", "win_rate_decided", "ci95_decided",
                                        "cpu_seconds_per_decision")}))


def _header_spec(path: Path) -> Any:
    for obj in read(path):
        if "header" in obj:
            h = obj["header"]
            return spec_of(h["a"], h["b"], h["seed"], h["players"], ",".join(h["rules"]))
    raise SystemExit(f"{path}: no header line (not a game file of census.py play)")


def cmd_review(args: argparse.Namespace) -> None:
    src = Path(args.games)
    spec = _header_spec(src)
    out = Path(args.out)
    done = {(o["deal"], o["seat"]) for o in read(out)}
    lost = [r for r in sorted(games_in(spec, src).values(), key=lambda r: (r.deal, r.seat_a))
            if engine_side(spec, r, args.side)[3] < 0
            and (r.deal, engine_side(spec, r, args.side)[2] + 1) not in done]
    if args.limit:
        lost = lost[:args.limit]
    slv = Solver(tt_mb=64)
    with out.open("a") as f:
        for n, rec in enumerate(lost, 1):
            row = review_game(spec, rec, args.samples, args.reasks, args.clair_pile,
                              args.clair_nodes, slv, args.side)
            f.write(json.dumps(row) + "\n")
            f.flush()
            print(f"\r{out.name}: {n}/{len(lost)} lost games reviewed", end="", file=sys.stderr,
                  flush=True)
    print(file=sys.stderr)


# ---------------------------------------------------------------- the table
def _share(k: int, n: int) -> str:
    if not n:
        return "-"
    lo, hi = wilson(k, n)
    return f"{k / n:.0%} ({lo:.0%}-{hi:.0%})"


def _rows(counter: Counter, n: int, order: list[str] | None = None) -> list[str]:
    keys = order if order is not None else [k for k, _ in counter.most_common()]
    return [f"| {k} | {counter[k]} | {_share(counter[k], n)} |" for k in keys if counter[k]]


def _judged(r: dict[str, Any]) -> dict[str, Any] | None:
    """The review of a decision when it judged it (a chance for both moves, a label)."""
    rv = r.get("review")
    if not rv or rv["played_chance"] is None or rv["best_chance"] is None \
            or rv["label"] == "unclear":
        return None
    return rv


def _loss(r: dict[str, Any]) -> float:
    rv = _judged(r)
    return max(0.0, rv["best_chance"] - rv["played_chance"]) if rv else 0.0


def fate(g: dict[str, Any]) -> tuple[str, dict[str, Any] | None]:
    """How a lost game was lost, by the review of A's decisions: ``decisive`` (a move
    of A dropped the chance below one half for good: the review's ``lost_after``),
    ``fell`` (A's moves kept an even chance, and it fell between A's decisions: the
    opponent's moves or the draws did it, so the estimate before was wrong or the
    cards were unlucky), or ``hopeless`` (no move ever had an even chance).  With
    the decision concerned (for ``fell``: the last that kept an even chance)."""
    rows = [r for r in g["decisions"] if _judged(r)]
    dec = [r for r in g["decisions"] if r.get("decisive")]
    if dec:
        return "decisive", dec[0]
    even = [r for r in rows if _judged(r)["played_chance"] >= 0.5]  # type: ignore[index]
    if even:
        return "fell", even[-1]
    return "hopeless", None


def sureness(r: dict[str, Any]) -> str:
    """How sure the engine was of a move: re-asked on fresh deals at its own budget,
    how often it played it again."""
    same, n = r.get("reasks", [0, 0])
    if not n:
        return "not re-asked"
    if same == n:
        return f"the same move on all {n} re-asks"
    if same == 0:
        return f"another move on all {n} re-asks"
    return f"the same move on {same} of {n} re-asks"


def _inside(r: dict[str, Any]) -> bool | None:
    """Whether the review's best move's chance, in the engine's own table, lies inside
    the interval of the engine's chance of the move it played."""
    e = r.get("engine", {})
    best, played = e.get("review_best"), e.get("played")
    if not best or not played:
        return None
    lo, hi = played["ci"]
    return lo <= best["chance"] <= hi


def _breakdown(rows: list[dict[str, Any]], title: str) -> list[str]:
    n = len(rows)
    out = [f"{title}: {n}.\n"]
    if not n:
        return out
    pb: Counter = Counter(pile_bucket(r["pile"]) for r in rows)
    out.append("| pile | decisions | share (95%) |\n|---|---|---|")
    out += _rows(pb, n, [b[2] for b in PILE_BUCKETS])
    out.append("")
    sit: Counter = Counter(f"{r['situation']}: {r['move']}" for r in rows)
    out.append("| situation: move played | decisions | share (95%) |\n|---|---|---|")
    out += _rows(sit, n)
    out.append("")
    kinds: Counter = Counter(r.get("kind", "the review's best move") for r in rows)
    out.append("| kind (the move played against the review's best) | decisions | share (95%) |"
               "\n|---|---|---|")
    out += _rows(kinds, n)
    out.append("")
    sure: Counter = Counter(sureness(r) for r in rows)
    out.append("| how sure the engine was (the move re-asked on fresh deals) | decisions "
               "| share (95%) |\n|---|---|---|")
    out += _rows(sure, n)
    inside = sum(1 for r in rows if _inside(r))
    known = sum(1 for r in rows if _inside(r) is not None)
    out.append("")
    out.append(f"The review's best move inside the 95% interval of the engine's own chance of "
               f"the move it played: {inside} of {known} ({_share(inside, known)}).\n")
    return out


def table(paths: list[str]) -> str:
    out = []
    for p in paths:
        games = [o for o in read(Path(p))]
        if not games:
            continue
        g0 = games[0]
        rules = ",".join(g0["rules"]) or "podkidnoy"
        n = len(games)
        fates = [fate(g) for g in games]
        kinds = Counter(f for f, _ in fates)
        out.append(f"### `{g0.get('engine', g0.get('a'))}` against `{g0.get('opponent', g0.get('b'))}`, {rules}, seed {g0['seed']}: "
                   f"{n} lost games reviewed\n")
        out.append("| how the game was lost (the review of A's decisions) | games | share (95%) |"
                   "\n|---|---|---|")
        names = {"decisive": "a decisive move of A (the chance fell below 1/2 with it, for good)",
                 "fell": "A's moves kept an even chance; it fell between A's decisions",
                 "hopeless": "no move of A ever had an even chance"}
        out += [f"| {names[k]} | {kinds[k]} | {_share(kinds[k], n)} |"
                for k in ("decisive", "fell", "hopeless")]
        out.append("")
        fell = [r for f, r in fates if f == "fell" and r is not None]
        if fell:
            pb: Counter = Counter(pile_bucket(r["pile"]) for r in fell)
            out.append("Where the chance fell between A's decisions (the pile at A's last "
                       "decision that kept an even chance):\n")
            out.append("| pile | games | share (95%) |\n|---|---|---|")
            out += _rows(pb, len(fell), [b[2] for b in PILE_BUCKETS])
            out.append("")
        clair = []
        for g in games:
            small = [r for r in g["decisions"] if "clair" in r and r["clair"][0] is not None]
            if small:
                clair.append(small)
        if clair:
            early = sum(1 for c in clair if c[0]["clair"][0] < 0)
            dropped = [r for c in clair for r in c
                       if r["clair"][1] is not None and r["clair"][1] < r["clair"][0]]
            out.append(f"With every card and the pile order seen (`Solver.value`), at A's first "
                       f"decision with a pile of 6 or less: already lost in {early} of "
                       f"{len(clair)} games ({_share(early, len(clair))}); A's own moves turned "
                       f"a won or drawn position worse {len(dropped)} times (piles "
                       f"{', '.join(str(r['pile']) for r in dropped) or '-'}) -- not all "
                       f"mistakes: A cannot see the pile's order.\n")
        out += _breakdown([r for f, r in fates if f == "decisive" and r is not None],
                          "The decisive decisions")
        mistakes = [r for g in games for r in g["decisions"] if _loss(r) >= REASK_LOSS]
        out += _breakdown(mistakes, f"Every decision of A in these games that lost at least "
                          f"{REASK_LOSS:g} of chance by the review (an inaccuracy or worse)")
        lost: Counter = Counter()
        count: Counter = Counter()
        for g in games:
            for r in g["decisions"]:
                if _judged(r):
                    b = pile_bucket(r["pile"])
                    lost[b] += _loss(r)
                    count[b] += 1
        if count:
            total = sum(lost.values()) or 1.0
            out.append("| pile | A's decisions judged | mean loss of chance per decision | "
                       "share of all the chance A's moves lost |\n|---|---|---|---|")
            for _, _, b in PILE_BUCKETS:
                if count[b]:
                    out.append(f"| {b} | {count[b]} | {lost[b] / count[b]:.3f} | "
                               f"{lost[b] / total:.0%} |")
            out.append("")
    return "\n".join(out)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    sub = ap.add_subparsers(dest="cmd", required=True)
    p = sub.add_parser("play", help="play the games (resumable)")
    p.add_argument("--a", default="hint")
    p.add_argument("--b", default="greedy")
    p.add_argument("--games", type=int, default=1000)
    p.add_argument("--seed", type=int, required=True)
    p.add_argument("--rules", default="")
    p.add_argument("--workers", type=int, default=1)
    p.add_argument("--out", required=True)
    r = sub.add_parser("review", help="review the lost games (resumable)")
    r.add_argument("games")
    r.add_argument("--out", required=True)
    r.add_argument("--samples", type=int, default=1024,
                   help="deals of the review's estimates (default 1024, four times the engine's)")
    r.add_argument("--reasks", type=int, default=4)
    r.add_argument("--clair-pile", type=int, default=6)
    r.add_argument("--clair-nodes", type=int, default=2_000_000)
    r.add_argument("--limit", type=int, default=0)
    r.add_argument("--side", choices=("a", "b"), default="a",
                   help="the engine reviewed: A, or B (the default engine as B against a "
                        "stronger budget, as in the time curve's games)")
    c = sub.add_parser("calibrate", help="A's estimates against the games' ends (resumable)")
    c.add_argument("games")
    c.add_argument("--out", required=True)
    c.add_argument("--limit", type=int, default=200, help="games (default 200)")
    k = sub.add_parser("calibration", help="the markdown table of a calibrate file")
    k.add_argument("file")
    t = sub.add_parser("table", help="the markdown tables")
    t.add_argument("reviews", nargs="+")
    args = ap.parse_args()
    if args.cmd == "play":
        cmd_play(args)
    elif args.cmd == "review":
        cmd_review(args)
    elif args.cmd == "calibrate":
        cmd_calibrate(args)
    elif args.cmd == "calibration":
        print(calibration(args.file))
    else:
        print(table(args.reviews))


if __name__ == "__main__":
    main()
