"""The HTTP API: the commands' ``--json`` answers, one endpoint each.

``POST /api/show``, ``/api/moves``, ``/api/solve``, ``/api/analyse``,
``/api/hint`` and ``/api/review`` take a JSON body with the position (or the
game record) and the command's options as fields, and answer exactly what
``durak COMMAND --json`` prints.  Bad input gets 400 and the CLI's one line
(``{"error": ...}``); a body larger than the notation's cap gets 413.  Every
heavy answer runs in the worker pool (:mod:`solver.web.jobs`) under a budget:
the commands' defaults, capped by the server (:class:`Limits`).  A budget that
runs out still answers 200 with what was proven, as the commands print it
(exit 3): the headers ``X-Durak-Exit-Code: 3`` and ``X-Durak-Budget`` say so
(the message percent-encoded: a header is ASCII).  A client that goes away
cancels its search.

Every refusal's words are in the request's language (:mod:`solver.i18n`; the
field names and the JSON keys stay English).

``/api/jobs`` runs the same tasks as jobs the page follows (progress, cancel).
"""
from __future__ import annotations

import asyncio
import hashlib
import json
import math
import re
from dataclasses import dataclass
from typing import Any, Awaitable, Callable
from urllib.parse import quote

from starlette.requests import ClientDisconnect, Request
from starlette.responses import JSONResponse, Response

from solver.errors import DurakError, OptionError, PositionError, shorten
from solver.game.defaults import has_hidden_cards
from solver.game.movegen import legal_moves
from solver.game.outcome import outcome_info, phase_name
from solver.games import Game
from solver.games.review import REVIEW_MAX_TIME, REVIEW_SAMPLES
from solver.hints import person_samples
from solver.i18n import _, number
from solver.i18n.lazy import Lazy
from solver.inputs.jsonin import loads
from solver.notation import format_position, parse_position
from solver.notation.build import MAX_POSITION_CHARS
from solver.notation.position import Position, show_json
from solver.search import DEFAULT_MAX_TIME
from solver.search.exact import MAX_NODES
from solver.web.board import board_view, line, show_view
from solver.web.jobs import CANCELLED, GONE, Job, PoolBusy, WorkerPool

#: A request body may hold a position of the notation's cap and this much more
#: (the other fields, JSON quoting); a larger body is refused with 413.
BODY_SLACK = 64 * 1024
#: The most deals a hint request may ask for (the CLI allows 1,000,000).
MAX_SAMPLES = 20_000
#: The most tree-search iterations per deal (``durak hint --iterations``' cap).
MAX_ITERATIONS = 102_400
#: A job may run this much longer than its own time budget before it is killed.
GRACE_SECONDS = 30.0


@dataclass(frozen=True)
class Limits:
    """The server's caps on one request's budget (`durak serve` options)."""

    max_time: float = DEFAULT_MAX_TIME   # solve, analyse, hint: seconds at most
    review_time: float = 30.0            # review: seconds the whole review may take, at most
    review_wall: float = 600.0           # review: seconds for the whole review at most
    max_samples: int = MAX_SAMPLES


