"""Games followed at a real table on the web board: the game-session model behind HTTP.

A followed game is a :class:`~solver.games.session.GameSession` made by
:meth:`~solver.games.session.GameSession.follow` (the player's seat, his six
cards, the face-up trump, who leads) or loaded from a record
(:meth:`~solver.games.session.GameSession.load`); the player enters what happens
at the table and the session's replay judges every entry, as in `durak game`.
This module keeps the sessions (saved in the game store after every entry, so a
reload or a server restart goes on) and turns a session into what the page
asks for now:

* the board (the player's view, :func:`solver.web.play.board_of`);
* ``grid``: every card of the deck with its place as the player knows it (his
  hand, the table, the discards, the face-up trump, a seat that picked it up)
  or none -- unseen;
* ``ask``: what to enter next -- the player's own move (the board's buttons),
  the cards he drew (``draw_due`` of them, from the unseen ones), or another
  seat's move: for each card that seat may play, the entries it can make
  (``2:6D``, ``2:6S/7H``, ``3:+8C``, ``2:>7H``), each one checked by replaying it,
  and the card-less ones (``2:take``, ``3:pass``).

The page builds nothing but entry texts from these and POSTs them; the
session's one-line errors are the answer to a bad one.
"""
from __future__ import annotations

import asyncio
from collections import OrderedDict
from typing import Any

from starlette.requests import Request
from starlette.responses import JSONResponse, PlainTextResponse, Response

from solver.errors import DurakError, MoveError, OptionError
from solver.game.cards import card_name, cards_of, deck_mask, parse_card
from solver.game.moves import Kind, Move
from solver.game.rules import parse_rules
from solver.games.session import GameSession
from solver.i18n import N_, _, ngettext, number
from solver.notation.build import MAX_POSITION_CHARS
from solver.notation.people import drop_rule_ids, rank_letter
from solver.web.api import (BadRequest, check_fields, error_response, guarded, int_field,
                            read_body)
from solver.web.board import move_view
from solver.web.jobs import Job, WorkerPool
from solver.web.play import GameLocks, board_of, submit_hint
from solver.web.store import GameStore
from solver.web.sync import Stale, Sync, fields, optional_body

#: Sessions kept in memory (the others are loaded from the store when asked for).
CACHED = 64
#: The longest entry the page may send (a lead of several cards, a draw of six).
MAX_ENTRY = 200

_PRETTY_SUIT = {"S": "\u2660", "H": "\u2665", "D": "\u2666", "C": "\u2663"}


def pretty(card: str) -> str:
    """``TH`` as ``10♥`` (the rank letter in the reader's language: ``Т♥`` in Russian)."""
    rank = "10" if card[0] == "T" else rank_letter(card[:-1])
    return rank + _PRETTY_SUIT[card[-1]]


def entry_label(seat: int, move: Move) -> str:
    """An entry in words for its button: ``Seat 2 covers 6♠ with 7♥``."""
    cards = " ".join(pretty(card_name(c)) for c in move.cards)
    k = move.kind
    if k is Kind.LEAD:
        return _("Seat {seat} leads {cards}").format(seat=seat, cards=cards)
    if k is Kind.COVER:
        return _("Seat {seat} covers {target} with {cards}").format(
            seat=seat, target=pretty(card_name(move.target)), cards=cards)
    if k is Kind.TAKE:
        return _("Seat {seat} takes the cards").format(seat=seat)
    if k is Kind.TRANSFER:
        return _("Seat {seat} transfers with {cards}").format(seat=seat, cards=cards)
    if k is Kind.SHOW:
        return _("Seat {seat} transfers by showing {cards}").format(seat=seat, cards=cards)
    if k is Kind.THROW:
        return _("Seat {seat} throws in {cards}").format(seat=seat, cards=cards)
    if k is Kind.PASS:
        return _("Seat {seat} passed (threw nothing in)").format(seat=seat)
    return _("Seat {seat} swaps the trump six for the face-up trump").format(seat=seat)


_PROMPTS = {
    "lead": N_("Seat {s} leads: click the card seat {s} led (a lead of several cards of one "
               "rank: click each, then confirm)"),
    "defend": N_("Seat {s} defends: click the card seat {s} covered with, or Take"),
    "throw": N_("Seat {s} may throw in: click the card seat {s} threw in, or Passed"),
    "taken": N_("Seat {s} may throw in before the take: click the card seat {s} threw in, or "
                "Passed"),
}


