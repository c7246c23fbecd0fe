"""The tree search over one known deal (ext/uct.pxi, the hint engine's issue 14).

* With one iteration per move every move is visited once, by a plain greedy
  playout: its result and card margin are ``core.greedy_playout``'s after
  that move (2-4 players, every rules option, piles and bouts in progress).
* The root's visits add up to the iterations.
* UCT converges to minimax: on small endgames (S1, and S2's coalition value
  with three players) the move with the best mean after 4,000 iterations has
  the exact value of the position, with greedy and with epsilon-greedy
  playouts below the tree.
* Epsilon-greedy playouts (``eps``): the first visit of each root move is
  still the plain greedy playout, the same call gives the same scores, and
  the random moves do change the means.
"""
from __future__ import annotations

import random

import pytest
from solver_positions import (OPTION_SETS, attack_order, deal_endgame, game_states,
                              greedy_after_each_move)

from solver.search import Solver
from solver.search.native import core, load, move_text


def test_one_iteration_per_move_is_the_greedy_playout():
    search = core.Search(1)
    seen = 0
    for s in game_states(11, 150):
        cs = load(search, s)
        me = s.to_move
        n = len(cs.moves())
        out = core.uct_scores(cs, me, n, attack_order(s))
        greedy = greedy_after_each_move(cs, s)
        assert [(mean, margin) for mean, margin, _, _, _ in out] == greedy, s
        assert [(r0, g0) for _, _, _, r0, g0 in out] == greedy, s
        assert all(visits == 1 for _, _, visits, _, _ in out)
        seen += 1
    assert seen > 100


def test_root_visits_add_up_to_the_iterations():
    search = core.Search(1)
    for s in game_states(12, 40):
        cs = load(search, s)
        out = core.uct_scores(cs, s.to_move, 300, attack_order(s))
        assert sum(v for _, _, v, _, _ in out) == 300
        assert all(-1.0 <= m <= 1.0 for m, _, _, _, _ in out)
        for i, (_, _, _, r0, g0) in enumerate(out):  # the first visit: the greedy playout
            assert (r0, g0) == core.greedy_playout(cs, s.to_move, 1500, attack_order(s), i)[:2]


def test_best_mean_move_has_the_exact_value_on_small_endgames():
    """S1/S2: UCT with enough iterations plays a value-preserving move."""
    rng = random.Random(5)
    solver = Solver()
    search = core.Search(1)
    for _ in range(120):
        n = rng.choice([2, 2, 3])
        s = deal_endgame(rng, [rng.randint(1, 3) for _ in range(n)], rng.choice(OPTION_SETS[:8]))
        me = s.to_move
        res = solver.analyse(s, me + 1, distance=False, pv=False)
        value = {m.move: m.value for m in res.moves}
        cs = load(search, s)
        for eps in (0.0, 0.2):
            out = core.uct_scores(cs, me, 4000, eps=eps, seed=3)
            best = max(range(len(out)), key=lambda i: out[i][0])
            assert value[move_text(cs.moves()[best])] == res.value, (s, eps)


def test_random_playouts_keep_the_greedy_first_visit_and_repeat():
    search = core.Search(1)
    changed = 0
    for s in game_states(14, 40):
        cs = load(search, s)
        order = attack_order(s)
        plain = core.uct_scores(cs, s.to_move, 300, order)
        assert core.uct_scores(cs, s.to_move, 300, order, eps=0.0, seed=9) == plain
        noisy = core.uct_scores(cs, s.to_move, 300, order, eps=0.3, seed=9)
        assert core.uct_scores(cs, s.to_move, 300, order, eps=0.3, seed=9) == noisy
        assert sum(v for _, _, v, _, _ in noisy) == 300
        assert all(-1.0 <= m <= 1.0 for m, _, _, _, _ in noisy)
        assert [(r0, g0) for _, _, _, r0, g0 in noisy] == [(r0, g0) for _, _, _, r0, g0 in plain]
        changed += noisy != plain
    assert changed > 20  # the random moves reach the means


def test_bad_arguments():
    s = next(game_states(13, 1))
    cs = load(core.Search(1), s)
    with pytest.raises(ValueError, match="iterations"):
        core.uct_scores(cs, s.to_move, 0, attack_order(s))
    with pytest.raises(ValueError, match="seat"):
        core.uct_scores(cs, 7, 10, attack_order(s))
    for eps in (-0.1, 1.5):
        with pytest.raises(ValueError, match="eps"):
            core.uct_scores(cs, s.to_move, 10, attack_order(s), eps=eps)
