"""Output files that are never corrupted: the one place where durak writes a file.

Every command that writes a file goes through here (``durak batch --out``,
``durak match --record``, ``durak play-out --record``, ``durak puzzle generate
--out``; a new command's output file should too).  Two kinds:

- **A whole file** (:func:`whole_file`, :func:`write_whole`): a game record, a
  plot, a puzzle collection.  It is written under a temporary name beside the
  target and renamed over it (``os.replace``) once complete, so a reader, an
  error, Ctrl-C, SIGTERM or a kill sees the old file or the new one, never
  half of one; a failure removes the temporary file (a SIGKILL may leave it,
  as ``.NAME.*.tmp``, never the target half-written).
- **A whole file written again and again** (:class:`WriterLock`, then
  :func:`write_whole` each time): a game record saved after every move, with
  one writer as a file of lines has.
- **A file of lines** (:class:`LineFile`): JSON lines appended one by one as
  answers come (``durak batch --out``).  It has one writer: an advisory lock
  (``flock``) is taken before anything is changed, and a second writer is
  refused with :class:`OutputBusy` (exit 2), the file untouched.  Each line
  is written whole by one ``write``; a write that fails part-way (disk full)
  is cut back, so the file holds whole lines only, and a line cut short by a
  kill is dropped when the file is opened to resume -- the ``--resume``
  guarantee holds after any stop.

Neither may be one of the command's inputs (:func:`refuse_inputs`: ``--out``
naming the input file is refused, exit 2, before anything is written).  The
system's own refusals (no such folder, permission, disk full) are ``OSError``
naming the file the user named and the system's reason, which the command line
reports in one line (exit 4).

**What the target is** (:func:`target_kind`).  A symbolic link is followed: the
file it points to is written (replaced by the rename), never the link.  A
target that is not a regular file is never replaced: a character device
(``/dev/null``, ``/dev/full``, a terminal) or a FIFO is a *stream*, written in
place once the content is complete (a whole file is made in the temporary
folder first, then copied in; a file of lines writes each line to it); it has
no lock and nothing to cut back.  Anything else -- a block device, a socket --
is refused (``OSError``, exit 4): writing a disk's device or a socket is never
what an output option means.
"""
from __future__ import annotations

import errno
import os
import stat
import tempfile
from contextlib import contextmanager, suppress
from typing import Iterable, Iterator

from solver.errors import OptionError

try:
    import fcntl
except ImportError:  # pragma: no cover - not POSIX: no lock, the rest holds
    fcntl = None  # type: ignore[assignment]


class OutputBusy(OptionError):
    """The output file is being written by another process (its lock is held)."""


def _stat(path: str) -> os.stat_result | None:
    try:
        return os.stat(path)
    except (OSError, ValueError):
        return None


def refuse_inputs(path: str, inputs: Iterable[str], option: str) -> None:
    """Refuse an output ``path`` that is one of ``inputs`` (paths; ``-`` is
    standard input): :class:`~solver.errors.OptionError` (exit 2).

    The same file under another name (a link, ``./in.jsonl``) counts."""
    out = _stat(path)
    if out is None:
        return  # a file still to be made is no input
    for name in inputs:
        if name == "-":
            try:
                got: os.stat_result | None = os.fstat(0)
            except OSError:
                got = None
            shown = "standard input"
        else:
            got, shown = _stat(name), repr(name)
        if got is not None and stat.S_ISREG(out.st_mode) and \
                (got.st_dev, got.st_ino) == (out.st_dev, out.st_ino):
            raise OptionError(f"{option}: {path!r} is the input ({shown}); writing it would "
                              "destroy what is being read -- choose another file")


#: :func:`target_kind`: a regular file (or one still to be made), replaced by a rename.
FILE = "file"
#: :func:`target_kind`: a character device or a FIFO, written in place.
STREAM = "stream"


def target_kind(path: str) -> str:
    """:data:`FILE` or :data:`STREAM` (see the module docstring); anything else an
    ``OSError`` naming ``path`` (exit 4).  A link is followed."""
    st = _stat(path)
    if st is None or stat.S_ISREG(st.st_mode):
        return FILE
    if stat.S_ISDIR(st.st_mode):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
    if stat.S_ISCHR(st.st_mode) or stat.S_ISFIFO(st.st_mode):
        return STREAM
    what = "a block device" if stat.S_ISBLK(st.st_mode) else \
        "a socket" if stat.S_ISSOCK(st.st_mode) else "not a regular file"
    raise OSError(errno.EINVAL, f"{what}: durak writes only regular files, character devices "
                                "and FIFOs", path)


def _named(e: OSError, path: str, *others: str | None) -> OSError:
    """``e`` naming the file the user gave (not a temporary or resolved name)."""
    if e.filename is None or e.filename in others:
        e.filename = path
    return e


