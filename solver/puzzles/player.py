"""The puzzle player's record: a Glicko-2 rating, every attempt, the missed ones' reviews.

Kept in the data folder's SQLite file beside the web board's games
(``games.sqlite3``; ``$DURAK_DATA_DIR``, else ``$XDG_DATA_HOME/durak`` or
``~/.local/share/durak``), in three tables made when missing, so an older file
gains them and loses nothing:

- ``puzzle_player``: key/value -- the rating, its deviation and volatility, the
  streak running and the best one;
- ``puzzle_attempts``: one row per attempt -- when, the puzzle, solved or not, the
  mode (``rated``, ``daily``, ``streak``), the puzzle's rating, the player's before
  and after, the puzzle's themes;
- ``puzzle_reviews``: a missed puzzle's FSRS card (the ``fsrs`` package) and when
  it is due again.

An attempt is solved only when every move of the solution line was found on the
first try without a hint (the trainer's rule, docs/guide/puzzles.md); it is
scored 1 against the puzzle's rating, else 0 (:func:`~solver.puzzles.rating.update`,
one game per rating period).  The streak changes no rating, nor the day's puzzle
played again on its day.  A miss makes the
puzzle an FSRS card rated *Again*; a clean solve of a card rates it *Good*, and
the scheduler puts it further off.
"""
from __future__ import annotations

import datetime as dt
import errno
import json
import os
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any

from fsrs import Card, Rating, Scheduler

from solver.puzzles.rating import PUZZLE_RD, START, Glicko, update

#: The data folder's SQLite file (the web board's games are in it too).
DB_NAME = "games.sqlite3"
#: The tables this module keeps (the game store accepts them beside its own).
TABLES = frozenset({"puzzle_player", "puzzle_attempts", "puzzle_reviews"})
#: The modes an attempt is played in; only ``streak`` leaves the rating alone.
MODES = ("rated", "daily", "streak")

_SCHEMA = (
    "CREATE TABLE IF NOT EXISTS puzzle_player (key TEXT PRIMARY KEY, value TEXT NOT NULL)",
    ("CREATE TABLE IF NOT EXISTS puzzle_attempts (n INTEGER PRIMARY KEY, at REAL NOT NULL, "
     "puzzle TEXT NOT NULL, solved INTEGER NOT NULL, mode TEXT NOT NULL, puzzle_rating REAL, "
     "before REAL NOT NULL, after REAL NOT NULL, themes TEXT NOT NULL)"),
    ("CREATE TABLE IF NOT EXISTS puzzle_reviews (puzzle TEXT PRIMARY KEY, due REAL NOT NULL, "
     "card TEXT NOT NULL)"),
)


class PlayerStoreError(OSError):
    """The player's store cannot be used: ``filename`` the file, ``strerror`` why."""


def _scheduler() -> Scheduler:
    # no fuzzing: the same misses give the same due times (tests, and a player's trust)
    return Scheduler(enable_fuzzing=False)


def _utc(t: float) -> dt.datetime:
    return dt.datetime.fromtimestamp(t, dt.timezone.utc)


