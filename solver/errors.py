"""The errors a caller of durak-solver can meet, with one base.

Every error a user can cause is a :class:`DurakError` -- a ``ValueError`` --
whose message names the field and quotes the token (python-chess style), so
the CLI prints it on one line and exits 2.  Anything else that escapes is a
bug and exits 1 (the CLI says so).  A budget that runs out is
:class:`BudgetExceeded` (exit 3), carrying what is known.
"""
from __future__ import annotations

import re
from typing import Any

#: The longest run of non-blank characters (a token) a message shows whole (a
#: long file path still fits); a longer one is cut to its start and end, with its length.
MAX_TOKEN_SHOWN = 200
#: The longest message, after the tokens are cut.
MAX_MESSAGE_SHOWN = 1000
_LONG_TOKEN = re.compile(r"\S{%d,}" % (MAX_TOKEN_SHOWN + 1))


def shorten(text: str) -> str:
    """``text`` cut to a readable line: every token longer than
    :data:`MAX_TOKEN_SHOWN` characters becomes its first 60 and last 20 with its
    length between (``'ZZZ...[200,002 characters]...ZZZ'``), and the whole is at
    most about :data:`MAX_MESSAGE_SHOWN` characters.  Every message durak
    prints about an input passes through here (:class:`DurakError` itself, the
    command line's error lines), so a 200 KB token never fills a terminal.
    """
    text = _LONG_TOKEN.sub(lambda m: f"{m[0][:60]}...[{len(m[0]):,} characters]...{m[0][-20:]}",
                           text)
    if len(text) > MAX_MESSAGE_SHOWN:
        text = f"{text[:MAX_MESSAGE_SHOWN - 40]}...[{len(text):,} characters in all]"
    return text


class DurakError(ValueError):
    """Base of every error a caller can cause: bad input, an impossible request.

    Its text quotes the input, cut by :func:`shorten` where a token is long.
    """

    def __str__(self) -> str:
        return shorten(super().__str__())


class OptionError(DurakError):
    """A request that cannot be honoured: an option out of range, an unknown name."""


class CardError(DurakError):
    """Text that names no card of the deck."""


class PositionError(DurakError):
    """A position that does not parse or cannot occur; names the field."""

    def __init__(self, field: str, problem: str):
        self.field = field
        self.problem = problem
        super().__init__(f"{field}: {problem}")


class MoveError(DurakError):
    """Move text that does not parse."""


class IllegalMoveError(DurakError):
    """A well-formed move that the rules do not allow here."""


class HiddenCardsError(DurakError):
    """The answer needs cards that the position keeps hidden."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C stopped a long job; ``partial`` holds what it had done (exit 130)."""

    def __init__(self, partial: Any = None):
        super().__init__("interrupted")
        self.partial = partial


class BudgetExceeded(DurakError):
    """A time, node or memory budget ran out (exit 3); ``partial`` holds what is known."""

    def __init__(self, message: str, partial: Any = None):
        super().__init__(message)
        self.partial = partial


class RecordError(DurakError):
    """A game record that does not parse or cannot have happened (docs/game-record.md).

    ``where`` locates it: a header field (``deal 2``, ``trump``) or the move
    number with its token (``move 12 '2:6S/8S'``); ``problem`` says what is wrong.
    """

    def __init__(self, where: str, problem: str):
        self.where = where
        self.problem = problem
        super().__init__(f"{where}: {problem}")


class CoreMissing(ImportError):
    """The compiled core ``solver._core`` cannot be loaded: not built, or built for
    another Python.  Not a user's input error: its message says what to do
    (:func:`solver.search.native.core_missing`), and the CLI prints it on one line."""
