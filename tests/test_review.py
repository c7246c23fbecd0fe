"""`durak review` and solver.review: exact endgame labels, a known blunder, the CLI."""
from __future__ import annotations

import importlib.util
import json
import random
import sys

import pytest
from click.testing import CliRunner

import solver
from solver.cli import main
from solver.game.deal import new_game
from solver.game.movegen import legal_moves, play
from solver.game.value import Value
from solver.games import Game
from solver.games.review import LABELS, label_of, review
from solver.play.match import play_game
from solver.policy.bots import GreedyPolicy, greedy_move

POINTS = {Value.WIN: 1.0, Value.DRAW: 0.5, Value.LOSS: 0.0}


def greedy_game(seed: int) -> Game:
    start = new_game(2, seed=seed)
    _, moves, _, _, _ = play_game([GreedyPolicy(), GreedyPolicy()], start,
                                  [random.Random(seed), random.Random(seed + 1)])
    return Game.from_play(start, moves)


def blundered_game() -> tuple[Game, int, Value, Value]:
    """A greedy game in which, at the first empty-pile decision that has a winning
    move and a losing one, the mover plays a losing move (S1) and, greedy play
    after, loses the game: the drop that decided it."""
    slv = solver.Solver()
    for seed in range(200):
        state = new_game(2, seed=seed)
        moves = []
        blunder = None
        while not state.is_over and len(moves) < 400:
            mv = greedy_move(state)
            if blunder is None and state.pile == 0 and len(legal_moves(state)) > 1:
                res = slv.analyse(state, max_time=5)
                vals = {m.move: m.value for m in res.moves}
                if Value.WIN in vals.values() and Value.LOSS in vals.values():
                    bad = next(m for m in legal_moves(state) if vals[str(m)] is Value.LOSS)
                    blunder = (len(moves) + 1, bad, state.to_move)
                    mv = bad
            moves.append(mv)
            state = play(state, mv)
        if blunder is not None and state.is_over and state.outcome()[blunder[2]] < 0:
            return Game.from_play(new_game(2, seed=seed), moves), blunder[0], Value.WIN, Value.LOSS
    raise AssertionError("no game with a blunder found")


def test_labels_follow_the_loss_of_win_chance():
    assert [label_of(x) for x in (0.0, 0.005, 0.03, 0.07, 0.15, 0.5, 1.0)] == [
        "best", "best", "good", "inaccuracy", "mistake", "blunder", "blunder"]
    assert [name for _, name in LABELS] == ["best", "good", "inaccuracy", "mistake"]


def test_review_labels_a_known_endgame_blunder_and_its_value_change():
    """S1: a move from a won position (pile empty) to a lost one is a blunder, exact,
    and the decisive moment of the game."""
    game, number, before, after = blundered_game()
    seat = game.moves[number - 1][0]
    res = solver.review(game, seat=seat, exact_only=True)
    d = next(d for d in res.decisions if d.number == number)
    assert d.exact and d.label == "blunder"
    assert (d.best_value, d.played_value) == (before, after)
    assert d.loss == 1.0 and res.decisive[0].number == number
    # the CLI shows it: the label, the exact values and the decisive line
    r = CliRunner().invoke(main, ["review", game.format(), "--seat", str(seat), "--exact-only"])
    assert r.exit_code == 0, r.output
    assert "blunder" in r.output
    assert f"lost after: move {number}, seat {seat} played {d.played}: win -> loss" in r.output
    assert "decisive: its best chance never reached one half again" in r.output
    js = json.loads(CliRunner().invoke(main, ["review", game.format(), "--seat", str(seat),
                                              "--exact-only", "--json"]).output)
    row = next(x for x in js["decisions"] if x["move"] == number)
    assert row["label"] == "blunder" and row["best_value"] == "win" and row["played_value"] == "loss"
    assert number in js["decisive"]


#: 100 greedy games; seed 18 is left out only for speed (its endgame takes ~3 s to solve).
ENDGAME_SEEDS = [s for s in range(101) if s != 18]


