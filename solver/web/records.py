"""Game records on the web board: the boards along a record, a kept game's record.

The review page shows a record's moves and the board before any of them;
:func:`record_view` replays the record (:meth:`solver.games.Game.positions`, the
record's own view: every card in a full record, the asking seat's view in
his) and draws each state as :func:`solver.web.board.board_view` does.  The
review itself is ``POST /api/review`` (or a ``review`` job), `durak review
--json`'s answer.
"""
from __future__ import annotations

import asyncio
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from solver.errors import OptionError
from solver.games import Game
from solver.notation.build import MAX_POSITION_CHARS
from solver.notation.position import Position
from solver.i18n import _, number
from solver.web.api import BadRequest, check_fields, guarded, read_body
from solver.web.board import board_view
from solver.web.store import GameStore


def parse_game(src: Any) -> Game:
    """The ``game`` field: a record's text or its JSON object (413 past the cap)."""
    if isinstance(src, str):
        if len(src) > MAX_POSITION_CHARS:
            raise BadRequest(413, _("game: {n} characters is more than the {most} a record "
                                    "may have here").format(
                n=number(len(src)), most=number(MAX_POSITION_CHARS)))
        return Game.parse(src)
    if isinstance(src, dict):
        return Game.from_json(src)
    raise OptionError(_("game: required field missing (a game record's text or its JSON "
                        "object, docs/game-record.md)"))


def record_view(g: Game) -> dict[str, Any]:
    """The record's moves, with their seats, and the board before each (then the end)."""
    states = g.positions()
    me = g.me
    moves = []
    for i, (seat, mv) in enumerate(g.moves, 1):
        moves.append({"number": i, "seat": seat, "move": str(mv), "token": f"{seat}:{mv}",
                      "pile": states[i - 1].pile})
    boards = [board_view(Position(st, me)) for st in states]
    for b in boards:
        for seat in b["seats"]:
            if seat["me"]:
                seat["name"] = _("record's seat")
    return {"players": g.players, "rules": g.rules.names(), "me": me + 1, "full": g.full,
            "seats": sorted(s + 1 for s in g.deals), "outcome": list(g.outcome() or []) or None,
            "moves": moves, "boards": boards, "record": g.format()}


@guarded
async def api_record(request: Request) -> Response:
    """``{"game": <record>}``: the record's moves and the board before each."""
    body = await read_body(request)
    check_fields(body, ("game",))
    g = await asyncio.to_thread(parse_game, body.get("game"))
    return JSONResponse(await asyncio.to_thread(record_view, g))


@guarded
async def api_kept_record(request: Request) -> Response:
    """The record of a game kept on the server (played or followed), by its id."""
    store: GameStore = request.app.state.store
    game_id = request.path_params["game_id"]
    row = store.load(game_id)
    if row is None:
        raise BadRequest(404, _("no game {id}").format(id=repr(game_id)))
    return PlainTextResponse(row[1], headers={
        "Content-Disposition": f'attachment; filename="durak-game-{game_id}.txt"'})
