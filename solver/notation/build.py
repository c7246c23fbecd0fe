"""From parsed fields to a game state, checking that the position can occur.

:mod:`solver.notation.syntax` reads text or JSON into a
:class:`~solver.notation.syntax.Raw` record of located tokens;
:func:`build_position` gives them meaning and rejects what the rules do not
allow.  Each check cites the rule it enforces; each failure is a
:class:`~solver.errors.PositionError` that names the field, quotes the token
and says where it stands.  What a position leaves unsaid is put back from
:mod:`solver.game.defaults`, the same place the formatter reads it.
"""
from __future__ import annotations

import json
import re
from typing import Any, Mapping

from solver.errors import PositionError
from solver.game.cards import (SUITS, beats, bit, card_name, count, deck_mask, parse_card,
                               parse_suit, rank_of, suit_of)
from solver.game.defaults import default_cap, default_limit
from solver.game.movegen import settle
from solver.game.rules import HAND_SIZE, Rules, parse_rules
from solver.game.state import NO_COVER, GameState, Phase
from solver.i18n import _, ngettext
from solver.inputs.jsonin import NumberTooLong, check_digits, loads
from solver.notation.position import Position
from solver.notation.syntax import Raw, Tok, raw_from_json, raw_from_text

#: The longest position text read, in characters: far beyond any real position
#: (a 52-card deal with every field is under 1,000), and small enough to refuse
#: a runaway input at once.
MAX_POSITION_CHARS = 1_000_000
_INT_RE = re.compile(r"[+-]?[0-9]+")

# ------------------------------------------------------------------ helpers

def _int(field: str, tok: Tok) -> int:
    # ASCII digits only: int() would also take other scripts' digits ("١")
    if not _INT_RE.fullmatch(tok.text.strip()):
        raise PositionError(field, _("expected a number, got {token}{at}").format(
            token=repr(tok.text), at=tok.at()))
    try:
        check_digits(tok.text, field)  # more digits than int() reads
    except NumberTooLong as e:
        raise PositionError(field, f"{e.problem}{tok.at()}") from None
    return int(tok.text)


def _seat(field: str, tok: Tok, n: int) -> int:
    """A 1-based seat number from the text, as a 0-based seat."""
    v = _int(field, tok)
    if not 1 <= v <= n:
        raise PositionError(field, _("seat {seat}{at} does not exist (seats are 1..{n})").format(
            seat=repr(tok.text), at=tok.at(), n=n))
    return v - 1


class _Cards:
    """Parses cards and remembers where each one is, to report duplicates (R1)."""

    def __init__(self, deck: int):
        self.deck = deck
        self.where: dict[int, str] = {}
        self.mask = 0

    def parse(self, field: str, tok: Tok, place: str) -> int:
        """The card of ``tok``; ``place`` names where it lies (``seat 1's hand``), in
        the player's words, before a card that does not read ("" for none)."""
        try:
            return parse_card(tok.text, self.deck)
        except ValueError as e:
            where = f"{place}: " if place else ""
            raise PositionError(field, f"{where}{e}{tok.at()}") from None

    def add(self, field: str, tok: Tok, place: str, here: str) -> int:
        """As :meth:`parse`, and remembered; ``here`` says where it lies for a duplicate's
        message (``in seat 1's hand``)."""
        card = self.parse(field, tok, place)
        here = f"{here}{tok.at()}"
        if card in self.where:
            raise PositionError(field, _("duplicate card {card}: {first} and {second}").format(
                card=repr(tok.text), first=self.where[card], second=here))
        self.where[card] = here
        self.mask |= bit(card)
        return card


def _rules(raw: Raw) -> Rules:
    if raw.rules is None:
        return Rules()
    try:
        return parse_rules(raw.rules.text)
    except ValueError as e:
        raise PositionError("rules", f"{e}{raw.rules.at()}") from None


def _trump(raw: Raw, deck: int) -> tuple[int, int]:
    """The trump suit, and the face-up card if one is named (else -1)."""
    tok = raw.trump
    if tok is None or not tok.text.strip():
        raise PositionError("trump", _("required field missing (e.g. 'trump H' or 'trump 9H')"))
    try:
        return parse_suit(tok.text), -1
    except ValueError:
        pass
    try:
        card = parse_card(tok.text, deck)
    except ValueError as e:
        raise PositionError("trump", _("{token}{at} is neither a suit (S H D C) nor a card "
                                       "({error})").format(token=repr(tok.text), at=tok.at(),
                                                           error=e)) from None
    return suit_of(card), card


