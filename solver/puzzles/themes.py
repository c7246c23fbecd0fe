"""Themes found, not typed: what a puzzle's solution line shows (issue 70).

One small predicate per theme over the puzzle and its principal variation, as
lichess-puzzler's ``cook.py`` has one per chess motif: a new theme is one function,
one line of :data:`THEMES` and a test on real puzzles.  :func:`detect` lists the
themes of a puzzle; :func:`title_and_comment` writes a mined puzzle's title and its
one-line comment from them, in any language of the catalogues (the theme names,
titles and the comment's template are message ids).

The theme names are the tag vocabulary of ``puzzles/motifs.toml`` (``throw-in``,
``squeeze``, ``forced take`` ...) plus a few the hand-made studies never tagged
(``quiet move``, ``sacrifice``, ``coalition dodged``, ``long line``), so the hand-made
studies' tags are what the detector finds (tests/test_puzzle_themes.py).
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache
from typing import Callable

from solver.game.cards import cards_of
from solver.game.movegen import legal_moves, play
from solver.game.moves import Kind, Move
from solver.game.state import GameState
from solver.i18n import N_, _, ngettext, number, use_language
from solver.notation import parse_position
from solver.policy.bots import card_cost
from solver.puzzles.collection import tag_word

#: A line at least this long (plies) is a ``long line``.
LONG_LINE = 15


@dataclass(frozen=True)
class Step:
    """One ply of the line: the position before it, who moved, the move."""

    before: GameState
    seat: int
    move: Move
    hero: bool


@dataclass(frozen=True)
class Line:
    """A puzzle as the predicates see it: the start, the task and the line played out."""

    start: GameState
    task: str
    hero: int                      # 0-based
    steps: tuple[Step, ...]

    @property
    def first(self) -> Move:
        return self.steps[0].move


def line_of(position: str, task: str, hero: int, pv: tuple[str, ...] | list[str]) -> Line:
    """The line of a puzzle (``hero`` 1-based), each move matched to the legal one."""
    state = parse_position(position).state
    start = state
    steps = []
    for text in pv:
        moves = {str(m): m for m in legal_moves(state)}
        if text not in moves:
            raise ValueError(f"pv move {text!r} is not legal in {position!r}")
        m = moves[text]
        seat = state.to_move
        steps.append(Step(state, seat, m, seat == hero - 1))
        state = play(state, m)
    return Line(start, task, hero - 1, tuple(steps))


# ------------------------------------------------------------- the predicates

def lead(li: Line) -> bool:
    """The hero opens the bout: the first move is a lead on an empty table."""
    return bool(li.steps) and li.first.kind == Kind.LEAD


def multi_card_lead(li: Line) -> bool:
    """The hero leads several cards of one rank at once somewhere on the line."""
    return any(s.hero and s.move.kind == Kind.LEAD and len(s.move.cards) > 1 for s in li.steps)


def throw_in(li: Line) -> bool:
    """A card is thrown in on the line (P3/P4)."""
    return any(s.move.kind == Kind.THROW for s in li.steps)


def take(li: Line) -> bool:
    """Somebody picks up on the line (R11)."""
    return any(s.move.kind == Kind.TAKE for s in li.steps)


def squeeze(li: Line) -> bool:
    """The throw-in squeeze: after the defender has covered, the hero throws in a card
    he cannot beat any more, and he takes the whole table."""
    for i, s in enumerate(li.steps[:-1]):
        nxt = li.steps[i + 1]
        if (s.hero and s.move.kind == Kind.THROW and nxt.move.kind == Kind.TAKE
                and any(c >= 0 for _a, c in s.before.table)):
            return True
    return False


def forced_take(li: Line) -> bool:
    """The hero must take although he could cover or pass the attack on."""
    if not li.steps or li.first.kind != Kind.TAKE:
        return False
    return any(m.kind in (Kind.COVER, Kind.TRANSFER, Kind.SHOW) for m in legal_moves(li.start))


def defence(li: Line) -> bool:
    """The hero starts as the defender, with attack cards on the table."""
    return li.start.to_move == li.start.defender and bool(li.start.table)


def transfer(li: Line) -> bool:
    """A transfer game (R14): a transfer is played, or the variant is on."""
    return li.start.rules.transfer or li.start.rules.transfer_by_trump_show or any(
        s.move.kind in (Kind.TRANSFER, Kind.SHOW) for s in li.steps)


def last_trump(li: Line) -> bool:
    """One trump is left in all the hands: who keeps it, or plays around it, wins."""
    st = li.start
    return sum(1 for h in st.hands for c in cards_of(h) if c // 13 == st.trump) == 1


def draw(li: Line) -> bool:
    """The draw saved: the best the hero can do is a draw, and only one move keeps it."""
    return li.task == "draw"


def teams(li: Line) -> bool:
    """Two against two (the ``teams=2v2`` option): the hero plays for his side."""
    return li.start.rules.teams


def players_3(li: Line) -> bool:
    return li.start.players == 3


def players_4(li: Line) -> bool:
    return li.start.players == 4


def coalition_dodged(li: Line) -> bool:
    """Three or more players: the hero escapes being the durak against all the others."""
    return li.task == "avoid-durak"


def quiet_move(li: Line) -> bool:
    """The first move neither covers, takes nor passes the attack on: the hero holds
    back a throw-in (passes) while he could add a card."""
    if not li.steps or li.first.kind != Kind.PASS:
        return False
    return any(m.kind == Kind.THROW for m in legal_moves(li.start))


def sacrifice(li: Line) -> bool:
    """The first move gives up the hero's most valuable card (an ace or a trump above
    the rest of his hand), though he has others to play."""
    if not li.steps or li.first.kind not in (Kind.LEAD, Kind.THROW, Kind.COVER):
        return False
    hand = list(cards_of(li.start.hands[li.hero]))
    if len(hand) < 2:
        return False
    trump = li.start.trump
    top = max(card_cost(c, trump) for c in hand)
    played = li.first.cards
    return top >= 12 and any(card_cost(c, trump) == top for c in played)


def long_line(li: Line) -> bool:
    """The forced line is long: the hero has to see far."""
    return len(li.steps) >= LONG_LINE


#: Every theme: its name (the tag), its predicate, its title.  The order is the
#: priority of a mined puzzle's title: the first theme found names the puzzle.
THEMES: tuple[tuple[str, Callable[[Line], bool], str], ...] = (
    ("squeeze", squeeze, N_("The throw-in squeeze")),
    ("forced take", forced_take, N_("Take, though you could cover")),
    ("quiet move", quiet_move, N_("Hold back the throw-in")),
    ("multi-card lead", multi_card_lead, N_("Lead them together")),
    ("draw", draw, N_("Save the draw")),
    ("coalition", coalition_dodged, N_("Dodge the coalition")),
    ("last trump", last_trump, N_("The last trump")),
    ("sacrifice", sacrifice, N_("Give up the high card")),
    ("transfer", transfer, N_("Pass it on or not")),
    ("throw-in", throw_in, N_("The right throw-in")),
    ("take", take, N_("Make him take")),
    ("defence", defence, N_("The right defence")),
    ("lead", lead, N_("The right lead")),
    ("long line", long_line, N_("See it through")),
    ("teams", teams, N_("Play for the team")),
    ("3 players", players_3, N_("Three at the table")),
    ("4 players", players_4, N_("Four at the table")),
)

def detect_line(li: Line) -> list[str]:
    """The themes a line shows, in :data:`THEMES` order."""
    return [name for name, pred, _title in THEMES if pred(li)]


def detect(position: str, task: str, hero: int, pv: tuple[str, ...] | list[str]) -> list[str]:
    """The themes of a puzzle given by its fields (``hero`` 1-based)."""
    return detect_line(line_of(position, task, hero, pv))


# ------------------------------------------------------------- the words

_TITLES = {name: title for name, _pred, title in THEMES}
DEFAULT_TITLE = N_("Find the only move")


@lru_cache(maxsize=4096)
def title_and_comment(themes: tuple[str, ...], plies: int, lang: str = "en") -> tuple[str, str]:
    """A mined puzzle's title and one-line comment in ``lang``, from its themes."""
    with use_language(lang):
        title = next((_(_TITLES[x]) for x in themes if x in _TITLES), _(DEFAULT_TITLE))
        words = ", ".join(tag_word(x) for x in themes) or "-"
        comment = ngettext("Themes: {themes}. The forced line is {plies} ply long.",
                           "Themes: {themes}. The forced line is {plies} plies long.",
                           plies).format(themes=words, plies=number(plies))
    return title, comment


__all__ = ["LONG_LINE", "THEMES", "Line", "Step", "detect", "detect_line", "line_of",
           "title_and_comment"]
