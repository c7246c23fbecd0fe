"""A large verified collection: ``durak puzzle mine`` and the shipped ``mined.jsonl.gz``.

``durak puzzle generate`` finds a few puzzles for one seed.  Mining runs it round
after round (round ``k`` of a family uses seed ``family.seed + k``, so the same
command always gives the same file), keeps only puzzles that

* the checker verifies (:func:`~solver.puzzles.collection.check_puzzle`, the
  code of ``durak puzzle check``: exact value, the unique solving move, the
  greedy move failing, the line), and
* are not equivalent to one already kept: :func:`canonical_key` maps a position
  to the same text under any renaming of the three plain suits (the trump suit
  stays the trump suit) and any rotation of the seats (the hero becomes seat 1;
  a rotation keeps the order in which throwers are asked, R12).

and appends them to a gzip'd JSON Lines file.  Appending opens a new gzip member
(readers see one stream), so an interrupted run loses at most the round in
progress, and running the command again continues from what is written: each
family restarts at the round after its last written one.

Loading the file (:func:`load_mined`) builds the :class:`Puzzle` records without
re-parsing or re-checking them (the mining checked them, ``durak puzzle check``
re-checks them): 3,000 puzzles load in a few tens of milliseconds.
"""
from __future__ import annotations

import gzip
import itertools
import json
import os
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, Callable, Iterable, Iterator

from solver.game.cards import SUIT_MASK
from solver.game.rules import parse_rules
from solver.game.state import GameState
from solver.i18n import N_, _, use_language
from solver.inputs.files import UnreadableFile, read_user_text
from solver.notation import format_position, parse_position
from solver.puzzles.collection import (WORD_LANGUAGES, Collection, Puzzle, PuzzleFormatError,
                                       check_puzzle,
                                       default_dir, load_all)
from solver.puzzles.generate import GenOptions, generate
from solver.puzzles.themes import detect, title_and_comment
from solver.run.executor import Executor, chunked
from solver.search import Solver

#: The shipped file's name, in the collections' directory (``puzzles/``).
MINED_FILE = "mined.jsonl.gz"


@dataclass(frozen=True)
class Family:
    """One kind of puzzle to mine: a collection of the shipped file."""

    name: str            # the collection id
    prefix: str          # puzzle ids: ``prefix-0001`` ...
    title: str
    players: int = 2
    rules: str = ""
    tags: tuple[str, ...] = ()
    target: int = 100    # puzzles to keep
    seed: int = 0        # round k uses seed + k
    per_round: int = 25  # puzzles asked of generate per round
    max_cards: int = 10

    def options(self, round_: int) -> GenOptions:
        """What ``durak puzzle generate`` is asked for in round ``round_``."""
        return GenOptions(count=self.per_round, seed=self.seed + round_, players=self.players,
                          rules=parse_rules(self.rules), tags=self.tags, prefix=self.prefix,
                          max_cards=self.max_cards, max_nodes=200_000)


#: what every mined collection says of itself (in the player's language, as its title)
INTRODUCTION = N_("Puzzles mined by `durak puzzle mine` (docs/guide/puzzles.md): each has one "
                  "solving first move, verified exact by the checker, no two alike.")

#: The families of the shipped file (docs/guide/puzzles.md gives the command).
#: The motif families are two-player podkidnoy or transfer puzzles that show a
#: motif of ``puzzles/motifs.toml`` (by :func:`~solver.puzzles.generate.auto_tags`).
FAMILIES: tuple[Family, ...] = (
    Family("mined-podkidnoy", "mpk", N_("Mined: two-player podkidnoy"), target=1000, seed=700_000),
    Family("mined-transfer", "mtr", N_("Mined: two-player transfer"), rules="transfer", target=900,
           seed=710_000),
    Family("mined-3p", "m3p", N_("Mined: three players"), players=3, target=250, seed=720_000,
           per_round=10, max_cards=9),
    Family("mined-last-trump", "mlt", N_("Mined motif: the last trump"), tags=("last trump",),
           target=250, seed=730_000),
    # (a multi-card lead as the only solving first move is too rare to mine: seed
    # 740,000 found none in three rounds of 7,500 candidates)
    Family("mined-defence", "mdf", N_("Mined motif: the defence that takes"),
           tags=("defence", "take"), target=250, seed=740_000),
    Family("mined-draw", "mdr", N_("Mined motif: the draw saved"), tags=("draw",), target=250,
           seed=750_000),
    Family("mined-throw-in", "mti", N_("Mined motif: throw-ins"), rules="transfer",
           tags=("throw-in", "defence"), target=250, seed=760_000),
)


