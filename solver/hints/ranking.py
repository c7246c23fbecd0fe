"""A hint's answer: every move's chance over the deals, and the move recommended.

Step 4 of the hint engine (:mod:`solver.hints.advise`).  A player reads one
number per move, its **chance**: the chance of not being the durak, a draw
counted half (docs/rules.md, "The chance a hint shows"), estimated as the mean
over the deals of ``(1 + score) / 2`` -- a deal's score being +1 win, 0 draw,
-1 loss, or a search's mean result -- with its 95% interval.  The figures are
weighed by the deals' likelihood where the other seats' moves were observed
(step 5).

The recommendation maximises that number (:func:`choose`): the move with the
highest chance is the *top*; a move the paired test on the same deals cannot
tell from it, and whose chance is at most :data:`AS_GOOD_POINTS` lower, is *as
good*, and among the as-good moves the greedy player's own move is kept (the
plain play, a sound default where the deals cannot decide), else the one that
leaves the others the most cards.  A move clearly below the top is never
recommended.  The engine before (``HintConfig(ranking="utility")``, kept for
the matches that measure against it) ranked by utility and kept the greedy
move within one standard error of it (:func:`keep_default`).
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Sequence

from solver.game.moves import Move
from solver.hints.notes import call_text
from solver.hints.stats import (MARGIN_WEIGHT, Z95, chance, mean_ci, paired_advantage,
                                paired_difference, weighted_mean_se, wilson)

#: A move is *as good* as the top only while its chance is at most this much lower
#: (a share, 0.02 = 2 points), whatever the noise: a recommendation is never more
#: than this below the best chance the table shows (issue 68).
AS_GOOD_POINTS = 0.02
#: The paired test of "as good": the top's advantage within this many standard
#: errors (two-sided 95%).
AS_GOOD_Z = Z95

#: Why the recommended move was chosen (:attr:`Choice.reason`).
REASONS = ("chance", "plain", "margin", "exact", "utility")


@dataclass
class HintMove:
    """One candidate move and how it fared over the deals."""

    move: str
    win: float                       # share of the deals on which it scored above 0
    draw: float                      # ... exactly 0
    loss: float                      # ... below 0
    score: float                     # mean score (+1 win, 0 draw, -1 loss)
    ci95: tuple[float, float]        # 95% interval of the win share (Wilson)
    score_ci95: tuple[float, float]  # 95% interval of the mean score
    best: float                      # share of deals on which this move was (one of) the best
    n: int
    margin: float = 0.0              # mean card margin at the end of the playouts
    as_good: bool = False            # the top, or as good as it (:func:`choose`)

    @property
    def chance(self) -> float:
        """The one number a player reads: the chance of not being the durak for the
        asking seat, a draw counted half: ``(1 + score) / 2``."""
        return chance(self.score)

    @property
    def chance_ci95(self) -> tuple[float, float]:
        """The 95% interval of :attr:`chance` (zero wide when every deal was solved)."""
        return chance(self.score_ci95[0]), chance(self.score_ci95[1])

    @property
    def utility(self) -> float:
        """The mean score plus :data:`~solver.hints.stats.MARGIN_WEIGHT` times the mean
        card margin: breaks ties between moves as good as each other."""
        return self.score + MARGIN_WEIGHT * self.margin

    def to_json(self) -> dict[str, Any]:
        r = lambda x: round(x, 4)  # noqa: E731
        lo, hi = self.chance_ci95
        return {
            "move": self.move, "chance": r(self.chance), "chance_ci95": [r(lo), r(hi)],
            "as_good": self.as_good,
            # the engine's own figures (docs/hint.md, "Aggregation"): the shares of the
            # deals by the sign of the move's score, its mean score (2 chance - 1), ...
            "win": r(self.win), "draw": r(self.draw), "loss": r(self.loss),
            "ci95": [r(self.ci95[0]), r(self.ci95[1])],
            "score": r(self.score), "score_ci95": [r(self.score_ci95[0]), r(self.score_ci95[1])],
            "deals_best_share": r(self.best), "card_margin": r(self.margin),
            "tie_break_utility": round(self.utility, 6),
        }


@dataclass(frozen=True)
class Choice:
    """How the recommended move was chosen.

    ``best``: the recommended move; ``top``: the move with the highest chance for
    the seat to move (its lowest when an opponent of the asking seat moves, S2a);
    ``as_good``: the top and the moves as good as it; ``reason``: ``chance`` (the
    top, nothing as good), ``plain`` (the greedy player's move, as good as the
    top), ``margin`` (as good, and it leaves the others the most cards), ``exact``
    (every deal solved: of the moves of equal value, the one a greedy playout does
    best with) or ``utility`` (the engine before, ``HintConfig(ranking="utility")``).
    """

    best: str
    top: str
    as_good: tuple[str, ...] = ()
    reason: str = "chance"

    def to_json(self) -> dict[str, Any]:
        return {"top": self.top, "as_good": list(self.as_good), "reason": self.reason}


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
    #: Deals drawn and set aside to deal in the likelihood of the facts about
    #: hands before a hidden draw (docs/hint.md, "Public knowledge").
    set_aside: int = 0
    #: The other seats seen leaving the greedy player's move (1-based,
    #: :meth:`~solver.hints.knowledge.PublicTracker.not_greedy`) and the greedy
    #: playout's weight in a searched deal's score that followed from it
    #: (``HintConfig.uct_mix``, or ``uct_mix_not_greedy`` once a seat is caught).
    not_greedy: tuple[int, ...] = ()
    playout_weight: float = 0.0
    #: How the recommendation was chosen (:class:`Choice`).
    choice: Choice | None = None
    #: The seat to move is on the asking seat's side: the best move for it has
    #: the highest chance (else the lowest, S2a).
    mine: bool = True
    #: What the asking seat can tell of the others' hands, in a player's words
    #: (:func:`solver.hints.notes.learned`), filled in by :func:`hint_knowledge`.
    learned: list[Any] = field(default_factory=list)

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

    @property
    def top(self) -> str:
        """The move with the highest chance for the seat to move."""
        return self.choice.top if self.choice is not None else self.best

    @property
    def as_good(self) -> tuple[str, ...]:
        """The top and the moves as good as it (the recommended one among them)."""
        return self.choice.as_good if self.choice is not None else (self.best,)

    def move(self, text: str) -> HintMove:
        """The row of move ``text``."""
        return next(m for m in self.moves if m.move == text)

    @property
    def digits(self) -> int:
        """Decimals of a percentage the answer's intervals support: 0, or 1 where the
        recommended move's interval is under a point wide either side (and not exact,
        where the chance of a few deals is a plain fraction)."""
        m = self.move(self.best)
        lo, hi = m.chance_ci95
        return 1 if 0 < (hi - lo) / 2 < 0.005 else 0

    def to_json(self) -> dict[str, Any]:
        best = self.move(self.best)
        return {
            "player": self.player, "to_move": self.to_move, "best": self.best,
            "chance": round(best.chance, 4),
            "chance_ci95": [round(x, 4) for x in best.chance_ci95],
            **(self.choice.to_json() if self.choice is not None
               else {"top": self.best, "as_good": [self.best], "reason": "chance"}),
            "digits": self.digits,
            "samples": self.samples, "seed": self.seed,
            "moves": [m.to_json() for m in self.moves],
            "call": call_text(self), "learned": [n.to_json(True) for n in self.learned],
            "exhaustive": self.exhaustive, "deals_total": self.deals_total,
            "exact_deals": self.exact_deals, "playout_deals": self.samples - self.exact_deals,
            "kind": self.kind, "deals_wanted": self.wanted, "complete": self.complete,
            "interrupted": self.interrupted,
            "effective_deals": round(self.effective_deals, 2), "inference": self.inference,
            "iterations": self.iterations, "facts": self.facts, "rejected": self.rejected,
            "set_aside": self.set_aside,
            "not_greedy": list(self.not_greedy), "playout_weight": self.playout_weight,
            "mine": self.mine,
        }


def aggregate(moves: Sequence[Move], scores: Sequence[Sequence[float]], exact: bool,
              greedy: Move | None = None,
              margins: Sequence[Sequence[float]] | None = None,
              mine: bool = True, weights: Sequence[float] | None = None) -> list[HintMove]:
    """Per-move statistics over deals (``scores[d][i]``: move i on deal d), best first.

    Moves are ordered by their chance (the mean score), ties by their utility
    (the mean score plus :data:`MARGIN_WEIGHT` times the mean card margin: six
    cards of margin weigh as much as 0.1 of score), then the share of deals on
    which they were best, the greedy player's own choice and the canonical
    order.  Scores are always the asking seat's; when the seat to move is an
    opponent (``mine`` false) the best move for the mover is the worst for the
    asking seat (S2a).  ``weights`` (one per deal, normalised): weighted figures
    instead (:func:`_aggregate_weighted`).
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


