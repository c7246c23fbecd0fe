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

In the player's language (:mod:`solver.i18n`) the suits stay symbols and the rank
letters are the ones players of that language write (Russian ``В Д К Т`` for jack,
queen, king, ace; Lithuanian and English ``J Q K A``: docs/guide/glossary.md); the
words ``take`` and ``pass`` are said as at the table (``беру``, ``imu``).  The ASCII
form never changes with the language, and input takes the English letters always.
"""
from __future__ import annotations

import os
import re
from typing import IO, Any

from solver.errors import DurakError
from solver.game.cards import RANK_ALIASES, SUIT_SYMBOLS, SUITS, card_name, parse_card
from solver.game.moves import Kind, Move, parse_move_with_seat
from solver.i18n import N_, _, pgettext

#: The environment switch: ``ascii`` or ``symbols`` overrides what the terminal can show.
CARDS_ENV = "DURAK_CARDS"

# an ASCII card standing alone in a text: not inside a word (JSON, PASS) or a number
_ASCII_CARD = re.compile(r"(?<![A-Za-z0-9])(10|[2-9TJQKA])([SHDC])(?![A-Za-z0-9])")
_SYMBOL_CARD = re.compile(r"(?<![A-Za-z0-9])(10|[2-9TJQKA" + "".join(RANK_ALIASES)
                          + r"])([♠♥♦♣])\ufe0f?")
#: The letters of the court cards, each translated in its context (a letter of Russian
#: players' decks: В, Д, К, Т).
COURT = ("J", "Q", "K", "A")
# "(R17)", "(R20-R22)", "(P3, F2)": a parenthesis that holds rule ids only
_IDS_ALONE = re.compile(r"\s*\((?:[RPFS]\d{1,2}(?:\s*(?:-|–|,|/|and)\s*[RPFS]?\d{1,2})*)\)")
# "(the lowest trump, R6; 1-2)": a rule id at the end of a phrase inside a parenthesis
_IDS_INSIDE = re.compile(r",\s*[RPFS]\d{1,2}(?:\s*[-–]\s*[RPFS]?\d{1,2})?(?=\s*[;)])")


def rank_letter(letter: str) -> str:
    """A court card's letter in the current language (``К`` for the king in Russian)."""
    if letter == "J":
        return pgettext("card rank", "J")
    if letter == "Q":
        return pgettext("card rank", "Q")
    if letter == "K":
        return pgettext("card rank", "K")
    if letter == "A":
        return pgettext("card rank", "A")
    return letter


def card_text(card: int, symbols: bool = True) -> str:
    """One card for people: ``10♠`` (``TS`` when ``symbols`` is false), the rank letter
    in the current language (``Т♠``, the ace, in Russian)."""
    name = card_name(card, pretty=symbols)
    if symbols and name[0] in COURT:
        return rank_letter(name[0]) + name[1:]
    return name


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
    if symbols and k is Kind.TAKE:
        return pgettext("move", "take")
    if symbols and k is Kind.PASS:
        return pgettext("move", "pass")
    return str(move)


def move_word(word: str) -> str:
    """A move typed in the player's words (``беру``, ``imu``, ``пас``) as its notation
    (``take``, ``pass``); anything else as it is.  The English words always work."""
    low = word.strip().lower()
    for notation in ("take", "pass"):
        if low == pgettext("move", notation).lower():
            return notation
    return word


def people_text(text: str, symbols: bool = True) -> str:
    """``text`` with every card standing alone written for people (``7C`` -> ``7♣``,
    ``TS/AS`` -> ``10♠/A♠``), or, when ``symbols`` is false, back in ASCII
    (``10♠`` -> ``TS``).  Words that only contain card-like letters (``JSON``,
    ``PASS``) are left alone."""
    if symbols:
        return _ASCII_CARD.sub(lambda m: ("10" if m.group(1) in ("T", "10") else
                                          rank_letter(m.group(1)))
                               + SUIT_SYMBOLS[SUITS.index(m.group(2))], text)
    return _SYMBOL_CARD.sub(lambda m: ("T" if m.group(1) == "10" else
                                       RANK_ALIASES.get(m.group(1), m.group(1)))
                            + SUITS[SUIT_SYMBOLS.index(m.group(2))], text)


