"""The catalogues' tools (``pip install '.[tools]'``): what a translator or a developer
runs after changing a message (docs/guide/languages.md).

``python -m solver.i18n.tools extract``
    every message the code marks -- Python (``_``, ``ngettext``, ``pgettext``, ``N_``),
    the board's scripts (``gt``, ``ngt``, ``pgt``) and pages (:mod:`solver.i18n.html`)
    -- into ``solver/locale/durak.pot``;
``update``
    the template merged into each language's ``.po`` (new messages empty, gone ones
    dropped; English's texts are its ids);
``compile``
    every ``.po`` to its ``.mo`` (the build does this too);
``check``
    what a catalogue lacks: a message untranslated or fuzzy, a placeholder (``{n}``)
    that differs from the English, a missing plural form; exit 1 if anything.
"""
from __future__ import annotations

import copy
import re
import sys
from pathlib import Path
from typing import Any, Iterator

import jinja2

from solver.i18n import DOMAIN, LANGUAGES, LOCALE_DIR
from solver.i18n.compile import compile_catalogues
from solver.i18n.html import messages as page_messages

ROOT = LOCALE_DIR.parent
TEMPLATE = LOCALE_DIR / f"{DOMAIN}.pot"
PYTHON_KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2)}
JS_KEYWORDS = {"gt": None, "ngt": (1, 2), "pgt": ((1, "c"), 2)}
#: The header fields of each language's catalogue.
PLURALS = {"en": "nplurals=2; plural=(n != 1);",
           "lt": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && "
                 "(n%100<10 || n%100>=20) ? 1 : 2);",
           "ru": "nplurals=3; plural=(n%10==1 && n%100!=11 ? 0 : n%10>=2 && n%10<=4 && "
                 "(n%100<10 || n%100>=20) ? 1 : 2);"}
PLACEHOLDER = re.compile(r"\{[a-z_][a-z_0-9]*\}")
TAG = re.compile(r"<[^>]+>")


def _html(fileobj: Any, keywords: Any, comment_tags: Any, options: Any
          ) -> Iterator[tuple[int, str | None, str | tuple[str, str], list[str]]]:
    """Babel's extraction method for the board's pages."""
    for line, msgid in page_messages(fileobj.read().decode("utf-8")):
        if "\x04" in msgid:  # data-i18n-context: a message with its context
            context, text = msgid.split("\x04", 1)
            yield line, "pgettext", (context, text), []
        else:
            yield line, None, msgid, []


def _template(fileobj: Any, keywords: Any, comment_tags: Any, options: Any
              ) -> Iterator[tuple[int, str | None, str | tuple[str, str], list[str]]]:
    """Babel's extraction method for the board's page templates: each page rendered from
    its layout (every part of it shown: the pairing link and mark too), then walked as
    the server walks it to translate it (solver/web/pages.py)."""
    env = jinja2.Environment(loader=jinja2.FileSystemLoader(str(TEMPLATES)), autoescape=True)
    page = env.get_template(Path(fileobj.name).name).render(pair_link=True, paired=True)
    for line, msgid in page_messages(page):
        if "\x04" in msgid:  # data-i18n-context: a message with its context
            context, text = msgid.split("\x04", 1)
            yield line, "pgettext", (context, text), []
        else:
            yield line, None, msgid, []


#: The board's page templates (``base.html`` is their layout: its words come with each page).
TEMPLATES = ROOT / "web" / "templates"


def extract() -> Any:
    """The template: every marked message of the package, with where it is used."""
    from babel.messages.catalog import Catalog
    from babel.messages.extract import extract_from_file

    template = Catalog(domain=DOMAIN, project="durak-solver", charset="utf-8")
    sources: list[tuple[Path, Any, dict[str, Any]]] = []
    for p in sorted((ROOT).rglob("*.py")):
        sources.append((p, "python", PYTHON_KEYWORDS))
    static = ROOT / "web" / "static"
    for p in sorted(static.glob("*.js")):
        sources.append((p, "javascript", JS_KEYWORDS))
    for p in sorted(static.glob("*.html")):
        sources.append((p, _html, {"_": None, "pgettext": PYTHON_KEYWORDS["pgettext"]}))
    for p in sorted(TEMPLATES.glob("*.html")):
        if p.name != "base.html":
            sources.append((p, _template, {"_": None, "pgettext": PYTHON_KEYWORDS["pgettext"]}))
    for path, method, keywords in sources:
        rel = path.relative_to(ROOT.parent).as_posix()
        for line, msg, comments, context in extract_from_file(
                method, str(path), keywords=keywords or {"_": None}, comment_tags=("L10N:",),
                strip_comment_tags=True):
            template.add(msg, None, [(rel, line)], auto_comments=comments, context=context)
    return template


