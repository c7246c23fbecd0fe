"""Random small positions for the solver tests and benchmarks (fixed seeds)."""
from __future__ import annotations

import random

from solver import engine
from solver.cards import bit, cards_of, deck_mask
from solver.rules import Rules
from solver.state import GameState


def deal_endgame(rng: random.Random, sizes: list[int], rules: Rules = Rules(),
                 attacker: int | None = None, trump: int | None = None) -> GameState:
    """Hands of the given sizes from a shuffled deck, the rest discarded, pile empty."""
    deck = list(cards_of(deck_mask(rules.deck)))
    rng.shuffle(deck)
    hands = []
    i = 0
    for k in sizes:
        m = 0
        for c in deck[i:i + k]:
            m |= bit(c)
        hands.append(m)
        i += k
    out = 0
    for c in deck[i:]:
        out |= bit(c)
    if trump is None:
        trump = rng.randrange(4)
    holders = [s for s, h in enumerate(hands) if h]
    if attacker is None:
        attacker = rng.choice(holders)
    s = GameState(rules=rules, trump=trump, hands=tuple(hands), attacker=attacker,
                  defender=-1, out=out)
    return s.replace(defender=s.defender_for(attacker))


def random_prefix(rng: random.Random, s: GameState, plies: int) -> GameState:
    """Play up to ``plies`` random legal moves (bouts in progress, takes, ...)."""
    for _ in range(plies):
        if s.is_over:
            break
        ms = engine.legal_moves(s)
        s = engine.play(s, rng.choice(ms))
    return s
