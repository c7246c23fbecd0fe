"""Games against the engine on the web board: the game-session model behind HTTP.

A game is a :class:`~solver.games.session.GameSession` (the one model `durak
play` uses too): this module only keeps sessions, saves each one's record in
the game store after every change (so a game survives a reload and a server
restart), lets the engine answer in the background and turns the session's
:meth:`~solver.games.session.GameSession.snapshot` into the board the page
draws.  The engine's moves and the hints run in the worker pool: a session's
record goes to a worker, which loads it, plays the engine's move (or scores
the player's moves) and sends the record (or the answer) back.
"""
from __future__ import annotations

import asyncio
import contextlib
from collections import OrderedDict
from typing import Any, AsyncIterator

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from solver.errors import MoveError, OptionError
from solver.game.cards import SUIT_SYMBOLS, SUITS
from solver.game.moves import Move
from solver.game.rules import parse_rules
from solver.games import session
from solver.games.narration import game_over
from solver.games.session import DEFAULT_STRENGTH
from solver.i18n import N_, _
from solver.i18n.lazy import Lazy, text
from solver.play.seats import GameSession
from solver.web.api import (BadRequest, check_fields, error_response, guarded, int_field,
                            read_body, seconds_field)
from solver.web.board import move_view
from solver.web.jobs import Job, WorkerPool
from solver.web.store import GameStore
from solver.web.sync import Stale, Sync, fields, optional_body

#: The strengths the page offers (the session's, but ``random``, which is for tests).
STRENGTHS = ("greedy", "hint", "strong")
#: Sessions kept in memory (the others are loaded from the store when asked for).
CACHED = 64
#: The hard cap on one engine move (seconds): the strongest engine takes a few.
ENGINE_WALL = 300.0
#: The longest a player's hint may take (seconds).
HINT_CAP = 60.0


#: The line under the table on the player's turn, by the phase.
_YOUR_MOVE = {"lead": N_("Your move: lead a card"),
              "defend": N_("Your move: cover every card or take"),
              "throw": N_("Your move: throw in a card or pass"),
              "taken": N_("Your move: throw in a card before the take, or pass")}


def board_of(snap: dict[str, Any], thinking: bool, status: str | None = None
             ) -> dict[str, Any]:
    """The page's board (:func:`solver.web.board.board_view`'s form) from a session's
    snapshot; ``status``: the line under the table (default: a game against the engine's)."""
    override = status
    deck = 52 if "deck=52" in snap["rules"] else 24 if "deck=24" in snap["rules"] else 36
    turn = snap["turn"]
    to_move = turn["seat"]
    seats = []
    for s in snap["seats"]:
        name = _("you") if s["me"] else _("engine") if s["engine"] else None
        seats.append({"seat": s["seat"], "name": name, "cards": s["cards"], "hidden": s["hidden"],
                      "size": s["size"], "roles": [r for r in s["roles"] if r != "to move"],
                      "to_move": not snap["over"] and s["seat"] == to_move,
                      "me": s["me"]})
    moves = None
    if snap["moves"] is not None and not thinking:
        moves = [move_view(Move.parse(m, deck)) for m in snap["moves"]]
    if snap["over"]:
        status = game_over(snap["outcome"], snap["outcome"]["scores"][snap["me"] - 1])
    elif to_move == snap["me"]:
        status = _(_YOUR_MOVE[turn["phase"]])
    else:
        status = (_("Seat {seat} (engine) is thinking…") if thinking
                  else _("Seat {seat} (engine) to move")).format(seat=to_move)
    if override is not None:
        status = override
    return {
        "position": snap["position"], "players": snap["players"], "rules": snap["rules"],
        "trump": snap["trump"], "trump_symbol": SUIT_SYMBOLS[SUITS.index(snap["trump"])],
        "seats": seats,
        "table": [{"attack": a, "cover": c} for a, c in snap["table"]],
        "limit": snap["limit"], "take": snap["take"],
        "pile": {"count": snap["pile"], "face_up": snap["trump_card"], "order": None},
        "out": snap["out"], "phase": turn["phase"], "to_move": None if snap["over"] else to_move,
        "status": status, "moves": moves or [], "moves_unknown": None,
        "outcome": snap["outcome"],
    }


