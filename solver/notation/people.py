"""Cards and moves as people read them (docs/notation.md, "Cards for people").

One form for every text a player reads: ``10♠``, ``A♥``, ``7♥/A♥``, ``+8♣`` --
the board, the moves line, the prompts, errors, hints, reviews and the game's
narration all go through :func:`card_text`, :func:`move_text` and
:func:`people_text`.  The ASCII form (``TS``, ``7H/AH``) stays the form of
``--json``, of records and files, and of a terminal that cannot show the suit
symbols (:func:`symbols_wanted`).  Input takes both everywhere
(:func:`solver.game.cards.parse_card`): ``10♠``, ``10S``, ``TS`` and ``ts`` are
one card.

Rule ids (R17, P4, F2) belong to the docs and to ``--verbose``;
:func:`drop_rule_ids` takes them out of a message meant for a player.
"""
from __future__ import annotations

import os
import re
from typing import IO, Any

from solver.errors import DurakError
from solver.game.cards import SUIT_SYMBOLS, SUITS, card_name, parse_card
from solver.game.moves import Kind, Move, parse_move_with_seat

#: The environment switch: ``ascii`` or ``symbols`` overrides what the terminal can show.
CARDS_ENV = "DURAK_CARDS"

# an ASCII card standing alone in a text: not inside a word (JSON, PASS) or a number
_ASCII_CARD = re.compile(r"(?<![A-Za-z0-9])(10|[2-9TJQKA])([SHDC])(?![A-Za-z0-9])")
_SYMBOL_CARD = re.compile(r"(?<![A-Za-z0-9])(10|[2-9TJQKA])([♠♥♦♣])\ufe0f?")
# "(R17)", "(R20-R22)", "(P3, F2)": a parenthesis that holds rule ids only
_IDS_ALONE = re.compile(r"\s*\((?:[RPFS]\d{1,2}(?:\s*(?:-|–|,|/|and)\s*[RPFS]?\d{1,2})*)\)")
# "(the lowest trump, R6; 1-2)": a rule id at the end of a phrase inside a parenthesis
_IDS_INSIDE = re.compile(r",\s*[RPFS]\d{1,2}(?:\s*[-–]\s*[RPFS]?\d{1,2})?(?=\s*[;)])")


def card_text(card: int, symbols: bool = True) -> str:
    """One card for people: ``10♠`` (``TS`` when ``symbols`` is false)."""
    return card_name(card, pretty=symbols)


def cards_text(cards: Any, symbols: bool = True, sep: str = " ") -> str:
    """Several cards (ints), in the order given: ``6♠ 10♥``."""
    return sep.join(card_text(c, symbols) for c in cards)


def move_text(move: Move | str, symbols: bool = True, deck: int = 52) -> str:
    """A move for people: ``7♥/A♥``, ``+10♠``, ``>6♥``, ``6♠,6♦``, ``take``; a seat
    prefix (``2:6S``) is kept.  The ASCII form is the canonical notation.  Text that
    is not a move is passed through :func:`people_text`."""
    if isinstance(move, str):
        try:
            seat, mv = parse_move_with_seat(move, deck)
        except DurakError:
            return people_text(move, symbols)
        head = f"{seat}:" if seat is not None else ""
        return head + move_text(mv, symbols)
    k = move.kind
    c = card_text
    if k is Kind.LEAD:
        return ",".join(c(x, symbols) for x in move.cards)
    if k is Kind.COVER:
        return f"{c(move.target, symbols)}/{c(move.cards[0], symbols)}"
    if k is Kind.TRANSFER:
        return ">" + c(move.cards[0], symbols)
    if k is Kind.SHOW:
        return ">!" + c(move.cards[0], symbols)
    if k is Kind.THROW:
        return "+" + c(move.cards[0], symbols)
    return str(move)


def people_text(text: str, symbols: bool = True) -> str:
    """``text`` with every card standing alone written for people (``7C`` -> ``7♣``,
    ``TS/AS`` -> ``10♠/A♠``), or, when ``symbols`` is false, back in ASCII
    (``10♠`` -> ``TS``).  Words that only contain card-like letters (``JSON``,
    ``PASS``) are left alone."""
    if symbols:
        return _ASCII_CARD.sub(lambda m: ("10" if m.group(1) in ("T", "10") else m.group(1))
                               + SUIT_SYMBOLS[SUITS.index(m.group(2))], text)
    return _SYMBOL_CARD.sub(lambda m: ("T" if m.group(1) == "10" else m.group(1))
                            + SUITS[SUIT_SYMBOLS.index(m.group(2))], text)


def move_phrase(move: Move, you: bool = False, symbols: bool = True) -> str:
    """What a move does, in words, as its seat's verb phrase: ``covers 6♣ with A♣``,
    ``throws in 8♣``, ``takes`` (``you`` : the forms after "you": ``cover``, ``take``)."""
    k = move.kind
    cards = cards_text(move.cards, symbols)
    s = "" if you else "s"
    es = "" if you else "es"
    if k is Kind.LEAD:
        return f"lead{s} {cards}"
    if k is Kind.COVER:
        return f"cover{s} {card_text(move.target, symbols)} with {cards}"
    if k is Kind.TAKE:
        return f"take{s}"
    if k is Kind.TRANSFER:
        return f"transfer{s} with {cards}"
    if k is Kind.SHOW:
        return f"show{s} {cards} and transfer{s}"
    if k is Kind.THROW:
        return f"throw{s} in {cards}"
    if k is Kind.PASS:
        return f"pass{es}"
    return f"swap{s} the trump six for the face-up trump"


def parse_cards_text(text: str, deck: int = 36) -> list[int]:
    """Cards typed in either form, separated by spaces or commas."""
    return [parse_card(t, deck) for t in re.split(r"[\s,]+", text.strip()) if t]


def symbols_wanted(stream: IO[str] | None = None) -> bool:
    """Whether a text for people on ``stream`` shows the suit symbols: ``$DURAK_CARDS``
    (``symbols`` or ``ascii``) decides when set; else a terminal whose encoding
    holds them does -- a pipe, a file or a terminal in Latin-1 gets ASCII."""
    env = os.environ.get(CARDS_ENV, "").strip().lower()
    if env in ("ascii", "symbols"):
        return env == "symbols"
    if stream is None:
        return False
    try:
        if not stream.isatty():
            return False
    except (AttributeError, ValueError, OSError):
        return False
    encoding = getattr(stream, "encoding", None) or "ascii"
    try:
        "10♠♥♦♣".encode(encoding)
    except (UnicodeEncodeError, LookupError):
        return False
    return True


def drop_rule_ids(text: str) -> str:
    """``text`` without the rule ids a player need not read: ``you lose (R20)`` ->
    ``you lose``; ``(the lowest trump, R6; 1-2)`` -> ``(the lowest trump; 1-2)``."""
    return _IDS_INSIDE.sub("", _IDS_ALONE.sub("", text))


__all__ = ["CARDS_ENV", "card_text", "cards_text", "drop_rule_ids", "move_phrase", "move_text",
           "parse_cards_text", "people_text", "symbols_wanted"]
