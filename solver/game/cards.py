"""Cards, suits, ranks and card sets (R1, R2).

A card is a small integer ``suit * 13 + (rank - 2)``: suits in the order
spades, hearts, diamonds, clubs (the order NOTATION.md uses for multi-card
leads), ranks 2..14 (ace high).  A *card set* is a Python ``int`` used as a
64-bit mask with bit ``card`` set for every card it holds -- the same layout
the Cython core uses, so sets cross the boundary unchanged.
"""
from __future__ import annotations

from typing import Iterable, Iterator

from solver.errors import CardError
from solver.i18n import _

SUITS = "SHDC"
SUIT_SYMBOLS = "♠♥♦♣"
RANK_CHARS = "23456789TJQKA"  # index = rank - 2
#: The court cards' letters of Russian decks, read as the English ones (the board shows
#: them in Russian: docs/guide/glossary.md): валет, дама, король, туз.
RANK_ALIASES = {"В": "J", "Д": "Q", "К": "K", "Т": "A"}
SPADES, HEARTS, DIAMONDS, CLUBS = range(4)

#: Lowest rank of each deck size (R1): 36 cards 6..A, 24 cards 9..A, 52 cards 2..A.
DECK_LOW_RANK = {36: 6, 24: 9, 52: 2}


def make_card(rank: int, suit: int) -> int:
    """The card of ``rank`` (2..14) and ``suit`` (0..3)."""
    return suit * 13 + (rank - 2)


def rank_of(card: int) -> int:
    """Rank 2..14 of a card."""
    return card % 13 + 2


def suit_of(card: int) -> int:
    """Suit 0..3 of a card."""
    return card // 13


def card_name(card: int, pretty: bool = False) -> str:
    """Canonical text of a card: ``TH``, ``6S`` (``10♥`` style when ``pretty``)."""
    rank = RANK_CHARS[card % 13]
    if pretty:
        return ("10" if rank == "T" else rank) + SUIT_SYMBOLS[card // 13]
    return rank + SUITS[card // 13]


def parse_suit(text: str) -> int:
    """Suit from ``S H D C`` or a suit symbol, any case."""
    t = text.strip().upper()
    if len(t) == 1:
        if t in SUITS:
            return SUITS.index(t)
        if t in SUIT_SYMBOLS:
            return SUIT_SYMBOLS.index(t)
    # variation selectors sometimes follow the symbols
    if len(t) == 2 and t[1] == "\ufe0f" and t[0] in SUIT_SYMBOLS:
        return SUIT_SYMBOLS.index(t[0])
    raise CardError(_("unknown suit {text} (expected one of S H D C or ♠ ♥ ♦ ♣)").format(
        text=repr(text)))


def parse_card(text: str, deck: int = 36) -> int:
    """Card from its text (``TH``, ``10h``, ``6♠``); rejects ranks outside ``deck``."""
    t = text.strip().upper().replace("\ufe0f", "")
    if len(t) < 2:
        raise CardError(_("unknown card {card}").format(card=repr(text)))
    rank_text, suit_text = t[:-1], t[-1]
    if rank_text == "10":
        rank_text = "T"
    rank_text = RANK_ALIASES.get(rank_text, rank_text)
    if len(rank_text) != 1 or rank_text not in RANK_CHARS:
        raise CardError(_("unknown card {card}: bad rank {rank}").format(card=repr(text),
                                                                   rank=repr(rank_text)))
    try:
        suit = parse_suit(suit_text)
    except ValueError:
        raise CardError(_("unknown card {card}: bad suit {suit}").format(
            card=repr(text), suit=repr(suit_text))) from None
    rank = RANK_CHARS.index(rank_text) + 2
    if rank < DECK_LOW_RANK[deck]:
        raise CardError(_("unknown card {card}: not in the {deck}-card deck").format(
            card=repr(text), deck=deck))
    return make_card(rank, suit)


def beats(cover: int, attack: int, trump: int) -> bool:
    """R2: does ``cover`` beat ``attack`` with trump suit ``trump``?"""
    cs, as_ = cover // 13, attack // 13
    if cs == as_:
        return cover % 13 > attack % 13
    return cs == trump


# ---------------------------------------------------------------- card sets

def bit(card: int) -> int:
    return 1 << card


def cards_of(mask: int) -> Iterator[int]:
    """The cards of a set, lowest index first (suit order S H D C, rank ascending)."""
    while mask:
        low = mask & -mask
        yield low.bit_length() - 1
        mask ^= low


def to_mask(cards: Iterable[int]) -> int:
    m = 0
    for c in cards:
        m |= 1 << c
    return m


def count(mask: int) -> int:
    return bin(mask).count("1")


SUIT_MASK = [((1 << 13) - 1) << (13 * s) for s in range(4)]


def deck_mask(deck: int = 36) -> int:
    """All cards of a deck of 24, 36 or 52 cards (R1)."""
    low = DECK_LOW_RANK[deck]
    m = 0
    for s in range(4):
        for r in range(low, 15):
            m |= 1 << make_card(r, s)
    return m


def rank_mask(rank: int) -> int:
    """The four cards of one rank."""
    return sum(1 << make_card(rank, s) for s in range(4))


def ranks_in(mask: int) -> set[int]:
    return {rank_of(c) for c in cards_of(mask)}


def cards_by_rank(mask: int, ranks: set[int]) -> int:
    """The subset of ``mask`` whose ranks are in ``ranks``."""
    out = 0
    for r in ranks:
        out |= mask & rank_mask(r)
    return out


def beaters(attack: int, hand: int, trump: int) -> int:
    """R2: the cards of ``hand`` that beat ``attack``."""
    s = attack // 13
    higher_same = SUIT_MASK[s] & ~((1 << (attack + 1)) - 1)
    m = hand & higher_same
    if s != trump:
        m |= hand & SUIT_MASK[trump]
    return m


def format_cards(mask: int, pretty: bool = False) -> str:
    """Cards of a set separated by spaces, in suit-then-rank order."""
    return " ".join(card_name(c, pretty) for c in sorted_for_display(mask))


def sorted_for_display(mask: int) -> list[int]:
    return list(cards_of(mask))
