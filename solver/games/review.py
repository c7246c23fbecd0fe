"""Reviewing a game: the value of every decision of a seat (docs/game-record.md).

For each decision of a seat (a record move where it had more than one legal
move) the review gives the *chance* -- expected points for that seat, win 1,
draw 1/2, loss 0; what the decision's answer is made of lives in
:mod:`solver.games.verdict` -- of the move played and of the best move:

* **exact** wherever every card is placed: for one seat, once its knowledge
  leaves one deal (two players with an empty pile, S1: the opponents' hands
  follow from what it saw; or any single consistent deal,
  :func:`solver.games.record.known_deal`); with every seat of a full record
  (``all_seats``), from the first empty-pile decision on.  The exact solver
  (:meth:`solver.search.Solver.analyse`, S1/S2 for the seat as hero) values
  every move.  These positions are solved from the game's end backwards with
  one transposition table, so each earlier endgame finds its successors
  already proven, within the review's ``max_time`` (not a budget each).  An
  exact solve that still runs out is ``unclear`` with the reason
  (:attr:`Decision.note`) and no chances: never a label from one sampled deal.
* **estimated** before that: the hint the seat could have asked at that moment
  (:func:`solver.hints.hint_knowledge` on its knowledge, S3), at the hint's own
  default budget for a person and on the same seeded deals, so that following
  the hint is never marked down: the best move is the one with the highest
  chance (the hint's one number, a draw counted half), and the move played,
  when it is as good as that within the noise -- the hint's recommendation
  always is -- loses nothing (:attr:`~solver.games.verdict.Decision.as_good`).
  The estimates run on ``workers`` threads (the compiled core searches without
  the interpreter's lock), each exactly as it would alone, beside the exact
  solves.

**One budget.**  ``max_time`` is the whole review's, counted from its start:
the exact solves and the estimates share it, an estimate is given at most
what is left of it (the hint stops scoring deals there), and a decision whose
turn comes after it is *not reached* (:attr:`Review.not_reached`): listed,
never guessed, and the review exits 3 with the decisions it has.  It runs past
the budget by at most the last unit of work a budget is checked between (a
chunk of an estimate's deals, the exact search's signal poll).

The loss gives the label (:data:`~solver.games.verdict.LABELS`); an estimate
from fewer than :data:`~solver.games.verdict.MIN_DEALS` deals (a time budget cut
it) is labelled ``unclear``.

Where the game was lost (docs/guide/games.md, one definition for every view):
:attr:`Review.lost_after` is, for a seat that lost, its last decision whose
best move still had a chance of at least one half -- after it the seat's best
chance never again reaches one half.  The *decisive* move of that seat is the
move played there when it fell below one half (the drop that decided the
game); a blunder the game came back from is a blunder in the table, not
decisive.
"""
from __future__ import annotations

import concurrent.futures as cf
import threading
import time
from dataclasses import dataclass
from typing import Callable

from solver.errors import BudgetExceeded, OptionError
from solver.game.movegen import legal_moves
from solver.game.moves import Move
from solver.game.state import GameState
from solver.games.hindsight import HINDSIGHT_SHARE, UNBOUNDED_TIME, blank, fill
from solver.games.record import Game, known_deal
from solver.games.verdict import (BLUNDER, LABEL_ORDER, LABELS, MIN_DEALS, POINTS, UNCLEAR,
                                  Decision, Review, SeatSummary, label_of, lost_after)
from solver.hints import HintResult, Knowledge, hint_knowledge, person_samples
from solver.i18n import _, as_given, ngettext, number
from solver.run.executor import default_workers
from solver.search import Solver, SolveResult

