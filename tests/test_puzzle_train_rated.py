"""`durak puzzle train` by rating, `--streak`, `--daily`, `--theme`, and `durak puzzle stats`
(issue 70), through click's CliRunner on a one-puzzle collection and a data folder of its own."""
from __future__ import annotations

import json

import pytest
from click.testing import CliRunner
from test_puzzle_cli import MINI

from solver.cli import main

LINE = "take\nJC/AC\nJH\nJD\n+QS\n"


@pytest.fixture()
def env(tmp_path, monkeypatch):
    (tmp_path / "p").mkdir()
    (tmp_path / "p" / "mini.toml").write_text(MINI, encoding="utf-8")
    monkeypatch.setenv("DURAK_DATA_DIR", str(tmp_path / "data"))
    return tmp_path / "p"


def run(pdir, *args, input=None):
    return CliRunner().invoke(main, ["puzzle", "--dir", str(pdir), *args], input=input)


def test_train_by_rating_prints_the_change_and_stats_show_it(env):
    r = run(env, "train", input=LINE + "quit\n")
    assert r.exit_code == 0, r.output
    assert "Solved!" in r.output and "Rating: 1500 \u2192 " in r.output and "(+" in r.output
    r = run(env, "stats", "--json")
    d = json.loads(r.output)
    assert d["attempts"] == 1 and d["solved"] == 1 and d["rating"] > 1500
    assert d["themes"][0]["theme"] == "forced take" and d["themes"][0]["accuracy"] == 1
    r = run(env, "stats")
    assert r.exit_code == 0 and "Accuracy by theme" in r.output
    assert "durak puzzle train --theme 'forced take'" in r.output


def test_a_hint_fails_the_puzzle_and_it_comes_back_for_review(env):
    r = run(env, "train", "--id", "mini-001", input="hint\n" + LINE)
    assert r.exit_code == 0, r.output
    assert "Finished, with help" in r.output and "(\u2212" in r.output
    assert "It comes back for review at" in r.output
    d = json.loads(run(env, "stats", "--json").output)
    assert d["reviews"] == 1 and d["rating"] < 1500


def test_the_streak_ends_at_the_first_miss_and_keeps_the_best(env):
    r = run(env, "train", "--streak", input=LINE + "AC/QS\n" + LINE)
    assert r.exit_code == 0, r.output
    assert "Streak: 1 (best 1)." in r.output and "The streak is over (best 1)." in r.output
    assert "Solved 1 of 2 puzzles cleanly." in r.output
    d = json.loads(run(env, "stats", "--json").output)
    assert d["best_streak"] == 1 and d["rating"] == 1500


def test_daily_plays_one_puzzle_and_theme_refuses_an_unknown_one(env):
    r = run(env, "train", "--daily", input=LINE)
    assert r.exit_code == 0, r.output
    assert "Solved 1 of 1 puzzle cleanly." in r.output
    r = run(env, "train", "--theme", "nosuch")
    assert r.exit_code == 2 and "nosuch" in r.output and "forced take" in r.output
    r = run(env, "train", "--theme", "forced take", input=LINE + "quit\n")
    assert r.exit_code == 0 and "Rating: " in r.output


def test_quitting_after_a_wrong_move_still_counts_the_miss(env):
    """The tally leaves a puzzle quit in the middle out, but the rating does not forget
    the wrong move made before the quit."""
    r = run(env, "train", input="AC/QS\nquit\n")
    assert r.exit_code == 0, r.output
    assert "1 puzzle left unfinished." in r.output and "Rating: 1500 \u2192 " in r.output
    d = json.loads(run(env, "stats", "--json").output)
    assert d["attempts"] == 1 and d["solved"] == 0 and d["reviews"] == 1
    r = run(env, "train", input="quit\n")  # a quit with no move: nothing kept
    assert json.loads(run(env, "stats", "--json").output)["attempts"] == 1
