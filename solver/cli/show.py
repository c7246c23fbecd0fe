"""`durak show`: a position drawn for people, with its legal moves."""
from __future__ import annotations

import re

import click
from rich.text import Text

from solver.cli.common import emit_json, handles_errors, load_position, stdout_console
from solver.errors import HiddenCardsError
from solver.game.cards import DIAMONDS, HEARTS, SUIT_SYMBOLS, SUITS, cards_of, count, suit_of
from solver.game.movegen import legal_moves
from solver.game.outcome import outcome_info, seat_roles
from solver.game.state import NO_COVER, GameState, Phase
from solver.games.narration import result_text
from solver.i18n import N_, _, ngettext, pgettext
from solver.notation.people import card_text as people_card
from solver.notation.people import drop_rule_ids, move_text, role_words, rules_text
from solver.notation.position import Position, show_json

RED_SUITS = (HEARTS, DIAMONDS)
_IDS = re.compile(r"\b[RPFS]\d{1,2}\b")


def card_text(card: int, pretty: bool, trump: int = -1) -> Text:
    """One card: ``10♥`` in red (hearts, diamonds) when pretty -- the court cards in the
    player's letters (``Д♠`` in Russian) -- ``TH`` otherwise; trumps bold."""
    style = "red" if pretty and suit_of(card) in RED_SUITS else ""
    if suit_of(card) == trump:
        style = (style + " bold").strip()
    return Text(people_card(card, pretty), style=style)


def cards_text(mask: int, pretty: bool, trump: int = -1) -> Text:
    out = Text()
    for i, c in enumerate(cards_of(mask)):
        if i:
            out.append(" ")
        out.append_text(card_text(c, pretty, trump))
    return out


#: What the seat to move does, by the phase (the rule that says so in brackets).
_DOES = {Phase.LEAD: N_("Seat {seat} leads (P1): "), Phase.DEFEND: N_("Seat {seat} defends (P2): "),
         Phase.THROW: N_("Seat {seat} may throw in (P3): "),
         Phase.TAKEN: N_("Seat {seat} may throw in after the take (P4): ")}


def render(pos: Position, pretty: bool, people: bool = False) -> list[Text]:
    """The lines of the human view of a position in the player's language, the cards
    and the moves as ``7♥/Т♥`` when ``pretty`` (ASCII otherwise); ``people``: for a
    player at the game prompt -- no rule ids."""
    state = pos.state
    trump = state.trump
    lines: list[Text] = []
    suit = SUIT_SYMBOLS[trump] if pretty else SUITS[trump]
    head = Text(_("Trump") + " ").append(suit, style="red bold" if pretty and trump in RED_SUITS
                                         else "bold")
    if state.rules.names():
        head.append("    " + _("rules: {rules}").format(rules=rules_text(state.rules.names())))
    lines.append(head)
    seats = [_("Seat {seat}").format(seat=s + 1) for s in range(state.players)]
    places = {"table": _("Table"), "pile": _("Pile"), "out": _("Out")}
    # every label padded to the longest, and one space more: no label runs into its cards
    width = max(len(x) for x in seats + list(places.values())) + 1
    for s in range(state.players):
        line = Text(seats[s].ljust(width), style="bold" if s == pos.view_seat else "")
        if state.hands[s]:
            line.append_text(cards_text(state.hands[s], pretty, trump))
        if state.hidden[s]:
            line.append((" " if state.hands[s] else "") + f"?{state.hidden[s]}", style="dim")
        if not state.hand_size(s):
            line.append("-", style="dim")
        tags = [(_("gone out") if t == "out" else role_words([t])) for t in seat_roles(state, s)]
        if s == pos.me:
            tags.append(pgettext("the asking seat", "me"))
        if tags:
            line.append("   [" + ", ".join(tags) + "]", style="cyan")
        lines.append(line)
    if state.table:
        t = Text(places["table"].ljust(width))
        for i, (a, c) in enumerate(state.table):
            if i:
                t.append("  ")
            t.append_text(card_text(a, pretty, trump))
            if c != NO_COVER:
                t.append("/").append_text(card_text(c, pretty, trump))
            else:
                t.append(" " + _("(open)"), style="dim")
        lines.append(t)
        info = " " * width + _("{n} of at most {most} attack cards (R10)").format(
            n=len(state.table), most=state.limit)
        if state.take:
            info += "; " + _("seat {seat} has said take (P4)").format(seat=state.defender + 1)
        lines.append(Text(info))
    pile = Text(places["pile"].ljust(width) + ngettext("{n} card", "{n} cards", state.pile)
                .format(n=state.pile))
    if state.pile > 0 and state.trump_card >= 0:
        pile.append(", " + _("face-up") + " ").append_text(card_text(state.trump_card, pretty,
                                                                     trump))
    if state.pile_order is not None and state.pile > 0:
        pile.append("; " + _("order:") + " ").append_text(Text(" ").join(
            card_text(c, pretty, trump) for c in state.pile_order))
    lines.append(pile)
    n_out = count(state.out)
    out = Text(places["out"].ljust(width) + ngettext("{n} card", "{n} cards", n_out)
               .format(n=n_out))
    if state.out:
        out.append(": ").append_text(cards_text(state.out, pretty, trump))
    lines.append(out)
    lines.extend(_moves_lines(state, pretty))
    if people:
        lines = [Text(drop_rule_ids(ln.plain), style=ln.style) if _IDS.search(ln.plain) else ln
                 for ln in lines]
    return lines


def _moves_lines(state: GameState, symbols: bool = False) -> list[Text]:
    info = outcome_info(state)
    if info is not None:
        return [Text(_("Game over: {how}").format(how=result_text(info, ids=True)),
                     style="bold")]
    seat = state.to_move + 1
    head = Text(_(_DOES[state.phase]).format(seat=seat), style="bold")
    try:
        moves = legal_moves(state)
    except HiddenCardsError:
        return [head.append(_("moves unknown: seat {seat}'s hand holds hidden cards").format(
            seat=seat), style="yellow")]
    return [head.append(" ".join(move_text(m, symbols) for m in moves))]


@click.command("show")
@click.argument("position")
@click.option("--pretty/--ascii", default=True, show_default=True,
              help="Suit symbols and colours, or plain ASCII card names.")
@click.option("--json", "as_json", is_flag=True,
              help="Print the canonical position and the legal moves as JSON.")
@handles_errors
def show_command(position: str, pretty: bool, as_json: bool) -> None:
    """Draw POSITION: trump, hands, roles, table, pile, discards, legal moves (in the
    language of --lang; the cards and moves as 10♥, 7♥/A♥ unless --ascii)."""
    pos = load_position(position)
    if as_json:
        emit_json(show_json(pos))
        return
    console = stdout_console()
    for line in render(pos, pretty):
        console.print(line)