#: Deals per estimated decision: None, the hint engine's own default for the hints
#: a person asks for (:func:`solver.hints.person_samples`: 512 with two players,
#: 1,024 with more), so that a decision is judged by the very hint the player saw.
REVIEW_SAMPLES: int | None = None
#: Seconds a whole review may take by default (``max_time``): the exact solves and
#: the estimates share them.  A two-player review takes 2.5 s at the median and
#: 19 s at most over the stored games with the two cores shared four or five ways
#: (docs/benchmarks.md, "Reviews"): so much that a review at the defaults is whole.
REVIEW_MAX_TIME = 30.0
#: Seconds the exact analysis of the advice during a game (:func:`advise`, the
#: in-game hint) may take before it falls back to the estimate.
ADVISE_EXACT_TIME = 10.0
#: The share of what is left of the budget an exact solve keeps for each earlier one
#: still to come, seconds (never more than is left): an easy earlier endgame still
#: gets its answer.
EXACT_FLOOR = 0.25
#: Seconds one estimate may take at most (the hint's default deals take far less).
ESTIMATE_MAX_TIME = 5.0
#: MiB of the transposition table the review's exact solves share (when no
#: solver is given).
REVIEW_TT_MB = 64

@dataclass
class _Todo:
    """A decision to review: the record's move ``i`` (0-based) by seat ``s`` (0-based)."""

    i: int
    s: int
    move: Move
    k: Knowledge
    options: int
    placed: GameState | None


class _Stopped(Exception):
    """Raised in an estimate's thread once the review stops (Ctrl-C)."""


