"""Where the web board's games are kept: one SQLite file in a data directory.

The directory is the server's (``--data-dir``, ``$DURAK_DATA_DIR``, else
``$XDG_DATA_HOME/durak`` or ``~/.local/share/durak``); no request names a
path.  A game -- against the engine (``play``) or followed at a real table
(``follow``) -- is its record's text (docs/game-record.md) and a few facts to
list it by; the game-session model rebuilds everything else from the record,
so a game survives a page reload and a server restart.
"""
from __future__ import annotations

import json
import os
import secrets
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

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
        self._db = sqlite3.connect(self.path, check_same_thread=False, isolation_level=None)
        self._db.execute("PRAGMA journal_mode=WAL")
        self._db.execute(_SCHEMA)
        self._lock = threading.Lock()

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
