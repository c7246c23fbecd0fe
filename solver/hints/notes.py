"""What a hint tells a player about the other hands, in a player's words (issue 68).

Under the hint table a player reads what his knowledge pins down about the
hands he cannot see -- what he could work out at a real table with a good
memory, nothing the engine alone could know:

* ``known``: a seat's whole hand is known (``Seat 2 holds 9♥ K♠``), as with two
  players once the pile is empty;
* ``holds``: cards seen go into a seat's hand (picked up in a take, R16, or the
  face-up trump drawn, R17);
* ``no_trump`` and ``no_suit``: a seat can hold no card of a suit, because every
  card of it is seen elsewhere (in your hand, on the table, discarded or known
  in another hand);
* ``no_rank``: a seat holds no card of some ranks, because it was passed over
  when throwers were asked (F2) and has drawn nothing since -- only where who
  was asked is public (a match's record; docs/rules.md, S3).

A :class:`Note` holds no words, so the same hint is told again in another
language (:mod:`solver.i18n`); ``to_json`` keeps the ASCII cards for programs.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from solver.game.cards import RANK_CHARS, SUIT_MASK, SUIT_SYMBOLS, SUITS, cards_of, ranks_in
from solver.hints.knowledge import Knowledge
from solver.i18n import _, ngettext, percent
from solver.notation.people import card_text, cards_text, move_text, rank_letter

#: The kinds of :class:`Note`, in the order they are told per seat.
KINDS = ("known", "holds", "no_trump", "no_suit", "no_rank")


@dataclass(frozen=True)
class Note:
    """One thing the asking seat knows of another seat's hand (1-based ``seat``)."""

    kind: str
    seat: int
    cards: tuple[int, ...] = ()
    suits: tuple[int, ...] = ()
    ranks: tuple[int, ...] = ()

    def text(self, symbols: bool = True) -> str:
        """The line a player reads, in the current language."""
        seat, k = self.seat, self.kind
        if k == "known":
            return _("Seat {seat}'s hand is known: {cards}").format(
                seat=seat, cards=cards_text(self.cards, symbols))
        if k == "holds":
            return ngettext("Seat {seat} holds {cards}: you saw it go into the hand",
                            "Seat {seat} holds {cards}: you saw them go into the hand",
                            len(self.cards)).format(seat=seat,
                                                    cards=cards_text(self.cards, symbols))
        if k == "no_trump":
            return _("Seat {seat} holds no trump: every trump left is seen").format(seat=seat)
        if k == "no_suit":
            suits = " ".join(SUIT_SYMBOLS[s] if symbols else SUITS[s] for s in self.suits)
            return _("Seat {seat} holds no {suits}: every card of it is seen").format(
                seat=seat, suits=suits)
        ranks = " ".join(_rank_name(r) for r in self.ranks)
        return ngettext("Seat {seat} holds no {ranks}: it was not asked to throw in",
                        "Seat {seat} holds none of {ranks}: it was not asked to throw in",
                        len(self.ranks)).format(seat=seat, ranks=ranks)

    def to_json(self, symbols: bool = False) -> dict[str, Any]:
        return {"kind": self.kind, "seat": self.seat,
                "cards": [card_text(c, False) for c in self.cards],
                "suits": [SUITS[s] for s in self.suits],
                "ranks": [RANK_CHARS[r - 2] for r in self.ranks],
                "text": self.text(symbols)}


def _rank_name(rank: int) -> str:
    letter = RANK_CHARS[rank - 2]
    return "10" if letter == "T" else rank_letter(letter)


def learned(k: Knowledge) -> list[Note]:
    """Everything :mod:`this module <solver.hints.notes>` tells of the seats whose
    hands ``k.seat`` does not hold, seat by seat in play order from the asking seat."""
    v = k.view
    out: list[Note] = []
    n = v.players
    for step in range(1, n):
        o = (k.seat + step) % n
        hand, hidden = v.hands[o], v.hidden[o]
        if not hand and not hidden:
            continue
        if not hidden:
            out.append(Note("known", o + 1, tuple(cards_of(hand))))
            continue
        if hand:
            out.append(Note("holds", o + 1, tuple(cards_of(hand))))
        lacking = [s for s in range(4) if not (k.unseen & SUIT_MASK[s])
                   and not (hand & SUIT_MASK[s]) and not _bottom_of(k, s)]
        if v.trump in lacking:
            out.append(Note("no_trump", o + 1))
            lacking.remove(v.trump)
        if lacking:
            out.append(Note("no_suit", o + 1, suits=tuple(lacking)))
        none = 0
        for f in k.facts:
            if f.seat == o and not f.holds and not f.drawn and f.trust >= 1.0:
                none |= f.cards
        ranks = sorted(ranks_in(none) - ranks_in(hand))
        if ranks:
            out.append(Note("no_rank", o + 1, ranks=tuple(ranks)))
    return out


def _bottom_of(k: Knowledge, suit: int) -> bool:
    """Whether the pile's face-up bottom card, still unseen, may be of ``suit``."""
    return bool(k.bottom_mask & SUIT_MASK[suit])




def call_text(res: Any, symbols: bool = True) -> str:
    """How close the call is, in a player's words, from a hint's answer
    (:class:`~solver.hints.ranking.HintResult`): the next best move's chance when the
    recommended move stands alone, else the moves as good as it and why the
    recommended one was kept among them.  Empty with one move."""
    if len(res.moves) < 2:
        return ""
    best = move_text(res.best, symbols)
    others = [m for m in res.as_good if m != res.best]
    if not others:
        nxt = next(m for m in res.moves if m.move != res.best)
        return _("{best} stands out: the next best, {next}, has {chance}").format(
            best=best, next=move_text(nxt.move, symbols),
            chance=percent(round(nxt.chance, 4), res.digits))
    listed = ", ".join(move_text(m, symbols) for m in others)
    reason = res.choice.reason if res.choice is not None else "chance"
    if reason == "exact":
        return _("Every deal solved: {others} as good as {best}; {best} leaves the others the "
                 "most chances to go wrong").format(others=listed, best=best)
    if reason == "plain":
        why = _("{best} is the thriftier play").format(best=best)
    elif reason == "margin":
        why = _("{best} leaves the others more cards").format(best=best)
    else:
        why = _("{best} has the highest chance").format(best=best)
    return _("A close call: {others} as good within the noise; {why}").format(
        others=listed, why=why)


__all__ = ["KINDS", "Note", "call_text", "learned"]
