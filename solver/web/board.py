"""The board as the page draws it: a position's view as plain JSON.

The page's board component (``static/board.js``) only draws what this module
says and sends clicks back; it knows no rule.  So everything a click needs is
here: the legal moves, each with the cards it takes from the hand of the seat
to move (``cards``) and, for a cover, the attack card it covers (``target``),
and a label in words for its button.  :func:`line` walks a sequence of moves
(a variation, or moves made by clicks) and gives the board after each.
"""
from __future__ import annotations

from typing import Any

from solver.game.outcome import outcome_info, phase_name, seat_roles
from solver.errors import HiddenCardsError, IllegalMoveError, MoveError
from solver.game.cards import SUIT_SYMBOLS, SUITS, card_name, cards_of, sorted_for_display
from solver.game.movegen import legal_moves, play
from solver.game.moves import Kind, Move, parse_move_with_seat
from solver.game.state import NO_COVER, GameState, Phase
from solver.games.narration import result_text
from solver.i18n import N_, _
from solver.notation import format_position
from solver.notation.people import card_text
from solver.notation.position import Position, show_json

#: The most moves one request may walk (a whole game is far fewer).
MAX_LINE = 1000

_PHASE_WORDS = {Phase.LEAD: N_("Seat {seat} leads"),
                Phase.DEFEND: N_("Seat {seat} defends: cover every card or take"),
                Phase.THROW: N_("Seat {seat} may throw in or pass"),
                Phase.TAKEN: N_("Seat {seat} may throw in before the take")}


def _pretty(card: int) -> str:
    return card_text(card)  # the rank letter in the reader's language


def move_view(move: Move) -> dict[str, Any]:
    """One legal move: its notation, kind, the hand cards it plays and a label."""
    k = move.kind
    cards = [card_name(c) for c in move.cards]
    pretty = " ".join(_pretty(c) for c in move.cards)
    if k is Kind.LEAD:
        label = _("Lead {cards}").format(cards=pretty)
    elif k is Kind.COVER:
        label = (_("Cover {target} with {cards}").format(target=_pretty(move.target), cards=pretty)
                 if move.target >= 0 else _("Cover with {cards}").format(cards=pretty))
    elif k is Kind.TAKE:
        label = _("Take the cards")
    elif k is Kind.TRANSFER:
        label = _("Transfer with {cards}").format(cards=pretty)
    elif k is Kind.SHOW:
        label = _("Transfer by showing {cards}").format(cards=pretty)
    elif k is Kind.THROW:
        label = _("Throw in {cards}").format(cards=pretty)
    elif k is Kind.PASS:
        label = _("Pass (throw in nothing)")
    else:
        label = _("Swap the trump six for the face-up trump")
    return {"move": str(move), "kind": k.name.lower(), "cards": cards,
            "target": card_name(move.target) if k is Kind.COVER else None, "label": label}


def board_view(pos: Position | GameState, seat_names: dict[int, str] | None = None
               ) -> dict[str, Any]:
    """What the page draws for a position: seats, table, pile, discards, moves.

    ``seat_names`` (1-based seat -> word, e.g. ``{1: "you"}``) labels seats in a game.
    """
    if isinstance(pos, GameState):
        pos = Position(pos)
    state = pos.state
    outcome = outcome_info(state)
    to_move = state.to_move if outcome is None and state.to_move >= 0 else -1
    seats = []
    for s in range(state.players):
        seats.append({
            "seat": s + 1,
            "name": (seat_names or {}).get(s + 1),
            "cards": [card_name(c) for c in sorted_for_display(state.hands[s])],
            "hidden": state.hidden[s],
            "size": state.hand_size(s),
            "roles": seat_roles(state, s, to_move=False),
            "to_move": s == to_move,
            "me": pos.me == s,
        })
    moves: list[dict[str, Any]] | None
    unknown = None
    if outcome is not None:
        moves = []
    else:
        try:
            moves = [move_view(m) for m in legal_moves(state)]
        except HiddenCardsError as e:
            moves, unknown = None, str(e)
    if outcome is not None:
        status = _("Game over: {how}").format(how=result_text(outcome))
    else:
        status = _(_PHASE_WORDS[state.phase]).format(seat=to_move + 1)
    trump_card = card_name(state.trump_card) if state.pile > 0 and state.trump_card >= 0 else None
    return {
        "position": format_position(state, pos.me),
        "players": state.players,
        "rules": state.rules.names(),
        "trump": SUITS[state.trump],
        "trump_symbol": SUIT_SYMBOLS[state.trump],
        "seats": seats,
        "table": [{"attack": card_name(a), "cover": None if c == NO_COVER else card_name(c)}
                  for a, c in state.table],
        "limit": state.limit if state.table else None,
        "take": state.take,
        "pile": {"count": state.pile, "face_up": trump_card,
                 "order": ([card_name(c) for c in state.pile_order]
                           if state.pile_order is not None and state.pile > 0 else None)},
        "out": [card_name(c) for c in cards_of(state.out)],
        "phase": phase_name(state),
        "to_move": to_move + 1 if to_move >= 0 else None,
        "status": status,
        "moves": moves,
        "moves_unknown": unknown,
        "outcome": outcome,
    }


def show_view(pos: Position) -> dict[str, Any]:
    """`durak show --json` and the board: what the page asks for a position."""
    return {**show_json(pos), "board": board_view(pos)}


def line(pos: Position, moves: list[str]) -> list[Position]:
    """The positions after each of ``moves`` (``[seat:]move`` texts), the first included.

    A move that does not parse or is not legal raises a :class:`MoveError` or
    :class:`IllegalMoveError` naming its number, its token and the legal moves.
    """
    if len(moves) > MAX_LINE:
        raise MoveError(f"moves: {len(moves)} moves, at most {MAX_LINE} at once")
    out = [pos]
    state = pos.state
    for i, text in enumerate(moves, 1):
        if not isinstance(text, str):
            raise MoveError(f"move {i}: expected a move text, got {type(text).__name__}")
        try:
            seat, mv = parse_move_with_seat(text, state.rules.deck)
        except (MoveError, ValueError) as e:
            raise MoveError(f"move {i} {text!r}: {e}") from None
        if state.is_over:
            raise IllegalMoveError(f"move {i} {text!r}: the game is over")
        legal = legal_moves(state)  # HiddenCardsError: the seat's hand is hidden
        if seat is not None and seat - 1 != state.to_move:
            raise IllegalMoveError(f"move {i} {text!r}: seat {state.to_move + 1} is to move, "
                                   f"not seat {seat}")
        if mv not in legal:
            raise IllegalMoveError(f"move {i} {text!r}: illegal here (legal: "
                                   f"{' '.join(str(m) for m in legal)})")
        state = play(state, mv)
        out.append(Position(state, pos.me))
    return out