@pytest.mark.parametrize("chunk", range(8))
def test_endgame_labels_agree_with_exact_solves(chunk):
    """On 100 greedy-vs-greedy games the label of every empty-pile decision of both
    seats is `best` exactly when the move keeps the solver's value (S1), else a
    blunder (a whole result, at least 0.5, lost)."""
    slv = solver.Solver()
    checked = 0
    for seed in ENDGAME_SEEDS[chunk * 13:chunk * 13 + 13]:
        game = greedy_game(seed)
        res = review(game, all_seats=True, exact_only=True, solver=slv)
        states = game.positions()
        for d in res.decisions:
            state = states[d.number - 1]
            assert state.pile == 0 and d.exact
            sol = solver.analyse(state, hero=d.seat)
            vals = {m.move: m.value for m in sol.moves}
            played, best = POINTS[vals[d.played]], POINTS[sol.value]
            assert d.played_chance == played and d.best_chance == best
            assert d.label == ("best" if played == best else "blunder")
            checked += 1
    assert checked >= 10


def test_review_of_a_seat_record_estimates_before_the_endgame():
    """A seat's own record: estimates from its knowledge (S3) before the pile is empty,
    exact after (two players: every card known, S1); repeatable with a seed."""
    game = greedy_game(3).for_seat(1)
    a = review(game, samples=16, seed=2)
    b = review(game, samples=16, seed=2)
    assert [d.to_json() for d in a.decisions] == [d.to_json() for d in b.decisions]
    assert any(not d.exact for d in a.decisions) and any(d.exact for d in a.decisions)
    assert all(d.seat == 1 and 0 <= d.played_chance <= 1 and 0 <= d.best_chance <= 1
               for d in a.decisions)
    # 16 deals are too few to judge a move by (MIN_DEALS): the estimates are unclear
    assert all(d.label == "unclear" for d in a.decisions if not d.exact and d.deals < 32)
    assert all(d.label != "unclear" for d in a.decisions if d.exact)
    s = a.summaries[0]
    assert s.seat == 1 and s.decisions == len(a.decisions) and sum(s.labels.values()) == s.decisions


def test_review_all_needs_a_full_record():
    r = CliRunner().invoke(main, ["review", greedy_game(3).for_seat(1).format(), "--all"])
    assert r.exit_code == 2 and "full record" in r.output


def test_review_plot_needs_the_plot_extra(tmp_path):
    game = greedy_game(1).format()
    out = tmp_path / "chance.svg"
    r = CliRunner().invoke(main, ["review", game, "--exact-only", "--plot", str(out)])
    if importlib.util.find_spec("matplotlib") is None:
        assert r.exit_code == 2
        assert "pip install 'durak-solver[plot]'" in r.output
        assert not out.exists()
    else:
        assert r.exit_code == 0 and out.stat().st_size > 0


def test_review_plot_without_matplotlib_names_the_extra(tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "matplotlib", None)  # import matplotlib fails
    monkeypatch.setitem(sys.modules, "matplotlib.pyplot", None)
    out = tmp_path / "chance.png"
    r = CliRunner().invoke(main, ["review", greedy_game(1).format(), "--exact-only",
                                  "--plot", str(out)])
    assert r.exit_code == 2 and "pip install 'durak-solver[plot]'" in r.output
    assert not out.exists()


def test_the_terminal_chart_marks_the_move_after_which_the_game_was_lost():
    """One column per decision; the caret stands under the lost-after decision's column,
    the same move the table and the JSON name; ASCII heights where blocks cannot be written."""
    from solver.cli.review import chance_chart
    game, number, _, _ = blundered_game()
    seat = game.moves[number - 1][0]
    res = solver.review(game, seat=seat, exact_only=True)
    assert res.lost_after is not None and res.lost_after.number == number
    for blocks in (True, False):
        bars, mark = chance_chart(res, blocks=blocks)
        col = [d.number for d in res.decisions].index(number)
        assert mark.index("^") == len("chance ") + col
        assert mark.endswith(f"^ lost after move {number}")
        assert blocks or bars.isascii()