def _try(s: GameSession, token: str) -> bool:
    """Whether the record takes ``token`` now (its replay is the only judge)."""
    try:
        s.game.extended([token])
    except DurakError:
        return False
    return True


def places(snap: dict[str, Any]) -> dict[str, str]:
    """Where each card is, as the player knows it: ``you``, ``seat N``, ``table``,
    ``out`` or ``face-up``; a card not here is unseen."""
    where: dict[str, str] = {}
    for seat in snap["seats"]:
        for c in seat["cards"]:
            where[c] = "you" if seat["me"] else f"seat {seat['seat']}"
    for a, c in snap["table"]:
        where[a] = "table"
        if c:
            where[c] = "table"
    for c in snap["out"]:
        where[c] = "out"
    if snap["trump_card"]:
        where.setdefault(snap["trump_card"], "face-up")
    return where


def ask(s: GameSession, snap: dict[str, Any], where: dict[str, str]) -> dict[str, Any]:
    """What the page asks for now (see the module docstring)."""
    t = s.turn()
    if t.seat is None:
        return {"kind": "over", "prompt": _("The game is over.")}
    deck = s.game.rules.deck
    unseen = [card_name(c) for c in cards_of(deck_mask(deck)) if card_name(c) not in where]
    if t.draw_due:
        known = s.game.replay().draw_known
        extra = ""
        if known:
            extra = " " + _("(and {cards}, which is known)").format(
                cards=", ".join(pretty(card_name(c)) for c in cards_of(known)))
        n = t.draw_due
        return {"kind": "draw", "count": n, "cards": unseen,
                "prompt": ngettext("You drew {n} card from the pile{extra}: click it below",
                                   "You drew {n} cards from the pile{extra}: click them below",
                                   n).format(n=n, extra=extra)}
    if t.seat == s.me:
        return {"kind": "mine", "prompt": snap_status(snap)}
    seat = t.seat
    mine = [c for c, p in where.items() if p == f"seat {seat}"]
    options: dict[str, list[dict[str, Any]]] = {}
    for c in sorted(set(unseen + mine), key=lambda x: parse_card(x, deck)):
        found = []
        for r in [c, f"+{c}", f">{c}", f">!{c}"] + [f"{a}/{c}" for a in t.open]:
            tok = f"{seat}:{r}"
            if _try(s, tok):
                mv = Move.parse(r, deck)
                found.append({"entry": tok, "kind": mv.kind.name.lower(),
                              "target": card_name(mv.target) if mv.kind is Kind.COVER else None,
                              "label": entry_label(seat, mv)})
        if found:
            options[c] = found
    buttons = []
    for word in ("take", "pass"):
        tok = f"{seat}:{word}"
        if _try(s, tok):
            buttons.append({"entry": tok, "kind": word,
                            "label": entry_label(seat, Move.parse(word, deck))})
    return {"kind": "other", "seat": seat, "phase": t.phase, "options": options,
            "buttons": buttons, "prompt": _(_PROMPTS[t.phase]).format(s=seat),
            "lead": t.phase == "lead"}


def snap_status(snap: dict[str, Any]) -> str:
    what = {"lead": N_("Your move: lead a card"),
            "defend": N_("Your move: cover every card or take"),
            "throw": N_("Your move: throw in a card or pass"),
            "taken": N_("Your move: throw in a card before the take, or pass")}
    return _(what[snap["turn"]["phase"]])


def view(game_id: str, s: GameSession, note: str = "", version: int = 0) -> dict[str, Any]:
    """The followed game as the page draws it (``version``: :mod:`solver.web.sync`)."""
    snap = s.snapshot()
    where = places(snap)
    a = ask(s, snap, where)
    status = None if a["kind"] in ("mine", "over") else a["prompt"]
    board = board_of(snap, False, status)
    for seat in board["seats"]:
        if not seat["me"]:
            seat["name"] = None
    deck = s.game.rules.deck
    suits: dict[str, list[dict[str, Any]]] = {}
    for c in cards_of(deck_mask(deck)):
        name = card_name(c)
        suits.setdefault(name[-1], []).append({"card": name, "place": where.get(name)})
    return {"id": game_id, "kind": "follow", "board": board, "snapshot": snap, "ask": a,
            "grid": [suits[x] for x in "SHDC" if x in suits], "me": s.me,
            "over": s.is_over, "outcome": s.outcome, "entries": list(s.entries),
            "held": s.held, "note": drop_rule_ids(note), "moves_played": len(s.game.moves),
            "exact": snap["exact"], "log": s.log(), "version": version}


