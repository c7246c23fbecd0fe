"""The hint engine: score every move of a hidden-information position (S3).

Perfect-information Monte Carlo ("determinization"):

1. The asking seat's knowledge (:mod:`solver.knowledge`) gives the pool of
   unseen cards; the sampler (:mod:`solver.sampler`) deals it uniformly among
   the hidden hand slots and the pile -- or enumerates every deal when there
   are no more of them than the sample budget.
2. Every candidate move is scored on *the same* deals (common random numbers:
   differences between moves are not drowned by the luck of the deal).
3. A deal is scored per move by :func:`evaluate_deal`:

   * **exact**: with the pile empty (or, when the compiled solver is there, no
     bigger than :attr:`HintConfig.exact_pile`), the exact solver
     (:class:`solver.search.Solver`) gives the value of every move for the
     asking seat (S1, S2; with 3+ players against the coalition of the others).
   * **playout**: otherwise the move is played and the game finished by the
     greedy player (:mod:`solver.bots`) in every seat; the result for the
     asking seat is the move's score on that deal.  Greedy play is deterministic,
     so a deal and a move give one number.  Why playouts: they are cheap
     (the compiled core plays them, ``ext/playout.pxi``, in about 30 µs a
     game; :func:`playout` is the pure-Python reference, about 3-7 ms),
     cover the whole game (drawing, takes, the endgame) and, being the same
     policy for everybody, measure the relative merit of the moves rather
     than an absolute chance.  The card margin at the end breaks ties.

4. Per move: win/draw/loss rates, mean score (+1/0/-1), a 95% interval, and
   the share of deals on which the move was (one of) the best.  The
   recommended move has the best utility (mean score + a small weight times
   the card margin); ties go to the larger best-share, then to the greedy
   player's own choice.  On sampled deals the greedy move stays recommended
   unless the top move's paired advantage over it is clear (``switch_z``).

The thresholds and budgets are measured and argued in ``docs/hint.md``.
"""
from __future__ import annotations

import math
import os
import random
import time as _time
from dataclasses import dataclass
from typing import Any, Callable, Sequence

from .bots import greedy_move
from .cards import count
from .engine import legal_moves, play
from .errors import BudgetExceeded, PositionError
from .knowledge import Knowledge, knowledge_of
from .moves import Move
from .sampler import Sampler
from .state import GameState

#: Deals per hint, for `durak hint` and the match bot alike (measured in docs/hint.md).
DEFAULT_SAMPLES = 128
#: The sample cap when only a time budget is given.
TIME_ONLY_SAMPLES = 5000
#: A playout longer than this many moves counts as a draw (R23: endless play).
PLAYOUT_LIMIT = 1500
Z95 = 1.959963984540054
#: Weight of the mean card margin next to the mean score when moves are ranked.
MARGIN_WEIGHT = 0.1 / 6


@dataclass(frozen=True)
class HintConfig:
    """How a deal is scored (see the module docstring and ``docs/hint.md``).

    ``solver``: ``"auto"`` uses the exact solver where the pile is empty only when
    the compiled backend is present (the pure-Python reference is far too slow
    for a hint), ``"always"`` uses whatever backend there is, ``"never"`` plays
    every deal out.  ``exact_pile``: with the compiled solver, deals whose pile
    holds at most this many cards are solved exactly with the sampled pile
    order.  ``exact_nodes`` (two players) / ``exact_nodes_multi`` (three or
    more): node budget of one exact solve; beyond it the deal falls back to
    playouts.  ``exact_cards_multi``: with three or more players a deal is
    solved only when at most this many cards are in the hands and on the table
    (measured: up to 11 every solve took under 20 ms; from 12 most ran out of
    50,000 nodes).  ``switch_z``: when the deals were sampled, the best-scoring
    move is recommended over the greedy player's move only if its paired mean
    advantage on the same deals exceeds ``switch_z`` standard errors; else the
    greedy move is recommended (noise must not talk the engine out of a sound
    default).  ``playouts``: ``"auto"`` runs the greedy playouts in the compiled
    core (``ext/playout.pxi``, the same moves and results as :func:`playout`,
    about a hundred times faster), ``"python"`` runs the pure-Python reference
    :func:`playout`.
    """

    solver: str = "auto"
    exact_pile: int = 0
    exact_nodes: int = 500_000
    exact_nodes_multi: int = 50_000
    exact_cards_multi: int = 11
    switch_z: float = 1.0
    endgame_pile: int = 2
    endgame_nodes: int = 30_000
    tt_mb: int = 16
    playout_limit: int = PLAYOUT_LIMIT
    playouts: str = "auto"


