"""Reading a file a user named: its text, or one error that names the file.

A file durak reads because a user named it -- a model (``--model``,
``hint-fast-learn=FILE``), a puzzle collection, a data folder's spec -- may be
anything: a folder, a file the user may not read, a binary file, text in
another encoding.  ``Path.read_text`` lets a ``UnicodeDecodeError`` out for the
last two, which is a ``ValueError`` but no :class:`~solver.errors.DurakError`,
so a command reported it as an internal error (exit 1, "internal error:
UnicodeDecodeError").  :func:`read_user_text` turns every such refusal into
one :class:`UnreadableFile`, an :class:`~solver.errors.OptionError` (exit 2)
that says which file and what is wrong with it.  The inputs of the commands themselves (POSITION, GAME,
batch's IN) are read by :func:`solver.cli.common.read_input`, which also waits
for a FIFO and caps the size; this is the reader for the files below the
command line.
"""
from __future__ import annotations

import os
from pathlib import Path

from solver.errors import OptionError


class UnreadableFile(OptionError):
    """A file a user named that cannot be read as text: ``what`` it was meant as,
    its ``path`` as given, and the ``problem`` (the system's reason, or its size
    or encoding)."""

    def __init__(self, what: str, path: str, problem: str):
        self.what, self.path, self.problem = what, path, problem
        super().__init__(f"{what} {path!r}: {problem}")


def read_user_text(path: str | os.PathLike[str], what: str,
                   max_bytes: int | None = None) -> str:
    """The UTF-8 text of the file ``path`` that a user named as ``what`` (``"model"``,
    ``"puzzle collection"``): any file the system refuses, one larger than
    ``max_bytes``, and one that is not UTF-8 text is an :class:`UnreadableFile`
    naming it (``model 'm.json': not UTF-8 text (byte 0xff at offset 0)``)."""
    name = os.fspath(path)
    p = Path(path)
    try:
        if max_bytes is not None and p.stat().st_size > max_bytes:
            raise UnreadableFile(what, name, f"larger than {_size(max_bytes)}")
        data = p.read_bytes()
    except OSError as e:
        raise UnreadableFile(what, name, e.strerror or str(e)) from None
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise UnreadableFile(what, name, f"not UTF-8 text (byte 0x{data[e.start]:02x} at "
                                         f"offset {e.start:,})") from None


def _size(n: int) -> str:
    """``8 MB`` for a whole number of MiB, else the bytes."""
    return f"{n >> 20} MB" if n >= 1 << 20 and n % (1 << 20) == 0 else f"{n:,} bytes"


__all__ = ["UnreadableFile", "read_user_text"]
