"""Exact solving of positions with every card known (S1, S2, R23).

:class:`Solver` is the public face; :mod:`~solver.search.result` holds the
typed answers, :mod:`~solver.search.driver` composes the compiled core's
boolean searches into them, :mod:`~solver.search.native` loads the core and
converts states, and :mod:`~solver.search.reference` is the slow minimax the
tests hold the core to.
"""
from solver.search.exact import DEFAULT_MAX_TIME, DEFAULT_TT_MB, Solver, analyse, solve
from solver.search.result import MoveValue, SolveResult, check_solvable

__all__ = ["DEFAULT_MAX_TIME", "DEFAULT_TT_MB", "MoveValue", "SolveResult", "Solver", "analyse", "check_solvable",
           "solve"]
