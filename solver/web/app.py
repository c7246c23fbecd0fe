"""The web app: one Starlette application, its routes, its worker pool.

``create_app()`` builds it; `durak serve` runs it with uvicorn.  The page
(``templates/index.html`` and its scripts in ``static/``) is a thin front end over the API of
:mod:`solver.web.api` (the commands' ``--json`` answers) and the games of
:mod:`solver.web.play` (the game-session model).
"""
from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any, AsyncIterator

from starlette.applications import Starlette
from starlette.middleware import Middleware
from starlette.middleware.trustedhost import TrustedHostMiddleware
from starlette.requests import Request
from starlette.responses import HTMLResponse, JSONResponse, Response
from starlette.routing import Mount, Route
from starlette.staticfiles import StaticFiles
from starlette.types import ASGIApp, Receive, Scope, Send

from solver import __version__
from solver.i18n import LANGUAGES, _, catalogue_json, use_language
from solver.i18n.choose import for_request
from solver.puzzles.player import PlayerStore
from solver.web import api, follow, play, puzzles, records
from solver.web.jobs import WorkerPool
from solver.web.lan import Pairing, TokenGuard, is_local
from solver.web.openapi import openapi_spec
from solver.web.pages import render_page
from solver.web.pair import pair_html
from solver.web.store import DATA_DIR_ENV, GameStore, default_data_dir

STATIC = Path(__file__).resolve().parent / "static"


#: What a page's answer depends on besides its path: the language (issue 64).
PAGE_HEADERS = {"Cache-Control": "no-cache", "Vary": "Accept-Language, Cookie"}


def request_language(request: Request) -> str:
    """The language a request asks for: the switcher's cookie, else ``Accept-Language``."""
    return for_request(request.cookies, request.headers.get("accept-language"))


def pairing_state(request: Request) -> dict[str, bool]:
    """What the header says of pairing (``templates/base.html``): *Pair a phone* on this
    computer's own board when it is served to the network; *paired* on a paired device."""
    served = getattr(request.app.state, "pairing", None) is not None
    return {"pair_link": served and is_local(request.scope),
            "paired": bool(request.scope.get("state", {}).get("paired"))}


def page(name: str) -> Any:
    """A page in the reader's language (:mod:`solver.web.pages`): ``/`` (board, editor,
    analysis and play), ``/follow``, ``/review``, ``/puzzles`` (their state in the URL)."""
    async def endpoint(request: Request) -> Response:
        lang = request_language(request)
        return HTMLResponse(render_page(name, lang, **pairing_state(request)),
                            headers={**PAGE_HEADERS, "Content-Language": lang})

    endpoint.__name__ = f"page_{name}"
    return endpoint


async def pair_page(request: Request) -> Response:
    """``/pair``: the pairing address and its QR code (:mod:`solver.web.pair`)."""
    lang = request_language(request)
    body = render_page("pair", lang, **pairing_state(request)).replace(
        "<!--pair-->", pair_html(request), 1)
    return HTMLResponse(body, headers={**PAGE_HEADERS, "Content-Language": lang,
                                       "Cache-Control": "no-store"})


async def rules_in(request: Request) -> Response:
    """The rules page in the language the path names (``/rules/lt``), whatever the
    browser's: the three languages link to each other."""
    lang = request.path_params["lang"]
    if lang not in LANGUAGES:
        return api.error_response(404, _("no rules in {lang}: {languages}").format(
            lang=repr(lang), languages=", ".join(LANGUAGES)))
    return HTMLResponse(render_page("rules", lang, **pairing_state(request)),
                        headers={**PAGE_HEADERS, "Content-Language": lang})


async def manifest(request: Request) -> Response:
    """The web app manifest: the board installable from the browser, opening on the
    follow page (a phone at a real table), in the reader's language."""
    return JSONResponse({
        "name": _("Durak board"), "short_name": "Durak", "start_url": "/follow",
        "scope": "/", "display": "standalone", "background_color": "#f4f1ea",
        "theme_color": "#2f6b4a", "lang": request_language(request),
        "description": _("Follow a real game from a phone, with the engine's hints"),
        "icons": [{"src": "/static/icon-192.png", "sizes": "192x192", "type": "image/png"},
                  {"src": "/static/icon-512.png", "sizes": "512x512", "type": "image/png"},
                  {"src": "/static/icon-512.png", "sizes": "512x512", "type": "image/png",
                   "purpose": "maskable"},
                  {"src": "/static/icon.svg", "sizes": "any", "type": "image/svg+xml"}]},
        media_type="application/manifest+json", headers={"Cache-Control": "no-cache"})


async def api_i18n(request: Request) -> Response:
    """A language's catalogue as the board's script reads it (:func:`solver.i18n.catalogue_json`)."""
    lang = request.path_params["lang"]
    if lang not in LANGUAGES:
        return api.error_response(404, _("lang: {lang} is not one of {languages}").format(
            lang=repr(lang), languages=", ".join(LANGUAGES)))
    return JSONResponse(catalogue_json(lang), headers={"Cache-Control": "no-cache"})


class LanguageMiddleware:
    """Every request answered in its language (:func:`request_language`): the game's
    narration, the labels, the errors the API sends back in words.  The data -- moves,
    cards, values -- stays the canonical notation."""

    def __init__(self, app: ASGIApp):
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        with use_language(request_language(Request(scope))):
            await self.app(scope, receive, send)


async def openapi(request: Request) -> Response:
    """The API described for programs (OpenAPI 3.1)."""
    return JSONResponse(openapi_spec(__version__))


