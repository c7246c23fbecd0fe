"""Puzzle collections: the TOML format, its parser and the verifier.

A collection is one TOML file in ``puzzles/`` (the format is documented in
``puzzles/README.md``)::

    id = "podkidnoy"
    title = "Two-player podkidnoy"
    introduction = \"\"\"...\"\"\"

    [[puzzle]]
    id = "pod-001"
    title = "The last trump"
    position = "trump H; hands 6S 7S KH | 8C 9C AH; attacker 1"
    task = "win"                      # win | draw | avoid-durak
    hero = 1                          # the seat that must do it (1-based)
    solution = ["6S"]                 # every first move that does it
    pv = ["6S", "take", ...]          # the principal variation
    difficulty = { nodes = 312, plies = 9 }
    tags = ["throw-in"]

:func:`load_collection` parses a file; every error is a :class:`PuzzleFormatError`
(a ``ValueError``) whose message names the file, the puzzle id and the field.
:func:`check_puzzle` re-verifies one puzzle with the exact solver.
"""
from __future__ import annotations

import json
import os
import re
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Iterable, Sequence

if sys.version_info >= (3, 11):
    import tomllib
else:  # Python 3.10: the same parser as a package
    import tomli as tomllib

from solver.errors import DurakError, MoveError, OptionError
from solver.game.movegen import legal_moves, play
from solver.game.moves import Move
from solver.game.state import GameState
from solver.game.value import Value, value_text
from solver.i18n import _, pgettext
from solver.inputs.files import UnreadableFile, read_user_text
from solver.inputs.jsonin import MAX_DIGITS
from solver.notation import parse_position
from solver.policy.bots import greedy_move

#: The tasks a puzzle can set (for its hero, the seat to move at the start).
TASKS = ("win", "draw", "avoid-durak")

#: Solver values that fulfil each task.
TASK_VALUES = {"win": (Value.WIN,), "draw": (Value.DRAW,), "avoid-durak": (Value.WIN, Value.DRAW)}

#: The tag vocabulary (free tags are allowed; these are the ones the docs explain).
KNOWN_TAGS = (
    "lead", "throw-in", "take", "forced take", "transfer", "last trump", "squeeze",
    "draw", "3 players", "4 players", "coalition", "tempo", "defence", "multi-card lead",
    "generated",
)

def tag_word(tag: str) -> str:
    """A puzzle's tag in the player's language (a free tag as it is written)."""
    words = {"lead": pgettext("puzzle tag", "lead"), "throw-in": pgettext("puzzle tag", "throw-in"),
             "take": pgettext("puzzle tag", "take"),
             "forced take": pgettext("puzzle tag", "forced take"),
             "transfer": pgettext("puzzle tag", "transfer"),
             "last trump": pgettext("puzzle tag", "last trump"),
             "squeeze": pgettext("puzzle tag", "squeeze"), "draw": pgettext("puzzle tag", "draw"),
             "3 players": pgettext("puzzle tag", "3 players"),
             "4 players": pgettext("puzzle tag", "4 players"),
             "coalition": pgettext("puzzle tag", "coalition"),
             "tempo": pgettext("puzzle tag", "tempo"), "defence": pgettext("puzzle tag", "defence"),
             "multi-card lead": pgettext("puzzle tag", "multi-card lead"),
             "generated": pgettext("puzzle tag", "generated"),
             "teams": pgettext("puzzle tag", "teams"),
             # the themes the detector finds beyond these (solver/puzzles/themes.py)
             "quiet move": pgettext("puzzle tag", "quiet move"),
             "sacrifice": pgettext("puzzle tag", "sacrifice"),
             "long line": pgettext("puzzle tag", "long line")}
    return words.get(tag, tag)


