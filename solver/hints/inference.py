"""Inference from the opponents' moves: how likely a deal makes what they did (S3).

The sampler (:mod:`solver.hints.sampler`) deals the unseen cards uniformly:
as logic, no move proves a player lacks a card (R11, P3).  As probability,
moves do tell: a player who leads an eight seldom holds a six of another
suit, a defender who covers with a trump while he holds a plain cover is
rare.  This module weighs a deal by the likelihood of the other seats' past
moves under an opponent model, so the hint engine can average over deals
with those weights (:func:`solver.hints.advise.hint_knowledge`).

**The model** (:class:`NoisyGreedy`): with probability ``1 - epsilon`` the
player makes the greedy player's move (:func:`solver.policy.bots.greedy_move`),
otherwise any legal move, uniformly::

    P(move | state) = (1 - epsilon) [move == greedy(state)] + epsilon / n(state)

where ``n`` is the number of legal moves.  ``epsilon`` is fitted by maximum
likelihood on every decision (with more than one legal move) of recorded
games of greedy and hint players, where the whole state is known
(:func:`game_decisions`, :func:`fit_epsilon`; the figures are in
``docs/hint.md``).  It is not 0: the hint player departs from greedy play.
One more fact is certain, not modelled (F2): a thrower is asked only when he
holds a card he may add, so a ``pass`` under a deal that gives him none has
probability 0.  (The sampler already deals only deals that agree with such
facts, and with being passed over: :class:`solver.hints.knowledge.HandFact`.)

**The likelihood of a deal** is the product over the other seats' past
decisions of ``P(their move | their hand then, the public state then)``.
Their hand then is their hand in the deal now, with the cards they played
since put back and the cards they picked up (R16) or drew face up since
taken out -- exact as long as they drew no hidden card since.  A decision
before such a draw (R17) is left out: the hand then also lacked the cards
drawn, and no deal says which of the player's cards those were.  Summing
over them (each subset of his unknown cards as likely) costs a factor of up
to ``C(6, 3) = 20`` per decision and per deal; sampling one history per deal
keeps the estimate unbiased but multiplies a wrong guess (a factor of about
``epsilon / n``) into the weight of nearly every deal, so the weights would
measure the guess, not the deal.  The *window since the last draw* keeps
every factor exact; it holds the current bout's decisions (the lead just
seen, the covers, the take) and, for a player who did not draw (he held six
or more, or the pile is empty), everything back to his last hidden draw.
:meth:`solver.hints.knowledge.PublicTracker.observations` gives those
decisions, recorded incrementally along the game.

Weights are normalised (:func:`deal_weights`); the effective number of deals
is Kish's ``(sum w)^2 / sum w^2``.  If every deal has likelihood 0 (possible
only through the F2 fact, or a model of ``epsilon == 0``), the weights fall
back to uniform and say so.
"""
from __future__ import annotations

import math
from dataclasses import dataclass
from typing import Iterable, Protocol, Sequence

from solver.errors import OptionError
from solver.game.movegen import legal_moves
from solver.game.moves import Kind, Move
from solver.game.state import GameState, Phase
from solver.hints.knowledge import Observation, PublicTracker
from solver.policy.bots import greedy_move

#: The noisy-greedy model's epsilon, fitted by maximum likelihood on the
#: decisions of hint-vs-greedy games (docs/hint.md, "Inference from the
#: opponents' moves").
EPSILON = 0.18


class OpponentModel(Protocol):
    """The probability that the seat to move in ``state`` plays ``move``."""

    def prob(self, state: GameState, move: Move) -> float:
        ...


