"""Distances and variations (issue 13): every move's distance equals the
oracles', the printed variation replays to the stated end, and the full
answer's node counts are pinned.

The distance search runs ply-limited proofs upwards from stored fail-soft
lower bounds, gives the winner's moves the root's distance less one as a
lower bound, and reads the variation from the provers' deciding moves
(``Search.root_move``); each of those is checked here against the slow
oracles of ``solver.search.reference`` -- the minimax for two players, the
retrograde analysis (R23 by definition) for three and four.
"""
from __future__ import annotations

import random

import pytest
from solver_positions import deal_endgame, random_prefix

from solver.game import movegen as engine
from solver.game.moves import Move
from solver.game.rules import Rules
from solver.game.value import Value
from solver.search import Solver
from solver.search.reference import ReferenceSolver, retrograde_moves

NAMES = {1: Value.WIN, 0: Value.DRAW, -1: Value.LOSS}


def position(rng: random.Random):
    """A random small position: 2-4 players, transfers in about half of
    them, bouts in progress in about half."""
    while True:
        players = rng.choice([2, 2, 2, 3, 3, 4])
        opts = dict(transfer=rng.random() < 0.5, first_out_wins=rng.random() < 0.1)
        if players == 2:
            sizes = [rng.randint(1, 5), rng.randint(1, 5)]
            if sum(sizes) > 8:
                continue
            opts["transfer_by_trump_show"] = rng.random() < 0.15
        elif players == 3:
            sizes = [rng.randint(1, 2) for _ in range(3)]
            opts["throw_in_neighbours"] = rng.random() < 0.3
        else:
            sizes = [1, 1, rng.randint(1, 2), 1]
            opts["teams"] = rng.random() < 0.4
        s = deal_endgame(rng, sizes, Rules(**opts))
        if rng.random() < 0.5:
            s = random_prefix(rng, s, rng.randint(1, 5))
        if not s.is_over:
            return s, rng.randrange(s.players) if players > 2 else s.to_move


def oracle_moves(s, hero: int):
    if s.players > 2:
        return retrograde_moves(s, hero)
    return ReferenceSolver(s, hero).moves(s)


def replay(s, pv):
    for m in pv:
        s = engine.play(s, Move.parse(m, s.rules.deck))
    return s


def cross_check(count: int, seed: int) -> None:
    solver = Solver(tt_mb=16)
    rng = random.Random(seed)
    for _ in range(count):
        s, hero = position(rng)
        want = {m: (NAMES[v], d) for m, v, d in oracle_moves(s, hero)}
        got = solver.analyse(s, hero + 1)
        assert {m.move: (m.value, m.distance) for m in got.moves} == want, s
        if got.value != Value.DRAW:
            # the variation: exactly the distance, ending in the stated result
            end = replay(s, got.pv)
            assert len(got.pv) == got.distance, s
            assert end.is_over and Value(end.outcome()[hero]) == got.value, s


def test_every_move_distance_agrees_with_the_oracles():
    """S2a: each move's value and distance, 2-4 players, transfers (R14)."""
    cross_check(500, 1301)


@pytest.mark.slow
def test_every_move_distance_agrees_with_the_oracles_large():
    cross_check(1500, 1302)


def test_printed_variation_replays_to_the_stated_end():
    """The variation ``solve`` prints (CLI and API) ends the game with the
    stated value after exactly ``distance`` plies; a drawn one does not end
    decisively."""
    rng = random.Random(1303)
    solver = Solver(tt_mb=16)
    for i in range(60):
        sizes = [rng.randint(2, 7), rng.randint(2, 7)] if i % 3 else [rng.randint(1, 3)] * 3
        s = deal_endgame(rng, sizes, Rules(transfer=i % 2 == 0))
        if s.is_over:
            continue
        hero = s.to_move
        r = solver.solve(s, hero + 1)
        end = replay(s, r.pv)
        if r.value == Value.DRAW:
            assert r.distance is None
            assert not end.is_over or end.outcome()[hero] == 0, s
        else:
            assert len(r.pv) == r.distance, s
            assert end.is_over and Value(end.outcome()[hero]) == r.value, s
            assert r.pv[0] in r.best


def test_full_solve_node_counts_are_pinned():
    """Stockfish-style, for the whole answer (value, best moves, distance,
    variation) and for ``analyse``: a change of search shows here."""
    rng = random.Random(2025)
    total_solve = total_analyse = 0
    for i in range(8):
        s = deal_endgame(rng, [5, 5] if i < 6 else [3, 3, 3], Rules(transfer=i % 2 == 1),
                         attacker=0)
        # each answer from an empty table of its own
        total_solve += Solver(4).solve(s).nodes
        total_analyse += Solver(4).analyse(s).nodes
    assert (total_solve, total_analyse) == FULL_NODES, (total_solve, total_analyse)


# the two 3-player positions are solved whole by retrograde analysis: their
# "nodes" are the states of their graphs (solver.search.retro)
FULL_NODES = (2279064, 2296932)
