"""A hint's answer: every move ranked over the deals, and the move recommended.

Step 4 of the hint engine (:mod:`solver.hints.advise`): per move the
win/draw/loss rates, the mean score and its 95% interval, the share of deals on
which it was (one of) the best, weighed by the deals' likelihood where the
other seats' moves were observed (step 5); the recommended move is the best
utility, and on sampled deals the greedy player's move stays recommended
unless the top move's paired advantage over it is clear (:class:`Kept`).
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Any, Sequence

from solver.game.moves import Move
from solver.hints.stats import (MARGIN_WEIGHT, Z95, mean_ci, paired_advantage, weighted_mean_se,
                                wilson)
from solver.i18n import _


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
        margins = [[0.0] * len(moves) for _row in scores]
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
        margins = [[0.0] * len(moves) for _row in scores]
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
    mean, se, _n = weighted_mean_se(ds, [w / total for w in weights])
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
        within = (_("one standard error") if self.z == 1
                  else _("{z} standard errors").format(z=f"{self.z:g}"))
        se = f"{self.se:.3f}" if math.isfinite(self.se) else _("unknown")
        return _("kept: {move}, the greedy player's move: {top} scored {advantage} more on the "
                 "same deals, within {within} ({se})").format(
                     move=self.move, top=self.top, advantage=f"{self.advantage:+.3f}",
                     within=within, se=se)


def keep_default(ranked: list[HintMove], moves: Sequence[Move], scores: Sequence[Sequence[float]],
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
