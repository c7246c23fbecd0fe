"""Hindsight in the review (`durak review --hindsight`, issue 71): every position of a game
whose every card is known valued with every card seen -- the exact value for the seat
with every hand and the pile's order seen (S1, draws known: R17) -- within the review's
budget, from the game's end backwards; what is not reached is said, never guessed."""
from __future__ import annotations

import json
import time
from pathlib import Path

import pytest
from click.testing import CliRunner

from solver.cli import main
from solver.errors import BudgetExceeded
from solver.game.value import Value
from solver.games import Game
from solver.games import hindsight as hindsight_module
from solver.games.hindsight import MISSES, hindsight
from solver.games.review import review
from solver.search import Solver

ROOT = Path(__file__).resolve().parent.parent
FULL = (ROOT / "docs" / "examples" / "full-game.txt").read_text()
#: docs/examples/full-game.txt: seat 1 takes at move 31 from a won endgame (S1) and loses.
TURN = {"ply": 31, "seat": 1, "move": "take", "before": "win", "after": "loss"}
#: The keys of one position along the game in the JSON (docs/game-record.md, "Hindsight").
PLY_KEYS = {"ply", "seat_to_move", "move", "value", "reached"}


@pytest.fixture(scope="module")
def seen_all():
    """full-game.txt with a generous budget: the positions a solver reaches in seconds."""
    return hindsight(FULL, seat=1, max_time=20)


@pytest.fixture(scope="module")
def cli_json():
    """`durak review --hindsight --exact-only --json` of full-game.txt."""
    r = CliRunner().invoke(main, ["review", FULL, "--hindsight", "--exact-only",
                                  "--max-time", "12", "--json"])
    assert r.exit_code == 0, r.output
    return json.loads(r.output)


# ------------------------------------------------------------------ the values

def test_every_position_reached_agrees_with_the_solver_S1_R17(seen_all):
    """Each position valued is the exact value of the fully known state, pile order
    and all (R17's draws known); the short piles at the end are all reached, the
    reached ones run back from the end without a gap, and the game's end is its result."""
    g = Game.parse(FULL)
    states = g.positions()
    assert len(seen_all.positions) == len(states) == len(g.moves) + 1
    reached = [p.ply for p in seen_all.positions if p.reached]
    # the walk runs back from the end and stops after MISSES positions in a row missed:
    # nothing before such a run is reached (a single miss may be followed by a value)
    ran_out = [p.ply for p in seen_all.positions if not p.reached]
    for a in ran_out:
        if all(b in ran_out for b in range(a, a + hindsight_module.MISSES)):
            assert all(ply > a for ply in reached), (a, reached)
    assert reached[-1] == len(states) and len(states) - 1 in reached  # the end is reached
    # every position with four cards or fewer in the pile is cheap: all of them reached
    # (those of ten take seconds more: reached on a free machine, not asked under load)
    assert all(p.reached for p, s in zip(seen_all.positions, states) if s.pile <= 4)
    assert seen_all.positions[-1].value is Value.LOSS  # seat 1 is the durak (R20)
    fresh = Solver()
    for ply in (reached[0], reached[0] + 1, 30, 31, 32, 40):
        assert seen_all.positions[ply - 1].value is fresh.value(states[ply - 1], hero=1), ply


def test_the_turn_is_the_move_that_changed_the_value_and_whose_it_was(seen_all):
    """The value changes only where a move gave it away (the side to move keeps it or
    loses it, S1): at move 31 seat 1 took from a won endgame -- the review's blunder."""
    assert [t.to_json() for t in seen_all.turns] == [TURN]
    assert seen_all.decisive is not None and seen_all.decisive.ply == 31
    # seat 2's view of the same game: the same move, a gift from seat 1
    other = hindsight(FULL, seat=2, max_time=5)
    assert [t.to_json() for t in other.turns] in (
        [{**TURN, "before": "loss", "after": "win"}], [])  # [] only if 31 were not reached
    assert other.positions[-1].value is Value.WIN


def test_a_tiny_budget_marks_the_large_piles_not_reached_and_invents_nothing():
    """A budget of a few milliseconds: the early positions (a pile of 24) are not
    reached -- no value, ``reached`` false -- and whatever was reached is exact."""
    h = hindsight(FULL, seat=1, max_time=0.02)
    states = Game.parse(FULL).positions()
    assert not h.positions[0].reached and h.positions[0].value is None
    assert 1 in h.not_reached
    fresh = Solver()
    for p, s in zip(h.positions, states):
        if p.reached:
            assert p.value is fresh.value(s, hero=1)
    assert all(p.to_json()["value"] is None for p in h.positions if not p.reached)


