"""Moves and their text (NOTATION.md, "Moves").

A :class:`Move` is a small immutable value; ``Move.parse(text)`` and
``str(move)`` are a parse/format pair and the repr can be pasted back.
"""
from __future__ import annotations

import enum
from dataclasses import dataclass

from solver.errors import MoveError
from solver.i18n import _
from solver.game.cards import card_name, parse_card, rank_of


class Kind(enum.IntEnum):
    LEAD = 0       # P1: one card or several of one rank
    COVER = 1      # P2: attack card / covering card
    TAKE = 2       # P2: the defender picks up (R11)
    TRANSFER = 3   # R14: add a card of the attack rank and pass the bout on
    SHOW = 4       # R14 option: show a trump of the attack rank instead
    THROW = 5      # P3/P4: throw-in
    PASS = 6       # P3/P4: decline to throw in
    SWAP = 7       # R7 option: trump 6 for the face-up trump (project notation)


@dataclass(frozen=True, order=True)
class Move:
    """One move.  ``cards`` holds the played card(s); ``target`` the covered card."""

    kind: Kind
    cards: tuple[int, ...] = ()
    target: int = -1

    # ------------------------------------------------------------ builders
    @classmethod
    def lead(cls, *cards: int) -> "Move":
        return cls(Kind.LEAD, tuple(sorted(cards)))

    @classmethod
    def cover(cls, attack: int, card: int) -> "Move":
        return cls(Kind.COVER, (card,), attack)

    @classmethod
    def throw(cls, card: int) -> "Move":
        return cls(Kind.THROW, (card,))

    @classmethod
    def transfer(cls, card: int) -> "Move":
        return cls(Kind.TRANSFER, (card,))

    @classmethod
    def show(cls, card: int) -> "Move":
        return cls(Kind.SHOW, (card,))

    # --------------------------------------------------------------- text
    def __str__(self) -> str:
        k = self.kind
        if k is Kind.LEAD:
            return ",".join(card_name(c) for c in self.cards)
        if k is Kind.COVER:
            return f"{card_name(self.target)}/{card_name(self.cards[0])}"
        if k is Kind.TAKE:
            return "take"
        if k is Kind.TRANSFER:
            return ">" + card_name(self.cards[0])
        if k is Kind.SHOW:
            return ">!" + card_name(self.cards[0])
        if k is Kind.THROW:
            return "+" + card_name(self.cards[0])
        if k is Kind.PASS:
            return "pass"
        return "swap"

    def __repr__(self) -> str:
        return f"Move.parse({str(self)!r})"

    @classmethod
    def parse(cls, text: str, deck: int = 36) -> "Move":
        """Parse move text; an optional ``3:`` seat prefix is accepted and dropped.

        Use :func:`parse_move_with_seat` to keep the seat.
        """
        return parse_move_with_seat(text, deck)[1]


TAKE = Move(Kind.TAKE)
PASS = Move(Kind.PASS)
SWAP = Move(Kind.SWAP)


def parse_move_with_seat(text: str, deck: int = 36) -> tuple[int | None, Move]:
    """Parse ``[seat:]move``; returns the 1-based seat (or None) and the move."""
    raw = text
    t = text.strip()
    seat = None
    if ":" in t:
        head, t = t.split(":", 1)
        try:
            seat = int(head)
        except ValueError:
            raise MoveError(_("bad seat prefix in move {move}").format(move=repr(raw))) from None
        if seat < 1:
            raise MoveError(_("bad seat prefix in move {move}").format(move=repr(raw)))
        t = t.strip()
    low = t.lower()
    if not t:
        raise MoveError(_("empty move {move}").format(move=repr(raw)))
    try:
        if low == "take":
            return seat, TAKE
        if low == "pass":
            return seat, PASS
        if low == "swap":
            return seat, SWAP
        if t.startswith(">!"):
            return seat, Move.show(parse_card(t[2:], deck))
        if t.startswith(">"):
            return seat, Move.transfer(parse_card(t[1:], deck))
        if t.startswith("+"):
            return seat, Move.throw(parse_card(t[1:], deck))
        if "/" in t:
            a, c = t.split("/", 1)
            return seat, Move.cover(parse_card(a, deck), parse_card(c, deck))
        cards = [parse_card(x, deck) for x in t.split(",")]
    except ValueError as e:
        raise MoveError(_("bad move {move}: {error}").format(move=repr(raw), error=e)) from None
    if len(set(cards)) != len(cards):
        raise MoveError(_("bad move {move}: a card is named twice").format(move=repr(raw)))
    if len({rank_of(c) for c in cards}) != 1:
        raise MoveError(_("bad move {move}: a lead of several cards must be of one rank "
                          "(R8)").format(move=repr(raw)))
    return seat, Move.lead(*cards)
