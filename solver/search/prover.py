"""The value prover: the core's two boolean searches composed into a value.

Only one of the two questions -- can the hero's side force a win, can the
others? -- has to succeed for a decisive value; the two provers take turns
with growing node budgets in one table (:meth:`Prover._decide`), with 3+
players after ply-limited proofs at growing limits (:class:`_Deepening`), and
with two threads side by side (:meth:`Prover._decide_parallel`).
"""
from __future__ import annotations

import threading
import time

from solver._core import CState
from solver.search.native import core as _core
from solver.search.threads import TwoThreads

UNLIM = _core.UNLIMITED
INF = _core.INFINITE
#: Ply-limited proofs (3+ players, ``CoreBackend._decide``): the first limit
#: and its step, and the limit from which only the unlimited search goes on.
DEEPEN_STEP = 4
DEEPEN_MAX = 400
#: With a helper thread, a value still open when the provers' round budget
#: reaches this many nodes goes on with the two provers on two threads
#: (``CoreBackend._decide_parallel``); smaller ones are not worth a thread.
PARALLEL_FROM = 8192
#: Two players, a question whose answer is expected of one prover
#: (``CoreBackend._decide``'s ``favour``): the other prover's round budgets
#: are this many times smaller.  On 30 8 v 8 endgames, `solve`'s best moves
#: took 21.1 M nodes with equal turns and 16.3 M with this share (16: 16.9 M,
#: 256: 16.2 M); docs/solver.md has the figures.
FAVOUR = 64
#: Two players, no side expected by the caller: one greedy playout guesses
#: the winner (``CoreBackend._guess``), and the other prover's round budgets
#: are this many times smaller (0: equal turns).  On 200 8 v 8 endgames the
#: value's median fell from 52,604 to 40,536 nodes (docs/solver.md, "The
#: winner guessed").
PREDICT_LEAN = 16


def final_value(st: CState, hero: int) -> int:
    """The result for ``hero`` of a game known to be over (``fields()["over"]``)."""
    v = st.hero_outcome(hero)
    if v is None:
        raise AssertionError("the result of a game still in play")
    return v



class Aborted(Exception):
    """A budget ran out (or Ctrl-C) inside the core."""

    def __init__(self, interrupted: bool):
        super().__init__("interrupted" if interrupted else "budget")
        self.interrupted = interrupted


class Stopped(Aborted):
    """The other thread's prover answered the question first (``Search.stop``)."""

    def __init__(self) -> None:
        super().__init__(False)


class _Deepening:
    """One prover's ply-limited proofs at growing limits (``_decide``'s
    deepening with 3+ players, every ``DEEPEN_STEP`` plies from the first,
    up to ``DEEPEN_MAX``), kept across ``_decide``'s rounds: a limit whose
    round budget ran out is proven again in a later round, its work in the
    table.

    Two threads may share one (``shared``, :meth:`_decide_parallel`), in
    one table: each takes the next limit not yet handed out, so the two
    prove neighbouring limits side by side, as :class:`Walk` does for a
    distance.  Three or more players, a lone hero: the others' side (the
    coalition) mostly wins, and its deepening is most of the value's time
    (docs/solver.md), so the thread that proves the hero's side spends the
    larger part of its rounds on the others' limits.  The first success
    decides the value (its plies an upper bound on the distance, which the
    distance walk makes exact).  ``close`` ends it (the prover's unlimited
    search failed: no limit can succeed)."""

    def __init__(self, hero: int, prover: int, shared: bool = False):
        self.hero, self.prover, self.shared = hero, prover, shared
        self.lock = threading.Lock()
        self.handed = DEEPEN_STEP  # the next new limit
        self.again: list[int] = []  # limits whose rounds ran out, to hand out again
        self.decided = False  # a limit succeeded
        self.closed = False

    @property
    def over(self) -> bool:
        """No limit is left to prove (a success, the last limit, or closed)."""
        with self.lock:
            return (self.closed or self.decided
                    or (not self.again and self.handed >= DEEPEN_MAX))

    def close(self) -> None:
        with self.lock:
            self.closed = True

    def _take(self) -> int | None:
        with self.lock:
            if self.closed or self.decided:
                return None
            if self.again:
                self.again.sort()
                return self.again.pop(0)
            if self.handed >= DEEPEN_MAX:
                return None
            limit = self.handed
            self.handed += DEEPEN_STEP
            return limit

    def round(self, backend: Prover, root: CState, budget: int) -> int | None:
        """Prove limits with ``backend`` (``root``: the state in its search)
        for at most ``budget`` nodes (0: no round limit): the plies of a
        success, or None (the round ran out, or no limit is left)."""
        stop = backend.search.nodes + budget
        while True:
            left = stop - backend.search.nodes
            if budget and left <= 0:
                return None
            limit = self._take()
            if limit is None:
                return None
            r = None
            try:
                r = backend._prove_round(root, self.hero, self.prover,
                                         left if budget else 0, limit)
            finally:
                if r is None:  # out of budget, stopped or aborted: not proven
                    with self.lock:
                        self.again.append(limit)
            if r is None:
                return None
            if self.shared:
                backend.shared_limits += 1
            if r[0]:
                with self.lock:
                    self.decided = True
                backend.decided_move = backend.search.root_move
                return r[1]