def test_a_solver_that_always_runs_out_gives_no_value_and_stops_after_the_misses(monkeypatch):
    """A position whose share runs out is not reached (never a value from a guess), and
    after MISSES of them in a row the walk stops: the earlier ones are harder yet."""
    asked = []

    def out_of_budget(self, state, hero=None, **kw):
        asked.append(state)
        raise BudgetExceeded("search budget ran out")

    monkeypatch.setattr(Solver, "value", out_of_budget)
    h = hindsight(FULL, seat=1, max_time=5)
    assert len(asked) == MISSES  # the end needs no search: it is the game's result
    assert [p.ply for p in h.positions if p.reached] == [len(h.positions)]
    assert h.positions[-1].value is Value.LOSS and h.turns == []


def test_the_solver_value_takes_a_time_budget():
    """``Solver.value(..., max_time=)``: a deal of 24 cards in the pile is not solved in
    a hundredth of a second -- BudgetExceeded naming the budget, never a value."""
    start = Game.parse(FULL).positions()[0]
    t0 = time.perf_counter()
    with pytest.raises(BudgetExceeded, match="0.01 s"):
        Solver().value(start, hero=1, max_time=0.01)
    assert time.perf_counter() - t0 < 5


def test_the_review_keeps_a_share_for_hindsight_and_its_decisions_unchanged():
    """``review(hindsight=True)``: the same decisions as without it (the exact ones here),
    and every position of the game listed with its value or as not reached."""
    a = review(FULL, seat=1, exact_only=True, max_time=12)
    b = review(FULL, seat=1, exact_only=True, max_time=12, hindsight=True)
    assert [d.to_json() for d in a.decisions] == [d.to_json() for d in b.decisions]
    assert a.hindsight is None and b.hindsight is not None
    assert len(b.hindsight.positions) == len(Game.parse(FULL).moves) + 1
    assert "hindsight" not in a.to_json()
    # the exact decisions agree with it: the value before the move is the best move's
    for d in b.decisions:
        if d.exact and b.hindsight.before(d.number) is not None:
            assert b.hindsight.before(d.number) is d.best_value
            assert b.hindsight.after(d.number) is d.played_value


# ------------------------------------------------------------------ what is shown

def test_the_json_lists_every_position_and_the_turns(cli_json):
    plies = cli_json["hindsight"]
    moves = Game.parse(FULL).moves
    assert len(plies) == len(moves) + 1
    assert all(set(p) == PLY_KEYS for p in plies)
    for p, (seat, mv) in zip(plies, moves):
        assert (p["seat_to_move"], p["move"]) == (seat, str(mv))
        assert p["reached"] == (p["value"] is not None)
        assert p["value"] in (None, "win", "draw", "loss")
    assert plies[-1] == {"ply": len(moves) + 1, "seat_to_move": None, "move": None,
                         "value": "loss", "reached": True}
    assert cli_json["hindsight_seat"] == 1 and cli_json["hindsight_note"] is None
    assert cli_json["hindsight_turns"] == [TURN]
    assert not plies[0]["reached"]  # a pile of 24: out of any test's budget


def test_the_terminal_shows_the_column_the_line_and_the_decisive_move():
    r = CliRunner().invoke(main, ["review", FULL, "--hindsight", "--exact-only",
                                  "--max-time", "12"])
    assert r.exit_code == 0, r.output
    out = r.output
    assert "every card seen" in out.splitlines()[2]  # the table's column header
    assert "win -> loss" in out
    assert "every card seen, seat 1: win until move 31 (seat 1 played take), loss after it" in out
    assert ("decided with every card seen: move 31, seat 1 played take: win -> loss "
            "(seat 1's own mistake in hindsight)") in out
    assert "every card seen: not reached: moves 1-" in out and "no value guessed" in out
    # seat 2's table gets seat 1's move that changed its value, as a row of its own
    r2 = CliRunner().invoke(main, ["review", FULL, "--seat", "2", "--hindsight", "--exact-only",
                                   "--max-time", "12"])
    assert r2.exit_code == 0, r2.output
    row = next(line for line in r2.output.splitlines() if "seat 1's move" in line)
    assert "take" in row and "loss -> win" in row
    assert "a gift to seat 2" in r2.output


def test_the_terminal_speaks_the_players_language():
    r = CliRunner().invoke(main, ["--lang", "ru", "review", FULL, "--hindsight", "--exact-only",
                                  "--max-time", "12"])
    assert r.exit_code == 0, r.output
    assert "при открытых картах, игрок 1: победа до хода 31" in r.output
    assert "every card seen" not in r.output


