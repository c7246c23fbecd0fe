"""The API described for programs: the OpenAPI document served at ``/api/openapi.json``.

Written out by hand (Starlette has no schema of its own to derive it from); a
test holds its paths equal to the app's routes.  docs/web.md is the prose.
"""
from __future__ import annotations

from typing import Any

_POSITION = {"description": "A position: the notation's string (docs/notation.md), JSON text, "
                            "or a JSON position object; what `durak show` reads.",
             "oneOf": [{"type": "string", "maxLength": 1_000_000}, {"type": "object"}]}
_SEAT = {"type": "integer", "minimum": 1}
_SECONDS = {"type": "number", "exclusiveMinimum": 0}
_SEED = {"type": "integer", "minimum": 0}
_GAME_ID = {"name": "game_id", "in": "path", "required": True, "schema": {"type": "string"}}
#: An entry's optional fields for two devices on one game (solver/web/sync.py).
_SYNC = {"version": {"type": "integer", "minimum": 0,
                     "description": "the game's version the entry was made on: another is "
                                    "refused with 409 and the game as it is now (`game`)"},
         "entry_id": {"type": "string", "pattern": "^[A-Za-z0-9_-]{1,64}$",
                      "description": "an id the client made: sent again, the entry is not "
                                     "entered twice"}}
_STALE = {"409": {"description": "made on an older version: `{\"error\": ..., \"game\": the "
                                 "game as it is now}`, nothing changed"}}
_VERSION = {"summary": "The game's version, one more at every change: poll it, and fetch "
                       "the game when it moved on (two devices on one game)",
            "parameters": [], "responses": {"200": {"description": "`{\"version\": N}`"},
                                            "404": {"description": "no such game"}}}
_PUZZLE_ID = {"name": "puzzle_id", "in": "path", "required": True, "schema": {"type": "string"}}


def _body(props: dict[str, Any], required: tuple[str, ...] = ("position",)) -> dict[str, Any]:
    return {"required": True, "content": {"application/json": {"schema": {
        "type": "object", "additionalProperties": False, "properties": props,
        "required": list(required)}}}}


_ERRORS = {
    "400": {"description": "Bad input: `{\"error\": one line, \"field\": ..., \"exit_code\": 2}`, "
                           "the line `durak` prints after `durak: error:`."},
    "413": {"description": "The body or the position is larger than the notation's cap "
                           "(1,000,000 characters)."},
    "415": {"description": "The body is not sent as `application/json`."},
}
_HEAVY = {
    **_ERRORS,
    "499": {"description": "Cancelled: the client went away (its search was stopped)."},
    "503": {"description": "The server is busy (its queue is full), or its hard cap on one "
                           "job's time ran out before an answer."},
}


def _answer(what: str) -> dict[str, Any]:
    return {"200": {"description": f"Exactly what `{what} --json` prints. When a budget ran "
                                   "out (the command's exit 3) the answer says what was proven "
                                   "and the headers `X-Durak-Exit-Code: 3` and `X-Durak-Budget` "
                                   "say so (the message in the request's language, "
                                   "percent-encoded as UTF-8: a header is ASCII).",
                    "content": {"application/json": {"schema": {"type": "object"}}}}}


_SOLVE = {"position": _POSITION, "hero": _SEAT, "max_time": _SECONDS,
          "max_nodes": {"type": "integer", "minimum": 1},
          "seed": {**_SEED, "description": "analyse on hidden cards: the deals' seed"}}


