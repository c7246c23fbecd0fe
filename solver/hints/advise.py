"""The hint engine: score every move of a hidden-information position (S3).

Perfect-information Monte Carlo ("determinization"):

1. The asking seat's knowledge (:mod:`solver.hints.knowledge`) gives the pool of
   unseen cards; the sampler (:mod:`solver.hints.sampler`) deals it uniformly among
   the hidden hand slots and the pile -- or enumerates every deal when there
   are no more of them than the sample budget.
2. Every candidate move is scored on *the same* deals (common random numbers:
   differences between moves are not drowned by the luck of the deal).
3. A deal is scored per move by :func:`solver.hints.evaluate.evaluate_deal`:

   * **exact**: with the pile empty (or, when the compiled solver is there, no
     bigger than :attr:`HintConfig.exact_pile`), the exact solver
     (:class:`solver.search.Solver`) gives the value of every move for the
     asking seat (S1, S2; with 3+ players against the coalition of the others).
   * **playout**: otherwise the move is played and the game finished by the
     greedy player (:mod:`solver.policy.bots`) in every seat; the result for the
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

5. **Inference** (optional, ``observations``): each deal is weighted by the
   likelihood of the other seats' past moves under an opponent model
   (:mod:`solver.hints.inference`); every figure of step 4 is then a weighted
   one, its intervals taken at Kish's effective number of deals.  Without
   observations nothing is weighted and the answer is the unweighted one.

The thresholds and budgets are measured and argued in ``docs/hint.md``.
"""
from __future__ import annotations

import math
import os
import random
import time as _time
from dataclasses import dataclass, replace
from itertools import islice
from typing import Any, Callable, Iterator, Sequence

from solver.policy.bots import greedy_move
from solver.errors import Interrupted, OptionError, PositionError
from solver.run.executor import Executor, chunk_size
from solver.game.movegen import legal_moves
from solver.game.moves import Move
from solver.game.state import GameState
from solver.hints.evaluate import HintConfig, _Evaluator, evaluate_chunk
from solver.hints.inference import NoisyGreedy, OpponentModel, deal_weights, log_likelihood
from solver.hints.knowledge import Knowledge, Observation, knowledge_of
from solver.hints.sampler import Sampler
from solver.hints.stats import (MARGIN_WEIGHT, Z95, mean_ci, paired_advantage, weighted_mean_se,
                                wilson)
from solver.notation import parse_position

