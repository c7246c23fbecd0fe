"""The rules page of the board (``/rules``): the player-facing rules in the reader's
language, rule ids kept (docs/players/rules.{en,lt,ru}.md, shipped with the package).

The rules are Markdown files of a small, fixed form -- headings, paragraphs, list items
with a bold rule id, links, ``code`` -- so a few lines turn them into HTML here, and the
board needs no Markdown library.  Links between the three languages become links to
``/rules/LANG``; a link to a page the board does not serve keeps its text.
"""
from __future__ import annotations

import html
import re
from functools import lru_cache
from importlib import resources
from pathlib import Path

from solver.i18n import LANGUAGES

#: The rules files in a checkout (docs/players); installed: the package ``solver.rules_data``.
CHECKOUT = Path(__file__).resolve().parent.parent.parent / "docs" / "players"


def rules_text(lang: str) -> str:
    """The Markdown of the rules in ``lang``."""
    name = f"rules.{lang}.md"
    if (CHECKOUT / name).is_file():
        return (CHECKOUT / name).read_text(encoding="utf-8")
    return resources.files("solver.rules_data").joinpath(name).read_text(encoding="utf-8")


def _inline(text: str) -> str:
    out = html.escape(text, quote=False)
    out = re.sub(r"\*\*(.+?)\*\*", r"<strong>\1</strong>", out)
    out = re.sub(r"`(.+?)`", r"<code>\1</code>", out)

    def link(m: re.Match[str]) -> str:
        label, target = m.group(1), m.group(2)
        lang = re.fullmatch(r"rules\.(\w\w)\.md", target)
        if lang and lang.group(1) in LANGUAGES:
            return f'<a href="/rules/{lang.group(1)}" hreflang="{lang.group(1)}">{label}</a>'
        return label  # a page of the documentation site, which the board does not serve
    return re.sub(r"\[([^\]]+)\]\(([^)]+)\)", link, out)


def to_html(markdown: str) -> str:
    """The rules' Markdown as HTML: ``#``/``##`` headings, paragraphs, ``- `` list items
    (their continuation lines indented), each rule item with its id as an anchor."""
    out: list[str] = []
    block: list[str] = []
    kind = ""

    def flush() -> None:
        nonlocal block, kind
        if not block:
            return
        text = _inline(" ".join(block))
        if kind == "li":
            rid = re.match(r"<strong>([RPFS]\d+)\b", text)
            anchor = f' id="{rid.group(1)}"' if rid else ""
            out.append(f"<li{anchor}>{text}</li>")
        else:
            out.append(f"<p>{text}</p>")
        block, kind = [], ""

    in_list = False
    for line in markdown.splitlines():
        if line.startswith("#"):
            flush()
            if in_list:
                out.append("</ul>")
                in_list = False
            level = len(line) - len(line.lstrip("#"))
            out.append(f"<h{level + 1}>{_inline(line[level:].strip())}</h{level + 1}>")
        elif line.startswith("- "):
            flush()
            if not in_list:
                out.append("<ul class=\"rules\">")
                in_list = True
            kind, block = "li", [line[2:].strip()]
        elif not line.strip():
            flush()
            if in_list:
                out.append("</ul>")
                in_list = False
        else:
            if not block:
                kind = "p"
            block.append(line.strip())
    flush()
    if in_list:
        out.append("</ul>")
    return "\n".join(out)


@lru_cache(maxsize=8)
def rules_html(lang: str) -> str:
    """The rules in ``lang`` as the page's body."""
    return to_html(rules_text(lang))


__all__ = ["rules_html", "rules_text", "to_html"]
