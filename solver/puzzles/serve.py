"""Which puzzle comes next: near the player's rating, of a theme, the streak's, the day's.

:class:`Shelf` holds the puzzles' ratings sorted once (per theme too), so the
next puzzle is a binary search and a short walk outward from the player's
rating, skipping the ones played lately: well under a millisecond among
thousands (``tests/test_puzzle_rating.py`` times it among 12,000).  Among the
few nearest (:data:`NEAREST`) one is drawn with the caller's random generator,
so two sessions at one rating do not meet the same sequence.

The daily puzzle is the same for everyone on a date: the date's SHA-256 picks
it among the ids in sorted order (:func:`daily`), whoever asks and whenever.
"""
from __future__ import annotations

import bisect
import datetime as dt
import hashlib
import random
from collections.abc import Iterable, Sequence
from typing import Any

from solver.puzzles.rating import provisional_rating

#: How many of the nearest puzzles the next one is drawn among.
NEAREST = 5
#: The streak's first puzzle's rating, and the step up after each one solved.
STREAK_START, STREAK_STEP = 1100.0, 60.0


class Shelf:
    """Puzzle ids sorted by rating, overall and per theme (a puzzle's tags)."""

    def __init__(self, items: Iterable[tuple[str, float, Sequence[str]]]):
        rows = sorted((float(r), pid, tuple(tags)) for pid, r, tags in items)
        self.rating = {pid: r for r, pid, _t in rows}
        self.tags = {pid: t for _r, pid, t in rows}
        self._all = ([r for r, _p, _t in rows], [p for _r, p, _t in rows])
        self._themes: dict[str, tuple[list[float], list[str]]] = {}
        for r, pid, tags in rows:
            for t in tags:
                keys, ids = self._themes.setdefault(t, ([], []))
                keys.append(r)
                ids.append(pid)

    @classmethod
    def of(cls, puzzles: Iterable[Any]) -> Shelf:
        """A shelf of :class:`~solver.puzzles.collection.Puzzle` objects, each at its
        :func:`~solver.puzzles.rating.provisional_rating`."""
        return cls((p.id, provisional_rating(p), p.tags) for p in puzzles)

    def __len__(self) -> int:
        return len(self._all[1])

    def themes(self) -> list[tuple[str, int]]:
        """Every theme and how many puzzles it has, the largest first."""
        return sorted(((t, len(ids)) for t, (_k, ids) in self._themes.items()),
                      key=lambda x: (-x[1], x[0]))

    def near(self, rating: float, theme: str | None = None,
             skip: frozenset[str] | set[str] = frozenset(),
             rng: random.Random | None = None) -> str | None:
        """A puzzle near ``rating`` (of ``theme``), not in ``skip``: drawn among the
        :data:`NEAREST` nearest; ``None`` when the shelf (or the theme) is empty.
        When every puzzle is in ``skip``, the nearest of all is served again."""
        keys, ids = self._themes.get(theme, ([], [])) if theme else self._all
        if not ids:
            return None
        i = bisect.bisect_left(keys, rating)
        lo, hi = i - 1, i
        found: list[str] = []
        while len(found) < NEAREST and (lo >= 0 or hi < len(ids)):
            # step to the nearer side
            if hi >= len(ids) or (lo >= 0 and rating - keys[lo] <= keys[hi] - rating):
                j, lo = lo, lo - 1
            else:
                j, hi = hi, hi + 1
            if ids[j] not in skip:
                found.append(ids[j])
        if not found:
            j = min(max(i, 0), len(ids) - 1)
            return ids[j]
        return (rng or random.Random()).choice(found)


def daily(ids: Iterable[str], day: dt.date) -> str | None:
    """The puzzle of ``day``: the same for everyone, from the date alone."""
    pool = sorted(ids)
    if not pool:
        return None
    digest = hashlib.sha256(f"durak-daily-{day.isoformat()}".encode()).digest()
    return pool[int.from_bytes(digest[:8], "big") % len(pool)]


def streak_target(length: int) -> float:
    """The rating the streak's next puzzle is served at, ``length`` solved so far."""
    return STREAK_START + STREAK_STEP * length


def next_puzzle(shelf: Shelf, store: Any, mode: str = "rated", theme: str | None = None,
                rng: random.Random | None = None, now: float | None = None,
                day: dt.date | None = None) -> tuple[str | None, str]:
    """The next puzzle for the player of ``store`` (a
    :class:`~solver.puzzles.player.PlayerStore`) and why: ``("pod-003", "due")`` -- a
    missed puzzle due again comes first --, ``"rating"`` (near the player's rating),
    ``"streak"`` (near the streak's step), ``"daily"`` (the day's, UTC)."""
    if mode == "daily":
        day = day or dt.datetime.now(dt.timezone.utc).date()
        return daily(shelf.rating, day), "daily"
    skip = store.recent()
    if mode == "streak":
        return shelf.near(streak_target(store.streaks()[0]), theme, skip, rng), "streak"
    due = [p for p in store.due(now) if p in shelf.tags
           and (not theme or theme in shelf.tags[p])]
    if due:
        return due[0], "due"
    return shelf.near(store.glicko().rating, theme, skip, rng), "rating"


__all__ = ["NEAREST", "Shelf", "daily", "next_puzzle", "streak_target"]