def _check_folder(path: str) -> str:
    """The real path to write (a link's target), its folder checked to exist."""
    target = os.path.realpath(path)
    folder = os.path.dirname(target) or "."
    if not os.path.isdir(folder):
        raise FileNotFoundError(errno.ENOENT, f"no such folder {os.path.dirname(path) or '.'!r}",
                                path)
    if os.path.isdir(target):
        raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), path)
    return target


def check_target(path: str, inputs: Iterable[str] = (), option: str = "output") -> None:
    """Check before a long job that ``path`` can be written at its end: its
    folder exists and may be written, and it is none of ``inputs``.  The
    system's refusal is an ``OSError`` naming the file (exit 4)."""
    refuse_inputs(path, inputs, option)
    if target_kind(path) == STREAM:
        if not os.access(path, os.W_OK):
            raise PermissionError(errno.EACCES, os.strerror(errno.EACCES), path)
        return
    target = _check_folder(path)
    folder = os.path.dirname(target)
    if not os.access(folder, os.W_OK):
        raise PermissionError(errno.EACCES, f"the folder {os.path.dirname(path) or '.'!r} "
                              "may not be written", path)


def _new_file_mode(target: str) -> int:
    """The mode a plain ``open(target, "w")`` would leave: the old file's, or
    0666 less the umask."""
    old = _stat(target)
    if old is not None:
        return stat.S_IMODE(old.st_mode)
    mask = os.umask(0)
    os.umask(mask)
    return 0o666 & ~mask


@contextmanager
def whole_file(path: str, inputs: Iterable[str] = (), option: str = "output") -> Iterator[str]:
    """Yield a temporary path beside ``path`` to write the whole file to; it
    becomes ``path`` when the block ends without an error (``os.replace``) and
    is removed otherwise.  The temporary name keeps the extension (a plot
    library picks its format by it).  ``inputs``: see :func:`refuse_inputs`.

    A stream target (a device, a FIFO: :func:`target_kind`) is not replaced:
    the temporary file is made in the temporary folder and copied into it."""
    refuse_inputs(path, inputs, option)
    if target_kind(path) == STREAM:
        with _stream_file(path) as tmp:
            yield tmp
        return
    target = _check_folder(path)
    folder, name = os.path.split(target)
    ext = os.path.splitext(name)[1]
    try:
        fd, tmp = tempfile.mkstemp(prefix=f".{name}.", suffix=f".tmp{ext}", dir=folder)
    except OSError as e:  # a folder that may not be written: named as the file the user gave
        e.filename = path
        raise
    os.close(fd)
    try:
        yield tmp
        os.chmod(tmp, _new_file_mode(target))
        os.replace(tmp, target)
    except BaseException as e:
        with suppress(OSError):
            os.unlink(tmp)
        if isinstance(e, OSError) and e.filename in (None, tmp):
            e.filename = path  # the file the user named, not the temporary one
        raise


@contextmanager
def _stream_file(path: str) -> Iterator[str]:
    """:func:`whole_file` for a device or a FIFO: a temporary file elsewhere,
    copied into ``path`` once the block ends without an error."""
    ext = os.path.splitext(path)[1]
    try:
        fd, tmp = tempfile.mkstemp(prefix="durak-", suffix=f".tmp{ext}")
    except OSError as e:  # the temporary folder refused: named, not a random name in it
        e.filename = tempfile.gettempdir()
        raise
    os.close(fd)
    try:
        yield tmp
        with open(tmp, "rb") as fh:
            _write_stream(path, fh.read())
    except OSError as e:
        raise _named(e, path, tmp)
    finally:
        with suppress(OSError):
            os.unlink(tmp)


def _write_stream(path: str, data: bytes) -> None:
    """Write ``data`` into a device or a FIFO (opened for writing, never created,
    never truncated); an error names ``path``."""
    try:
        fd = os.open(path, os.O_WRONLY | getattr(os, "O_CLOEXEC", 0))
        try:
            view = memoryview(data)
            while view:
                view = view[os.write(fd, view):]
        finally:
            os.close(fd)
    except OSError as e:
        raise _named(e, path)


def write_whole(path: str, text: str, inputs: Iterable[str] = (), option: str = "output") -> None:
    """Write ``text`` (UTF-8) to ``path`` whole or not at all (:func:`whole_file`)."""
    if target_kind(path) == STREAM:
        refuse_inputs(path, inputs, option)
        _write_stream(path, text.encode("utf-8"))
        return
    with whole_file(path, inputs, option) as tmp:
        with open(tmp, "w", encoding="utf-8") as fh:
            fh.write(text)


