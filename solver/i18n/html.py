"""The messages of an HTML page: every text a person reads, found by one walk of the
HTML, and the page with each of them translated (issue 64).

The same walk serves the catalogues' tools (:mod:`solver.i18n.tools`, which extracts the
messages) and the web board (:mod:`solver.web.pages`, which sends the pages translated),
so what is translated and what is served cannot drift apart.  A message is:

* a run of text between tags (whitespace folded: ``Position & analysis``);
* the whole inner HTML of an element marked ``data-i18n`` (a sentence with a link or a
  ``<code>`` inside it stays one message, its tags kept by the translation);
* the attributes a person reads: ``title``, ``placeholder``, ``aria-label``, ``alt``.

An element marked ``data-i18n-context="CONTEXT"`` gives the texts inside it that context
(gettext's ``pgettext``): a short word such as a page link's ``Review`` (the review page)
is then not the ``Review`` of a button (review this game).  Such a message's id is
``CONTEXT\x04TEXT``, as the catalogues and the board's script (``pgt``) write it.

Left alone: ``<script>``, ``<style>``, ``<code>``, ``<kbd>`` and any element marked
``translate="no"`` (HTML's own flag: notation, example positions), and text with no
letter in it.
"""
from __future__ import annotations

import html
import re
from html.parser import HTMLParser
from typing import Callable

#: Attributes whose values a person reads.
ATTRIBUTES = ("title", "placeholder", "aria-label", "alt")
#: Elements whose content is never translated.
SKIPPED = {"script", "style", "code", "kbd", "samp"}
VOID = {"area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
        "track", "wbr"}
_LETTER = re.compile(r"[^\W\d_]")


def fold(text: str) -> str:
    """Whitespace folded to single spaces, as a message id holds it."""
    return " ".join(text.split())


class _Walk(HTMLParser):
    """Finds every message of a page with where it lies: ``(start, end, kind, msgid,
    line)`` -- ``text`` (plain text, to escape), ``html`` (inner HTML, kept as HTML),
    ``attr`` (an attribute's value)."""

    def __init__(self, source: str):
        super().__init__(convert_charrefs=True)
        self.source = source
        self.line_starts = [0] + [m.end() for m in re.finditer("\n", source)]
        self._found: list[tuple[int, int, str, str, int]] = []
        # tag, skipped, data-i18n start, the context of the texts inside
        self.stack: list[tuple[str, bool, int | None, str | None]] = []
        self.text_start: int | None = None
        self._text = ""

    def _at(self) -> int:
        line, col = self.getpos()
        return self.line_starts[line - 1] + col

    def skipping(self) -> bool:
        return bool(self.stack) and self.stack[-1][1]

    def context(self, msgid: str) -> str:
        """``msgid`` in the context of the element it lies in (``CONTEXT\x04msgid``)."""
        ctx = self.stack[-1][3] if self.stack else None
        return f"{ctx}\x04{msgid}" if ctx else msgid

    def _end_text(self) -> None:
        if self.text_start is not None:
            end = self._at()
            if not self.skipping() and _LETTER.search(self._text) and fold(self._text):
                self._found.append((self.text_start, end, "text",
                                    self.context(fold(self._text)), self.getpos()[0]))
            self.text_start = None
            self._text = ""

    def handle_data(self, data: str) -> None:
        if self.text_start is None:
            self.text_start = self._at()
        self._text += data

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self._end_text()
        start = self._at()
        raw = self.get_starttag_text() or ""
        a = dict(attrs)
        skipped = self.skipping() or tag in SKIPPED or a.get("translate") == "no"
        if not skipped:
            for name in ATTRIBUTES:
                value = a.get(name)
                if not value or not _LETTER.search(value):
                    continue
                m = re.search(rf'\s{name}\s*=\s*(["\'])(.*?)\1', raw, re.S)
                if m:
                    self._found.append((start + m.start(2), start + m.end(2), "attr",
                                       fold(value), self.getpos()[0]))
        if tag in VOID:
            return
        inner = start + len(raw) if ("data-i18n" in a and not skipped) else None
        context = a.get("data-i18n-context") or (self.stack[-1][3] if self.stack else None)
        # the inside of a data-i18n element is one message: nothing in it on its own
        self.stack.append((tag, skipped or inner is not None, inner, context))

    def handle_startendtag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.handle_starttag(tag, attrs)
        if tag not in VOID and self.stack and self.stack[-1][0] == tag:
            self.stack.pop()

    def handle_endtag(self, tag: str) -> None:
        self._end_text()
        end = self._at()
        while self.stack:
            name, _, inner, _ctx = self.stack[-1]
            if inner is not None:
                msgid = fold(self.source[inner:end])
                if msgid:
                    self._found.append((inner, end, "html", self.context(msgid),
                                        self.getpos()[0]))
            self.stack.pop()
            if name == tag:
                break

    def handle_comment(self, data: str) -> None:
        self._end_text()

    def handle_decl(self, decl: str) -> None:
        self._end_text()

    def close(self) -> None:
        super().close()
        self._end_text()


def _walk(source: str) -> list[tuple[int, int, str, str, int]]:
    w = _Walk(source)
    w.feed(source)
    w.close()
    return sorted(w._found)


def messages(source: str) -> list[tuple[int, str]]:
    """A page's messages, each with its line (the extraction tool's view of the page);
    a message with a context is ``CONTEXT\x04TEXT``."""
    return [(line, msgid) for _, _, _, msgid, line in _walk(source)]


def translate(source: str, gettext: Callable[[str], str], lang: str) -> str:
    """``source`` with every message translated by ``gettext`` and ``<html lang>`` set."""
    out: list[str] = []
    pos = 0
    for start, end, kind, msgid, _ in _walk(source):
        raw = source[start:end]
        text = gettext(msgid)
        if "\x04" in text:  # a message with a context the catalogue lacks: its text
            text = text.split("\x04", 1)[1]
        if kind == "text":
            lead = raw[: len(raw) - len(raw.lstrip())]
            trail = raw[len(raw.rstrip()):]
            text = lead + html.escape(text, quote=False) + trail
        elif kind == "attr":
            text = html.escape(text, quote=True)
        out.append(source[pos:start])
        out.append(text)
        pos = end
    out.append(source[pos:])
    return re.sub(r'<html lang="[^"]*"', f'<html lang="{lang}"', "".join(out), count=1)


__all__ = ["ATTRIBUTES", "fold", "messages", "translate"]