class GameLocks:
    """One lock per game, held while a change to it is made, and kept only while some
    request holds or waits for it: a lock kept for every game ever changed grew with
    every game played (issue 73's soak)."""

    def __init__(self) -> None:
        self._locks: dict[str, tuple[asyncio.Lock, int]] = {}  # the lock, its users

    @contextlib.asynccontextmanager
    async def hold(self, game_id: str) -> AsyncIterator[None]:
        lock, users = self._locks.get(game_id, (None, 0))
        if lock is None:
            lock = asyncio.Lock()
        self._locks[game_id] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._locks[game_id]
            if users == 1:
                del self._locks[game_id]
            else:
                self._locks[game_id] = (lock, users - 1)

    def __len__(self) -> int:
        return len(self._locks)


class Games:
    """The server's games: sessions by id, the engine's background moves, the store."""

    def __init__(self, store: GameStore, pool: WorkerPool):
        self.store = store
        self.pool = pool
        self._sessions: OrderedDict[str, GameSession] = OrderedDict()
        self._syncs: dict[str, Sync] = {}
        self.locks = GameLocks()
        #: The engine's background moves in progress (a finished one is dropped).
        self._advancing: dict[str, asyncio.Task[None]] = {}
        self._engine_jobs: dict[str, Job] = {}
        self._errors: dict[str, str | Lazy] = {}  # the engine's failure, in the reader's words

    async def close(self) -> None:
        """Stop the engine's background moves (the server is stopping)."""
        moving = list(self._advancing.values())
        for t in moving:
            t.cancel()
        await asyncio.gather(*moving, return_exceptions=True)

    # ------------------------------------------------------------ sessions
    def session(self, game_id: str) -> GameSession:
        s = self._sessions.get(game_id)
        if s is None:
            row = self.store.load(game_id)
            if row is None:
                raise BadRequest(404, _("no game {id}").format(id=repr(game_id)))
            if row[0].get("kind", "play") != "play":
                raise BadRequest(404, _("no game {id} against the engine (it is a game "
                                        "followed at a table: {path})").format(
                    id=repr(game_id), path=f"/api/follow/{game_id}"))
            s = GameSession.load(row[1])
            self._syncs[game_id] = Sync.of(row[0])
            self._keep(game_id, s)
        self._sessions.move_to_end(game_id)
        return s

    def sync(self, game_id: str) -> Sync:
        """The game's version and latest entry ids (:mod:`solver.web.sync`)."""
        self.session(game_id)
        return self._syncs.setdefault(game_id, Sync())

    def _keep(self, game_id: str, s: GameSession) -> None:
        self._sessions[game_id] = s
        self._sessions.move_to_end(game_id)
        idle = [g for g in self._sessions if not self.thinking(g) and g != game_id]
        for old in idle[:max(0, len(self._sessions) - CACHED)]:
            del self._sessions[old]  # the store has it
            self._syncs.pop(old, None)

    def _save(self, game_id: str, s: GameSession, meta: dict[str, Any] | None = None,
              entry_id: str | None = None) -> None:
        """Keep the game in the store, one version on (:mod:`solver.web.sync`)."""
        if meta is None:
            row = self.store.load(game_id)
            meta = row[0] if row else {}
        sync = self._syncs.setdefault(game_id, Sync.of(meta))
        sync.bump(entry_id)
        self.store.save(game_id, {**meta, **sync.meta()}, s.record_text(), s.is_over)

    def thinking(self, game_id: str) -> bool:
        t = self._advancing.get(game_id)
        return t is not None and not t.done()

    def view(self, game_id: str) -> dict[str, Any]:
        s = self.session(game_id)
        thinking = self.thinking(game_id)
        snap = s.snapshot()
        out = {"id": game_id, "board": board_of(snap, thinking), "snapshot": snap,
               "thinking": thinking, "over": s.is_over, "outcome": s.outcome,
               "me": s.me, "strength": s.strength, "moves_played": len(s.entries),
               "log": s.log(), "version": self.sync(game_id).version}
        err = self._errors.get(game_id)
        if err:
            out["engine_error"] = text(err)
        return out

    # ------------------------------------------------------------ changes
    async def create(self, body: dict[str, Any]) -> str:
        check_fields(body, ("players", "rules", "engine", "seed"))
        players = int_field(body, "players", 2, 6) or 2
        rules_names = body.get("rules") or []
        if not isinstance(rules_names, list) or not all(isinstance(r, str) for r in rules_names):
            raise OptionError(_("rules: expected a list of option names, e.g. {example}").format(
                example='["transfer"]'))
        try:
            rules = parse_rules(rules_names)
        except ValueError as e:
            raise OptionError(f"rules: {e}") from None
        engine = body.get("engine") or DEFAULT_STRENGTH
        if engine not in STRENGTHS:
            raise OptionError(_("engine: {engine}; the engine plays at {strengths}").format(
                engine=repr(engine), strengths=", ".join(STRENGTHS)))
        seed = int_field(body, "seed", 0)
        s = await asyncio.to_thread(GameSession.new, players, rules, seed, 1, engine)
        game_id = self.store.new_id()
        meta = {"kind": "play", "players": players, "rules": rules.names(), "engine": engine, "human": 1,
                "seed": seed}
        self._syncs[game_id] = Sync()
        self._keep(game_id, s)
        self._save(game_id, s, meta)
        self.advance(game_id)
        return game_id

    async def play(self, game_id: str, move: Any, made_on: int | None = None,
                   entry_id: str | None = None) -> None:
        if not isinstance(move, str) or not move.strip():
            raise MoveError(_("move: expected a move text, e.g. {example}").format(
                example="6S, 6S/8S, take"))
        async with self.locks.hold(game_id):
            if self.sync(game_id).seen(entry_id):
                return  # sent again after a lost connection: played already
            self.sync(game_id).check(made_on)
            if self.thinking(game_id):
                raise BadRequest(409, _("the engine is choosing its move; wait for it"))
            s = self.session(game_id)
            t = s.turn()
            if t.seat != s.me:
                raise MoveError(_("it is seat {seat}'s turn, not yours").format(seat=t.seat)
                                if t.seat else _("the game is over"))
            head, _sep, body = move.strip().rpartition(":")
            if head and head.strip() != str(s.me):
                raise MoveError(_("move {move}: you play seat {seat}").format(move=repr(move),
                                                                               seat=s.me))
            s.play(body, seat=s.me)  # DurakError: one line, nothing changed
            self._save(game_id, s, entry_id=entry_id)
        self.advance(game_id)

    async def undo(self, game_id: str, made_on: int | None = None,
                   entry_id: str | None = None) -> None:
        if self.sync(game_id).seen(entry_id):
            return
        self.sync(game_id).check(made_on)
        await self.stop_engine(game_id)
        async with self.locks.hold(game_id):
            s = self.session(game_id)
            if not any(e.startswith(f"{s.me}:") for e in s.entries):
                raise MoveError(_("nothing to undo: you have not moved yet"))
            s.undo_turn()
            self._save(game_id, s, entry_id=entry_id)
        self.advance(game_id)

    async def stop_engine(self, game_id: str) -> None:
        job = self._engine_jobs.get(game_id)
        if job is not None:
            self.pool.cancel(job, Lazy(N_("the player took a move back")))
        task = self._advancing.get(game_id)
        if task is not None:
            await asyncio.gather(task, return_exceptions=True)

    def advance(self, game_id: str) -> None:
        """Let the engine move in the background until it is the player's turn."""
        if self.thinking(game_id):
            return
        s = self.session(game_id)
        if s.is_over or not s.engine_to_move:
            return
        self._errors.pop(game_id, None)
        task = asyncio.create_task(self._advance(game_id))
        self._advancing[game_id] = task
        task.add_done_callback(lambda t: self._advancing.pop(game_id, None)
                               if self._advancing.get(game_id) is t else None)

    async def _advance(self, game_id: str) -> None:
        try:
            while True:
                s = self.session(game_id)
                if s.is_over or not s.engine_to_move:
                    return
                job = self.pool.submit("engine", {"record": s.record_text()}, ENGINE_WALL)
                self._engine_jobs[game_id] = job
                await self.pool.wait(job)
                self._engine_jobs.pop(game_id, None)
                if job.state != "done":
                    if job.state != "cancelled":
                        self._errors[game_id] = job.error or Lazy(N_("the engine failed"))
                    return
                assert job.answer is not None
                async with self.locks.hold(game_id):
                    moved = GameSession.load(job.answer["record"])
                    self._keep(game_id, moved)
                    self._save(game_id, moved)
        except Exception as e:  # noqa: BLE001 -- reported to the page, the server goes on
            self._errors[game_id] = Lazy(N_("internal error: {error}"),
                                         error=f"{type(e).__name__}: {e}")

    def hint_job(self, game_id: str, body: dict[str, Any]) -> Job:
        check_fields(body, ("samples", "time"))
        s = self.session(game_id)
        if self.thinking(game_id):
            raise BadRequest(409, _("the engine is choosing its move; a hint is for your turn"))
        return submit_hint(self.pool, s, body)