#: Deals per hint with two players, for `durak hint` and the match bot alike.
#: With the tree search a deal's scores are noisy means, so more deals pay up to
#: here (docs/hint.md: 88.5% of decided games against greedy at 128, 89.7% at
#: 256, 89.5% at 512, but 90.3% against 91.8% with transfer: within the noise;
#: with greedy playouts alone 128 was already as good).
DEFAULT_SAMPLES = 256
#: Deals per hint with three or more players: each opponent's hand is less
#: known, so the deals differ more and more of them pay (docs/hint.md: the
#: durak in 6.3% of 3,000 games at 128, 5.1% at 512).
DEFAULT_SAMPLES_MULTI = 512
#: The sample cap when only a time budget is given.
TIME_ONLY_SAMPLES = 5000
#: The most tree-search iterations per deal `durak hint --iterations` accepts
#: (measured at the cap on a 6-card opening: 15 MB of tree and 0.2 s a deal).
MAX_UCT_ITERS = 102_400


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

    @property
    def utility(self) -> float:
        """What the moves are ranked by (the asking seat's): the mean score plus
        :data:`~solver.hints.stats.MARGIN_WEIGHT` times the mean card margin."""
        return self.score + MARGIN_WEIGHT * self.margin

    def to_json(self) -> dict[str, Any]:
        r = lambda x: round(x, 4)  # noqa: E731
        return {
            "move": self.move, "win": r(self.win), "draw": r(self.draw), "loss": r(self.loss),
            "score": r(self.score), "utility": round(self.utility, 6),
            "ci95": [r(self.ci95[0]), r(self.ci95[1])],
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
    wanted: int = 0          # the deals the caller asked for (or all there are, if fewer)
    interrupted: bool = False  # Ctrl-C stopped the scoring

    @property
    def complete(self) -> bool:
        """Whether every deal asked for was scored (a time budget may stop it first)."""
        return self.samples >= self.wanted

    @property
    def kind(self) -> str:
        """``exact`` (every scored deal solved), ``estimate`` (greedy playouts) or ``mixed``."""
        if self.exact_deals == self.samples:
            return "exact"
        return "estimate" if self.exact_deals == 0 else "mixed"
    workers: int = 1
    #: Kish's effective number of deals, ``(sum w)^2 / sum w^2`` (``samples``
    #: when the deals are not weighted).
    effective_deals: float = 0.0
    #: ``none`` (no observations), ``weighted`` (deals weighted by the likelihood
    #: of the opponents' moves, or by that of the facts of the asking of throwers
    #: about hands before a hidden draw) or ``fallback`` (every deal had
    #: likelihood 0: uniform).
    inference: str = "none"
    #: Tree-search iterations per deal behind the scores (two players; 0: one
    #: greedy playout per move, and when every deal was solved exactly).
    iterations: int = 0
    #: Facts the asking of throwers proved about the hidden hands (F2,
    #: :class:`~solver.hints.knowledge.HandFact`) and the deals drawn that broke
    #: one (left out: they cannot be the real deal).
    facts: int = 0
    rejected: int = 0
    #: The other seats seen leaving the greedy player's move (1-based,
    #: :meth:`~solver.hints.knowledge.PublicTracker.not_greedy`) and the greedy
    #: playout's weight in a searched deal's score that followed from it
    #: (``HintConfig.uct_mix``, or ``uct_mix_not_greedy`` once a seat is caught).
    not_greedy: tuple[int, ...] = ()
    playout_weight: float = 0.0
    #: The greedy player's move recommended over the move that scored best, its
    #: advantage being within ``switch_z`` standard errors (None: not so).
    kept: Kept | None = None
    #: The seat to move is on the asking seat's side: the best move for it has
    #: the highest utility (else the lowest, S2a).
    mine: bool = True

    def by_utility(self) -> list[HintMove]:
        """The moves in the order the engine ranked them, by utility (the best for
        the seat to move first): the order of a table that shows the utility.  The
        recommended move (:attr:`best`) is the first, unless the greedy player's
        move was kept over it (:attr:`kept`): ``moves`` then puts it first."""
        sign = 1 if self.mine else -1
        return sorted(self.moves, key=lambda m: (-round(sign * m.utility, 9), -round(m.best, 9)))

    def to_json(self) -> dict[str, Any]:
        return {
            "player": self.player, "to_move": self.to_move, "best": self.best,
            "samples": self.samples, "seed": self.seed,
            "moves": [m.to_json() for m in self.moves],
            "exhaustive": self.exhaustive, "deals_total": self.deals_total,
            "exact_deals": self.exact_deals, "playout_deals": self.samples - self.exact_deals,
            "kind": self.kind, "deals_wanted": self.wanted, "complete": self.complete,
            "interrupted": self.interrupted,
            "effective_deals": round(self.effective_deals, 2), "inference": self.inference,
            "iterations": self.iterations, "facts": self.facts, "rejected": self.rejected,
            "not_greedy": list(self.not_greedy), "playout_weight": self.playout_weight,
            "kept": self.kept.to_json() if self.kept is not None else None,
            "mine": self.mine,
        }


def aggregate(moves: Sequence[Move], scores: Sequence[Sequence[float]], exact: bool,
              greedy: Move | None = None,
              margins: Sequence[Sequence[float]] | None = None,
              mine: bool = True, weights: Sequence[float] | None = None) -> list[HintMove]:
    """Per-move statistics over deals (``scores[d][i]``: move i on deal d), best first.

    Moves are ranked by their *utility*: mean score plus :data:`MARGIN_WEIGHT`
    times the mean card margin (a tie-breaker between moves of equal score;
    six cards of margin weigh as much as 0.1 of score).  Scores are always the
    asking seat's; when the seat to move is an opponent (``mine`` false) the
    best move for the mover is the worst for the asking seat (S2a).
    ``weights`` (one per deal, normalised): weighted figures instead
    (:func:`_aggregate_weighted`).
    """
    if weights is not None:
        return _aggregate_weighted(moves, scores, exact, greedy, margins, mine, weights)
    sign = 1 if mine else -1
    n = len(scores)
    if margins is None:
        margins = [[0.0] * len(moves) for _ in scores]
    out = []
    best_share = _best_shares(scores, margins, sign, [1.0] * n)
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
    return _ranked(out, moves, sign, greedy)


def _best_shares(scores: Sequence[Sequence[float]], margins: Sequence[Sequence[float]], sign: int, deal_weights: Sequence[float]) -> list[float]:
    """Per move, the summed weight of the deals on which it was (one of) the best for
    the mover (ties split)."""
    share = [0.0] * (len(scores[0]) if scores else 0)
    for row, mrow, w in zip(scores, margins, deal_weights):
        if w <= 0:
            continue
        util = [sign * (x + MARGIN_WEIGHT * g) for x, g in zip(row, mrow)]
        top = max(util)
        winners = [i for i, x in enumerate(util) if x >= top - 1e-12]
        for i in winners:
            share[i] += w / len(winners)
    return share


def _ranked(out: list[HintMove], moves: Sequence[Move], sign: int,
            greedy: Move | None) -> list[HintMove]:
    """The moves best first for the mover: utility, then best share, then the
    greedy player's own choice, then the canonical order."""
    order = sorted(range(len(moves)), key=lambda i: (
        -round(sign * (out[i].score + MARGIN_WEIGHT * out[i].margin), 9), -round(out[i].best, 9),
        moves[i] != greedy, i))
    return [out[i] for i in order]


def _aggregate_weighted(moves: Sequence[Move], scores: Sequence[Sequence[float]], exact: bool,
                        greedy: Move | None, margins: Sequence[Sequence[float]] | None,
                        mine: bool, weights: Sequence[float]) -> list[HintMove]:
    """:func:`aggregate` with deal ``d`` counting ``weights[d]`` (normalised to sum 1):
    rates, means, margins and best shares are weighted averages; the intervals
    (Wilson, normal) use Kish's effective number of deals in place of ``n``."""
    sign = 1 if mine else -1
    n = len(scores)
    if margins is None:
        margins = [[0.0] * len(moves) for _ in scores]
    total = sum(weights)
    ws = [w / total for w in weights]
    best_share = _best_shares(scores, margins, sign, ws)
    out = []
    for i, m in enumerate(moves):
        col = [row[i] for row in scores]
        win = sum(w for x, w in zip(col, ws) if x > 0)
        draw = sum(w for x, w in zip(col, ws) if x == 0)
        loss = max(0.0, 1.0 - win - draw)
        mean, se, n_eff = weighted_mean_se(col, ws)
        if exact:  # every deal, each exactly: the weighted figures are the model's truth
            ci, sci = (win, win), (mean, mean)
        else:
            ci = wilson(win * n_eff, n_eff)
            sci = (max(-1.0, mean - Z95 * se), min(1.0, mean + Z95 * se))
        margin = sum(row[i] * w for row, w in zip(margins, ws))
        out.append(HintMove(str(m), win, draw, loss, mean, ci, sci, best_share[i], n, margin))
    return _ranked(out, moves, sign, greedy)


def _weighted_paired_advantage(a: int, b: int, scores: Sequence[Sequence[float]],
                               margins: Sequence[Sequence[float]],
                               weights: Sequence[float]) -> tuple[float, float]:
    """:func:`~solver.hints.stats.paired_advantage` with deal weights: the weighted
    mean of the utility differences and its standard error at Kish's effective
    number of deals."""
    total = sum(weights)
    ds = [(r[a] + MARGIN_WEIGHT * m[a]) - (r[b] + MARGIN_WEIGHT * m[b])
          for r, m in zip(scores, margins)]
    mean, se, _ = weighted_mean_se(ds, [w / total for w in weights])
    return mean, se


def _dominated(i: int, scores: Sequence[Sequence[float]], margins: Sequence[Sequence[float]],
               sign: int) -> bool:
    """Whether some move scores at least as well as move ``i`` for the mover on every
    deal and better on one (scores and margins as in :func:`aggregate`)."""
    util = [[sign * (x + MARGIN_WEIGHT * g) for x, g in zip(r, m)] for r, m in zip(scores, margins)]
    for j in range(len(util[0]) if util else 0):
        if j != i and all(row[j] >= row[i] - 1e-12 for row in util) \
                and any(row[j] > row[i] + 1e-12 for row in util):
            return True
    return False


@dataclass(frozen=True)
class Kept:
    """The greedy player's move kept as the recommendation over the move that
    scored best (``top``): the top move's paired advantage (``advantage``, in
    utility) was within ``z`` of its standard errors (``se``)."""

    move: str
    top: str
    advantage: float
    se: float
    z: float

    def to_json(self) -> dict[str, Any]:
        return {"move": self.move, "over": self.top, "advantage": round(self.advantage, 4),
                "se": round(self.se, 4) if math.isfinite(self.se) else None, "z": self.z}

    def text(self) -> str:
        """One line for the hint table."""
        within = ("one standard error" if self.z == 1 else f"{self.z:g} standard errors")
        se = f"{self.se:.3f}" if math.isfinite(self.se) else "unknown"
        return (f"kept: {self.move}, the greedy player's move: {self.top} scored "
                f"{self.advantage:+.3f} more on the same deals, within {within} ({se})")


def _keep_default(ranked: list[HintMove], moves: Sequence[Move], scores: Sequence[Sequence[float]],
                  margins: Sequence[Sequence[float]],
                  greedy: Move, z: float, mine: bool = True,
                  weights: Sequence[float] | None = None) -> tuple[list[HintMove], Kept | None]:
    """Put the greedy move first unless the top move beats it clearly (``switch_z``)
    or another move is at least as good on every scored deal and better on one
    (the recommendation is never a move the deals themselves show to be worse).
    With ``weights`` the advantage is the weighted one and deals of weight 0 do
    not count for dominance.  Returns the ranking and, when the greedy move was
    put first, what it was kept over (:class:`Kept`)."""
    names = [str(m) for m in moves]
    g = names.index(str(greedy))
    t = names.index(ranked[0].move)
    if weights is not None:
        live = [d for d, w in enumerate(weights) if w > 0]
        if _dominated(g, [scores[d] for d in live], [margins[d] for d in live],
                      1 if mine else -1):
            return ranked, None
        mean, se = _weighted_paired_advantage(t, g, scores, margins, weights)
    else:
        if _dominated(g, scores, margins, 1 if mine else -1):
            return ranked, None
        mean, se = paired_advantage(t, g, scores, margins)
    if not mine:
        mean = -mean
    if mean > 0 and mean > z * se:
        return ranked, None
    gi = next(i for i, h in enumerate(ranked) if h.move == names[g])
    return ([ranked[gi]] + ranked[:gi] + ranked[gi + 1:],
            Kept(names[g], ranked[0].move, mean, se, z))


def _weighed(deals: Iterator[GameState], observations: Sequence[Observation],
             model: OpponentModel, lls: list[float],
             effective: int | None = None) -> Iterator[GameState]:
    """The deals, unchanged, appending each one's log-likelihood to ``lls`` as it is
    drawn (so the weights stay in deal order however the deals are scored);
    with ``effective``, stop once Kish's effective number of the deals drawn
    reaches it (running sums of ``w`` and ``w^2`` relative to the top likelihood)."""
    top, s1, s2 = -math.inf, 0.0, 0.0
    for d in deals:
        ll = log_likelihood(d, observations, model)
        lls.append(ll)
        yield d
        if effective is None or ll == -math.inf:
            continue
        if ll > top:
            f = math.exp(top - ll) if top > -math.inf else 0.0
            s1, s2, top = s1 * f, s2 * f * f, ll
        w = math.exp(ll - top)
        s1, s2 = s1 + w, s2 + w * w
        if len(lls) >= effective and s1 * s1 >= (effective - 1e-9) * s2:
            return


def _fact_weighed(deals: Iterator[GameState], sampler: Sampler,
                  lls: list[float]) -> Iterator[GameState]:
    """The deals, unchanged, appending the log-likelihood of the knowledge's facts
    under each (:meth:`Sampler.weight`; uncertain facts, about hands before a
    hidden draw) to ``lls`` as it is drawn."""
    for d in deals:
        w = sampler.weight(d)
        lls.append(math.log(w) if w > 0 else -math.inf)
        yield d


def _chunks(deals: Iterator[GameState], size: int, head: tuple) -> Iterator[tuple]:
    """``head + (chunk,)`` for chunks of ``size`` deals, drawn as they are needed."""
    while True:
        part = list(islice(deals, size))
        if not part:
            return
        yield (*head, part)


def _parse(position: Any, me: int | None) -> tuple[GameState, int | None]:
    """A state and the 0-based asking seat from any accepted form of a position."""
    pos = parse_position(position)  # any accepted form, a GameState or a Position included
    state, pos_me = pos.state, pos.me
    if me is not None:
        if not 1 <= me <= state.players:
            raise PositionError("me", f"seat {me} is not at this {state.players}-player table")
        return state, me - 1
    if pos_me is not None:  # Position.me is 0-based (solver.notation)
        return state, int(pos_me)
    return state, None


def default_samples(players: int) -> int:
    """The default number of deals per hint for a game of ``players`` seats."""
    return DEFAULT_SAMPLES if players == 2 else DEFAULT_SAMPLES_MULTI


def hint(position: Any, samples: int | None = None, seed: int | None = None,
         max_time: float | None = None, workers: int = 1, me: int | None = None,
         config: HintConfig | None = None, solver: Any = None,
         progress: Callable[[int, int], None] | None = None,
         scheduler: str | None = None, min_samples: int | None = None) -> HintResult:
    """Score every move of the seat to move, as seen by the asking seat.

    ``position``: a position string, JSON-like dict, parsed position or
    :class:`GameState`; ``me`` (1-based) overrides its ``me`` field (default:
    the seat to move).  ``samples``: the number of deals (all of them when there
    are fewer; default :func:`default_samples`); ``max_time``: stop scoring new deals after this many seconds (the
    deals scored are then a prefix of the seeded list, at least one);
    ``seed``: the deals' seed (default: a fresh one, reported in the result);
    ``workers``: processes to spread deals over -- the result does not depend
    on it; ``scheduler``: a Dask scheduler to spread them over instead
    (:mod:`solver.run.executor`).  ``solver``: an object with the
    :class:`solver.search.Solver` API to use for exact deals (tests).
    ``min_samples``: the fewest deals that make a complete answer when a time
    budget stops the scoring early (default: all asked);
    :attr:`HintResult.complete` says whether they were reached.  Ctrl-C raises
    :class:`~solver.errors.Interrupted` whose ``partial`` is the answer from the
    deals scored so far (none scored: a plain ``KeyboardInterrupt``).
    """
    state, me0 = _parse(position, me)
    k = knowledge_of(state, me0)
    return hint_knowledge(k, samples=samples, seed=seed, max_time=max_time, workers=workers,
                          config=config, solver=solver, progress=progress, scheduler=scheduler,
                          min_samples=min_samples)


def hint_knowledge(k: Knowledge, samples: int | None = None, seed: int | None = None,
                   max_time: float | None = None, workers: int = 1,
                   config: HintConfig | None = None, solver: Any = None,
                   progress: Callable[[int, int], None] | None = None,
                   scheduler: str | None = None, min_samples: int | None = None,
                   observations: Sequence[Observation] | None = None,
                   model: OpponentModel | None = None, oversample: int = 1) -> HintResult:
    """:func:`hint` on a seat's knowledge (the bots' entry point).

    ``observations``: the other seats' past decisions
    (:meth:`solver.hints.knowledge.PublicTracker.observations` for ``k.seat``);
    each deal is then weighted by their likelihood under ``model`` (default
    :class:`~solver.hints.inference.NoisyGreedy`), see
    :mod:`solver.hints.inference`.  None or empty: every deal counts alike,
    exactly as without inference.  ``oversample``: with observations and sampled
    deals, keep drawing deals (up to ``oversample`` times ``samples``) until
    Kish's effective number reaches ``samples``, so the weighting does not
    shrink the budget; 1 draws ``samples`` deals as without observations.
    """
    t0 = _time.perf_counter()
    cfg = config or HintConfig()
    # (read here only, so checked here: the weight chosen replaces uct_mix below)
    if cfg.uct_mix_early is not None and not 0.0 <= cfg.uct_mix_early <= 1.0:
        raise OptionError(f"uct_mix_early: a share from 0 to 1 (or None), got {cfg.uct_mix_early}")
    if cfg.early_pile < 0:
        raise OptionError(f"early_pile: need 0 or more cards, got {cfg.early_pile}")
    if k.not_greedy and cfg.uct_mix_not_greedy is not None:
        # the greedy playout models an opponent seen leaving the greedy move less well
        cfg = replace(cfg, uct_mix=cfg.uct_mix_not_greedy)
    elif cfg.uct_mix_early is not None and k.view.pile >= cfg.early_pile:
        # early on the playout looks furthest ahead through hidden cards
        cfg = replace(cfg, uct_mix=cfg.uct_mix_early)
    if samples is None:
        samples = default_samples(k.view.players)
    if samples < 1:
        raise OptionError(f"samples: need at least 1, got {samples}")
    if max_time is not None and not max_time > 0:
        raise OptionError(f"max_time: must be positive, got {max_time:g}")
    if workers < 1:
        raise OptionError(f"workers: need at least 1, got {workers}")
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
    weigh = cfg.weigh_facts(view.players)
    if not weigh and k.facts:  # certain facts only (a held one: certain as far as it goes)
        k = replace(k, facts=tuple(f for f in k.facts
                                   if (f.holds or not f.drawn) and f.trust >= 1.0))
    sampler = Sampler(k)
    deals_total = sampler.count()
    exhaustive = deals_total <= samples
    fact_lls: list[float] = []  # the log-likelihood of the uncertain facts, per deal
    if exhaustive and k.facts:  # at most `samples` deals: keep those the facts allow
        deals: Any = list(sampler.enumerate())
        if not deals:  # facts no deal meets (a record that is not a real game): none used
            sampler = Sampler(replace(k, facts=()))
            deals = list(sampler.enumerate())
        total = deals_total = len(deals)
    elif exhaustive:  # every consistent deal once, streamed: never all of them in memory
        deals = sampler.enumerate()
        total = deals_total
    else:  # drawn lazily, so a time budget does not pay for deals it never scores
        more = max(1, oversample) if observations else 1
        deals = (sampler.sample(rng) for _ in range(samples * more))
        total = samples * more
    if weigh and any(f.drawn or f.trust < 1.0 for f in k.facts):
        deals = _fact_weighed(iter(deals), sampler, fact_lls)
    lls: list[float] = []  # the log-likelihood of each deal drawn, in deal order
    if observations:
        deals = _weighed(iter(deals), observations, model or NoisyGreedy(), lls,
                         None if exhaustive else samples)
    greedy = greedy_move(view)
    scores: list[list[float]] = []
    margins: list[list[float]] = []
    exact_flags: list[bool] = []
    deadline = None if max_time is None else t0 + max_time

    def done(n: int) -> None:
        if progress is not None:
            progress(n, total)

    interrupted = False
    try:
        if (workers == 1 and scheduler is None) or total == 1:
            ev = _Evaluator(cfg, solver)
            it = iter(deals)
            step = cfg.ismcts_batch if cfg.ismcts else 1
            while chunk := list(islice(it, step)):
                for row, mrow, ex in ev.evaluate_many(chunk, moves, k.seat):
                    scores.append(row)
                    margins.append(mrow)
                    exact_flags.append(ex)
                done(len(scores))
                if deadline is not None and _time.perf_counter() > deadline:
                    break
        else:
            with Executor(workers, scheduler, tasks=total) as pool:
                size = (cfg.ismcts_batch if cfg.ismcts
                        else chunk_size(total, pool.workers, most=16))
                parts = _chunks(iter(deals), size, (cfg, moves, k.seat))
                arrived: dict[int, list] = {}
                nxt = 0
                for ci, rows in pool.map_unordered(evaluate_chunk, parts):
                    arrived[ci] = rows
                    while nxt in arrived:  # the deals in their seeded order
                        for row, mrow, ex in arrived.pop(nxt):
                            scores.append(row)
                            margins.append(mrow)
                            exact_flags.append(ex)
                        nxt += 1
                    done(len(scores))
                    if deadline is not None and scores and _time.perf_counter() > deadline:
                        pool.close(cancel=True)
                        break
    except KeyboardInterrupt:  # Ctrl-C: answer from the deals scored so far
        if not scores:
            raise
        interrupted = True
    iterations = cfg.iterations(view.players)
    if observations and len(lls) < total and deal_weights(lls).effective >= samples - 1e-9:
        total = len(lls)  # oversampling stopped at the effective number asked for
    complete = len(scores) == total
    exact = exhaustive and complete and all(exact_flags)
    mine = view.team(to_move) == view.team(k.seat)
    weights: tuple[float, ...] | None = None
    inference = "none"
    effective = float(len(scores))
    if observations or fact_lls:
        n = len(scores)
        obs = lls[:n] if observations else [0.0] * n
        w = deal_weights([a + b for a, b in zip(obs, fact_lls[:n] or [0.0] * n)])
        inference = "fallback" if w.fallback else "weighted"
        effective = w.effective
        if max(w.weights) > min(w.weights):  # equal weights are no weights: the plain figures
            weights = w.weights
    ranked = aggregate(moves, scores, exact, greedy, margins, mine, weights)
    kept = None
    if not exact and ranked[0].move != str(greedy):
        ranked, kept = _keep_default(ranked, moves, scores, margins, greedy, cfg.switch_z, mine,
                                     weights)
    result = HintResult(
        player=k.seat + 1, to_move=to_move + 1, best=ranked[0].move, samples=len(scores),
        seed=seed, moves=ranked, exhaustive=exhaustive and complete,
        deals_total=deals_total, exact_deals=sum(exact_flags),
        seconds=_time.perf_counter() - t0, workers=workers,
        wanted=min(total, min_samples) if min_samples else total, interrupted=interrupted,
        effective_deals=effective, inference=inference,
        iterations=0 if all(exact_flags) else iterations,
        facts=len(k.facts), rejected=sampler.rejected,
        not_greedy=tuple(o + 1 for o in k.not_greedy), playout_weight=cfg.uct_mix, kept=kept,
        mine=mine,
    )
    if interrupted:  # a KeyboardInterrupt still, carrying the answer from the deals scored
        raise Interrupted(partial=result)
    return result


__all__ = ["DEFAULT_SAMPLES", "DEFAULT_SAMPLES_MULTI", "MAX_UCT_ITERS", "TIME_ONLY_SAMPLES",
           "HintMove", "HintResult", "Kept", "aggregate", "default_samples", "hint", "hint_knowledge"]
