"""Reviewing a game: the value of every decision of a seat (docs/game-record.md).

For each decision of a seat (a record move where it had more than one legal
move) the review gives the *win chance* -- expected points for that seat,
win 1, draw 1/2, loss 0 -- of the move played and of the best move:

* **exact** wherever every card is placed: for one seat, once its knowledge
  leaves one deal (two players with an empty pile, S1: the opponents' hands
  follow from what it saw; or any single consistent deal,
  :func:`solver.games.record.known_deal`); with every seat of a full record
  (``all_seats``), from the first empty-pile decision on.  The exact solver
  (:meth:`solver.search.Solver.analyse`, S1/S2 for the seat as hero) values
  every move.  These positions are solved from the game's end backwards with
  one transposition table, so each earlier endgame finds its successors
  already proven, and they share the review's ``max_time`` (not a budget
  each).  An exact solve that still runs out is ``unclear`` with the reason
  (:attr:`Decision.note`) and no chances: never a label from one sampled deal.
* **estimated** before that: the hint the seat could have asked at that moment
  (:func:`solver.hints.hint_knowledge` on its knowledge, S3), at the hint's own
  default budget and on the same seeded deals, so that following the hint is
  never marked down: the best move *is* the hint's recommendation, and the
  loss is its chance minus the played move's (``win + draw / 2`` each).  The
  estimates run on ``workers`` threads (the compiled core searches without
  the interpreter's lock), each exactly as it would alone.

The loss gives the label (:data:`LABELS`, in the spirit of chess.com's
expected-points classes); an estimate from fewer than :data:`MIN_DEALS` deals
(a time budget cut it) is labelled ``unclear``.

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
from dataclasses import dataclass, field
from typing import Any, Callable

from solver.errors import BudgetExceeded, OptionError
from solver.game.movegen import legal_moves
from solver.game.moves import Move
from solver.game.state import GameState
from solver.game.value import Value
from solver.games.record import Game, known_deal
from solver.hints import HintResult, Knowledge, hint_knowledge, person_samples
from solver.i18n import _, as_given, ngettext, number
from solver.run.executor import default_workers
from solver.search import Solver, SolveResult

#: Labels by the loss of win chance, upper bounds inclusive; above the last: blunder.
LABELS: tuple[tuple[float, str], ...] = (
    (0.005, "best"),
    (0.05, "good"),
    (0.10, "inaccuracy"),
    (0.20, "mistake"),
)
BLUNDER = "blunder"
#: The label of a decision the review cannot judge: an estimate from too few
#: deals, or an exact solve that ran out of the review's budget.
UNCLEAR = "unclear"
LABEL_ORDER = ("best", "good", "inaccuracy", "mistake", "blunder", "unclear")
#: Deals per estimated decision: None, the hint engine's own default for the hints
#: a person asks for (:func:`solver.hints.person_samples`: 1,024 with two players,
#: 2,048 with more), so that a decision is judged by the very hint the player saw.
REVIEW_SAMPLES: int | None = None
#: The fewest deals an estimate needs for a label (else ``unclear``): at 32 deals
#: the interval of one move's chance is about +-0.17, of a difference less.
MIN_DEALS = 32
#: Seconds the exact solves of one review share (``max_time``): solved from the
#: game's end backwards with one table, most reviews need well under one.
REVIEW_MAX_TIME = 10.0
#: The least an exact solve is given once the shared budget is spent, seconds:
#: an easy earlier endgame still gets its answer.
EXACT_FLOOR = 0.25
#: Seconds one estimate may take at most (the hint's default deals take far less).
ESTIMATE_MAX_TIME = 5.0
#: MiB of the transposition table the review's exact solves share (when no
#: solver is given).
REVIEW_TT_MB = 64

POINTS = {Value.WIN: 1.0, Value.DRAW: 0.5, Value.LOSS: 0.0}


def label_of(loss: float) -> str:
    """The label of a loss of win chance (:data:`LABELS`)."""
    for bound, name in LABELS:
        if loss <= bound:
            return name
    return BLUNDER


@dataclass
class Decision:
    """One reviewed decision; ``number`` is the record's move number, seats 1-based.

    ``played_chance``/``best_chance``: None when unknown (an exact solve that ran
    out: ``note`` says so).  ``deals``: the deals the estimate was scored on (0
    when exact); ``wanted``: the deals it asked for; ``as_good``: the move
    played is as good as the best within the noise of the estimate (the hint's
    "as good", :func:`solver.hints.ranking.choose`: the paired test on the same
    deals, at most two points lower), so it is labelled best and loses
    nothing, although ``best`` names the move with the highest chance and
    ``best_chance`` that chance; ``placed``: every card was placed (the decision is exact,
    or ``unclear`` because its exact solve ran out); ``every_deal``: the estimate
    scored every deal consistent with the seat's knowledge (fewer than asked);
    ``seconds``: the time its answer took.
    """

    number: int
    seat: int
    played: str
    best: str
    played_chance: float | None
    best_chance: float | None
    label: str
    exact: bool
    options: int
    played_value: Value | None = None   # exact values for the seat (None when estimated)
    best_value: Value | None = None
    deals: int = 0
    wanted: int = 0
    as_good: bool = False
    placed: bool = False
    note: str = ""
    every_deal: bool = False
    seconds: float = 0.0  # not in the JSON, which repeats exactly

    @property
    def loss(self) -> float | None:
        if self.played_chance is None or self.best_chance is None:
            return None
        return 0.0 if self.as_good else max(0.0, self.best_chance - self.played_chance)

    @property
    def how(self) -> str:
        """``exact``, ``estimate`` or ``unsolved`` (every card placed, the exact solve ran out)."""
        return "exact" if self.exact else "unsolved" if self.placed else "estimate"

    @property
    def cut(self) -> bool:
        """An estimate a time budget cut short of the deals it asked for."""
        return not self.exact and not self.placed and self.deals < self.wanted

    def to_json(self) -> dict[str, Any]:
        def r(x: float | None) -> float | None:
            return None if x is None else round(x, 4)
        return {"move": self.number, "seat": self.seat, "played": self.played,
                "best": self.best or None, "played_chance": r(self.played_chance),
                "best_chance": r(self.best_chance), "loss": r(self.loss), "label": self.label,
                "exact": self.exact, "how": self.how, "options": self.options,
                "played_value": self.played_value.text if self.played_value else None,
                "best_value": self.best_value.text if self.best_value else None,
                "deals": self.deals, "deals_wanted": self.wanted,
                "every_deal": self.every_deal, "as_good": self.as_good,
                "note": self.note or None}


@dataclass
class SeatSummary:
    seat: int
    decisions: int
    labels: dict[str, int]
    mean_loss: float
    exact: int
    lost_after: int | None = None  # the record's move number (:func:`lost_after`)

    def to_json(self) -> dict[str, Any]:
        return {"seat": self.seat, "decisions": self.decisions, "labels": self.labels,
                "mean_loss": round(self.mean_loss, 4), "exact": self.exact,
                "lost_after": self.lost_after}


def lost_after(decisions: list[Decision], lost: bool) -> Decision | None:
    """Where a seat's game was lost (docs/guide/games.md): for a seat that ``lost``,
    its last decision whose best move had a chance of at least one half -- after it
    the best chance never again reaches one half.  ``decisions``: that seat's, in
    order; those whose chances are unknown (an exact solve ran out) say nothing
    and are passed over.  None when the seat did not lose, or when no decision of
    it ever had an even chance (the game was lost before its first choice)."""
    if not lost:
        return None
    found = None
    for d in decisions:
        if d.best_chance is not None and d.best_chance >= 0.5:
            found = d
    return found


@dataclass
class Review:
    """The answer of :func:`review`.  ``samples``: the deals asked for each estimate
    (the hint's default for the table when None was given); ``max_time``: the
    seconds the exact solves shared; ``seconds``: the whole review's."""

    decisions: list[Decision]
    seats: list[int]
    seed: int
    samples: int
    outcome: tuple[int, ...] | None
    summaries: list[SeatSummary] = field(default_factory=list)
    interrupted: bool = False  # Ctrl-C stopped the review: the decisions so far
    total: int = 0             # the decisions there were to review
    max_time: float | None = REVIEW_MAX_TIME
    seconds: float = 0.0  # the whole review's (not in the JSON)

    def lost_after_of(self, seat: int) -> Decision | None:
        """:func:`lost_after` for ``seat`` (1-based) of this review."""
        if self.outcome is None or self.interrupted:
            return None
        return lost_after([d for d in self.decisions if d.seat == seat],
                          self.outcome[seat - 1] < 0)

    @property
    def lost_after(self) -> Decision | None:
        """For a review of one seat that lost: its decision after which the game was
        lost (:func:`lost_after`); None otherwise."""
        return self.lost_after_of(self.seats[0]) if len(self.seats) == 1 else None

    @property
    def decisive(self) -> list[Decision]:
        """Per seat that lost, the drop that decided its game: the move played at its
        :func:`lost_after` decision when that move's chance was below one half."""
        out = []
        for s in self.seats:
            d = self.lost_after_of(s)
            if d is not None and d.played_chance is not None and d.played_chance < 0.5:
                out.append(d)
        return out

    @property
    def cut(self) -> list[Decision]:
        """The estimates a time budget cut short (the review then exits 3)."""
        return [d for d in self.decisions if d.cut]

    @property
    def unsolved(self) -> list[Decision]:
        """The decisions with every card placed whose exact solve ran out (exit 3)."""
        return [d for d in self.decisions if d.how == "unsolved"]

    def budget_text(self) -> str | None:
        """What ran out, one line (the review then exits 3), or None: exact solves
        left unclear, estimates cut short of their deals."""
        parts = []
        if self.unsolved:
            n = len(self.unsolved)
            moves = ", ".join(str(d.number) for d in self.unsolved)
            parts.append((ngettext(
                "the {seconds} s for exact solves ran out before {n} position with every card "
                "placed was solved (move {moves}): 'unclear'",
                "the {seconds} s for exact solves ran out before {n} positions with every card "
                "placed were solved (moves {moves}): 'unclear'", n) if self.max_time is not None
                else ngettext(
                "the time for exact solves ran out before {n} position with every card placed "
                "was solved (move {moves}): 'unclear'",
                "the time for exact solves ran out before {n} positions with every card placed "
                "were solved (moves {moves}): 'unclear'", n)).format(
                    seconds=as_given(self.max_time or 0), n=n, moves=moves))
        if self.cut:
            n = len(self.cut)
            parts.append(ngettext(
                "{n} estimate was cut short of its deals (move {moves}); a label needs {least} "
                "deals, else it is 'unclear'",
                "{n} estimates were cut short of their deals (moves {moves}); a label needs "
                "{least} deals, else it is 'unclear'", n).format(
                    n=n, moves=", ".join(str(d.number) for d in self.cut), least=MIN_DEALS))
        return "; ".join(parts) or None

    def to_json(self) -> dict[str, Any]:
        lost = self.lost_after
        return {"seats": self.seats, "seed": self.seed, "samples": self.samples,
                "outcome": list(self.outcome) if self.outcome else None,
                "decisions": [d.to_json() for d in self.decisions],
                "decisive": [d.number for d in self.decisive],
                "lost_after": lost.number if lost is not None else None,
                "summary": [s.to_json() for s in self.summaries],
                "labels": {name: bound for bound, name in LABELS},
                "min_deals": MIN_DEALS,
                "cut": [d.number for d in self.cut],
                "unsolved": [d.number for d in self.unsolved],
                "exact": sum(d.exact for d in self.decisions),
                "max_time": self.max_time,
                "reviewed": len(self.decisions), "total": self.total,
                "interrupted": self.interrupted}


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
           workers: int | None = None) -> Review:
    """Review the decisions of ``seat`` (1-based; default the record's asking seat),
    or of every seat with ``all_seats`` (a full record).

    ``max_time``: seconds the exact solves share (None: no limit);
    ``samples``/``seed``: the hint engine's deals for estimated decisions (the
    same seed for every decision; samples default to the hint's own);
    ``exact_only``: review only the decisions whose cards are all placed;
    ``workers``: threads for the estimates (default: the cores);
    ``progress(done, total)`` as decisions are scored; ``on_decision`` gets
    each decision as soon as it is scored, in the calling thread (a page fills
    in its table as the review goes on).  ``solver``: the exact solver whose
    table the review's solves share (default a fresh one).
    """
    t0 = time.perf_counter()
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
    states = g.positions()
    moves = [(i, s, m) for i, (s, m) in enumerate(g.replay().moves) if s in seats]
    decisions: list[Decision] = []
    total = len(moves)
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
            progress(done, total)

    try:
        if progress is not None:
            progress(0, total)
        todo = _todo(g, states, moves, all_seats)
        tick(total - len(todo))  # forced moves: nothing to review
        exact = [t for t in todo if t.placed is not None]
        rest = [] if exact_only else [t for t in todo if t.placed is None]
        if exact_only:
            tick(len(todo) - len(exact))
        futures: dict[cf.Future[Decision], _Todo] = {}
        if rest:
            pool = cf.ThreadPoolExecutor(min(len(rest), workers or default_workers()),
                                         thread_name_prefix="durak-review")
            for t in rest:
                futures[pool.submit(_estimate, t, samples, seed, stop)] = t

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
        deadline = None if max_time is None else time.perf_counter() + max_time
        for n, t in enumerate(reversed(exact)):
            scored(_exact(t, slv, deadline, len(exact) - n - 1, max_time))
            tick()
            drain(False)
        while futures:
            drain(True)
    except KeyboardInterrupt:  # Ctrl-C (or a server's cap): the decisions so far
        interrupted = True
    finally:
        stop.set()
        if pool is not None:
            pool.shutdown(wait=not interrupted, cancel_futures=True)
    decisions.sort(key=lambda d: (d.number, d.seat))
    res = Review(decisions, [s + 1 for s in seats], seed,
                 samples if samples is not None else person_samples(g.players), g.outcome(),
                 [], interrupted, total, max_time)
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


