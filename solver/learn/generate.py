"""Training data by self-play (``durak learn generate``, docs/learn.md).

Every seat of a seeded deal is played by the hint engine (``HintPolicy``'s
way: the seat's knowledge with the facts of the asking of throwers, a
seeded hint at ``samples`` deals); at each decision with more than one
legal move one example is written:

* ``position``: the whole state (docs/notation.md; every card, for later
  labels such as an exact value) and ``seat``, the mover (0-based);
* ``moves``: the legal moves in canonical order, ``features``: each one's
  active feature indices (:mod:`solver.learn.features`, from the mover's
  view only), ``greedy``: the greedy player's move's index;
* the labels: ``chosen`` (the engine's move's index), ``scores`` (the
  engine's mean score of each move for the mover, +1 win .. -1 loss),
  ``exact`` (every deal solved exactly: ``scores`` are then exact values),
  ``outcome`` (the game's result for the mover, +1/0/-1), ``pile``.

Games go in shards of ``shard_games`` (``shard-00000.jsonl.gz``), each
written whole by the parent process as it comes back from a worker (the
executor layer: local processes or Dask), so a stopped run leaves whole
shards and ``--resume`` plays only the missing ones.  The deal of game ``g``
comes from ``(seed, g)`` and each seat's generator from ``(seed, g, seat)``:
the same seed gives the same data for any number of workers.
"""
from __future__ import annotations

import gzip
import json
import random
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Callable, Iterator

from solver.bots import greedy_move
from solver.errors import OptionError
from solver.executor import Executor
from solver.game.deal import new_game
from solver.game.movegen import legal_moves
from solver.game.rules import parse_rules
from solver.hints import HintConfig, hint_knowledge
from solver.hints.knowledge import PublicTracker
from solver.learn.features import NFEATURES, decision_features
from solver.learn.model import load_model
from solver.notation import format_position
from solver.outfile import whole_file, write_whole

#: A game longer than this many moves is cut (R23, as solver.match.MAX_MOVES).
MAX_MOVES = 4000
#: The spec file of a data folder: the same spec is needed to resume.
SPEC_FILE = "spec.json"


