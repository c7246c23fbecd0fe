"""The syntax of a position: text or JSON to a record of located tokens.

The **string** form ``trump H; hands 6S 7S KH | 8C 9C AH; table 6S/8S 8C;
attacker 1`` (fields separated by ``;`` or newlines, ``#`` starts a comment,
keys any case, ``key value`` or ``key: value``) and the **JSON** object of
docs/notation.md both become a :class:`Raw` record: which field, which token,
and where it stands (column or JSON path).  Nothing here knows what a card
means in the game; :mod:`solver.notation.build` does.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field
from typing import Any, Mapping

from solver.errors import PositionError
from solver.i18n import _

#: Field names in canonical order (NOTATION.md's table, then the extension ``shown``).
FIELDS = ("trump", "hands", "table", "attacker", "defender", "take", "turn", "pile",
          "out", "limit", "shown", "me", "rules")

# ------------------------------------------------------------------ raw record

@dataclass(frozen=True)
class Tok:
    """One token of the input and where it stands (column or JSON path)."""

    text: str
    where: str = ""

    def at(self) -> str:
        return _(" at {where}").format(where=self.where) if self.where else ""


@dataclass
class Raw:
    """A position as given, before any meaning is checked (see :mod:`solver.notation.build`).

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
        return (_("line {line} column {column}").format(line=line + 1, column=col) if self.multi
                else _("column {column}").format(column=col))


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
            where = loc(start + len(part) - len(part.lstrip()))
            raise PositionError("position", _("expected 'key value', got {token} at "
                                              "{where}").format(token=repr(tok), where=where))
        key = m.group(1).lower()
        key_at = loc(start + m.start(1))
        if key not in FIELDS:
            raise PositionError(key, _("unknown field {name} at {where} (known: {fields})").format(
                name=repr(m.group(1)), where=key_at, fields=", ".join(FIELDS)))
        if key in seen:
            raise PositionError(key, _("duplicate field {name} at {where} (first given at "
                                       "{first})").format(name=repr(m.group(1)), where=key_at,
                                                          first=seen[key]))
        seen[key] = key_at
        value_start = start + m.end()
        toks = [Tok(t.group(0), loc(value_start + t.start()))
                for t in _TOKEN_RE.finditer(part[m.end():])]
        _store_text_field(raw, key, toks, part[m.end():].strip(), key_at, loc, value_start,
                          part[m.end():])
    return raw


def _one(key: str, toks: list[Tok], key_at: str) -> Tok:
    if not toks:
        raise PositionError(key, _("empty value at {where}").format(where=key_at))
    if len(toks) > 1:
        raise PositionError(key, _("expected one value, got {value}{at}").format(
            value=repr(" ".join(t.text for t in toks)), at=toks[1].at()))
    return toks[0]


def _store_text_field(raw: Raw, key: str, toks: list[Tok], value: str, key_at: str,
                      loc: _Locator, value_start: int, value_text: str) -> None:
    bars = [t for t in toks if t.text == "|"]
    if bars and key != "hands":
        raise PositionError(key, _("unexpected '|'{at}").format(at=bars[0].at()))
    if key == "take":
        if toks:
            raise PositionError("take", _("'take' has no value, got {value}{at}").format(
                value=repr(value), at=toks[0].at()))
        raw.take = Tok("take", key_at)
    elif key == "hands":
        if not toks:
            raise PositionError("hands", _("empty value at {where}").format(where=key_at))
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
                raise PositionError("hands", _("seat {seat} has no cards written near {where}; "
                                               "write '-' for an empty hand").format(
                    seat=i + 1, where=wheres[i]))
            if any(t.text == "-" for t in h):
                if len(h) > 1:
                    raise PositionError("hands", _("seat {seat}: '-' (empty hand) cannot stand "
                                                   "with cards{at}").format(seat=i + 1,
                                                                            at=h[0].at()))
                hands[i] = []
        raw.hands = hands
        raw.hands_where = wheres
    elif key == "table":
        pairs: list[tuple[Tok, Tok | None]] = []
        for t in toks:
            if "/" in t.text:
                a, c = t.text.split("/", 1)
                if not a or not c or "/" in c:
                    raise PositionError("table", _("bad pair {pair}{at} (expected attack/cover, "
                                                   "e.g. '6S/8S')").format(pair=repr(t.text),
                                                                           at=t.at()))
                pairs.append((Tok(a, t.where), Tok(c, t.where)))
            else:
                pairs.append((t, None))
        raw.table = pairs
    elif key in ("out", "shown"):
        cards = [] if len(toks) == 1 and toks[0].text == "-" else toks
        setattr(raw, key, cards)
    elif key == "pile":
        if not toks:
            raise PositionError("pile", _("empty value at {where}").format(where=key_at))
        if toks[0].text.lstrip("+-").isdigit():
            raw.pile = _one("pile", toks, key_at)
        else:
            raw.pile = toks
    elif key == "rules":
        if not toks:
            raise PositionError("rules", _("empty value at {where}").format(where=key_at))
        raw.rules = Tok(value, toks[0].where)
    else:  # trump, attacker, defender, turn, limit, me
        setattr(raw, key, _one(key, toks, key_at))