# ------------------------------------------------------------ equivalence

def _map_mask(mask: int, perm: tuple[int, ...]) -> int:
    out = 0
    for s in range(4):
        out |= ((mask & SUIT_MASK[s]) >> (13 * s)) << (13 * perm[s])
    return out


def _map_card(card: int, perm: tuple[int, ...]) -> int:
    return card if card < 0 else perm[card // 13] * 13 + card % 13


def _transformed(state: GameState, perm: tuple[int, ...], shift: int) -> GameState:
    """``state`` with suit ``s`` renamed ``perm[s]`` and seat ``i`` renumbered ``i - shift``."""
    n = state.players

    def seat(i: int) -> int:
        return i if i < 0 else (i - shift) % n

    hands = tuple(_map_mask(state.hands[(i + shift) % n], perm) for i in range(n))
    hidden = tuple(state.hidden[(i + shift) % n] for i in range(n))
    return state.replace(
        trump=perm[state.trump], hands=hands, hidden=hidden,
        attacker=seat(state.attacker), defender=seat(state.defender), turn=seat(state.turn),
        table=tuple((_map_card(a, perm), _map_card(c, perm)) for a, c in state.table),
        trump_card=_map_card(state.trump_card, perm),
        pile_order=None if state.pile_order is None else tuple(
            _map_card(c, perm) for c in state.pile_order),
        out=_map_mask(state.out, perm), shown=_map_mask(state.shown, perm))


def canonical_key(state: GameState, task: str) -> str:
    """The same text for every position equivalent to ``state`` for ``task``.

    The seat to move becomes seat 1, the trump suit spades (the first suit) and the
    three plain suits take every order; the key is the least position text.  Ranks
    are never merged: in Durak a rank matters across suits (throw-ins, transfers).
    """
    shift = state.to_move
    best = ""
    plain = [s for s in range(4) if s != state.trump]
    for order in itertools.permutations((1, 2, 3)):
        perm = [0] * 4
        perm[state.trump] = 0
        for s, to in zip(plain, order):
            perm[s] = to
        text = format_position(_transformed(state, tuple(perm), shift))
        if not best or text < best:
            best = text
    return f"{task}|{best}"


# ---------------------------------------------------------------- the file

def record_of(p: Puzzle, family: str, round_: int) -> dict[str, Any]:
    """One line of the file (what :func:`puzzle_of` reads back)."""
    return {"id": p.id, "family": family, "round": round_, "position": p.position,
            "task": p.task, "hero": p.hero, "solution": list(p.solution), "pv": list(p.pv),
            "plies": p.plies, "nodes": p.nodes,
            "themes": detect(p.position, p.task, p.hero, p.pv),
            "key": canonical_key(p.state(), p.task)}


def annotate(records: list[dict[str, Any]]) -> bool:
    """Give every record its themes (:mod:`solver.puzzles.themes`) afresh; whether any changed."""
    changed = False
    for r in records:
        themes = detect(r["position"], r["task"], r["hero"], r["pv"])
        if r.get("themes") != themes:
            r["themes"] = themes
            r.pop("tags", None)
            changed = True
    return changed


def read_records(path: str | os.PathLike) -> list[dict[str, Any]]:
    """Every record of a mined file (none if it does not exist)."""
    if not Path(path).exists():
        return []
    try:  # a --dir is the user's: a damaged file is named, never a traceback
        with gzip.open(path, "rt", encoding="utf-8") as f:
            return [json.loads(line) for line in f if line.strip()]
    except (OSError, EOFError, UnicodeDecodeError, ValueError) as e:
        raise PuzzleFormatError(str(path), None, None,
                                f"cannot read the mined puzzles: {e}") from None


def append_records(path: str | os.PathLike, records: Iterable[dict[str, Any]]) -> None:
    """Append records as a new gzip member (a reader sees one stream of lines)."""
    text = "".join(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n"
                   for r in records)
    if text:
        with gzip.open(path, "at", encoding="utf-8", compresslevel=9) as f:
            f.write(text)


def write_records(path: str | os.PathLike, records: Iterable[dict[str, Any]]) -> None:
    """Rewrite the whole file as one gzip member (a temporary file, then renamed)."""
    tmp = Path(str(path) + ".tmp")
    with gzip.open(tmp, "wt", encoding="utf-8", compresslevel=9) as f:
        for r in records:
            f.write(json.dumps(r, ensure_ascii=False, separators=(",", ":")) + "\n")
    os.replace(tmp, path)


# ------------------------------------------------------------------ mining

def _check_chunk(puzzles: list[Puzzle]) -> list[list[str]]:
    """The checker's problems with each puzzle (what a worker runs)."""
    solver = Solver(tt_mb=16)
    return [check_puzzle(p, solver).problems for p in puzzles]


@dataclass
class RoundReport:
    """What one round of one family gave (for the progress line)."""

    family: str
    round: int
    found: int
    kept: int
    total: int


def mine_family(fam: Family, path: str | os.PathLike, keys: set[str],
                records: list[dict[str, Any]], workers: int = 1,
                scheduler: str | None = None, max_rounds: int = 10_000
                ) -> Iterator[RoundReport]:
    """Rounds of ``fam`` until it has ``fam.target`` puzzles; appends each round's."""
    mine = [r for r in records if r["family"] == fam.name]
    round_ = 1 + max((r["round"] for r in mine), default=-1)
    have = len(mine)
    for _round in range(max_rounds):
        if have >= fam.target:
            return
        found = generate(fam.options(round_), workers=workers, scheduler=scheduler,
                         make_solver=_fresh)
        fresh: list[tuple[str, Puzzle]] = []
        for f in found:
            key = canonical_key(f.puzzle.state(), f.puzzle.task)
            if key not in keys and len(fresh) < fam.target - have:
                keys.add(key)
                fresh.append((key, f.puzzle))
        puzzles = [p for _k, p in fresh]
        problems: list[list[str]] = [[] for _p in puzzles]
        parts = chunked(list(range(len(puzzles))), 4)
        with Executor(workers, scheduler, tasks=len(parts)) as ex:
            for ci, res in ex.map_unordered(_check_chunk, (([puzzles[k] for k in part],)
                                                           for part in parts)):
                for k, probs in zip(parts[ci], res):
                    problems[k] = probs
        new = []
        for (key, p), probs in zip(fresh, problems):
            if probs:
                keys.discard(key)
                continue
            have += 1
            p = replace(p, id=f"{fam.prefix}-{have:04d}", collection=fam.name)
            new.append(record_of(p, fam.name, round_))
        append_records(path, new)
        records.extend(new)
        yield RoundReport(fam.name, round_, len(found), len(new), have)
        round_ += 1


def _fresh() -> Solver:
    return Solver(tt_mb=16)


def mine(path: str | os.PathLike, families: Iterable[Family] = FAMILIES, workers: int = 1,
         scheduler: str | None = None,
         progress: Callable[[RoundReport], None] | None = None) -> list[dict[str, Any]]:
    """Mine every family up to its target, continuing the file at ``path``."""
    records = read_records(path)
    keys = {r["key"] for r in records}
    for fam in families:
        for rep in mine_family(fam, path, keys, records, workers, scheduler):
            if progress:
                progress(rep)
    if annotate(records):  # themes found afresh (a newer detector): the file rewritten
        write_records(path, records)
    return records


# ----------------------------------------------------------------- loading

def puzzle_of(r: dict[str, Any], path: str = "") -> Puzzle:
    """The :class:`Puzzle` of a record; its title and comment come from its themes."""
    themes = tuple(r.get("themes") or r.get("tags", ()))
    plies = r.get("plies") or len(r["pv"])
    title, comment = title_and_comment(themes, plies)
    words = []
    for lang in WORD_LANGUAGES:
        t, c = title_and_comment(themes, plies, lang)
        words += [("title", lang, t), ("comment", lang, c)]
    return Puzzle(id=r["id"], title=title, position=r["position"],
                  task=r["task"], hero=r["hero"], solution=tuple(r["solution"]),
                  pv=tuple(r["pv"]), nodes=r.get("nodes"), plies=r.get("plies"),
                  tags=themes, comment=comment, collection=r["family"], path=path,
                  words=tuple(words), rating=r.get("rating"))


def load_mined(path: str | os.PathLike) -> list[Collection]:
    """The collections of a mined file, one per family, in :data:`FAMILIES` order."""
    titles = {f.name: f.title for f in FAMILIES}
    order = {f.name: i for i, f in enumerate(FAMILIES)}
    by: dict[str, Collection] = {}
    spath = str(path)
    for r in read_records(path):
        fam = r["family"]
        c = by.get(fam)
        if c is None:
            title = titles.get(fam, fam)
            words = []
            for lang in WORD_LANGUAGES:  # the collection's words as the TOML files carry them
                with use_language(lang):
                    words += [("title", lang, _(title)), ("introduction", lang, _(INTRODUCTION))]
            c = by[fam] = Collection(id=fam, title=title, introduction=INTRODUCTION, path=spath,
                                     words=tuple(words))
        c.puzzles.append(puzzle_of(r, spath))
    return sorted(by.values(), key=lambda c: (order.get(c.id, len(order)), c.id))


def position_state(text: str) -> GameState:
    """A record's position as a state (a short name for the tests and the ladder)."""
    return parse_position(text).state


#: The hand-made puzzles' ratings, keyed by id, in the collections' directory.
RATINGS_FILE = "ratings.json"


def load_library(directory: str | os.PathLike | None = None) -> list[Collection]:
    """The hand-made collections (with their ratings) and then the mined ones.

    What every ``durak puzzle`` command reads; the mined file is read only here,
    when a command needs puzzles, never on import.
    """
    d = Path(directory) if directory is not None else default_dir()
    colls = load_all(d)
    ratings_path = d / RATINGS_FILE
    if ratings_path.exists():
        try:
            ratings = {pid: float(e["rating"]) for pid, e in json.loads(read_user_text(
                ratings_path, "puzzle ratings"))["puzzles"].items()}
        except UnreadableFile as e:
            raise PuzzleFormatError(str(ratings_path), None, None,
                                    f"cannot read: {e.problem}") from None
        except (ValueError, KeyError, TypeError, AttributeError) as e:
            raise PuzzleFormatError(str(ratings_path), None, None,
                                    f"not a ratings file ({type(e).__name__}: {e})") from None
        for c in colls:
            c.puzzles = [replace(p, rating=ratings[p.id]) if p.id in ratings else p
                         for p in c.puzzles]
    mined = d / MINED_FILE
    if mined.exists():
        seen = {p.id for c in colls for p in c.puzzles}
        for c in load_mined(mined):
            for p in c.puzzles:
                if p.id in seen:
                    raise PuzzleFormatError(str(mined), p.id, "id", "duplicate puzzle id")
                seen.add(p.id)
            colls.append(c)
    return colls


__all__ = ["FAMILIES", "MINED_FILE", "Family", "RoundReport", "annotate", "append_records", "canonical_key",
           "RATINGS_FILE", "load_library", "load_mined", "mine", "mine_family", "puzzle_of", "read_records", "record_of",
           "write_records"]
