"""Random small positions for the solver tests and benchmarks (fixed seeds)."""
from __future__ import annotations

import random

from solver import engine
from solver.cards import cards_of, deck_mask, to_mask
from solver.deal import hands_of_sizes
from solver.rules import Rules
from solver.state import GameState


#: Rule sets that between them switch on every option the core implements.
OPTION_SETS = [
    Rules(),
    Rules(transfer=True),
    Rules(transfer=True, transfer_by_trump_show=True),
    Rules(transfer_by_trump_show=True),
    Rules(throw_in_neighbours=True),
    Rules(trump_swap=True, first_bout_limit=True),
    Rules(trump_swap=True, transfer=True),
    Rules(first_out_wins=True),
    Rules(transfer=True, throw_in_neighbours=True, trump_swap=True, deck=52),
    Rules(deck=24),
    Rules(transfer=True, first_out_wins=True, deck=52),
]


def deal_endgame(rng: random.Random, sizes: list[int], rules: Rules = Rules(),
                 attacker: int | None = None, trump: int | None = None) -> GameState:
    """Hands of the given sizes from a shuffled deck, the rest discarded, pile empty."""
    deck = list(cards_of(deck_mask(rules.deck)))
    rng.shuffle(deck)
    hands = hands_of_sizes(deck, sizes)
    out = to_mask(deck[sum(sizes):])
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