class BadRequest(Exception):
    """A request that cannot be answered: its status and one line (in the request's
    language: write it with ``_``)."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status
        self.message = message


def error_response(status: int, message: str | Lazy, **extra: Any) -> JSONResponse:
    """A refusal: ``{"error": message, ...}`` in the request's language, its long tokens
    cut (:func:`~solver.errors.shorten`), so a request never gets its own 50 KB path or
    field back -- whatever raised it (a :class:`BadRequest` quotes a game's id as it came)."""
    return JSONResponse({"error": shorten(str(message)), **extra}, status_code=status)


#: What a header carries of a message as it is: printable ASCII, but the percent sign.
HEADER_SAFE = "".join(chr(c) for c in range(0x20, 0x7f) if chr(c) != "%")


def header_text(message: str) -> str:
    """A message for an HTTP header, which carries ASCII only: percent-encoded as UTF-8
    (RFC 3986), so English reads as it is and ``unquote`` (``decodeURIComponent``)
    gives back any language's text."""
    return quote(message, safe=HEADER_SAFE)


#: The line breaks and runs of blanks a one-line message folds (not the no-break space
#: that holds a number together: ``5 000`` in Lithuanian and Russian).
_BLANKS = re.compile(r"[ \t\r\n\f\v]+")


def one_line(e: BaseException) -> str:
    """The CLI's one line for an error (`durak: error: ...` without the prefix)."""
    return _BLANKS.sub(" ", str(e)).strip() or type(e).__name__


# ------------------------------------------------------------------ reading

async def read_body(request: Request) -> dict[str, Any]:
    """The request's JSON object; 413 past the cap, 400 when it is not a JSON object.

    A GET request's query parameters stand for the body (``/api/show?position=...``,
    the JSON twin of a page's URL).  A POST must say ``Content-Type:
    application/json`` (415 otherwise): a page of another site then cannot post to
    the local server without the browser asking first (CORS), and nobody answers.
    """
    if request.method == "GET":
        return dict(request.query_params)
    ctype = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if ctype != "application/json":
        raise BadRequest(415, _("the body must be JSON, sent as Content-Type: application/json "
                                "(got {type})").format(type=repr(ctype) if ctype else _("none")))
    cap = MAX_POSITION_CHARS + BODY_SLACK
    length = request.headers.get("content-length")
    if length is not None and length.isdigit() and int(length) > cap:
        raise BadRequest(413, _("the request body has {size} bytes; at most {most} (a position "
                                "is at most {chars} characters)").format(
            size=number(int(length)), most=number(cap), chars=number(MAX_POSITION_CHARS)))
    chunks = []
    size = 0
    async for chunk in request.stream():
        size += len(chunk)
        if size > cap:
            raise BadRequest(413, _("the request body has more than {most} bytes (a position "
                                    "is at most {chars} characters)").format(
                most=number(cap), chars=number(MAX_POSITION_CHARS)))
        chunks.append(chunk)
    raw = b"".join(chunks)
    if not raw.strip():
        return {}
    try:
        obj = loads(raw)  # a number too long to read: 400 naming its field (NumberTooLong)
    except (UnicodeDecodeError, json.JSONDecodeError) as e:
        raise BadRequest(400, _("body: not JSON: {error}").format(error=e)) from None
    except RecursionError:
        raise BadRequest(400, _("body: nested too deeply")) from None
    if not isinstance(obj, dict):
        raise BadRequest(400, _("body: expected a JSON object with a \"position\" field"))
    return obj


def check_fields(body: dict[str, Any], allowed: tuple[str, ...]) -> None:
    extra = sorted(set(body) - set(allowed))
    if extra:
        raise OptionError(_("unknown field(s) {fields}; this endpoint takes {allowed}").format(
            fields=", ".join(map(repr, extra)), allowed=", ".join(allowed)))


def int_field(body: dict[str, Any], key: str, lo: int, hi: int | None = None) -> int | None:
    v = body.get(key)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, int):
        raise OptionError(_("{key}: {value} is not a whole number").format(key=key, value=repr(v)))
    if v < lo or (hi is not None and v > hi):
        span = f"{lo}..{number(hi)}" if hi is not None else _("{lo} or more").format(lo=lo)
        raise OptionError(_("{key}: {value} is out of range ({span})").format(
            key=key, value=v, span=span))
    return v


def seconds_field(body: dict[str, Any], key: str) -> float | None:
    v = body.get(key)
    if v is None:
        return None
    if isinstance(v, bool) or not isinstance(v, (int, float)) or not math.isfinite(v) or v <= 0:
        raise OptionError(_("{key}: {value} is not a positive, finite number of seconds")
                          .format(key=key, value=repr(v)))
    return float(v)


def bool_field(body: dict[str, Any], key: str) -> bool:
    v = body.get(key, False)
    if not isinstance(v, bool):
        raise OptionError(_("{key}: {value} is not true or false").format(key=key, value=repr(v)))
    return v


