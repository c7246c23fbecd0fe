"""The words of a game record, read and written: the header's fields (numbers,
seats, cards, the engine line) and the moves section's words as events, each
refusal a :class:`~solver.errors.RecordError` naming the field
(docs/game-record.md).  :class:`~solver.games.record.Game` builds on them.
"""
from __future__ import annotations

import re
from typing import Any

from solver.errors import DurakError, RecordError
from solver.game.cards import card_name, cards_of, parse_card, rank_of, suit_of
from solver.game.moves import parse_move_with_seat
from solver.games.replay import Event
from solver.inputs.jsonin import NumberTooLong, check_digits

#: A move number in the moves section (``12.``), skipped.
MOVE_NUMBER = re.compile(r"^\d+\.$")


def parse_events(tokens: list[str], deck: int, players: int, number: int = 0) -> list[Event]:
    """The events of a moves section's words; ``number``: the moves before them."""
    events: list[Event] = []
    draw: list[int] | None = None
    draw_text: list[str] = []

    def flush() -> None:
        nonlocal draw, draw_text
        if draw is not None:
            if not draw:
                raise RecordError(f"move {number} draw", "names no card")
            events.append(Event("draw", cards=tuple(draw), token=" ".join(draw_text),
                                number=number))
        draw, draw_text = None, []

    for tok in tokens:
        if MOVE_NUMBER.match(tok):
            continue
        if tok.lower() == "draw":
            flush()
            draw = []
            continue
        if draw is not None and ":" not in tok:
            try:
                draw.append(parse_card(tok, deck))
            except DurakError as e:
                raise RecordError(f"move {number} draw {tok!r}", str(e)) from None
            draw_text.append(tok)
            continue
        flush()
        number += 1
        try:
            seat, mv = parse_move_with_seat(tok, deck)
        except DurakError as e:
            raise RecordError(f"move {number} {tok!r}", str(e)) from None
        if seat is None:
            raise RecordError(f"move {number} {tok!r}", "a move of a record needs its seat: "
                                                       f"`2:{tok}`")
        if seat > players:
            raise RecordError(f"move {number} {tok!r}", f"seat {seat} is not at this "
                                                       f"{players}-player table")
        events.append(Event("move", seat - 1, mv, token=tok, number=number))
    flush()
    return events


def parse_engine(text: str, players: int) -> tuple[tuple[int, ...], str]:
    """``engine 2,3 hint``: the engine's seats (1-based in the text) and its strength."""
    parts = text.split()
    if len(parts) != 2:
        raise RecordError("engine", f"expected the engine's seats and its strength, as in "
                                    f"`engine 2,3 hint`; got {text!r}")
    seats = tuple(seat_field(p, players, "engine") for p in parts[0].split(","))
    if len(set(seats)) != len(seats):
        raise RecordError("engine", f"a seat is named twice in {parts[0]!r}")
    name = parts[1].lower()
    if not re.fullmatch(r"[a-z][a-z0-9-]*", name):
        raise RecordError("engine", f"not a strength name: {parts[1]!r}")
    return tuple(sorted(seats)), name


def engine_text(engine: tuple[tuple[int, ...], str]) -> str:
    return ",".join(str(s + 1) for s in engine[0]) + " " + engine[1]


def lowest_trump_holder(hands: tuple[int, ...], trump: int) -> int:
    """R6, F9: the holder of the lowest trump leads; nobody: seat 1."""
    best, leader = 99, 0
    for s, h in enumerate(hands):
        for c in cards_of(h):
            if suit_of(c) == trump and rank_of(c) < best:
                best, leader = rank_of(c), s
    return leader


def int_field(fields: dict[str, str], key: str, default: int | None) -> int | None:
    if key not in fields:
        return default
    try:
        check_digits(fields[key], key)
        return int(fields[key])
    except NumberTooLong as e:
        raise RecordError(key, e.problem) from None
    except ValueError:
        raise RecordError(key, f"not a number: {fields[key]!r}") from None


def seat_field(text: str, players: int, where: str) -> int:
    try:
        check_digits(text, where)
        s = int(text)
    except NumberTooLong as e:
        raise RecordError(where, e.problem) from None
    except ValueError:
        raise RecordError(where, f"not a seat number: {text!r}") from None
    if not 1 <= s <= players:
        raise RecordError(where, f"seat {s} is not at this {players}-player table")
    return s - 1


def card_list(texts: list[str], deck: int, where: str) -> list[int]:
    out: list[int] = []
    for t in texts:
        try:
            c = parse_card(t, deck)
        except DurakError as e:
            raise RecordError(where, f"{t!r}: {e}") from None
        if c in out:
            raise RecordError(where, f"{card_name(c)} is named twice")
        out.append(c)
    return out


def join_words(value: Any) -> str:
    return " ".join(str(v) for v in value) if isinstance(value, list) else str(value)


def card_names(mask: int) -> str:
    return " ".join(card_name(c) for c in cards_of(mask))


__all__ = ["card_list", "card_names", "engine_text", "int_field", "join_words", "lowest_trump_holder",
           "parse_engine", "parse_events", "seat_field"]
