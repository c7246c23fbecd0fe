"""`durak game`: keep a game record at the table, move by move, and ask for hints.

Reads commands line by line from standard input (a terminal or a pipe):
moves with or without their seat (``2:6D``, ``6D`` for the seat to move),
``draw 7H KD`` (the asking seat's drawn cards), ``hint``, ``show``, ``undo``,
``save FILE``, ``record`` (print it), ``quit``.  A bad move is reported and
left out; the record stays as it was.
"""
from __future__ import annotations

import sys

import click

from solver.cli.app import main
from solver.cli.common import handles_errors, print_hint_table, read_game_text, stdout_console
from solver.cli.hint import MAX_SAMPLES
from solver.cli.show import render
from solver.errors import DurakError
from solver.games import Game
from solver.hints import hint_knowledge
from solver.notation.position import Position

HELP = ("moves: 2:6D or 6D (the seat to move), draw 7H KD; commands: hint, show, undo, "
        "save FILE, record, quit")


@main.command("game")
@click.argument("game")
@click.option("--samples", "-n", type=click.IntRange(1, MAX_SAMPLES), default=None,
              help="Deals per hint (default 256 with two players, 512 with more).")
@click.option("--seed", type=click.IntRange(min=0), default=0, show_default=True,
              help="Seed of the hints' deals.")
@handles_errors
def game_command(game: str, samples: int | None, seed: int) -> None:
    """Follow a game at the table: GAME is a record to start from (its header at least:
    players, trump, me, deal, attacker; '-' is not allowed, stdin carries the commands)."""
    if game == "-":
        raise click.UsageError("GAME: stdin carries the commands; give the record as a file "
                               "or text")
    base = Game.parse(read_game_text(game))
    tokens = base.tokens()
    con = stdout_console()
    tty = sys.stdin.isatty()
    if tty:
        con.print(HELP)
    current = base
    while True:
        if tty:
            con.print("> ", end="")
        line = sys.stdin.readline()
        if not line:
            break
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        word, _, rest = line.partition(" ")
        cmd = word.lower()
        try:
            if cmd in ("quit", "exit"):
                break
            if cmd == "undo":
                if not tokens:
                    con.print("nothing to undo")
                    continue
                gone = tokens.pop()
                current = base.with_tokens(tokens)
                con.print(f"undone: {gone}")
            elif cmd == "show":
                k = current.knowledge()
                for ln in render(Position(k.view, k.seat), True):
                    con.print(ln)
            elif cmd == "hint":
                res = hint_knowledge(current.knowledge(), samples=samples, seed=seed)
                print_hint_table(res)
            elif cmd == "record":
                con.print(current.format(), end="")
            elif cmd == "save":
                if not rest.strip():
                    con.print("save: give a file name")
                    continue
                text = current.format()
                with open(rest.strip(), "w", encoding="utf-8") as fh:
                    fh.write(text)
                con.print(f"saved {len(current.moves)} moves to {rest.strip()}")
            elif cmd == "help":
                con.print(HELP)
            else:
                new = _with_seats(current, line.split())
                current = base.with_tokens(tokens + new)
                tokens += new
                st = current.final
                if st.is_over:
                    con.print(f"game over: {_result(current)}")
                else:
                    con.print(f"ok; seat {st.to_move + 1} to move")
        except DurakError as e:
            con.print(f"error: {' '.join(str(e).split())}")
        except OSError as e:
            con.print(f"error: {e}")


def _with_seats(game: Game, words: list[str]) -> list[str]:
    """Give a move typed without its seat the seat to move (after the moves before it)."""
    out: list[str] = []
    drawing = False
    for w in words:
        if w.lower() == "draw":
            drawing = True
            out.append(w)
            continue
        if drawing and ":" not in w:
            out.append(w)
            continue
        drawing = False
        if ":" not in w:
            seat = game.with_tokens(game.tokens() + out).final.to_move
            w = f"{seat + 1}:{w}"
        out.append(w)
    return out


def _result(game: Game) -> str:
    res = game.outcome() or ()
    return ", ".join(f"seat {s + 1} {'wins' if r > 0 else 'draws' if r == 0 else 'loses'}"
                     for s, r in enumerate(res))