@dataclass
class HintMove:
    """One candidate move and how it fared over the deals."""

    move: str
    win: float
    draw: float
    loss: float
    score: float
    ci95: tuple[float, float]        # 95% interval of the win chance (Wilson)
    score_ci95: tuple[float, float]  # 95% interval of the mean score
    best: float                      # share of deals on which this move was (one of) the best
    n: int
    margin: float = 0.0              # mean card margin at the end of the playouts

    def to_json(self) -> dict[str, Any]:
        r = lambda x: round(x, 4)  # noqa: E731
        return {
            "move": self.move, "win": r(self.win), "draw": r(self.draw), "loss": r(self.loss),
            "score": r(self.score), "ci95": [r(self.ci95[0]), r(self.ci95[1])],
            "score_ci95": [r(self.score_ci95[0]), r(self.score_ci95[1])],
            "best_share": r(self.best), "margin": r(self.margin),
        }


@dataclass
class HintResult:
    """The answer of :func:`hint`; ``player`` is the asking seat, 1-based."""

    player: int
    to_move: int
    best: str
    samples: int
    seed: int
    moves: list[HintMove]
    exhaustive: bool = False
    deals_total: int = 0
    exact_deals: int = 0
    seconds: float = 0.0
    workers: int = 1

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player, "to_move": self.to_move, "best": self.best,
            "samples": self.samples, "seed": self.seed,
            "moves": [m.to_json() for m in self.moves],
            "exhaustive": self.exhaustive, "deals_total": self.deals_total,
            "exact_deals": self.exact_deals,
        }


# ----------------------------------------------------------- evaluation
def playout(state: GameState, me: int, limit: int = PLAYOUT_LIMIT,
            endgame: Callable[[GameState, int], int | None] | None = None) -> tuple[int, float]:
    """Finish a fully known game with the greedy player in every seat.

    Returns ``me``'s result (+1/0/-1) and the card margin at the end: the
    mean hand of the others minus ``me``'s hand (how decisive the result was;
    the durak's cards count for the winners).  With ``endgame``, the first
    position between bouts with the pile empty is handed to it; if it returns a
    value (+1/0/-1, an exact solve) that is the result, with the card margin of
    that moment.
    """
    s = state
    solved = None
    for _ in range(limit):
        if s.is_over:
            break
        if endgame is not None and s.pile == 0 and not s.table:
            solved = endgame(s, me)
            if solved is not None:
                break
            endgame = None
        s = play(s, greedy_move(s))
    n = s.players
    mine = s.hand_size(me)
    others = sum(s.hand_size(o) for o in range(n) if o != me) / (n - 1)
    if solved is not None:
        return solved, others - mine
    if not s.is_over:
        return 0, 0.0  # R23: endless play counts as a draw
    return s.outcome()[me], others - mine


