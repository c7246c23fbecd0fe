"""The English a Lithuanian or Russian text may not show (issue 64, 69): every word of four
letters or more of the catalogues' English messages, but the names and the notation a
text shows in every language (:data:`ALLOWED`).  Used by the web board's pages
(tests/test_web_languages.py) and by the terminal's commands (tests/test_terminal_words.py)."""
from __future__ import annotations

import re

from solver.i18n import catalogue_json

#: English words a Lithuanian or Russian text may show: names and notation.
ALLOWED = {"durak", "solver", "json", "auto"}


def english_words() -> set[str]:
    """The English words of the catalogues' messages (four letters or more), but the
    names and the notation shown in every language (:data:`ALLOWED`)."""
    en = catalogue_json("en")["messages"]
    words = {w.lower() for k in en for w in re.findall(r"[A-Za-z]{4,}", k.split("\u0004")[-1])}
    return words - ALLOWED


ENGLISH = english_words()


def left_in_english(text: str) -> set[str]:
    """The English words of the catalogues left in ``text`` -- whole words only: "ranką"
    (Lithuanian: hand) is not the English "rank"."""
    return {w for w in re.findall(r"\b[A-Za-z]{4,}\b", text) if w.lower() in ENGLISH}
