"""The helper thread of the exact solver: a second search over the same table.

With ``threads`` 2 the backend (:class:`~solver.search.driver.CoreBackend`)
keeps a helper search that shares its transposition table; a question runs
in the helper's thread beside this thread's own (:meth:`TwoThreads._beside`):
the two provers of a value (:mod:`~solver.search.prover`), two walks of one
distance (:mod:`~solver.search.distance`), the moves shared out
(:mod:`~solver.search.moves`).
"""
from __future__ import annotations

import threading
from contextlib import contextmanager
from typing import TYPE_CHECKING, Callable, Iterator

from solver._core import CState, Search

if TYPE_CHECKING:
    from typing_extensions import Self


class TwoThreads:
    """A core search and, with two threads, its helper (one more of the same
    backend, :class:`~solver.search.driver.CoreBackend`, which sets these up)."""

    search: Search
    helper: Self | None
    helper_busy: bool  # the helper thread asks moves (_ask_moves)
    deadline: float
    max_nodes: int

    def _helper_free(self, st: CState) -> bool:
        """Whether the helper thread can take part in a question on ``st``:
        there is one, it is not busy with moves, no node budget is set (a
        budget counts one search's nodes) and the pile is empty (a known
        pile's epoch number is each search's own)."""
        return (self.helper is not None and not self.helper_busy and not self.max_nodes
                and st.fields()["pile"] == 0)

    @contextmanager
    def _beside(self, st: CState, job: Callable[[Self, CState], None],
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
