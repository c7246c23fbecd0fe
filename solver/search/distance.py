"""The distance: how many plies the winner needs, by ply-limited proofs.

Upward from the lower bound (:meth:`Distances._distance`), alone or as a walk
two threads share (:class:`Walk`); a bisection schedule is kept for
comparison (:meth:`Distances._bisect`).
"""
from __future__ import annotations

import threading
import time

from solver._core import CState
from solver.search.prover import UNLIM, Prover, Stopped, final_value


class Walk:
    """An upward distance walk (:meth:`Prover._distance`) that two
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
        self.busy: dict[int, tuple[Prover, int]] = {}  # id(backend) -> (backend, limit)
        self.failed: list[BaseException] = []

    def _take(self, backend: Prover) -> int | None:
        with self.lock:
            limit = max(self.handed, self.known[0])
            if limit >= self.known[1] or self.failed:
                backend.search.stop(0)  # (a walker leaves unstopped)
                return None
            self.handed = limit + 1
            backend.search.stop(0)  # (stops are set under the lock only)
            self.busy[id(backend)] = (backend, limit)
            return limit

    def _report(self, backend: Prover, limit: int, r: int, d: int) -> None:
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

    def run(self, backend: Prover, root: CState) -> None:
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



class Distances(Prover):
    """The distances of :class:`~solver.search.driver.CoreBackend`."""

    #: while ``_ask_moves`` runs this thread's own question beside the
    #: helper's moves: the distance walks it starts, for the helper to join
    joinable: list[Walk] | None
    distance_schedule: str  # "upward" (the default) or "bisect"

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
            walk = Walk(hero, prover, known)
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
        the helper's, in one table (:class:`Walk`)."""
        walk = Walk(hero, prover, known)
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
            v = final_value(st, hero)
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
