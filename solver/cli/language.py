"""The language of what `durak` tells a player (issue 64): ``--lang lt|ru|en``, else the
environment (``LANGUAGE``, ``LC_ALL``, ``LC_MESSAGES``, ``LANG``, as gettext reads them).

``--json`` answers stay English whatever is chosen: they are for programs, and so are
records and files (docs/guide/languages.md).  The option is the command group's
(``durak --lang ru review GAME``) and every command's own (``durak solve --lang lt``,
``durak puzzle list --lang ru``): :func:`on_every_command` gives it to each command the
group loads.
"""
from __future__ import annotations

from typing import Any, Callable, TypeVar

import click

from solver.i18n import LANGUAGES, set_language
from solver.i18n.choose import from_environment

F = TypeVar("F", bound=Callable[..., Any])

# whether this command line asked for --json (set before it is parsed)
_json = [False]


def start(as_json: bool) -> None:
    """The language before the options are read: the environment's (English for --json)."""
    _json[0] = as_json
    set_language("en" if as_json else from_environment())


def _chosen(ctx: click.Context, param: click.Parameter, value: str | None) -> str | None:
    if value is not None and not _json[0]:
        set_language(value)
    return value


def lang_option(f: F) -> F:
    """``--lang``: the language of the prompts, the narration, the labels and the errors."""
    return click.option("--lang", type=click.Choice(LANGUAGES), default=None, expose_value=False,
                        callback=_chosen, is_eager=True,
                        help="The language to talk in: lt (Lithuanian), ru (Russian), en "
                             "(default: LANG / LC_MESSAGES; --json is always English).")(f)


def on_every_command(command: click.Command) -> click.Command:
    """``command`` with ``--lang`` among its options, and each command of a group
    (``durak puzzle show``) too, where it is not there already."""
    if not any(p.name == "lang" for p in command.params):
        lang_option(command)  # type: ignore[arg-type]  # click adds it to the params
    for sub in getattr(command, "commands", {}).values():
        on_every_command(sub)
    return command


__all__ = ["lang_option", "on_every_command", "start"]
