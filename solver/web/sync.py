"""Two devices on one game (issue 72): a version number on every kept game and the ids of
its latest entries, so that the laptop and the phone may both enter and neither corrupts
the record.

* Every change to a game -- an entry, an undo, the engine's move -- adds one to its
  ``version`` (kept with the game in the store, so a restart keeps counting).  The pages
  poll ``GET .../version`` (a few bytes) and fetch the game when it moved on.
* An entry may say which version it was made on (``"version": 7``): made on an older
  one, it is refused with 409 and the game as it is now (``"game"``), and nothing
  changes -- the late device sees what the other entered and decides again.
* An entry may carry an id the page made (``"entry_id"``): an entry whose id is among
  the game's last :data:`RECENT_IDS` is not entered twice -- the answer is the game as
  it is -- so a page that lost its connection may send what it kept again, whether or
  not the first try arrived.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from starlette.requests import Request

from solver.errors import OptionError
from solver.i18n import _
from solver.web.api import BadRequest, read_body

#: Entry ids remembered per game.
RECENT_IDS = 64
#: What an entry id may be: what a page's random id looks like.
ENTRY_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


class Stale(BadRequest):
    """An entry made on an older version of the game: 409, with the game as it is."""

    def __init__(self, made_on: int, now: int):
        super().__init__(409, _("another device changed this game first (version {now}; "
                                "this entry was made on {made_on}); here is the game as it "
                                "is now: nothing was entered").format(now=now, made_on=made_on))


@dataclass
class Sync:
    """A game's version and its latest entries' ids."""

    version: int = 0
    ids: list[str] = field(default_factory=list)

    @classmethod
    def of(cls, meta: dict[str, Any]) -> "Sync":
        return cls(int(meta.get("version") or 0), [str(i) for i in meta.get("entry_ids") or []])

    def meta(self) -> dict[str, Any]:
        return {"version": self.version, "entry_ids": self.ids}

    def seen(self, entry_id: str | None) -> bool:
        """Whether the entry with this id was entered already."""
        return entry_id is not None and entry_id in self.ids

    def check(self, made_on: int | None) -> None:
        """Refuse an entry made on another version (:class:`Stale`)."""
        if made_on is not None and made_on != self.version:
            raise Stale(made_on, self.version)

    def bump(self, entry_id: str | None = None) -> None:
        self.version += 1
        if entry_id is not None:
            self.ids = (self.ids + [entry_id])[-RECENT_IDS:]


def fields(body: dict[str, Any]) -> tuple[int | None, str | None]:
    """An entry's ``version`` and ``entry_id``, checked (both optional)."""
    version = body.get("version")
    if version is not None and (isinstance(version, bool) or not isinstance(version, int)
                                or version < 0):
        raise OptionError(f"version: {version!r} is not a game's version (a whole number)")
    entry_id = body.get("entry_id")
    if entry_id is not None and (not isinstance(entry_id, str)
                                 or not ENTRY_ID.fullmatch(entry_id)):
        raise OptionError("entry_id: at most 64 letters, digits, _ or -")
    return version, entry_id


async def optional_body(request: Request) -> dict[str, Any]:
    """The body of a request that may have none (an undo): ``{}`` without one."""
    if not request.headers.get("content-type") and request.headers.get(
            "content-length", "0") in ("", "0"):
        return {}
    return await read_body(request)


__all__ = ["RECENT_IDS", "Stale", "Sync", "fields", "optional_body"]
