"""Compiling the catalogues: each ``solver/locale/LANG/LC_MESSAGES/durak.po`` to the
``durak.mo`` beside it, which Python's :mod:`gettext` reads at run time.

Run by the package's build (``setup.py``, so ``pip install .`` and the sdist compile
them; Babel is a build requirement there) and by ``python -m solver.i18n.tools
compile`` after a catalogue is edited.  This module needs Babel and the standard
library only: ``setup.py`` loads it by its path, before the package is installed.
"""
from __future__ import annotations

import io
import os
from pathlib import Path


def compile_catalogues(locale_dir: Path) -> list[Path]:
    """Write every catalogue's ``.mo`` under ``locale_dir`` (a file whose bytes would not
    change is left alone); fuzzy entries are left out, as gettext's own ``msgfmt`` does.
    Returns the ``.mo`` files written."""
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    written: list[Path] = []
    for po in sorted(Path(locale_dir).glob("*/LC_MESSAGES/*.po")):
        lang = po.parent.parent.name
        with po.open("rb") as f:
            catalogue = read_po(f, locale=lang, domain=po.stem)
        buf = io.BytesIO()
        write_mo(buf, catalogue, use_fuzzy=False)
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.read_bytes() == buf.getvalue():
            continue
        tmp = mo.with_name(mo.name + ".tmp")
        tmp.write_bytes(buf.getvalue())
        os.replace(tmp, mo)
        written.append(mo)
    return written


__all__ = ["compile_catalogues"]
