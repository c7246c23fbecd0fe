"""The prover driver: composes the core's two boolean searches into answers.

The core (``ext/``) answers one question at a time -- can this side force a
decisive result, within so many plies? -- and this module asks the questions
that make up an answer: the value (both provers in turn, with growing node
budgets), the distance (ply-limited proofs), every move's value and the
principal variation.  :class:`solver.search.Solver` is the public face.
"""
from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from typing import Any, Callable, Iterator

from solver._core import CState
from solver.game.state import GameState
from solver.game.value import Value
from solver.search.native import core as _core
from solver.search.native import lead_size, load, move_text
from solver.search.result import MoveValue, SolveResult, on_hero_side, rank_moves, rank_partial

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


def _final(st: CState, hero: int) -> int:
    """The result for ``hero`` of a game known to be over (``fields()["over"]``)."""
    v = st.hero_outcome(hero)
    if v is None:
        raise AssertionError("the result of a game still in play")
    return v


#: A move of the core: (kind, cards, card, target), as ``CState.moves()`` gives it.
CoreMove = tuple[int, int, int, int]


class Aborted(Exception):
    """A budget ran out (or Ctrl-C) inside the core."""

    def __init__(self, interrupted: bool):
        super().__init__("interrupted" if interrupted else "budget")
        self.interrupted = interrupted


class Stopped(Aborted):
    """The other thread's prover answered the question first (``Search.stop``)."""

    def __init__(self) -> None:
        super().__init__(False)


class _Walk:
    """An upward distance walk (:meth:`CoreBackend._distance`) that two
    threads share, in one table: each walker takes the next limit not yet
    handed out (and not yet ruled out) when it is done with one, so the two
    prove neighbouring limits side by side and each pass finds the entries of
    both.  A failure at ``L`` rules out every limit below its fail-soft
    bound, a success at ``L`` every limit from its plies up; a walker whose
    limit is ruled out meanwhile is stopped (``Search.stop``) and takes the
    next.  The distance is found when the bounds meet (``known``: [lower,
    upper], narrowed in place) and neither walker is still proving a limit
    (a success's plies are only an upper bound: a limit below them still in
    progress may lower it).  A walker may join late (the helper, once
    it has asked the moves beside the root's distance); an exception in
    either walker ends the walk for both (``failed``)."""

    def __init__(self, hero: int, prover: int, known: list[int]):
        self.hero, self.prover, self.known = hero, prover, known
        self.lock = threading.Lock()
        self.handed = known[0]  # the next limit to hand out
        self.busy: dict[int, tuple[CoreBackend, int]] = {}  # id(backend) -> (backend, limit)
        self.failed: list[BaseException] = []

    def _take(self, backend: CoreBackend) -> int | None:
        with self.lock:
            limit = max(self.handed, self.known[0])
            if limit >= self.known[1] or self.failed:
                backend.search.stop(0)  # (a walker leaves unstopped)
                return None
            self.handed = limit + 1
            backend.search.stop(0)  # (stops are set under the lock only)
            self.busy[id(backend)] = (backend, limit)
            return limit

    def _report(self, backend: CoreBackend, limit: int, r: int, d: int) -> None:
        known = self.known
        with self.lock:
            self.busy.pop(id(backend), None)
            if r:
                known[1] = min(known[1], d, limit)
            else:
                known[0] = max(known[0], d, limit + 1)
            for other, its in self.busy.values():
                if its < known[0] or its >= known[1]:
                    other.search.stop()  # its answer is known already

    def run(self, backend: CoreBackend, root: CState) -> None:
        """Walk with ``backend`` (``root``: the walk's state in its search)
        until the bounds meet."""
        try:
            while True:
                limit = self._take(backend)
                if limit is None:
                    # no limit left to hand out; the other walker may still
                    # prove one inside the bounds, whose answer decides them
                    while True:
                        with self.lock:
                            if not self.busy or self.failed:
                                return
                        time.sleep(0.0002)
                try:
                    r, d = backend._prove(root, self.hero, self.prover, limit)
                except Stopped:
                    with self.lock:
                        self.busy.pop(id(backend), None)
                    continue
                self._report(backend, limit, r, d)
        except BaseException as e:
            with self.lock:
                self.failed.append(e)
                self.busy.pop(id(backend), None)
                for other, _ in self.busy.values():
                    other.search.stop()
            raise