@dataclass(frozen=True)
class GenSpec:
    """What a data folder holds: ``games`` seeded games of ``players`` under each
    of ``rules`` in turn (game ``g`` under ``rules[g % len(rules)]``), played by
    the hint engine at ``samples`` deals a decision (None: its default) with the
    learned playouts of ``model`` (None: greedy playouts; expert iteration) and
    ``iterations`` of its search per deal (None: the engine's default)."""

    games: int
    seed: int
    players: int = 2
    rules: tuple[str, ...] = ("", "transfer")
    samples: int | None = 64
    model: str | None = None
    shard_games: int = 10
    iterations: int | None = None

    def shards(self) -> int:
        return -(-self.games // self.shard_games)

    def to_json(self) -> dict[str, Any]:
        d = asdict(self)
        d["rules"] = list(self.rules)
        d["features"] = NFEATURES
        return d


def shard_path(folder: str | Path, i: int) -> Path:
    return Path(folder) / f"shard-{i:05d}.jsonl.gz"


def play_game(spec: GenSpec, game: int) -> list[dict[str, Any]]:
    """The examples of one self-play game (see the module docstring)."""
    rules = parse_rules(spec.rules[game % len(spec.rules)])
    start = new_game(spec.players, rules, rng=random.Random(f"learn:{spec.seed}:{game}"))
    rngs = [random.Random(f"learn-policy:{spec.seed}:{game}:{s}") for s in range(spec.players)]
    cfg = HintConfig()
    if spec.model:
        cfg = replace(cfg, playout_model=spec.model)
    if spec.iterations is not None:
        cfg = replace(cfg, uct_iters=spec.iterations, uct_iters_multi=spec.iterations)
    t = PublicTracker(start)
    rows: list[dict[str, Any]] = []
    for _ in range(MAX_MOVES):
        s = t.state
        if s.is_over:
            break
        seat = s.to_move
        moves = legal_moves(s)
        if len(moves) == 1:
            t.play(moves[0])
            continue
        res = hint_knowledge(t.knowledge(seat), samples=spec.samples,
                             seed=rngs[seat].getrandbits(32), config=cfg)
        texts = [str(m) for m in moves]
        by_move = {hm.move: hm for hm in res.moves}
        _, _, feats = decision_features(s)
        chosen = texts.index(res.best)
        greedy = moves.index(greedy_move(s))
        rows.append({
            "game": game, "ply": len(t.history), "seat": seat, "rules": str(rules),
            "position": format_position(s), "pile": s.pile, "moves": texts,
            "features": feats, "greedy": greedy, "chosen": chosen,
            "scores": [round(by_move[m].score, 5) for m in texts],
            "exact": res.exact_deals == res.samples,
        })
        t.play(moves[chosen])
    outcome = t.state.final_outcome() if t.state.is_over else (0,) * spec.players
    for r in rows:
        r["outcome"] = outcome[r["seat"]]
    return rows


def play_shard(spec: GenSpec, shard: int) -> list[dict[str, Any]]:
    """The examples of every game of one shard (what a worker runs)."""
    first = shard * spec.shard_games
    out: list[dict[str, Any]] = []
    for g in range(first, min(first + spec.shard_games, spec.games)):
        out.extend(play_game(spec, g))
    return out


def write_shard(path: Path, rows: list[dict[str, Any]]) -> None:
    """One shard, whole or not at all (gzip, reproducible bytes: no time stamp)."""
    with whole_file(str(path)) as tmp:
        with open(tmp, "wb") as raw, gzip.GzipFile(filename="", fileobj=raw, mode="wb", mtime=0) as fh:
            for r in rows:
                fh.write((json.dumps(r, separators=(",", ":")) + "\n").encode())


def read_shards(folder: str | Path) -> Iterator[dict[str, Any]]:
    """Every example of a data folder, shard by shard."""
    paths = sorted(Path(folder).glob("shard-*.jsonl.gz"))
    if not paths:
        raise OptionError(f"{str(folder)!r}: no shard-*.jsonl.gz files (make them with "
                          "`durak learn generate`)")
    for p in paths:
        with gzip.open(p, "rt", encoding="utf-8") as fh:
            for line in fh:
                yield json.loads(line)


def generate(spec: GenSpec, folder: str | Path, workers: int | None = 1,
             scheduler: str | None = None,
             resume: bool = False, progress: Callable[[int, int], None] | None = None) -> int:
    """Write the data folder; returns the shards written now (those already
    there are kept under ``resume``)."""
    if spec.games < 1 or spec.shard_games < 1:
        raise OptionError("games and shard games: at least 1")
    if spec.model is not None:
        load_model(spec.model)  # a bad file is an error before any work
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    sp = folder / SPEC_FILE
    if sp.exists():
        old = json.loads(sp.read_text(encoding="utf-8"))
        if resume and old != spec.to_json():
            raise OptionError(f"--resume: {str(sp)!r} holds another spec ({old}); give the "
                              "same options or another folder")
    write_whole(str(sp), json.dumps(spec.to_json(), indent=1) + "\n")
    todo = [i for i in range(spec.shards()) if not (resume and shard_path(folder, i).exists())]
    done = spec.shards() - len(todo)
    if progress:
        progress(done, spec.shards())
    if not todo:
        return 0
    with Executor(workers, scheduler, tasks=len(todo)) as ex:
        for k, rows in ex.map_unordered(play_shard, ((spec, i) for i in todo)):
            write_shard(shard_path(folder, todo[k]), rows)
            done += 1
            if progress:
                progress(done, spec.shards())
    return len(todo)


__all__ = ["GenSpec", "generate", "play_game", "play_shard", "read_shards", "shard_path"]
