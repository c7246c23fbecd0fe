"""What a worker process of the web app runs: one heavy answer at a time.

The app's pool (:mod:`solver.web.jobs`) keeps a few of these processes; each
reads a task from its pipe, computes the answer with the functions the
commands call (:mod:`solver.answers`, the game review, the game session's
engine and hint) and writes back progress messages and one final message.  A process is
killed to cancel its task, so nothing here needs to poll for cancellation.

Messages from the worker: ``("progress", done, total)`` any number of times,
then one of ``("done", answer_json, exit_code, budget_message)``,
``("error", message, exit_code)`` (exit 2: bad input, as the CLI's one line;
exit 1: a bug, one line).
"""
from __future__ import annotations

import os
import signal
import time
from multiprocessing.connection import Connection
from typing import Any, Callable

from solver.answers import analyse_answer, hint_answer, solve_answer
from solver.errors import DurakError
from solver.executor import die_with_parent
from solver.games import Game
from solver.games.review import review
from solver.games.session import GameSession
from solver.search import Solver, SolveResult

#: The transposition table of a worker's solver, MiB (the commands' default).
WORKER_TT_MB = 64
#: Workers run this much nicer than the server, so that the board's quick
#: answers (moves, show) keep their speed while every core searches.
WORKER_NICE = 5
#: Progress messages are sent at most this often (seconds).
PROGRESS_EVERY = 0.2

Progress = Callable[[int, int], None]


def _solve(params: dict[str, Any], solver: Solver, progress: Progress,
           all_moves: bool) -> tuple[dict[str, Any], int, str | None]:
    fn = analyse_answer if all_moves else solve_answer
    kw: dict[str, Any] = dict(max_time=params.get("max_time"), max_nodes=params.get("max_nodes"),
                              solver=solver)
    if all_moves:
        kw["seed"] = params.get("seed")
    ans = fn(params["position"], params.get("hero"), **kw)
    return ans.to_json(), (0 if ans.exact else 3), ans.budget


def _hint(params: dict[str, Any], solver: Solver, progress: Progress,
          all_moves: bool = False) -> tuple[dict[str, Any], int, str | None]:
    ans = hint_answer(params["position"], samples=params.get("samples"), seed=params.get("seed"),
                      max_time=params.get("max_time"), me=params.get("me"), progress=progress,
                      iterations=params.get("iterations"))
    return ans.to_json(), (0 if ans.budget is None else 3), ans.budget


def _review(params: dict[str, Any], solver: Solver, progress: Progress,
            all_moves: bool = False) -> tuple[dict[str, Any], int, str | None]:
    game = params["game"]
    g = Game.from_json(game) if isinstance(game, dict) else Game.parse(game)
    res = review(g, seat=params.get("seat"), all_seats=bool(params.get("all")),
                 max_time=params["max_time"], samples=params["samples"], seed=params["seed"],
                 exact_only=bool(params.get("exact_only")), solver=solver, progress=progress)
    return res.to_json(), 0, None


def _engine(params: dict[str, Any], solver: Solver, progress: Progress,
            all_moves: bool = False) -> tuple[dict[str, Any], int, str | None]:
    """The engine's move in a game on the web board: the record after it."""
    s = GameSession.load(params["record"])
    acc = s.engine_move()
    return {"record": s.record_text(), "entries": list(acc.entries)}, 0, None


def _game_hint(params: dict[str, Any], solver: Solver, progress: Progress,
               all_moves: bool = False) -> tuple[dict[str, Any], int, str | None]:
    """The player's hint in a game on the web board: the session's advice (the exact
    analysis once the player's knowledge places every card, else the hint table)."""
    s = GameSession.load(params["record"])
    res = s.hint(samples=params.get("samples"), max_time=params.get("max_time"),
                 progress=progress)
    if isinstance(res, SolveResult):
        return res.to_json(), 0, None
    if res.complete:
        return res.to_json(), 0, None
    return res.to_json(), 3, (f"{res.samples} of the {res.wanted} deals asked for were scored "
                              f"in {params.get('max_time'):g} s; the answer rests on fewer deals")


def run_task(kind: str, params: dict[str, Any], solver: Solver,
             progress: Progress) -> tuple[dict[str, Any], int, str | None]:
    """One task's answer: ``(json, exit_code, budget_message)``; raises what the answer raises."""
    if kind == "solve":
        return _solve(params, solver, progress, False)
    if kind == "analyse":
        return _solve(params, solver, progress, True)
    if kind == "hint":
        return _hint(params, solver, progress)
    if kind == "review":
        return _review(params, solver, progress)
    if kind == "engine":
        return _engine(params, solver, progress)
    if kind == "game_hint":
        return _game_hint(params, solver, progress)
    if kind == "sleep":  # the tests' stand-in for a long search
        end = time.monotonic() + float(params.get("seconds", 1.0))
        while time.monotonic() < end:
            time.sleep(0.02)
        return {"slept": params.get("seconds", 1.0)}, 0, None
    raise DurakError(f"unknown task {kind!r}")


def serve(conn: Connection) -> None:
    """The worker's loop: tasks in, answers out, until the pipe closes."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # Ctrl-C is the server's to handle
    solver = Solver(WORKER_TT_MB, threads=1)
    while True:
        try:
            kind, params = conn.recv()
        except (EOFError, OSError):
            return
        last = [0.0]

        def progress(done: int, total: int) -> None:
            now = time.monotonic()
            if now - last[0] >= PROGRESS_EVERY or done >= total:
                last[0] = now
                conn.send(("progress", done, total))

        try:
            answer, code, budget = run_task(kind, params, solver, progress)
            msg: tuple[Any, ...] = ("done", answer, code, budget)
        except DurakError as e:
            msg = ("error", " ".join(str(e).split()) or type(e).__name__, 2)
        except Exception as e:  # a bug: one line, the worker goes on
            msg = ("error", f"internal error: {type(e).__name__}: {' '.join(str(e).split())}", 1)
        try:
            conn.send(msg)
        except (BrokenPipeError, OSError):
            return


def main(conn: Connection) -> None:
    """The process's entry point (a ``multiprocessing`` target)."""
    # a server killed outright (SIGKILL) leaves no worker behind: its forkserver
    # ends with it, and this process with its forkserver
    die_with_parent(os.getppid())
    try:
        os.nice(WORKER_NICE)
    except OSError:
        pass
    try:
        serve(conn)
    finally:
        conn.close()
        os._exit(0)