# ------------------------------------------------------------------ the build

def build_position(raw: Raw) -> Position:
    """Give the fields meaning, check the position can occur, settle P3/P4."""
    rules = _rules(raw)
    reg = _Cards(rules.deck)
    trump, face_up = _trump(raw, rules.deck)
    hands, hidden = _hands(raw, rules, reg)
    n = len(hands)
    table = _table(raw, reg, trump)
    pile, pile_order, trump_card = _pile(raw, reg, trump, face_up)
    out = 0
    for t in raw.out or []:
        out |= bit(reg.add("out", t, "out", _("in out")))
    out = _out(raw, rules, reg, hidden, pile, pile_order, out)
    shown = 0
    for t in raw.shown or []:
        shown |= bit(reg.parse("shown", t, "shown"))

    state = GameState(rules=rules, trump=trump, hands=tuple(hands), attacker=-1, defender=-1,
                      hidden=tuple(hidden), table=tuple(table), take=raw.take is not None,
                      pile=pile, trump_card=trump_card, pile_order=pile_order,
                      out=out, shown=shown)
    me = _seat("me", raw.me, n) if raw.me is not None else None
    if not table and state.outcome() is not None:
        return Position(_over(raw, state), me)
    state = _roles(raw, state)
    state = _bout(raw, state) if table else _between_bouts(raw, state)
    return Position(state, me)


def _hands(raw: Raw, rules: Rules, reg: _Cards) -> tuple[list[int], list[int]]:
    if raw.hands is None:
        raise PositionError("hands", _("required field missing (e.g. 'hands 6S 7S | 8C ?2')"))
    n = len(raw.hands)
    if not 2 <= n <= 6:
        raise PositionError("hands", ngettext("{n} seat(s) given; a game has 2..6 players (R3)",
                                              "{n} seat(s) given; a game has 2..6 players (R3)",
                                              n).format(n=n))
    if rules.teams and n != 4:
        raise PositionError("rules", _("teams=2v2 needs 4 seats, hands gives {n} (R22)").format(
            n=n))
    hands, hidden = [0] * n, [0] * n
    for s, toks in enumerate(raw.hands):
        for t in toks:
            if t.text.startswith("?"):
                try:
                    k = int(t.text[1:])
                except ValueError:
                    k = -1
                if k < 1:
                    raise PositionError("hands", _("seat {seat}: bad unknown-card count "
                                                   "{token}{at} (expected e.g. '?5')").format(
                        seat=s + 1, token=repr(t.text), at=t.at()))
                hidden[s] += k
            else:
                hands[s] |= bit(reg.add("hands", t, _("seat {seat}'s hand").format(seat=s + 1),
                                        _("in seat {seat}'s hand").format(seat=s + 1)))
    return hands, hidden


def _table(raw: Raw, reg: _Cards, trump: int) -> list[tuple[int, int]]:
    table = []
    for a_tok, c_tok in raw.table or []:
        a = reg.add("table", a_tok, "", _("on the table"))
        c = NO_COVER
        if c_tok is not None:
            c = reg.add("table", c_tok, "", _("on the table"))
            if not beats(c, a, trump):
                raise PositionError("table", _("{cover} does not beat {attack}{at} with trump "
                                               "{trump} (R2)").format(
                    cover=repr(c_tok.text), attack=repr(a_tok.text), at=c_tok.at(),
                    trump=SUITS[trump]))
        table.append((a, c))
    return table


