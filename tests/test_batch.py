"""`durak batch` and the executor layer (issue 17): the same lines for any number
of workers or a Dask cluster, errors on their own line, resuming, the optional
Dask dependency."""
from __future__ import annotations

import concurrent.futures as cf
import io
import json
import random
import sys

import pytest
from click.testing import CliRunner

from solver.batch.lines import BatchOptions, done_ids, read_items, run_batch
from solver.cli import main
from solver.game.deal import deal_endgame, new_game
from solver.games import Game
from solver.notation import format_position, position_to_json
from solver.play.match import play_game
from solver.policy.bots import GreedyPolicy
from solver.run.executor import Executor

HIDDEN = ("trump 9H; pile 7; hands 6S 6D QC KS TD AH | ?6; attacker 1; out 7S 8S 9S TS JS 6H 7H "
          "8H TH 7D 8D 9D 6C 7C 8C 9C TC; me 1")
#: The effort fields: they depend on what a worker's table already held and on the clock.
EFFORT = ("nodes", "seconds")


def _lines(n: int = 200) -> list[str]:
    """``n`` items: 4v4 and 5v5 endgames (text and JSON positions), a few hidden ones
    (the hint table for analyse), two bad lines."""
    out = []
    for i in range(n):
        st = deal_endgame(random.Random(1000 + i), [4 + i % 2, 4 + i % 2])
        if i % 3 == 0:
            out.append(json.dumps({"id": f"j{i}", "position": position_to_json(st)}))
        elif i % 3 == 1:
            out.append(json.dumps({"position": format_position(st)}))
        else:
            out.append(format_position(st))
    out[17] = "{not json"
    out[60] = json.dumps({"id": "bad", "position": "trump H; hands 6S | 6S; attacker 1"})
    out[90] = json.dumps({"id": "h", "position": HIDDEN})
    return out


def _run(lines, executor, task="analyse", **kw) -> str:
    buf = io.StringIO()
    run_batch(task, read_items(lines), buf, executor, BatchOptions(samples=16), **kw)
    return buf.getvalue()


def _answers(text: str) -> list[dict]:
    return [{k: v for k, v in json.loads(line).items() if k not in EFFORT}
            for line in text.splitlines()]


@pytest.fixture(scope="module")
def lines():
    return _lines()


@pytest.fixture(scope="module")
def single(lines):
    with Executor(1) as ex:
        return _run(lines, ex)


def test_single_process_answers_every_line_in_order(lines, single):
    got = _answers(single)
    assert len(got) == len(lines)
    assert got[0]["id"] == "j0" and got[1]["id"] == 2 and got[2]["id"] == 3
    assert got[17] == {"id": 18, "error": got[17]["error"], "exit_code": 2}
    assert "not valid JSON" in got[17]["error"]
    assert got[60]["id"] == "bad" and got[60]["exit_code"] == 2 and "6S" in got[60]["error"]
    assert "exhaustive" in got[90]  # analyse on hidden cards: the hint table
    ok = [g for g in got if "error" not in g]
    assert len(ok) == len(lines) - 2 and all(g["exact"] for g in ok if "exact" in g)


def test_local_processes_give_the_same_lines(lines, single):
    with Executor(2) as ex:
        assert ex.kind == "processes"
        assert _answers(_run(lines, ex, chunk=7)) == _answers(single)


def test_a_dask_local_cluster_gives_the_same_lines(lines, single):
    pytest.importorskip("distributed")
    with Executor(2, scheduler="local", local_processes=False) as ex:
        assert ex.kind == "dask" and ex.workers == 2
        assert _answers(_run(lines, ex, chunk=16)) == _answers(single)


def test_the_answer_is_the_commands_json(lines, single):
    line = lines[1]
    pos = json.loads(line)["position"]
    r = CliRunner().invoke(main, ["analyse", "--json", pos])
    assert r.exit_code == 0
    want = {k: v for k, v in json.loads(r.output).items() if k not in EFFORT}
    assert _answers(single)[1] == {"id": 2, **want}


