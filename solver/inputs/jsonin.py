"""Reading JSON a user gave: the standard library's parser, with a number too long to
read reported by where it stands.

Python refuses to turn a decimal number of more than 4,300 digits into an
integer (``sys.get_int_max_str_digits``: converting one takes time that grows
with the square of its length), and ``json.loads`` lets that ``ValueError``
out as it is -- no field, no line, and not a ``JSONDecodeError``, so a caller
that catches only those turned it into an internal error (exit 1, HTTP 500, a
whole batch stopped).  :func:`loads` is ``json.loads`` that raises
:class:`NumberTooLong` instead, naming the JSON path of the number
(``hands[1].unknown``, ``attacker``); each reader makes it its own bad-input
error (exit 2, HTTP 400, the batch item's error line).  Every JSON input goes
through here: positions, game records, batch lines, request bodies, match
answers, models, the learning data.

The text forms have their numbers checked where they are read
(:func:`check_digits`).
"""
from __future__ import annotations

import json
import sys
from typing import Any

from solver.errors import DurakError
from solver.i18n import ngettext, number

#: The most digits Python turns into an integer (4,300 unless the interpreter was told otherwise).
MAX_DIGITS: int = sys.get_int_max_str_digits() if hasattr(sys, "get_int_max_str_digits") \
    else 4300


class NumberTooLong(DurakError):
    """A number of more digits than Python reads (:data:`MAX_DIGITS`): bad input
    (exit 2, HTTP 400) wherever it is not made a reader's own error first.

    ``where``: its place (a JSON path such as ``hands[1].unknown``; empty for a
    bare number); ``field``: the top-level field it is in; ``digits``: how many
    it has.  The message is ``FIELD: a number of N digits at WHERE (...)``, in the
    language current where it is raised (the player's: a terminal's ``--lang``, a web
    request's; English in ``--json`` and batch lines)."""

    def __init__(self, where: str, digits: int):
        self.where = where
        self.field = where.split(".", 1)[0].split("[", 1)[0] or "JSON"
        self.digits = digits
        super().__init__(f"{self.field}: {self.problem}")

    @property
    def problem(self) -> str:
        """The message without the field: what a reader puts after its own field name."""
        if self.where and self.where != self.field:
            text = ngettext("a number of {digits} digit at {where} (numbers of more than "
                            "{most} digits are not read)", "a number of {digits} digits at "
                            "{where} (numbers of more than {most} digits are not read)",
                            self.digits)
        else:
            text = ngettext("a number of {digits} digit (numbers of more than {most} digits "
                            "are not read)", "a number of {digits} digits (numbers of more "
                            "than {most} digits are not read)", self.digits)
        return text.format(digits=number(self.digits), where=self.where, most=number(MAX_DIGITS))


def check_digits(text: str, where: str) -> None:
    """Refuse a number's text that has more digits than Python reads
    (:class:`NumberTooLong` naming ``where``), before ``int()`` fails on it."""
    digits = len(text.strip().lstrip("+-"))
    if MAX_DIGITS and digits > MAX_DIGITS:
        raise NumberTooLong(where, digits)


class _Long:
    """Where a number too long to read stood (found by identity)."""

    __slots__ = ("digits",)

    def __init__(self, digits: int):
        self.digits = digits


def _find(obj: Any, mark: _Long, path: str) -> str | None:
    if obj is mark:
        return path
    if isinstance(obj, dict):
        items: Any = ((f"{path}.{k}" if path else str(k), v) for k, v in obj.items())
    elif isinstance(obj, list):
        items = ((f"{path}[{i}]", v) for i, v in enumerate(obj))
    else:
        return None
    for p, v in items:
        found = _find(v, mark, p)
        if found is not None:
            return found
    return None


def loads(text: str | bytes | bytearray) -> Any:
    """``json.loads(text)``; a number too long to read raises :class:`NumberTooLong`
    (a ``ValueError``) naming its path.  Other errors are ``json.loads``' own
    (``JSONDecodeError``, ``RecursionError``, ``UnicodeDecodeError``)."""
    try:
        return json.loads(text)
    except json.JSONDecodeError:
        raise
    except ValueError:  # the integer limit: read again, to find where the number stands
        marks: list[_Long] = []

        def parse_int(s: str) -> Any:
            try:
                return int(s)
            except ValueError:
                marks.append(_Long(len(s.lstrip("-"))))
                return marks[-1]

        obj = json.loads(text, parse_int=parse_int)
        if not marks:
            raise
        raise NumberTooLong(_find(obj, marks[0], "") or "", marks[0].digits) from None


__all__ = ["MAX_DIGITS", "NumberTooLong", "check_digits", "loads"]