#: The languages a puzzle's words are written in besides English (issue 64): ``title_lt``,
#: ``comment_ru``, ``introduction_lt`` ... beside ``title``, ``comment``, ``introduction``.
WORD_LANGUAGES = ("lt", "ru")
_WORDS = {"title", "comment", "introduction"}
COLLECTION_KEYS = ({"id", "title", "introduction", "rules_note", "puzzle"}
                   | {f"{k}_{lang}" for k in ("title", "introduction") for lang in WORD_LANGUAGES})
PUZZLE_KEYS = ({"id", "title", "position", "task", "hero", "solution", "pv",
                "difficulty", "tags", "comment"}
               | {f"{k}_{lang}" for k in ("title", "comment") for lang in WORD_LANGUAGES})


class PuzzleFormatError(DurakError):
    """A puzzle file that does not parse; names the file, the puzzle and the field."""

    def __init__(self, path: str, puzzle: str | None, field_: str | None, problem: str):
        self.path = path
        self.puzzle = puzzle
        self.field = field_
        self.problem = problem
        where = [path]
        if puzzle is not None:
            where.append(f"puzzle {puzzle}")
        if field_ is not None:
            where.append(f"field {field_!r}")
        super().__init__(": ".join(where) + f": {problem}")


@dataclass(frozen=True)
class Puzzle:
    """One puzzle.  ``hero`` is 1-based; ``solution`` and ``pv`` are canonical move texts."""

    id: str
    title: str
    position: str
    task: str
    hero: int
    solution: tuple[str, ...]
    pv: tuple[str, ...] = ()
    nodes: int | None = None
    plies: int | None = None
    tags: tuple[str, ...] = ()
    comment: str = ""
    collection: str = ""
    path: str = ""
    #: the title and comment in the other languages: ``(("title", "lt", "..."), ...)``
    words: tuple[tuple[str, str, str], ...] = ()
    #: the puzzle's rating before any person tried it (the bot ladder's fit,
    #: docs/lab/puzzle-ratings.md), None where it has none
    rating: float | None = None

    def text(self, name: str, lang: str) -> str:
        """``title`` or ``comment`` in ``lang`` (the English where the file has none)."""
        for key, in_lang, text in self.words:
            if key == name and in_lang == lang:
                return text
        return str(getattr(self, name))

    def state(self) -> GameState:
        """The starting position as a :class:`GameState`."""
        return parse_position(self.position).state

    @property
    def task_text(self) -> str:
        """``Seat 1 to move and win`` and the like (in the current language)."""
        if self.task == "win":
            return _("Seat {seat} to move and win").format(seat=self.hero)
        if self.task == "draw":
            return _("Seat {seat} to move and draw").format(seat=self.hero)
        try:
            teams = self.state().rules.teams
        except ValueError:
            teams = False
        return (_("Seat {seat} to move and keep his team from losing") if teams
                else _("Seat {seat} to move and avoid being the durak")).format(seat=self.hero)

    def to_dict(self) -> dict[str, Any]:
        d: dict[str, Any] = {
            "id": self.id, "title": self.title, "collection": self.collection,
            "position": self.position, "task": self.task, "hero": self.hero,
            "task_text": self.task_text, "solution": list(self.solution), "pv": list(self.pv),
            "difficulty": {"nodes": self.nodes, "plies": self.plies}, "tags": list(self.tags),
        }
        if self.comment:
            d["comment"] = self.comment
        if self.rating is not None:
            d["rating"] = self.rating
        return d


@dataclass
class Collection:
    """A collection file: header and puzzles in file order."""

    id: str
    title: str
    introduction: str
    puzzles: list[Puzzle] = field(default_factory=list)
    path: str = ""
    #: the title and introduction in the other languages, as :attr:`Puzzle.words`
    words: tuple[tuple[str, str, str], ...] = ()

    def text(self, name: str, lang: str) -> str:
        """``title`` or ``introduction`` in ``lang`` (the English where the file has none)."""
        for key, in_lang, text in self.words:
            if key == name and in_lang == lang:
                return text
        return str(getattr(self, name))

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.id, "title": self.title, "introduction": self.introduction,
                "path": self.path, "puzzles": [p.id for p in self.puzzles]}


