"""What the web board's forkserver loads before it forks a job process.

Imported only inside the ``multiprocessing`` forkserver that :class:`~solver.web.jobs.WorkerPool`
starts (``set_forkserver_preload``), never by the server itself: it ties the
forkserver's life to the server's (:func:`~solver.run.executor.die_with_parent`; the
kernel follows the thread that launched it, one that lasts as long as the server:
``jobs._launcher``), so a
server killed outright (SIGKILL) takes its forkserver with it, and each job process,
tied in turn to the forkserver (:func:`solver.web.worker.main`), goes too.  Then it
imports the job process's code once, for every fork to share.
"""
from __future__ import annotations

import os

from solver.run.executor import die_with_parent
from solver.web import worker

die_with_parent(os.getppid())

__all__ = ["worker"]
