"""The engine's cards face down in the record of a game still being played.

A game against the engine is a full record (docs/game-record.md): every deal and
the pile order, so that it replays and goes on (``durak play --resume``).  While
the game is on, the engine's deals and the pile order would tell the player,
who may ``cat`` the file or open it in the web board's download, the engine's
hand and his own next draws.  So until the game ends the session writes them
in one ``sealed`` line instead: the lines themselves, compressed and written in
base64 -- face down, like the cards on the table, not locked: reading them
takes a deliberate decoding, which is a player cheating himself, not a glance.

The alternative -- the secret in a second, private file beside the record --
was weighed and left: the record would no longer be a whole game by itself
(copied, mailed or pasted into the web board, it would lose the engine's cards
and could not go on), and a file the player owns is no more secret than a
sealed line.  Once the game is over the record is written plain again.

:func:`unseal` is applied by :meth:`solver.games.record.Game.parse` to every
text record, so a sealed record reads, resumes and reviews like a plain one.
"""
from __future__ import annotations

import base64
import binascii
import re
import zlib

from solver.errors import RecordError

#: The header key of the sealed lines.
KEY = "sealed"
_NOTE = ("# the engine's deals and the pile order, face down until the game ends "
         "(docs/game-record.md)")
_ENGINE = re.compile(r"^\s*engine\s+([\d,\s]+?)\s+\w+\s*$")
_SEALED = re.compile(rf"^\s*{KEY}\s+(\S+)\s*$")
#: The most characters an unsealed block may have (a record's header is far less).
MAX_UNSEALED = 10_000


def seal(text: str) -> str:
    """``text`` (a record as :meth:`~solver.games.record.Game.format` writes it) with
    the deals of the engine's seats and the ``pile`` line replaced by one
    ``sealed`` line; a record without an ``engine`` line is returned as it is."""
    lines = text.split("\n")
    seats: set[str] = set()
    for line in lines:
        m = _ENGINE.match(line)
        if m:
            seats = {s.strip() for s in m.group(1).split(",") if s.strip()}
    if not seats:
        return text
    kept: list[str] = []
    hidden: list[str] = []
    where = -1
    for line in lines:
        words = line.split()
        secret = bool(words) and (words[0] == "pile" or (words[0] == "deal" and len(words) > 1
                                                        and words[1] in seats))
        if line.strip() == "moves":
            secret = False
        if secret:
            if where < 0:
                where = len(kept)
            hidden.append(line)
        else:
            kept.append(line)
    if not hidden:
        return text
    token = base64.urlsafe_b64encode(zlib.compress("\n".join(hidden).encode())).decode()
    kept[where:where] = [_NOTE, f"{KEY} {token.rstrip('=')}"]
    return "\n".join(kept)


def unseal(text: str) -> str:
    """``text`` with its ``sealed`` line turned back into the lines it holds."""
    if KEY not in text:
        return text
    out: list[str] = []
    for line in text.split("\n"):
        m = _SEALED.match(line.split("#", 1)[0])
        if not m:
            if line != _NOTE:
                out.append(line)
            continue
        token = m.group(1)
        try:
            raw = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4))
            plain = zlib.decompressobj().decompress(raw, MAX_UNSEALED).decode()
        except (binascii.Error, ValueError, zlib.error, UnicodeDecodeError):
            raise RecordError(KEY, "not a sealed block written by `durak play` (the engine's "
                                   "deals and the pile, compressed)") from None
        out.extend(plain.split("\n"))
    return "\n".join(out)


__all__ = ["KEY", "seal", "unseal"]