class _Evaluator:
    """Scores the candidate moves on one deal; keeps one exact solver per process."""

    def __init__(self, cfg: HintConfig, solver: Any = None):
        self.cfg = cfg
        self._solver = solver
        self._solver_ok: bool | None = None if solver is None else True
        self._po_search: Any = None  # a small core Search the playouts load deals into
        self._po_core: Any = None
        if cfg.playouts == "auto":
            try:
                from .core import core

                if hasattr(core, "greedy_playout"):
                    self._po_core = core
            except ImportError:  # no compiled core: the Python playouts
                self._po_core = None
        elif cfg.playouts != "python":
            raise ValueError(f"playouts: 'auto' or 'python', got {cfg.playouts!r}")

    def solver(self):
        if self._solver_ok is None:
            self._solver_ok = False
            if self.cfg.solver != "never":
                try:
                    from .search import Solver

                    s = Solver(tt_mb=self.cfg.tt_mb)
                    if self.cfg.solver == "always" or s.backend == "core":
                        self._solver = s
                        self._solver_ok = True
                except Exception:  # no solver: playouts only
                    self._solver_ok = False
        return self._solver if self._solver_ok else None

    def endgame_value(self, state: GameState, me: int) -> int | None:
        """The exact value of an empty-pile position for ``me`` within
        ``endgame_nodes`` per question, or None (two boolean questions of the
        core search: can ``me`` win? can the others win?)."""
        search = self._solver_search()
        if search is None:
            return None
        from ._solver_core import load

        return self._endgame_core(load(search, state), me)

    def _solver_search(self):
        """The exact solver's core Search, or None (no compiled solver)."""
        solver = self.solver()
        return getattr(getattr(solver, "_core", None), "search", None)

    def _endgame_core(self, st, me: int) -> int | None:
        """:meth:`endgame_value` of a state of the exact solver's own core
        Search, both questions sharing ``2 * endgame_nodes``."""
        return self.solver()._core.budgeted_value(st, me, 2 * self.cfg.endgame_nodes)

    def exact_wanted(self, deal: GameState) -> bool:
        if deal.pile == 0:
            if deal.players == 2:
                return True
            in_play = sum(count(h) for h in deal.hands) + count(deal.table_mask)
            return in_play <= self.cfg.exact_cards_multi
        backend = getattr(self._solver, "backend", "core")
        return backend == "core" and deal.pile <= self.cfg.exact_pile

    def evaluate(self, deal: GameState, moves: Sequence[Move],
                 me: int) -> tuple[list[int], list[float], bool]:
        """Score of every move for ``me`` on ``deal`` (+1/0/-1), the tie-break
        margins and whether the scores are exact.  For playouts the margin is the
        card margin; for exact scores it is six times the greedy playout's result
        plus its card margin (it only orders moves of equal exact value)."""
        if self.exact_wanted(deal):
            solver = self.solver()
            if solver is not None:
                try:
                    budget = (self.cfg.exact_nodes if deal.players == 2
                              else self.cfg.exact_nodes_multi)
                    res = solver.analyse(deal, me, distance=False, pv=False, max_nodes=budget)
                    vals = {mv.move: mv.value for mv in res.moves}
                    conv = {"win": 1, "draw": 0, "loss": -1}
                    if all(str(m) in vals and vals[str(m)] in conv for m in moves):
                        # ties between equal exact values go to the practical chances:
                        # the greedy playout's result and card margin
                        tb = self.playouts(deal, moves, me, False)
                        return ([conv[vals[str(m)]] for m in moves],
                                [6 * r + g for r, g in tb], True)
                except BudgetExceeded:
                    pass
        eg = (deal.players == 2 and self.cfg.endgame_pile >= deal.pile
              and self.solver() is not None and getattr(self._solver, "backend", "") == "core")
        res = self.playouts(deal, moves, me, eg)
        return [r for r, _ in res], [g for _, g in res], False

    def playouts(self, deal: GameState, moves: Sequence[Move], me: int,
                 endgame: bool) -> list[tuple[int, float]]:
        """:func:`playout` after each move (with the exact endgame hand-over when
        ``endgame``), in the compiled core when it is there."""
        if self._po_core is not None:
            res = self._core_playouts(deal, moves, me, endgame)
            if res is not None:
                return res
        eg = self.endgame_value if endgame else None
        return [playout(play(deal, m), me, self.cfg.playout_limit, eg) for m in moves]

    def _core_playouts(self, deal: GameState, moves: Sequence[Move], me: int,
                       endgame: bool) -> list[tuple[int, float]] | None:
        """The C playouts (``ext/playout.pxi``); None when they cannot be used.

        The deal is loaded once; each candidate move is played in C, by its
        index in the core's move list (the same canonical order as
        ``engine.legal_moves``).  With ``endgame`` the deal goes into the exact
        solver's own Search, so the position where the pile has run out can be
        proven there without converting it back.
        """
        from ._solver_core import load

        core = self._po_core
        search = self._solver_search() if endgame else None
        if endgame and search is None:
            return None
        if search is None:
            if self._po_search is None:
                self._po_search = core.Search(1)
            search = self._po_search
        st = load(search, deal)
        if len(st.moves()) != len(moves):
            return None
        order = tuple(a for a, _ in deal.table)
        limit = self.cfg.playout_limit
        out = []
        for i in range(len(moves)):
            r, g, steps, end = core.greedy_playout(st, me, limit, order, i, endgame)
            if end is not None:  # the pile ran out between bouts: solve or play on
                v = self._endgame_core(end, me)
                if v is None:
                    r, g, _, _ = core.greedy_playout(end, me, limit - steps)
                else:
                    r = v
            out.append((r, g))
        return out


