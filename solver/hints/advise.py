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

4. Per move: its **chance** -- of not being the durak, a draw counted half:
   the mean over the deals of ``(1 + score) / 2`` -- with a 95% interval, the
   shares of deals won, drawn and lost, and the share of deals on which the
   move was (one of) the best.  The recommended move has the highest chance,
   or is *as good* as the move that has it: within the noise of a paired test
   on the same deals and at most two points lower; among the as-good moves the
   greedy player's own move is kept, else the one that leaves the others the
   most cards (:func:`solver.hints.ranking.choose`).

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
from dataclasses import replace
from itertools import islice
from typing import Any, Callable, Iterator, Sequence

from solver.errors import Interrupted, OptionError, PositionError
from solver.i18n import _
from solver.game.movegen import legal_moves
from solver.game.state import GameState
from solver.hints.evaluate import HintConfig, _Evaluator, evaluate_chunk
from solver.hints.inference import NoisyGreedy, OpponentModel, deal_weights, log_likelihood
from solver.hints.knowledge import Knowledge, Observation, knowledge_of
from solver.hints.notes import learned
from solver.hints.ranking import Choice, HintMove, HintResult, aggregate, choose, keep_default
from solver.hints.sampler import Sampler
from solver.notation import parse_position
from solver.policy.bots import greedy_move
from solver.run.executor import Executor, chunk_size

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
#: Deals per hint a person asks for (`durak hint`, the prompts' ``hint``, the web
#: board, and the review that judges a decision by that hint) with two players:
#: the recommended move's chance known within about 2 points either side in most
#: positions, in about half a second (docs/hint.md, "Budgets"; a deal's chance
#: varies with a standard deviation of 0.2-0.35, so 512 deals give +-1.7 to +-3
#: points; ``benchmarks/bench_hint.py --person``).  Twice that cost the review
#: three times the bots' budget.  The match bots keep :data:`DEFAULT_SAMPLES`
#: (``hint@DEALS`` to change it).
PERSON_SAMPLES = 512
#: The same with three or more players: greedy playouts score a deal +1 or -1, a
#: standard deviation near 0.5, so twice the deals for the same interval.
PERSON_SAMPLES_MULTI = 1024
#: The sample cap when only a time budget is given.
TIME_ONLY_SAMPLES = 5000
#: Deals drawn before the first deal scored, whose largest likelihood of the
#: facts about hands before a hidden draw sets the bar of :func:`_fact_drawn`.
FACT_PILOT = 64
#: The most deals :func:`_fact_drawn` draws per deal it keeps; past it every deal
#: drawn is kept with its likelihood as its weight.
FACT_PROPOSALS = 64
#: The most tree-search iterations per deal `durak hint --iterations` accepts
#: (measured at the cap on a 6-card opening: 15 MB of tree and 0.2 s a deal).
MAX_UCT_ITERS = 102_400


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


def _fact_drawn(sampler: Sampler, rng: random.Random, n: int, lls: list[float],
                counts: list[int]) -> Iterator[GameState]:
    """``n`` deals drawn from the deals the facts about hands before a hidden draw make
    likely, not weighed by them: each deal the sampler draws is kept with probability
    ``min(1, w / c)``, ``w`` its likelihood of the facts and ``c`` the largest of the
    first :data:`FACT_PILOT` drawn, and carries the weight ``max(c, w)`` (appended to
    ``lls`` as a log), so that a kept deal counts ``w`` in expectation as a weighed
    one does, while nearly every kept deal weighs the same: the deals scored are
    (nearly) all effective instead of a few dozen of 256 (issue 68).  Past
    :data:`FACT_PROPOSALS` draws per deal every deal drawn is kept with the weight
    ``w``.  ``counts[0]`` counts the deals set aside.  Drawing costs about 8 µs a
    deal, scoring one about 1 ms."""
    accept = random.Random(rng.getrandbits(64))
    pilot = [sampler.sample(rng) for _n in range(FACT_PILOT)]
    queue = [(d, sampler.weight(d)) for d in pilot]
    bar = max(w for _d, w in queue)
    drawn = kept = 0
    while kept < n:
        if queue:
            d, w = queue.pop(0)
        else:
            d = sampler.sample(rng)
            w = sampler.weight(d)
        drawn += 1
        if bar <= 0.0:
            bar = w
        if drawn > n * FACT_PROPOSALS:
            take, weight = True, w
        else:
            take, weight = w > 0.0 and accept.random() * bar < w, max(bar, w)
        if not take:
            counts[0] += 1
            continue
        lls.append(math.log(weight) if weight > 0 else -math.inf)
        kept += 1
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
            raise PositionError("me", _("seat {seat} is not at this {n}-player table").format(
                seat=me, n=state.players))
        return state, me - 1
    if pos_me is not None:  # Position.me is 0-based (solver.notation)
        return state, int(pos_me)
    return state, None