def position_source(body: dict[str, Any]) -> str | dict[str, Any]:
    """The ``position`` field: a position string (text or JSON text) or a JSON object."""
    if "position" not in body or body["position"] is None:
        raise PositionError("position", _("required field missing (a position string or a "
                                          "JSON position, as `durak show` reads)"))
    src = body["position"]
    if isinstance(src, str):
        if len(src) > MAX_POSITION_CHARS:
            raise BadRequest(413, _("position: {n} characters is more than the {most} a "
                                    "position may have").format(
                n=number(len(src)), most=number(MAX_POSITION_CHARS)))
        return src
    if isinstance(src, dict):
        return src
    raise PositionError("position", _("expected a position string or a JSON object, got "
                                      "{type}").format(type=type(src).__name__))


async def parse(body: dict[str, Any]) -> Position:
    """The body's position, parsed off the event loop (a long one takes a while)."""
    return await asyncio.to_thread(parse_position, position_source(body))


# ------------------------------------------------------------ fast answers

def moves_json(pos: Position) -> dict[str, Any]:
    """`durak moves --json`."""
    state = pos.state
    outcome = outcome_info(state)
    moves = [str(m) for m in legal_moves(state)]  # HiddenCardsError -> 400
    obj: dict[str, Any] = {"to_move": state.to_move + 1 if outcome is None else None,
                           "moves": moves, "phase": phase_name(state),
                           "position": format_position(state, pos.me)}
    if outcome is not None:
        obj["outcome"] = outcome
    return obj


# ------------------------------------------------------------ heavy answers

def _hero(body: dict[str, Any], pos: Position, hidden_ok: bool) -> int | None:
    hero = int_field(body, "hero", 1)
    players = pos.state.players
    if hero is not None and hero > players and not (hidden_ok and has_hidden_cards(pos.state)):
        raise PositionError("hero", _("seat {seat} is not in a {n}-player game").format(
            seat=hero, n=players))
    return hero


def _capped(v: float | None, default: float, cap: float) -> float:
    """The asked budget, else the command's default; at most the server's cap."""
    return min(cap, default if v is None else v)


async def prepare(kind: str, body: dict[str, Any], limits: Limits
                  ) -> tuple[dict[str, Any], float]:
    """A task's parameters, checked and within the server's caps, and its wall-clock cap."""
    if kind in ("solve", "analyse"):
        check_fields(body, ("position", "hero", "max_time", "max_nodes", "seed"))
        pos = await parse(body)
        params: dict[str, Any] = {
            "position": pos.to_json(),
            "hero": _hero(body, pos, hidden_ok=kind == "analyse"),
            "max_time": _capped(seconds_field(body, "max_time"), DEFAULT_MAX_TIME, limits.max_time),
            "max_nodes": int_field(body, "max_nodes", 1, MAX_NODES),
            "seed": int_field(body, "seed", 0),
        }
        return params, params["max_time"] + GRACE_SECONDS
    if kind == "hint":
        check_fields(body, ("position", "samples", "time", "max_time", "iterations", "seed",
                             "me"))
        pos = await parse(body)
        t = seconds_field(body, "time") or seconds_field(body, "max_time")
        samples = int_field(body, "samples", 1, limits.max_samples)
        if t is None and samples is None:
            # the command's default deals (a person's); the server's cap on their time
            samples = person_samples(pos.state.players)
        params = {"position": pos.to_json(), "samples": samples,
                  "max_time": min(t, limits.max_time) if t is not None else limits.max_time,
                  "iterations": int_field(body, "iterations", 0, MAX_ITERATIONS),
                  "seed": int_field(body, "seed", 0), "me": int_field(body, "me", 1)}
        return params, params["max_time"] + GRACE_SECONDS
    if kind == "review":
        check_fields(body, ("game", "seat", "all", "max_time", "samples", "seed", "exact_only",
                             "hindsight"))
        game = body.get("game")
        if isinstance(game, str):
            if len(game) > MAX_POSITION_CHARS:
                raise BadRequest(413, _("game: {n} characters is more than the {most} a record "
                                        "may have here").format(
                    n=number(len(game)), most=number(MAX_POSITION_CHARS)))
        elif not isinstance(game, dict):
            raise OptionError(_("game: required field missing (a game record's text or its "
                                "JSON object, docs/game-record.md)"))
        seat = int_field(body, "seat", 1)
        if seat is not None and bool_field(body, "all"):
            raise OptionError(_("give seat or all, not both"))
        # the record's canonical text: bad records get 400 here, and the same game
        # sent as text or JSON is the same request (its answer is kept by content)
        game = await asyncio.to_thread(_canonical_record, game)
        params = {"game": game, "seat": seat, "all": bool_field(body, "all"),
                  "exact_only": bool_field(body, "exact_only"),
                  # every position valued with every card seen (a full record)
                  "hindsight": bool_field(body, "hindsight"),
                  "max_time": _capped(seconds_field(body, "max_time"), REVIEW_MAX_TIME,
                                      limits.review_time),
                  "samples": int_field(body, "samples", 1, limits.max_samples)
                  or REVIEW_SAMPLES,
                  "seed": int_field(body, "seed", 0) or 0,
                  # the whole review's wall-clock cap: past it, the decisions scored so far
                  "wall": limits.review_wall}
        return params, limits.review_wall + GRACE_SECONDS
    raise OptionError(_("unknown task {task}; tasks are solve, analyse, hint, review").format(
        task=repr(kind)))


