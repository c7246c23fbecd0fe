"""The prompt's answer to a line it could not take, as a person would give it.

A typo gets the nearest legal reading ("'tkae' is not a move: did you mean
take?"): the edit distance (with swapped neighbours as one edit) from what was
typed to every command and every legal move of the turn -- the move's
notation in both card forms (``6C/AC``, ``6♣/A♣``) and the short forms the
prompt takes (``AC`` for a cover, ``8C`` for a throw-in); a rank said in words
(``ace``) is the player's moves of that rank.  A card the player does not hold
(the session says so, :meth:`~solver.games.session.GameSession.enter`) gets the
moves he may make instead ("you don't hold 7♣; you may throw in 10♠ or pass").

Only presentation lives here: the legal moves come from the session's
:meth:`~solver.games.session.GameSession.turn`, whether a card is held from the
session's own refusal.
"""
from __future__ import annotations

from typing import Iterable

from solver.errors import DurakError
from solver.game.moves import Kind, parse_move_with_seat
from solver.i18n import N_, _
from solver.notation.people import card_text, move_text, people_text

#: The prompt's commands (solver/cli/prompt.py), the words a typo may be near.
COMMANDS = ("hint", "auto", "solve", "show", "undo", "review", "record", "save", "help", "quit")
#: Ranks said in words.
RANK_WORDS = {"ace": "A", "aces": "A", "king": "K", "kings": "K", "queen": "Q", "queens": "Q",
              "jack": "J", "jacks": "J", "ten": "T", "tens": "T", "nine": "9", "nines": "9",
              "eight": "8", "eights": "8", "seven": "7", "sevens": "7", "six": "6", "sixes": "6"}
#: The most a reading may be from what was typed: one edit in a short word, two from six letters.
MAX_EDITS = (1, 2)
#: The most moves a suggestion names, and the most of one kind "you may" lists.
MAX_NAMED = 4
MAX_LISTED = 8


def distance(a: str, b: str, most: int | None = None) -> int:
    """Edits from ``a`` to ``b``: insertions, deletions, substitutions and swaps of
    neighbours (``tkae`` -> ``take`` is one), as in Damerau's restricted distance.

    With ``most``, any distance above it is only said to be above it (``most + 1``):
    two words whose lengths differ by more are that far apart at least, and are
    not compared letter by letter -- a line of 20,000 characters against every
    legal move would otherwise cost seconds (the table has a cell per pair of
    letters)."""
    if most is not None and abs(len(a) - len(b)) > most:
        return most + 1
    prev2: list[int] = []
    prev = list(range(len(b) + 1))
    for i in range(1, len(a) + 1):
        cur = [i] + [0] * len(b)
        for j in range(1, len(b) + 1):
            cost = 0 if a[i - 1] == b[j - 1] else 1
            cur[j] = min(prev[j] + 1, cur[j - 1] + 1, prev[j - 1] + cost)
            if i > 1 and j > 1 and a[i - 1] == b[j - 2] and a[i - 2] == b[j - 1]:
                cur[j] = min(cur[j], prev2[j - 2] + 1)
        prev2, prev = prev, cur
    return prev[len(b)]


def _key(text: str) -> str:
    """A reading's form for comparing: ASCII cards, lower case, no spaces, ten as ``t``."""
    return "".join(people_text(text, symbols=False).lower().split()).replace("10", "t")


def _readings(move: str) -> list[str]:
    """The texts a player may type for ``move`` (ASCII notation): the whole move,
    and the short forms the prompt takes."""
    out = [move]
    if move.startswith("+"):
        out.append(move[1:])
    if "/" in move:
        out.append(move.split("/", 1)[1])
    if "," in move:
        out.append(move.replace(",", " "))
    return out


def nearest(typed: str, moves: Iterable[str], commands: Iterable[str] = COMMANDS
            ) -> list[str]:
    """The moves and commands nearest to ``typed`` within :data:`MAX_EDITS`, in
    the order given (the moves' ASCII notation), or none."""
    key = _key(typed)
    if not key:
        return []
    rank = RANK_WORDS.get(key)
    moves = list(moves)
    if rank is not None:
        return [m for m in moves if _ranks(m) == {rank}]
    best: list[str] = []
    least = (MAX_EDITS[0] if len(key) < 6 else MAX_EDITS[1]) + 1  # more than allowed
    for cand in list(commands) + moves:
        d = min(distance(key, _key(r), least) for r in _readings(cand))
        if d == 0:
            return []  # typed as it is: refused for another reason, which the session says
        if d < least:
            best, least = [cand], d
        elif d == least and cand not in best:
            best.append(cand)
    if least >= len(key):  # as many edits as letters: no reading at all
        return []
    return best


def _ranks(move: str) -> set[str]:
    try:
        _seat, mv = parse_move_with_seat(move, 52)
    except DurakError:
        return set()
    return {card_text(c, False)[:-1] for c in mv.cards}


