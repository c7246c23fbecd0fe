"""Training data by self-play (``durak learn generate``, docs/learn.md).

Every seat of a seeded deal is played by the hint engine (``HintPolicy``'s
way: the seat's knowledge with the facts of the asking of throwers, a
seeded hint at ``samples`` deals); at each decision with more than one
legal move one example is written:

* ``position``: the whole state (docs/notation.md; every card, for later
  labels such as an exact value) and ``seat``, the mover (0-based);
* ``moves``: the legal moves in canonical order, ``features``: each one's
  active feature indices (:mod:`solver.policy.features`, from the mover's
  view only), ``greedy``: the greedy player's move's index;
* the labels: ``chosen`` (the engine's move's index), ``scores`` (the
  engine's mean score of each move for the mover, +1 win .. -1 loss),
  ``exact`` (every deal solved exactly: ``scores`` are then exact values),
  ``outcome`` (the game's result for the mover, +1/0/-1), ``pile``.

Games go in shards of ``shard_games`` (``shard-00000.jsonl.gz``), each
written whole by the parent process as it comes back from a worker (the
executor layer: local processes or Dask), so a stopped run leaves whole
shards and ``--resume`` plays only the missing ones -- and those it finds
damaged (cut short, changed, not gzip: :func:`read_shard` reads each kept one
through), saying so.

Reading (:func:`read_shard`, :func:`read_shards`, for ``durak learn train``)
checks every line: a shard cut short, a line that is not one example of this
format (:func:`example_problem`), a file that is not gzip is bad input naming
the shard and the line (exit 2), never a ``KeyError`` deep in training.  The deal of game ``g``
comes from ``(seed, g)`` and each seat's generator from ``(seed, g, seat)``:
the same seed gives the same data for any number of workers.
"""
from __future__ import annotations

import gzip
import json
import math
import random
import zlib
from dataclasses import asdict, dataclass, replace
from pathlib import Path
from typing import Any, Callable, Iterator

from solver.errors import OptionError
from solver.game.deal import new_game
from solver.game.movegen import legal_moves
from solver.game.rules import parse_rules
from solver.hints import HintConfig, hint_knowledge
from solver.hints.knowledge import PublicTracker
from solver.inputs.files import read_user_text
from solver.inputs.jsonin import NumberTooLong, loads
from solver.notation import format_position
from solver.policy.bots import greedy_move
from solver.policy.features import MAX_ACTIVE, NFEATURES, decision_features
from solver.policy.model import load_model
from solver.run.executor import Executor
from solver.run.outfile import whole_file, write_whole

#: A game longer than this many moves is cut (R23, as solver.play.match.MAX_MOVES).
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


def _whole_number(v: Any, lo: int, hi: int | None = None) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and v >= lo and (hi is None or v <= hi)


def example_problem(row: Any) -> str | None:
    """What is wrong with one line's example (None: nothing): the fields training
    reads, their types and ranges (see the module docstring)."""
    if not isinstance(row, dict):
        return "not an example (a JSON object)"
    for key in ("game", "pile", "moves", "features", "scores", "chosen", "greedy", "outcome"):
        if key not in row:
            return f"no {key!r}"
    if not _whole_number(row["game"], 0) or not _whole_number(row["pile"], 0):
        return "'game' and 'pile' must be whole numbers of 0 or more"
    moves = row["moves"]
    if not isinstance(moves, list) or not moves or not all(isinstance(m, str) for m in moves):
        return "'moves' must be a list of move texts"
    n = len(moves)
    feats, scores = row["features"], row["scores"]
    if not isinstance(feats, list) or len(feats) != n or not all(
            isinstance(f, list) and len(f) <= MAX_ACTIVE
            and all(_whole_number(x, 0, NFEATURES - 1) for x in f) for f in feats):
        return (f"'features' must hold, for each of the {n} moves, at most {MAX_ACTIVE} "
                f"feature numbers below {NFEATURES}")
    if not isinstance(scores, list) or len(scores) != n or not all(
            isinstance(x, (int, float)) and not isinstance(x, bool) and math.isfinite(x)
            for x in scores):
        return f"'scores' must hold a finite number for each of the {n} moves"
    if not _whole_number(row["chosen"], 0, n - 1) or not _whole_number(row["greedy"], 0, n - 1):
        return f"'chosen' and 'greedy' must be move numbers 0..{n - 1}"
    if row["outcome"] not in (-1, 0, 1) or isinstance(row["outcome"], bool):
        return "'outcome' must be -1, 0 or 1"
    return None