def default_samples(players: int) -> int:
    """The default number of deals per hint of the match bots for a game of
    ``players`` seats."""
    return DEFAULT_SAMPLES if players == 2 else DEFAULT_SAMPLES_MULTI


def person_samples(players: int) -> int:
    """The default number of deals of a hint a person asks for at a table of
    ``players`` seats (:data:`PERSON_SAMPLES`)."""
    return PERSON_SAMPLES if players == 2 else PERSON_SAMPLES_MULTI


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
    if cfg.ranking not in ("chance", "utility"):
        raise OptionError(f"ranking: 'chance' or 'utility', got {cfg.ranking!r}")
    if cfg.fact_draws not in ("draw", "weigh"):
        raise OptionError(f"fact_draws: 'draw' or 'weigh', got {cfg.fact_draws!r}")
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
        raise PositionError("position", _("the game is over: there is no move to hint"))
    to_move = view.to_move
    if view.hidden[to_move]:
        raise PositionError("me", _(
            "seat {seat} is to move and its hand is hidden from seat {me}; ask the hint as the "
            "seat to move").format(seat=to_move + 1, me=k.seat + 1))
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
        deals = (sampler.sample(rng) for _n in range(samples * more))
        total = samples * more
    set_aside = [0]
    if weigh and any(f.drawn or f.trust < 1.0 for f in k.facts):
        if exhaustive or cfg.fact_draws == "weigh":
            deals = _fact_weighed(iter(deals), sampler, fact_lls)
        else:  # drawn in proportion to the facts' likelihood instead of weighed by it
            deals = _fact_drawn(sampler, rng, total, fact_lls, set_aside)
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
    choice = choose(ranked, moves, scores, margins, greedy, mine, weights, exact,
                    cfg.as_good_z, cfg.as_good_points)
    if cfg.ranking == "utility" and not exact:  # the engine before, for the matches
        choice = Choice(keep_default(ranked, moves, scores, margins, greedy, cfg.switch_z,
                                     mine, weights), choice.top, choice.as_good, "utility")
    result = HintResult(
        player=k.seat + 1, to_move=to_move + 1, best=choice.best, samples=len(scores),
        seed=seed, moves=ranked, exhaustive=exhaustive and complete,
        deals_total=deals_total, exact_deals=sum(exact_flags),
        seconds=_time.perf_counter() - t0, workers=workers,
        wanted=min(total, min_samples) if min_samples else total, interrupted=interrupted,
        effective_deals=effective, inference=inference,
        iterations=0 if all(exact_flags) else iterations,
        facts=len(k.facts), rejected=sampler.rejected, set_aside=set_aside[0],
        not_greedy=tuple(o + 1 for o in k.not_greedy), playout_weight=cfg.uct_mix,
        choice=choice, mine=mine, learned=learned(k),
    )
    if interrupted:  # a KeyboardInterrupt still, carrying the answer from the deals scored
        raise Interrupted(partial=result)
    return result


__all__ = ["DEFAULT_SAMPLES", "DEFAULT_SAMPLES_MULTI", "MAX_UCT_ITERS", "PERSON_SAMPLES",
           "PERSON_SAMPLES_MULTI", "TIME_ONLY_SAMPLES", "HintMove", "HintResult", "aggregate",
           "default_samples", "hint", "hint_knowledge", "person_samples"]