def _read(path: Path, lang: str) -> Any:
    from babel.messages.pofile import read_po
    with path.open("rb") as f:
        return read_po(f, locale=lang, domain=DOMAIN)


def _write(path: Path, catalogue: Any) -> None:
    from babel.messages.pofile import write_po
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as f:
        write_po(f, catalogue, width=99, sort_output=False, include_previous=False)


def po_path(lang: str) -> Path:
    return LOCALE_DIR / lang / "LC_MESSAGES" / f"{DOMAIN}.po"


def update() -> None:
    """The template written, and merged into each language's catalogue."""
    from babel.messages.catalog import Catalog

    template = extract()
    _write(TEMPLATE, template)
    for lang in LANGUAGES:
        path = po_path(lang)
        cat = _read(path, lang) if path.exists() else Catalog(locale=lang, domain=DOMAIN)
        cat.update(copy.deepcopy(template), no_fuzzy_matching=True)  # its messages are kept
        cat.fuzzy = False
        cat.obsolete.clear()
        cat.project = "durak-solver"
        if lang == "en":  # the English texts are the message ids themselves
            for m in cat:
                if m.id and not m.string or (isinstance(m.id, tuple) and not any(m.string or ())):
                    m.string = m.id
                    m.flags.discard("fuzzy")
        _write(path, cat)


def problems(lang: str, path: Path | None = None, template: Any = None) -> list[str]:
    """What ``lang``'s catalogue (``path``: its own by default) lacks against the template
    of the code as it is (``template``: extracted by default)."""
    template = extract() if template is None else template
    path = po_path(lang) if path is None else path
    if not path.exists():
        return [f"{path}: missing"]
    cat = _read(path, lang)
    out: list[str] = []
    nforms = int(PLURALS[lang].split(";")[0].split("=")[1])
    for m in template:
        if not m.id:
            continue
        key = m.id if not isinstance(m.id, tuple) else m.id[0]
        got = cat.get(key, context=m.context)
        name = f"{lang}: {key!r}" + (f" ({m.context})" if m.context else "")
        if got is None:
            out.append(f"{name}: missing")
            continue
        if got.fuzzy:
            out.append(f"{name}: fuzzy")
        strings = list(got.string) if isinstance(got.string, tuple) else [got.string]
        if isinstance(m.id, tuple) and len(strings) != nforms:
            out.append(f"{name}: {len(strings)} plural forms, {nforms} wanted")
        wanted = set(PLACEHOLDER.findall(" ".join(m.id) if isinstance(m.id, tuple) else m.id))
        tags = sorted(TAG.findall(key))
        for s in strings:
            if tags and sorted(TAG.findall(s)) != tags:  # a page's link or code kept as it is
                out.append(f"{name}: its HTML tags differ from the English")
                break
            if not s:
                out.append(f"{name}: untranslated")
                break
            found = set(PLACEHOLDER.findall(s))
            # a plural form may leave out {n} ("одну карту"), never add a name the code lacks
            if found != wanted:
                out.append(f"{name}: placeholders {sorted(found)} differ from {sorted(wanted)}")
                break
    ids = {(m.id if not isinstance(m.id, tuple) else m.id[0], m.context) for m in template}
    for m in cat:
        key = m.id if not isinstance(m.id, tuple) else m.id[0]
        if m.id and (key, m.context) not in ids:
            out.append(f"{lang}: {key!r}: not used by the code (run `update`)")
    return out


def main(argv: list[str]) -> int:
    what = argv[0] if argv else ""
    if what == "extract":
        _write(TEMPLATE, extract())
    elif what == "update":
        update()
    elif what == "compile":
        for mo in compile_catalogues(LOCALE_DIR):
            print(f"compiled {mo}")
    elif what == "check":
        found = [p for lang in LANGUAGES for p in problems(lang)]
        for p in found:
            print(p)
        return 1 if found else 0
    else:
        print("usage: python -m solver.i18n.tools extract|update|compile|check", file=sys.stderr)
        return 2
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
