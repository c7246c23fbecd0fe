"""Position notation: parse and format positions (NOTATION.md, "Position string").

Three equivalent forms of one position:

* the **string** ``trump H; hands 6S 7S KH | 8C 9C AH; table 6S/8S 8C; attacker 1``
  (fields separated by ``;`` or newlines, ``#`` starts a comment, keys any case,
  ``key value`` or ``key: value``);
* the **JSON** object of NOTATION.md (a ``str`` starting with ``{`` or a ``dict``);
* a :class:`Position`: a :class:`~solver.state.GameState` plus the ``me`` seat.

:func:`parse_position` reads any of them; :func:`format_position` writes the
canonical one-line string and :func:`position_to_json` the canonical JSON
object.  Canonical means: fields in the order of NOTATION.md's table, cards in
suit-then-rank order within a hand, every field equal to its default left
out.  ``parse(format(state)) == state`` for every state the engine reaches
(tested with hypothesis in ``tests/test_notation.py``).

Parsing happens in two steps kept in two modules: this one turns text or JSON
into a :class:`Raw` record of located tokens (syntax: which field, which
token, where); :mod:`solver.validate` turns that record into a state and
checks it can occur (semantics: R2, R9, R10, F1, F7, counts of the deck).
Every problem is a :class:`~solver.errors.PositionError` naming the field and
quoting the token, with its column (text) or JSON path.

Extensions to NOTATION.md (documented in ``docs/notation-extensions.md``):

* ``pile`` may list the draw pile's cards, top first, the last being the
  face-up trump: ``pile 7S KD 9H`` (JSON ``"pile": ["7S", "KD", "9H"]``).  This
  sets ``GameState.pile_order``; ``trump`` may then name the suit or the same
  face-up card.
* ``shown`` lists the trumps shown for a transfer in this bout under
  ``transfer_by_trump_show`` (R14: each trump may be shown once per bout).
* Seat numbers are 1-based in text and JSON, 0-based in ``GameState``.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from .cards import SUITS, card_name, cards_of, count, deck_mask, format_cards
from .errors import PositionError
from .state import NO_COVER, GameState, Phase

#: Field names in canonical order (NOTATION.md's table, then the extension ``shown``).
FIELDS = ("trump", "hands", "table", "attacker", "defender", "take", "turn", "pile",
          "out", "limit", "shown", "me", "rules")


@dataclass(frozen=True)
class Position:
    """A parsed position: the game state and the seat whose view a hint takes.

    ``me`` is a 0-based seat or ``None`` (the default: the seat to move).
    """

    state: GameState
    me: int | None = None

    def __str__(self) -> str:
        return format_position(self.state, self.me)

    def to_json(self) -> dict[str, Any]:
        return position_to_json(self.state, self.me)

    @property
    def view_seat(self) -> int:
        """The seat a hint is for: ``me``, else the seat to move."""
        return self.me if self.me is not None else self.state.to_move


# ------------------------------------------------------------------ raw record

@dataclass(frozen=True)
class Tok:
    """One token of the input and where it stands (column or JSON path)."""

    text: str
    where: str = ""

    def at(self) -> str:
        return f" at {self.where}" if self.where else ""


@dataclass
class Raw:
    """A position as given, before any meaning is checked (see :mod:`solver.validate`).

    ``hands`` holds one token list per seat (``[]`` = empty hand); a token is a
    card or ``?N``.  ``table`` holds (attack, cover-or-None) token pairs.
    ``pile`` is a number token or a list of card tokens.  ``take`` is the token
    of the ``take`` field when present.
    """

    trump: Tok | None = None
    hands: list[list[Tok]] | None = None
    hands_where: list[str] = field(default_factory=list)
    table: list[tuple[Tok, Tok | None]] | None = None
    attacker: Tok | None = None
    defender: Tok | None = None
    take: Tok | None = None
    turn: Tok | None = None
    pile: Tok | list[Tok] | None = None
    out: list[Tok] | None = None
    limit: Tok | None = None
    shown: list[Tok] | None = None
    me: Tok | None = None
    rules: Tok | None = None


# ------------------------------------------------------------------ entry point

def parse_position(source: Any) -> Position:
    """A :class:`Position` from a position string, JSON text, a JSON dict,
    a :class:`GameState` or a :class:`Position`.

    Raises :class:`PositionError` (a ``ValueError``) naming the field and token.
    """
    from .validate import build_position

    if isinstance(source, Position):
        return source
    if isinstance(source, GameState):
        return Position(source)
    if isinstance(source, Mapping):
        return build_position(raw_from_json(source))
    if isinstance(source, (bytes, bytearray)):
        source = source.decode("utf-8", errors="replace")
    if not isinstance(source, str):
        raise PositionError("position", f"cannot read a position from {type(source).__name__}")
    text = source.lstrip("\ufeff")
    if text.lstrip().startswith("{"):
        try:
            obj = json.loads(text)
        except json.JSONDecodeError as e:
            raise PositionError("JSON", f"{e.msg} at line {e.lineno} column {e.colno}") from None
        if not isinstance(obj, dict):
            raise PositionError("JSON", "expected an object")
        return build_position(raw_from_json(obj))
    return build_position(raw_from_text(text))


# ------------------------------------------------------------------ text form

_KEY_RE = re.compile(r"\s*([A-Za-z_]+)\s*:?\s*")
_TOKEN_RE = re.compile(r"[^\s|]+|\|")


class _Locator:
    """Turns offsets into ``column C`` (one line) or ``line L column C``."""

    def __init__(self, text: str):
        self.starts = [0] + [m.end() for m in re.finditer("\n", text)]
        self.multi = "\n" in text.strip()

    def __call__(self, offset: int) -> str:
        line = 0
        for i, s in enumerate(self.starts):
            if s <= offset:
                line = i
        col = offset - self.starts[line] + 1
        return f"line {line + 1} column {col}" if self.multi else f"column {col}"


def _segments(text: str) -> list[tuple[str, int]]:
    """Field texts with their offsets: split at newlines and ';', comments removed."""
    out = []
    offset = 0
    for line in text.split("\n"):
        body = line.split("#", 1)[0]
        pos = 0
        for part in body.split(";"):
            if part.strip():
                out.append((part, offset + pos))
            pos += len(part) + 1
        offset += len(line) + 1
    return out


def raw_from_text(text: str) -> Raw:
    """Syntax of the string form: fields, tokens, their positions."""
    loc = _Locator(text)
    raw = Raw()
    seen: dict[str, str] = {}
    for part, start in _segments(text):
        m = _KEY_RE.match(part)
        if not m or (m.end() < len(part) and not part[m.end() - 1].isspace()
                     and part[m.end() - 1] != ":"):
            tok = part.strip().split()[0]
            raise PositionError("position", f"expected 'key value', got {tok!r} at "
                                f"{loc(start + len(part) - len(part.lstrip()))}")
        key = m.group(1).lower()
        key_at = loc(start + m.start(1))
        if key not in FIELDS:
            raise PositionError(key, f"unknown field {m.group(1)!r} at {key_at} "
                                f"(known: {', '.join(FIELDS)})")
        if key in seen:
            raise PositionError(key, f"duplicate field {m.group(1)!r} at {key_at} "
                                f"(first given at {seen[key]})")
        seen[key] = key_at
        value_start = start + m.end()
        toks = [Tok(t.group(0), loc(value_start + t.start()))
                for t in _TOKEN_RE.finditer(part[m.end():])]
        _store_text_field(raw, key, toks, part[m.end():].strip(), key_at, loc, value_start,
                          part[m.end():])
    return raw


def _one(key: str, toks: list[Tok], key_at: str) -> Tok:
    if not toks:
        raise PositionError(key, f"empty value at {key_at}")
    if len(toks) > 1:
        raise PositionError(key, f"expected one value, got {' '.join(t.text for t in toks)!r}"
                            f"{toks[1].at()}")
    return toks[0]


def _store_text_field(raw: Raw, key: str, toks: list[Tok], value: str, key_at: str,
                      loc: _Locator, value_start: int, value_text: str) -> None:
    bars = [t for t in toks if t.text == "|"]
    if bars and key != "hands":
        raise PositionError(key, f"unexpected '|'{bars[0].at()}")
    if key == "take":
        if toks:
            raise PositionError("take", f"'take' has no value, got {value!r}{toks[0].at()}")
        raw.take = Tok("take", key_at)
    elif key == "hands":
        if not toks:
            raise PositionError("hands", f"empty value at {key_at}")
        hands: list[list[Tok]] = [[]]
        wheres = [toks[0].where]
        for t in toks:
            if t.text == "|":
                hands.append([])
                wheres.append(t.where)
            else:
                hands[-1].append(t)
        for i, h in enumerate(hands):
            if not h:
                raise PositionError("hands", f"seat {i + 1} has no cards written near "
                                    f"{wheres[i]}; write '-' for an empty hand")
            if any(t.text == "-" for t in h):
                if len(h) > 1:
                    raise PositionError("hands", f"seat {i + 1}: '-' (empty hand) cannot "
                                        f"stand with cards{h[0].at()}")
                hands[i] = []
        raw.hands = hands
        raw.hands_where = wheres
    elif key == "table":
        pairs: list[tuple[Tok, Tok | None]] = []
        for t in toks:
            if "/" in t.text:
                a, c = t.text.split("/", 1)
                if not a or not c or "/" in c:
                    raise PositionError("table", f"bad pair {t.text!r}{t.at()} "
                                        "(expected attack/cover, e.g. '6S/8S')")
                pairs.append((Tok(a, t.where), Tok(c, t.where)))
            else:
                pairs.append((t, None))
        raw.table = pairs
    elif key in ("out", "shown"):
        cards = [] if len(toks) == 1 and toks[0].text == "-" else toks
        setattr(raw, key, cards)
    elif key == "pile":
        if not toks:
            raise PositionError("pile", f"empty value at {key_at}")
        if toks[0].text.lstrip("+-").isdigit():
            raw.pile = _one("pile", toks, key_at)
        else:
            raw.pile = toks
    elif key == "rules":
        if not toks:
            raise PositionError("rules", f"empty value at {key_at}")
        raw.rules = Tok(value, toks[0].where)
    else:  # trump, attacker, defender, turn, limit, me
        setattr(raw, key, _one(key, toks, key_at))


# ------------------------------------------------------------------ JSON form

def _json_type(value: Any) -> str:
    return {dict: "object", list: "list", str: "string", bool: "boolean", int: "number",
            float: "number", type(None): "null"}.get(type(value), type(value).__name__)


def _jstr(key: str, value: Any, path: str) -> Tok:
    if not isinstance(value, str):
        raise PositionError(key, f"expected a string at {path}, got {_json_type(value)} "
                            f"{json.dumps(value)}")
    return Tok(value, path)


def _jint(key: str, value: Any, path: str) -> Tok:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(key, f"expected a whole number at {path}, got {_json_type(value)} "
                            f"{json.dumps(value)}")
    return Tok(str(value), path)


def _jcards(key: str, value: Any, path: str) -> list[Tok]:
    if isinstance(value, str):
        return [Tok(t, path) for t in value.split()] if value.strip() not in ("", "-") else []
    if not isinstance(value, list):
        raise PositionError(key, f"expected a list of cards at {path}, got {_json_type(value)}")
    return [_jstr(key, v, f"{path}[{i}]") for i, v in enumerate(value)]


def raw_from_json(obj: Mapping[str, Any]) -> Raw:
    """Syntax of the JSON form: keys and types; locations are JSON paths."""
    raw = Raw()
    for k, v in obj.items():
        key = str(k).lower()
        if key not in FIELDS:
            raise PositionError(str(k), f"unknown field {k!r} (known: {', '.join(FIELDS)})")
        if v is None and key not in ("trump", "hands", "attacker"):
            continue
        path = key
        if key == "hands":
            if not isinstance(v, list):
                raise PositionError("hands", f"expected a list of hands, got {_json_type(v)}")
            hands = []
            for i, h in enumerate(v):
                hp = f"hands[{i}]"
                if isinstance(h, dict):
                    extra = set(h) - {"known", "unknown"}
                    if extra:
                        raise PositionError("hands", f"unknown key {sorted(extra)[0]!r} at {hp} "
                                            "(expected 'known' and 'unknown')")
                    toks = _jcards("hands", h.get("known", []), f"{hp}.known")
                    n = h.get("unknown", 0)
                    _jint("hands", n, f"{hp}.unknown")
                    if n:
                        toks.append(Tok(f"?{n}", f"{hp}.unknown"))
                else:
                    toks = _jcards("hands", h, hp)
                hands.append(toks)
            raw.hands = hands
            raw.hands_where = [f"hands[{i}]" for i in range(len(hands))]
        elif key == "table":
            if not isinstance(v, list):
                raise PositionError("table", f"expected a list of pairs, got {_json_type(v)}")
            pairs: list[tuple[Tok, Tok | None]] = []
            for i, p in enumerate(v):
                pp = f"table[{i}]"
                if isinstance(p, str):
                    a, _, c = p.partition("/")
                    pairs.append((Tok(a, pp), Tok(c, pp) if c else None))
                    continue
                if not isinstance(p, list) or not 1 <= len(p) <= 2:
                    raise PositionError("table", f"expected [attack, cover or null] at {pp}, "
                                        f"got {json.dumps(p)}")
                a_tok = _jstr("table", p[0], f"{pp}[0]")
                c = p[1] if len(p) == 2 else None
                pairs.append((a_tok, None if c is None else _jstr("table", c, f"{pp}[1]")))
            raw.table = pairs
        elif key == "take":
            if not isinstance(v, bool):
                raise PositionError("take", f"expected true or false, got {_json_type(v)}")
            raw.take = Tok("take", "take") if v else None
        elif key == "pile":
            raw.pile = _jint("pile", v, path) if not isinstance(v, (list, str)) \
                else _jcards("pile", v, path)
        elif key in ("out", "shown"):
            setattr(raw, key, _jcards(key, v, path))
        elif key == "rules":
            if isinstance(v, list):
                items = [_jstr("rules", x, f"rules[{i}]").text for i, x in enumerate(v)]
                raw.rules = Tok(",".join(items), path)
            else:
                raw.rules = _jstr("rules", v, path)
        elif key == "trump":
            raw.trump = None if v is None else _jstr("trump", v, path)
        elif v is not None:  # attacker, defender, turn, limit, me
            setattr(raw, key, _jint(key, v, path))
    return raw


# ------------------------------------------------------------------ formatting

def _hand_text(state: GameState, seat: int) -> str:
    parts = []
    if state.hands[seat]:
        parts.append(format_cards(state.hands[seat]))
    if state.hidden[seat]:
        parts.append(f"?{state.hidden[seat]}")
    return " ".join(parts) or "-"


def _pair_text(a: int, c: int) -> str:
    return card_name(a) if c == NO_COVER else f"{card_name(a)}/{card_name(c)}"


def _field_values(state: GameState, me: int | None) -> dict[str, Any]:
    """The non-default fields of a state, as Python values (cards as names)."""
    from .validate import default_cap, default_limit, default_turn, hidden_slots

    f: dict[str, Any] = {}
    f["trump"] = card_name(state.trump_card) if state.pile > 0 and state.trump_card >= 0 \
        else SUITS[state.trump]
    f["hands"] = [(state.hands[s], state.hidden[s]) for s in range(state.players)]
    if state.table:
        f["table"] = list(state.table)
    if state.attacker >= 0:
        f["attacker"] = state.attacker + 1
    if state.take:
        f["take"] = True
    if state.table and state.phase in (Phase.THROW, Phase.TAKEN) and state.turn >= 0:
        if state.turn != default_turn(state):
            f["turn"] = state.turn + 1
    if state.pile > 0:
        f["pile"] = list(state.pile_order) if state.pile_order is not None else state.pile
    if hidden_slots(state) > 0:
        unseen = deck_mask(state.rules.deck) & ~state.all_cards()
        if state.out or count(unseen) != hidden_slots(state):
            f["out"] = state.out
    if state.table:
        if state.limit != default_limit(state):
            f["limit"] = state.limit
    elif state.cap != default_cap(state) and not state.is_over:
        f["limit"] = state.cap
    if state.shown:
        f["shown"] = state.shown
    if me is not None:
        f["me"] = me + 1
    if state.rules.names():
        f["rules"] = state.rules.names()
    return f


def format_position(state: GameState, me: int | None = None) -> str:
    """The canonical one-line position string of ``state`` (defaults left out)."""
    f = _field_values(state, me)
    parts = [f"trump {f['trump']}",
             "hands " + " | ".join(_hand_text(state, s) for s in range(state.players))]
    if "table" in f:
        parts.append("table " + " ".join(_pair_text(a, c) for a, c in f["table"]))
    if "attacker" in f:
        parts.append(f"attacker {f['attacker']}")
    if "take" in f:
        parts.append("take")
    if "turn" in f:
        parts.append(f"turn {f['turn']}")
    if "pile" in f:
        p = f["pile"]
        parts.append("pile " + (" ".join(card_name(c) for c in p) if isinstance(p, list)
                                else str(p)))
    if "out" in f:
        parts.append("out " + (format_cards(f["out"]) or "-"))
    if "limit" in f:
        parts.append(f"limit {f['limit']}")
    if "shown" in f:
        parts.append("shown " + format_cards(f["shown"]))
    if "me" in f:
        parts.append(f"me {f['me']}")
    if "rules" in f:
        parts.append("rules " + ",".join(f["rules"]))
    return "; ".join(parts)


def position_to_json(state: GameState, me: int | None = None) -> dict[str, Any]:
    """The canonical JSON object of ``state`` (NOTATION.md, "JSON position")."""
    f = _field_values(state, me)
    out: dict[str, Any] = {"trump": f["trump"]}
    hands: list[Any] = []
    for known, hidden in f["hands"]:
        names = [card_name(c) for c in cards_of(known)]
        hands.append({"known": names, "unknown": hidden} if hidden else names)
    out["hands"] = hands
    if "table" in f:
        out["table"] = [[card_name(a), None if c == NO_COVER else card_name(c)]
                        for a, c in f["table"]]
    for key in ("attacker", "take", "turn", "limit", "me"):
        if key in f:
            out[key] = f[key]
    if "pile" in f:
        p = f["pile"]
        out["pile"] = [card_name(c) for c in p] if isinstance(p, list) else p
    if "out" in f:
        out["out"] = [card_name(c) for c in cards_of(f["out"])]
    if "shown" in f:
        out["shown"] = [card_name(c) for c in cards_of(f["shown"])]
    if "rules" in f:
        out["rules"] = f["rules"]
    return {k: out[k] for k in FIELDS if k in out}
