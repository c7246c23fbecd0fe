"""What a worker process of the web app runs: one heavy answer at a time.

The app's pool (:mod:`solver.web.jobs`) keeps a few of these processes; each
reads a task from its pipe, computes the answer with the functions the
commands call (:mod:`solver.answers.commands`, the game review, the game session's
engine and hint) and writes back progress messages and one final message.  A process is
killed to cancel its task, so nothing here needs to poll for cancellation.

Messages from the worker: ``("progress", done, total)`` and ``("partial",
item)`` (a review's decisions as each is scored) any number of times, then one of ``("done", answer_json, exit_code, budget_message)``,
``("error", message, exit_code)`` (exit 2: bad input, as the CLI's one line;
exit 1: a bug, one line).
"""
from __future__ import annotations

import contextlib
import functools
import os
import re
import signal
import time
from multiprocessing.connection import Connection
from typing import Any, Callable, Iterator

from solver.answers.commands import analyse_answer, hint_answer, solve_answer
from solver.errors import DurakError, MoveError
from solver.run.executor import die_with_parent
from solver.game.movegen import legal_moves, play
from solver.game.moves import Move
from solver.game.outcome import outcome_info
from solver.games import Game
from solver.games.review import review
from solver.games.narration import result_text
from solver.games.session import OnlyMove
from solver.i18n import _, as_given, ngettext, number, set_language
from solver.play.seats import GameSession
from solver.puzzles import train
from solver.puzzles.collection import find_puzzle
from solver.puzzles.mine import load_library
from solver.web.board import board_view, move_view
from solver.web.chances import chances
from solver.search import Solver, SolveResult

#: The transposition table of a worker's solver, MiB (the commands' default).
WORKER_TT_MB = 64
#: Workers run this much nicer than the server, so that the board's quick
#: answers (moves, show) keep their speed while every core searches.
WORKER_NICE = 5
#: Progress messages are sent at most this often (seconds).
PROGRESS_EVERY = 0.2

Progress = Callable[[int, int], None]
Partial = Callable[[Any], None]


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


class _Deadline(KeyboardInterrupt):
    """The review's wall-clock cap ran out (raised by the alarm, taken as Ctrl-C)."""


@contextlib.contextmanager
def _deadline(seconds: float | None) -> Iterator[None]:
    """Stop what runs inside after ``seconds`` as Ctrl-C would: the review then answers
    with the decisions scored so far (``interrupted``), the search stops at once."""
    if not seconds or not hasattr(signal, "setitimer"):
        yield
        return
    armed = [True]

    def ring(signum: int, frame: Any) -> None:
        if armed[0]:
            raise _Deadline()

    old = signal.signal(signal.SIGALRM, ring)
    signal.setitimer(signal.ITIMER_REAL, seconds)
    try:
        yield
    finally:
        armed[0] = False
        signal.setitimer(signal.ITIMER_REAL, 0)
        signal.signal(signal.SIGALRM, old)


def _review(params: dict[str, Any], solver: Solver, progress: Progress,
            all_moves: bool = False, partial: Partial | None = None
            ) -> tuple[dict[str, Any], int, str | None]:
    game = params["game"]
    g = Game.from_json(game) if isinstance(game, dict) else Game.parse(game)
    wall = params.get("wall")
    try:
        with _deadline(wall):
            res = review(g, seat=params.get("seat"), all_seats=bool(params.get("all")),
                         max_time=params["max_time"], samples=params["samples"],
                         seed=params["seed"], exact_only=bool(params.get("exact_only")),
                         hindsight=bool(params.get("hindsight")),
                         solver=solver, progress=progress,
                         on_decision=(lambda d: partial(d.to_json())) if partial else None)
    except KeyboardInterrupt:  # the cap rang outside the decisions' loop
        raise DurakError(_("review: the server's cap of {seconds} s ran out before the first "
                           "decision was scored").format(seconds=as_given(wall or 0))) from None
    if res.interrupted:
        return res.to_json(), 3, ngettext(
            "the server's cap of {seconds} s for one review ran out after {n} decision of the "
            "{total} moves to review; the rest were not scored",
            "the server's cap of {seconds} s for one review ran out after {n} decisions of the "
            "{total} moves to review; the rest were not scored", len(res.decisions)).format(
            seconds=as_given(wall or 0), n=len(res.decisions), total=res.total)
    budget = res.budget_text()
    return res.to_json(), (0 if budget is None else 3), budget


def _engine(params: dict[str, Any], solver: Solver, progress: Progress,
            all_moves: bool = False) -> tuple[dict[str, Any], int, str | None]:
    """The engine's move in a game on the web board: the record after it."""
    s = GameSession.load(params["record"])
    acc = s.engine_move()
    return {"record": s.record_text(), "entries": list(acc.entries)}, 0, None