class LineFile:
    """A file of lines with one writer, written a whole line at a time.

    ``LineFile(path, resume=False)`` takes the file's lock (or raises
    :class:`OutputBusy`), then empties it; with ``resume=True`` it keeps the
    whole lines already there (:attr:`existing`, their text) and drops a last
    line cut short.  :meth:`write` takes whole lines (text ending in a
    newline); it is the ``write``/``flush`` of a text stream, so a caller can
    hand it on where a stream is expected.  A context manager; :meth:`close`
    releases the lock.  ``inputs``: see :func:`refuse_inputs`.
    """

    def __init__(self, path: str, resume: bool = False, inputs: Iterable[str] = (),
                 option: str = "--out"):
        refuse_inputs(path, inputs, option)
        self.path = path
        self.existing = ""
        self._stream = target_kind(path) == STREAM
        try:
            if self._stream:  # a device or a FIFO: written in place, no lock, nothing kept
                self._fd = os.open(path, os.O_WRONLY | getattr(os, "O_CLOEXEC", 0))
                self._size = 0
                return
            # no O_TRUNC: another writer's file must stay whole until the lock is ours
            fd = os.open(_check_folder(path),
                         os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o666)
        except OSError as e:
            raise _named(e, path, os.path.realpath(path))
        try:
            if fcntl is not None:
                try:
                    fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
                except BlockingIOError:
                    raise OutputBusy(f"{option}: {path!r} is being written by another process "
                                     "(another durak batch?); wait for it to end or choose "
                                     "another file") from None
            if resume:
                data = b""
                while chunk := os.read(fd, 1 << 20):
                    data += chunk
                end = data.rfind(b"\n") + 1  # a last line cut short by a kill is dropped
                self.existing = data[:end].decode("utf-8", "replace")
            else:
                end = 0
            os.ftruncate(fd, end)
            os.lseek(fd, end, os.SEEK_SET)
        except BaseException as e:
            os.close(fd)
            if isinstance(e, OSError):
                raise _named(e, path, os.path.realpath(path))
            raise
        self._fd = fd
        self._size = end

    def write(self, text: str) -> int:
        """Append ``text`` (whole lines) with one ``write``; if it fails part-way the
        file is cut back to where it was, and the error raised."""
        data = text.encode("utf-8")
        view = memoryview(data)
        try:
            while view:
                n = os.write(self._fd, view)
                view = view[n:]
        except BaseException as e:
            if not self._stream:  # a device or a FIFO has nothing to cut back
                with suppress(OSError):
                    os.ftruncate(self._fd, self._size)
                    os.lseek(self._fd, self._size, os.SEEK_SET)
            if isinstance(e, OSError):
                raise _named(e, self.path)
            raise
        self._size += len(data)
        return len(text)

    def flush(self) -> None:
        """Nothing to do: every line is written as it comes."""

    def close(self) -> None:
        if self._fd >= 0:
            os.close(self._fd)  # releases the lock
            self._fd = -1

    def __enter__(self) -> "LineFile":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class WriterLock:
    """One writer for a file written whole again and again (a game record saved after
    every move, :mod:`solver.games.session`): an advisory lock on ``.NAME.lock``
    beside it, held until :meth:`close`, a second writer refused with
    :class:`OutputBusy` (exit 2).  The record itself is replaced by a rename at
    each write, so it cannot carry the lock; the lock file is removed on close,
    and a lock taken on a lock file that was removed meanwhile is taken again.
    A stream target (a device, a FIFO) takes no lock."""

    def __init__(self, path: str, option: str = "record"):
        self.path = path
        self._fd = -1
        if target_kind(path) == STREAM:  # a device or a FIFO: no lock file beside it
            return
        folder, name = os.path.split(_check_folder(path))
        self._lock_path = os.path.join(folder, f".{name}.lock")
        while True:
            try:
                fd = os.open(self._lock_path,
                             os.O_RDWR | os.O_CREAT | getattr(os, "O_CLOEXEC", 0), 0o666)
            except OSError as e:  # named as the record the user gave
                raise _named(e, path, self._lock_path)
            if fcntl is None:
                break
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                os.close(fd)
                raise OutputBusy(f"{option}: {path!r} is open in another durak session; "
                                 "end that one first or choose another file") from None
            here, now = os.fstat(fd), _stat(self._lock_path)
            if now is not None and (here.st_dev, here.st_ino) == (now.st_dev, now.st_ino):
                break
            os.close(fd)  # the file we locked was removed by its last holder: again
        self._fd = fd

    def close(self) -> None:
        if self._fd >= 0:
            with suppress(OSError):
                os.unlink(self._lock_path)
            os.close(self._fd)  # releases the lock
            self._fd = -1

    def __enter__(self) -> "WriterLock":
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


__all__ = ["FILE", "STREAM", "LineFile", "OutputBusy", "WriterLock", "check_target",
           "refuse_inputs", "target_kind", "whole_file", "write_whole"]
