"""Small builders that let rules tests state positions in card text.

They build :class:`GameState` values directly, so the rules tests do not
depend on the notation parser (which has tests of its own).
"""
from __future__ import annotations

from solver.game.cards import parse_card, parse_suit, to_mask
from solver.game.movegen import legal_moves, play
from solver.game.moves import Move
from solver.game.rules import Rules, parse_rules
from solver.game.state import NO_COVER, GameState


def cards(text: str) -> int:
    """``"6S 7S KH"`` -> card-set mask."""
    return to_mask(parse_card(t) for t in text.split())


def table(text: str) -> tuple[tuple[int, int], ...]:
    """``"6S/8S 8C"`` -> table pairs."""
    out = []
    for tok in text.split():
        a, _, c = tok.partition("/")
        out.append((parse_card(a), parse_card(c) if c else NO_COVER))
    return tuple(out)


def state(hands: list[str], trump: str = "H", attacker: int = 0, *, rules: str = "",
          defender: int | None = None, table_text: str = "", take: bool = False,
          limit: int | None = None, pile: list[str] | None = None, out: str = "",
          turn: int = -1, cap: int = 6) -> GameState:
    """A position; seats 0-based, ``pile`` a known order top first (last = face-up)."""
    r: Rules = parse_rules(rules)
    order = tuple(parse_card(c) for c in pile) if pile else None
    s = GameState(
        rules=r, trump=parse_suit(trump), hands=tuple(cards(h) for h in hands),
        attacker=attacker, defender=-1, table=table(table_text), take=take,
        pile=len(order) if order else 0, pile_order=order,
        trump_card=order[-1] if order else -1, out=cards(out), turn=turn, cap=cap,
    )
    d = s.defender_for(attacker) if defender is None else defender
    s = s.replace(defender=d)
    if s.table and limit is None:
        covers = sum(1 for _, c in s.table if c != NO_COVER)
        limit = min(cap, s.hand_size(d) + covers)
    return s.replace(limit=limit or 0)


def moves(s: GameState) -> list[str]:
    return [str(m) for m in legal_moves(s)]


def after(s: GameState, *texts: str) -> GameState:
    """Play moves given as text, checking each is legal."""
    for t in texts:
        m = Move.parse(t)
        assert m in legal_moves(s), f"{t} not legal; legal: {moves(s)}"
        s = play(s, m)
    return s
