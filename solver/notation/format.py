"""The canonical forms of a position: the one-line string and the JSON object.

Canonical means: fields in the order of docs/notation.md's table, cards in
suit-then-rank order within a hand, every field equal to its default left out
(the defaults are :mod:`solver.game.defaults`, the same the parser puts back).
``parse(format(state)) == state`` for every state the engine reaches (tested
with hypothesis in ``tests/test_notation.py``).
"""
from __future__ import annotations

from typing import Any

from solver.game.cards import SUITS, card_name, cards_of, count, deck_mask, format_cards
from solver.game.defaults import default_cap, default_limit, default_turn, hidden_slots
from solver.game.state import NO_COVER, GameState, Phase
from solver.notation.syntax import FIELDS


def _hand_text(state: GameState, seat: int) -> str:
    parts = []
    if state.hands[seat]:
        parts.append(format_cards(state.hands[seat]))
    if state.hidden[seat]:
        parts.append(f"?{state.hidden[seat]}")
    return " ".join(parts) or "-"


def _pair_text(a: int, c: int) -> str:
    return card_name(a) if c == NO_COVER else f"{card_name(a)}/{card_name(c)}"


def _field_values(state: GameState, me: int | None) -> dict[str, Any]:
    """The non-default fields of a state, as Python values (cards as names)."""
    f: dict[str, Any] = {}
    f["trump"] = card_name(state.trump_card) if state.pile > 0 and state.trump_card >= 0 \
        else SUITS[state.trump]
    f["hands"] = [(state.hands[s], state.hidden[s]) for s in range(state.players)]
    if state.table:
        f["table"] = list(state.table)
    if state.attacker >= 0:
        f["attacker"] = state.attacker + 1
    if state.take:
        f["take"] = True
    if state.table and state.phase in (Phase.THROW, Phase.TAKEN) and state.turn >= 0:
        if state.turn != default_turn(state):
            f["turn"] = state.turn + 1
    if state.pile > 0:
        f["pile"] = list(state.pile_order) if state.pile_order is not None else state.pile
    if hidden_slots(state) > 0:
        unseen = deck_mask(state.rules.deck) & ~state.all_cards()
        if state.out or count(unseen) != hidden_slots(state):
            f["out"] = state.out
    if state.table:
        if state.limit != default_limit(state):
            f["limit"] = state.limit
    elif state.cap != default_cap(state) and not state.is_over:
        f["limit"] = state.cap
    if state.shown:
        f["shown"] = state.shown
    if me is not None:
        f["me"] = me + 1
    if state.rules.names():
        f["rules"] = state.rules.names()
    return f


def format_position(state: GameState, me: int | None = None) -> str:
    """The canonical one-line position string of ``state`` (defaults left out)."""
    f = _field_values(state, me)
    parts = [f"trump {f['trump']}",
             "hands " + " | ".join(_hand_text(state, s) for s in range(state.players))]
    if "table" in f:
        parts.append("table " + " ".join(_pair_text(a, c) for a, c in f["table"]))
    if "attacker" in f:
        parts.append(f"attacker {f['attacker']}")
    if "take" in f:
        parts.append("take")
    if "turn" in f:
        parts.append(f"turn {f['turn']}")
    if "pile" in f:
        p = f["pile"]
        parts.append("pile " + (" ".join(card_name(c) for c in p) if isinstance(p, list)
                                else str(p)))
    if "out" in f:
        parts.append("out " + (format_cards(f["out"]) or "-"))
    if "limit" in f:
        parts.append(f"limit {f['limit']}")
    if "shown" in f:
        parts.append("shown " + format_cards(f["shown"]))
    if "me" in f:
        parts.append(f"me {f['me']}")
    if "rules" in f:
        parts.append("rules " + ",".join(f["rules"]))
    return "; ".join(parts)


def position_to_json(state: GameState, me: int | None = None) -> dict[str, Any]:
    """The canonical JSON object of ``state`` (NOTATION.md, "JSON position")."""
    f = _field_values(state, me)
    out: dict[str, Any] = {"trump": f["trump"]}
    hands: list[Any] = []
    for known, hidden in f["hands"]:
        names = [card_name(c) for c in cards_of(known)]
        hands.append({"known": names, "unknown": hidden} if hidden else names)
    out["hands"] = hands
    if "table" in f:
        out["table"] = [[card_name(a), None if c == NO_COVER else card_name(c)]
                        for a, c in f["table"]]
    for key in ("attacker", "take", "turn", "limit", "me"):
        if key in f:
            out[key] = f[key]
    if "pile" in f:
        p = f["pile"]
        out["pile"] = [card_name(c) for c in p] if isinstance(p, list) else p
    if "out" in f:
        out["out"] = [card_name(c) for c in cards_of(f["out"])]
    if "shown" in f:
        out["shown"] = [card_name(c) for c in cards_of(f["shown"])]
    if "rules" in f:
        out["rules"] = f["rules"]
    return {k: out[k] for k in FIELDS if k in out}
