"""`durak game`: follow a real game from one seat, move by move, with hints.

The game starts from a record (GAME: its header at least -- players, trump, me,
deal, attacker -- and any moves so far), from ``--resume FILE`` (a record saved
by an earlier session, which goes on in the same file), or from the questions
the prompt asks (or the options that answer them: ``--players``, ``--trump``,
``--deal``, ...).  Then the prompt (:mod:`solver.cli.prompt`) takes the moves
as they happen at the table and asks for the cards the player draws.  The
record is saved after every accepted entry (``--record FILE``, else a new file
in durak's data folder; its path is printed at the start and the end).
"""
from __future__ import annotations

import sys
from pathlib import Path
from typing import Callable, TypeVar

import click

from solver.cli.common import handles_errors, read_game_text, shown
from solver.cli.hint import MAX_SAMPLES
from solver.cli.language import lang_option
from solver.cli.prompt import GamePrompt
from solver.errors import DurakError, OptionError
from solver.game.cards import SUITS, card_name, parse_card, parse_suit
from solver.game.rules import parse_rules
from solver.games import Game
from solver.games.recordfile import default_record_path
from solver.games.session import GameSession
from solver.i18n import _, ngettext
from solver.notation.people import drop_rule_ids, people_text, rules_text, symbols_wanted


@click.command("game")
@click.argument("game", required=False)
@click.option("--resume", "resume", default=None, metavar="FILE",
              help="Go on with the record FILE (saved by an earlier `durak game`), in it.")
@click.option("--record", "record", default=None, metavar="FILE",
              help="Save the record here after every entry (default: a new file in durak's "
                   "data folder, printed).")
@click.option("--players", type=click.IntRange(2, 6), default=None, help="Players at the table.")
@click.option("--rules", default=None, help="Rule options, e.g. transfer,throw_in=neighbours.")
@click.option("--trump", default=None, help="The face-up trump card, e.g. 9H.")
@click.option("--deal", default=None, help="Your six dealt cards, e.g. '6S 7S KH 8C 9C AC'.")
@click.option("--seat", "me", type=click.IntRange(1, 6), default=None, help="Your seat.")
@click.option("--attacker", type=click.IntRange(1, 6), default=None,
              help="The seat that leads the first bout (the lowest trump, R6).")
@click.option("--samples", "-n", type=click.IntRange(1, MAX_SAMPLES), default=None,
              help="Deals per hint (default 256 with two players, 512 with more).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Seed of the hints' deals (the review's default too).")
@click.option("--verbose", "-v", is_flag=True,
              help="Cite the rules' ids in the messages (R17, R20), as docs/rules.md numbers them.")
@lang_option
@handles_errors
def game_command(game: str | None, resume: str | None, record: str | None,
                 players: int | None, rules: str | None, trump: str | None, deal: str | None,
                 me: int | None, attacker: int | None, samples: int | None, seed: int,
                 verbose: bool) -> None:
    """Follow a game at a real table from your seat: type the moves as they are
    played, the cards you draw when asked; `hint`, `auto`, `solve`, `undo`, `review`.

    GAME is a record to start from (docs/game-record.md; its header at least).
    Without GAME or --resume the prompt asks for the table: players, rules, the
    trump card, your seat and cards, who leads.
    """
    if game == "-":
        raise click.UsageError("GAME: stdin carries the moves; give the record as a file or text")
    if game is not None and resume is not None:
        raise OptionError(_("give GAME or --resume FILE, not both"))
    if resume is not None and record is not None:
        raise OptionError(_("--resume FILE goes on in FILE; --record names another file"))
    path: str | Path = resume or record or default_record_path("game")
    given = game if resume is None else resume
    if given is not None:
        # the record's kind is checked before its file is opened: a refused record is
        # left as it was, with no lock beside it
        g = Game.parse(read_game_text(given))
        if g.engine is not None:
            raise OptionError(_("this record is a game against the engine: go on with "
                                "`durak play --resume FILE`"))
        session = GameSession(g, path, seed)
    else:
        session = _set_up(players, rules, trump, deal, me, attacker, path, seed, verbose)
    try:  # the record file's lock goes with the session on every way out
        _start(session)
        code = GamePrompt(session, "game", samples, verbose=verbose).run()
    finally:
        session.close()
    sys.exit(code)


def _start(session: GameSession) -> None:
    s = session
    names = s.game.rules.names()
    click.echo((_("following a {n}-player game from seat {seat} ({rules}); the record is saved "
                  "in {path}") if names else
                _("following a {n}-player game from seat {seat}; the record is saved in {path}")
                ).format(n=s.game.players, seat=s.me, rules=rules_text(names),
                          path=shown(str(s.path))),
               err=True)
    if sys.stdin.isatty():
        click.echo(_("type `help` for what to type; Ctrl-D or `quit` leaves (nothing is lost)"),
                   err=True)


