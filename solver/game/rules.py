"""Rule options of RULES.md (R1, R7, R10, R12, R14, R21, R22).

A :class:`Rules` value is immutable and hashable: it travels inside every game
state and is part of every cache key.  ``parse_rules("transfer,deck=24")`` and
``str(rules)`` are a parse/format pair.
"""
from __future__ import annotations

from dataclasses import dataclass

from solver.errors import OptionError
from solver.i18n import _

#: R5, R17: cards dealt to each seat and drawn back up to after a bout.
HAND_SIZE = 6
#: R10 option ``first_bout_limit=5``: the cap of the first bout.
FIRST_BOUT_CAP = 5

#: Boolean options: the attribute of :class:`Rules` and the option's name, in the
#: canonical order they are written in.  The one list of them: the names, the
#: parser and the compiled core's flags (``solver._core.RULE_FLAGS``) follow it.
FLAG_OPTIONS = (
    ("transfer", "transfer"),
    ("transfer_by_trump_show", "transfer_by_trump_show"),
    ("throw_in_neighbours", "throw_in=neighbours"),
    ("first_bout_limit", "first_bout_limit=5"),
    ("trump_swap", "trump_swap"),
    ("first_out_wins", "first_out_wins"),
    ("teams", "teams=2v2"),
)
#: Every option name, in canonical order.
OPTION_NAMES = tuple(name for _flag, name in FLAG_OPTIONS) + ("deck=24", "deck=52")


@dataclass(frozen=True)
class Rules:
    """The options a game is played with; the default is plain podkidnoy, 36 cards."""

    transfer: bool = False                 # R14
    transfer_by_trump_show: bool = False   # R14, the show variant
    throw_in_neighbours: bool = False      # R12 option
    first_bout_limit: bool = False         # R10 option: first bout at most 5
    trump_swap: bool = False               # R7
    first_out_wins: bool = False           # R21
    teams: bool = False                    # R22, 2v2 with four players
    deck: int = 36                         # R1

    def names(self) -> list[str]:
        """The options that are on, in the canonical order of :data:`OPTION_NAMES`."""
        out = [name for attr, name in FLAG_OPTIONS if getattr(self, attr)]
        if self.deck != 36:
            out.append(f"deck={self.deck}")
        return out

    def __str__(self) -> str:
        return ",".join(self.names())

    @property
    def any_transfer(self) -> bool:
        """Either transfer option is on (a show is also a transfer, R14)."""
        return self.transfer or self.transfer_by_trump_show


_BY_NAME = {name: attr for attr, name in FLAG_OPTIONS}


def parse_rules(text: str | list[str] | tuple[str, ...] | None) -> Rules:
    """Rules from ``"transfer,throw_in=neighbours"`` or a list of option names.

    Raises ``ValueError`` naming the unknown option.
    """
    if text is None:
        return Rules()
    if isinstance(text, str):
        items = [t.strip() for t in text.replace(" ", ",").split(",")]
    else:
        items = [str(t).strip() for t in text]
    kw: dict[str, object] = {}
    seen: set[str] = set()
    for item in items:
        if not item:
            continue
        key = item.lower()
        if key in seen:
            raise OptionError(_("option {option} is given twice").format(option=repr(item)))
        seen.add(key)
        flag = _BY_NAME.get(key)
        if flag is not None:
            kw[flag] = True
        elif key in ("deck=24", "deck=36", "deck=52"):
            deck = int(key[5:])
            if "deck" in kw and kw["deck"] != deck:
                raise OptionError(_("conflicting deck options: deck={deck} and {option}").format(
                    deck=kw["deck"], option=repr(item)))
            kw["deck"] = deck
        else:
            raise OptionError(_("unknown option {option} (known: {known})").format(
                option=repr(item), known=", ".join(OPTION_NAMES)))
    return Rules(**kw)  # type: ignore[arg-type]


def bout_cap(rules: Rules, out: int) -> int:
    """R10: the cap of a bout -- 6, or 5 in the first bout under ``first_bout_limit=5``.

    Project reading (docs/rules.md, "First bout"): a bout is still the first
    while nothing has been discarded (``out`` is the discard pile's mask), so
    a take in the first bout keeps the cap of 5 for the next one, also in a
    deal with no pile at all.
    """
    return FIRST_BOUT_CAP if rules.first_bout_limit and out == 0 else HAND_SIZE