def _game_hint(params: dict[str, Any], solver: Solver, progress: Progress,
               all_moves: bool = False) -> tuple[dict[str, Any], int, str | None]:
    """The player's hint in a game on the web board: the session's advice (the exact
    analysis once the player's knowledge places every card, else the hint table),
    with each move's and each card's win chance for the board (:mod:`solver.web.chances`)."""
    s = GameSession.load(params["record"])
    res = s.hint(samples=params.get("samples"), max_time=params.get("max_time"),
                 progress=progress)
    answer = res.to_json()
    deck = s.game.rules.deck
    answer["chances"] = chances(answer, [move_view(Move.parse(m, deck))
                                         for m in s.turn().moves or ()])
    if isinstance(res, (SolveResult, OnlyMove)) or res.complete:
        return answer, 0, None
    # the words of `durak hint`'s budget (solver/answers/commands.py)
    return answer, 3, ngettext(
        "{n} of the {wanted} deal asked for was scored in {seconds} s; the answer rests on "
        "fewer deals", "{n} of the {wanted} deals asked for were scored in {seconds} s; the "
        "answer rests on fewer deals", res.wanted).format(
        n=number(res.samples), wanted=number(res.wanted), seconds=as_given(params["max_time"]))


@functools.lru_cache(maxsize=1)
def collections() -> list[Any]:
    """The shipped puzzle collections, hand-made and mined, with their ratings
    (``solver.puzzle_data``, or ``$DURAK_PUZZLES``), read once per process: no request
    names a file."""
    return load_library()


def _told(outcome: dict[str, Any] | None) -> dict[str, Any] | None:
    """A game's end with its words for the page (``words``, the request's language)."""
    return None if outcome is None else {**outcome, "words": result_text(outcome)}


def _puzzle(params: dict[str, Any], solver: Solver) -> tuple[dict[str, Any], int, str | None]:
    """A move of the player in a puzzle of the shipped collections: judged against the
    exact analysis (:func:`solver.puzzles.train.judge`); a good one is played and
    answered by the solver's best defence, a wrong one gets its refutation."""
    p = find_puzzle(collections(), params["id"])
    state = p.state()
    line = list(params.get("line") or [])
    for i, text in enumerate(line, 1):
        legal = {str(m): m for m in legal_moves(state)} if not state.is_over else {}
        try:
            mv = Move.parse(text.split(":", 1)[-1], state.rules.deck)
        except MoveError as e:
            raise MoveError(_("line: move {n} {move}: {error}").format(
                n=i, move=repr(text), error=e)) from None
        if str(mv) not in legal:
            raise MoveError(_("line: move {n} {move} is not legal there").format(
                n=i, move=repr(text)))
        state = play(state, legal[str(mv)])
    out: dict[str, Any] = {"id": p.id, "line": line}
    if params.get("move") is None:  # the position after the line, the solver to answer
        state, replies = train.defend(p, state, solver)
        out.update(replies=replies, line=line + replies)
    else:
        if state.is_over:
            raise MoveError(_("the puzzle is over: no move may follow"))
        if not train.mine(p, state):
            raise MoveError(_("it is seat {seat}'s move (the solver's), not yours").format(
                seat=state.to_move + 1))
        j = train.judge(p, state, params["move"], solver)
        out.update(move=j.move, ok=j.ok, good=j.good if not j.ok else [],
                   value=j.value.text if j.value is not None else None, distance=j.distance)
        if j.ok:
            mine = f"{state.to_move + 1}:{j.move}"
            state = play(state, Move.parse(j.move, state.rules.deck))
            state, replies = train.defend(p, state, solver)
            out.update(replies=replies, line=line + [mine] + replies)
        else:
            out.update(words=j.words(p.task), refutation=j.refutation, line=line,
                       refutation_end=(_told(outcome_info(j.end)) if j.end is not None
                                       and j.end.is_over else None))
    out.update(board=board_view(state), over=state.is_over, outcome=_told(outcome_info(state)))
    return out, 0, None


def run_task(kind: str, params: dict[str, Any], solver: Solver,
             progress: Progress, partial: Partial | None = None
             ) -> tuple[dict[str, Any], int, str | None]:
    """One task's answer: ``(json, exit_code, budget_message)``; raises what the answer raises."""
    if kind == "solve":
        return _solve(params, solver, progress, False)
    if kind == "analyse":
        return _solve(params, solver, progress, True)
    if kind == "hint":
        return _hint(params, solver, progress)
    if kind == "review":
        return _review(params, solver, progress, partial=partial)
    if kind == "puzzle":
        return _puzzle(params, solver)
    if kind == "engine":
        return _engine(params, solver, progress)
    if kind == "game_hint":
        return _game_hint(params, solver, progress)
    if kind == "sleep":  # the tests' stand-in for a long search
        end = time.monotonic() + float(params.get("seconds", 1.0))
        while time.monotonic() < end:
            time.sleep(0.02)
        return {"slept": params.get("seconds", 1.0)}, 0, None
    raise DurakError(_("unknown task {task}").format(task=repr(kind)))


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

        def partial(item: Any) -> None:
            conn.send(("partial", item))

        try:
            # the asking request's words: the process's language (a worker runs one task at
            # a time, and the review's threads read it too)
            set_language(params.get("lang") or "en")
            answer, code, budget = run_task(kind, params, solver, progress, partial)
            msg: tuple[Any, ...] = ("done", answer, code, budget)
        except DurakError as e:
            # one line; the no-break spaces of a number (5 000) kept
            msg = ("error", re.sub(r"[ \t\r\n\f\v]+", " ", str(e)).strip() or type(e).__name__, 2)
        except Exception as e:  # a bug: one line, the worker goes on
            msg = ("error", _("internal error: {error}").format(
                error=f"{type(e).__name__}: {' '.join(str(e).split())}"), 1)
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