def _set_up(players: int | None, rules: str | None, trump: str | None, deal: str | None,
            me: int | None, attacker: int | None, path: str | Path, seed: int,
            verbose: bool = False) -> GameSession:
    """The table from the options, asking for what they leave out: each answer checked
    as it is given, against the answers before it (a card of the deck, the face-up trump
    not in your hand, six different cards, a seat at the table), and asked again when
    wrong -- a wrong answer never ends the command (cards for people, rule ids with
    ``verbose`` only)."""
    ask = _Asker(symbols_wanted(sys.stdout), verbose)
    n = players or ask(_("Players at the table (2-6)"), "2", lambda t: _int_in(t, 2, 6))
    rules_ = rules if rules is not None else ask(
        _("Rules (e.g. transfer, throw_in=neighbours; Enter: none)"), "",
        lambda t: str(parse_rules(t)) if t else "")
    seat = me or ask(_("Your seat (1-{n}; seat 1 sits left of the dealer)").format(n=n), "1",
                     lambda t: _int_in(t, 1, n))
    deck = parse_rules(str(rules_)).deck
    pile = deck - 6 * n

    def the_trump(text: str) -> str:
        card = _trump_card(text, deck, pile)
        if deal is not None and pile > 0:  # your cards given already (--deal)
            try:
                dealt = [parse_card(c, deck) for c in deal.replace(",", " ").split()]
            except DurakError:
                dealt = []  # a --deal that does not read is refused with the table
            _not_the_trump(card, dealt, deck)
        return card

    trump_ = trump or ask(_("The face-up trump card (e.g. 9H)"), None, the_trump)

    def the_deal(text: str) -> str:
        cards = _six_cards(text, deck, trump_ if pile > 0 else None)
        _table(n, rules_, seat, trump_, cards, 1)  # any leader: the deal is what is asked
        return cards

    deal_ = deal or ask(_("Your six cards (e.g. 6S 7S KH 8C 9C AC)"), None, the_deal)

    def the_lead(text: str) -> int:
        lead = _int_in(text, 1, n)
        _table(n, rules_, seat, trump_, deal_, lead)
        return lead

    lead = attacker or ask(_("Who leads the first bout (the lowest trump, R6; 1-{n})").format(
        n=n), None, the_lead)
    try:
        return GameSession.follow(n, trump_, deal_, me=seat, attacker=lead, rules=rules_,
                                  path=path, seed=seed)
    except DurakError as e:
        raise OptionError(_("the table: {error}").format(error=e)) from None


def _table(players: int, rules: str, me: int, trump: str, deal: str, attacker: int) -> None:
    """Raise the error of a table that cannot be (the record's own check), if any."""
    GameSession.follow(players, trump, deal, me=me, attacker=attacker, rules=rules)


T = TypeVar("T")


class _Asker:
    """Asks one question at a time on the terminal (or reads the answers from a pipe);
    a wrong answer is said (on stderr) and the question asked again."""

    def __init__(self, symbols: bool = False, verbose: bool = False):
        self.symbols = symbols
        self.verbose = verbose

    def _say(self, text: str) -> str:
        text = people_text(text, self.symbols)
        return text if self.verbose else drop_rule_ids(text)

    def __call__(self, question: str, default: str | None, check: Callable[[str], T]) -> T:
        question = self._say(question)
        while True:
            shown = f"{question}{f' [{default}]' if default else ''}: "
            if sys.stdin.isatty():
                try:
                    text = input(shown).strip()
                except EOFError:
                    raise OptionError(_("no answer to: {question}").format(
                        question=question)) from None
            else:
                line = sys.stdin.readline()
                if not line:
                    raise OptionError(_("no answer to: {question}").format(question=question))
                text = line.strip()
            if not text and default is not None:
                text = default
            try:
                return check(text)
            except (DurakError, ValueError) as e:
                said = self._say(" ".join(str(e).split()))
                # at a terminal under the question; from a pipe, with the question it answers
                click.echo(f"  {said}" if sys.stdin.isatty() else f"{question}: {said}", err=True)


def _trump_card(text: str, deck: int, pile: int) -> str:
    """The face-up trump card as typed (``9H``, ``9♥``); the suit alone (``H``) only when
    the deal leaves no pile (nothing lies face up then)."""
    t = text.strip()
    if len(t) == 1 or (len(t) == 2 and t[-1] == "\ufe0f"):
        if pile > 0:
            raise ValueError(ngettext(
                "the pile holds {n} card: name the face-up trump card itself, e.g. 9H",
                "the pile holds {n} cards: name the face-up trump card itself, e.g. 9H",
                pile).format(n=pile))
        try:
            return SUITS[parse_suit(t[0])]
        except ValueError:
            raise ValueError(_("{suit} is not a suit (S, H, D, C or ♠ ♥ ♦ ♣)").format(
                suit=repr(t))) from None
    return card_name(parse_card(t, deck))


def _six_cards(text: str, deck: int, trump: str | None = None) -> str:
    """Your six dealt cards: six cards of the deck, each once, and not the face-up trump
    card (it lies under the pile)."""
    cards = [parse_card(c, deck) for c in text.replace(",", " ").split()]
    twice = sorted({c for c in cards if cards.count(c) > 1})
    if twice:
        raise ValueError(_("{cards} named twice: each card is dealt once").format(
            cards=" ".join(card_name(c) for c in twice)))
    if len(cards) != 6:
        raise ValueError(ngettext("you are dealt six cards; {n} card named",
                                  "you are dealt six cards; {n} cards named",
                                  len(cards)).format(n=len(cards)))
    if trump is not None:
        _not_the_trump(trump, cards, deck)
    return " ".join(card_name(c) for c in cards)


def _not_the_trump(trump: str, cards: list[int], deck: int) -> None:
    """Refuse a hand that holds the face-up trump card (it lies under the pile)."""
    if parse_card(trump, deck) in cards:
        raise ValueError(_("{card} is the face-up trump card: it lies under the pile, not in "
                           "your hand").format(card=trump))


def _int_in(text: str, lo: int, hi: int) -> int:
    try:
        v = int(text)
    except ValueError:
        raise ValueError(_("{text} is not a number").format(text=repr(text))) from None
    if not lo <= v <= hi:
        raise ValueError(_("{v} is not between {lo} and {hi}").format(v=v, lo=lo, hi=hi))
    return v


__all__ = ["game_command"]