def _best_shares(scores: Sequence[Sequence[float]], margins: Sequence[Sequence[float]],
                 sign: int, deal_weights: Sequence[float]) -> list[float]:
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
    """The moves best first for the mover: chance, then utility, then best share,
    then the greedy player's own choice, then the canonical order."""
    order = sorted(range(len(moves)), key=lambda i: (
        -round(sign * out[i].score, 9), -round(sign * out[i].utility, 9),
        -round(out[i].best, 9), moves[i] != greedy, i))
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


def _dominated(i: int, by: int, scores: Sequence[Sequence[float]],
               margins: Sequence[Sequence[float]], sign: int) -> bool:
    """Whether move ``by`` does at least as well as move ``i`` for the mover on every
    deal and better on one (score, then card margin)."""
    worse = False
    for r, m in zip(scores, margins):
        a = sign * (r[by] + MARGIN_WEIGHT * m[by])
        b = sign * (r[i] + MARGIN_WEIGHT * m[i])
        if a < b - 1e-12:
            return False
        worse = worse or a > b + 1e-12
    return worse


def choose(ranked: list[HintMove], moves: Sequence[Move], scores: Sequence[Sequence[float]],
           margins: Sequence[Sequence[float]], greedy: Move | None, mine: bool = True,
           weights: Sequence[float] | None = None, exact: bool = False,
           z: float = AS_GOOD_Z, points: float = AS_GOOD_POINTS) -> Choice:
    """The recommended move: the top (``ranked[0]``, the highest chance for the mover)
    or a move as good as it, marking ``as_good`` on the rows.

    A move is as good as the top when its chance is at most ``points`` lower and
    the top's paired advantage on the same deals is within ``z`` standard errors
    (a deal of weight 0 does not count), and the top is not at least as good on
    every deal and better on one.  When every deal was solved (``exact``) a move
    is as good only when its chance is the same.  Among the as-good moves the
    greedy player's own move is recommended when it is one of them (``plain``:
    where the deals cannot tell the moves apart the plain play is the sound
    default, docs/hint.md), else the one with the highest utility (``margin``:
    it leaves the others more cards); solved exactly, the one with the highest
    utility, which there is a greedy playout's result and margin (``exact``).
    """
    sign = 1 if mine else -1
    names = [str(m) for m in moves]
    top = ranked[0]
    t = names.index(top.move)
    live = list(range(len(scores)))
    ws: list[float] | None = None
    if weights is not None:
        total = sum(weights)
        live = [d for d, w in enumerate(weights) if w > 0]
        ws = [weights[d] / total for d in live]
    rows = [scores[d] for d in live]
    mrows = [margins[d] for d in live]
    good = []
    for h in ranked:
        i = names.index(h.move)
        if i == t:
            h.as_good = True
        elif exact:
            h.as_good = abs(h.score - top.score) < 1e-12
        else:
            gap, se = paired_difference(t, i, rows, ws)
            gap *= sign
            h.as_good = (gap <= points and gap <= z * se
                         and not _dominated(i, t, rows, mrows, sign))
        if h.as_good:
            good.append(h)
    plain = str(greedy) if greedy is not None else None
    if exact:
        best = max(good, key=lambda h: (sign * h.utility, h.move == plain))
        reason = "chance" if len(good) == 1 else "exact"
    elif plain is not None and any(h.move == plain for h in good):
        best = next(h for h in good if h.move == plain)
        reason = "chance" if best is top else "plain"
    else:
        best = max(good, key=lambda h: sign * h.utility)
        reason = "chance" if best is top else "margin"
    return Choice(best.move, top.move, tuple(h.move for h in good), reason)


