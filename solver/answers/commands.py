"""The answers of `durak solve`, `durak analyse` and `durak hint`, one function each.

The commands and `durak batch` both call these, so a batch line is exactly what
the command's ``--json`` prints.  An :class:`Answer` holds the typed result
(for the rich tables) and its JSON form; ``budget`` is the message when a
budget ran out (exit 3, the result then holds what was proven); ``interrupted``
says Ctrl-C stopped the search (exit 130, the result holds what was proven).
"""
from __future__ import annotations

import importlib
import time
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable

from solver.errors import BudgetExceeded, Interrupted
from solver.game.defaults import has_hidden_cards
from solver.game.movegen import legal_moves
from solver.game.state import GameState
from solver.game.value import Value
from solver.i18n import as_given, ngettext, number
from solver.notation import parse_position
from solver.search import Solver, SolveResult
from solver.search.exact import budget_message, hero_index
from solver.search.result import on_hero_side, proven_standing, recommend

#: The anytime answer (issue 54).  Of a time budget, this share (at most
#: ``ESTIMATE_MAX`` seconds) is kept back for the estimate should the exact
#: search not finish, so that an answer cut off by ``--max-time`` still
#: recommends a move within the budget; the search has the rest.
ESTIMATE_SHARE = 0.25
ESTIMATE_MAX = 1.0
#: After Ctrl-C the estimate has at most this long (a second Ctrl-C ends it).
ESTIMATE_INTERRUPTED = 0.25
#: Without a time budget (``max_nodes`` only) the estimate's playouts; so many
#: that the answer repeats exactly.
ESTIMATE_ITERATIONS = 100_000
#: Three or more players (no teams), every move proven lost for the seat to
#: move: the playouts of the estimate against independent players that ranks
#: the moves for practical play (a fixed count: the exact answer repeats).
PRACTICAL_ITERATIONS = 50_000

if TYPE_CHECKING:
    from solver.games.review import Review
    from solver.hints import HintResult, Knowledge


def _engine(name: str) -> ModuleType:
    """The hint engine (``solver.hints``) or the game review (``solver.games.review``),
    imported when an answer needs it: `durak solve` on a known position then starts
    without loading either (a tenth of a second of its start-up)."""
    return importlib.import_module(name)


@dataclass
class Answer:
    """One command's answer: ``kind`` is ``"solve"`` (exact), ``"hint"`` (sampled) or ``"review"``."""

    kind: str
    result: SolveResult | HintResult | Review
    budget: str | None = None  # the budget message when one ran out (exit 3)
    interrupted: bool = False  # Ctrl-C stopped the search (exit 130)

    @property
    def exact(self) -> bool:
        return self.budget is None and not self.interrupted

    def to_json(self) -> dict[str, Any]:
        return self.result.to_json()


def solve_answer(position: Any, hero: int | None = None, *, max_time: float | None = None,
                 max_nodes: int | None = None, solver: Solver | None = None,
                 all_moves: bool = False, seed: int | None = None,
                 estimate: bool = True) -> Answer:
    """`durak solve` (``all_moves``: `durak analyse`) on one position.

    ``solver`` keeps its transposition table between calls (default: a fresh
    64 MiB one).  `analyse` on hidden cards answers with the hint table of
    :func:`hint_answer` (``hero`` then names the asking seat, ``max_time``
    caps the sampling, ``seed`` seeds the deals: default a fresh one).

    The anytime answer (``estimate``, issue 54): an answer the budget or
    Ctrl-C cut off still recommends a move, ranked by the estimate of
    :meth:`Solver.estimate` beside what was proven (:func:`recommend`'s
    rule), within the budget: the search has ``max_time`` less the
    estimate's share (``ESTIMATE_SHARE``, at most ``ESTIMATE_MAX``).  With
    3+ players (no teams) an exact answer whose moves all lose for the seat
    to move ranks them by an estimate against independent players.
    """
    pos = parse_position(position)  # any accepted form
    state = pos.state
    if all_moves and has_hidden_cards(state):
        # the hint's own default of deals; max_time (solve's budget) only caps them
        return hint_answer(pos, samples=_engine("solver.hints").person_samples(state.players),
                           seed=seed, max_time=max_time, me=hero)
    solver = solver or Solver()
    fn = solver.analyse if all_moves else solver.solve
    reserve = estimate_reserve(max_time) if estimate else 0.0
    t0 = time.monotonic()
    try:
        res = fn(state, hero, max_time=None if max_time is None else max_time - reserve,
                 max_nodes=max_nodes)
        ans = Answer("solve", res)
    except BudgetExceeded as e:
        ans = Answer("solve", e.partial, budget_message(max_time, max_nodes))
    except Interrupted as e:
        ans = Answer("solve", e.partial, interrupted=True)
    if estimate and solver.backend == "core":
        left = None if max_time is None else max_time - (time.monotonic() - t0)
        anytime(solver, state, hero, ans, left)
    return ans