def review(game: Game | str, seat: int | None = None, all_seats: bool = False,
           max_time: float | None = REVIEW_MAX_TIME, samples: int | None = REVIEW_SAMPLES,
           seed: int = 0, exact_only: bool = False, solver: Solver | None = None,
           progress: Callable[[int, int], None] | None = None,
           on_decision: Callable[[Decision], None] | None = None,
           workers: int | None = None, hindsight: bool = False) -> Review:
    """Review the decisions of ``seat`` (1-based; default the record's asking seat),
    or of every seat with ``all_seats`` (a full record).

    ``max_time``: seconds the whole review may take, counted from now (None: no
    limit): the exact solves and the estimates share them, and the decisions
    not reached by then are listed in :attr:`Review.not_reached`;
    ``samples``/``seed``: the hint engine's deals for estimated decisions (the
    same seed for every decision; samples default to the hint's own);
    ``exact_only``: review only the decisions whose cards are all placed;
    ``workers``: threads for the estimates (default: the cores);
    ``progress(done, total)`` as decisions are scored; ``on_decision`` gets
    each decision as soon as it is scored, in the calling thread (a page fills
    in its table as the review goes on).  ``solver``: the exact solver whose
    table the review's solves share (default a fresh one).

    ``hindsight``: also value every position of the game for the seat (with
    ``all_seats`` the record's asking seat) with every card seen
    (:mod:`solver.games.hindsight`; a record that does not hold every card gets
    the note instead), after the decisions and with the same table: they then
    have ``max_time`` less :data:`HINDSIGHT_SHARE` of it, and hindsight everything
    they leave (without a ``max_time``, :data:`UNBOUNDED_TIME` seconds).  Its
    positions not reached do not count as the budget running out: a game dealt
    whole has early positions no budget reaches.
    """
    t0 = time.perf_counter()
    deadline = None if max_time is None else t0 + max_time
    g = Game.parse(game) if isinstance(game, str) else game
    if samples is not None and samples < 1:
        raise OptionError(f"samples: need at least 1, got {samples}")
    if max_time is not None and max_time <= 0:
        raise OptionError(f"max_time: {max_time:g} is not a positive number of seconds")
    if workers is not None and workers < 1:
        raise OptionError(f"workers: need at least 1, got {workers}")
    if all_seats:
        if not g.full:
            raise OptionError("all: --all needs a full record (every deal and the pile order)")
        seats = list(range(g.players))
    else:
        s0 = g.me if seat is None else seat - 1
        if not 0 <= s0 < g.players:
            raise OptionError(f"seat: seat {seat} is not at this {g.players}-player table")
        if s0 not in g.deals:
            raise OptionError(f"seat: the record does not hold the deal of seat {s0 + 1}")
        seats = [s0]
    hs = blank(g, g.me + 1 if all_seats else seats[0] + 1) if hindsight else None
    until: float | None  # the decisions' deadline
    if hs is not None and hs.positions and max_time is not None:
        # the decisions first, within their share; hindsight gets what they leave
        until = t0 + max_time * (1 - HINDSIGHT_SHARE)
    else:
        until = deadline
    states = g.positions()
    moves = [(i, s, m) for i, (s, m) in enumerate(g.replay().moves) if s in seats]
    decisions: list[Decision] = []
    wanted: list[_Todo] = []  # the decisions to review (forced moves are none)
    total = len(moves)
    # the progress counts the decisions, then the positions hindsight values
    steps = total + (len(hs.positions) if hs is not None else 0)
    interrupted = False
    stop = threading.Event()
    pool: cf.ThreadPoolExecutor | None = None

    def scored(d: Decision | None) -> None:
        if d is not None:
            decisions.append(d)
            if on_decision is not None:
                on_decision(d)

    done = 0

    def tick(n: int = 1) -> None:
        nonlocal done
        done += n
        if progress is not None:
            progress(done, steps)

    try:
        if progress is not None:
            progress(0, steps)
        todo = _todo(g, states, moves, all_seats)
        tick(total - len(todo))  # forced moves: nothing to review
        exact = [t for t in todo if t.placed is not None]
        rest = [] if exact_only else [t for t in todo if t.placed is None]
        wanted = exact + rest
        if exact_only:
            tick(len(todo) - len(exact))
        futures: dict[cf.Future[Decision | None], _Todo] = {}
        if rest:
            pool = cf.ThreadPoolExecutor(min(len(rest), workers or default_workers()),
                                         thread_name_prefix="durak-review")
            for t in rest:
                futures[pool.submit(_estimate_by, t, samples, seed, stop, until)] = t

        def drain(block: bool) -> None:
            if not futures:
                return
            ready, _pending = cf.wait(list(futures), timeout=None if block else 0,
                               return_when=cf.FIRST_COMPLETED)
            for f in sorted(ready, key=lambda f: futures[f].i):
                del futures[f]
                scored(f.result())
                tick()

        # the exact solves, from the game's end backwards: one table, one budget
        slv = solver or Solver(REVIEW_TT_MB)
        for n, t in enumerate(reversed(exact)):
            if _spent(until):
                break  # the earlier ones are not reached
            scored(_exact(t, slv, until, len(exact) - n - 1, max_time))
            tick()
            drain(False)
        while futures:
            drain(True)
        if hs is not None and hs.positions:
            # every card seen: from the game's end backwards, in the same table
            fill(hs, states, slv,
                 deadline if deadline is not None else time.perf_counter() + UNBOUNDED_TIME,
                 tick)
    except KeyboardInterrupt:  # Ctrl-C (or a server's cap): the decisions so far
        interrupted = True
    finally:
        stop.set()
        if pool is not None:
            pool.shutdown(wait=not interrupted, cancel_futures=True)
    decisions.sort(key=lambda d: (d.number, d.seat))
    reached = {(d.number, d.seat) for d in decisions}
    res = Review(decisions, [s + 1 for s in seats], seed,
                 samples if samples is not None else person_samples(g.players), g.outcome(),
                 [], interrupted, total, max_time,
                 not_reached=sorted(t.i + 1 for t in wanted if (t.i + 1, t.s + 1) not in reached),
                 hindsight=hs)
    for s in seats:
        ds = [d for d in decisions if d.seat == s + 1]
        labels = {name: sum(1 for d in ds if d.label == name) for name in LABEL_ORDER}
        judged = [d.loss for d in ds if d.label != UNCLEAR and d.loss is not None]
        mean = sum(judged) / len(judged) if judged else 0.0
        lost = res.lost_after_of(s + 1)
        res.summaries.append(SeatSummary(s + 1, len(ds), labels, mean, sum(d.exact for d in ds),
                                         lost.number if lost is not None else None))
    res.seconds = time.perf_counter() - t0
    return res