def may(moves: Iterable[str], symbols: bool = True) -> str:
    """The legal moves in words, grouped as a player says them: ``cover 6♣ with A♣
    or K♣, or take``; ``throw in 10♠ or J♦, or pass``."""
    groups: dict[object, list[str]] = {}
    words: dict[object, str] = {}
    for text in moves:
        try:
            _seat, mv = parse_move_with_seat(text, 52)
        except DurakError:
            continue
        k = mv.kind
        cards = " ".join(card_text(c, symbols) for c in mv.cards)
        if k is Kind.LEAD:
            key: object = k
            words[key] = _("lead {cards}")
            groups.setdefault(key, []).append(cards)
        elif k is Kind.COVER:
            key = (k, mv.target)
            words[key] = _("cover {target} with {cards}").replace(
                "{target}", card_text(mv.target, symbols))
            groups.setdefault(key, []).append(cards)
        elif k in (Kind.THROW, Kind.TRANSFER, Kind.SHOW):
            key = k
            words[key] = {Kind.THROW: _("throw in {cards}"),
                          Kind.TRANSFER: _("transfer with {cards}"),
                          Kind.SHOW: _("transfer by showing {cards}")}[k]
            groups.setdefault(key, []).append(cards)
        else:
            key = k
            words[key] = {Kind.TAKE: _("take"), Kind.PASS: _("pass"),
                          Kind.SWAP: _("swap the trump six")}[k]
            groups.setdefault(key, [])
    parts = []
    for key, items in groups.items():
        parts.append(words[key].replace("{cards}", _or(items)) if items else words[key])
    either = _(" or ")
    return _or(parts, sep=_(", or ") if any(either in p for p in parts) else None)


def _or(items: list[str], sep: str | None = None) -> str:
    if len(items) <= 1:
        return "".join(items)
    if len(items) > MAX_LISTED and sep is None:
        return ", ".join(items[:MAX_LISTED]) + _(" ... ({n} in all)").format(n=len(items))
    if sep is not None:
        return ", ".join(items[:-1]) + sep + items[-1]
    return ", ".join(items[:-1]) + _(" or ") + items[-1]


def answer(typed: str, error: str, moves: list[str] | None, symbols: bool = True,
           commands: Iterable[str] = COMMANDS, near: list[str] | None = None) -> str | None:
    """What the prompt says to a line the session refused with ``error``, where it
    can say better (``moves``: the player's legal moves now; None when it is not
    his turn or they are not known -- then only the commands and the words, and
    ``near``: the moves another seat could make, that a typo may be near):

    * a card he does not hold: the moves he may make instead;
    * a move as written that the rules refuse (``K♥`` that does not beat ``A♣``): the
      session's reason, and on his turn what he may do;
    * a typo: the nearest readings ("did you mean take?");
    * on his turn, anything else: what he may do.

    None: the session's message says it best."""
    typed = typed.strip()
    you_may = _("{error}; you may {moves}")
    if error.startswith(_piece(NOT_HELD, "", "{cards}")) and moves:
        return you_may.format(error=people_text(error, symbols), moves=may(moves, symbols))
    if _piece(CAN_MEAN, "{typed}", "{readings}") in error:  # several readings: the session's
        return people_text(error, symbols)
    if _parses(typed):  # a move as written, refused by the rules: the session says why
        return (you_may.format(error=people_text(error, symbols), moves=may(moves, symbols))
                if moves else None)
    close = nearest(typed, moves or near or [],
                    list(commands) + (list(WORDS) if moves is None and not near else []))
    if close:
        shown = [move_text(m, symbols) if m not in commands else m for m in close[:MAX_NAMED]]
        return _("{typed} is not a move: did you mean {options}?").format(typed=repr(typed),
                                                                         options=_or(shown))
    if not moves:
        return None
    word = nearest(typed, [], WORDS)
    if word:
        return _("{word} is not a move now; you may {moves}").format(word=word[0],
                                                                    moves=may(moves, symbols))
    return _("{typed} is not a move; you may {moves}").format(typed=repr(typed),
                                                             moves=may(moves, symbols))


#: The session's messages the prompt answers better (solver/games/session.py's own
#: words, in the player's language: :func:`_piece`).
NOT_HELD = N_("you don't hold {cards}")
CAN_MEAN = N_("{typed} can mean {readings}: type the one you mean")


def _piece(message: str, before: str, after: str) -> str:
    """The fixed words of a message between two of its fields, in the current language
    (``" can mean "``): what a message the session raised is recognised by."""
    text = _(message)
    return text.split(before, 1)[-1].split(after, 1)[0] if before else text.split(after, 1)[0]
#: The moves said in a word.
WORDS = ("take", "pass", "swap")


def _parses(typed: str) -> bool:
    """Whether ``typed`` reads as a move or as cards (it is then refused by the rules)."""
    for text in (typed, typed.replace(" ", ",")):
        try:
            parse_move_with_seat(text, 52)
        except DurakError:
            continue
        return True
    return False


__all__ = ["COMMANDS", "WORDS", "answer", "distance", "may", "nearest"]
