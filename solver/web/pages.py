"""The pages in the reader's language: the HTML of ``static/`` with its words translated
on the way out (:mod:`solver.i18n.html`: every text of a page is a message of the
catalogues), ``<html lang>`` set, the language switcher in the header and, before
``</head>``, the catalogue as JSON (``<script id="durak-i18n">``,
:func:`solver.i18n.catalogue_json`) for the page's script, ``i18n.js`` (issue 64).
"""
from __future__ import annotations

import html
import json
from functools import lru_cache
from pathlib import Path

from solver.i18n import LANGUAGE_NAMES, LANGUAGES, N_, catalogue_json, translations
from solver.i18n.html import messages, translate
from solver.web.rulespage import rules_html

STATIC = Path(__file__).resolve().parent / "static"
def switcher(lang: str) -> str:
    """The language switcher every page's header shows (``i18n.js`` makes it work)."""
    # the codes keep the header to one line on a laptop; each option's name in its own
    # language says which is which
    options = "".join(f'<option value="{code}"{" selected" if code == lang else ""} '
                      f'title="{LANGUAGE_NAMES[code]}" lang="{code}">{code.upper()}</option>'
                      for code in LANGUAGES)
    label = html.escape(translations(lang).gettext(N_("Language")), quote=True)
    return (f'<select id="lang-switch" class="lang-switch" aria-label="{label}" '
            f'title="{label}">{options}</select>')


@lru_cache(maxsize=64)
def _render(name: str, lang: str, stamp: float) -> str:
    source = (STATIC / f"{name}.html").read_text(encoding="utf-8")
    page = translate(source, translations(lang).gettext, lang)
    page = page.replace("<!--lang-switch-->", switcher(lang), 1)
    data = json.dumps(catalogue_json(lang), ensure_ascii=False).replace("</", "<\\/")
    script = f'<script id="durak-i18n" type="application/json">{data}</script>\n'
    return page.replace("</head>", script + "</head>", 1)


def render_page(name: str, lang: str) -> str:
    """The page ``static/NAME.html`` in ``lang``, with its catalogue; the rules page with
    the rules in ``lang`` (:mod:`solver.web.rulespage`)."""
    page = _render(name, lang, (STATIC / f"{name}.html").stat().st_mtime)
    if name == "rules":
        page = page.replace("<!--rules-->", rules_html(lang), 1)
    return page


__all__ = ["STATIC", "messages", "render_page", "switcher"]