def submit_hint(pool: WorkerPool, s: session.GameSession, body: dict[str, Any]) -> Job:
    """A job answering the player's hint in ``s`` (a game played or followed): the
    session's checks first (one line, 400), then its advice in a worker."""
    s.check_hint()
    samples = int_field(body, "samples", 1, 20_000)
    t_max = seconds_field(body, "time")
    params = {"record": s.record_text(), "samples": samples,
              "max_time": min(t_max, HINT_CAP) if t_max else HINT_CAP}
    return pool.submit("game_hint", params, HINT_CAP + 30, watched=True)


# ---------------------------------------------------------------- routes

def _games(request: Request) -> Games:
    games: Games = request.app.state.games
    return games


@guarded
async def api_games_create(request: Request) -> Response:
    """A new deal against the engine: ``{"players": 2, "rules": [...], "engine": "hint"}``."""
    games = _games(request)
    game_id = await games.create(await read_body(request))
    return JSONResponse(games.view(game_id), status_code=201)


@guarded
async def api_games_list(request: Request) -> Response:
    """The games kept, most recent first."""
    return JSONResponse({"games": _games(request).store.recent()})


@guarded
async def api_game(request: Request) -> Response:
    """A game as the player sees it (the engine answers in the background)."""
    games = _games(request)
    game_id = request.path_params["game_id"]
    games.session(game_id)
    games.advance(game_id)  # after a server restart the engine may be to move
    return JSONResponse(games.view(game_id))