# ------------------------------------------------------------ the engine before
def keep_default(ranked: list[HintMove], moves: Sequence[Move], scores: Sequence[Sequence[float]],
                 margins: Sequence[Sequence[float]], greedy: Move, z: float, mine: bool = True,
                 weights: Sequence[float] | None = None) -> str:
    """The recommendation of the engine before 2026-12-07 (``HintConfig(ranking=
    "utility")``, which the matches measure against): the move of the highest
    utility, unless the greedy player's move is within ``z`` standard errors of
    its paired utility advantage and no move does at least as well as the greedy
    one on every deal and better on one."""
    sign = 1 if mine else -1
    names = [str(m) for m in moves]
    top = min(ranked, key=lambda h: (-round(sign * h.utility, 9), -round(h.best, 9),
                                     h.move != str(greedy), names.index(h.move)))
    g, t = names.index(str(greedy)), names.index(top.move)
    if g == t:
        return top.move
    if weights is not None:
        live = [d for d, w in enumerate(weights) if w > 0]
        rows, mrows = [scores[d] for d in live], [margins[d] for d in live]
    else:
        rows, mrows = list(scores), list(margins)
    if any(_dominated(g, j, rows, mrows, sign) for j in range(len(moves)) if j != g):
        return top.move
    if weights is not None:
        total = sum(weights)
        ds = [(r[t] + MARGIN_WEIGHT * m[t]) - (r[g] + MARGIN_WEIGHT * m[g])
              for r, m in zip(scores, margins)]
        mean, se, _n = weighted_mean_se(ds, [w / total for w in weights])
    else:
        mean, se = paired_advantage(t, g, scores, margins)
    mean *= sign
    return top.move if mean > 0 and mean > z * se else names[g]


__all__ = ["AS_GOOD_POINTS", "AS_GOOD_Z", "REASONS", "Choice", "HintMove", "HintResult",
           "aggregate", "choose", "keep_default"]
