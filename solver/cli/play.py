"""`durak play`: a game against the engine at the terminal.

A new deal (``--players``, ``--rules``, ``--seed``) with the engine in every
other seat at a chosen strength (``--vs``: ``greedy``, ``hint`` -- the hint
engine at its default budget -- ``strong``, or ``random``); the tool deals the
draws.  The same prompt as `durak game` (:mod:`solver.cli.prompt`): moves,
``hint``, ``auto``, ``undo``, ``show``, ``review`` at the end, ``quit``.  The
record is saved after every move (``--record FILE``, else a new file in
durak's data folder); ``--resume FILE`` goes on with a saved game.
"""
from __future__ import annotations

import os
import sys

import click

from solver.cli.common import handles_errors, read_game_text, shown
from solver.cli.hint import MAX_SAMPLES
from solver.cli.language import lang_option
from solver.cli.prompt import GamePrompt
from solver.errors import OptionError
from solver.game.rules import parse_rules
from solver.games import Game
from solver.games.recordfile import default_record_path
from solver.games.session import DEFAULT_STRENGTH, ENGINE_STRENGTHS
from solver.i18n import _, ngettext
from solver.notation.people import rules_text, strength_text
from solver.play.seats import GameSession


@click.command("play")
@click.option("--players", type=click.IntRange(2, 6), default=2, show_default=True,
              help="Players at the table (you and the engine's seats).")
@click.option("--rules", default="", help="Rule options, e.g. transfer,trump_swap.")
@click.option("--seed", type=click.IntRange(min=0), default=None,
              help="Seed of the deal (default: a fresh one, printed).")
@click.option("--vs", "strength", type=click.Choice(ENGINE_STRENGTHS), default=DEFAULT_STRENGTH,
              show_default=True,
              help="The engine's strength: greedy (rules of thumb), hint (the hint engine at "
                   "its default), strong (four times its deals), random.")
@click.option("--seat", "me", type=click.IntRange(1, 6), default=1, show_default=True,
              help="Your seat.")
@click.option("--record", "record", default=None, metavar="FILE",
              help="Save the record here after every move (default: a new file in durak's "
                   "data folder, printed).")
@click.option("--resume", "resume", default=None, metavar="FILE",
              help="Go on with a game saved by `durak play` (in the same file).")
@click.option("--samples", "-n", type=click.IntRange(1, MAX_SAMPLES), default=None,
              help="Deals per hint (default 256 with two players, 512 with more).")
@click.option("--verbose", "-v", is_flag=True,
              help="Cite the rules' ids in the messages (R17, R20), as docs/rules.md numbers them.")
@lang_option
@handles_errors
def play_command(players: int, rules: str, seed: int | None, strength: str, me: int,
                 record: str | None, resume: str | None, samples: int | None,
                 verbose: bool) -> None:
    """Play a game against the engine: a new deal, the engine in the other seats."""
    if resume is not None:
        if record is not None:
            raise OptionError(_("--resume FILE goes on in FILE; --record names another file"))
        # the record's kind is checked before its file is opened: a refused record is left
        # as it was, with no lock beside it
        game = Game.parse(read_game_text(resume))
        if game.engine is None:
            raise OptionError(_("this record is not a game against the engine: follow it with "
                                "`durak game --resume FILE`"))
        session = GameSession(game, resume)
    else:
        if me > players:
            raise OptionError(_("seat: seat {seat} is not at a {n}-player table").format(
                seat=me, n=players))
        if seed is None:
            seed = int.from_bytes(os.urandom(3), "little")
        session = GameSession.new(players, parse_rules(rules), seed=seed, human=me,
                                  engine=strength, path=record or default_record_path("play"))
    try:  # the record file's lock goes with the session on every way out
        _start(session, resumed=resume is not None, seed=seed)
        code = GamePrompt(session, "play", samples, verbose=verbose).run()
    finally:
        session.close()
    sys.exit(code)


def _start(session: GameSession, resumed: bool, seed: int | None) -> None:
    """Say which game this is, who plays which seat and where its record is saved."""
    engines = session.engine_seats
    seats = ", ".join(map(str, engines))
    path = shown(str(session.path))
    strength = strength_text(session.strength)
    if resumed:
        click.echo(ngettext(
            "going on with the game in {path}: you are seat {seat}, the engine ({strength}) "
            "plays seat {seats}",
            "going on with the game in {path}: you are seat {seat}, the engine ({strength}) "
            "plays seats {seats}", len(engines)).format(
                path=path, seat=session.me, strength=strength, seats=seats), err=True)
    else:
        click.echo(ngettext(
            "new game: {n} players, {rules}, seed {seed}; you are seat {seat}, the engine "
            "({strength}) plays seat {seats}; the record is saved in {path}",
            "new game: {n} players, {rules}, seed {seed}; you are seat {seat}, the engine "
            "({strength}) plays seats {seats}; the record is saved in {path}",
            len(engines)).format(n=session.game.players,
                                 rules=rules_text(session.game.rules.names()), seed=seed,
                                 seat=session.me, strength=strength, seats=seats, path=path),
            err=True)
    if sys.stdin.isatty():
        click.echo(_("type `help` for what to type; Ctrl-D or `quit` leaves (nothing is lost)"),
                   err=True)