def create_app(*, workers: int | None = None, limits: api.Limits | None = None,
               data_dir: str | None = None, allowed_hosts: list[str] | None = None,
               pairing: Pairing | None = None) -> Starlette:
    """The app; ``workers`` processes answer heavy requests (default: one per core).

    ``data_dir`` holds the games (default: ``$DURAK_DATA_DIR``, else the user's data
    directory, :func:`~solver.web.store.default_data_dir`).  ``allowed_hosts`` (the ``Host`` header's names) guards a server on 127.0.0.1
    against DNS rebinding; None allows any (the tests' client).  ``pairing`` (`durak
    serve --lan`, :mod:`solver.web.lan`) puts every route behind its token for every
    request that is not this machine's own.
    """
    pool = WorkerPool(workers)
    data = data_dir or os.environ.get(DATA_DIR_ENV) or str(default_data_dir())

    @contextlib.asynccontextmanager
    async def lifespan(app: Starlette) -> AsyncIterator[None]:
        await pool.start()
        app.state.store = GameStore(data)
        app.state.player = PlayerStore(data)
        app.state.games = play.Games(app.state.store, pool)
        app.state.follows = follow.Follows(app.state.store, pool)
        try:
            yield
        finally:
            await app.state.games.close()
            await pool.close()
            app.state.store.close()
            app.state.player.close()

    routes: list[Any] = [
        Route("/", page("index")),
        Route("/follow", page("follow")),
        Route("/review", page("review")),
        Route("/puzzles", page("puzzles")),
        Route("/rules", page("rules")),
        Route("/pair", pair_page),
        Route("/manifest.webmanifest", manifest),
        Route("/rules/{lang}", rules_in),
        Route("/api/openapi.json", openapi),
        Route("/api/status", api.api_status),
        Route("/api/i18n/{lang}", api_i18n),
        Route("/api/show", api.api_show, methods=["GET", "POST"]),
        Route("/api/moves", api.api_moves, methods=["GET", "POST"]),
        Route("/api/board", api.api_board, methods=["GET", "POST"]),
        Route("/api/line", api.api_line, methods=["POST"]),
        Route("/api/solve", api.heavy("solve"), methods=["POST"]),
        Route("/api/analyse", api.heavy("analyse"), methods=["POST"]),
        Route("/api/hint", api.heavy("hint"), methods=["POST"]),
        Route("/api/review", api.heavy("review"), methods=["POST"]),
        Route("/api/jobs", api.api_jobs_create, methods=["POST"]),
        Route("/api/jobs/{job_id}", api.api_job, methods=["GET"]),
        Route("/api/jobs/{job_id}", api.api_job_cancel, methods=["DELETE"]),
        Route("/api/games", play.api_games_create, methods=["POST"]),
        Route("/api/games", play.api_games_list, methods=["GET"]),
        Route("/api/games/{game_id}", play.api_game, methods=["GET"]),
        Route("/api/games/{game_id}/version", play.api_game_version, methods=["GET"]),
        Route("/api/games/{game_id}/play", play.api_game_play, methods=["POST"]),
        Route("/api/games/{game_id}/undo", play.api_game_undo, methods=["POST"]),
        Route("/api/games/{game_id}/hint", play.api_game_hint, methods=["POST"]),
        Route("/api/games/{game_id}/record", play.api_game_record, methods=["GET"]),
        Route("/api/follow", follow.api_follow_create, methods=["POST"]),
        Route("/api/follow", follow.api_follow_list, methods=["GET"]),
        Route("/api/follow/{game_id}", follow.api_follow, methods=["GET"]),
        Route("/api/follow/{game_id}/version", follow.api_follow_version, methods=["GET"]),
        Route("/api/follow/{game_id}/enter", follow.api_follow_enter, methods=["POST"]),
        Route("/api/follow/{game_id}/undo", follow.api_follow_undo, methods=["POST"]),
        Route("/api/follow/{game_id}/hint", follow.api_follow_hint, methods=["POST"]),
        Route("/api/follow/{game_id}/record", follow.api_follow_record, methods=["GET"]),
        Route("/api/record", records.api_record, methods=["POST"]),
        Route("/api/records/{game_id}", records.api_kept_record, methods=["GET"]),
        Route("/api/puzzles", puzzles.api_puzzles, methods=["GET"]),
        Route("/api/puzzles/player", puzzles.api_player, methods=["GET"]),
        Route("/api/puzzles/next", puzzles.api_next, methods=["GET"]),
        Route("/api/puzzles/{puzzle_id}", puzzles.api_puzzle, methods=["GET"]),
        Route("/api/puzzles/{puzzle_id}/result", puzzles.api_result, methods=["POST"]),
        Route("/api/puzzles/{puzzle_id}/move", puzzles.api_puzzle_move, methods=["POST"]),
        Mount("/static", StaticFiles(directory=STATIC), name="static"),
    ]
    # outermost first: the Host check, the language (the refusals' words), the token
    middleware = []
    if allowed_hosts is not None:
        middleware.append(Middleware(TrustedHostMiddleware, allowed_hosts=allowed_hosts))
    middleware.append(Middleware(LanguageMiddleware))
    if pairing is not None:
        middleware.append(Middleware(TokenGuard, pairing=pairing))
    app = Starlette(routes=routes, middleware=middleware, lifespan=lifespan)
    app.state.pool = pool
    app.state.limits = limits or api.Limits()
    app.state.version = __version__
    app.state.pairing = pairing
    return app
