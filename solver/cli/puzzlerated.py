"""Rated puzzle training at the terminal, and `durak puzzle stats`.

`durak puzzle train` with no collection serves puzzles by the player's rating
(solver/puzzles/serve.py): a missed puzzle due for review first, else one near
the rating; ``--theme`` keeps to one tag, ``--streak`` climbs until the first
miss (no rating change), ``--daily`` plays the day's puzzle.  After each puzzle
the rating's change is printed; the record is the data folder's
(solver/puzzles/player.py).  `durak puzzle stats` prints the dashboard.
"""
from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import click
from rich.table import Table

from solver.errors import OptionError
from solver.games.recordfile import data_dir
from solver.i18n import _, number
from solver.puzzles.collection import Puzzle, tag_word
from solver.puzzles.player import PlayerStore
from solver.puzzles.rating import provisional_rating
from solver.puzzles.serve import Shelf, next_puzzle


def store() -> PlayerStore:
    """The player's record in durak's data folder."""
    return PlayerStore(data_dir())


def change_line(out: dict[str, Any]) -> str:
    """What one attempt did to the rating or the streak, in words."""
    if out["mode"] == "streak":
        if out["solved"]:
            return _("Streak: {n} (best {best}).").format(n=out["streak"], best=out["best_streak"])
        return _("The streak is over (best {best}).").format(best=out["best_streak"])
    sign = "+" if out["change"] >= 0 else "\u2212"
    line = _("Rating: {before} \u2192 {after} ({change}).").format(
        before=round(out["before"]), after=round(out["after"]),
        change=f"{sign}{abs(out['change']):.0f}")
    if out["due"] and not out["solved"]:
        line += " " + _("It comes back for review at {when} (UTC).").format(
            when=out["due"].replace("T", " ")[:16])
    return line


class Session:
    """A run of served puzzles: which comes next, and what each attempt changed."""

    def __init__(self, puzzles: list[Puzzle], mode: str = "rated", theme: str | None = None,
                 player: PlayerStore | None = None, rng: random.Random | None = None):
        self.by_id = {p.id: p for p in puzzles}
        self.shelf = Shelf.of(puzzles)
        if theme is not None and theme not in dict(self.shelf.themes()):
            raise OptionError(_("--theme: no puzzle has the theme '{theme}'; the themes: "
                                "{themes}").format(theme=theme, themes=", ".join(
                                    t for t, _n in self.shelf.themes())))
        self.mode, self.theme = mode, theme
        self.player = player or store()
        self.rng = rng or random.Random()
        self.over = False

    def puzzles(self) -> Iterator[Puzzle]:
        """The puzzles served, one at a time, until the streak's miss or the daily's end."""
        while not self.over:
            pid, why = next_puzzle(self.shelf, self.player, self.mode, self.theme, self.rng)
            if pid is None:
                return
            if why == "due":
                click.echo(_("A puzzle you missed, due for review."))
            yield self.by_id[pid]
            if self.mode == "daily":
                return

    def after(self, p: Puzzle, clean: bool) -> None:
        """Record one attempt (solved only when clean) and say what it changed."""
        record(self.player, p, clean, self.mode)
        if self.mode == "streak" and not clean:
            self.over = True


def record(player: PlayerStore, p: Puzzle, clean: bool, mode: str = "rated") -> dict[str, Any]:
    """Keep one attempt in the player's record and print its change."""
    out = player.record(p.id, clean, provisional_rating(p), tuple(p.tags), mode)
    click.echo(change_line(out))
    return out


def stats_table(d: dict[str, Any], console: Any) -> None:
    """The dashboard at the terminal: the rating, the streaks, accuracy by theme."""
    console.print(_("Rating: {rating} (\u00b1{rd}), {n} attempts, {solved} solved.").format(
        rating=round(d["rating"]), rd=round(d["rd"]), n=d["attempts"], solved=d["solved"]))
    console.print(_("Best streak: {best}. Reviews due now: {due} of {reviews}.").format(
        best=d["best_streak"], due=d["due"], reviews=d["reviews"]))
    if d["history"]:
        first, last = d["history"][0], d["history"][-1]
        console.print(_("Rating over time: {first} on {since} \u2192 {last} now.").format(
            first=round(first["rating"]), since=first["at"][:10], last=round(last["rating"])))
    if not d["themes"]:
        console.print(_("No puzzle attempted yet: durak puzzle train"))
        return
    table = Table(title=_("Accuracy by theme (weakest first)"))
    table.add_column(_("theme"))
    table.add_column(_("solved"), justify="right")
    table.add_column(_("accuracy"), justify="right")
    table.add_column(_("train it"))
    for t in d["themes"]:
        table.add_row(tag_word(t["theme"]), f"{t['solved']}/{t['attempts']}",
                      number(round(100 * t["accuracy"])) + "%",
                      f"durak puzzle train --theme '{t['theme']}'")
    console.print(table)


def stats_json(d: dict[str, Any]) -> dict[str, Any]:
    """`durak puzzle stats --json`: the store's dashboard with each theme's words."""
    return {**d, "themes": [{**t, "words": tag_word(t["theme"])} for t in d["themes"]]}


__all__ = ["Session", "change_line", "record", "stats_json", "stats_table", "store"]