def test_an_interrupted_batch_resumed_gives_the_same_file(tmp_path, lines, single):
    inp = tmp_path / "in.jsonl"
    inp.write_text("\n".join(lines[:60]) + "\n")
    out = tmp_path / "out.jsonl"
    seen = 0

    def stop(n: int) -> None:  # Ctrl-C after some chunks
        nonlocal seen
        seen += n
        # 40 done and some lines written.  The lines wait for every earlier one:
        # a first chunk that runs long (a worker slow to start) holds back the
        # chunks that finish ahead of it (up to AHEAD_PER_WORKER a worker).
        if seen >= 40 and out.stat().st_size > 0:
            raise KeyboardInterrupt

    with out.open("w") as fh, pytest.raises(KeyboardInterrupt):
        with Executor(2) as ex:
            run_batch("analyse", read_items(lines[:60]), fh, ex, BatchOptions(samples=16),
                      chunk=5, progress=stop)
    partial = out.read_text()
    assert 0 < len(partial.splitlines()) < 60
    assert _answers(partial) == _answers(single)[:len(partial.splitlines())]
    with out.open("a") as fh:  # a line cut short by a kill
        fh.write('{"id": "j21", "player"')
    r = CliRunner().invoke(main, ["batch", "analyse", str(inp), "--out", str(out), "--resume",
                                  "-j", "2", "--samples", "16"])
    assert r.exit_code == 0, r.output
    assert _answers(out.read_text()) == _answers(single)[:60]
    # nothing left: a second resume answers nothing and changes nothing
    before = out.read_text()
    r = CliRunner().invoke(main, ["batch", "analyse", str(inp), "--out", str(out), "--resume",
                                  "-j", "1"])
    assert r.exit_code == 0 and out.read_text() == before
    assert len(done_ids(str(out))) == 60


class _FirstJobStuck(Executor):
    """An executor whose first job is reported finished only when no other job
    is in flight: the worst order for a caller that uses the results in order."""

    def __init__(self, workers: int) -> None:
        self.kind, self.workers = "processes", workers
        self.started = 0
        self.first_done = False
        self.lead = 0  # the furthest job started while job 0 was still running

    def submit(self, fn, *args):
        fut: cf.Future = cf.Future()
        fut.job = self.started
        fut.set_result(fn(*args))  # computed now, reported when _wait_first says
        if not self.first_done:
            self.lead = max(self.lead, fut.job)
        self.started += 1
        return fut

    def _wait_first(self, pending):
        others = [f for f in pending if f.job != 0]
        done = {min(others, key=lambda f: f.job)} if others else set(pending)
        self.first_done = self.first_done or not others
        return done, set(pending) - done


def test_lines_held_behind_a_slow_chunk_are_bounded(lines):
    """A slow first chunk lets at most AHEAD_PER_WORKER chunks a worker finish
    ahead of it (their lines wait in memory), and the output is still in order."""
    from solver.batch.lines import AHEAD_PER_WORKER
    ex = _FirstJobStuck(2)
    out = io.StringIO()
    items = read_items(lines[:60] * 2)
    run_batch("solve", items, out, ex, BatchOptions(), chunk=1)
    assert ex.started == sum(it.error is None for it in items)  # bad lines are answered here
    assert ex.lead == AHEAD_PER_WORKER * 2 - 1
    got = [json.loads(x)["id"] for x in out.getvalue().splitlines()]
    assert got == [it.id for it in items]


def test_cli_plain_text_from_stdin_and_a_bad_line():
    pos = [format_position(deal_endgame(random.Random(i), [4, 4])) for i in range(5)]
    text = "\n".join(pos[:2] + ["trump H; hands 6S 6S; attacker 1", ""] + pos[2:]) + "\n"
    r = CliRunner().invoke(main, ["batch", "solve", "-", "-j", "1"], input=text)
    assert r.exit_code == 0
    got = [json.loads(x) for x in r.stdout.splitlines()]
    assert [g["id"] for g in got] == [1, 2, 3, 5, 6, 7]
    assert got[2]["exit_code"] == 2 and "error" in got[2]
    assert all(g["exact"] for i, g in enumerate(got) if i != 2)


