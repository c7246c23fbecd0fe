"""The review's verdicts never say what is not true, over recorded games
(benchmarks/games/: the greedy player against the hint engine, and against the
random player with large endgames).

For every reviewed seat: the move after which the game was lost is followed by
no decision whose best chance reaches one half (the one definition,
docs/guide/games.md); no label rests on fewer than the review's minimum deals
(or on less than every deal consistent with the seat's knowledge); every
decision whose cards are all placed is exact or `unclear` with its reason; and
each exact value is what `durak analyse` says of that position.
"""
from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

import solver
from solver.cli import main
from solver.game.value import Value
from solver.games import Game
from solver.games.review import MIN_DEALS, UNCLEAR, review
from solver.notation import format_position

GAMES = sorted((Path(__file__).resolve().parent.parent / "benchmarks" / "games").glob("*.txt"))
#: Every fourth stored game of each family, both seats: enough to meet losses,
#: large endgames and budget-outs, within a minute or so.
SAMPLE = [p for i, p in enumerate(GAMES) if i % 4 == 0]
POINTS = {Value.WIN: 1.0, Value.DRAW: 0.5, Value.LOSS: 0.0}


def test_the_stored_games_are_at_least_fifty_of_both_families():
    names = [p.name for p in GAMES]
    assert len(names) >= 50
    assert sum(n.startswith("eg-") for n in names) >= 20
    assert sum(n.startswith("gr-") for n in names) >= 20


@pytest.mark.parametrize("path", SAMPLE, ids=[p.stem for p in SAMPLE])
def test_verdicts_agree_with_the_table_and_the_solver(path):
    g = Game.parse(path.read_text())
    slv = solver.Solver()
    for seat in (1, 2):
        # 32 deals (the least a label may rest on) keep the test quick; the
        # properties hold at any number of deals
        res = review(g, seat=seat, samples=MIN_DEALS, solver=slv)
        ds = res.decisions
        outcome = g.outcome()
        assert outcome is not None
        # (1) where the game was lost: the last decision with an even best chance
        lost = res.lost_after
        if outcome[seat - 1] >= 0:
            assert lost is None and res.decisive == []
        elif lost is not None:
            assert lost.best_chance is not None and lost.best_chance >= 0.5
            after = [d for d in ds if d.number > lost.number and d.best_chance is not None]
            assert all(d.best_chance < 0.5 for d in after), (path.name, seat, lost.number)
            assert [d.number for d in res.decisive] == (
                [lost.number] if lost.played_chance is not None and lost.played_chance < 0.5
                else [])
        else:  # no decision of the seat ever had an even chance
            assert all(d.best_chance is None or d.best_chance < 0.5 for d in ds)
        assert res.to_json()["lost_after"] == (lost.number if lost else None)
        for d in ds:
            placed = g.known_state(seat, at=d.number) is not None
            # (2) every label but `unclear` rests on the exact answer, on at least
            # MIN_DEALS deals or on every deal the seat's knowledge allows
            if d.label != UNCLEAR:
                assert d.exact or d.deals >= MIN_DEALS or d.every_deal, d.to_json()
            # (3) all cards placed: exact, or unclear with the reason and no chances
            assert d.placed == placed, d.to_json()
            if placed:
                assert d.exact or (d.label == UNCLEAR and d.played_chance is None
                                   and d.note.startswith("exact solve ran out after")), d.to_json()
            else:
                assert not d.exact
        # (4) each exact value is the solver's for that position (seat as hero)
        for d in (d for d in ds if d.exact):
            state = g.known_state(seat, at=d.number)
            sol = slv.analyse(state, hero=seat, distance=False, pv=False)
            vals = {m.move: m.value for m in sol.moves}
            assert (vals[d.played], sol.value) == (d.played_value, d.best_value), d.to_json()
            assert vals[d.best] == sol.value
            assert (d.played_chance, d.best_chance) == (POINTS[d.played_value],
                                                        POINTS[d.best_value])


def test_exact_labels_are_what_durak_analyse_prints():
    """The command itself, `durak analyse --json --hero SEAT` on the position before
    each exact decision of a game with a large endgame: the played move's value and
    the position's value are the review's."""
    path = next(p for p in GAMES if p.name.startswith("gr-"))
    g = Game.parse(path.read_text())
    res = review(g, exact_only=True)
    exact = [d for d in res.decisions if d.exact]
    assert exact
    for d in exact:
        state = g.known_state(d.seat, at=d.number)
        r = CliRunner().invoke(main, ["analyse", "--json", "--hero", str(d.seat),
                                      format_position(state)])
        assert r.exit_code == 0, r.output
        js = json.loads(r.stdout)
        vals = {m["move"]: m["value"] for m in js["moves"]}
        assert vals[d.played] == d.played_value.text and js["value"] == d.best_value.text
        assert vals[d.best] == js["value"]
