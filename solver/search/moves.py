"""Every move of a node asked what the answer needs: ``solve``'s best moves
(those that keep the node's value) and ``analyse``'s value and distance of
every move, in one table, shared out between two threads where there are two.
"""
from __future__ import annotations

import threading
import time
from typing import Any, Callable

from solver._core import CState
from solver.search.distance import Distances, Walk
from solver.search.native import lead_size, move_text

#: A move of the core: (kind, cards, card, target), as ``CState.moves()`` gives it.
CoreMove = tuple[int, int, int, int]


class MoveAnalysis(Distances):
    """The moves' answers of :class:`~solver.search.driver.CoreBackend`."""

    walks_joined: int  # (how often the helper joined a walk: for tests)

    def _best_moves(self, st: CState, hero: int, value: int, mine: bool,
                    first: Callable[[], None] | None = None,
                    progress: list | None = None, lead: int = -1) -> list[str]:
        """``solve``'s best moves: those that keep the node's ``value``, asking
        of each move only what decides that.

        The mover's side (``mine``) cannot do better after a move than the
        node's value, the other side no worse (S1, S2: a success is a finite
        proof without repetitions, R23, so a move that did better would make
        the node better).  So when the node is lost for the mover every move
        keeps the value; when it is drawn, the mover's proof fails after every
        move and only the other side's is asked (a failure keeps the draw);
        when it is won, a move keeps the win exactly when the mover's proof
        succeeds, and the other side's proof is only a cheaper way to see that
        it does not (its success).  ``analyse`` needs every move's value and
        asks both (``_children``).

        Where a lead of several cards does no better for the attacker than
        any one of them (``single_leads_dominate``), the multi-card leads are
        asked first: one that keeps the value shows that each of its cards
        led alone keeps it too (the single card can do all the pair can, and
        the mover's side cannot do better than the node), so those are not
        searched.  On a 10 v 10 endgame whose pair lead of tens won, the two
        single tens had cost 69 M nodes after it (docs/solver.md).

        ``first``: this thread's own question before the moves (the root's
        distance), which a helper thread's moves run beside (``_ask_moves``).
        ``progress``: filled in place with each move's answer as it comes
        (True: keeps the value, False: does not, None: not answered yet), so
        that a budget that runs out still shows the moves proven to keep it.
        ``lead``: a move to ask first (the value proof's own, ``_lead_order``)."""
        moves = st.moves()
        won = (value > 0) == mine and value != 0  # the node is won for the mover
        lost = (value < 0) == mine and value != 0
        if lost:
            if progress is not None:
                progress[:] = [True] * len(moves)
            if first is not None:
                first()
            return [move_text(mv) for mv in moves]
        mover = 1 if mine else 0  # the prover on the mover's side

        def keeps(backend: MoveAnalysis, kid: CState, i: int, known: bool) -> tuple[bool, bool]:
            if known:
                return True, True
            if kid.fields()["over"]:
                k = kid.hero_outcome(hero) == value
            elif won:
                k = backend._decide(kid, hero, fail_ends=mover, favour=mover)[0] == value
            else:  # drawn: the mover's side cannot win after any move
                k = backend._decide(kid, hero, known_fail=mover)[0] == 0
            return k, k

        out = self._ask_moves(st, moves, self._lead_order(st, hero, moves, lead), keeps,
                              first, progress)
        return [move_text(mv) for mv, k in zip(moves, out) if k]

    def _children(self, st: CState, hero: int, want_distance: bool, value: int | None,
                  dist: int | None, mine: bool, values: list[int] | None = None,
                  progress: list | None = None,
                  lead: int = -1) -> list[tuple[CoreMove, int, int | None]]:
        """Every move's (move, value, distance), in one table.

        ``value``: the node's value for ``hero``, if known (None: nothing is
        assumed of the moves).  Given the node's own ``value`` and
        ``dist``ance, a move of the side that wins cannot win faster than
        ``dist - 1`` more plies: its distance search starts there.  A move of
        the side that loses cannot resist longer than ``dist - 1`` more plies:
        its distance search stops there (the longest resistance needs no
        success proof).  ``values``: every move's value, if already known
        (``analyse`` values the moves before it asks their distances), so only
        the distances are searched.  ``progress``: filled in place with each
        move's (value, distance) as it comes (None: not answered yet), for a
        partial answer should a budget run out.  ``lead``: a move to ask first
        (the value proof's own, ``_lead_order``)."""
        winner = value is not None and value != 0 and (value > 0) == mine
        hint = (value, dist - 1) if (value is not None and winner and dist is not None) else (0, 1)
        moves = st.moves()
        # What the node's value says of its moves (as in _best_moves): the
        # mover's side can do no better after a move than the node's value
        # and no worse than a loss.  Lost for the mover: every move is lost,
        # only its distance is asked.  Drawn: no move wins for the mover.
        # Won: most moves keep the win, so the mover's prover is favoured.
        lost = bool(value) and not winner
        mover = 1 if mine else 0
        known_fail = mover if value == 0 else None
        favour = mover if winner else None
        cap = dist - 1 if (lost and dist is not None) else None

        def valued(backend: MoveAnalysis, kid: CState, i: int,
                   known: bool) -> tuple[tuple[int, int | None], bool]:
            if values is not None:
                given: int | None = values[i]
            else:
                given = value if (known or lost) else None
            v, d = backend._value_distance(kid, hero, want_distance, hint, given,
                                           known_fail, favour, cap)
            return (v, None if d is None else d + 1), v == value

        # with the values known no lead vouches for another: one queue
        queues = [list(range(len(moves)))] if values is not None else \
            self._lead_order(st, hero, moves, lead)
        out = self._ask_moves(st, moves, queues, valued, out=progress)
        return [(mv, v, d) for mv, (v, d) in zip(moves, out)]

    def _ask_moves(self, st: CState, moves: list[CoreMove], queues: list[list[int]],
                   ask: Callable[[MoveAnalysis, CState, int, bool], tuple[Any, bool]],
                   first: Callable[[], None] | None = None,
                   out: list | None = None) -> list:
        """``ask(backend, child, index, known)`` of every move of ``st``, the
        ``queues`` of move indices one after the other (``_lead_order``):
        each answer and whether the move keeps the node's value.  ``known``:
        a multi-card lead of an earlier queue kept the value and holds the
        move's card, so the move keeps it too.  ``first``, if
        given, is this thread's own question to answer before the moves (the
        root's distance in ``solve``).

        With a helper thread (``threads=2``, the pile empty, no node budget)
        the moves are shared out between the two threads, one at a time from
        one queue, in one table: each move's question is a question of its
        own, and a distance (one prover's ply-limited proofs) cannot be split
        between the provers as a value is, so each thread takes the next move
        when it is done with one.  A single card that a multi-card lead of
        the queue before may vouch for is taken only once that lead is
        answered; a thread that finds none other to take waits for it.
        Meanwhile no value splits its provers (the helper is busy).  A budget
        or Ctrl-C in either thread stops the other.  ``out``, if given, is
        the list the answers go into as they come (None: not asked yet), the
        caller's to read should a budget run out."""
        if out is None:
            out = []
        out[:] = [None] * len(moves)
        lock = threading.Lock()
        implied = [0]  # cards of multi-card leads that keep the value
        # the multi-card leads of the first queue not answered yet (their
        # cards' single leads wait for them)
        open_leads = set(queues[0]) if len(queues) > 1 else set()

        def waits(i: int) -> bool:
            cards = moves[i][1]
            return any(moves[j][1] & cards for j in open_leads)

        def work(backend: MoveAnalysis, root: CState, queue: list[int]) -> None:
            while True:
                with lock:
                    if failed:
                        return
                    pick = next((k for k, i in enumerate(queue)
                                 if queue is queues[0] or not waits(i)), None)
                    if pick is None and not queue:
                        return
                    if pick is not None:
                        i = queue.pop(pick)
                        mv = moves[i]
                        known = lead_size(mv) == 1 and bool(mv[1] & implied[0])
                if pick is None:
                    time.sleep(0.0002)  # the other thread is still asking a multi-card lead
                    continue
                a, keeps = ask(backend, root.play(i), i, known)
                with lock:
                    if len(queues) > 1 and keeps and lead_size(mv) > 1:
                        implied[0] |= mv[1]
                    open_leads.discard(i)
                    out[i] = a

        failed: list[BaseException] = []

        def all_queues(backend: MoveAnalysis, root: CState) -> None:
            for queue in queues:
                work(backend, root, queue)

        if len(moves) < 2 - (first is not None) or not self._helper_free(st):
            all_queues(self, st)
            if first is not None:
                first()
            return out
        # this thread's own question (``first``) may start a distance walk:
        # the helper joins it once it is done with the moves
        first_done = [first is None]
        walks: list[Walk] = []

        def helper_job(backend: MoveAnalysis, root: CState) -> None:
            all_queues(backend, root)
            while True:
                with lock:
                    if first_done[0] or failed:
                        return
                    walk = walks[0] if walks else None
                if walk is not None:
                    self.walks_joined += 1
                    walk.run(backend, root)  # (``first`` walks the root, as this does)
                    return
                time.sleep(0.0002)

        self.helper_busy = True  # no value splits its provers, no distance its limits
        try:
            with self._beside(st, helper_job, failed):
                if first is not None:
                    self.joinable = walks
                    try:
                        first()
                    finally:
                        self.joinable = None
                        with lock:
                            first_done[0] = True
                all_queues(self, st)
        finally:
            self.helper_busy = False
        if failed:
            raise failed[0]
        return out

    @staticmethod
    def _lead_order(st: CState, hero: int, moves: list[CoreMove],
                    lead: int = -1) -> list[list[int]]:
        """The moves to ask, as queues asked one after the other: where a
        multi-card lead does no better for the attacker's side than any one
        of its cards (``single_leads_dominate``), the multi-card leads first,
        larger first, so that one that keeps the node's value settles its
        single cards' values without a search, then the rest; otherwise
        every move in move order, in one queue (and none vouches for
        another: with transfers the claim is false).  ``lead``: the move the
        value's proof played at the root (:attr:`decided_move`), asked before
        all others -- its proof is mostly in the table, so even an answer cut
        off by a budget names a move that keeps the value."""
        order = list(range(len(moves)))
        if st.single_leads_dominate(hero):
            order.sort(key=lambda i: -lead_size(moves[i]))
            queues = [[i for i in order if lead_size(moves[i]) > 1],
                      [i for i in order if lead_size(moves[i]) <= 1]]
        else:
            queues = [order]
        if 0 <= lead < len(moves):
            for q in queues:
                if lead in q:
                    q.remove(lead)
            queues[0].insert(0, lead)
        return queues
