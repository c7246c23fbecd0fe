"""The pages in the reader's language: each page of ``templates/`` rendered from the one
base layout (Jinja2: ``base.html`` holds the head, the manifest, the navigation and the
pairing state; each page extends it), its words translated on the way out
(:mod:`solver.i18n.html`: every text of a page is a message of the catalogues),
``<html lang>`` set, the language switcher in the header and, before ``</head>``, the
catalogue as JSON (``<script id="durak-i18n">``, :func:`solver.i18n.catalogue_json`) for
the page's script, ``i18n.js`` (issues 64, 72).
"""
from __future__ import annotations

import html
import json
from functools import lru_cache
from pathlib import Path

import jinja2

from solver.i18n import LANGUAGE_NAMES, LANGUAGES, N_, catalogue_json, translations
from solver.i18n.html import messages, translate
from solver.web.rulespage import rules_html

STATIC = Path(__file__).resolve().parent / "static"
TEMPLATES = Path(__file__).resolve().parent / "templates"
#: The pages (``templates/NAME.html``); ``base.html`` is their layout.
PAGES = ("index", "follow", "review", "puzzles", "rules", "pair")
_ENV = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True,
                          undefined=jinja2.StrictUndefined, auto_reload=True)


def source(name: str, pair_link: bool = False, paired: bool = False) -> str:
    """The page ``name`` in English, rendered from its template: ``pair_link`` (a board
    served to the network, asked from this computer) adds *Pair a phone* to the
    navigation, ``paired`` (asked from a paired device) says so."""
    return _ENV.get_template(f"{name}.html").render(pair_link=pair_link, paired=paired)


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


@lru_cache(maxsize=128)
def _render(name: str, lang: str, pair_link: bool, paired: bool, stamp: float) -> str:
    page = translate(source(name, pair_link, paired), translations(lang).gettext, lang)
    page = page.replace("<!--lang-switch-->", switcher(lang), 1)
    data = json.dumps(catalogue_json(lang), ensure_ascii=False).replace("</", "<\\/")
    script = f'<script id="durak-i18n" type="application/json">{data}</script>\n'
    return page.replace("</head>", script + "</head>", 1)


def render_page(name: str, lang: str, pair_link: bool = False, paired: bool = False) -> str:
    """The page ``templates/NAME.html`` in ``lang``, with its catalogue (``pair_link``,
    ``paired``: :func:`source`); the rules page with the rules in ``lang``
    (:mod:`solver.web.rulespage`)."""
    stamp = max((TEMPLATES / f"{name}.html").stat().st_mtime,
                (TEMPLATES / "base.html").stat().st_mtime)
    page = _render(name, lang, pair_link, paired, stamp)
    if name == "rules":
        page = page.replace("<!--rules-->", rules_html(lang), 1)
    return page


__all__ = ["PAGES", "STATIC", "TEMPLATES", "messages", "render_page", "source", "switcher"]
