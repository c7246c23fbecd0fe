"""Ply-limited proofs: the ply-count bound never cuts a real proof.

The core's ``plies_needed`` says how many more plies at least the prover
needs before his decisive result (every player who must go out needs one move
per rank in his hand, R8/R20-R22, and the next ply is lost if it is the other
side's; with two players also two plies per rank against an opponent who takes
every attack at once, ``duel_plies_needed``).  A ply-limited search fails at once below it.  If the bound were ever
too high a won position would look lost within its real distance; so every
limit from 1 to 14 must give the same answer with the bound as without, for
both provers, on random positions with every option, 2-4 players, teams and
``first_out_wins`` included, bouts in progress.  Each side is a fresh search
(no table entry is shared).
"""
from __future__ import annotations

import random

import pytest
from solver_positions import OPTION_SETS, deal_endgame, random_prefix

from solver.game.rules import Rules
from solver.search.native import core, load

LIMITS = range(1, 15)


def cases(seed: int, count: int):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        players = rng.choice([2, 2, 3, 3, 4])
        if players == 4 and rng.random() < 0.5:
            rules = Rules(teams=True, first_out_wins=rng.random() < 0.3)
        else:
            rules = rng.choice(OPTION_SETS)
        top = 5 if players == 2 else 3
        s = deal_endgame(rng, [rng.randint(1, top) for _ in range(players)], rules)
        s = random_prefix(rng, s, rng.randint(0, 4))
        if not s.is_over:
            out.append((s, rng.randrange(players)))
    return out


CASES = cases(31, 120)


def answers(state, hero: int, bound: bool) -> tuple[list[tuple[int, int]], int]:
    search = core.Search(4)
    search.tune(ply_bound=bound)
    st = load(search, state)
    out = []
    for prover in (0, 1):
        for depth in LIMITS:
            r, _ = search.prove(st, hero, prover, depth)
            out.append((depth, r))
    return out, search.nodes


@pytest.mark.parametrize("case", range(len(CASES)))
def test_ply_bound_keeps_every_limited_answer(case):
    """R20-R22: the bound is a true lower bound on the plies to a decisive result."""
    s, hero = CASES[case]
    assert answers(s, hero, True)[0] == answers(s, hero, False)[0]


def test_ply_bound_cuts_searches():
    """The bound is not idle: over all cases it saves nodes, and some limited
    proofs succeed (so the equality above compares real answers)."""
    with_bound = without = wins = 0
    for s, hero in CASES:
        on, n_on = answers(s, hero, True)
        _, n_off = answers(s, hero, False)
        with_bound += n_on
        without += n_off
        wins += sum(r for _, r in on)
    assert with_bound < without * 0.8
    assert wins > 100


def duel_cases(seed: int, count: int):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        rules = rng.choice(OPTION_SETS)
        s = deal_endgame(rng, [rng.randint(1, 6), rng.randint(1, 6)], rules)
        s = random_prefix(rng, s, rng.randint(0, 6))
        if not s.is_over:
            out.append((s, rng.randrange(2)))
    return out


def distance(state, hero: int, prover: int, bound: bool) -> int | None:
    """The prover's exact distance: the smallest limit his proof succeeds at."""
    search = core.Search(4)
    search.tune(ply_bound=bound)
    st = load(search, state)
    if search.prove(st, hero, prover)[0] != 1:
        return None
    depth = 1
    while search.prove(st, hero, prover, depth)[0] != 1:
        depth += 1
    return depth


def test_duel_bound_keeps_every_two_player_distance():
    """R20, R16, R9, R14: two players, bouts in progress, every option set: the
    exact distance of either prover is the same with the bound as without,
    far beyond the limits above (up to six cards a hand)."""
    assert same_distances(duel_cases(47, 200), distance) > 150


def same_distances(cases, distance_of) -> int:
    """Assert ``distance_of`` gives each prover of every case the same distance
    with the bound as without; how many of them are finite."""
    checked = 0
    for s, hero in cases:
        for prover in (0, 1):
            on = distance_of(s, hero, prover, True)
            assert on == distance_of(s, hero, prover, False), (str(s), hero, prover)
            checked += on is not None
    return checked


def multi_cases(seed: int, count: int):
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        players = rng.choice([3, 3, 4])
        if players == 4 and rng.random() < 0.5:
            rules = Rules(teams=True, first_out_wins=rng.random() < 0.3)
        else:
            rules = rng.choice(OPTION_SETS)
        s = deal_endgame(rng, [rng.randint(1, 4) for _ in range(players)], rules)
        s = random_prefix(rng, s, rng.randint(0, 8))
        if not s.is_over:
            out.append((s, rng.randrange(players)))
    return out


def limited_distance(state, hero: int, prover: int, bound: bool, cap: int = 40) -> int | None:
    """The smallest limit up to ``cap`` at which the prover's proof succeeds."""
    search = core.Search(4)
    search.tune(ply_bound=bound)
    st = load(search, state)
    for depth in range(1, cap + 1):
        if search.prove(st, hero, prover, depth)[0] == 1:
            return depth
    return None


def test_other_sides_ply_keeps_every_multi_player_distance():
    """R18, R20, P2-P3: with 3-4 players (teams, ``first_out_wins``, every
    option set, bouts in progress) the bound also counts a ply of the other
    side's -- the take a defender of theirs may answer a lead with, or the
    answer to a throw-in / the next lead of a defender who beat the bout off
    -- and every distance of either prover is the same without the bound.
    (A version that counted two plies at the throwers' turn fails 9 of these.)"""
    assert same_distances(multi_cases(5, 300), limited_distance) > 200