def _pile(raw: Raw, reg: _Cards, trump: int,
          face_up: int) -> tuple[int, tuple[int, ...] | None, int]:
    """Pile size, known order (extension) and face-up trump card (R5)."""
    trump_tok = raw.trump
    assert trump_tok is not None  # _trump has required it
    p = raw.pile
    if isinstance(p, list):
        if not p:
            raise PositionError("pile", _("empty card list"))
        order = tuple(reg.add("pile", t, _("the pile"), _("in the pile")) for t in p)
        last = order[-1]
        if suit_of(last) != trump or (face_up >= 0 and face_up != last):
            raise PositionError("trump", _("{trump} does not match the pile's last (face-up) "
                                           "card {card}{at} (R5)").format(
                trump=repr(trump_tok.text), card=repr(p[-1].text), at=p[-1].at()))
        return len(order), order, last
    pile = 0 if p is None else _int("pile", p)
    if p is not None and pile < 0:
        raise PositionError("pile", _("negative size {size}{at}").format(size=repr(p.text),
                                                                          at=p.at()))
    if pile > 0:
        if face_up < 0:
            raise PositionError("trump", ngettext(
                "the pile has {n} card(s), so trump must name the face-up card (e.g. "
                "'trump 9{suit}'), got {token}{at} (R5)",
                "the pile has {n} card(s), so trump must name the face-up card (e.g. "
                "'trump 9{suit}'), got {token}{at} (R5)", pile).format(
                n=pile, suit=SUITS[trump], token=repr(trump_tok.text), at=trump_tok.at()))
        reg.add("trump", trump_tok, _("the pile (face-up trump)"),
                _("in the pile (face-up trump)"))
        return pile, None, face_up
    if face_up >= 0:
        raise PositionError("trump", _("face-up card {card}{at} but the pile is empty; write "
                                       "the suit alone, 'trump {suit}'").format(
            card=repr(trump_tok.text), at=trump_tok.at(), suit=SUITS[trump]))
    return 0, None, -1


def _out(raw: Raw, rules: Rules, reg: _Cards, hidden: list[int], pile: int,
         pile_order: tuple[int, ...] | None, given: int) -> int:
    """The discard pile: given, or every card not elsewhere where that is determined."""
    deck = deck_mask(rules.deck)
    size = count(deck)
    pile_hidden = pile - 1 if pile > 0 and pile_order is None else 0
    slots = sum(hidden) + pile_hidden
    named = count(reg.mask)
    what = _("{named} cards named + {hands} unknown in hands + {pile} unknown in the pile = "
             "{total}").format(named=named, hands=sum(hidden), pile=pile_hidden,
                               total=named + slots)
    if named + slots > size:
        field = "out" if raw.out is not None else ("pile" if pile_hidden else "hands")
        raise PositionError(field, _("more cards than the deck: {what}, the deck has "
                                     "{size}").format(what=what, size=size))
    unseen = deck & ~reg.mask
    if raw.out is not None:
        if count(unseen) != slots:
            raise PositionError("out", _("counts do not add up: {what}, the deck has "
                                         "{size}").format(what=what, size=size))
        return given
    if slots == 0:
        return unseen
    if count(unseen) == slots:
        return 0
    left = count(unseen) - slots
    raise PositionError("out", ngettext(
        "{n} card(s) are not placed: {what} of {size}; list the discard pile with 'out'",
        "{n} card(s) are not placed: {what} of {size}; list the discard pile with 'out'",
        left).format(n=left, what=what, size=size))



def _over(raw: Raw, state: GameState) -> GameState:
    """A position after the game has ended (R20-R22): roles do not matter any more.

    As the engine leaves such a state, ``attacker`` is the seat that would lead
    (-1 when it has gone out or is not given) and ``defender`` is -1.
    """
    a = -1
    if raw.attacker is not None:
        a = _seat("attacker", raw.attacker, state.players)
        if state.hand_size(a) == 0:
            a = -1
    for f in ("take", "turn", "shown"):
        if getattr(raw, f):
            raise PositionError(f, _("the game is over; nothing is on the table"))
    return state.replace(attacker=a, defender=-1, cap=default_cap(state))