def evaluate_deal(deal: GameState, moves: Sequence[Move], me: int, cfg: HintConfig | None = None,
                  solver: Any = None) -> tuple[list[int], list[float], bool]:
    """Score every move for ``me`` (0-based) on one fully known deal: results
    (+1/0/-1 each), card margins, exact or not."""
    return _Evaluator(cfg or HintConfig(), solver).evaluate(deal, moves, me)


# per-process state of the worker pool
_worker: dict[str, Any] = {}


def _pool_init(cfg: HintConfig, moves: list[Move], me: int) -> None:
    _worker["ev"] = _Evaluator(cfg)
    _worker["moves"] = moves
    _worker["me"] = me


def _pool_eval(deal: GameState) -> tuple[list[int], list[float], bool]:
    return _worker["ev"].evaluate(deal, _worker["moves"], _worker["me"])


# ------------------------------------------------------------ statistics
def wilson(k: float, n: int, z: float = Z95) -> tuple[float, float]:
    """Wilson score interval of a proportion ``k/n``."""
    if n == 0:
        return 0.0, 1.0
    p = k / n
    den = 1 + z * z / n
    centre = (p + z * z / (2 * n)) / den
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / den
    return max(0.0, centre - half), min(1.0, centre + half)


def mean_ci(xs: Sequence[int], z: float = Z95) -> tuple[float, float, float]:
    """Mean and normal 95% interval of scores in [-1, 1]."""
    n = len(xs)
    m = sum(xs) / n
    if n < 2:
        return m, -1.0, 1.0
    var = sum((x - m) ** 2 for x in xs) / (n - 1)
    half = z * math.sqrt(var / n)
    return m, max(-1.0, m - half), min(1.0, m + half)


def aggregate(moves: Sequence[Move], scores: Sequence[Sequence[int]], exact: bool,
              greedy: Move | None = None,
              margins: Sequence[Sequence[float]] | None = None,
              mine: bool = True) -> list[HintMove]:
    """Per-move statistics over deals (``scores[d][i]``: move i on deal d), best first.

    Moves are ranked by their *utility*: mean score plus :data:`MARGIN_WEIGHT`
    times the mean card margin (a tie-breaker between moves of equal score;
    six cards of margin weigh as much as 0.1 of score).  Scores are always the
    asking seat's; when the seat to move is an opponent (``mine`` false) the
    best move for the mover is the worst for the asking seat (S2a).
    """
    sign = 1 if mine else -1
    n = len(scores)
    if margins is None:
        margins = [[0.0] * len(moves) for _ in scores]
    out = []
    best_share = [0.0] * len(moves)
    for row, mrow in zip(scores, margins):
        util = [sign * (x + MARGIN_WEIGHT * g) for x, g in zip(row, mrow)]
        top = max(util)
        winners = [i for i, x in enumerate(util) if x >= top - 1e-12]
        for i in winners:
            best_share[i] += 1 / len(winners)
    for i, m in enumerate(moves):
        col = [row[i] for row in scores]
        w = sum(1 for x in col if x > 0)
        d = sum(1 for x in col if x == 0)
        l_ = n - w - d
        mean, lo, hi = mean_ci(col)
        if exact:  # every deal, each exactly: the figures are the truth, not estimates
            ci, sci = (w / n, w / n), (mean, mean)
        else:
            ci, sci = wilson(w, n), (lo, hi)
        margin = sum(row[i] for row in margins) / n
        out.append(HintMove(str(m), w / n, d / n, l_ / n, mean, ci, sci, best_share[i] / n, n,
                            margin))
    order = sorted(range(len(moves)), key=lambda i: (
        -round(sign * (out[i].score + MARGIN_WEIGHT * out[i].margin), 9), -round(out[i].best, 9),
        moves[i] != greedy, i))
    return [out[i] for i in order]