class Follows:
    """The server's followed games: sessions by id, kept in the game store."""

    def __init__(self, store: GameStore, pool: WorkerPool):
        self.store = store
        self.pool = pool
        self._sessions: OrderedDict[str, GameSession] = OrderedDict()
        self._syncs: dict[str, Sync] = {}
        self.locks = GameLocks()

    def session(self, game_id: str) -> GameSession:
        s = self._sessions.get(game_id)
        if s is None:
            row = self.store.load(game_id)
            if row is None or row[0].get("kind") != "follow":
                raise BadRequest(404, _("no followed game {id}").format(id=repr(game_id)))
            s = GameSession.load(row[1])
            s.held = row[0].get("held")
            self._sessions[game_id] = s
            self._syncs[game_id] = Sync.of(row[0])
        self._sessions.move_to_end(game_id)
        while len(self._sessions) > CACHED:
            old, _s = self._sessions.popitem(last=False)  # the store has it
            self._syncs.pop(old, None)
        return s

    def sync(self, game_id: str) -> Sync:
        """The game's version and latest entry ids (:mod:`solver.web.sync`)."""
        self.session(game_id)
        return self._syncs.setdefault(game_id, Sync())

    def view(self, game_id: str, note: str = "") -> dict[str, Any]:
        return view(game_id, self.session(game_id), note, self.sync(game_id).version)

    def save(self, game_id: str, s: GameSession) -> None:
        meta = {"kind": "follow", "players": s.game.players, "me": s.me,
                "rules": s.game.rules.names(), "held": s.held,
                "moves": len(s.game.moves), **self._syncs.setdefault(game_id, Sync()).meta()}
        self.store.save(game_id, meta, s.record_text(), s.is_over)

    def create(self, body: dict[str, Any]) -> str:
        check_fields(body, ("players", "rules", "seat", "attacker", "trump", "deal", "record"))
        record = body.get("record")
        if record is not None:
            if set(body) != {"record"}:
                raise OptionError(_("give a record, or the deal (players, rules, seat, "
                                    "attacker, trump, deal), not both"))
            if not isinstance(record, str):
                raise OptionError(_("record: expected a game record's text "
                                    "(docs/game-record.md)"))
            if len(record) > MAX_POSITION_CHARS:
                raise BadRequest(413, _("record: {n} characters is more than the {most} a "
                                        "record may have").format(
                    n=number(len(record)), most=number(MAX_POSITION_CHARS)))
            s = GameSession.load(record)
        else:
            players = int_field(body, "players", 2, 6) or 2
            names = body.get("rules") or []
            if not isinstance(names, list) or not all(isinstance(r, str) for r in names):
                raise OptionError(_("rules: expected a list of option names, e.g. {example}")
                                  .format(example='["transfer"]'))
            try:
                rules = parse_rules(names)
            except ValueError as e:
                raise OptionError(f"rules: {e}") from None
            seat = int_field(body, "seat", 1, players) or 1
            attacker = int_field(body, "attacker", 1, players)
            trump = body.get("trump")
            if not isinstance(trump, str) or not trump.strip():
                raise OptionError(_("trump: the face-up trump card, e.g. 9H (the suit, e.g. H, "
                                    "when the deal leaves no pile)"))
            deal = body.get("deal")
            if isinstance(deal, list) and all(isinstance(c, str) for c in deal):
                deal = " ".join(deal)
            if not isinstance(deal, str) or not deal.strip():
                raise OptionError(_("deal: your six cards, e.g. {example}").format(
                    example='["6S", "7S", "KH", "8C", "9C", "AC"]'))
            s = GameSession.follow(players, trump.strip(), deal, me=seat, attacker=attacker,
                                   rules=rules)
        game_id = self.store.new_id()
        self._sessions[game_id] = s
        self._syncs[game_id] = Sync()
        self.save(game_id, s)
        return game_id

    async def enter(self, game_id: str, entry: Any, made_on: int | None = None,
                    entry_id: str | None = None) -> str:
        """One entry; made on another version: :class:`~solver.web.sync.Stale`; an
        ``entry_id`` entered already: nothing done, no error (a page sending again)."""
        if not isinstance(entry, str) or not entry.strip():
            raise MoveError(_("entry: expected what happened, e.g. {example}").format(
                example="2:6D, 1:6D/8D, 2:take, draw 7H KD"))
        if len(entry) > MAX_ENTRY:
            raise MoveError(_("entry: {n} characters; an entry has at most {most}").format(
                n=number(len(entry)), most=MAX_ENTRY))
        async with self.locks.hold(game_id):
            s = self.session(game_id)
            sync = self.sync(game_id)
            if sync.seen(entry_id):
                return _("entered already (sent again after a lost connection)")
            sync.check(made_on)
            acc = s.enter(entry)  # DurakError: one line, nothing changed
            sync.bump(entry_id)
            self.save(game_id, s)
        return acc.note

    async def undo(self, game_id: str, made_on: int | None = None,
                   entry_id: str | None = None) -> str:
        async with self.locks.hold(game_id):
            s = self.session(game_id)
            sync = self.sync(game_id)
            if sync.seen(entry_id):
                return ""
            sync.check(made_on)
            gone = s.undo()
            sync.bump(entry_id)
            self.save(game_id, s)
        return _("took back {entry}").format(entry=gone)

    def hint_job(self, game_id: str, body: dict[str, Any]) -> Job:
        check_fields(body, ("samples", "time"))
        return submit_hint(self.pool, self.session(game_id), body)


