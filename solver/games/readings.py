"""What a typed line of play means: the readings of a move typed at the prompt or
on the web board, the one record token it stands for, and a line cut into entries.

The session (:class:`~solver.games.session.GameSession`) asks here what the
player meant and asks the record's replay whether it is legal (``attempt``):
a bare card may be a lead, a throw-in, a transfer or a cover; where exactly one
reading is a legal move of the seat it is taken, where several are the player
is asked which, and where none is the error says what was wrong (and what was
meant, where it can tell).
"""
from __future__ import annotations

import re
from typing import Callable

from solver.errors import DurakError, MoveError
from solver.game.cards import card_name, parse_card
from solver.game.moves import Kind, parse_move_with_seat
from solver.game.state import GameState, Phase
from solver.i18n import _

#: The record's replay asked whether a token is a legal entry: the record after
#: it, or the error that says why not (``GameSession._try``).
Attempt = Callable[[str], object]

_WORDS = {"take": "take", "pass": "pass", "swap": "swap"}


def split_entries(line: str) -> list[str]:
    """A typed line cut into entries: at each word with a seat prefix (``2:6S``) and
    at each ``draw``; a ``#`` starts a comment."""
    words = line.split("#", 1)[0].split()
    items: list[list[str]] = []
    for w in words:
        if not items or re.match(r"\d+:", w) or w.lower() == "draw":
            items.append([w])
        else:
            items[-1].append(w)
    return [" ".join(i) for i in items]


def readings(body: str, state: GameState, deck: int) -> list[str]:
    """Every move text that ``body`` may mean here: a bare card may be a lead, a
    throw-in (``+``), a transfer (``>``, ``>!``) or a cover of an open attack
    card (``A/C``); several bare cards a lead; other forms are taken as typed."""
    low = body.strip().lower()
    if low in _WORDS:
        return [_WORDS[low]]
    parts = [p for p in re.split(r"[\s,]+", body.strip()) if p]
    if parts and all(is_card(p, deck) for p in parts):
        cards = [parse_card(p, deck) for p in parts]
        names = [card_name(c) for c in cards]
        if len(cards) > 1:
            return [",".join(names)]
        c = names[0]
        out = [c, f"+{c}", f">{c}", f">!{c}"]
        out += [f"{card_name(a)}/{c}" for a in state.open_attacks]
        return out
    try:
        _seat, mv = parse_move_with_seat(body, deck)
    except DurakError as e:
        raise MoveError(_("{typed} is not a move: {error}").format(typed=repr(body),
                                                                   error=e)) from None
    return [str(mv)]


#: The kinds of move each phase of the turn asks for (P1-P4; a swap at any time, F12).
_PHASE_KINDS = {Phase.LEAD: (Kind.LEAD,), Phase.DEFEND: (Kind.COVER, Kind.TAKE, Kind.TRANSFER,
                                                        Kind.SHOW),
                Phase.THROW: (Kind.THROW, Kind.PASS), Phase.TAKEN: (Kind.THROW, Kind.PASS)}


def fits(token: str, state: GameState) -> bool:
    """Whether ``token`` is a move of the seat to move of the kind its turn asks for
    (not one that needs the seats asked to throw in to pass first)."""
    seat, mv = parse_move_with_seat(token)
    return (seat == state.to_move + 1
            and (mv.kind is Kind.SWAP or mv.kind in _PHASE_KINDS.get(state.phase, ())))


def is_card(text: str, deck: int) -> bool:
    try:
        parse_card(text, deck)
    except DurakError:
        return False
    return True


def all_cards(words: str, deck: int) -> bool:
    parts = [p for p in re.split(r"[\s,]+", words) if p]
    return bool(parts) and all(is_card(p, deck) for p in parts)


def either(tokens: list[str]) -> str:
    return _(" or ").join(tokens)


def example_draw(n: int) -> str:
    return " ".join(["7H", "KD", "6S", "9C", "TS", "QH"][:max(1, min(n, 6))])


def resolve(words: str, state: GameState, deck: int, me: int, engine: bool,
            attempt: Attempt) -> str:
    """The one record token (``seat:move``) a typed move means in ``state``
    (:meth:`~solver.games.session.GameSession.enter`); ``me``: the asking seat
    (0-based), ``engine``: a game against the engine (the player moves for his
    own seat only)."""
    s = state
    seat: int | None = None
    body = words
    m = re.fullmatch(r"(\d+)\s*:\s*(.+)", words)
    if m:
        seat, body = int(m.group(1)), m.group(2)
    if engine:
        if seat is not None and seat != me + 1:
            raise MoveError(_("you play seat {me}; the engine plays seat {seat}").format(
                me=me + 1, seat=seat))
        if s.to_move != me:
            raise MoveError(_("it is seat {seat}'s turn (the engine's)").format(
                seat=s.to_move + 1))
        seat = me + 1
    asked = seat if seat is not None else s.to_move + 1
    if asked == me + 1 and not s.hidden[me]:
        # his own cards are known to him: say so, not where the card lies (a secret)
        named = [parse_card(p, deck) for p in re.split(r"[\s,/+>!]+", body)
                 if is_card(p, deck)]
        lacking = [c for c in named if not (s.hands[me] | s.table_mask) >> c & 1]
        if lacking:
            raise MoveError(_("you don't hold {cards}").format(
                cards=" ".join(card_name(c) for c in lacking)))
    meant = readings(body, s, deck)
    good = valid(meant, [asked], attempt)
    if len(good) > 1:  # the reading of the turn now before one implying passes first
        now = [g for g in good if fits(g, s)]
        good = now if len(now) == 1 else good
    if len(good) == 1:
        return good[0]
    if len(good) > 1:
        raise MoveError(_("{typed} can mean {readings}: type the one you mean").format(
            typed=repr(words), readings=either(good)))
    # nothing fits the seat asked; in a followed game a hidden thrower asked now
    # may have passed, and another thrower played it
    others: list[int] = []
    if seat is None and not engine and s.phase in (Phase.THROW, Phase.TAKEN):
        others = [t + 1 for t in s.throw_order() if t != s.to_move]
    alt = valid(meant, others, attempt)
    if alt:
        raise MoveError(_("{typed} is not a move of seat {seat} here; did you mean "
                          "{readings}?").format(typed=repr(words), seat=asked,
                                                readings=either(alt)))
    # the error of the reading the turn asks for (a throw-in in P3, a cover in P2)
    first = next((r for r in meant if fits(f"{asked}:{r}", s)), meant[0])
    err = attempt(f"{asked}:{first}")
    problem = getattr(err, "problem", str(err))
    raise MoveError(f"{words!r}: {problem}")


def valid(meant: list[str], seats: list[int], attempt: Attempt) -> list[str]:
    """The tokens of ``meant`` played by any of ``seats`` that the record takes."""
    out = []
    for st in seats:
        for r in meant:
            tok = f"{st}:{r}"
            if not isinstance(attempt(tok), DurakError) and tok not in out:
                out.append(tok)
    return out


__all__ = ["all_cards", "example_draw", "readings", "resolve", "split_entries"]