def paired_advantage(a: int, b: int, scores: Sequence[Sequence[int]],
                     margins: Sequence[Sequence[float]]) -> tuple[float, float]:
    """Mean and standard error of the utility of move ``a`` minus move ``b``,
    deal by deal (the deals are shared, so the luck of the deal cancels)."""
    ds = [(r[a] + MARGIN_WEIGHT * m[a]) - (r[b] + MARGIN_WEIGHT * m[b])
          for r, m in zip(scores, margins)]
    n = len(ds)
    mean = sum(ds) / n
    if n < 2:
        return mean, float("inf")
    var = sum((x - mean) ** 2 for x in ds) / (n - 1)
    return mean, math.sqrt(var / n)


def _keep_default(ranked: list[HintMove], moves: Sequence[Move], scores, margins,
                  greedy: Move, z: float, mine: bool = True) -> list[HintMove]:
    """Put the greedy move first unless the top move beats it clearly (``switch_z``)."""
    names = [str(m) for m in moves]
    g = names.index(str(greedy))
    t = names.index(ranked[0].move)
    mean, se = paired_advantage(t, g, scores, margins)
    if not mine:
        mean = -mean
    if mean > 0 and mean > z * se:
        return ranked
    gi = next(i for i, h in enumerate(ranked) if h.move == names[g])
    return [ranked[gi]] + ranked[:gi] + ranked[gi + 1:]


# ------------------------------------------------------------------ API
def _parse(position: Any, me: int | None) -> tuple[GameState, int | None]:
    """A state and the 0-based asking seat from any accepted form of a position."""
    pos_me = None
    if isinstance(position, GameState):
        state = position
    else:
        st = getattr(position, "state", None)
        if not isinstance(st, GameState):
            from .notation import parse_position

            position = parse_position(position)
            st = position.state
        state = st
        pos_me = getattr(position, "me", None)
    if me is not None:
        if not 1 <= me <= state.players:
            raise PositionError("me", f"seat {me} is not at this {state.players}-player table")
        return state, me - 1
    if pos_me is not None:  # Position.me is 0-based (solver.notation)
        return state, int(pos_me)
    return state, None


def hint(position: Any, samples: int = DEFAULT_SAMPLES, seed: int | None = None,
         time: float | None = None, workers: int = 1, me: int | None = None,
         config: HintConfig | None = None, solver: Any = None,
         progress: Callable[[int, int], None] | None = None) -> HintResult:
    """Score every move of the seat to move, as seen by the asking seat.

    ``position``: a position string, JSON-like dict, parsed position or
    :class:`GameState`; ``me`` (1-based) overrides its ``me`` field (default:
    the seat to move).  ``samples``: the number of deals (all of them when there
    are fewer); ``time``: stop scoring new deals after this many seconds (the
    deals scored are then a prefix of the seeded list, at least one);
    ``seed``: the deals' seed (default: a fresh one, reported in the result);
    ``workers``: processes to spread deals over -- the result does not depend
    on it.  ``solver``: an object with the :class:`solver.search.Solver` API to
    use for exact deals (tests).
    """
    state, me0 = _parse(position, me)
    k = knowledge_of(state, me0)
    return hint_knowledge(k, samples=samples, seed=seed, time=time, workers=workers,
                          config=config, solver=solver, progress=progress)


