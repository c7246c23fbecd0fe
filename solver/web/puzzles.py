"""Puzzles on the web board: the collections, a puzzle's board, the player's moves.

``GET /api/puzzles`` is `durak puzzle list --json`; ``GET /api/puzzles/{id}`` is
`durak puzzle show ID --json` (``?solution=1``: with the solution and its
line) and the board; ``POST /api/puzzles/{id}/move`` plays the player's move
against the solver's best defence, as `durak puzzle train` does
(:mod:`solver.puzzles.train`): a move that keeps the task in reach is played
and answered, a wrong one gets its refutation and the position stays.  The
page keeps the line of moves played (the server keeps nothing per player) and
the solved/failed tally (in the browser's storage).  The collections are the
ones shipped with the package (or ``$DURAK_PUZZLES`` of the server); no
request names a file.
"""
from __future__ import annotations

import asyncio
import datetime as dt
import functools
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, Response

from solver.errors import OptionError
from solver.i18n import _, current
from solver.puzzles.collection import Collection, Puzzle, find_puzzle, tag_word
from solver.puzzles.player import MODES, PlayerStore
from solver.puzzles.rating import provisional_rating
from solver.puzzles.serve import Shelf, daily, next_puzzle
from solver.web.api import check_fields, guarded, read_body, run_until_answer
from solver.web.board import board_view
from solver.web.jobs import WorkerPool
from solver.web.worker import collections

#: The hard cap on one puzzle move's work (seconds): the shipped puzzles take milliseconds.
PUZZLE_WALL = 30.0
#: The most moves a line may hold (a puzzle is a few dozen plies at most).
MAX_LINE = 200


def list_json(colls: list[Collection]) -> dict[str, Any]:
    """`durak puzzle list --json` (without the files' paths, which are the server's), the
    titles in the request's language (the collection files hold them in all three)."""
    lang = current()
    return {"collections": [
        {**{k: v for k, v in c.to_dict().items() if k not in ("puzzles", "path")},
         "title": c.text("title", lang), "introduction": c.text("introduction", lang),
         "puzzles": [{"id": p.id, "title": p.text("title", lang), "task": p.task_text,
                      "plies": p.plies, "nodes": p.nodes, "tags": list(p.tags)}
                     for p in c.puzzles]} for c in colls]}


async def _collections() -> list[Collection]:
    return await asyncio.to_thread(collections)


@functools.lru_cache(maxsize=1)
def shelf() -> Shelf:
    """The shipped puzzles by rating and theme, sorted once per process (about 5 ms for
    3,256 puzzles: not on every request, and never on the event loop)."""
    return Shelf.of(_all(collections()))


def _all(colls: list[Collection]) -> list[Puzzle]:
    return [p for c in colls for p in c.puzzles]


def player_json(player: PlayerStore) -> dict[str, Any]:
    """The dashboard (`durak puzzle stats --json`), the themes to choose among and the
    day's puzzle, the words in the request's language."""
    d = player.stats()
    books = shelf()
    return {**d, "themes": [{**t, "words": tag_word(t["theme"])} for t in d["themes"]],
            "choices": [{"theme": t, "words": tag_word(t), "count": n}
                        for t, n in books.themes()],
            "daily": daily(books.rating, dt.datetime.now(dt.timezone.utc).date())}


@guarded
async def api_player(request: Request) -> Response:
    """The player's rating, its history, accuracy by theme, the streaks, the reviews."""
    return JSONResponse(await asyncio.to_thread(player_json, request.app.state.player))


def _mode(value: Any) -> str:
    if value not in MODES:
        raise OptionError(_("mode: expected one of {modes}").format(modes=", ".join(MODES)))
    return str(value)


@guarded
async def api_next(request: Request) -> Response:
    """The next puzzle served: ``{"id": ..., "why": "due" | "rating" | "streak" | "daily",
    "rating": the puzzle's}``."""
    q = request.query_params
    mode = _mode(q.get("mode", "rated"))
    theme = q.get("theme") or None
    books = await asyncio.to_thread(shelf)
    pid, why = await asyncio.to_thread(next_puzzle, books, request.app.state.player, mode, theme)
    if pid is None:
        raise OptionError(_("theme: no puzzle has the theme '{theme}'").format(theme=theme))
    return JSONResponse({"id": pid, "why": why, "rating": round(books.rating[pid])})


@guarded
async def api_result(request: Request) -> Response:
    """``{"solved": bool, "mode": "rated"}``: keep the first try's result; the answer is
    the rating's change (`durak puzzle train` prints it)."""
    body = await read_body(request)
    check_fields(body, ("solved", "mode"))
    if not isinstance(body.get("solved"), bool):
        raise OptionError(_("solved: expected true or false"))
    mode = _mode(body.get("mode", "rated"))
    p = find_puzzle(await _collections(), request.path_params["puzzle_id"])
    player: PlayerStore = request.app.state.player
    out = await asyncio.to_thread(player.record, p.id, body["solved"], provisional_rating(p),
                                  tuple(p.tags), mode)
    return JSONResponse(out)


@guarded
async def api_puzzles(request: Request) -> Response:
    """The collections and their puzzles (`durak puzzle list --json`)."""
    return JSONResponse(list_json(await _collections()))


@guarded
async def api_puzzle(request: Request) -> Response:
    """One puzzle (`durak puzzle show ID --json`) and its board; ``?solution=1`` adds
    the solution and its line."""
    p = find_puzzle(await _collections(), request.path_params["puzzle_id"])
    d = p.to_dict()
    d["title"] = p.text("title", current())
    if p.comment:
        d["comment"] = p.text("comment", current())
    if request.query_params.get("solution") not in ("1", "true", "yes"):
        d.pop("solution")
        d.pop("pv")
    return JSONResponse({**d, "board": board_view(p.state())})


@guarded
async def api_puzzle_move(request: Request) -> Response:
    """``{"line": ["1:6S", "2:6S/AH", ...], "move": "8C"}``: the player's move after the
    line played so far, judged; with no ``move``, the solver's answers to the line."""
    body = await read_body(request)
    check_fields(body, ("line", "move"))
    find_puzzle(await _collections(), request.path_params["puzzle_id"])  # 400 when unknown
    line = body.get("line") or []
    if not isinstance(line, list) or not all(isinstance(m, str) for m in line):
        raise OptionError(_("line: expected a list of move texts, e.g. {example}").format(
            example='["1:6S", "2:6S/AH"]'))
    if len(line) > MAX_LINE:
        raise OptionError(_("line: {n} moves, at most {most}").format(n=len(line), most=MAX_LINE))
    move = body.get("move")
    if move is not None and (not isinstance(move, str) or not move.strip()
                             or len(move) > 100):
        raise OptionError(_("move: expected a move text, e.g. {example}").format(
            example="6S, 6S/8S, take"))
    pool: WorkerPool = request.app.state.pool
    job = pool.submit("puzzle", {"id": request.path_params["puzzle_id"], "line": line,
                                 "move": move.strip() if move else None}, PUZZLE_WALL)
    return await run_until_answer(request, job)
