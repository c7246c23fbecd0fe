"""`durak batch`: answer many positions, in order, resumably (issue 17).

Input: JSON lines, each an object with an optional ``"id"``, a ``"position"``
(a position string or a JSON position) and optionally ``"hero"`` (``solve``,
``analyse``: the seat the value is for; ``hint``: the asking seat); or plain
text, one position string per line.  Blank lines and lines starting with
``#`` are skipped; an item without an id gets its 1-based line number.

Output: one JSON line per item, in input order: ``{"id": ..., **answer}``
where ``answer`` is exactly what the command's ``--json`` prints (the
functions of :mod:`solver.answers.commands`).  An item that fails gives
``{"id": ..., "error": "...", "exit_code": 2}`` (bad input), or ``3`` with
what was proven when a budget ran out, or ``1`` on an internal error; the
batch goes on.  Lines are written as soon as every earlier line is, so a
batch stopped anywhere leaves a prefix of the full output, and
:func:`done_ids` with ``--resume`` skips what is there.

Work goes to the workers of :mod:`solver.run.executor` in chunks; each worker
keeps its exact solver (transposition table) between items.  With the same
options every answer is the same for any number of workers or any cluster
(``hint`` items use ``--seed``, default 0), except the effort fields
``nodes`` and ``seconds``, which depend on what the table already held and
on the machine.

A new task is one entry of :data:`TASKS`: a function from a position, a
hero seat and the :class:`BatchOptions` to an :class:`~solver.answers.commands.Answer`
(``review`` goes here when there is a `durak review` command).
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from typing import Any, Callable, Iterable, Protocol

from solver.answers.commands import (Answer, analyse_answer, hint_answer, review_answer,
                                     solve_answer)
from solver.errors import DurakError, OptionError, shorten
from solver.i18n import use_language
from solver.inputs.jsonin import NumberTooLong, loads
from solver.run.executor import Executor, chunk_size, chunked, worker_cache
from solver.search import DEFAULT_MAX_TIME, DEFAULT_TT_MB, Solver

#: The exit codes an item's error object carries (as the commands' exit codes).
BAD_INPUT, BUDGET, INTERNAL = 2, 3, 1

#: How many chunks per worker may finish ahead of the oldest one still running.
#: Their lines wait in memory until it finishes (lines go out in input order),
#: and a Ctrl-C meanwhile loses them, so ``--resume`` answers them again; eight
#: a worker keep the workers busy past a slow chunk without holding a whole file.
AHEAD_PER_WORKER = 8


@dataclass(frozen=True)
class BatchOptions:
    """Per-item budgets and settings, the same for every item."""

    max_time: float | None = None
    max_nodes: int | None = None
    samples: int | None = None
    seed: int | None = 0
    tt_mb: int = DEFAULT_TT_MB


@dataclass(frozen=True)
class Item:
    """One input line: its id, the position (text or JSON), an optional hero seat.

    ``error`` is set when the line itself could not be read.
    """

    id: Any
    position: Any = None
    hero: int | None = None
    error: str | None = None


def _solver(opts: BatchOptions) -> Solver:
    """This worker's solver: allocated once, its table cleared for each item.

    The variation (and the order of the best moves) may follow whatever the
    table holds among equally good lines; cleared, every item gets exactly
    the answer the command gives, on any worker, in any order.
    """
    solver = worker_cache(("solver", opts.tt_mb), lambda: Solver(opts.tt_mb))
    solver.clear()
    return solver


def _search_time(opts: BatchOptions) -> float:
    """A solve/analyse item's time budget: the one given, else the commands' default."""
    return DEFAULT_MAX_TIME if opts.max_time is None else opts.max_time


def _solve(position: Any, hero: int | None, opts: BatchOptions) -> Answer:
    return solve_answer(position, hero, max_time=_search_time(opts), max_nodes=opts.max_nodes,
                        solver=_solver(opts))


def _analyse(position: Any, hero: int | None, opts: BatchOptions) -> Answer:
    return analyse_answer(position, hero, max_time=_search_time(opts),
                          max_nodes=opts.max_nodes, solver=_solver(opts), seed=opts.seed)


def _hint(position: Any, hero: int | None, opts: BatchOptions) -> Answer:
    return hint_answer(position, samples=opts.samples, seed=opts.seed, max_time=opts.max_time,
                       me=hero)


def _review(game: Any, seat: int | None, opts: BatchOptions) -> Answer:
    return review_answer(game, seat, max_time=opts.max_time, samples=opts.samples,
                         seed=opts.seed, solver=_solver(opts))


#: The batch tasks: name -> answer function (position or game record, seat, options).
TASKS: dict[str, Callable[[Any, int | None, BatchOptions], Answer]] = {
    "solve": _solve,
    "analyse": _analyse,
    "hint": _hint,
    "review": _review,
}


# ------------------------------------------------------------------ input

def parse_line(text: str, lineno: int) -> Item | None:
    """One input line as an :class:`Item` (None for a blank or comment line)."""
    s = text.strip()
    if not s or s.startswith("#"):
        return None
    if not s.startswith(("{", '"')):
        return Item(lineno, s)
    try:
        obj = loads(s)
    except json.JSONDecodeError as e:
        return Item(lineno, error=f"IN line {lineno}: not valid JSON: {e.msg} (column {e.colno})")
    except NumberTooLong as e:  # this item's error line; the batch goes on
        return Item(lineno, error=f"IN line {lineno}: {e}")
    except RecursionError:
        return Item(lineno, error=f"IN line {lineno}: JSON nested too deeply")
    if isinstance(obj, str):
        return Item(lineno, obj)
    if not isinstance(obj, dict):
        return Item(lineno, error=f"IN line {lineno}: expected a JSON object or a position")
    ident = obj.get("id", lineno)
    if "position" in obj:
        pos = obj["position"]
    elif "game" in obj:  # a game record (review): its text or its JSON object
        pos = obj["game"]
    elif "hands" in obj:  # the line is a JSON position itself
        pos = {k: v for k, v in obj.items() if k not in ("id", "hero")}
    else:
        return Item(ident, error=f"IN line {lineno}: no \"position\"")
    if not isinstance(pos, (str, dict)):
        return Item(ident, error=f"IN line {lineno}: \"position\" must be a string or an object")
    hero = obj.get("hero", obj.get("seat"))
    if hero is not None and (isinstance(hero, bool) or not isinstance(hero, int)):
        return Item(ident, error=f"IN line {lineno}: \"hero\" must be a seat number, got {hero!r}")
    return Item(ident, pos, hero)


def read_items(lines: Iterable[str], unique_ids: bool = False) -> list[Item]:
    """Every item of the input, in order; ``unique_ids`` refuses an id used twice."""
    items: list[Item] = []
    seen: dict[str, int] = {}
    for n, line in enumerate(lines, 1):
        it = parse_line(line, n)
        if it is None:
            continue
        if unique_ids:
            k = id_key(it.id)
            if k in seen:
                raise OptionError(f"IN line {n}: id {it.id!r} is used twice (line {seen[k]}); "
                                  "--resume needs unique ids")
            seen[k] = n
        items.append(it)
    return items


def id_key(ident: Any) -> str:
    """An id as a comparable key (``1`` and ``"1"`` differ)."""
    return json.dumps(ident, sort_keys=True, ensure_ascii=False)


def done_ids(path: str) -> set[str]:
    """The ids (as :func:`id_key`) already in the output file ``path``.

    A last line cut short (the batch was killed while writing it) is removed
    from the file, so its item is answered again.  (`durak batch --resume`
    reads them from its locked :class:`~solver.run.outfile.LineFile` instead.)
    """
    if not os.path.exists(path):
        return set()
    with open(path, "rb+") as fh:
        data = fh.read()
        end = data.rfind(b"\n") + 1
        if end < len(data):
            fh.truncate(end)
    return ids_in(data[:end].decode("utf-8", "replace"))  # (a line not UTF-8 is no answer)


def ids_in(text: str) -> set[str]:
    """The ids (as :func:`id_key`) of the answer lines ``text``."""
    ids = set()
    for line in text.splitlines():
        try:
            obj = json.loads(line)
        except (ValueError, RecursionError):  # not an answer line (a number too long too)
            continue
        if isinstance(obj, dict) and "id" in obj:
            ids.add(id_key(obj["id"]))
    return ids


# ------------------------------------------------------------------ answers

def answer_item(task: str, item: Item, opts: BatchOptions) -> dict[str, Any]:
    """The output object of one item: its answer or its error, with its id first."""
    head = {"id": item.id}
    if item.error is not None:
        return {**head, "error": item.error, "exit_code": BAD_INPUT}
    try:
        with use_language("en"):  # JSON lines are for programs: English in every language
            ans = TASKS[task](item.position, item.hero, opts)
    except KeyboardInterrupt:
        raise
    except DurakError as e:
        return {**head, "error": " ".join(str(e).split()) or type(e).__name__,
                "exit_code": BAD_INPUT}
    except Exception as e:  # a bug: reported on its line, the batch goes on
        text = shorten(" ".join(str(e).split()))
        return {**head, "error": f"internal error: {type(e).__name__}: {text}",
                "exit_code": INTERNAL}
    if ans.interrupted:  # Ctrl-C inside the search: the batch stops, nothing half-proven is written
        raise KeyboardInterrupt
    obj = {**head, **ans.to_json()}
    if ans.budget is not None:
        obj.update(error=f"budget: {ans.budget}", exit_code=BUDGET)
    return obj


def answer_chunk(task: str, items: list[Item], opts: BatchOptions) -> list[dict[str, Any]]:
    """The output objects of a chunk of items (what a worker runs)."""
    return [answer_item(task, it, opts) for it in items]


class LineSink(Protocol):
    """Where the output lines go: a text stream, or a :class:`~solver.run.outfile.LineFile`."""

    def write(self, text: str, /) -> int: ...

    def flush(self) -> None: ...


@dataclass
class BatchSummary:
    total: int = 0
    skipped: int = 0
    written: int = 0
    errors: int = 0


def run_batch(task: str, items: list[Item], out: LineSink, executor: Executor,
              opts: BatchOptions = BatchOptions(), skip: set[str] | None = None,
              chunk: int | None = None, progress: Callable[[int], None] | None = None,
              summary: BatchSummary | None = None) -> BatchSummary:
    """Answer ``items`` (but those whose id is in ``skip``) on ``executor``, writing
    each output line to ``out`` (flushed) as soon as every earlier one is written,
    one whole line a ``write`` (a :class:`~solver.run.outfile.LineFile` keeps a file
    whole-lined whatever stops the batch).

    ``progress(n)`` is called with the number of items just finished.
    At most :data:`AHEAD_PER_WORKER` chunks a worker finish ahead of the oldest
    chunk still running, so the lines held back are bounded.
    ``summary`` is updated as lines are written (so it is right after Ctrl-C).
    """
    if task not in TASKS:
        raise OptionError(f"task: unknown task {task!r} (known: {', '.join(TASKS)})")
    summary = summary or BatchSummary()
    skip = skip or set()
    todo = [i for i, it in enumerate(items) if id_key(it.id) not in skip]
    summary.total, summary.skipped = len(items), len(items) - len(todo)
    results: dict[int, dict[str, Any]] = {}
    for i in todo:
        if items[i].error is not None:
            results[i] = answer_item(task, items[i], opts)
    work = [i for i in todo if i not in results]
    chunks = chunked(work, chunk or chunk_size(len(work), executor.workers))
    pos = 0

    def flush() -> None:
        nonlocal pos
        while pos < len(todo) and todo[pos] in results:
            obj = results.pop(todo[pos])
            out.write(json.dumps(obj, ensure_ascii=False) + "\n")
            out.flush()
            summary.written += 1
            summary.errors += "error" in obj
            pos += 1

    if progress and results:
        progress(len(results))
    flush()
    jobs = ((task, [items[j] for j in c], opts) for c in chunks)
    ahead = AHEAD_PER_WORKER * executor.workers
    for ci, objs in executor.map_unordered(answer_chunk, jobs, ahead=ahead):
        for j, obj in zip(chunks[ci], objs):
            results[j] = obj
        if progress:
            progress(len(objs))
        flush()
    return summary


__all__ = ["BatchOptions", "BatchSummary", "Item", "TASKS", "answer_chunk", "answer_item",
           "done_ids", "id_key", "ids_in", "parse_line", "read_items", "run_batch"]