def hint_knowledge(k: Knowledge, samples: int = DEFAULT_SAMPLES, seed: int | None = None,
                   time: float | None = None, workers: int = 1,
                   config: HintConfig | None = None, solver: Any = None,
                   progress: Callable[[int, int], None] | None = None) -> HintResult:
    """:func:`hint` on a seat's knowledge (the bots' entry point)."""
    t0 = _time.perf_counter()
    cfg = config or HintConfig()
    if samples < 1:
        raise ValueError(f"samples: need at least 1, got {samples}")
    if time is not None and time <= 0:
        raise ValueError(f"time: must be positive, got {time:g}")
    if workers < 1:
        raise ValueError(f"workers: need at least 1, got {workers}")
    view = k.view
    if view.is_over:
        raise PositionError("position", "the game is over: there is no move to hint")
    to_move = view.to_move
    if view.hidden[to_move]:
        raise PositionError(
            "me", f"seat {to_move + 1} is to move and its hand is hidden from seat {k.seat + 1}; "
                  "ask the hint as the seat to move")
    moves = legal_moves(view)
    if seed is None:
        seed = int.from_bytes(os.urandom(4), "little")
    rng = random.Random(seed)
    sampler = Sampler(k)
    deals_total = sampler.count()
    exhaustive = deals_total <= samples
    if exhaustive:  # every consistent deal once
        deals: Any = list(sampler.enumerate())
        total = len(deals)
    else:  # drawn lazily, so a time budget does not pay for deals it never scores
        deals = (sampler.sample(rng) for _ in range(samples))
        total = samples
    greedy = greedy_move(view)
    scores: list[list[int]] = []
    margins: list[list[float]] = []
    exact_flags: list[bool] = []
    deadline = None if time is None else t0 + time

    def done(n: int) -> None:
        if progress is not None:
            progress(n, total)

    if workers == 1 or total == 1:
        ev = _Evaluator(cfg, solver)
        for d in deals:
            row, mrow, ex = ev.evaluate(d, moves, k.seat)
            scores.append(row)
            margins.append(mrow)
            exact_flags.append(ex)
            done(len(scores))
            if deadline is not None and _time.perf_counter() > deadline:
                break
    else:
        import multiprocessing as mp

        ctx = mp.get_context("fork") if "fork" in mp.get_all_start_methods() else mp.get_context()
        with ctx.Pool(min(workers, total), initializer=_pool_init,
                      initargs=(cfg, moves, k.seat)) as pool:
            for row, mrow, ex in pool.imap(_pool_eval, deals, chunksize=1):
                scores.append(row)
                margins.append(mrow)
                exact_flags.append(ex)
                done(len(scores))
                if deadline is not None and _time.perf_counter() > deadline:
                    pool.terminate()
                    break
    complete = len(scores) == total
    exact = exhaustive and complete and all(exact_flags)
    mine = view.team(to_move) == view.team(k.seat)
    ranked = aggregate(moves, scores, exact, greedy, margins, mine)
    if not exact and ranked[0].move != str(greedy):
        ranked = _keep_default(ranked, moves, scores, margins, greedy, cfg.switch_z, mine)
    return HintResult(
        player=k.seat + 1, to_move=to_move + 1, best=ranked[0].move, samples=len(scores),
        seed=seed, moves=ranked, exhaustive=exhaustive and complete,
        deals_total=deals_total, exact_deals=sum(exact_flags),
        seconds=_time.perf_counter() - t0, workers=workers,
    )


__all__ = ["HintConfig", "HintMove", "HintResult", "evaluate_deal", "hint", "hint_knowledge",
           "playout"]
