"""A game session's record file: saved whole after every entry, one session at a
time -- and what happens when it can no longer be saved.

`durak game` and `durak play` save the record after every accepted entry
(:class:`~solver.games.session.GameSession`).  The folder can go away under a
running game (deleted, replaced, made read-only, the disk full).  The game
must not stop for that, nor may durak claim a save that did not happen, so a
failed save is not an error that ends the entry: :class:`RecordFile` keeps
what it knows --

- :attr:`RecordFile.saved`: how many entries the file holds (the last save
  that worked), and :meth:`RecordFile.held`, what stands at its path now (that
  file, untouched since; a folder; a file changed since; nothing);
- :attr:`RecordFile.failure`: the system's refusal while saving fails (None
  once a save works again: every entry tries again);
- :meth:`RecordFile.news`: each change of those, once (saving failed, saving
  works again), for the front end to say once;

and :meth:`RecordFile.move_to` lets the player send the record to another
file (the prompt's ``save FILE``), where it is saved from then on.  The first
save, when the session starts, still fails loudly (``OSError``, exit 4):
nothing is lost yet and the player can choose another file at once.
"""
from __future__ import annotations

import os
import stat
import time
from dataclasses import dataclass
from pathlib import Path

from solver.i18n import _, ngettext
from solver.run.outfile import WriterLock, write_whole


@dataclass(frozen=True)
class SaveNews:
    """A change in how saving goes: ``failed`` (``error`` says why) or ``recovered``;
    ``path`` the record file, ``saved`` the entries it holds."""

    kind: str
    path: Path
    saved: int | None
    error: OSError | None = None


def reason(e: OSError) -> str:
    """The system's reason in a few words (``No such file or directory``)."""
    return e.strerror or " ".join(str(e).split()) or type(e).__name__


class RecordFile:
    """The file a session's record is saved to (see the module docstring): a
    :class:`~solver.run.outfile.WriterLock` held while the session lasts, the record
    written whole (:func:`~solver.run.outfile.write_whole`) at every :meth:`write`."""

    def __init__(self, path: Path):
        self.path = path
        path.parent.mkdir(parents=True, exist_ok=True)
        self._lock: WriterLock | None = WriterLock(str(path), "record")
        self.saved: int | None = None
        self.failure: OSError | None = None
        self._news: list[SaveNews] = []
        self._stamp: tuple[int, ...] | None = None  # the file as the last save left it

    def write(self, text: str, entries: int, strict: bool = False) -> bool:
        """Save ``text`` (a record of ``entries`` entries); True when it was saved.
        A failure is kept (:attr:`failure`, :meth:`news`), or raised when ``strict``."""
        try:
            write_whole(str(self.path), text, option="record")
        except OSError as e:
            if strict:
                if self.failure is not None:
                    self.failure = e
                raise
            if self.failure is None:
                self._news.append(SaveNews("failed", self.path, self.saved, e))
            self.failure = e
            return False
        if self.failure is not None:
            self._news.append(SaveNews("recovered", self.path, entries))
        self.failure = None
        self.saved = entries
        self._stamp = _stamp(self.path)
        return True

    def held(self) -> str:
        """What stands at the record's path now, in the player's words: the file
        of the last save that worked, untouched since (its entries); or that it
        is gone (its folder deleted), a folder stands there, or the file there
        is not the one saved (changed or replaced since, or never written) --
        never a claim the path no longer bears out."""
        try:
            st = os.stat(self.path)
        except OSError:
            return _("the file is not there")
        if stat.S_ISDIR(st.st_mode):
            return _("a folder is there now")
        if not stat.S_ISREG(st.st_mode):
            return _("it is a device or a FIFO, which keeps nothing to go back to")
        if self.saved is None or self._stamp is None or _stamp(self.path) != self._stamp:
            return _("the file there is not the one last saved (changed or replaced since)")
        return ngettext("the file holds the first {n} entry", "the file holds the first {n} "
                        "entries", self.saved).format(n=self.saved)

    def move_to(self, path: Path, text: str, entries: int) -> None:
        """Save the record in ``path`` from now on: its lock taken and the record
        written there first (an ``OSError`` or ``OutputBusy`` leaves everything
        as it was), then the old file's lock let go."""
        if os.path.realpath(path) == os.path.realpath(self.path):  # the same file: again
            self.write(text, entries, strict=True)
            return
        path.parent.mkdir(parents=True, exist_ok=True)
        lock = WriterLock(str(path), "save")
        try:
            write_whole(str(path), text, option="save")
        except BaseException:
            lock.close()
            raise
        if self._lock is not None:
            self._lock.close()
        self._lock = lock
        self.path, self.saved, self.failure = path, entries, None
        self._stamp = _stamp(path)

    def news(self) -> list[SaveNews]:
        """What changed since the last call (each change once)."""
        out, self._news = self._news, []
        return out

    def close(self) -> None:
        if self._lock is not None:
            self._lock.close()
            self._lock = None


def _stamp(path: Path) -> tuple[int, ...] | None:
    """What tells the file a save left apart from any other at ``path``: its
    device, inode, size and time of change (None for none, or not a regular file)."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    if not stat.S_ISREG(st.st_mode):
        return None
    return (st.st_dev, st.st_ino, st.st_size, st.st_mtime_ns)


__all__ = ["RecordFile", "SaveNews", "reason"]


def data_dir() -> Path:
    """Where durak keeps what it saves for the user: ``$DURAK_DATA_DIR``, else
    ``$XDG_DATA_HOME/durak``, else ``~/.local/share/durak``."""
    env = os.environ.get("DURAK_DATA_DIR")
    if env:
        return Path(env)
    xdg = os.environ.get("XDG_DATA_HOME")
    return (Path(xdg) if xdg else Path.home() / ".local" / "share") / "durak"


def default_record_path(kind: str) -> Path:
    """A new record file for a session of ``kind`` (``game``, ``play``):
    ``<data dir>/games/<kind>-YYYYmmdd-HHMMSS.txt`` (a number added if taken)."""
    folder = data_dir() / "games"
    stamp = time.strftime("%Y%m%d-%H%M%S")
    path = folder / f"{kind}-{stamp}.txt"
    n = 2
    while path.exists():
        path = folder / f"{kind}-{stamp}-{n}.txt"
        n += 1
    return path