@guarded
async def api_game_play(request: Request) -> Response:
    """The player's move: ``{"move": "6S"}``."""
    games = _games(request)
    game_id = request.path_params["game_id"]
    body = await read_body(request)
    check_fields(body, ("move", "version", "entry_id"))
    games.session(game_id)
    try:
        await games.play(game_id, body.get("move"), *fields(body))
    except Stale as e:
        return error_response(409, e.message, game=games.view(game_id))
    return JSONResponse(games.view(game_id))


@guarded
async def api_game_version(request: Request) -> Response:
    """The game's version: the pages poll it and fetch the game when it moved on."""
    return JSONResponse({"version": _games(request).sync(request.path_params["game_id"]).version})


@guarded
async def api_game_undo(request: Request) -> Response:
    """Take back the player's last move and the engine's answers after it."""
    games = _games(request)
    game_id = request.path_params["game_id"]
    body = await optional_body(request)
    check_fields(body, ("version", "entry_id"))
    games.session(game_id)
    try:
        await games.undo(game_id, *fields(body))
    except Stale as e:
        return error_response(409, e.message, game=games.view(game_id))
    return JSONResponse(games.view(game_id))


@guarded
async def api_game_hint(request: Request) -> Response:
    """A hint for the player's move, as a job (poll ``/api/jobs/{id}``)."""
    games = _games(request)
    job = games.hint_job(request.path_params["game_id"], await read_body(request))
    return JSONResponse(job.to_json(), status_code=202)


@guarded
async def api_game_record(request: Request) -> Response:
    """The game's record (docs/game-record.md), as a file to download."""
    game_id = request.path_params["game_id"]
    s = _games(request).session(game_id)
    return PlainTextResponse(s.record_text(), headers={
        "Content-Disposition": f'attachment; filename="durak-game-{game_id}.txt"'})