def _roles(raw: Raw, state: GameState) -> GameState:
    """Main attacker and defender (R4, R22, F7)."""
    n = state.players
    if raw.attacker is None:
        raise PositionError("attacker", _("required field missing (e.g. 'attacker 1')"))
    a = _seat("attacker", raw.attacker, n)
    a_tok = _("seat {seat}{at}").format(seat=repr(raw.attacker.text), at=raw.attacker.at())
    if not state.table and state.hand_size(a) == 0:
        raise PositionError("attacker", _("{seat} has no cards to lead (gone out, F7)").format(
            seat=a_tok))
    d = state.defender_for(a)
    if raw.defender is not None:
        given = _seat("defender", raw.defender, n)
        d_tok = _("seat {seat}{at}").format(seat=repr(raw.defender.text), at=raw.defender.at())
        if given == a:
            raise PositionError("defender", _("{seat} is also the attacker").format(seat=d_tok))
        if not state.active(given):
            raise PositionError("defender", _("{seat} has gone out (F7)").format(seat=d_tok))
        if given != d:
            why = (_("{seat} cannot defend: the defender is the next active seat of the other "
                     "team after the attacker, seat {defender} (R4, R22)") if state.rules.teams
                   else _("{seat} cannot defend: the defender is the next active seat after "
                          "the attacker, seat {defender} (R4, R22)"))
            raise PositionError("defender", why.format(seat=d_tok, defender=d + 1))
    if d < 0:
        raise PositionError("attacker", _("{seat} has nobody to attack: every opponent has "
                                          "gone out").format(seat=a_tok))
    return state.replace(attacker=a, defender=d)


def _between_bouts(raw: Raw, state: GameState) -> GameState:
    """P1: no table; ``limit`` may lower the coming bout's cap (F6)."""
    if raw.take is not None:
        raise PositionError("take", _("nothing is open on the table (F1)"))
    if raw.turn is not None:
        raise PositionError("turn", _("{token}{at}: only when throwers are asked (P3, P4); the "
                                      "table is empty").format(token=repr(raw.turn.text),
                                                               at=raw.turn.at()))
    if raw.shown is not None and state.shown:
        raise PositionError("shown", _("only during a bout (R14); the table is empty"))
    cap = default_cap(state)
    if raw.limit is not None:
        lim = _int("limit", raw.limit)
        if not 1 <= lim <= cap:
            raise PositionError("limit", _("{token}{at} must be 1..{cap}: a limit may lower the "
                                           "R10 cap, never raise it (F6)").format(
                token=repr(raw.limit.text), at=raw.limit.at(), cap=cap))
        cap = lim
    return state.replace(cap=cap, limit=0)


def _bout(raw: Raw, state: GameState) -> GameState:
    """A bout in progress: R9, R10, P2-P4, F1; then settle P3/P4 as the engine does."""
    table = state.table
    toks = raw.table or []
    d = state.defender
    # R9: each later attack card matches a rank already on the table.
    ranks = set()
    for i, (a, c) in enumerate(table):
        if i and rank_of(a) not in ranks:
            raise PositionError("table", _("attack card {card}{at}: no card of its rank is on "
                                           "the table before it (R9)").format(
                card=repr(toks[i][0].text), at=toks[i][0].at()))
        ranks.add(rank_of(a))
        if c != NO_COVER:
            ranks.add(rank_of(c))
    # P3: a throw-in comes only when every card is covered (or after take, P4).
    lead = 1
    while lead < len(table) and rank_of(table[lead][0]) == rank_of(table[0][0]):
        lead += 1
    if not state.take:
        for j in range(lead, len(table)):
            open_before = [i for i in range(j) if table[i][1] == NO_COVER]
            if open_before:
                i = open_before[0]
                raise PositionError("table", _("{card}{at} was thrown in while {open} was "
                                               "uncovered (P3)").format(
                    card=repr(toks[j][0].text), at=toks[j][0].at(), open=repr(toks[i][0].text)))
    n_open = len(state.open_attacks)
    if n_open > state.hand_size(d):
        raise PositionError("table", ngettext(
            "{n} open attack cards but the defender, seat {seat}, holds only {held} (P2, R10)",
            "{n} open attack cards but the defender, seat {seat}, holds only {held} (P2, R10)",
            n_open).format(n=n_open, seat=d + 1, held=state.hand_size(d)))
    default = default_limit(state)
    cap = default_cap(state)
    limit = default
    if raw.limit is not None:
        lim = _int("limit", raw.limit)
        where = f"{raw.limit.text!r}{raw.limit.at()}"
        if lim > HAND_SIZE:
            raise PositionError("limit", _("{token} is above 6 (R10)").format(token=where))
        if lim > default:
            raise PositionError("limit", _("{token} is above the default {default} (defender's "
                                           "hand + covers, capped): a limit may lower it, never "
                                           "raise it (F6)").format(token=where, default=default))
        if lim < len(table):
            raise PositionError("limit", ngettext(
                "{token} is below the {n} attack cards on the table (R10)",
                "{token} is below the {n} attack cards on the table (R10)",
                len(table)).format(token=where, n=len(table)))
        if lim < default:
            cap = lim  # a lowered limit is a lowered cap: the engine's limit is min(cap, hand)
        limit = lim
    elif len(table) > default:
        raise PositionError("table", ngettext(
            "{n} attack cards, more than the R10 limit {limit} (min(cap {cap}, defender's hand "
            "+ covers))",
            "{n} attack cards, more than the R10 limit {limit} (min(cap {cap}, defender's hand "
            "+ covers))", len(table)).format(n=len(table), limit=default, cap=cap))
    if state.take and not n_open:
        raise PositionError("take", _("nothing is open on the table: the defender takes only "
                                      "while an attack card is uncovered (F1)"))
    _check_shown(raw, state)
    state = state.replace(limit=limit, cap=cap)
    throwers = state.phase in (Phase.THROW, Phase.TAKEN)
    if raw.turn is not None and not throwers:
        raise PositionError("turn", _("{token}{at}: the defender is to move (P2); turn is given "
                                      "only when throwers are asked (P3, P4)").format(
            token=repr(raw.turn.text), at=raw.turn.at()))
    if not throwers:
        return state
    order = state.throw_order()
    start = state.attacker
    if raw.turn is not None:
        start = _seat("turn", raw.turn, state.players)
        if start not in order:
            seats = ", ".join(str(s + 1) for s in order)
            raise PositionError("turn", _("seat {seat}{at} is not a thrower in this bout (R12: "
                                          "{seats})").format(seat=repr(raw.turn.text),
                                                             at=raw.turn.at(), seats=seats))
    return settle(state.replace(turn=-1), candidates=order[order.index(start):])


