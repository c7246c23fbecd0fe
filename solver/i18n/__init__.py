"""The languages a player meets the game in: English, Lithuanian, Russian (issue 64).

The words live as data, in gettext catalogues (``solver/locale/LANG/LC_MESSAGES/durak.po``,
compiled to ``.mo`` when the package is built: :mod:`solver.i18n.tools`); the code marks
its messages with :func:`_`, :func:`ngettext` (plural forms: Lithuanian and Russian have
three) and :func:`pgettext` (a word whose sense needs a context, such as a rank letter),
and Python's own :mod:`gettext` reads the compiled catalogues at run time -- no Babel
needed to run.  The web board reads the same catalogues as JSON (:func:`catalogue_json`).

One language is current at a time: the process's (``durak --lang``, ``LANG``;
:func:`set_language`) unless a context says otherwise (:func:`use_language`: one web
request, in the language its browser asked for).  ``--json``, records and files stay in
the canonical English notation whatever the language (docs/guide/languages.md).
"""
from __future__ import annotations

import contextlib
import contextvars
import gettext
from functools import lru_cache
from pathlib import Path
from typing import Any, Iterator

#: The languages the catalogues hold, English first (the message ids are English).
LANGUAGES = ("en", "lt", "ru")
#: Each language's own name, as the switcher shows it.
LANGUAGE_NAMES = {"en": "English", "lt": "Lietuvių", "ru": "Русский"}
DEFAULT = "en"
#: The catalogues' domain: ``durak.po`` / ``durak.mo``.
DOMAIN = "durak"
LOCALE_DIR = Path(__file__).resolve().parent.parent / "locale"

# the process's language (the command line's), and a context's own (a web request's)
_process = [DEFAULT]
_context: contextvars.ContextVar[str | None] = contextvars.ContextVar("durak_language",
                                                                      default=None)


@lru_cache(maxsize=None)
def translations(lang: str) -> gettext.NullTranslations:
    """The compiled catalogue of ``lang``; the message ids themselves (English) when
    it is missing (a source tree whose catalogues were never compiled)."""
    try:
        return gettext.translation(DOMAIN, str(LOCALE_DIR), [lang])
    except OSError:
        return gettext.NullTranslations()


def current() -> str:
    """The language texts are written in now."""
    return _context.get() or _process[0]


def set_language(lang: str) -> None:
    """The process's language (one of :data:`LANGUAGES`)."""
    _process[0] = lang if lang in LANGUAGES else DEFAULT


@contextlib.contextmanager
def use_language(lang: str) -> Iterator[None]:
    """Texts written inside the block are in ``lang`` (this context only: one request)."""
    token = _context.set(lang if lang in LANGUAGES else DEFAULT)
    try:
        yield
    finally:
        _context.reset(token)


def _(message: str) -> str:
    """``message`` (English, the message id) in the current language."""
    return translations(current()).gettext(message)


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form for ``n`` of a message with plural forms: English has two, Lithuanian
    and Russian three (1, 21 / 2, 22 / 5, 25, 11)."""
    return translations(current()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in its ``context`` (``pgettext("card rank", "J")`` is ``В`` in Russian)."""
    return translations(current()).pgettext(context, message)


def N_(message: str) -> str:
    """Marks a message for the catalogues where it is defined (a table built at import);
    :func:`_` translates it where it is used."""
    return message


def plural_forms(lang: str) -> str:
    """The catalogue's plural rule, a C expression in ``n`` (its ``Plural-Forms`` header)."""
    header = translations(lang).info().get("plural-forms", "nplurals=2; plural=(n != 1);")
    return header.split("plural=", 1)[1].strip().rstrip(";")


#: How each language writes numbers, as CLDR (and Babel) does: the group and decimal
#: separators and the percent sign's place (a no-break space before it in Lithuanian
#: and Russian).  A table, not Babel, so that a command starts without loading it;
#: tests/test_i18n.py holds it to Babel's formats.
NUMBER_FORMATS = {"en": (",", ".", "{}%"), "lt": ("\u00a0", ",", "{}\u00a0%"),
                  "ru": ("\u00a0", ",", "{}\u00a0%")}


def number(x: float, digits: int = 0) -> str:
    """``x`` with ``digits`` decimals as the current language writes it
    (``2,540,736`` / ``2 540 736``; ``0.41`` / ``0,41``)."""
    group, point, _pct = NUMBER_FORMATS.get(current(), NUMBER_FORMATS[DEFAULT])
    text = f"{x:,.{digits}f}"
    return text.replace(",", "\0").replace(".", point).replace("\0", group)


def as_given(x: float) -> str:
    """``x`` with the decimals it was given (at most three: ``2.5`` -> ``2,5`` in
    Lithuanian, ``10`` -> ``10``), as the current language writes numbers: a time
    budget, a threshold typed on the command line."""
    digits = next((d for d in range(3) if abs(round(x, d) - x) < 1e-9), 3)
    return number(x, digits)


def percent(share: float, digits: int = 0) -> str:
    """A share (0..1) as a percentage with ``digits`` decimals in the current language
    (``72%`` / ``72 %``; ``72.5%`` / ``72,5 %``)."""
    pattern = NUMBER_FORMATS.get(current(), NUMBER_FORMATS[DEFAULT])[2]
    return pattern.format(number(100 * share, digits))


def catalogue_json(lang: str) -> dict[str, Any]:
    """The whole catalogue of ``lang`` for the web board's script: each message id to its
    text (a list of forms where it has plural forms; ``context\\u0004id`` where it has a
    context) and the plural rule to pick a form by."""
    t = translations(lang)
    raw: dict[Any, str] = getattr(t, "_catalog", {})  # gettext keeps the .mo's entries here
    messages: dict[str, Any] = {}
    for key, text in raw.items():
        if isinstance(key, tuple):
            msgid, index = key
            forms = messages.setdefault(msgid, [])
            forms.extend([""] * (index + 1 - len(forms)))
            forms[index] = text
        elif key:
            messages[key] = text
    return {"lang": lang, "plural": plural_forms(lang), "messages": messages}


__all__ = ["DEFAULT", "DOMAIN", "LANGUAGES", "LANGUAGE_NAMES", "LOCALE_DIR", "NUMBER_FORMATS",
           "N_", "_", "as_given", "catalogue_json", "current", "ngettext", "number", "percent", "pgettext",
           "plural_forms", "set_language", "translations", "use_language"]
