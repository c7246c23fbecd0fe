"""The hint engine's tree search over each deal (issue 14, item 2).

A deal that is not solved exactly is scored by a UCT search with greedy
playouts at its leaves (``HintConfig.uct_iters`` with two players,
``uct_iters_multi``, off by default, with more; ``ext/uct.pxi``), averaged with the plain
greedy playout (``uct_mix``); with two players the playouts below the tree make a
random move one time in five (``uct_eps``).  No iterations is the engine before.
"""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.cli.hint import MAX_ITERATIONS
from solver.errors import OptionError
from solver.game.deal import new_game
from solver.game.movegen import legal_moves
from solver.hints import MAX_UCT_ITERS, HintConfig, evaluate_deal, hint, hint_knowledge
from solver.hints.knowledge import knowledge_of
from solver.play.match import make_policy

POS = ("trump 9H; pile 7; hands 6S 6D QC KS TD AH | ?6; attacker 1; "
       "out 7S 8S 9S TS JS 6H 7H 8H TH 7D 8D 9D 6C 7C 8C 9C TC; me 1")


def moves_json(res):
    return [m.to_json() for m in res.moves]


def test_two_players_are_searched_by_default():
    res = hint(POS, samples=16, seed=3)
    assert res.iterations == HintConfig().uct_iters == 300
    assert all(-1.0 <= m.score <= 1.0 for m in res.moves)
    plain = hint(POS, samples=16, seed=3, config=HintConfig(uct_iters=0))
    assert plain.iterations == 0
    assert moves_json(res) != moves_json(plain)  # the search changes the scores


def test_three_players_are_searched_only_when_asked():
    """Three players: greedy playouts by default (``uct_iters_multi=0``, measured no
    stronger); ``uct_iters_multi``, not ``uct_iters``, turns the search on."""
    g = new_game(3, seed=5)
    k = knowledge_of(g, g.to_move)
    a = hint_knowledge(k, samples=8, seed=1)
    assert a.iterations == HintConfig().uct_iters_multi == 0
    assert moves_json(a) == moves_json(hint_knowledge(k, samples=8, seed=1,
                                                      config=HintConfig(uct_iters=7)))
    c = hint_knowledge(k, samples=8, seed=1, config=HintConfig(uct_iters=0, playouts="python"))
    assert moves_json(a) == moves_json(c)  # the C playouts, move for move
    b = hint_knowledge(k, samples=8, seed=1, config=HintConfig(uct_iters_multi=50))
    assert b.iterations == 50 and moves_json(a) != moves_json(b)
    with pytest.raises(OptionError, match="compiled core"):
        hint_knowledge(k, samples=2, seed=1, config=HintConfig(uct_iters_multi=5,
                                                               playouts="python"))


def test_mix_weighs_the_greedy_playout_against_the_search():
    """uct_mix 1: the plain greedy playouts; 0: the search alone; 0.5: their average."""
    g = new_game(2, seed=6)
    moves = legal_moves(g)
    run = lambda mix, iters=64: evaluate_deal(  # noqa: E731
        g, moves, g.to_move, HintConfig(solver="never", uct_iters=iters, uct_mix=mix))
    greedy = run(0.0, 0)
    assert run(1.0)[:2] == greedy[:2]
    search = run(0.0)
    half = run(0.5)
    for i in range(len(moves)):
        assert half[0][i] == pytest.approx((greedy[0][i] + search[0][i]) / 2)
        assert half[1][i] == pytest.approx((greedy[1][i] + search[1][i]) / 2)


def test_search_scores_are_the_asking_seats():
    """Two players: the search from the other seat gives exactly the opposite scores."""
    g = new_game(2, seed=2)
    moves = legal_moves(g)
    cfg = HintConfig(solver="never", uct_iters=64)
    rows, margins, exact = evaluate_deal(g, moves, g.to_move, cfg)
    other, omargins, _ = evaluate_deal(g, moves, 1 - g.to_move, cfg)
    assert not exact and other == [-x for x in rows] and omargins == [-x for x in margins]
    assert any(x not in (-1, 0, 1) for x in rows)  # means over the search, not one playout


def test_time_is_a_cap_only():
    """A time budget that does not run out leaves the answer as it is."""
    capped = hint(POS, samples=16, seed=4, max_time=30.0)
    assert capped.iterations == HintConfig().uct_iters
    assert moves_json(capped) == moves_json(hint(POS, samples=16, seed=4))


def test_bad_search_settings_are_refused():
    g = new_game(2, seed=1)
    with pytest.raises(OptionError, match="uct_iters"):
        evaluate_deal(g, legal_moves(g), 0, HintConfig(uct_iters=-1))
    with pytest.raises(OptionError, match="uct_iters_multi"):
        evaluate_deal(g, legal_moves(g), 0, HintConfig(uct_iters_multi=-1))
    with pytest.raises(OptionError, match="uct_mix"):
        evaluate_deal(g, legal_moves(g), 0, HintConfig(uct_mix=1.5))
    with pytest.raises(OptionError, match="uct_eps"):
        evaluate_deal(g, legal_moves(g), 0, HintConfig(uct_eps=-0.1))
    with pytest.raises(OptionError, match="uct_eps_multi"):
        evaluate_deal(g, legal_moves(g), 0, HintConfig(uct_eps_multi=2.0))
    with pytest.raises(OptionError, match="compiled core"):
        evaluate_deal(g, legal_moves(g), 0, HintConfig(playouts="python"))


