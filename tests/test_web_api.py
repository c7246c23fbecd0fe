"""The web API (docs/web.md): the commands' --json answers, bad input, budgets, jobs.

Each endpoint's answer is held equal to what the command prints with --json
(the effort fields ``nodes`` and ``seconds`` aside: they describe the work).
"""
from __future__ import annotations

import json
import re
import subprocess
import time
from pathlib import Path

import pytest
from click.testing import CliRunner
from web_support import HARD, HIDDEN, SMALL, client

from solver.hints import PERSON_SAMPLES
from solver.web.pages import PAGES, source
from solver.cli import main
from solver.web import jobs
from solver.web.api import Limits

ROOT = Path(__file__).resolve().parent.parent
EFFORT = ("nodes", "seconds")


@pytest.fixture(scope="module")
def web(tmp_path_factory):
    with client(tmp_path_factory.mktemp("web")) as c:
        yield c


def cli(*args: str, code: int = 0) -> dict:
    r = CliRunner().invoke(main, list(args))
    assert r.exit_code == code, (r.stdout, r.stderr)
    return json.loads(r.stdout)


def cli_error(*args: str) -> str:
    r = CliRunner().invoke(main, list(args))
    assert r.exit_code == 2, (r.stdout, r.stderr)
    line = r.stderr.strip()
    assert line.startswith("durak: error: ")
    return line[len("durak: error: "):]


def without(obj: dict, keys=EFFORT) -> dict:
    """``obj`` less the effort it took (also the anytime estimate's seconds)."""
    out = {k: v for k, v in obj.items() if k not in keys}
    if isinstance(out.get("estimate"), dict):
        out["estimate"] = without(out["estimate"], keys)
    return out


# ------------------------------------------------------------ the answers

@pytest.mark.parametrize("command", ["show", "moves"])
@pytest.mark.parametrize("position", [SMALL, "trump H; hands 7S KH | 9C AH; table 6S/8S 8C; "
                                             "attacker 1",
                                      "trump S; hands 7D 9D | 8D TD | JS; attacker 1; rules transfer"])
def test_show_and_moves_answer_what_the_commands_print(web, command, position):
    r = web.post(f"/api/{command}", json={"position": position})
    assert r.status_code == 200
    assert r.json() == cli(command, "--json", position)
    # the GET twin of the same answer
    assert web.get(f"/api/{command}", params={"position": position}).json() == r.json()


def test_a_json_position_is_read_as_the_commands_read_it(web):
    pos = {"trump": "S", "hands": [["7D", "9D"], ["8D", "TD"]], "attacker": 1}
    r = web.post("/api/show", json={"position": pos})
    assert r.json() == cli("show", "--json", json.dumps(pos))
    # and as JSON text in the string field
    assert web.post("/api/show", json={"position": json.dumps(pos)}).json() == r.json()


@pytest.mark.parametrize("command", ["solve", "analyse"])
@pytest.mark.parametrize("position,hero", [(SMALL, None), (SMALL, 2),
                                           ("trump S; hands 7D 9D | 8D TD | JS; attacker 1; "
                                            "rules transfer", 3)])
def test_solve_and_analyse_answer_what_the_commands_print(web, command, position, hero):
    body = {"position": position} | ({"hero": hero} if hero else {})
    r = web.post(f"/api/{command}", json=body)
    assert r.status_code == 200
    assert r.headers["x-durak-exit-code"] == "0"
    args = [command, "--json", position] + (["--hero", str(hero)] if hero else [])
    assert without(r.json()) == without(cli(*args))


def test_hint_answers_what_the_command_prints(web):
    r = web.post("/api/hint", json={"position": HIDDEN, "seed": 1})
    assert r.status_code == 200
    assert without(r.json()) == without(cli("hint", "--json", HIDDEN, "--seed", "1"))
    r = web.post("/api/hint", json={"position": HIDDEN, "seed": 2, "samples": 40,
                                    "iterations": 0})
    assert without(r.json()) == without(cli("hint", "--json", HIDDEN, "--seed", "2", "-n", "40",
                                            "--iterations", "0"))


def test_analyse_on_hidden_cards_gives_the_hint_table(web):
    r = web.post("/api/analyse", json={"position": HIDDEN, "seed": 3})
    assert r.status_code == 200
    assert r.json()["samples"] == PERSON_SAMPLES == 512 and r.json()["seed"] == 3  # a person's