def test_a_game_with_hidden_hands_says_so_in_one_line_and_reviews_as_before_S3():
    """A followed game (one seat's record: the others' hands hidden, S3) has no hindsight:
    one line says why, the review is the usual one, exit 0 -- never a traceback."""
    seat_record = Game.parse(FULL).for_seat(1).format()
    args = ["review", seat_record, "--exact-only", "--max-time", "12"]
    plain = CliRunner().invoke(main, args)
    r = CliRunner().invoke(main, args + ["--hindsight"])
    assert r.exit_code == 0 and r.exception is None, r.output
    notes = [line for line in r.output.splitlines() if "every card seen" in line]
    assert notes == ["every card seen: not available -- the record does not give every seat's "
                     "deal and the pile's order (a game followed at a table keeps hands hidden); "
                     "the review is the usual one"]
    rest = [line for line in r.output.splitlines() if line not in notes]
    assert rest == plain.output.splitlines()
    js = json.loads(CliRunner().invoke(main, args + ["--hindsight", "--json"]).output)
    assert js["hindsight"] == [] and js["hindsight_turns"] == []
    assert js["hindsight_note"].startswith("every card seen: not available")


def test_bad_input_exits_2_as_elsewhere(tmp_path):
    for args in (["review", str(tmp_path / "missing.txt"), "--hindsight"],
                 ["review", "players 2\ntrump 9H\nmoves 1:6S", "--hindsight"],
                 ["review", FULL, "--hindsight", "--max-time", "0"],
                 ["review", FULL, "--hindsight", "--seat", "3"]):
        r = CliRunner().invoke(main, args)
        assert r.exit_code == 2, (args, r.output)
        assert "Traceback" not in r.output


# ------------------------------------------------------------------ the web board

def test_the_api_takes_the_switch_and_refuses_a_bad_one(tmp_path):
    from web_support import client
    with client(tmp_path) as web:
        r = web.post("/api/review", json={"game": FULL, "seat": 1, "exact_only": True,
                                          "max_time": 10, "hindsight": True})
        assert r.status_code == 200, r.text
        js = r.json()
        assert js["hindsight_turns"] == [TURN] and len(js["hindsight"]) == 41
        bad = web.post("/api/review", json={"game": FULL, "hindsight": "yes"})
        assert bad.status_code == 400 and "hindsight" in bad.json()["error"]


def test_the_review_page_shows_every_card_seen_when_switched_on(browser, tmp_path):
    """The page's switch asks for hindsight: the move list gets the column (a value or
    "not reached" per move), the chart its line, the summary the move that decided it."""
    from web_support import LAPTOP, live_server
    with live_server(tmp_path) as base:
        ctx = browser.new_context(viewport=LAPTOP)
        page = ctx.new_page()
        errors: list[str] = []
        page.on("pageerror", lambda e: errors.append(str(e)))
        page.set_default_timeout(120_000)
        page.goto(f"{base}/review")
        page.wait_for_selector("body[data-ready='1']", state="attached")
        page.fill("#rv-text", FULL)
        page.fill("#rv-time", "20")
        page.check("#rv-hindsight")
        page.click("#rv-go")
        page.wait_for_selector("#rv-seen-summary")
        summary = page.inner_text("#rv-seen-summary")
        assert ("Every card seen, seat 1: win until move 31 (seat 1 played take), loss after it"
                in summary)
        assert "Decided with every card seen: move 31" in summary
        # a mark per move: the value after it (its words in titles), hatched when not reached
        rows = page.eval_on_selector_all("#rv-moves tr[data-move]", "trs => trs.map(t => "
                                         "[t.dataset.seen, t.lastElementChild.title])")
        assert len(rows) == 40
        assert rows[39] == ["loss", "every card seen: loss after this move"]
        assert rows[0][0] == "" and rows[0][1].startswith("not reached")
        turn = page.locator("#rv-moves tr[data-move='31'] .seen-turn-tag")
        assert turn.get_attribute("title") == "every card seen: win before this move, loss after it"
        assert page.locator("#rv-moves .seen-turn-tag").count() == 1
        assert "not reached" in page.inner_text("#rv-seen-key")
        assert page.locator("#rv-chart .seen-line").count() >= 1
        assert "hindsight=1" in page.url
        page.click("#rv-seen-summary .seen-link")
        assert page.inner_text("#rv-seen-detail").startswith(
            "Every card seen (seat 1): win before this move, loss after it.")
        ctx.close()
    assert errors == [], errors
