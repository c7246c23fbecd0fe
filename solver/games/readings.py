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
from solver.game.cards import (RANK_CHARS, beats, bit, card_name, cards_of, deck_mask, parse_card,
                               rank_of)
from solver.game.movegen import legal_moves
from solver.game.moves import Kind, Move, parse_move_with_seat
from solver.game.state import GameState, Phase
from solver.games.replay import place, seen
from solver.i18n import _, ngettext
from solver.notation.people import rank_letter

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
        if len(parts) == 1 and re.fullmatch(r"[+>!]*(10|\w)\S", parts[0]):
            try:  # a card mistyped: the card's own error, not the move parser's around it
                parse_card(parts[0].lstrip("+>!"), deck)
            except DurakError as card_error:
                e = card_error
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


#: The cards an example names first, where the player has not seen them.
_EXAMPLES = ("7H", "KD", "6S", "9C", "TS", "QH", "8D", "JC", "AS", "9H", "6C", "QD")


def unseen(view: GameState) -> int:
    """The cards the player has not seen (the mask): in no hand he knows, not on the
    table, not in the discards, not the face-up trump -- the cards a hidden hand or
    the pile may hold."""
    known = view.table_mask | view.out
    for hand in view.hands:
        known |= hand
    if view.pile > 0 and view.trump_card >= 0:
        known |= bit(view.trump_card)
    return deck_mask(view.rules.deck) & ~known


def examples(view: GameState, n: int, pair: bool = False) -> list[str]:
    """``n`` cards the player has not seen, to show what to type (``7H KD``): never a
    card he holds or one that is gone; ``pair``: two of one rank (a lead of two)."""
    mask = unseen(view)
    if not mask:
        return []
    order = [parse_card(c) for c in _EXAMPLES if mask >> parse_card(c) & 1]
    order += [c for c in cards_of(mask) if c not in order]
    if pair:
        for c in order:
            mate = next((d for d in order if d != c and rank_of(d) == rank_of(c)), None)
            if mate is not None:
                return [card_name(c), card_name(mate)]
        return []
    return [card_name(c) for c in order[:max(1, n)]]


def example_draw(view: GameState, n: int) -> str:
    """What to type for ``n`` drawn cards: cards the player has not seen (``7H KD``)."""
    return " ".join(examples(view, n)) or "7H"


def draw_problem(state: GameState, me: int, cards: list[int], due: int, known: int) -> str | None:
    """What is wrong with the cards ``cards`` the player (seat ``me``, 0-based) names as
    drawn, in the table's words -- one he holds already or whose place is known (the
    discards, the table, another hand), one named twice, or not the ``due`` cards he
    drew besides the ``known`` ones -- or None."""
    twice = next((c for c in cards if cards.count(c) > 1), None)
    if twice is not None:
        return _("{card} is named twice").format(card=card_name(twice))
    for c in cards:
        if known >> c & 1 or not seen(state, c):
            continue
        if state.hands[me] >> c & 1:
            return _("you hold {card} already: it is not a card you drew").format(
                card=card_name(c))
        return _("you cannot have drawn {card}: {where}").format(card=card_name(c),
                                                                 where=place(state, c))
    new = {c for c in cards if not known >> c & 1}
    if due and len(new) != due:
        return drew_text(due, known)
    return None


def drew_text(n: int, known: int = 0) -> str:
    """The player drew ``n`` cards he had not seen (and ``known``, the mask of those he
    knew: the face-up trump) but named another number of them: say how many to name."""
    if known:
        cards = " ".join(card_name(c) for c in cards_of(known))
        if n == 2:
            return _("you drew 2 cards besides {cards}; name both").format(cards=cards)
        return ngettext("you drew {n} card besides {cards}; name it",
                        "you drew {n} cards besides {cards}; name all {n}", n).format(
                            n=n, cards=cards)
    if n == 2:
        return _("you drew 2 cards; name both")
    return ngettext("you drew {n} card; name it", "you drew {n} cards; name all {n}", n).format(
        n=n)


def could_play(view: GameState) -> list[str]:
    """The moves the seat to move could make as far as the player knows: its legal
    moves with its known cards and any card he has not seen in its hand (the readings
    a typo at another seat's prompt may be near)."""
    seat = view.to_move
    if view.is_over:
        return []
    hands = list(view.hands)
    hidden = list(view.hidden)
    if hidden[seat]:
        hands[seat] |= unseen(view)
        hidden[seat] = 0
    try:
        return [str(m) for m in legal_moves(view.replace(hands=tuple(hands),
                                                         hidden=tuple(hidden)))]
    except DurakError:
        return []


def rank_words(ranks: list[str] | tuple[str, ...]) -> str:
    """Ranks of the notation (``6``, ``T``, ``K``) as the player writes them, joined:
    ``6 or K`` (``10`` for the ten, Russian ``К`` for the king)."""
    shown = ["10" if r == "T" else rank_letter(r) for r in ranks]
    return _(" or ").join(shown)


def why_not(state: GameState, move: Move) -> str | None:
    """Why the rules refuse ``move`` of the seat to move, at the table's words (the
    rule in brackets), where it is one of the common reasons; None otherwise."""
    k = move.kind
    card = move.cards[0] if move.cards else -1
    if k is Kind.THROW and state.table:
        ranks = sorted({RANK_CHARS[rank_of(c) - 2] for c in cards_of(state.table_mask)},
                       key=RANK_CHARS.index)
        if RANK_CHARS[rank_of(card) - 2] not in ranks:
            return _("{card} cannot be thrown in: only cards of the ranks on the table may be "
                     "({ranks}) (R9)").format(card=card_name(card), ranks=rank_words(ranks))
        if len(state.table) >= state.limit:
            return _("no more cards may be thrown in: the bout holds its most attack cards "
                     "(R10)")
    if k is Kind.COVER and not beats(card, move.target, state.trump):
        return _("{card} does not beat {target} (R2)").format(card=card_name(card),
                                                             target=card_name(move.target))
    if k is Kind.LEAD and len({rank_of(c) for c in move.cards}) > 1:
        return _("a lead is one card or several of one rank (R8)")
    return None


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
    said = why_not(s, parse_move_with_seat(first, deck)[1]) if s.to_move + 1 == asked else None
    if said is None:
        err = attempt(f"{asked}:{first}")
        said = getattr(err, "problem", str(err))
    raise MoveError(f"{words!r}: {said}")


def valid(meant: list[str], seats: list[int], attempt: Attempt) -> list[str]:
    """The tokens of ``meant`` played by any of ``seats`` that the record takes."""
    out = []
    for st in seats:
        for r in meant:
            tok = f"{st}:{r}"
            if not isinstance(attempt(tok), DurakError) and tok not in out:
                out.append(tok)
    return out


__all__ = ["all_cards", "could_play", "draw_problem", "drew_text", "example_draw", "examples", "rank_words", "readings",
           "resolve", "split_entries", "unseen", "why_not"]