def test_budget_gives_what_was_proven_and_exit_code_3():
    st = deal_endgame(random.Random(7), [7, 7])
    r = CliRunner().invoke(main, ["batch", "solve", "-", "-j", "1", "--max-nodes", "1"],
                           input=format_position(st) + "\n")
    assert r.exit_code == 0
    obj = json.loads(r.stdout)
    assert obj["exit_code"] == 3 and obj["exact"] is False and obj["error"].startswith("budget")


def test_hint_items_use_the_seed():
    r1 = CliRunner().invoke(main, ["batch", "hint", "-", "-j", "1", "--samples", "8",
                                   "--seed", "5"], input=HIDDEN + "\n")
    r2 = CliRunner().invoke(main, ["hint", "--json", "--samples", "8", "--seed", "5", HIDDEN])
    assert r1.exit_code == 0 and r2.exit_code == 0
    assert json.loads(r1.stdout) == {"id": 1, **json.loads(r2.stdout)}


def test_scheduler_without_dask_exits_2_with_the_install_command(monkeypatch):
    monkeypatch.setitem(sys.modules, "distributed", None)  # import fails
    r = CliRunner().invoke(main, ["batch", "solve", "-", "--scheduler", "local"],
                           input="trump H; hands 6S | 7S; attacker 1\n")
    assert r.exit_code == 2
    assert "pip install 'durak-solver[cluster]'" in r.stderr
    assert len(r.stderr.strip().splitlines()) == 1


def test_resume_needs_an_output_file_and_unique_ids(tmp_path):
    r = CliRunner().invoke(main, ["batch", "solve", "-", "--resume"], input="")
    assert r.exit_code == 2 and "--out" in r.stderr
    inp = tmp_path / "in.jsonl"
    inp.write_text('{"id": 1, "position": "trump H; hands 6S | 7S; attacker 1"}\n'
                   '{"id": 1, "position": "trump H; hands 6S | 8S; attacker 1"}\n')
    r = CliRunner().invoke(main, ["batch", "solve", str(inp), "--out", str(tmp_path / "o"),
                                  "--resume"])
    assert r.exit_code == 2 and "used twice" in r.stderr


def _greedy_record(seed: int) -> Game:
    start = new_game(2, seed=seed)
    _, moves, _, _, _ = play_game([GreedyPolicy(), GreedyPolicy()], start,
                                  [random.Random(seed), random.Random(seed + 1)])
    return Game.from_play(start, moves)


def test_review_items_are_the_review_commands_json(tmp_path):
    games = [_greedy_record(seed) for seed in (1, 2, 3)]
    items = [json.dumps({"id": f"g{k}", "game": g.format(), "seat": 1})
             for k, g in enumerate(games)]
    items.append(json.dumps({"id": "json", "game": games[0].to_json(), "seat": 2}))
    items.append(json.dumps({"id": "bad", "game": "players 2; nonsense"}))
    buf = io.StringIO()
    run_batch("review", read_items(items), buf, Executor(1),
              BatchOptions(max_time=5.0, samples=8))
    got = [json.loads(line) for line in buf.getvalue().splitlines()]
    assert [a["id"] for a in got] == ["g0", "g1", "g2", "json", "bad"]
    for k, g in enumerate(games):
        f = tmp_path / f"g{k}.txt"
        f.write_text(g.format())
        r = CliRunner().invoke(main, ["review", str(f), "--seat", "1", "--json",
                                      "--max-time", "5", "--samples", "8"])
        assert r.exit_code == 0, r.output
        want = json.loads(r.output.splitlines()[-1])
        assert {k2: v for k2, v in got[k].items() if k2 != "id"} == want
    assert got[3]["seats"] == [2]
    assert got[4]["exit_code"] == 2 and "error" in got[4]