# ------------------------------------------------------------------ JSON form

def _json_type(value: Any) -> str:
    return {dict: "object", list: "list", str: "string", bool: "boolean", int: "number",
            float: "number", type(None): "null"}.get(type(value), type(value).__name__)


def _jstr(key: str, value: Any, path: str) -> Tok:
    if not isinstance(value, str):
        raise PositionError(key, _("expected a string at {path}, got {type} {value}").format(
            path=path, type=_json_type(value), value=json.dumps(value)))
    return Tok(value, path)


def _jint(key: str, value: Any, path: str) -> Tok:
    if isinstance(value, bool) or not isinstance(value, int):
        raise PositionError(key, _("expected a whole number at {path}, got {type} {value}").format(
            path=path, type=_json_type(value), value=json.dumps(value)))
    return Tok(str(value), path)


def _jcards(key: str, value: Any, path: str) -> list[Tok]:
    if isinstance(value, str):
        return [Tok(t, path) for t in value.split()] if value.strip() not in ("", "-") else []
    if not isinstance(value, list):
        raise PositionError(key, _("expected a list of cards at {path}, got {type}").format(
            path=path, type=_json_type(value)))
    return [_jstr(key, v, f"{path}[{i}]") for i, v in enumerate(value)]


def raw_from_json(obj: Mapping[str, Any]) -> Raw:
    """Syntax of the JSON form: keys and types; locations are JSON paths."""
    raw = Raw()
    for k, v in obj.items():
        key = str(k).lower()
        if key not in FIELDS:
            raise PositionError(str(k), _("unknown field {name} (known: {fields})").format(
                name=repr(k), fields=", ".join(FIELDS)))
        if v is None and key not in ("trump", "hands", "attacker"):
            continue
        path = key
        if key == "hands":
            if not isinstance(v, list):
                raise PositionError("hands", _("expected a list of hands, got {type}").format(
                    type=_json_type(v)))
            hands = []
            for i, h in enumerate(v):
                hp = f"hands[{i}]"
                if isinstance(h, dict):
                    extra = set(h) - {"known", "unknown"}
                    if extra:
                        raise PositionError("hands", _("unknown key {key} at {path} (expected "
                                                       "'known' and 'unknown')").format(
                            key=repr(sorted(extra)[0]), path=hp))
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
                raise PositionError("table", _("expected a list of pairs, got {type}").format(
                    type=_json_type(v)))
            pairs: list[tuple[Tok, Tok | None]] = []
            for i, p in enumerate(v):
                pp = f"table[{i}]"
                if isinstance(p, str):
                    a, _slash, c = p.partition("/")
                    pairs.append((Tok(a, pp), Tok(c, pp) if c else None))
                    continue
                if not isinstance(p, list) or not 1 <= len(p) <= 2:
                    raise PositionError("table", _("expected [attack, cover or null] at {path}, "
                                                   "got {value}").format(path=pp,
                                                                         value=json.dumps(p)))
                a_tok = _jstr("table", p[0], f"{pp}[0]")
                cover = p[1] if len(p) == 2 else None
                pairs.append((a_tok, None if cover is None else _jstr("table", cover, f"{pp}[1]")))
            raw.table = pairs
        elif key == "take":
            if not isinstance(v, bool):
                raise PositionError("take", _("expected true or false, got {type}").format(
                    type=_json_type(v)))
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