def _damaged(path: Path, line: int, problem: str) -> OptionError:
    return OptionError(f"{str(path)!r}: line {line}: {problem}")


def read_shard(path: str | Path) -> Iterator[dict[str, Any]]:
    """The examples of one shard, each line checked: a shard cut short, a line that
    is not an example, a file that is not gzip is an :class:`OptionError` naming
    the shard and the line (exit 2); the system's refusals an ``OSError`` naming it."""
    path = Path(path)
    n = 0
    try:
        with gzip.open(path, "rt", encoding="utf-8") as fh:
            for n, line in enumerate(fh, 1):
                try:
                    row = loads(line)
                except NumberTooLong as e:
                    raise _damaged(path, n, str(e)) from None
                except (ValueError, RecursionError) as e:
                    raise _damaged(path, n, f"not one JSON example ({e})") from None
                problem = example_problem(row)
                if problem is not None:
                    raise _damaged(path, n, problem)
                yield row
    except EOFError:
        raise _damaged(path, n + 1, "the file is cut short (its gzip data ends early)") from None
    except UnicodeDecodeError:
        raise _damaged(path, n + 1, "not UTF-8 text") from None
    except (gzip.BadGzipFile, zlib.error) as e:
        what = "not a gzip file" if n == 0 and "Not a gzipped file" in str(e) \
            else f"damaged gzip data ({e})"
        raise _damaged(path, n + 1, what) from None
    except OSError as e:
        if e.filename is None:
            e.filename = str(path)
        raise


def read_shards(folder: str | Path) -> Iterator[dict[str, Any]]:
    """Every example of a data folder, shard by shard (:func:`read_shard`)."""
    paths = sorted(Path(folder).glob("shard-*.jsonl.gz"))
    if not paths:
        raise OptionError(f"{str(folder)!r}: no shard-*.jsonl.gz files (make them with "
                          "`durak learn generate`)")
    for p in paths:
        yield from read_shard(p)


def shard_problem(spec: GenSpec, folder: str | Path, i: int) -> str | None:
    """Why shard ``i`` of ``folder`` cannot be kept (None: it is whole): read through,
    every line an example of one of its games."""
    first = i * spec.shard_games
    games = range(first, min(first + spec.shard_games, spec.games))
    try:
        for row in read_shard(shard_path(folder, i)):
            if row["game"] not in games:
                return f"an example of game {row['game']}, not one of this shard's"
    except OptionError as e:
        return str(e).split(": ", 1)[1]
    except OSError as e:
        return e.strerror or str(e)
    return None


def generate(spec: GenSpec, folder: str | Path, workers: int | None = 1,
             scheduler: str | None = None,
             resume: bool = False, progress: Callable[[int, int], None] | None = None,
             log: Callable[[str], None] | None = None) -> int:
    """Write the data folder; returns the shards written now (those already
    there are kept under ``resume`` when whole; ``log`` hears of the others)."""
    if spec.games < 1 or spec.shard_games < 1:
        raise OptionError("games and shard games: at least 1")
    if spec.model is not None:
        load_model(spec.model)  # a bad file is an error before any work
    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    sp = folder / SPEC_FILE
    if sp.exists():
        try:
            old = loads(read_user_text(sp, "spec file"))
        except (ValueError, RecursionError) as e:
            raise OptionError(f"{str(sp)!r}: not the spec file durak writes ({e}); give "
                              "another folder") from None
        if resume and old != spec.to_json():
            raise OptionError(f"--resume: {str(sp)!r} holds another spec ({old}); give the "
                              "same options or another folder")
    write_whole(str(sp), json.dumps(spec.to_json(), indent=1) + "\n")
    todo = []
    for i in range(spec.shards()):
        if resume and shard_path(folder, i).exists():
            problem = shard_problem(spec, folder, i)
            if problem is None:
                continue
            if log:
                log(f"{shard_path(folder, i)}: {problem}: played again")
        todo.append(i)
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


__all__ = ["GenSpec", "example_problem", "generate", "play_game", "play_shard", "read_shard",
           "read_shards", "shard_path", "shard_problem"]
