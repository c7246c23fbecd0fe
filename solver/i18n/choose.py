"""Which language a player gets: from the command line and the environment at the
terminal, from the browser at the web board.

At the terminal ``--lang`` decides, else the environment as gettext reads it
(``LANGUAGE``, then ``LC_ALL``, ``LC_MESSAGES``, ``LANG``: ``lt_LT.UTF-8`` is
Lithuanian); at the board the switcher's choice (a cookie, remembered), else the
browser's ``Accept-Language`` (its first language the catalogues hold).  English
where nothing matches.
"""
from __future__ import annotations

import os
from typing import Mapping

from solver.i18n import DEFAULT, LANGUAGES

#: The cookie the board's language switcher sets (a year long).
COOKIE = "durak_lang"
#: The environment's variables, in the order gettext reads them.
ENV_VARS = ("LANGUAGE", "LC_ALL", "LC_MESSAGES", "LANG")


def language_of(tag: str) -> str | None:
    """The catalogue a locale or language tag names: ``lt_LT.UTF-8``, ``ru-RU``, ``RU``
    -> ``lt``, ``ru``; None for one the catalogues do not hold (``C``, ``de``)."""
    base = tag.strip().split(".")[0].split("@")[0].replace("_", "-").split("-")[0].lower()
    return base if base in LANGUAGES else None


def from_environment(environ: Mapping[str, str] | None = None) -> str:
    """The language the environment asks for (gettext's order; ``LANGUAGE`` may list
    several, ``lt:ru:en``), English when it names none the catalogues hold."""
    env = os.environ if environ is None else environ
    for var in ENV_VARS:
        value = env.get(var, "").strip()
        if not value:
            continue
        if value in ("C", "POSIX") or value.startswith(("C.", "POSIX.")):
            return DEFAULT
        for part in value.split(":") if var == "LANGUAGE" else [value]:
            lang = language_of(part)
            if lang is not None:
                return lang
        if var != "LANGUAGE":  # LC_ALL=de_DE: German asked for, English given
            return DEFAULT
    return DEFAULT


def from_accept_language(header: str | None) -> str:
    """The browser's first language (by its ``q`` weights) that the catalogues hold."""
    if not header:
        return DEFAULT
    ranked: list[tuple[float, int, str]] = []
    for i, item in enumerate(header.split(",")):
        tag, _, params = item.strip().partition(";")
        q = 1.0
        for p in params.split(";"):
            key, _, value = p.strip().partition("=")
            if key.strip().lower() == "q":
                try:
                    q = float(value)
                except ValueError:
                    q = 0.0
        lang = language_of(tag) if tag and tag != "*" else None
        if lang is not None and q > 0:
            ranked.append((-q, i, lang))
    return min(ranked)[2] if ranked else DEFAULT


def for_request(cookies: Mapping[str, str], accept_language: str | None) -> str:
    """A request's language: the switcher's cookie, else ``Accept-Language``."""
    chosen = language_of(cookies.get(COOKIE, ""))
    return chosen or from_accept_language(accept_language)


__all__ = ["COOKIE", "ENV_VARS", "for_request", "from_accept_language", "from_environment",
           "language_of"]