def openapi_spec(version: str) -> dict[str, Any]:
    """The OpenAPI 3.1 document of the app's API."""
    def post(summary: str, body: dict[str, Any], responses: dict[str, Any]) -> dict[str, Any]:
        return {"post": {"summary": summary, "requestBody": body, "responses": responses}}

    paths: dict[str, Any] = {
        "/api/show": {**post("`durak show --json`: canonical position, JSON form, phase, to "
                             "move, legal moves", _body({"position": _POSITION}),
                             {**_answer("durak show"), **_ERRORS}),
                      "get": {"summary": "The same, the position as a query parameter",
                              "parameters": [{"name": "position", "in": "query",
                                              "required": True, "schema": {"type": "string"}}],
                              "responses": {**_answer("durak show"), **_ERRORS}}},
        "/api/moves": {**post("`durak moves --json`: the legal moves",
                              _body({"position": _POSITION}),
                              {**_answer("durak moves"), **_ERRORS}),
                       "get": {"summary": "The same, the position as a query parameter",
                               "parameters": [{"name": "position", "in": "query",
                                               "required": True, "schema": {"type": "string"}}],
                               "responses": {**_answer("durak moves"), **_ERRORS}}},
        "/api/solve": post("`durak solve --json`: value, best moves, variation, distance",
                           _body(_SOLVE), {**_answer("durak solve"), **_HEAVY}),
        "/api/analyse": post("`durak analyse --json`: every move's value and distance (the "
                             "hint table on hidden cards)", _body(_SOLVE),
                             {**_answer("durak analyse"), **_HEAVY}),
        "/api/hint": post("`durak hint --json`: every move scored on sampled deals",
                          _body({"position": _POSITION,
                                 "samples": {"type": "integer", "minimum": 1},
                                 "time": _SECONDS, "max_time": _SECONDS,
                                 "iterations": {"type": "integer", "minimum": 0},
                                 "seed": _SEED, "me": _SEAT}),
                          {**_answer("durak hint"), **_HEAVY}),
        "/api/review": post("`durak review --json`: every decision of a seat valued",
                            _body({"game": {"oneOf": [{"type": "string"}, {"type": "object"}],
                                            "description": "a game record (docs/game-record.md)"},
                                   "seat": _SEAT, "all": {"type": "boolean"},
                                   "exact_only": {"type": "boolean"},
                                   "hindsight": {"type": "boolean", "description":
                                                 "also every position valued with every "
                                                 "card seen (`--hindsight`)"},
                                   "max_time": _SECONDS,
                                   "samples": {"type": "integer", "minimum": 1},
                                   "seed": _SEED}, ("game",)),
                            {**_answer("durak review"), **_HEAVY}),
        "/api/board": {**post("The page's view: `durak show --json` plus `board`, what the board "
                              "draws (seats, table, pile, discards, moves with their cards)",
                              _body({"position": _POSITION}), {"200": {"description": "ok"},
                                                               **_ERRORS}),
                       "get": {"summary": "The same, the position as a query parameter",
                               "parameters": [{"name": "position", "in": "query",
                                               "required": True, "schema": {"type": "string"}}],
                               "responses": {"200": {"description": "ok"}, **_ERRORS}}},
        "/api/line": post("The boards along a sequence of moves from a position",
                          _body({"position": _POSITION,
                                 "moves": {"type": "array", "items": {"type": "string"}}}),
                          {"200": {"description": "`{\"moves\": [...], \"boards\": [...]}`"},
                           **_ERRORS}),
        "/api/jobs": post("Start solve, analyse, hint or review as a job to follow: the same "
                          "fields and a `task`", {"required": True, "content": {
                              "application/json": {"schema": {"type": "object"}}}},
                          {"202": {"description": "the job: id, task, state, progress"},
                           **_HEAVY}),
        "/api/jobs/{job_id}": {
            "get": {"summary": "A job's state and progress; its answer once done (a job nobody "
                               "asks about for 15 s is cancelled)",
                    "parameters": [{"name": "job_id", "in": "path", "required": True,
                                    "schema": {"type": "string"}}],
                    "responses": {"200": {"description": "the job"},
                                  "404": {"description": "no such job"}}},
            "delete": {"summary": "Cancel a job: its search stops at once",
                       "parameters": [{"name": "job_id", "in": "path", "required": True,
                                       "schema": {"type": "string"}}],
                       "responses": {"200": {"description": "the job, cancelled"},
                                     "404": {"description": "no such job"}}}},
        "/api/games": {
            **post("A new deal against the engine; the player is seat 1",
                   _body({"players": {"type": "integer", "minimum": 2, "maximum": 6},
                          "rules": {"type": "array", "items": {"type": "string"}},
                          "engine": {"enum": ["greedy", "hint", "strong"]}, "seed": _SEED},
                         ()),
                   {"201": {"description": "the game"}, **_ERRORS}),
            "get": {"summary": "The games kept, most recent first",
                    "responses": {"200": {"description": "`{\"games\": [...]}`"}}}},
        "/api/games/{game_id}": {"get": {
            "summary": "A game as the player sees it: `board`, `snapshot` (the game-session "
                       "model's), `thinking`, `over`, `outcome`",
            "parameters": [_GAME_ID], "responses": {"200": {"description": "the game"},
                                                    "404": {"description": "no such game"}}}},
        "/api/games/{game_id}/play": {**post(
            "The player's move (the engine answers in the background)",
            _body({"move": {"type": "string"}, **_SYNC}, ("move",)),
            {"200": {"description": "the game"}, "409": {"description": "the engine is moving, "
                                                         "or another device moved first "
                                                         "(`game`: the game as it is now)"},
             **_ERRORS}), "parameters": [_GAME_ID]},
        "/api/games/{game_id}/version": {"get": {**_VERSION, "parameters": [_GAME_ID]}},
        "/api/games/{game_id}/undo": {**post(
            "Take back the player's last move and the engine's answers",
            {"required": False, "content": {"application/json": {"schema": {
                "type": "object", "additionalProperties": False, "properties": _SYNC}}}},
            {"200": {"description": "the game"}, **_STALE, **_ERRORS}),
            "parameters": [_GAME_ID]},
        "/api/games/{game_id}/hint": {**post(
            "A hint for the player's move, as a job (poll /api/jobs/{id}): `durak hint --json`",
            _body({"samples": {"type": "integer", "minimum": 1}, "time": _SECONDS}, ()),
            {"202": {"description": "the job"}, **_HEAVY}), "parameters": [_GAME_ID]},
        "/api/games/{game_id}/record": {"get": {
            "summary": "The game's record (docs/game-record.md) as a text file",
            "parameters": [_GAME_ID],
            "responses": {"200": {"description": "the record",
                                  "content": {"text/plain": {}}}}}},
        "/api/follow": {
            **post("A game to follow at a real table from one seat: the deal (players, "
                   "rules, your seat, who leads, the face-up trump, your six cards), or a "
                   "record to go on from; 201 and the game",
                   _body({"players": {"type": "integer", "minimum": 2, "maximum": 6},
                          "rules": {"type": "array", "items": {"type": "string"}},
                          "seat": _SEAT, "attacker": _SEAT,
                          "trump": {"type": "string", "description": "the face-up trump card, "
                                    "or the suit when the deal leaves no pile"},
                          "deal": {"oneOf": [{"type": "array", "items": {"type": "string"}},
                                             {"type": "string"}]},
                          "record": {"type": "string", "maxLength": 1_000_000}}, ()),
                   {"201": {"description": "the game (as GET /api/follow/{game_id})"},
                    **_ERRORS}),
            "get": {"summary": "The followed games kept, most recent first",
                    "responses": {"200": {"description": "ok"}}}},
        "/api/follow/{game_id}": {"get": {
            "summary": "A followed game: `board` (your view), `grid` (every card and its place "
                       "as you know it), `ask` (what to enter next: your move, your drawn "
                       "cards, or another seat's move with each card's possible entries and "
                       "take/pass), `snapshot`, `entries`",
            "parameters": [_GAME_ID], "responses": {"200": {"description": "ok"},
                                                    "404": {"description": "no such game"}}}},
        "/api/follow/{game_id}/enter": {**post(
            "One entry of what happened at the table (`2:6D`, `1:6D/8D`, `3:+8C`, `2:take`, "
            "`3:pass`, `draw 7H KD`); a bad one is 400 with the session's line, nothing "
            "changed", _body({"entry": {"type": "string", "maxLength": 200}, **_SYNC},
                             ("entry",)),
            {"200": {"description": "the game after the entry"}, **_STALE, **_ERRORS}),
            "parameters": [_GAME_ID]},
        "/api/follow/{game_id}/version": {"get": {**_VERSION, "parameters": [_GAME_ID]}},
        "/api/follow/{game_id}/undo": {**post("Take back the last entry",
                                              {"required": False, "content": {
                                                  "application/json": {"schema": {
                                                      "type": "object",
                                                      "additionalProperties": False,
                                                      "properties": _SYNC}}}},
                                              {"200": {"description": "the game"}, **_STALE,
                                               **_ERRORS}),
                                       "parameters": [_GAME_ID]},
        "/api/follow/{game_id}/hint": {**post(
            "A hint for your move, as a job: the exact analysis once every card is placed, "
            "else the hint table (`durak hint --game`)",
            _body({"samples": {"type": "integer", "minimum": 1}, "time": _SECONDS}, ()),
            {"202": {"description": "the job"}, **_ERRORS}), "parameters": [_GAME_ID]},
        "/api/follow/{game_id}/record": {"get": {
            "summary": "The followed game's record (docs/game-record.md) as a text file",
            "parameters": [_GAME_ID],
            "responses": {"200": {"description": "the record", "content": {"text/plain": {}}}}}},
        "/api/record": post("A game record's moves (with their seats) and the board before "
                            "each, for the review page",
                            _body({"game": {"oneOf": [{"type": "string", "maxLength": 1_000_000},
                                                      {"type": "object"}]}}, ("game",)),
                            {"200": {"description": "players, rules, me, full, seats, outcome, "
                                                    "moves, boards, record"}, **_ERRORS}),
        "/api/records/{game_id}": {"get": {
            "summary": "The record of a game kept on the server (played or followed)",
            "parameters": [_GAME_ID],
            "responses": {"200": {"description": "the record", "content": {"text/plain": {}}},
                          "404": {"description": "no such game"}}}},
        "/api/puzzles": {"get": {"summary": "`durak puzzle list --json` (without the files' "
                                            "paths)", "responses": {"200": {"description": "ok"}}}},
        "/api/puzzles/player": {"get": {
            "summary": "`durak puzzle stats --json`: the puzzle rating, its history, accuracy by "
                       "theme (weakest first), the streaks, the reviews due; the themes to choose "
                       "among and the day's puzzle", "responses": {"200": {"description": "ok"}}}},
        "/api/puzzles/next": {"get": {
            "summary": "The next puzzle served: a missed one due for review first, else one near "
                       "the rating (`mode`: rated, streak, daily; `theme`: a tag)",
            "parameters": [{"name": "mode", "in": "query", "schema": {"type": "string"}},
                           {"name": "theme", "in": "query", "schema": {"type": "string"}}],
            "responses": {"200": {"description": "id, why, rating"}, **_ERRORS}}},
        "/api/puzzles/{puzzle_id}/result": {**post(
            "Keep a puzzle's first try (solved: every move right, no solution shown) and "
            "answer the rating's change",
            _body({"solved": {"type": "boolean"}, "mode": {"type": "string"}}, ("solved",)),
            {"200": {"description": "before, after, change, streak, best_streak, due"},
             **_ERRORS}), "parameters": [_PUZZLE_ID]},
        "/api/puzzles/{puzzle_id}": {"get": {
            "summary": "`durak puzzle show ID --json` and the board; `?solution=1` adds the "
                       "solution and its line",
            "parameters": [_PUZZLE_ID], "responses": {"200": {"description": "ok"}, **_ERRORS}}},
        "/api/puzzles/{puzzle_id}/move": {**post(
            "Your move after the line played so far, against the solver's best defence "
            "(`durak puzzle train`): `ok`, and the line with the solver's replies and the "
            "board, or the refutation of a wrong move",
            _body({"line": {"type": "array", "items": {"type": "string"}},
                   "move": {"type": "string"}}, ()),
            {"200": {"description": "the verdict"}, **_HEAVY}), "parameters": [_PUZZLE_ID]},
        "/api/status": {"get": {"summary": "Version, workers, jobs running and waiting, caps",
                                "responses": {"200": {"description": "ok"}}}},
        "/api/i18n/{lang}": {"get": {
            "summary": "A language's message catalogue (en, lt, ru) as the board's script reads "
                       "it: each message id to its text (a list of plural forms where it has "
                       "them) and the plural rule. Every answer's words follow the request's "
                       "language: the durak_lang cookie, else Accept-Language (docs/guide/"
                       "languages.md); the data -- moves, cards, values -- never changes",
            "parameters": [{"name": "lang", "in": "path", "required": True,
                            "schema": {"type": "string", "enum": ["en", "lt", "ru"]}}],
            "responses": {"200": {"description": "the catalogue"},
                          "404": {"description": "not a language of the catalogues"}}}},
        "/api/openapi.json": {"get": {"summary": "This document",
                                      "responses": {"200": {"description": "ok"}}}},
    }
    return {"openapi": "3.1.0",
            "info": {"title": "durak-solver web API", "version": version,
                     "description": "The answers of the `durak` commands over HTTP "
                                    "(docs/web.md)."},
            "paths": paths}