@dataclass(frozen=True)
class NoisyGreedy:
    """The greedy player's move with probability ``1 - epsilon``, else any legal move
    uniformly; a ``pass`` by a thrower with nothing to add has probability 0 (F2)."""

    epsilon: float = EPSILON

    def __post_init__(self) -> None:
        if not 0 <= self.epsilon <= 1:
            raise OptionError(f"epsilon: must be in [0, 1], got {self.epsilon:g}")

    def prob(self, state: GameState, move: Move) -> float:
        moves = legal_moves(state)
        if move not in moves:
            return 0.0
        if move.kind is Kind.PASS and state.phase in (Phase.THROW, Phase.TAKEN) \
                and not any(m.kind is Kind.THROW for m in moves):
            return 0.0  # F2: a thrower with no card to add is not asked
        n = len(moves)
        if n == 1:
            return 1.0
        hit = 1.0 - self.epsilon if greedy_move(state) == move else 0.0
        return hit + self.epsilon / n


def log_likelihood(deal: GameState, observations: Sequence[Observation],
                   model: OpponentModel) -> float:
    """``log P(observations | deal)``; ``-inf`` when a move is impossible under the deal.

    ``deal`` is a fully known state now (a sampled deal, or the real game).
    """
    ll = 0.0
    for ob in observations:
        p = model.prob(ob.state_then(deal.hands[ob.mover]), ob.move)
        if p <= 0.0:
            return -math.inf
        ll += math.log(p)
    return ll


@dataclass(frozen=True)
class Weights:
    """Normalised deal weights; ``fallback``: every deal had likelihood 0, so uniform."""

    weights: tuple[float, ...]
    fallback: bool = False

    @property
    def effective(self) -> float:
        return kish(self.weights)


def kish(weights: Sequence[float]) -> float:
    """Kish's effective sample size ``(sum w)^2 / sum w^2`` (0 for no weight)."""
    s = sum(weights)
    q = sum(w * w for w in weights)
    return s * s / q if q > 0 else 0.0


def deal_weights(log_likelihoods: Sequence[float]) -> Weights:
    """Normalised weights (summing to 1) from log-likelihoods, computed stably."""
    n = len(log_likelihoods)
    if n == 0:
        return Weights(())
    top = max(log_likelihoods)
    if top == -math.inf:
        return Weights(tuple(1.0 / n for _ in range(n)), fallback=True)
    raw = [math.exp(x - top) if x > -math.inf else 0.0 for x in log_likelihoods]
    s = sum(raw)
    return Weights(tuple(w / s for w in raw))


# ------------------------------------------------------------------ fitting
def game_decisions(start: GameState, moves: Iterable[Move]) -> list[tuple[int, bool]]:
    """Every decision of the game from ``start`` (fully dealt) with more than one
    legal move: ``(legal moves, whether it was the greedy move)``."""
    t = PublicTracker(start)
    out = []
    for mv in moves:
        s = t.state
        n = len(legal_moves(s))
        if n > 1:
            out.append((n, greedy_move(s) == mv))
        t.play(mv)
    return out


def fit_epsilon(data: Sequence[tuple[int, bool]], tol: float = 1e-9) -> float:
    """The maximum-likelihood ``epsilon`` of :class:`NoisyGreedy` on ``(n, greedy?)``
    decisions.

    The log-likelihood ``L(e) = sum_greedy log(1 - e + e/n) + sum_other log(e/n)``
    is concave in ``e``; its derivative ``sum (1/n - [greedy]) / P`` falls from
    ``+inf`` at 0, so the maximum is its root in (0, 1] (bisection), or 1 when
    the derivative is still positive there.  With no departure from greedy it is 0.
    """
    if not data:
        raise OptionError("fit_epsilon: no decisions to fit on")
    if all(g for _, g in data):
        return 0.0

    def slope(e: float) -> float:
        total = 0.0
        for n, g in data:
            p = (1 - e) * g + e / n
            total += (1 / n - g) / p
        return total

    if slope(1.0) >= 0:
        return 1.0
    lo, hi = 0.0, 1.0
    while hi - lo > tol:
        mid = (lo + hi) / 2
        if slope(mid) > 0:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


__all__ = ["EPSILON", "NoisyGreedy", "OpponentModel", "Weights", "deal_weights",
           "fit_epsilon", "game_decisions", "kish", "log_likelihood"]