def estimate_reserve(max_time: float | None) -> float:
    """The seconds of ``max_time`` kept back for the anytime estimate."""
    if not max_time:
        return 0.0
    return min(ESTIMATE_MAX, ESTIMATE_SHARE * max_time)


def anytime(solver: Solver, state: GameState, hero: int | None, ans: Answer,
            left: float | None) -> None:
    """Give ``ans`` (a `solve` or `analyse` answer) its estimate and
    recommended move where it needs them: when it is not exact, and when
    every move is proven lost for the seat to move with 3+ players and no
    teams (then against independent players, for practical play).
    ``left``: the seconds left of the budget (None: none was given)."""
    res = ans.result
    assert isinstance(res, SolveResult)
    if state.is_over:
        return
    h = hero_index(state, hero)
    mine = on_hero_side(state, h, state.to_move)
    texts = [str(m) for m in legal_moves(state)]
    value = res.value
    lost = value is not None and value != Value.DRAW and (value == Value.LOSS) == mine
    practical = lost and state.players > 2 and not state.rules.teams
    if ans.exact and not (practical and len(texts) > 1):
        return
    if not lost and 1 in proven_standing(res, texts, mine):
        # a move is proven to keep the position's value: nothing ranks above it
        res.recommended, res.recommended_by, _ = recommend(res, texts, mine, None)
        return
    seconds: float | None
    iterations: int | None = None
    if ans.interrupted:
        seconds = ESTIMATE_INTERRUPTED
    elif ans.exact:
        seconds, iterations = left, PRACTICAL_ITERATIONS
    elif left is None:
        seconds, iterations = None, ESTIMATE_ITERATIONS
    else:
        seconds = min(ESTIMATE_MAX, left)
    if seconds is not None and seconds <= 0.005:
        if ans.exact:
            return
        seconds = 0.005  # a budget spent to the last: a token estimate still names a move
    model = "independent" if state.players > 2 and not state.rules.teams else "coalition"
    known, root = None, (-1, 1)
    if not lost:
        # what is proven goes into the estimate's tree: the moves' bounds, and
        # the position's while it is open (a solved root would end the search)
        model, known = "coalition", _known(res, texts, mine)
        if res.lower < res.upper:
            root = (int(res.lower), int(res.upper))
    try:
        est = solver.estimate(state, h + 1, model=model, max_time=seconds,
                              iterations=iterations, known=known, root=root)
    except KeyboardInterrupt:  # a second Ctrl-C: no estimate
        ans.interrupted = True
        est = None
    if est is not None and est.interrupted:
        ans.interrupted = True
    res.estimate = est
    res.recommended, res.recommended_by, _ = recommend(res, texts, mine, est)


def _known(res: SolveResult, texts: list[str], mine: bool) -> list[tuple[int, int]]:
    """Per legal move, the bounds on its value for the hero that ``res``
    proved: its value where known; else a move of the hero's side is worth
    no more than the position, one of the others' no less (S2)."""
    values = {m.move: int(m.value) for m in res.moves if m.value is not None}
    keeps = set(res.best) if res.value is not None else set()
    out = []
    for t in texts:
        if t in values:
            out.append((values[t], values[t]))
        elif t in keeps:
            out.append((int(res.value), int(res.value)))  # type: ignore[arg-type]
        elif mine:
            out.append((-1, int(res.upper)))
        else:
            out.append((int(res.lower), 1))
    return out


