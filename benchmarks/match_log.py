"""Matches played into a file of games, one JSON line per game, resumable.  Not part of CI.

The long benchmarks (the census, the time curve) play thousands of games that
take hours on the shared two-core machine; a run stopped half-way must keep
what it played.  ``play(spec, games, path)`` plays the games of ``durak match``
(``solver.play.match.play_match_game``: the same seeded deals, the same policies'
random numbers, so the same games as ``durak match --seed``) that ``path``
does not hold yet and appends each as one line the moment it is played
(whole lines only: a line cut by a kill is dropped on the next read).
``load(spec, path)`` gives a ``solver.play.match.MatchResult`` of the games in the
file, whose ``to_json()`` is a ``durak match --json`` answer that
``durak compare`` (``solver.play.match.paired``) reads.

Each line holds the game's moves, so a lost game can be replayed and reviewed
(``benchmarks/census.py``), and the processor seconds of each side
(``cpu``): the work of a decision, which other processes on a busy machine
do not stretch as they stretch its wall time.
"""
from __future__ import annotations

import json
import os
import sys
from dataclasses import asdict
from pathlib import Path
from typing import Any, Iterator

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from solver.run.executor import Executor  # noqa: E402
from solver.game.rules import parse_rules  # noqa: E402
from solver.play.match import (GameRecord, MatchResult, MatchSpec, deal_score,  # noqa: E402
                          play_match_game)
from solver.play.sprt import Sprt, SprtState  # noqa: E402


def spec_of(a: str, b: str, seed: int, players: int = 2, rules: str = "") -> MatchSpec:
    """The match of ``durak match --a A --b B --seed SEED --players P --rules R``."""
    return MatchSpec(a=a, b=b, players=players, rules=parse_rules(rules), seed=seed)


def _header(spec: MatchSpec) -> dict[str, Any]:
    return {"a": spec.a, "b": spec.b, "players": spec.players, "rules": spec.rules.names(),
            "seed": spec.seed}


def read(path: Path) -> Iterator[dict[str, Any]]:
    """The whole lines of a game file (a line cut short by a kill is skipped)."""
    if not path.exists():
        return
    with path.open() as f:
        for line in f:
            if not line.endswith("\n"):
                return
            try:
                yield json.loads(line)
            except ValueError:
                continue


def _record(obj: dict[str, Any]) -> GameRecord:
    bins = {side: {int(b): c for b, c in v.items()} for side, v in obj["time_bins"].items()}
    return GameRecord(obj["deal"], obj["seat_a"], obj["result"], obj["moves"],
                      obj["decisions"], obj["seconds"], obj["truncated"], bins,
                      obj.get("cpu", {}))


def games_in(spec: MatchSpec, path: Path) -> dict[tuple[int, int], GameRecord]:
    """The games of ``spec`` in ``path`` by (deal, A's seat); refuses a file of another match."""
    out = {}
    for obj in read(path):
        if "header" in obj:
            if obj["header"] != _header(spec):
                raise SystemExit(f"{path}: a file of another match ({obj['header']})")
            continue
        rec = _record(obj)
        out[(rec.deal, rec.seat_a)] = rec
    return out


def _one(spec: MatchSpec, deal: int, seat: int) -> GameRecord:
    return play_match_game(spec, deal, seat)


def sprt_state(spec: MatchSpec, have: dict[tuple[int, int], GameRecord],
               sprt: Sprt) -> SprtState:
    """The sequential test fed the whole deals of ``have`` in deal order, up to the first
    deal missing or the decision (as ``durak match --sprt`` feeds it)."""
    test = SprtState(sprt)
    d = 0
    while test.decision is None:
        recs = [have.get((d, s)) for s in range(spec.players)]
        if any(r is None for r in recs):
            break
        test.add(deal_score(recs))  # type: ignore[arg-type]
        d += 1
    return test


def play(spec: MatchSpec, games: int, path: Path, workers: int = 1,
         progress: bool = True, sprt: Sprt | None = None) -> MatchResult:
    """Play the first ``games`` games of ``spec`` (whole deals, every seat) that
    ``path`` lacks, appending each as it ends; the match of every game in the file.
    ``sprt``: stop once the sequential test over the deals in order decides (the deals
    up to that one are the result, as with ``durak match --sprt``)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    have = games_in(spec, path)
    if sprt is not None:
        test = sprt_state(spec, have, sprt)
        if test.decision is not None:
            res = load(spec, path, test.deals * spec.players)
            res.sprt = test
            return res
    deals = -(-games // spec.players)
    jobs = [(spec, d, s) for d in range(deals) for s in range(spec.players)
            if (d, s) not in have]
    if not path.exists() or path.stat().st_size == 0:
        with path.open("a") as f:
            f.write(json.dumps({"header": _header(spec)}) + "\n")
    if jobs:
        with Executor(workers, tasks=len(jobs)) as ex, path.open("a") as f:
            for n, (_, rec) in enumerate(ex.map_unordered(_one, jobs), 1):
                f.write(json.dumps(asdict(rec)) + "\n")
                f.flush()
                os.fsync(f.fileno())
                if sprt is not None:
                    have[(rec.deal, rec.seat_a)] = rec
                    if sprt_state(spec, have, sprt).decision is not None:
                        ex.close(cancel=True)
                        break
                if progress:
                    print(f"\r{path.name}: {n}/{len(jobs)} games", end="", file=sys.stderr,
                          flush=True)
        if progress:
            print(file=sys.stderr)
    if sprt is not None:
        test = sprt_state(spec, games_in(spec, path), sprt)
        res = load(spec, path, test.deals * spec.players if test.decision else games)
        res.sprt = test
        return res
    return load(spec, path, games)


def load(spec: MatchSpec, path: Path, games: int | None = None) -> MatchResult:
    """The match of the games in ``path`` (the first ``games``, whole deals, if given)."""
    have = games_in(spec, path)
    recs = sorted(have.values(), key=lambda r: (r.deal, r.seat_a))
    if games is not None:
        deals = -(-games // spec.players)
        recs = [r for r in recs if r.deal < deals]
    return MatchResult(spec, recs)


__all__ = ["games_in", "load", "play", "read", "spec_of"]