# ------------------------------------------------------------------ parsing

def default_dir() -> Path:
    """Where the shipped collections live.

    ``$DURAK_PUZZLES`` if set, else ``puzzles/`` of the checkout the package runs
    from (an editable install), else the copy installed with the package
    (``solver.puzzle_data``), else ``puzzles/`` of the current directory.
    """
    env = os.environ.get("DURAK_PUZZLES")
    if env:
        return Path(env)
    package = Path(__file__).resolve().parent.parent  # solver/
    beside = package.parent / "puzzles"
    if beside.is_dir():
        return beside
    installed = package / "puzzle_data"
    if installed.is_dir():
        return installed
    return Path.cwd() / "puzzles"


def _want(path: str, pid: str | None, key: str, value: Any, kind: type | tuple, what: str) -> Any:
    if isinstance(value, bool) and kind is int:
        raise PuzzleFormatError(path, pid, key, f"expected {what}, got {value!r}")
    if not isinstance(value, kind):
        raise PuzzleFormatError(path, pid, key, f"expected {what}, got {value!r}")
    return value


def _str_list(path: str, pid: str | None, key: str, value: Any) -> tuple[str, ...]:
    _want(path, pid, key, value, list, "a list of strings")
    for v in value:
        if not isinstance(v, str):
            raise PuzzleFormatError(path, pid, key, f"expected a list of strings, got item {v!r}")
    return tuple(value)


def _canonical_moves(path: str, pid: str, key: str, moves: Sequence[str], deck: int) -> tuple[str, ...]:
    out = []
    for m in moves:
        try:
            out.append(str(Move.parse(m, deck)))
        except MoveError as e:
            raise PuzzleFormatError(path, pid, key, str(e)) from None
    return tuple(out)