def _exact(t: _Todo, slv: Solver, deadline: float | None, left: int,
           budget: float | None) -> Decision:
    """The exact decision of ``t`` within what is left of the shared budget (at
    least :data:`EXACT_FLOOR`, keeping that much for each of the ``left`` earlier
    ones); ``unclear`` with the reason when it runs out."""
    t0 = time.perf_counter()
    played = str(t.move)
    allow = None
    if deadline is not None:
        allow = max(EXACT_FLOOR, deadline - t0 - EXACT_FLOOR * left)
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
                + (" " + _("(the review's {seconds} s for exact solves were spent)").format(
                    seconds=as_given(budget))
                   if deadline is not None and allow is not None and allow <= EXACT_FLOOR
                   else ""))
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


def _estimate(t: _Todo, samples: int | None, seed: int, stop: threading.Event) -> Decision:
    """The estimated decision of ``t``: the hint the seat could have asked then (run in
    a worker thread; ``stop`` ends it at its next deal)."""
    t0 = time.perf_counter()

    def check(done: int, total: int) -> None:
        if stop.is_set():
            raise _Stopped()

    want = samples if samples is not None else person_samples(t.k.view.players)
    h = hint_knowledge(t.k, samples=want, seed=seed, max_time=ESTIMATE_MAX_TIME, progress=check)
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
           max_time: float | None = None, exact_time: float | None = REVIEW_MAX_TIME,
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


__all__ = ["BLUNDER", "LABELS", "MIN_DEALS", "UNCLEAR", "Decision", "Review", "SeatSummary",
           "advise", "label_of", "lost_after", "review"]