class PlayerStore:
    """One player's puzzle record in ``data_dir``; safe from several threads."""

    def __init__(self, data_dir: str | os.PathLike[str]):
        self.dir = Path(data_dir)
        self.path = self.dir / DB_NAME
        try:
            self.dir.mkdir(parents=True, exist_ok=True)
            self._db = sqlite3.connect(self.path, check_same_thread=False,
                                       isolation_level=None, timeout=10)
            self._db.execute("PRAGMA journal_mode=WAL")
            for stmt in _SCHEMA:
                self._db.execute(stmt)
        except (OSError, sqlite3.DatabaseError) as e:
            raise PlayerStoreError(errno.EIO, "the puzzle record cannot be used "
                                              f"({' '.join(str(e).split())})",
                                   str(self.path)) from None
        self._lock = threading.Lock()
        self._scheduler = _scheduler()

    def close(self) -> None:
        with self._lock:
            self._db.close()

    # ---------------------------------------------------------------- reading
    def _get(self, key: str, default: Any) -> Any:
        row = self._db.execute("SELECT value FROM puzzle_player WHERE key = ?", (key,)).fetchone()
        return default if row is None else json.loads(row[0])

    def _put(self, key: str, value: Any) -> None:
        self._db.execute("INSERT INTO puzzle_player (key, value) VALUES (?, ?) ON CONFLICT(key) "
                         "DO UPDATE SET value = excluded.value", (key, json.dumps(value)))

    def glicko(self) -> Glicko:
        """The player's rating now (a new player's: 1500, RD 350)."""
        with self._lock:
            return Glicko(*self._get("glicko", list(START)))

    def streaks(self) -> tuple[int, int]:
        """The streak running now and the best one."""
        with self._lock:
            return int(self._get("streak", 0)), int(self._get("best_streak", 0))

    def recent(self, n: int = 50) -> set[str]:
        """The puzzles of the last ``n`` attempts (served again only when nothing else is)."""
        with self._lock:
            rows = self._db.execute("SELECT puzzle FROM puzzle_attempts ORDER BY n DESC LIMIT ?",
                                    (n,)).fetchall()
        return {r[0] for r in rows}

    def due(self, now: float | None = None, among: set[str] | None = None) -> list[str]:
        """The missed puzzles due again at ``now``, the longest overdue first (only
        those in ``among`` when it is given)."""
        now = time.time() if now is None else now
        with self._lock:
            rows = self._db.execute("SELECT puzzle FROM puzzle_reviews WHERE due <= ? "
                                    "ORDER BY due", (now,)).fetchall()
        return [r[0] for r in rows if among is None or r[0] in among]

    def due_at(self, puzzle: str) -> float | None:
        """When a missed puzzle is due again (``None``: it is no card)."""
        with self._lock:
            row = self._db.execute("SELECT due FROM puzzle_reviews WHERE puzzle = ?",
                                   (puzzle,)).fetchone()
        return None if row is None else float(row[0])

    # ---------------------------------------------------------------- writing
    def record(self, puzzle: str, solved: bool, puzzle_rating: float, themes: tuple[str, ...] = (),
               mode: str = "rated", now: float | None = None) -> dict[str, Any]:
        """Keep one attempt: the rating moves (not in a streak), the streak counts, a
        miss becomes (or stays) a review card.  Returns what changed, as
        ``durak puzzle train`` prints it and the board's ``/result`` answers."""
        if mode not in MODES:
            raise ValueError(f"mode: expected one of {', '.join(MODES)}: {mode!r}")
        now = time.time() if now is None else now
        with self._lock:
            self._db.execute("BEGIN IMMEDIATE")
            try:
                out = self._record(puzzle, solved, puzzle_rating, themes, mode, now)
                self._db.execute("COMMIT")
            except BaseException:
                self._db.execute("ROLLBACK")
                raise
        return out

    def _record(self, puzzle: str, solved: bool, puzzle_rating: float, themes: tuple[str, ...],
                mode: str, now: float) -> dict[str, Any]:
        before = Glicko(*self._get("glicko", list(START)))
        after = before
        if mode != "streak" and not self._daily_again(puzzle, mode, now):
            after = update(before, [(puzzle_rating, PUZZLE_RD, 1.0 if solved else 0.0)])
            self._put("glicko", [after.rating, after.rd, after.vol])
        streak, best = int(self._get("streak", 0)), int(self._get("best_streak", 0))
        if mode == "streak":
            streak = streak + 1 if solved else 0
            best = max(best, streak)
            self._put("streak", streak)
            self._put("best_streak", best)
        self._db.execute("INSERT INTO puzzle_attempts (at, puzzle, solved, mode, puzzle_rating, "
                         "before, after, themes) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                         (now, puzzle, int(solved), mode, puzzle_rating, before.rating,
                          after.rating, json.dumps(list(themes))))
        due = self._review(puzzle, solved, now)
        return {"puzzle": puzzle, "solved": solved, "mode": mode,
                "before": round(before.rating, 1), "after": round(after.rating, 1),
                "change": round(after.rating - before.rating, 1), "rd": round(after.rd, 1),
                "streak": streak, "best_streak": best,
                "due": None if due is None else _utc(due).isoformat(timespec="seconds")}

    def _daily_again(self, puzzle: str, mode: str, now: float) -> bool:
        """Whether this is the day's puzzle played again on its day (rated once only)."""
        if mode != "daily":
            return False
        day = _utc(now).replace(hour=0, minute=0, second=0, microsecond=0).timestamp()
        return self._db.execute("SELECT 1 FROM puzzle_attempts WHERE puzzle = ? AND "
                                "mode = 'daily' AND at >= ?", (puzzle, day)).fetchone() is not None

    def _review(self, puzzle: str, solved: bool, now: float) -> float | None:
        """FSRS: a miss rates the puzzle's card Again (a new card for a first miss), a
        clean solve of a card rates it Good; returns the card's next due time."""
        row = self._db.execute("SELECT card FROM puzzle_reviews WHERE puzzle = ?",
                               (puzzle,)).fetchone()
        if row is None and solved:
            return None
        card = Card.from_dict(json.loads(row[0])) if row is not None else Card(due=_utc(now))
        card, _log = self._scheduler.review_card(card, Rating.Good if solved else Rating.Again,
                                                 _utc(now))
        due = card.due.timestamp()
        self._db.execute("INSERT INTO puzzle_reviews (puzzle, due, card) VALUES (?, ?, ?) "
                         "ON CONFLICT(puzzle) DO UPDATE SET due = excluded.due, "
                         "card = excluded.card", (puzzle, due, json.dumps(card.to_dict())))
        return due

    # ---------------------------------------------------------------- the dashboard
    def stats(self, now: float | None = None, history: int = 200) -> dict[str, Any]:
        """The dashboard: the rating, the rating after each rated attempt (the last
        ``history``), accuracy by theme (the weakest first), the streaks, the due
        reviews.  `durak puzzle stats --json` prints it; the board draws it."""
        now = time.time() if now is None else now
        g = self.glicko()
        streak, best = self.streaks()
        with self._lock:
            rows = self._db.execute("SELECT at, puzzle, solved, mode, after, themes FROM "
                                    "puzzle_attempts ORDER BY n").fetchall()
            reviews = self._db.execute("SELECT count(*), sum(due <= ?) FROM puzzle_reviews",
                                       (now,)).fetchone()
        themes: dict[str, list[int]] = {}
        for _at, _p, solved, _mode, _after, tags in rows:
            for t in json.loads(tags):
                tally = themes.setdefault(t, [0, 0])
                tally[0] += 1
                tally[1] += solved
        weakest = sorted(themes.items(), key=lambda kv: (kv[1][1] / kv[1][0], -kv[1][0], kv[0]))
        by_theme = [{"theme": t, "attempts": a, "solved": s, "accuracy": round(s / a, 3)}
                    for t, (a, s) in weakest]
        rated = [r for r in rows if r[3] != "streak"]
        return {"rating": round(g.rating, 1), "rd": round(g.rd, 1), "vol": round(g.vol, 6),
                "attempts": len(rows), "solved": sum(r[2] for r in rows),
                "streak": streak, "best_streak": best,
                "reviews": int(reviews[0] or 0), "due": int(reviews[1] or 0),
                "history": [{"at": _utc(r[0]).isoformat(timespec="seconds"),
                             "rating": round(r[4], 1)} for r in rated[-history:]],
                "themes": by_theme}


__all__ = ["DB_NAME", "MODES", "TABLES", "PlayerStore", "PlayerStoreError"]