def _canonical_record(game: str | dict[str, Any]) -> str:
    """A game record's canonical text (:meth:`Game.format`), from its text or JSON."""
    g = Game.from_json(game) if isinstance(game, dict) else Game.parse(game)
    return g.format()


def answer_key(kind: str, params: dict[str, Any]) -> str | None:
    """The content of a request whose answer is kept (a review: the record, the seat,
    the budget, the deals and the seed), or None for the others."""
    if kind != "review":
        return None
    text = json.dumps([kind, params], sort_keys=True, separators=(",", ":"))
    return hashlib.sha256(text.encode()).hexdigest()


def answer_response(job: Job) -> Response:
    """A finished job as the command's answer: 200 and its JSON, or the error's status."""
    if job.state == "done":
        headers = {"X-Durak-Exit-Code": str(job.exit_code)}
        if job.budget:  # the message in the request's language, as a header carries it
            headers["X-Durak-Budget"] = header_text(job.budget)
        return JSONResponse(job.answer, headers=headers)
    code = job.exit_code
    if job.state == "cancelled":
        # the server stopping (Ctrl-C, SIGTERM) is its own doing: 503, the reason, try again
        return error_response(503 if job.stopped else 499, job.error or CANCELLED,
                              exit_code=job.exit_code or 130)
    # a job process that could not start is the server's state, not a bug: 503 and why
    status = 400 if code == 2 else 503 if code == 3 or job.unavailable else 500
    return error_response(status, job.error or _("error"), exit_code=code)


Handler = Callable[[Request], Awaitable[Response]]


def guarded(fn: Handler) -> Handler:
    """Bad input -> 400 with the CLI's line; a full pool -> 503; a client gone before its
    body came -> 499 (nobody reads it); a bug -> 500, one line."""

    async def wrapper(request: Request) -> Response:
        try:
            return await fn(request)
        except BadRequest as e:
            return error_response(e.status, e.message)
        except ClientDisconnect:  # gone while its body came (or the server stopped it): no bug
            return error_response(499, GONE, exit_code=130)
        except DurakError as e:
            field = getattr(e, "field", None)
            return error_response(400, one_line(e), **({"field": field} if field else {}),
                                  exit_code=2)
        except PoolBusy as e:
            return error_response(503, str(e))
        except Exception as e:  # a bug: one line, the server goes on
            return error_response(500, _("internal error: {error}").format(
                error=f"{type(e).__name__}: {one_line(e)}"), exit_code=1)

    wrapper.__name__ = fn.__name__
    wrapper.__doc__ = fn.__doc__
    return wrapper


def _pool(request: Request) -> WorkerPool:
    pool: WorkerPool = request.app.state.pool
    return pool


def _limits(request: Request) -> Limits:
    limits: Limits = request.app.state.limits
    return limits


