"""A message written when it is read, in the language of whoever reads it (issue 69).

The web server decides some of its words before anybody asks for them: a job ends
(cancelled, over its cap, its process gone), the server stops, the engine fails a
move.  Each request that then reads them -- the page polling its job, the request
waiting for its answer -- is in its own language (:func:`solver.i18n.use_language`),
so such a message is kept as its English id and its fields, and written out by
``str()`` where it is read::

    why = Lazy(N_("the server is stopping ({signal}); try again once it is back"),
               signal="SIGTERM")
    with use_language("lt"):
        str(why)   # "serveris stabdomas (SIGTERM); ..."

A field may be a callable (written when the message is: ``seconds=lambda:
as_given(30)`` writes ``30`` or ``2,5`` as the reader's language writes numbers) or
another :class:`Lazy`.
"""
from __future__ import annotations

from typing import Any

from solver.i18n import _


class Lazy:
    """A message (its English id, marked with ``N_`` where it is written) and its fields,
    written in the current language by ``str()``."""

    __slots__ = ("message", "fields")

    def __init__(self, message: str, **fields: Any):
        self.message = message
        self.fields = fields

    def __str__(self) -> str:
        values = {k: v() if callable(v) else str(v) if isinstance(v, Lazy) else v
                  for k, v in self.fields.items()}
        return _(self.message).format(**values)

    def __repr__(self) -> str:
        fields = "".join(f", {k}={v!r}" for k, v in self.fields.items())
        return f"Lazy({self.message!r}{fields})"

    def __eq__(self, other: object) -> bool:
        return (isinstance(other, Lazy) and other.message == self.message
                and other.fields == self.fields)

    __hash__ = None  # type: ignore[assignment]


def text(message: str | Lazy | None) -> str | None:
    """A message as the current language writes it (a plain string as it is)."""
    return None if message is None else str(message)


__all__ = ["Lazy", "text"]