class _Deepening:
    """One prover's ply-limited proofs at growing limits (``_decide``'s
    deepening with 3+ players, every ``DEEPEN_STEP`` plies from the first,
    up to ``DEEPEN_MAX``), kept across ``_decide``'s rounds: a limit whose
    round budget ran out is proven again in a later round, its work in the
    table.

    Two threads may share one (``shared``, :meth:`_decide_parallel`), in
    one table: each takes the next limit not yet handed out, so the two
    prove neighbouring limits side by side, as :class:`_Walk` does for a
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

    def round(self, backend: CoreBackend, root: CState, budget: int) -> int | None:
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


class CoreBackend:
    """Values, distances and variations from the core's boolean searches.

    ``threads`` 2: a helper search shares the table and, in its own thread,
    runs the others' prover while this one runs the hero's side's, for every
    value that is not settled within a few thousand nodes
    (``_decide_parallel``).  Its side table of repetition-dependent failures
    takes an eighth of ``tt_mb``.
    """

    def __init__(self, tt_mb: int, threads: int = 1):
        helper_mb = max(1, tt_mb // 8) if threads > 1 else 0
        self.search = _core.Search(max(1, tt_mb - helper_mb))
        self.helper: CoreBackend | None = None
        self.parallel_from = PARALLEL_FROM  # (tests set 0: every value on two threads)
        self.helper_busy = False  # the helper thread asks moves (_ask_moves)
        #: the root move of the last successful proof of :meth:`_decide` (an
        #: index into the state's moves, or -1): a move that keeps the value
        #: when the prover moves at the root, asked first among the moves
        self.decided_move = -1
        #: while ``_ask_moves`` runs this thread's own question beside the
        #: helper's moves: the distance walks it starts, for the helper to join
        self.joinable: list[_Walk] | None = None
        self.walks_joined = 0  # (how often the helper did: for tests)
        self.shared_limits = 0  # (limits of a _Deepening this thread proved: for tests)
        if helper_mb:
            self.helper = CoreBackend(helper_mb)
            self.helper.search.share_table(self.search)
        self.deadline = 0.0
        self.max_nodes = 0
        self.distance_schedule = "upward"
        self.predict_lean = PREDICT_LEAN  # (0: equal turns; tests and benchmarks compare)

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

        def others(h: CoreBackend, hst: CState) -> None:
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

    def _helper_free(self, st: CState) -> bool:
        """Whether the helper thread can take part in a question on ``st``:
        there is one, it is not busy with moves, no node budget is set (a
        budget counts one search's nodes) and the pile is empty (a known
        pile's epoch number is each search's own)."""
        return (self.helper is not None and not self.helper_busy and not self.max_nodes
                and st.fields()["pile"] == 0)

    @contextmanager
    def _beside(self, st: CState, job: Callable[[CoreBackend, CState], None],
                failed: list[BaseException]) -> Iterator[None]:
        """Run ``job(helper, state)`` -- ``state`` being ``st`` in the
        helper's search -- in the helper's thread while the with-block runs
        in this one, in one table; the block's end waits for it.

        An exception of the helper's goes to ``failed`` (the caller's to
        raise), and so does the block's before it is raised, so that a
        helper waiting on this thread's answers stops waiting.  A budget or
        Ctrl-C in the block -- or one that lands right after the thread
        starts -- stops the helper (``Search.stop``) and waits for it.  Both
        stop flags are clear at the start and at the end."""
        h = self.helper
        assert h is not None  # callers ask _helper_free first
        h.deadline = self.deadline
        h.max_nodes = 0
        h.search.sync_generation(self.search)
        hst = h.search.state_from(st)
        self.search.stop(0)
        h.search.stop(0)

        def run() -> None:
            try:
                job(h, hst)
            except BaseException as e:  # handed to this thread
                failed.append(e)

        thread = threading.Thread(target=run, name="durak-prover", daemon=True)
        try:
            thread.start()
            yield
            thread.join()
        except BaseException as e:
            failed.append(e)
            h.search.stop()
            if thread.ident is not None:
                thread.join()
            raise
        finally:
            self.search.stop(0)
            h.search.stop(0)

    def _value(self, st: CState, hero: int) -> int:
        if st.fields()["over"]:
            return _final(st, hero)
        value, _ = self._decide(st, hero)
        assert value is not None  # without fail_ends every question is decided
        return value

    def _distance(self, st: CState, hero: int, prover: int, ub: int, lb: int = 1,
                  track: list[int] | None = None) -> int:
        """Exact plies the prover needs (known to be finite, at most ``ub``,
        at least ``lb``).  ``track``, if given, holds [lower, upper] as the
        walk proves them, for a partial answer should a budget run out.

        Ply-limited proofs upwards from the lower bound: every failure is
        fail-soft (it returns the lower bound its subtree proved, possibly
        beyond the limit tried) and the first success is at the distance
        itself, so only one proof is tight from above and every failure's
        table entries hold the plies proven out of reach for the next limit.
        (A bisection between the bounds cost about twice the nodes on 8 v 8:
        each success above the distance is a full proof, docs/solver.md.)
        """
        if st.fields()["over"]:
            return 0
        b = self.search.bounds(st, hero, prover)
        lb = max(lb, 1)
        if b is not None:
            lb = max(lb, b[0])
            ub = min(ub, b[1])
        known = track if track is not None else []
        known[:] = [lb, ub]  # the distance lies in [known[0], known[1]]
        if self.distance_schedule == "bisect":
            return self._bisect(st, hero, prover, known)
        if ub - lb >= 2 and self._helper_free(st):
            return self._distance_parallel(st, hero, prover, known)
        if self.joinable is not None and ub - lb >= 2:
            # the helper asks the moves meanwhile (``_ask_moves``) and joins
            # this walk when it is done with them
            walk = _Walk(hero, prover, known)
            self.joinable.append(walk)
            walk.run(self, st)
            if walk.failed:
                raise walk.failed[0]
            return known[1]
        while known[0] < known[1]:
            r, d = self._prove(st, hero, prover, known[0])
            if r:
                known[1] = known[0]
            else:
                known[0] = max(known[0] + 1, d)
        return known[1]

    def _distance_parallel(self, st: CState, hero: int, prover: int, known: list[int]) -> int:
        """:meth:`_distance` with two upward walks at once, this thread's and
        the helper's, in one table (:class:`_Walk`)."""
        walk = _Walk(hero, prover, known)
        with self._beside(st, walk.run, walk.failed):
            walk.run(self, st)
        if walk.failed:
            raise walk.failed[0]
        return known[1]

    def _bisect(self, st: CState, hero: int, prover: int, known: list[int]) -> int:
        """The distance by doubling limits, then bisection (``known``: [lower,
        upper], narrowed in place); not the default schedule (see :meth:`_distance`)."""
        d = max(known[0], 16)
        while d < known[1]:
            r, dd = self._prove(st, hero, prover, d)
            if r:
                known[1] = min(dd, d)
                break
            known[0] = max(d + 1, dd)
            d = max(2 * d, known[0])
        while known[0] < known[1]:
            mid = (known[0] + known[1]) // 2
            r, d = self._prove(st, hero, prover, mid)
            if r:
                known[1] = min(d, mid)
            else:
                known[0] = max(mid + 1, d)
        return known[1]

    def _value_distance(self, st: CState, hero: int, want_distance: bool,
                        hint: tuple[int, int] = (0, 1),
                        known: int | None = None, known_fail: int | None = None,
                        favour: int | None = None,
                        cap: int | None = None) -> tuple[int, int | None]:
        """The value and distance of ``st``; ``hint`` (value, lb): if the
        value is that one, its distance is at least ``lb``; ``known``: the
        value, if already known (no value search then); ``known_fail`` and
        ``favour`` as for :meth:`_decide`; ``cap``: a known upper bound of
        the distance, if the value is ``known``."""
        f = st.fields()
        if f["over"]:
            v = _final(st, hero)
            return v, (0 if v else None)
        if known is None:
            decided, d = self._decide(st, hero, known_fail=known_fail, favour=favour)
            assert decided is not None  # without fail_ends every question is decided
            v = decided
        else:
            v, d = known, (UNLIM - 1 if cap is None else cap)
        if v == 0:
            return 0, None
        lb = hint[1] if v == hint[0] else 1
        return v, (self._distance(st, hero, 1 if v > 0 else 0, d, lb) if want_distance else None)

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

        def keeps(backend: CoreBackend, kid: CState, i: int, known: bool) -> tuple[bool, bool]:
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

        def valued(backend: CoreBackend, kid: CState, i: int,
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
                   ask: Callable[[CoreBackend, CState, int, bool], tuple[Any, bool]],
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

        def work(backend: CoreBackend, root: CState, queue: list[int]) -> None:
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

        def all_queues(backend: CoreBackend, root: CState) -> None:
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
        walks: list[_Walk] = []

        def helper_job(backend: CoreBackend, root: CState) -> None:
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

    # ------------------------------------------------------------- API
    def load(self, state: GameState) -> CState:
        """``state`` as a state of this backend's core search."""
        if self.helper is not None:
            load(self.helper.search, state)  # the same game, for _decide_parallel
        return load(self.search, state)

    def value(self, state: GameState, hero: int) -> int:
        self.deadline = 0.0
        self.max_nodes = 0
        st = self.load(state)
        self.search.new_generation()
        return self._value(st, hero)

    def budgeted_value(self, st: CState, hero: int, max_nodes: int) -> int | None:
        """The exact value of core state ``st`` for ``hero`` within
        ``max_nodes`` nodes, or None (the hint engine's endgame question; the
        same provers, deepening and table as :meth:`run`)."""
        if st.fields()["over"]:
            return st.hero_outcome(hero)
        self.deadline = 0.0
        self.search.reset_nodes()
        self.search.new_generation()
        self.max_nodes = max_nodes
        try:
            return self._decide(st, hero)[0]
        except Aborted as e:
            if e.interrupted:  # Ctrl-C is the caller's to see, not an exhausted budget
                raise KeyboardInterrupt from None
            return None
        finally:
            self.max_nodes = 0

    def run(self, state: GameState, hero: int, all_moves: bool, max_time: float | None,
            max_nodes: int | None, want_distance: bool, want_pv: bool) -> SolveResult:
        """``solve`` (``all_moves`` false) or ``analyse``.

        The value first (the two provers), then: for ``solve`` every move's
        value only (the best moves are those of the best value) and the
        root's own distance; for ``analyse`` every move's value and distance
        in the same table (the winner's moves start their distance search at
        the root's distance less one).  The variation is read from the
        provers' deciding moves (``_pv``), not from re-solved children."""
        self.deadline = (time.monotonic() + max_time) if max_time else 0.0
        self.max_nodes = int(max_nodes) if max_nodes else 0
        self.reset_nodes()
        self.search.new_generation()
        st = self.load(state)
        self.decided_move = -1
        result = SolveResult(hero + 1, None, [], [], None, 0, 0.0, False, [], Value.LOSS,
                             Value.WIN)
        mine = on_hero_side(state, hero, st.to_move())
        dist_known: list[int] = []  # the root distance's [lower, upper] as proven
        found: list[int] = []  # the root distance, once found
        # the moves' answers as they come, for a partial answer: analyse's
        # values, then its (value, distance) pairs; solve's keeps-the-value
        valued: list = []
        measured: list = []
        kept: list = []
        try:
            bounds = [-1, 1]  # [lower, upper]
            try:
                value, ub = self._decide(st, hero, bounds)
            finally:
                result.lower, result.upper = Value(bounds[0]), Value(bounds[1])
            assert value is not None  # without fail_ends every question is decided
            # the value proof's move at the root keeps a win of the mover's side
            lead = self.decided_move if value != 0 and (value > 0) == mine else -1
            result.value = Value(value)
            result.lower = result.upper = result.value
            dist = None

            def root_distance() -> None:
                found.append(self._distance(st, hero, 1 if value > 0 else 0, ub,
                                            track=dist_known))

            need_distance = value != 0 and (want_pv or want_distance)
            if need_distance and want_distance:
                dist_known[:] = [1, ub]  # (the value's own proof: at most ub plies)
            if all_moves:
                if need_distance:
                    # every move's value first, then the root's distance and
                    # the moves' distances: a budget that runs out on the
                    # distances still shows which moves keep the value
                    kids = self._children(st, hero, False, value, None, mine,
                                          progress=valued, lead=lead)
                    values = [v for _, v, _ in kids]
                    root_distance()
                    dist = found[0]
                    if want_distance:
                        kids = self._children(st, hero, True, value, dist, mine, values,
                                              progress=measured)
                else:
                    kids = self._children(st, hero, want_distance, value, dist, mine,
                                          progress=measured, lead=lead)
                moves = [MoveValue(move_text(mv), Value(v), d) for mv, v, d in kids]
                ordered, best = rank_moves(moves, mine)
                result.moves = ordered
            else:
                # with two threads the best moves run beside the root's distance
                best = self._best_moves(st, hero, value, mine,
                                        root_distance if need_distance else None, kept,
                                        lead)
                dist = found[0] if need_distance else None
                ordered = [MoveValue(m, Value(value), None) for m in best]
            if want_distance:
                result.distance = dist
            if want_pv:
                result.pv = self._pv(st, hero, state, value, dist, ordered)
            if result.pv and result.pv[0] in best:
                # the variation's move first (the fastest win, the longest
                # resistance), the others in move order
                best.remove(result.pv[0])
                best.insert(0, result.pv[0])
            result.best = best
            result.exact = True
        except Aborted as e:
            result.exact = False
            result.interrupted = e.interrupted
        except KeyboardInterrupt:  # Ctrl-C between two proofs: what is proven stands
            result.exact = False
            result.interrupted = True
        if not result.exact and want_distance and result.distance is None and found:
            result.distance = found[0]  # proven before the budget ran out on the rest
        elif not result.exact and want_distance and result.distance is None and dist_known:
            lo, hi = dist_known
            if lo > 1 or hi < UNLIM - 1:  # (1 and "finite" say nothing)
                result.distance_lower = lo
                result.distance_upper = hi if hi < UNLIM - 1 else None
        if not result.exact:
            if result.value is not None:
                self._partial_moves(st, result, mine, all_moves, valued, measured, kept)
        result.nodes = self.nodes
        return result

    @staticmethod
    def _partial_moves(st: CState, result: SolveResult, mine: bool, all_moves: bool,
                       valued: list, measured: list, kept: list) -> None:
        """What a budget that ran out after the value leaves of the moves:
        ``analyse`` lists every move with its value and distance where
        proven (None where not); both commands give as ``best`` the moves
        proven to keep the node's value (no move can do better than the
        node), ``best_complete`` saying whether every move was asked."""
        moves = st.moves()
        if all_moves:
            values: list[int | None] = [None] * len(moves)
            dists: list[int | None] = [None] * len(moves)
            for i in range(len(moves)):
                if i < len(measured) and measured[i] is not None:
                    values[i], dists[i] = measured[i]
                elif i < len(valued) and valued[i] is not None:
                    values[i] = valued[i][0]
            result.moves = rank_partial(
                [MoveValue(move_text(mv), None if v is None else Value(v), d)
                 for mv, v, d in zip(moves, values, dists)], mine)
            keeps = [None if v is None else v == result.value for v in values]
        else:
            keeps = list(kept) if len(kept) == len(moves) else [None] * len(moves)
        result.best = [move_text(mv) for mv, k in zip(moves, keeps) if k]
        result.best_complete = all(k is not None for k in keeps) and bool(moves)

    @property
    def nodes(self) -> int:
        """Nodes searched since the last ``reset_nodes``, the helper's included."""
        return self.search.nodes + (self.helper.search.nodes if self.helper else 0)

    def reset_nodes(self) -> None:
        self.search.reset_nodes()
        if self.helper is not None:
            self.helper.search.reset_nodes()

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