def test_review_answers_what_the_command_prints(web):
    game = (ROOT / "docs" / "examples" / "full-game.txt").read_text()
    r = web.post("/api/review", json={"game": game, "all": True, "exact_only": True})
    assert r.status_code == 200
    got = r.json()
    want = cli("review", "--json", "--all", "--exact-only", str(ROOT / "docs/examples/full-game.txt"))
    assert got == want


# ------------------------------------------------------------ bad input

@pytest.mark.parametrize("position", [
    "trump H; hands 6S 6S; attacker 1",
    "trump H; hands 7S KH | 9C AH; table 6S/8S 8C; attacker 3",
    "trump Q; hands 7S | 8S; attacker 1",
    '{"trump": "H", "hands": [["6S", "XX"], ["7S"]], "attacker": 1}',
    '{"trump": "H", "hands": ',
    "",
])
def test_bad_positions_get_400_and_the_cli_line(web, position):
    for endpoint in ("show", "moves", "solve", "analyse", "hint"):
        r = web.post(f"/api/{endpoint}", json={"position": position})
        assert r.status_code == 400, (endpoint, r.text)
        assert r.json()["error"] == cli_error("show", position)
        assert r.json()["exit_code"] == 2


def test_moves_of_a_hidden_hand_are_bad_input_as_in_the_cli(web):
    pos = "trump 9H; pile 7; hands ?6 | 6S 6D QC KS TD AH; attacker 1; out 7S 8S 9S TS JS 6H 7H " \
          "8H TH 7D 8D 9D 6C 7C 8C 9C TC"
    r = web.post("/api/moves", json={"position": pos})
    assert r.status_code == 400 and r.json()["error"] == cli_error("moves", pos)
    r = web.post("/api/solve", json={"position": HIDDEN})
    assert r.status_code == 400 and r.json()["error"] == cli_error("solve", HIDDEN)


@pytest.mark.parametrize("body,fragment", [
    ({}, "position: required field missing"),
    ({"position": 5}, "position: expected a position string or a JSON object"),
    ({"position": SMALL, "hero": 3}, "hero: seat 3 is not in a 2-player game"),
    ({"position": SMALL, "hero": 0}, "hero: 0 is out of range"),
    ({"position": SMALL, "hero": "1"}, "hero: '1' is not a whole number"),
    ({"position": SMALL, "max_time": -1}, "max_time: -1 is not a positive"),
    ({"position": SMALL, "max_time": "inf"}, "max_time: 'inf' is not a positive"),
    ({"position": SMALL, "max_nodes": 0}, "max_nodes: 0 is out of range"),
    ({"position": SMALL, "depth": 3}, "unknown field(s) 'depth'"),
    ({"position": SMALL, "tt_mb": 100000}, "unknown field(s) 'tt_mb'"),
])
def test_bad_options_get_400_and_one_line(web, body, fragment):
    r = web.post("/api/solve", json=body)
    assert r.status_code == 400
    assert fragment in r.json()["error"]
    assert "\n" not in r.json()["error"]


def test_bodies_that_are_not_json_objects_get_400_or_415(web):
    r = web.post("/api/solve", content=b"[1, 2]", headers={"content-type": "application/json"})
    assert r.status_code == 400 and "expected a JSON object" in r.json()["error"]
    r = web.post("/api/solve", content=b"{nope", headers={"content-type": "application/json"})
    assert r.status_code == 400 and r.json()["error"].startswith("body: not JSON")
    r = web.post("/api/solve", content=json.dumps({"position": SMALL}).encode(),
                 headers={"content-type": "text/plain"})
    assert r.status_code == 415


def test_requests_larger_than_the_notations_cap_get_413(web):
    big = "trump H; hands 6S 7S KH | 8C 9C AH; attacker 1" + " " * 1_000_000
    r = web.post("/api/show", json={"position": big})
    assert r.status_code == 413 and "1,000,000" in r.json()["error"]
    r = web.post("/api/solve", content=b"{" + b" " * 1_200_000 + b"}",
                 headers={"content-type": "application/json"})
    assert r.status_code == 413
    # a body without a length, streamed past the cap, is cut off too
    r = web.post("/api/analyse", content=(b"x" * 65536 for _ in range(20)),
                 headers={"content-type": "application/json"})
    assert r.status_code == 413