class Prover(TwoThreads):
    """The values of :class:`~solver.search.driver.CoreBackend`: the provers'
    turns, the helper's share of them, and the primitives every other question
    asks (:meth:`_prove`, :meth:`_prove_round`)."""

    parallel_from: int  # (tests set 0: every value on two threads)
    #: the root move of the last successful proof of :meth:`_decide` (an index
    #: into the state's moves, or -1)
    decided_move: int
    shared_limits: int  # (limits of a _Deepening this thread proved: for tests)
    predict_lean: int  # (0: equal turns; tests and benchmarks compare)

    # -------------------------------------------------------- primitives
    def _prove(self, st: CState, hero: int, prover: int, depth: int = UNLIM) -> tuple[int, int]:
        r, d = self.search.prove(st, hero, prover, depth, self.deadline, self.max_nodes)
        if r == -1 and self.search.stopped:
            raise Stopped()
        if r < 0:
            raise Aborted(r == -2)
        return r, d

    def _prove_round(self, st: CState, hero: int, prover: int, budget: int,
                     depth: int = UNLIM) -> tuple[int, int] | None:
        """One proof (ply limit ``depth``) with at most ``budget`` more nodes
        (0: no round limit); None if that round ran out.  The caller's own
        budgets (``deadline``, ``max_nodes``, Ctrl-C) raise :class:`Aborted`."""
        limit = self.search.nodes + budget if budget else 0
        if self.max_nodes and (not limit or limit > self.max_nodes):
            limit = self.max_nodes
        r, d = self.search.prove(st, hero, prover, depth, self.deadline, limit)
        if r == -2:
            raise Aborted(True)
        if r == -1 and self.search.stopped:
            raise Stopped()
        if r == -1:
            if ((self.max_nodes and self.search.nodes >= self.max_nodes)
                    or (self.deadline and time.monotonic() >= self.deadline)):
                raise Aborted(False)
            return None
        return r, d

    def _decide(self, st: CState, hero: int, bounds: list[int] | None = None,
                known_fail: int | None = None,
                fail_ends: int | None = None,
                favour: int | None = None,
                shared: _Deepening | None = None) -> tuple[int | None, int]:
        """The value for ``hero`` and the successful prover's distance bound.

        Only one of the two questions has to succeed for a decisive value, and
        a success is usually cheaper to prove than the other side's failure.
        So the two provers take turns with node budgets that double each
        round, the hero's side first; the table is shared, so the work of a
        round that ran out is not lost, and each side's stored successes prune
        the other's search (the cross-prover cut-off).  Once one side has
        failed the other runs to the end.  A draw needs both failures.

        With 3+ players each prover's turn first runs ply-limited proofs at
        growing limits (:class:`_Deepening`).  Without a ply limit, play can
        wander hundreds of bouts deep through takes that pass cards round the
        table, and failures that rest on repetitions cannot be stored (R23);
        under a limit no repetition needs checking at all (a finite proof is
        a proof, however often a state recurs in it), every failure is
        stored, and the core's ``plies_needed`` bound cuts the last plies.
        Only the unlimited search can prove a draw, so it keeps a share of
        each round: an eighth.  A lone hero against a coalition of two or
        more (no teams) rarely escapes, and needs long proofs when he does:
        his side's deepening gets a quarter of the round, the coalition's a
        whole one.  The shares were chosen by measurement on the 3p5 family;
        docs/solver.md has the shares tried and the figures.
        ``bounds``, if given, keeps the value bounds proven so far as
        [lower, upper] (for a partial answer).  ``known_fail``: a prover
        already known to fail here (1: the hero's side, 0: the others), never
        asked.  ``fail_ends``: a prover whose failure is all the caller needs
        to know; the value is then None.  ``favour``: with two players, the
        prover expected to answer (the mover's side after a move of a won
        node, where most moves keep the win): the other prover's turns get
        ``1 / FAVOUR`` of the budget.  Equal turns spend on the other side's
        proofs what its success seldom repays: on 8 v 8, the mover's failure
        answered 97% of `solve`'s moves that do not keep the win.  Not with
        3+ players, where the mover's failures rest on repetitions and the
        other side's success is the cheaper answer (3p5: 5 times the nodes).
        With two players and neither ``favour`` nor ``known_fail`` given,
        the side a greedy playout says wins (:meth:`_guess`) is favoured in
        the same way, by ``PREDICT_LEAN``, and proves first.  ``shared``:
        the coalition's deepening, shared with the other thread
        (:meth:`_decide_parallel`); the thread asked only the hero's side
        (``known_fail`` 0) proves its limits too, with a whole round's
        budget after each of the hero's turns.
        """
        done: dict[int, tuple[int, int]] = {}
        players, flags = self.search.game
        # with 3+ players each prover's ply-limited proofs, while any are left
        deepenings = {p: _Deepening(hero, p) for p in (1, 0)} if players > 2 else {}
        if shared is not None:
            deepenings[shared.prover] = shared
        if known_fail is not None:
            done[known_fail] = (0, 0)
            deepenings.pop(known_fail, None)
        lone = players > 2 and not flags & _core.FLAG_TEAMS
        order = (1, 0)
        lean_by = FAVOUR
        if favour is None and known_fail is None and players == 2 and self.predict_lean:
            guess = self._guess(st, hero)
            if guess:
                favour = 1 if guess > 0 else 0
                lean_by = self.predict_lean
                order = (favour, 1 - favour)
        budget = 2048
        while True:
            if budget >= self.parallel_from and not done and self._helper_free(st):
                return self._decide_parallel(st, hero, bounds, fail_ends)
            for prover in order:
                if prover in done:
                    continue
                lean = lean_by if favour not in (None, prover) and players == 2 else 1
                if prover in deepenings:
                    share = budget // 4 if prover == 1 and lone else budget
                    d = deepenings[prover].round(self, st, share)
                    if d is not None:
                        return (1 if prover else -1), d
                    if deepenings[prover].over:
                        del deepenings[prover]
                helping = shared is not None and shared.prover in done and not shared.over
                share = budget // 8 if deepenings or helping else 0 if done else budget // lean
                r = self._prove_round(st, hero, prover, share)
                if r is None:
                    continue
                done[prover] = r
                deepenings.pop(prover, None)
                if r[0]:
                    self.decided_move = self.search.root_move
                    return (1 if prover else -1), r[1]
                if prover == fail_ends:
                    return None, 0
                if bounds is not None:
                    bounds[prover] = 0
            if len(done) == 2:
                return 0, 0
            if shared is not None and shared.prover in done and not shared.over:
                # the other thread's prover: its limits beside it
                d = shared.round(self, st, budget)
                if d is not None:
                    return (1 if shared.prover else -1), d
            budget *= 2

    @staticmethod
    def _guess(st: CState, hero: int) -> int:
        """The greedy players' result for ``hero`` from ``st`` (+1/0/-1), a
        guess at the winner for :meth:`_decide`: right on 147 of the 189
        decisive 8 v 8 endgames of ``bench_solver`` (seeds of the first 200).
        0 (no guess) with a pile: its order lives in the search, not in ``st``."""
        f = st.fields()
        if f["pile"]:
            return 0
        att = f["att"]
        order = tuple(c for c in range(att.bit_length()) if att >> c & 1)
        return _core.greedy_playout(st, hero, table_order=order)[0] or 0

    def _decide_parallel(self, st: CState, hero: int, bounds: list[int] | None,
                         fail_ends: int | None) -> tuple[int | None, int]:
        """:meth:`_decide` with the two provers at once: this thread proves
        for the hero's side, the helper's for the others, in one table.

        The alternating provers give the side that fails about as many nodes
        as the side that succeeds (30 8 v 8 endgames: the winner's proof
        alone took a median of 6 ms where the value took 12).  On two cores
        the failing side's work costs no time; the shared table keeps what
        the turns shared (each side's successes prune the other's search,
        and the rest of the answer finds both sides' entries).  The question
        is answered by a success, or by the failure of ``fail_ends``; the
        thread that answers it stops the other (``Search.stop``: the core
        ends within 1,024 nodes).  A draw waits for both failures.  A budget
        or Ctrl-C (seen by this thread only) stops the helper too."""
        theirs: list[tuple[int | None, int]] = []
        failed: list[BaseException] = []
        helper = self.helper
        assert helper is not None  # _helper_free said there is one
        players, flags = self.search.game
        # a lone hero: both threads prove the others' limits (_Deepening)
        deepening = (_Deepening(hero, 0, shared=True)
                     if players > 2 and not flags & _core.FLAG_TEAMS else None)

        def others(h: Prover, hst: CState) -> None:
            theirs.append(h._decide(hst, hero, known_fail=1, shared=deepening))
            if theirs[0][0] == 0:
                if deepening is not None:
                    deepening.close()  # no limit of theirs can succeed
                if bounds is not None:
                    bounds[0] = 0  # the others cannot win
            if theirs[0][0] != 0 or fail_ends == 0:
                self.search.stop()  # the question is answered

        mine: tuple[int | None, int] | None = None
        with self._beside(st, others, failed):
            try:
                mine = self._decide(st, hero, known_fail=0, shared=deepening)
                if mine[0] == 0 and bounds is not None:
                    bounds[1] = 0  # the hero's side cannot win
                if deepening is not None and mine[0] == 0 and fail_ends != 1:
                    # the others' limits beside the helper until one decides
                    d = deepening.round(self, st, 0)
                    if d is not None:
                        mine = (-1, d)
            except Stopped:
                pass  # the helper answered the question: ``theirs`` below
            if mine is not None and (mine[0] != 0 or fail_ends == 1):
                helper.search.stop()  # answered here
        if mine is not None and mine[0] != 0:
            return mine
        if mine is not None and fail_ends == 1:
            return None, 0
        if not theirs:  # the helper ended without an answer
            if isinstance(failed[0], Stopped):
                raise AssertionError("the helper was stopped with the question open")
            raise failed[0]
        if theirs[0][0] != 0:
            self.decided_move = helper.decided_move
            return theirs[0]
        if fail_ends == 0:
            return None, 0
        if mine is None:
            raise AssertionError("this thread was stopped with the question open")
        return 0, 0

    def _value(self, st: CState, hero: int) -> int:
        if st.fields()["over"]:
            return final_value(st, hero)
        value, _ = self._decide(st, hero)
        assert value is not None  # without fail_ends every question is decided
        return value