# ---------------------------------------------------------------- routes

def _follows(request: Request) -> Follows:
    follows: Follows = request.app.state.follows
    return follows


@guarded
async def api_follow_create(request: Request) -> Response:
    """A game to follow: ``{"players": 2, "seat": 1, "trump": "9H", "deal": [...]}``, or
    ``{"record": "<a game record's text>"}`` to go on from a record."""
    f = _follows(request)
    body = await read_body(request)
    game_id = await asyncio.to_thread(f.create, body)
    return JSONResponse(f.view(game_id), status_code=201)


@guarded
async def api_follow_list(request: Request) -> Response:
    """The followed games kept, most recent first."""
    return JSONResponse({"games": _follows(request).store.recent(kind="follow")})


@guarded
async def api_follow(request: Request) -> Response:
    """A followed game: the board, the grid of cards, what to enter next."""
    game_id = request.path_params["game_id"]
    return JSONResponse(_follows(request).view(game_id))


@guarded
async def api_follow_version(request: Request) -> Response:
    """The game's version: the pages poll it and fetch the game when it moved on."""
    return JSONResponse({"version": _follows(request).sync(request.path_params["game_id"]).version})


@guarded
async def api_follow_enter(request: Request) -> Response:
    """One entry of what happened at the table: ``{"entry": "2:6D"}`` (``draw 7H KD``,
    ``1:take``, ...); a bad one is 400 with the session's one line, nothing changed."""
    f = _follows(request)
    game_id = request.path_params["game_id"]
    body = await read_body(request)
    check_fields(body, ("entry", "version", "entry_id"))
    f.session(game_id)
    try:
        note = await f.enter(game_id, body.get("entry"), *fields(body))
    except Stale as e:
        return error_response(409, e.message, game=f.view(game_id))
    return JSONResponse(f.view(game_id, note))


@guarded
async def api_follow_undo(request: Request) -> Response:
    """Take back exactly the last entry (``{"version": N}``: only if no other device
    changed the game since)."""
    f = _follows(request)
    game_id = request.path_params["game_id"]
    body = await optional_body(request)
    check_fields(body, ("version", "entry_id"))
    f.session(game_id)
    try:
        note = await f.undo(game_id, *fields(body))
    except Stale as e:
        return error_response(409, e.message, game=f.view(game_id))
    return JSONResponse(f.view(game_id, note))


@guarded
async def api_follow_hint(request: Request) -> Response:
    """A hint for the player's move, as a job (poll ``/api/jobs/{id}``): the session's
    advice, the exact analysis once every card is placed, else the hint table."""
    f = _follows(request)
    job = f.hint_job(request.path_params["game_id"], await read_body(request))
    return JSONResponse(job.to_json(), status_code=202)


@guarded
async def api_follow_record(request: Request) -> Response:
    """The followed game's record (docs/game-record.md), as a file to download."""
    game_id = request.path_params["game_id"]
    s = _follows(request).session(game_id)
    return PlainTextResponse(s.record_text(), headers={
        "Content-Disposition": f'attachment; filename="durak-follow-{game_id}.txt"'})