def test_illegal_moves_in_a_line_get_400_with_the_legal_moves(web):
    r = web.post("/api/line", json={"position": SMALL, "moves": ["6S", "6S/AH", "KH"]})
    assert r.status_code == 400
    assert r.json()["error"] == "move 3 'KH': illegal here (legal: 8C 9C)"
    r = web.post("/api/line", json={"position": SMALL, "moves": ["6S", "2:6S/AH", "1:8C"]})
    assert r.status_code == 400 and "seat 2 is to move, not seat 1" in r.json()["error"]
    r = web.post("/api/line", json={"position": SMALL, "moves": ["6S", "6S/AH"]})
    assert [b["status"] for b in r.json()["boards"]] == [
        "Seat 1 leads", "Seat 2 defends: cover every card or take", "Seat 2 leads"]


# ------------------------------------------------------------ budgets

def test_a_budget_that_runs_out_answers_what_was_proven(web):
    r = web.post("/api/analyse", json={"position": HARD, "max_time": 1})
    assert r.status_code == 200
    assert r.headers["x-durak-exit-code"] == "3"
    assert "ran out" in r.headers["x-durak-budget"]
    ans = r.json()
    assert ans["exact"] is False and {"lower", "upper"} <= set(ans)
    # the moves valued so far, as `durak analyse --json` gives them (how many: the machine's speed)
    legal = web.post("/api/moves", json={"position": HARD}).json()["moves"]
    assert {m["move"] for m in ans.get("moves", [])} <= set(legal)


def test_the_servers_cap_bounds_every_budget(tmp_path):
    with client(tmp_path, limits=Limits(max_time=1.0)) as c:
        t = time.monotonic()
        r = c.post("/api/solve", json={"position": HARD, "max_time": 500})
        assert r.status_code == 200 and r.headers["x-durak-exit-code"] == "3"
        assert time.monotonic() - t < 10
        # no budget asked: the command's default (60 s), capped at 1 s
        r = c.post("/api/analyse", json={"position": HARD})
        assert r.headers["x-durak-exit-code"] == "3"
        assert c.get("/api/status").json()["caps"]["max_time"] == 1.0


def test_a_job_over_the_servers_wall_cap_is_killed(tmp_path):
    with client(tmp_path) as c:
        pool = c.app.state.pool

        async def run():
            job = pool.submit("sleep", {"seconds": 30}, wall_cap=0.5)
            await pool.wait(job)
            return job

        job = c.portal.call(run)
        assert job.state == "error" and job.exit_code == 3
        assert "cap of 0.5 s" in str(job.error)
        # the slot has a fresh worker and answers
        assert c.post("/api/solve", json={"position": SMALL}).status_code == 200


# ------------------------------------------------------------ jobs

def test_a_job_reports_progress_and_its_answer(web):
    r = web.post("/api/jobs", json={"task": "hint", "position": HIDDEN, "seed": 1,
                                    "samples": 3000})
    assert r.status_code == 202
    job = r.json()
    seen = []
    while job["state"] not in ("done", "error", "cancelled"):
        time.sleep(0.1)
        job = web.get(f"/api/jobs/{job['id']}").json()
        seen.append(job["progress"]["done"])
    assert job["state"] == "done" and job["exit_code"] == 0
    assert job["answer"]["samples"] == 3000
    assert any(0 < d < 3000 for d in seen)


def test_a_cancelled_job_stops_its_search_at_once(web):
    before = web.get("/api/status").json()["pids"]
    job = web.post("/api/jobs", json={"task": "analyse", "position": HARD,
                                      "max_time": 50}).json()
    time.sleep(0.5)
    t = time.monotonic()
    web.delete(f"/api/jobs/{job['id']}")
    while web.get(f"/api/jobs/{job['id']}").json()["state"] != "cancelled":
        assert time.monotonic() - t < 3
        time.sleep(0.05)
    st = web.get("/api/status").json()
    assert st["running"] == 0
    assert st["pids"] != before  # the worker was killed and replaced
    assert web.post("/api/solve", json={"position": SMALL}).status_code == 200


def test_a_job_nobody_asks_about_is_cancelled(web, monkeypatch):
    monkeypatch.setattr(jobs, "STALE_SECONDS", 0.5)
    job = web.post("/api/jobs", json={"task": "analyse", "position": HARD,
                                      "max_time": 50}).json()
    time.sleep(2.5)
    j = web.app.state.pool.get(job["id"])
    assert j.state == "cancelled" and "nobody asked" in str(j.error)


