"""Where the web board's games are kept: one SQLite file in a data directory.

The directory is the server's (``--data-dir``, ``$DURAK_DATA_DIR``, else
``$XDG_DATA_HOME/durak`` or ``~/.local/share/durak``); no request names a
path.  A game -- against the engine (``play``) or followed at a real table
(``follow``) -- is its record's text (docs/game-record.md) and a few facts to
list it by; the game-session model rebuilds everything else from the record,
so a game survives a page reload and a server restart.

A store that cannot be used -- a file that is not a SQLite database, a damaged
one, another program's, one that may not be written -- is a :class:`StoreError`
(an ``OSError`` naming the file, exit 4) saying what to do, raised when the
store is opened: `durak serve` opens it before it says it serves.
"""
from __future__ import annotations

import errno
import json
import os
import secrets
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from solver.puzzles.player import TABLES

#: The environment variable naming the data directory (tests point it at a temporary one).
DATA_DIR_ENV = "DURAK_DATA_DIR"
#: The file in the data directory.
DB_NAME = "games.sqlite3"

_SCHEMA = """
CREATE TABLE IF NOT EXISTS games (
    id       TEXT PRIMARY KEY,
    created  REAL NOT NULL,
    updated  REAL NOT NULL,
    over     INTEGER NOT NULL DEFAULT 0,
    meta     TEXT NOT NULL,   -- JSON: kind (play, follow), players, rules, engine, seats, seed
    record   TEXT NOT NULL    -- the game record (docs/game-record.md), every card known
)
"""


#: The columns a games table must have to be durak's.
_COLUMNS = {"id", "created", "updated", "over", "meta", "record"}


class StoreError(OSError):
    """The game store cannot be used: ``filename`` the file, ``strerror`` why and what
    to do (the command line prints them in one line, exit 4)."""


def _refused(path: Path, why: str) -> StoreError:
    return StoreError(errno.EINVAL, f"{why}; move it aside (the board then starts with no kept "
                                    "games) or give another --data-dir", str(path))


def default_data_dir() -> Path:
    """``$XDG_DATA_HOME/durak``, else ``~/.local/share/durak``."""
    base = os.environ.get("XDG_DATA_HOME") or os.path.join(os.path.expanduser("~"), ".local",
                                                           "share")
    return Path(base) / "durak"


class GameStore:
    """The games table; safe to use from several threads (one connection, one lock)."""

    def __init__(self, data_dir: str | os.PathLike[str]):
        self.dir = Path(data_dir)
        self.dir.mkdir(parents=True, exist_ok=True)
        self.path = self.dir / DB_NAME
        try:
            self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        except sqlite3.DatabaseError as e:  # a folder in its place, no permission
            raise StoreError(errno.EIO, f"the game store cannot be opened "
                                        f"({' '.join(str(e).split())})", str(self.path)) from None
        try:
            self._open()
        except BaseException:
            self._db.close()
            raise
        self._lock = threading.Lock()

    def _open(self) -> None:
        """Check the file is a whole SQLite database with durak's games table (making
        one in a new file): a :class:`StoreError` naming it otherwise, the file
        left as it was."""
        try:
            problems = [r[0] for r in self._db.execute("PRAGMA quick_check").fetchall()]
            if problems != ["ok"]:
                raise _refused(self.path, f"the game store is damaged ({problems[0]})")
            tables = {r[0] for r in self._db.execute(
                "SELECT name FROM sqlite_master WHERE type = 'table'").fetchall()}
            columns = {r[1] for r in self._db.execute("PRAGMA table_info(games)").fetchall()}
            # the puzzle player's tables (solver/puzzles/player.py) share the file
            if tables - {"games"} - TABLES or ("games" in tables and not _COLUMNS <= columns):
                what = (f"its games table has other columns: {', '.join(sorted(columns))}"
                        if columns else f"its tables: {', '.join(sorted(tables))}")
                raise _refused(self.path, f"another program's database ({what})")
            self._db.execute("PRAGMA journal_mode=WAL")
            self._db.execute(_SCHEMA)
        except sqlite3.DatabaseError as e:
            text = " ".join(str(e).split())
            if "not a database" in text or "malformed" in text:
                raise _refused(self.path, f"not a game store that can be read ({text}): "
                                          "damaged, or another program's file") from None
            raise StoreError(errno.EIO, f"the game store cannot be used ({text})",
                             str(self.path)) from None

    def close(self) -> None:
        with self._lock:
            self._db.close()

    def new_id(self) -> str:
        return secrets.token_urlsafe(9)

    def save(self, game_id: str, meta: dict[str, Any], record: str, over: bool) -> None:
        now = time.time()
        with self._lock:
            self._db.execute(
                "INSERT INTO games (id, created, updated, over, meta, record) "
                "VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO UPDATE SET "
                "updated = excluded.updated, over = excluded.over, meta = excluded.meta, "
                "record = excluded.record",
                (game_id, now, now, int(over), json.dumps(meta), record))

    def load(self, game_id: str) -> tuple[dict[str, Any], str] | None:
        with self._lock:
            row = self._db.execute("SELECT meta, record FROM games WHERE id = ?",
                                   (game_id,)).fetchone()
        return None if row is None else (json.loads(row[0]), row[1])

    def recent(self, limit: int = 20, kind: str = "play") -> list[dict[str, Any]]:
        """The most recently changed games of one kind: ``play`` (against the engine,
        the default of games kept before kinds were written) or ``follow``."""
        with self._lock:
            rows = self._db.execute("SELECT id, created, updated, over, meta FROM games "
                                    "WHERE coalesce(json_extract(meta, '$.kind'), 'play') = ? "
                                    "ORDER BY updated DESC LIMIT ?", (kind, limit)).fetchall()
        return [{"id": r[0], "created": r[1], "updated": r[2], "over": bool(r[3]),
                 **json.loads(r[4])} for r in rows]