def parse_puzzle(raw: Any, path: str = "<string>", collection: str = "",
                 index: int = 0) -> Puzzle:
    """One ``[[puzzle]]`` table; checks types, the position, the task and move legality."""
    if not isinstance(raw, dict):
        raise PuzzleFormatError(path, f"#{index + 1}", None, "a puzzle must be a table")
    pid = raw.get("id")
    if pid is None:
        raise PuzzleFormatError(path, f"#{index + 1}", "id", "missing")
    if not isinstance(pid, str) or not pid.strip():
        raise PuzzleFormatError(path, f"#{index + 1}", "id", f"expected a non-empty string, got {pid!r}")
    for key in raw:
        if key not in PUZZLE_KEYS:
            raise PuzzleFormatError(path, pid, key,
                                    f"unknown field (known: {', '.join(sorted(PUZZLE_KEYS))})")
    for key in ("title", "position", "task", "solution"):
        if key not in raw:
            raise PuzzleFormatError(path, pid, key, "missing")
    title = _want(path, pid, "title", raw["title"], str, "a string")
    position = _want(path, pid, "position", raw["position"], str, "a position string (NOTATION.md)")
    task = _want(path, pid, "task", raw["task"], str, "a string")
    if task not in TASKS:
        raise PuzzleFormatError(path, pid, "task", f"unknown task {task!r} (known: {', '.join(TASKS)})")


    try:
        state = parse_position(position).state
    except ValueError as e:
        raise PuzzleFormatError(path, pid, "position", str(e)) from None
    if state.is_over:
        raise PuzzleFormatError(path, pid, "position", "the game is already over")
    to_move = state.to_move + 1
    hero = raw.get("hero", to_move)
    _want(path, pid, "hero", hero, int, "a seat number")
    if not 1 <= hero <= state.players:
        raise PuzzleFormatError(path, pid, "hero", f"seat {hero} does not exist ({state.players} players)")
    if hero != to_move:
        raise PuzzleFormatError(path, pid, "hero",
                                f"the hero must be the seat to move (seat {to_move}), not seat {hero}")
    if task == "avoid-durak" and state.players < 3:
        raise PuzzleFormatError(path, pid, "task", "avoid-durak needs 3 or more players; use win or draw")

    deck = state.rules.deck
    solution = _canonical_moves(path, pid, "solution",
                                _str_list(path, pid, "solution", raw["solution"]), deck)
    if not solution:
        raise PuzzleFormatError(path, pid, "solution", "empty: give every first move that solves the task")
    if len(set(solution)) != len(solution):
        raise PuzzleFormatError(path, pid, "solution", "a move is listed twice")

    legal = {str(m): m for m in legal_moves(state)}
    for m in solution:
        if m not in legal:
            raise PuzzleFormatError(path, pid, "solution", f"move {m!r} is not legal in the position")
    pv = _canonical_moves(path, pid, "pv", _str_list(path, pid, "pv", raw.get("pv", [])), deck)
    if pv:
        if pv[0] not in solution:
            raise PuzzleFormatError(path, pid, "pv", f"starts with {pv[0]!r}, which is not a solution move")
        s = state
        for i, m in enumerate(pv):
            moves = {str(x): x for x in legal_moves(s)}
            if m not in moves:
                raise PuzzleFormatError(path, pid, "pv", f"move {i + 1} ({m!r}) is not legal there")
            s = play(s, moves[m])
    nodes = plies = None
    if "difficulty" in raw:
        diff = _want(path, pid, "difficulty", raw["difficulty"], dict, "a table {nodes, plies}")
        for k in diff:
            if k not in ("nodes", "plies"):
                raise PuzzleFormatError(path, pid, f"difficulty.{k}", "unknown field (known: nodes, plies)")
        if "nodes" in diff:
            nodes = _want(path, pid, "difficulty.nodes", diff["nodes"], int, "an integer")
        if "plies" in diff:
            plies = _want(path, pid, "difficulty.plies", diff["plies"], int, "an integer")
    tags = _str_list(path, pid, "tags", raw.get("tags", []))
    comment = _want(path, pid, "comment", raw.get("comment", ""), str, "a string")
    return Puzzle(id=pid, title=title, position=position, task=task, hero=hero,
                  solution=solution, pv=pv, nodes=nodes, plies=plies, tags=tags,
                  comment=comment, collection=collection, path=path,
                  words=_words(path, pid, raw, ("title", "comment")))


def _words(path: str, pid: str | None, raw: dict[str, Any], names: tuple[str, ...]
           ) -> tuple[tuple[str, str, str], ...]:
    """The translated words of a puzzle or a collection header (``title_lt`` ...)."""
    out = []
    for name in names:
        for lang in WORD_LANGUAGES:
            key = f"{name}_{lang}"
            if key in raw:
                text = _want(path, pid, key, raw[key], str, "a string")
                out.append((name, lang, text.strip() if name == "introduction" else text))
    return tuple(out)


def parse_collection(text: str, path: str = "<string>") -> Collection:
    """A collection from TOML text; ``path`` is only used in messages."""
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise PuzzleFormatError(path, None, None, f"not valid TOML: {e}") from None
    except ValueError:  # an integer of more digits than Python reads (tomllib's own int())
        long = re.search(r"[0-9_]{%d,}" % (MAX_DIGITS + 1), text)
        line = f"line {text.count(chr(10), 0, long.start()) + 1}: " if long else ""
        raise PuzzleFormatError(path, None, None, f"{line}a number of more than {MAX_DIGITS:,} "
                                                  "digits (not read)") from None
    for key in data:
        if key not in COLLECTION_KEYS:
            raise PuzzleFormatError(path, None, key,
                                    f"unknown collection field (known: {', '.join(sorted(COLLECTION_KEYS))})")
    for key in ("id", "title", "introduction"):
        if key not in data:
            raise PuzzleFormatError(path, None, key, "missing from the collection header")
        _want(path, None, key, data[key], str, "a string")
    raw_puzzles = data.get("puzzle", [])
    _want(path, None, "puzzle", raw_puzzles, list, "an array of tables [[puzzle]]")
    coll = Collection(id=data["id"], title=data["title"],
                      introduction=data["introduction"].strip(), path=path,
                      words=_words(path, None, data, ("title", "introduction")))
    seen: set[str] = set()
    for i, raw in enumerate(raw_puzzles):
        p = parse_puzzle(raw, path, coll.id, i)
        if p.id in seen:
            raise PuzzleFormatError(path, p.id, "id", "duplicate puzzle id")
        seen.add(p.id)
        coll.puzzles.append(p)
    return coll