def test_jobs_bad_input_and_unknown_ids(web):
    r = web.post("/api/jobs", json={"task": "mine", "position": SMALL})
    assert r.status_code == 400 and r.json()["error"].startswith("task:")
    r = web.post("/api/jobs", json={"task": "solve", "position": "trump H; hands 6S"})
    assert r.status_code == 400 and r.json()["error"] == cli_error("show", "trump H; hands 6S")
    assert web.get("/api/jobs/nope").status_code == 404


def test_a_full_queue_answers_busy(tmp_path, monkeypatch):
    with client(tmp_path, workers=1) as c:
        c.app.state.pool.max_queue = 1
        ids = [c.post("/api/jobs", json={"task": "analyse", "position": HARD,
                                         "max_time": 20}).json()["id"] for _ in range(2)]
        r = c.post("/api/jobs", json={"task": "analyse", "position": HARD})
        assert r.status_code == 503 and "busy" in r.json()["error"]
        for i in ids:
            c.delete(f"/api/jobs/{i}")


# ------------------------------------------------------------ the app

def test_the_page_and_its_files_are_served(web):
    r = web.get("/")
    assert r.status_code == 200 and "/static/board.js" in r.text
    scripts = re.findall(r'<script src="/static/([\w.]+)"', r.text)
    assert {"board.js", "analysis.js", "editor.js", "play.js", "app.js"} <= set(scripts)
    for name in (*scripts, "style.css", "favicon.svg"):
        assert web.get(f"/static/{name}").status_code == 200
    assert web.get("/static/../app.py").status_code == 404


def test_the_pages_files_are_tracked_and_shipped():
    # a fresh clone and `pip install .` have every file the pages load (a *.html
    # ignore rule once left index.html out of the repository): the templates, the
    # layout they extend, and every static file the rendered pages name
    templates = ROOT / "solver" / "web" / "templates"
    pages = {p.stem for p in templates.glob("*.html")} - {"base"}
    assert pages == set(PAGES) and {"index", "follow", "pair"} <= pages
    rendered = "".join(source(page, pair_link=True, paired=True) for page in pages)
    wanted = {f"static/{name}" for name in re.findall(r'/static/([\w.-]+)', rendered)}
    wanted |= {f"templates/{page}.html" for page in pages | {"base"}}
    assert {"static/app.js", "static/board.js", "static/style.css", "static/live.js",
            "static/icon-192.png", "templates/base.html"} <= wanted
    if not (ROOT / ".git").exists():  # .ci/run works in a clone: this skips only elsewhere
        pytest.skip(f"{ROOT} is not a git checkout: which files are tracked is not known")
    r = subprocess.run(["git", "ls-files", "solver/web/static", "solver/web/templates"],
                       cwd=ROOT, capture_output=True, text=True)
    assert r.returncode == 0, f"git ls-files exited {r.returncode}: {r.stderr}"
    tracked = {"/".join(Path(line).parts[-2:]) for line in r.stdout.splitlines()}
    assert wanted - tracked == set(), "not in the repository"
    pyproject = (ROOT / "pyproject.toml").read_text()
    # the folders are packages of data (tests/test_install.py checks the sdist)
    assert '"solver.web.static" = ["*"]' in pyproject and '"solver.web.static",' in pyproject
    assert '"solver.web.templates" = ["*.html"]' in pyproject
    assert '"solver.web.templates"]' in pyproject


def test_the_openapi_document_lists_every_api_route(web):
    spec = web.get("/api/openapi.json").json()
    routes = {r.path for r in web.app.routes if r.path.startswith("/api")}
    assert set(spec["paths"]) == routes


def test_the_board_view_gives_each_move_its_cards(web):
    r = web.post("/api/board", json={"position": "trump H; hands 7S KH | 9C AH; "
                                                 "table 6S/8S 8C; attacker 1"})
    b = r.json()["board"]
    assert r.json()["moves"] == ["8C/AH", "8C/9C", "take"]
    assert [(m["kind"], m["cards"], m["target"]) for m in b["moves"]] == [
        ("cover", ["AH"], "8C"), ("cover", ["9C"], "8C"), ("take", [], None)]
    assert b["to_move"] == 2 and b["table"] == [{"attack": "6S", "cover": "8S"},
                                                {"attack": "8C", "cover": None}]