def _todo(g: Game, states: list[GameState], moves: list[tuple[int, int, Move]],
          every_card: bool) -> list[_Todo]:
    """The decisions among ``moves`` (more than one legal move), each with the seat's
    knowledge and, where every card is placed, the state to solve."""
    out = []
    for i, s, mv in moves:
        k = g.knowledge(s + 1, at=i + 1)
        options = len(legal_moves(k.view))
        if options < 2:
            continue
        out.append(_Todo(i, s, mv, k, options, _placed_state(k, states[i], every_card)))
    return out


def _placed_state(k: Knowledge, state: GameState, every_card: bool) -> GameState | None:
    """The fully known state the review solves for the seat of ``k``: with
    ``every_card`` (every seat of a full record) ``state`` once the pile is empty;
    else the one deal the seat's knowledge leaves (:func:`known_deal`), if one."""
    if every_card:
        return state if state.pile == 0 and not any(state.hidden) else None
    return known_deal(k)


def _spent(deadline: float | None) -> bool:
    """Whether the review's budget is spent (never without one)."""
    return deadline is not None and time.perf_counter() >= deadline


def _exact(t: _Todo, slv: Solver, deadline: float | None, left: int,
           budget: float | None) -> Decision:
    """The exact decision of ``t`` within what is left of the review's budget
    (keeping :data:`EXACT_FLOOR` for each of the ``left`` earlier ones while there
    is that much, never more than is left); ``unclear`` with the reason when it
    runs out."""
    t0 = time.perf_counter()
    played = str(t.move)
    allow = None
    if deadline is not None:
        rest = max(deadline - t0, 1e-3)  # (the caller saw some left)
        allow = min(rest, max(EXACT_FLOOR, rest - EXACT_FLOOR * left))
    assert t.placed is not None
    try:
        res = slv.analyse(t.placed, hero=t.s + 1, max_time=allow, distance=False, pv=False)
    except BudgetExceeded as e:
        took = time.perf_counter() - t0
        partial = e.partial if isinstance(e.partial, SolveResult) else None
        d = _from_partial(t, partial, took)
        if d is not None:
            return d
        note = (_("exact solve ran out after {seconds} s").format(seconds=number(took, 1))
                + (" " + _("(the review's {seconds} s were spent)").format(
                    seconds=as_given(budget))
                   if budget is not None and _spent(deadline) else ""))
        return Decision(t.i + 1, t.s + 1, played, "", None, None, UNCLEAR, False, t.options,
                        placed=True, note=note, seconds=took)
    return _valued(t, res, time.perf_counter() - t0)


def _valued(t: _Todo, res: SolveResult, took: float) -> Decision:
    vals = {m.move: m.value for m in res.moves}
    played = str(t.move)
    pv, bv = vals[played], res.value
    best = next(m.move for m in res.moves if m.value == bv)  # best first: that value's first
    assert pv is not None and bv is not None  # an exact analysis values every move
    pc, bc = POINTS[pv], POINTS[bv]
    return Decision(t.i + 1, t.s + 1, played, best, pc, bc, label_of(bc - pc), True, t.options,
                    pv, bv, placed=True, seconds=took)


def _from_partial(t: _Todo, partial: SolveResult | None, took: float) -> Decision | None:
    """An exact decision from what a cut-off solve proved, when that is enough: the
    position's value and the played move's value both proven."""
    if partial is None or partial.lower != partial.upper:
        return None
    vals = {m.move: m.value for m in partial.moves}
    pv = vals.get(str(t.move))
    best = next((m.move for m in partial.moves if m.value == partial.lower), None)
    if pv is None or best is None:
        return None
    bv = partial.lower
    pc, bc = POINTS[pv], POINTS[bv]
    return Decision(t.i + 1, t.s + 1, str(t.move), best, pc, bc, label_of(bc - pc), True,
                    t.options, pv, bv, placed=True, seconds=took)


