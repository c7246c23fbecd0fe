"""The answers of `durak solve`, `durak analyse` and `durak hint`, one function each.

The commands and `durak batch` both call these, so a batch line is exactly what
the command's ``--json`` prints.  An :class:`Answer` holds the typed result
(for the rich tables) and its JSON form; ``budget`` is the message when a
budget ran out (exit 3, the result then holds what was proven); ``interrupted``
says Ctrl-C stopped the search (exit 130, the result holds what was proven).
"""
from __future__ import annotations

import importlib
from dataclasses import dataclass
from types import ModuleType
from typing import TYPE_CHECKING, Any, Callable

from solver.errors import BudgetExceeded, Interrupted
from solver.game.defaults import has_hidden_cards
from solver.notation import parse_position
from solver.search import Solver, SolveResult

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
                 all_moves: bool = False, seed: int | None = None) -> Answer:
    """`durak solve` (``all_moves``: `durak analyse`) on one position.

    ``solver`` keeps its transposition table between calls (default: a fresh
    64 MiB one).  `analyse` on hidden cards answers with the hint table of
    :func:`hint_answer` (``hero`` then names the asking seat, ``max_time``
    caps the sampling, ``seed`` seeds the deals: default a fresh one).
    """
    pos = parse_position(position)  # any accepted form
    state = pos.state
    if all_moves and has_hidden_cards(state):
        # the hint's own default of deals; max_time (solve's budget) only caps them
        return hint_answer(pos, samples=_engine("solver.hints").default_samples(state.players),
                           seed=seed, max_time=max_time, me=hero)
    solver = solver or Solver()
    fn = solver.analyse if all_moves else solver.solve
    try:
        res = fn(state, hero, max_time=max_time, max_nodes=max_nodes)
    except BudgetExceeded as e:
        return Answer("solve", e.partial, str(e))
    except Interrupted as e:
        return Answer("solve", e.partial, interrupted=True)
    return Answer("solve", res)


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
    return Answer("review", res, interrupted=res.interrupted)


def hint_answer(position: Any, *, samples: int | None = None, seed: int | None = None,
                max_time: float | None = None, workers: int = 1, me: int | None = None,
                progress: Callable[[int, int], None] | None = None,
                scheduler: str | None = None, knowledge: Knowledge | None = None,
                iterations: int | None = None) -> Answer:
    """`durak hint`: every move scored on sampled deals (default samples as the command).

    With only a time budget the deals are scored until it is up, and the answer
    is complete once the default number of them (by the number of players:
    :func:`~solver.hints.default_samples`) is in.  ``knowledge``
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
    default = hints.default_samples(players)
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
        within = f" in {max_time:g} s" if max_time is not None else ""
        budget = (f"{res.samples} of the {res.wanted} deals asked for were scored{within}; "
                  "the answer rests on fewer deals")
    return Answer("hint", res, budget, res.interrupted)


__all__ = ["Answer", "analyse_answer", "hint_answer",
           "review_answer", "solve_answer"]
