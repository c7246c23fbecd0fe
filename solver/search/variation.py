"""The principal variation: the winner's fastest line against the longest
resistance, or a drawn line until the play repeats (R23)."""
from __future__ import annotations

import time

from solver._core import CState
from solver.game.state import GameState
from solver.game.value import Value
from solver.search.native import move_text
from solver.search.prover import Aborted, Prover
from solver.search.result import MoveValue, on_hero_side


class Variation(Prover):
    """The variations of :class:`~solver.search.driver.CoreBackend`."""

    def _pv(self, st: CState, hero: int, state: GameState, value: int, dist: int | None,
            ordered: list[MoveValue]) -> list[str]:
        if value != 0:
            assert dist is not None  # a decisive value's variation is asked with its distance
            return self._pv_decisive(st, hero, state, value, dist)
        pv: list[str] = []
        # A drawn line may wander a long way before it repeats (R23), and every
        # step is a new root search whose repetition-dependent failures the
        # table could not keep: a drawn variation stops where extending it
        # would cost more than four times what the answer did.
        budget = self.search.nodes + max(250_000, 4 * self.search.nodes)
        own = self.max_nodes
        if not own or own > budget:
            self.max_nodes = budget
        try:
            self._pv_draw(st, hero, state, [m.move for m in ordered if m.value == Value.DRAW][:1],
                          pv)
        except Aborted as e:
            if (e.interrupted or self.max_nodes == own
                    or (self.deadline and time.monotonic() >= self.deadline)):
                raise
        finally:
            self.max_nodes = own
        return pv

    def _pv_draw(self, st: CState, hero: int, state: GameState, first: list[str],
                 pv: list[str]) -> None:
        """A drawn line: each step the first move (in move order) that keeps
        the draw, until the play repeats (R23) or 400 plies."""
        seen = set()
        texts = [move_text(m) for m in st.moves()]
        mv = first[0] if first else None
        while mv is not None:
            pv.append(mv)
            st = st.play(texts.index(mv))
            if st.fields()["over"] or len(pv) >= 400:
                break
            k = st.key(hero, 1)
            if k in seen:
                break  # R23: the variation repeats (a draw)
            seen.add(k)
            texts = [move_text(m) for m in st.moves()]
            mv = None
            for i, t in enumerate(texts):
                if self._value(st.play(i), hero) == 0:
                    mv = t
                    break

    def _pv_decisive(self, st: CState, hero: int, state: GameState, value: int, dist: int) -> list[str]:
        """The winner's fastest line against the longest resistance, ``dist`` plies.

        At a node ``d`` plies from the end, a move of the winning side leads
        to a child won within ``d - 1`` plies, and a move of the losing side
        to a child not won within ``d - 2`` (every child is won within
        ``d - 1``): one ply-limited proof at the node names such a move
        (``Search.root_move``: the prover's first success, or the other
        side's refutation), most of it from the table, and one proof at the
        child verifies it; only if that fails are the moves tried in order.
        The line is replayed and checked to end in the hero's ``value`` after
        exactly ``dist`` plies."""
        prover = 1 if value > 0 else 0
        pv: list[str] = []
        d = dist
        while d > 0:
            moves = st.moves()
            wins = on_hero_side(state, hero, st.to_move()) == (prover == 1)
            # the winner: a child won within d - 1; the loser: one not won within d - 2
            want, limit = (1, d - 1) if wins else (0, d - 2)
            pick = None
            if limit >= 0:
                self._prove(st, hero, prover, d if wins else d - 1)
                first = self.search.root_move
                order = ([first] if 0 <= first < len(moves) else []) + \
                    [i for i in range(len(moves)) if i != first]
                for i in order:
                    child = st.play(i)
                    r = self._prove(child, hero, prover, limit)[0]
                    if r == want:
                        pick = i
                        break
            else:
                pick = 0  # d == 1 and the loser moves: every move ends the game
            if pick is None:
                raise RuntimeError("variation: no move keeps the proven distance")
            pv.append(move_text(moves[pick]))
            st = st.play(pick)
            d -= 1
        if not st.fields()["over"] or st.hero_outcome(hero) != value:
            raise RuntimeError("variation: does not end in the proven result")
        return pv
