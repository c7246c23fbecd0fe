"""The hint engine for positions with hidden cards (S3).

:mod:`~solver.hints.knowledge` says what a seat knows, :mod:`~solver.hints.sampler`
deals the unseen cards consistently with it, :mod:`~solver.hints.evaluate`
scores every move on one deal, :mod:`~solver.hints.stats` holds the intervals,
:mod:`~solver.hints.inference` weighs deals by the opponents' past moves
and :mod:`~solver.hints.advise` puts it together into :func:`hint`.
"""
from solver.hints.advise import (DEFAULT_SAMPLES, DEFAULT_SAMPLES_MULTI, MAX_UCT_ITERS,
                                 PERSON_SAMPLES, PERSON_SAMPLES_MULTI, TIME_ONLY_SAMPLES,
                                 HintMove, HintResult, default_samples, hint, hint_knowledge,
                                 person_samples)
from solver.hints.evaluate import HintConfig, evaluate_deal
from solver.hints.knowledge import Knowledge, PublicTracker, knowledge_of

__all__ = ["DEFAULT_SAMPLES", "DEFAULT_SAMPLES_MULTI", "MAX_UCT_ITERS", "PERSON_SAMPLES",
           "PERSON_SAMPLES_MULTI", "TIME_ONLY_SAMPLES", "HintConfig", "HintMove", "HintResult",
           "Knowledge", "PublicTracker", "default_samples", "evaluate_deal", "hint",
           "hint_knowledge", "knowledge_of", "person_samples"]
