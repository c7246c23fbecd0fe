"""What a command started by a test gets from a terminal that a background job lacks."""
from __future__ import annotations

import signal


def as_at_a_terminal() -> None:
    """In the child before it starts (``preexec_fn``): Ctrl-C handled by default.

    A shell's background job (``pytest &``, ``nohup bash .ci/run &``) inherits
    SIGINT ignored, and Python then never turns a Ctrl-C into KeyboardInterrupt,
    so every test that sends SIGINT to a command would fail there.
    """
    signal.signal(signal.SIGINT, signal.SIG_DFL)