async def run_until_answer(request: Request, job: Job) -> Response:
    """Wait for a job; a client that goes away cancels it."""
    pool = _pool(request)
    assert job.future is not None
    while True:
        done, _pending = await asyncio.wait({job.future}, timeout=0.25)
        if done:
            return answer_response(job)
        if await request.is_disconnected():
            pool.cancel(job, GONE)
            return error_response(499, GONE, exit_code=130)


def heavy(kind: str) -> Handler:
    async def endpoint(request: Request) -> Response:
        body = await read_body(request)
        params, wall = await prepare(kind, body, _limits(request))
        job = _pool(request).submit(kind, params, wall, key=answer_key(kind, params))
        return await run_until_answer(request, job)

    endpoint.__name__ = f"api_{kind}"
    endpoint.__doc__ = f"`durak {kind} --json` (runs in the worker pool)."
    return guarded(endpoint)


@guarded
async def api_show(request: Request) -> Response:
    """`durak show --json`: canonical position, JSON form, phase, to move, legal moves."""
    body = await read_body(request)
    check_fields(body, ("position",))
    return JSONResponse(show_json(await parse(body)))


@guarded
async def api_moves(request: Request) -> Response:
    """`durak moves --json`: the legal moves (400 when the mover's hand is hidden)."""
    body = await read_body(request)
    check_fields(body, ("position",))
    return JSONResponse(moves_json(await parse(body)))


@guarded
async def api_board(request: Request) -> Response:
    """The page's view of a position: `show --json` plus the board to draw."""
    body = await read_body(request)
    check_fields(body, ("position",))
    return JSONResponse(show_view(await parse(body)))


@guarded
async def api_line(request: Request) -> Response:
    """The boards along a sequence of moves (a variation, or moves made by clicks)."""
    body = await read_body(request)
    check_fields(body, ("position", "moves"))
    moves = body.get("moves") or []
    if not isinstance(moves, list):
        raise OptionError("moves: expected a list of move texts")
    pos = await parse(body)
    positions = await asyncio.to_thread(line, pos, moves)
    return JSONResponse({"moves": moves, "boards": [board_view(p) for p in positions]})


@guarded
async def api_jobs_create(request: Request) -> Response:
    """Start a task as a job the page follows: ``{"task": "analyse", ...fields}``."""
    body = await read_body(request)
    kind = body.pop("task", None)
    if kind not in ("solve", "analyse", "hint", "review"):
        raise OptionError(_("task: {task}; tasks are solve, analyse, hint, review").format(
            task=repr(kind)))
    params, wall = await prepare(kind, body, _limits(request))
    job = _pool(request).submit(kind, params, wall, watched=True, key=answer_key(kind, params))
    return JSONResponse(job.to_json(), status_code=202)


def _job(request: Request) -> Job:
    job = _pool(request).get(request.path_params["job_id"])
    if job is None:
        raise BadRequest(404, _("no job {id} (finished jobs are kept for 10 minutes)").format(
            id=repr(request.path_params["job_id"])))
    return job


@guarded
async def api_job(request: Request) -> Response:
    """A job's state and progress; its answer once done."""
    return JSONResponse(_job(request).to_json())


@guarded
async def api_job_cancel(request: Request) -> Response:
    """Cancel a job: its search stops at once."""
    job = _job(request)
    _pool(request).cancel(job, CANCELLED)
    return JSONResponse(job.to_json())


@guarded
async def api_status(request: Request) -> Response:
    """The server: version, workers, jobs running and waiting, caps."""
    from_app = request.app.state
    limits = _limits(request)
    return JSONResponse({"version": from_app.version, **_pool(request).stats(),
                         "caps": {"max_time": limits.max_time, "review_time": limits.review_time,
                                  "review_wall": limits.review_wall,
                                  "max_samples": limits.max_samples,
                                  "position_chars": MAX_POSITION_CHARS}})


__all__ = ["BadRequest", "Limits", "answer_response", "bool_field", "check_fields",
           "header_text", "int_field",
           "seconds_field", "api_board", "api_job", "api_job_cancel",
           "api_jobs_create", "api_line", "api_moves", "api_show", "api_status", "guarded",
           "heavy", "moves_json", "prepare", "read_body"]
