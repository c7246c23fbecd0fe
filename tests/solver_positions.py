"""Random small positions for the solver tests and benchmarks (fixed seeds)."""
from __future__ import annotations

import random

from solver.game import movegen as engine
from solver.game.deal import deal_endgame, new_game
from solver.game.rules import Rules
from solver.game.state import GameState

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


def random_prefix(rng: random.Random, s: GameState, plies: int) -> GameState:
    """Play up to ``plies`` random legal moves (bouts in progress, takes, ...)."""
    for _ in range(plies):
        if s.is_over:
            break
        ms = engine.legal_moves(s)
        s = engine.play(s, rng.choice(ms))
    return s


def game_states(seed: int, count: int, pile: bool = False):
    """States of random games (2-4 players, every option set, piles and bouts in
    progress) that are not over; with ``pile`` only those with cards in the pile."""
    rng = random.Random(seed)
    for _ in range(count):
        rules = rng.choice(OPTION_SETS)
        s = random_prefix(rng, new_game(rng.choice([2, 3, 4]), rules, rng=rng), rng.randint(0, 60))
        if not s.is_over and (not pile or s.pile > 0):
            yield s


def attack_order(s: GameState) -> tuple[int, ...]:
    """The bout's attack cards in the order they were played (the playouts' table order)."""
    return tuple(a for a, _ in s.table)


def greedy_after_each_move(cs, s: GameState) -> list[tuple[int, int]]:
    """For the seat to move in ``s`` (loaded as core state ``cs``): the compiled
    greedy playout's (result, card margin) after each of its moves, in move order."""
    from solver.search.native import core
    return [tuple(core.greedy_playout(cs, s.to_move, 1500, attack_order(s), i)[:2])
            for i in range(len(cs.moves()))]


# deal_endgame: the tests import it from here
__all__ = ["OPTION_SETS", "attack_order", "deal_endgame", "game_states", "greedy_after_each_move",
           "random_prefix"]