def _estimate_by(t: _Todo, samples: int | None, seed: int, stop: threading.Event,
                 deadline: float | None) -> Decision | None:
    """The estimated decision of ``t`` within what is left of the review's budget (run
    in a worker thread): None, not reached, when the budget is spent or the review
    stopped before its turn came."""
    if stop.is_set() or _spent(deadline):
        return None
    if deadline is None:
        return _estimate(t, samples, seed, stop)
    left = deadline - time.perf_counter()
    return _estimate(t, samples, seed, stop, max_time=min(ESTIMATE_MAX_TIME, max(left, 1e-3)))


def _estimate(t: _Todo, samples: int | None, seed: int, stop: threading.Event,
              max_time: float = ESTIMATE_MAX_TIME) -> Decision:
    """The estimated decision of ``t``: the hint the seat could have asked then (run in
    a worker thread; ``stop`` ends it at its next deal, ``max_time`` caps its deals)."""
    t0 = time.perf_counter()

    def check(done: int, total: int) -> None:
        if stop.is_set():
            raise _Stopped()

    want = samples if samples is not None else person_samples(t.k.view.players)
    h = hint_knowledge(t.k, samples=want, seed=seed, max_time=max_time, progress=check)
    played = str(t.move)
    # the best is the highest chance (the hint's top); the move played, if as good as it
    # within the noise -- the hint's recommendation always is -- loses nothing
    best = h.top
    pc, bc = h.move(played).chance, h.move(best).chance
    as_good = played in h.as_good
    label = (label_of(0.0 if as_good else max(0.0, bc - pc))
             if h.samples >= MIN_DEALS or h.exhaustive else UNCLEAR)
    note = "" if label != UNCLEAR else ngettext(
        "an estimate from {n} deal (a label needs {least})",
        "an estimate from {n} deals (a label needs {least})", h.samples).format(
            n=h.samples, least=MIN_DEALS)
    return Decision(t.i + 1, t.s + 1, played, best, pc, bc, label, False, t.options,
                    deals=h.samples, wanted=h.wanted, as_good=as_good, note=note,
                    every_deal=h.exhaustive,
                    seconds=time.perf_counter() - t0)


def advise(k: Knowledge, known: GameState | None, samples: int | None = None, seed: int = 0,
           max_time: float | None = None, exact_time: float | None = ADVISE_EXACT_TIME,
           solver: Solver | None = None,
           progress: Callable[[int, int], None] | None = None) -> SolveResult | HintResult:
    """The answer a seat gets at a decision during a game (its hint): where every
    card is placed (``known``: the state its knowledge ``k`` pins down) the exact
    analysis of every move (:meth:`Solver.analyse`, the seat as hero) within
    ``exact_time`` seconds; else, or when that runs out, the hint engine on ``k``
    (``samples``: default the hint's own; ``seed``; ``max_time`` caps the deals
    scored).  The review judges the decision by the same answer, except that
    where every card is placed it always takes the exact one (or says it is
    unclear)."""
    if known is not None:
        try:
            return (solver or Solver()).analyse(known, hero=k.seat + 1, max_time=exact_time)
        except BudgetExceeded:
            pass
    want = samples if samples is not None else person_samples(k.view.players)
    return hint_knowledge(k, samples=want, seed=seed, max_time=max_time, progress=progress)


__all__ = ["ADVISE_EXACT_TIME", "BLUNDER", "LABELS", "LABEL_ORDER", "MIN_DEALS", "POINTS",
           "REVIEW_MAX_TIME", "UNCLEAR", "Decision", "Review", "SeatSummary", "advise", "label_of",
           "lost_after", "review"]
