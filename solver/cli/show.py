"""`durak show`: a position drawn for people, with its legal moves."""
from __future__ import annotations

import re

import click
from rich.text import Text

from solver.cli.common import (emit_json, handles_errors, load_position, outcome_info,
                               stdout_console)
from solver.errors import HiddenCardsError
from solver.game.cards import (DIAMONDS, HEARTS, SUIT_SYMBOLS, SUITS, card_name, cards_of, count,
                               suit_of)
from solver.game.movegen import legal_moves
from solver.game.outcome import seat_roles
from solver.game.state import NO_COVER, GameState, Phase
from solver.notation.people import drop_rule_ids, move_text
from solver.notation.position import Position, show_json

RED_SUITS = (HEARTS, DIAMONDS)
_IDS = re.compile(r"\b[RPFS]\d{1,2}\b")


def card_text(card: int, pretty: bool, trump: int = -1) -> Text:
    """One card: ``10♥`` in red (hearts, diamonds) when pretty, ``TH`` otherwise; trumps bold."""
    style = "red" if pretty and suit_of(card) in RED_SUITS else ""
    if suit_of(card) == trump:
        style = (style + " bold").strip()
    return Text(card_name(card, pretty), style=style)


def cards_text(mask: int, pretty: bool, trump: int = -1) -> Text:
    out = Text()
    for i, c in enumerate(cards_of(mask)):
        if i:
            out.append(" ")
        out.append_text(card_text(c, pretty, trump))
    return out


def render(pos: Position, pretty: bool, people: bool = False) -> list[Text]:
    """The lines of the human view of a position (``people``: for a player at the
    game prompt -- the moves as ``7♥/A♥``, no rule ids)."""
    state = pos.state
    trump = state.trump
    lines: list[Text] = []
    suit = SUIT_SYMBOLS[trump] if pretty else SUITS[trump]
    head = Text("Trump ").append(suit, style="red bold" if pretty and trump in RED_SUITS
                                 else "bold")
    if state.rules.names():
        head.append(f"    rules: {state.rules}")
    lines.append(head)
    width = max(len(f"Seat {state.players}"), 6)
    for s in range(state.players):
        line = Text(f"Seat {s + 1}".ljust(width + 1), style="bold" if s == pos.view_seat else "")
        if state.hands[s]:
            line.append_text(cards_text(state.hands[s], pretty, trump))
        if state.hidden[s]:
            line.append((" " if state.hands[s] else "") + f"?{state.hidden[s]}", style="dim")
        if not state.hand_size(s):
            line.append("-", style="dim")
        tags = [("gone out" if t == "out" else t) for t in seat_roles(state, s)] + (
            ["me"] if s == pos.me else [])
        if tags:
            line.append("   [" + ", ".join(tags) + "]", style="cyan")
        lines.append(line)
    if state.table:
        t = Text("Table  ")
        for i, (a, c) in enumerate(state.table):
            if i:
                t.append("  ")
            t.append_text(card_text(a, pretty, trump))
            if c != NO_COVER:
                t.append("/").append_text(card_text(c, pretty, trump))
            else:
                t.append(" (open)", style="dim")
        lines.append(t)
        info = f"       {len(state.table)} of at most {state.limit} attack cards (R10)"
        if state.take:
            info += f"; seat {state.defender + 1} has said take (P4)"
        lines.append(Text(info))
    pile = Text(f"Pile   {state.pile} card(s)")
    if state.pile > 0 and state.trump_card >= 0:
        pile.append(", face-up ").append_text(card_text(state.trump_card, pretty, trump))
    if state.pile_order is not None and state.pile > 0:
        pile.append("; order: ").append_text(Text(" ").join(
            card_text(c, pretty, trump) for c in state.pile_order))
    lines.append(pile)
    out = Text(f"Out    {count(state.out)} card(s)")
    if state.out:
        out.append(": ").append_text(cards_text(state.out, pretty, trump))
    lines.append(out)
    lines.extend(_moves_lines(state, pretty if people else False))
    if people:
        lines = [Text(drop_rule_ids(ln.plain), style=ln.style) if _IDS.search(ln.plain) else ln
                 for ln in lines]
    return lines


def _moves_lines(state: GameState, symbols: bool = False) -> list[Text]:
    outcome = outcome_info(state)
    if outcome is not None:
        return [Text(f"Game over: {outcome['text']}", style="bold")]
    seat = state.to_move + 1
    what = {Phase.LEAD: "leads (P1)", Phase.DEFEND: "defends (P2)",
            Phase.THROW: "may throw in (P3)", Phase.TAKEN: "may throw in after take (P4)"}
    head = Text(f"Seat {seat} {what[state.phase]}: ", style="bold")
    try:
        moves = legal_moves(state)
    except HiddenCardsError:
        return [head.append(f"moves unknown, seat {seat}'s hand holds hidden cards",
                            style="yellow")]
    return [head.append(" ".join(move_text(m, symbols) for m in moves))]


@click.command("show")
@click.argument("position")
@click.option("--pretty/--ascii", default=True, show_default=True,
              help="Suit symbols and colours, or plain ASCII card names.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the canonical position and the legal moves as JSON.")
@handles_errors
def show_command(position: str, pretty: bool, as_json: bool) -> None:
    """Draw POSITION: trump, hands, roles, table, pile, discards, legal moves."""
    pos = load_position(position)
    if as_json:
        emit_json(show_json(pos))
        return
    console = stdout_console()
    for line in render(pos, pretty):
        console.print(line)