def analyse_answer(position: Any, hero: int | None = None, *, max_time: float | None = None,
                   max_nodes: int | None = None, solver: Solver | None = None,
                   seed: int | None = None) -> Answer:
    """`durak analyse`: every legal move with its value, best first (hint table if hidden)."""
    return solve_answer(position, hero, max_time=max_time, max_nodes=max_nodes, solver=solver,
                        all_moves=True, seed=seed)


def review_answer(game: Any, seat: int | None = None, *, max_time: float | None = None,
                  samples: int | None = None, seed: int | None = None,
                  solver: Solver | None = None) -> Answer:
    """`durak review`: every decision of ``seat`` (default the record's asking seat)
    valued and labelled; ``game`` is a record's text, its JSON object or a :class:`Game`."""
    rv = _engine("solver.games.review")
    game_cls = _engine("solver.games").Game
    g = game if isinstance(game, game_cls) else (
        game_cls.from_json(game) if isinstance(game, dict) else game_cls.parse(game))
    res = rv.review(g, seat=seat, max_time=rv.REVIEW_MAX_TIME if max_time is None else max_time,
                    samples=rv.REVIEW_SAMPLES if samples is None else samples,
                    seed=0 if seed is None else seed, solver=solver)
    return Answer("review", res, budget=None if res.interrupted else res.budget_text(),
                  interrupted=res.interrupted)


def hint_answer(position: Any, *, samples: int | None = None, seed: int | None = None,
                max_time: float | None = None, workers: int = 1, me: int | None = None,
                progress: Callable[[int, int], None] | None = None,
                scheduler: str | None = None, knowledge: Knowledge | None = None,
                iterations: int | None = None) -> Answer:
    """`durak hint`: every move scored on sampled deals (default samples as the command:
    a person's, :func:`~solver.hints.person_samples`).

    With only a time budget the deals are scored until it is up, and the answer
    is complete once the default number of them is in.  ``knowledge``
    (a seat's view of a game record) stands in for ``position``; ``iterations``
    sets the tree search's iterations per deal (``uct_iters`` and
    ``uct_iters_multi`` of :class:`~solver.hints.HintConfig`).
    """
    hints = _engine("solver.hints")
    if knowledge is None:
        pos = parse_position(position)  # parsed once
        players = pos.state.players
    else:
        pos, players = None, knowledge.view.players
    default = hints.person_samples(players)
    floor = default if samples is None and max_time is not None else None
    if samples is None:
        samples = hints.TIME_ONLY_SAMPLES if max_time is not None else default
    config = (None if iterations is None
              else hints.HintConfig(uct_iters=iterations, uct_iters_multi=iterations))
    try:
        if knowledge is not None:
            res = hints.hint_knowledge(knowledge, samples=samples, seed=seed,
                                       max_time=max_time, workers=workers, progress=progress,
                                       scheduler=scheduler, min_samples=floor, config=config)
        else:
            res = hints.hint(pos, samples=samples, seed=seed,
                             max_time=max_time, workers=workers, me=me, progress=progress,
                             scheduler=scheduler, min_samples=floor, config=config)
    except Interrupted as e:  # Ctrl-C: the answer from the deals scored so far
        res = e.partial
    budget = None
    if not res.complete and not res.interrupted:
        if max_time is not None:
            budget = ngettext("{n} of the {wanted} deal asked for was scored in {seconds} s; "
                              "the answer rests on fewer deals",
                              "{n} of the {wanted} deals asked for were scored in {seconds} s; "
                              "the answer rests on fewer deals", res.wanted)
        else:
            budget = ngettext("{n} of the {wanted} deal asked for was scored; the answer rests "
                              "on fewer deals",
                              "{n} of the {wanted} deals asked for were scored; the answer "
                              "rests on fewer deals", res.wanted)
        budget = budget.format(n=number(res.samples), wanted=number(res.wanted),
                               seconds=as_given(max_time or 0))
    return Answer("hint", res, budget, res.interrupted)


__all__ = ["Answer", "analyse_answer", "hint_answer",
           "review_answer", "solve_answer"]