def load_collection(path: str | os.PathLike) -> Collection:
    """Parse one collection file."""
    try:
        text = read_user_text(path, "puzzle collection")
    except UnreadableFile as e:
        raise PuzzleFormatError(str(path), None, None, f"cannot read: {e.problem}") from None
    return parse_collection(text, str(path))


def load_all(directory: str | os.PathLike | None = None) -> list[Collection]:
    """Every ``*.toml`` collection of a directory, by file name; ids unique across them."""
    d = Path(directory) if directory is not None else default_dir()
    if not d.is_dir():
        raise OptionError(f"puzzle directory {str(d)!r} does not exist")
    out = [load_collection(f) for f in sorted(d.glob("*.toml"))]
    seen: dict[str, str] = {}
    for c in out:
        for p in c.puzzles:
            if p.id in seen:
                raise PuzzleFormatError(c.path, p.id, "id", f"duplicate puzzle id (also in {seen[p.id]})")
            seen[p.id] = c.path
    return out


def select(collections: list[Collection], name: str | None) -> list[Collection]:
    """Collections named by id, by file stem or by a path; all of them for ``None``."""
    if name is None:
        return collections
    if name.endswith(".toml") or os.sep in name:
        return [load_collection(name)]
    hits = [c for c in collections if c.id == name or Path(c.path).stem == name]
    if not hits:
        known = ", ".join(c.id for c in collections) or "none"
        raise OptionError(f"COLLECTION: no collection {name!r} (known: {known})")
    return hits


def find_puzzle(collections: Iterable[Collection], pid: str) -> Puzzle:
    for c in collections:
        for p in c.puzzles:
            if p.id == pid:
                return p
    raise OptionError(_("ID: no puzzle {id}").format(id=repr(pid)))


# ------------------------------------------------------------------ writing

def _toml_str(s: str) -> str:
    return json.dumps(s, ensure_ascii=False)


def _toml_multiline(s: str) -> str:
    body = s.replace("\\", "\\\\").replace('"""', '""\\"')
    return '"""\n' + body.rstrip("\n") + '\n"""'


def _toml_list(items: Sequence[str]) -> str:
    return "[" + ", ".join(_toml_str(x) for x in items) + "]"


def format_puzzle(p: Puzzle) -> str:
    """One ``[[puzzle]]`` table in the canonical layout (fields in documented order)."""
    lines = ["[[puzzle]]", f"id = {_toml_str(p.id)}", f"title = {_toml_str(p.title)}"]
    lines += [f"title_{lang} = {_toml_str(t)}" for k, lang, t in p.words if k == "title"]
    lines += [f"position = {_toml_str(p.position)}", f"task = {_toml_str(p.task)}",
             f"hero = {p.hero}", f"solution = {_toml_list(p.solution)}",
             f"pv = {_toml_list(p.pv)}"]
    diff = []
    if p.nodes is not None:
        diff.append(f"nodes = {p.nodes}")
    if p.plies is not None:
        diff.append(f"plies = {p.plies}")
    if diff:
        lines.append("difficulty = { " + ", ".join(diff) + " }")
    lines.append(f"tags = {_toml_list(p.tags)}")
    if p.comment:
        lines.append(f"comment = {_toml_str(p.comment)}")
    lines += [f"comment_{lang} = {_toml_str(t)}" for k, lang, t in p.words if k == "comment"]
    return "\n".join(lines) + "\n"