def _check_shown(raw: Raw, state: GameState) -> None:
    if not state.shown:
        return
    tok = raw.shown[0] if raw.shown else Tok("")
    if not state.rules.transfer_by_trump_show:
        raise PositionError("shown", _("{token}{at}: shows need the rule "
                                       "transfer_by_trump_show (R14)").format(
            token=repr(tok.text), at=tok.at()))
    rank = rank_of(state.table[0][0])
    for t in raw.shown or []:
        c = parse_card(t.text, state.rules.deck)
        if suit_of(c) != state.trump or rank_of(c) != rank:
            raise PositionError("shown", _("{token}{at} is not a trump of the attack rank "
                                           "{rank} (R14)").format(
                token=repr(t.text), at=t.at(), rank=card_name(state.table[0][0])[0]))


# ------------------------------------------------------------------ entry point

def parse_position(source: Any) -> Position:
    """A :class:`Position` from a position string, JSON text, a JSON dict,
    a :class:`GameState` or a :class:`Position`.

    Raises :class:`PositionError` (a ``ValueError``) naming the field and token.
    """
    if isinstance(source, Position):
        return source
    if isinstance(source, GameState):
        return Position(source)
    if isinstance(source, Mapping):
        return build_position(raw_from_json(source))
    if isinstance(source, (bytes, bytearray)):
        source = source.decode("utf-8", errors="replace")
    if not isinstance(source, str):
        raise PositionError("position", _("cannot read a position from {type}").format(
            type=type(source).__name__))
    if len(source) > MAX_POSITION_CHARS:
        raise PositionError("position", _("{n} characters is more than the {most} a position "
                                          "may have").format(n=f"{len(source):,}",
                                                             most=f"{MAX_POSITION_CHARS:,}"))
    text = source.lstrip("\ufeff")
    if text.lstrip().startswith("{"):
        try:
            obj = loads(text)
        except json.JSONDecodeError as e:
            raise PositionError("JSON", _("{error} at line {line} column {column}").format(
                error=e.msg, line=e.lineno, column=e.colno)) from None
        except NumberTooLong as e:  # named by its field, as a wrong value would be
            raise PositionError(e.field, e.problem) from None
        except RecursionError:
            raise PositionError("JSON", _("nested too deeply for a position")) from None
        if not isinstance(obj, dict):
            raise PositionError("JSON", _("expected an object"))
        return build_position(raw_from_json(obj))
    return build_position(raw_from_text(text))