def test_random_playout_moves_by_the_number_of_players():
    """Two players: the playouts below the tree make random moves by default
    (``uct_eps``), so the scores differ from the greedy playouts' and the same
    call repeats them; three or more: ``uct_eps_multi`` (0 by default) and not
    ``uct_eps`` governs them."""
    g = new_game(2, seed=6)
    moves = legal_moves(g)
    run = lambda **kw: evaluate_deal(  # noqa: E731
        g, moves, g.to_move, HintConfig(solver="never", uct_iters=200, **kw))
    assert HintConfig().eps(2) > 0.0 and HintConfig().eps(3) == 0.0
    assert run() == run()
    assert run() != run(uct_eps=0.0)
    g3 = new_game(3, seed=6)
    moves3 = legal_moves(g3)
    run3 = lambda **kw: evaluate_deal(  # noqa: E731
        g3, moves3, g3.to_move, HintConfig(solver="never", uct_iters_multi=200, **kw))
    assert run3() == run3(uct_eps=0.0) == run3(uct_eps=0.7)
    assert run3() != run3(uct_eps_multi=0.3)


def test_cli_iterations_and_json():
    out = CliRunner().invoke(main, ["hint", POS, "--seed", "1", "-n", "8", "--iterations", "0",
                                    "--json"])
    assert out.exit_code == 0, out.output
    assert json.loads(out.output)["iterations"] == 0
    out = CliRunner().invoke(main, ["hint", POS, "--seed", "1", "-n", "8", "--iterations", "50",
                                    "--verbose"])
    assert out.exit_code == 0 and "100-iteration search" not in out.output
    assert "a 50-iteration search averaged with a greedy playout" in out.output
    out = CliRunner().invoke(main, ["hint", POS, "--iterations", str(MAX_ITERATIONS + 1)])
    assert out.exit_code == 2 and "--iterations" in out.output
    assert MAX_ITERATIONS == MAX_UCT_ITERS
    three = "trump 9H; pile 18; hands 6S 6D QC KS TD AH | ?6 | ?6; attacker 1; me 1"
    for extra, iters in (([], 0), (["--iterations", "20"], 20)):  # three players: asked for only
        out = CliRunner().invoke(main, ["hint", three, "--seed", "1", "-n", "4", "--json"] + extra)
        assert out.exit_code == 0, out.output
        assert json.loads(out.output)["iterations"] == iters


def test_hint_fast_is_the_engine_before_the_search():
    fast = make_policy("hint-fast")
    assert fast.config.uct_iters == fast.config.uct_iters_multi == 0 and fast.samples == 128
    assert make_policy("hint").config is None  # the default: searched


def test_information_set_search_shares_a_tree_per_batch():
    """``ismcts`` (issue 14 item 3, off by default): the deals of a batch share
    the trees of ``ext/ismcts.pxi``; with ``uct_mix=1`` only the greedy playout
    counts, so the answer is the per-deal engine's to the digit; the batches
    are the same with one worker or two."""
    greedy = hint(POS, samples=24, seed=4, config=HintConfig(uct_mix=1.0))
    shared = hint(POS, samples=24, seed=4, config=HintConfig(uct_mix=1.0, ismcts=True,
                                                             ismcts_batch=8))
    assert moves_json(shared) == moves_json(greedy)
    cfg = HintConfig(ismcts=True, ismcts_batch=8)
    one = hint(POS, samples=24, seed=4, config=cfg)
    assert moves_json(one) != moves_json(greedy)  # the search changes the scores
    assert moves_json(one) == moves_json(hint(POS, samples=24, seed=4, config=cfg, workers=2))
    assert moves_json(one) != moves_json(hint(POS, samples=24, seed=4, config=HintConfig()))
    with pytest.raises(OptionError, match="ismcts_batch"):
        hint(POS, samples=4, seed=4, config=HintConfig(ismcts=True, ismcts_batch=0))


def test_information_set_search_only_while_the_pile_is_big():
    """``ismcts_pile`` (the ``hint-ismcts`` engine): the shared trees only while the pile
    holds at least that many cards; below it, the search of each deal, to the digit."""
    per_deal = moves_json(hint(POS, samples=16, seed=5, config=HintConfig()))
    shared = moves_json(hint(POS, samples=16, seed=5,
                             config=HintConfig(ismcts=True, ismcts_batch=8)))
    assert per_deal != shared
    # POS has a pile of 7: a threshold of 7 shares the trees, one of 8 does not
    assert moves_json(hint(POS, samples=16, seed=5, config=HintConfig(
        ismcts=True, ismcts_batch=8, ismcts_pile=7))) == shared
    assert moves_json(hint(POS, samples=16, seed=5, config=HintConfig(
        ismcts=True, ismcts_batch=8, ismcts_pile=8))) == per_deal
    p = make_policy("hint-ismcts")
    assert p.config.ismcts and p.config.ismcts_pile == 12 and p.name == "hint-ismcts"
    assert make_policy("hint-ismcts-all").config.ismcts_pile == 0
    q = make_policy("hint-ismcts@64x100")
    assert (q.samples, q.config.uct_iters, q.config.ismcts_pile) == (64, 100, 12)