def move_sentence(move: Move, seat: int, you: bool = False, symbols: bool = True) -> str:
    """What a move does, told at the table: ``Seat 2 covers 6♣ with A♣``, ``You take``
    (``you``: the player's own move) -- one whole sentence per move and person, so
    that each language conjugates its own verb."""
    k = move.kind
    cards = cards_text(move.cards, symbols)
    if k is Kind.LEAD:
        return (_("You lead {cards}") if you else _("Seat {seat} leads {cards}")).format(
            cards=cards, seat=seat)
    if k is Kind.COVER:
        text = _("You cover {target} with {cards}") if you else _(
            "Seat {seat} covers {target} with {cards}")
        return text.format(target=card_text(move.target, symbols), cards=cards, seat=seat)
    if k is Kind.TAKE:
        return (_("You take") if you else _("Seat {seat} takes")).format(seat=seat)
    if k is Kind.TRANSFER:
        return (_("You transfer with {cards}") if you
                else _("Seat {seat} transfers with {cards}")).format(cards=cards, seat=seat)
    if k is Kind.SHOW:
        return (_("You show {cards} and transfer") if you
                else _("Seat {seat} shows {cards} and transfers")).format(cards=cards, seat=seat)
    if k is Kind.THROW:
        return (_("You throw in {cards}") if you
                else _("Seat {seat} throws in {cards}")).format(cards=cards, seat=seat)
    if k is Kind.PASS:
        return (_("You pass") if you else _("Seat {seat} passes")).format(seat=seat)
    return (_("You swap the trump six for the face-up trump") if you
            else _("Seat {seat} swaps the trump six for the face-up trump")).format(seat=seat)


#: The rule options (solver/game/rules.py) in words: the board's badges say the same.
RULE_WORDS = {"transfer": N_("transfer"), "transfer_by_trump_show": N_("transfer by showing a trump"),
              "throw_in=neighbours": N_("only neighbours throw in"),
              "first_bout_limit=5": N_("first bout at most 5"), "trump_swap": N_("swap the trump six"),
              "first_out_wins": N_("first out wins"), "teams=2v2": N_("teams 2 v 2")}


def value_word(text: str) -> str:
    """A value, ``win``, ``draw`` or ``loss``, in the player's language (the data keeps
    the English word)."""
    if text == "win":
        return _("win")
    if text == "draw":
        return _("draw")
    if text == "loss":
        return _("loss")
    return text


#: The engine's strengths (`durak play --vs`) in words.
STRENGTH_WORDS = {"greedy": N_("greedy"), "hint": N_("hint engine"), "strong": N_("strong"),
                  "random": N_("random")}


def strength_text(strength: str | None) -> str:
    """The engine's strength as the player reads it (``greedy`` -> ``жадный``)."""
    return _(STRENGTH_WORDS[strength]) if strength in STRENGTH_WORDS else str(strength)


def rules_text(names: list[str]) -> str:
    """A table's rule options in the player's words (``podkidnoy`` when there are none;
    an option without words, such as ``deck=24``, as it is written)."""
    if not names:
        return _("podkidnoy")
    words = []
    for name in names:
        if name.startswith("deck="):
            words.append(_("deck of {n}").format(n=name[5:]))
        else:
            words.append(_(RULE_WORDS[name]) if name in RULE_WORDS else name)
    return ", ".join(words)


#: A seat's markers on the board (solver/game/outcome.py, seat_roles), in words.
ROLE_WORDS = {"attacker": N_("attacker"), "defender": N_("defender"), "to move": N_("to move"),
              "out": N_("out")}


def role_words(roles: list[str]) -> str:
    """A seat's markers in the player's language: ``attacker, to move``."""
    return ", ".join(_(ROLE_WORDS[r]) if r in ROLE_WORDS else r for r in roles)


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


__all__ = ["CARDS_ENV", "card_text", "cards_text", "drop_rule_ids", "move_sentence", "move_text",
           "move_word", "parse_cards_text", "people_text", "rank_letter", "role_words", "rules_text",
           "strength_text", "symbols_wanted", "value_word"]