def format_collection(c: Collection) -> str:
    """A whole collection file; :func:`parse_collection` reads it back unchanged."""
    head = [f"id = {_toml_str(c.id)}", f"title = {_toml_str(c.title)}"]
    head += [f"title_{lang} = {_toml_str(t)}" for k, lang, t in c.words if k == "title"]
    head.append(f"introduction = {_toml_multiline(c.introduction)}")
    head += [f"introduction_{lang} = {_toml_multiline(t)}" for k, lang, t in c.words
             if k == "introduction"]
    parts = ["\n".join(head) + "\n"] + [format_puzzle(p) for p in c.puzzles]
    return "\n".join(parts)


# ----------------------------------------------------------- verification

@dataclass
class CheckResult:
    """What the solver says of one puzzle, and every way it disagrees with the file."""

    puzzle: Puzzle
    value: Value | None = None
    solution: tuple[str, ...] = ()
    greedy: str = ""
    distance: int | None = None
    nodes: int = 0
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def to_dict(self) -> dict[str, Any]:
        return {"id": self.puzzle.id, "ok": self.ok, "value": value_text(self.value),
                "solution": list(self.solution), "greedy": self.greedy,
                "distance": self.distance, "nodes": self.nodes,
                "seconds": round(self.seconds, 4), "problems": list(self.problems)}


def winning_set(moves: Iterable[Any], task: str, value: Value) -> tuple[str, ...]:
    """The first moves that fulfil ``task`` given the position's ``value``.

    For ``win`` and ``draw`` these are the moves keeping the value; for
    ``avoid-durak`` every move that does not lose.
    """
    good = TASK_VALUES["avoid-durak"] if task == "avoid-durak" else (value,)
    return tuple(sorted(str(mv.move) for mv in moves if mv.value in good))


def check_puzzle(p: Puzzle, solver: Any) -> CheckResult:
    """Re-verify a puzzle: value, the set of solving first moves, greedy fails, the pv."""
    res = CheckResult(p)
    t0 = time.perf_counter()
    state = p.state()
    hero = p.hero - 1
    an = solver.analyse(state, hero=p.hero)
    res.value = an.value
    res.nodes = getattr(an, "nodes", 0) or 0
    res.distance = getattr(an, "distance", None)
    if not getattr(an, "exact", True):
        res.problems.append("the solver's answer is not exact")
    if an.value not in TASK_VALUES[p.task]:
        res.problems.append(f"task {p.task!r} but the solver's value is {value_text(an.value)!r}")
    res.solution = winning_set(an.moves, p.task, an.value)
    if set(res.solution) != set(p.solution):
        res.problems.append(f"solution {sorted(p.solution)} but the solver's is {list(res.solution)}")
    res.greedy = str(greedy_move(state))
    if res.greedy in res.solution:
        res.problems.append(f"the greedy move {res.greedy} solves it")
    if p.pv:
        s = state
        for m in p.pv:
            moves = {str(x): x for x in legal_moves(s)}
            if m not in moves:
                res.problems.append(f"pv: {m!r} is illegal")
                break
            s = play(s, moves[m])
        else:
            out = s.outcome() if s.is_over else None
            want = an.value
            if out is None:
                if p.plies is not None and p.plies == len(p.pv):
                    res.problems.append("pv: the game is not over at its end")
            elif p.task != "avoid-durak" and out[hero] != want:
                res.problems.append(f"pv ends with result {out[hero]:+d} for the hero, not {value_text(an.value)}")
            elif p.task == "avoid-durak" and out[hero] < 0:
                res.problems.append("pv ends with the hero as the durak")
    if p.plies is not None and res.distance is not None and p.plies != res.distance:
        res.problems.append(f"difficulty.plies is {p.plies} but the forced line is {res.distance} plies")
    if p.plies is not None and res.distance is None and p.pv and p.plies != len(p.pv):
        res.problems.append(f"difficulty.plies is {p.plies} but the drawing line is {len(p.pv)} plies")
    res.seconds = time.perf_counter() - t0
    return res
