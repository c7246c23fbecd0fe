"""The ``durak`` executable's entry point: Ctrl-C is answered at any moment.

The console script imports this module before anything else, and it loads
nothing but the standard library; the command line itself (click, rich, the
solver) is imported inside :func:`run`.  So a Ctrl-C while the tool is still
starting ends like one during a search -- exit 130 and, under ``--json``, one
JSON object on standard output -- and never as a traceback
(docs/notation.md, "Exit codes").
"""
from __future__ import annotations

import importlib
import json
import os
import sys
from typing import NoReturn

#: The exit code of an interrupted command (128 + SIGINT); ``ExitCode.INTERRUPTED``.
INTERRUPTED = 130


def run() -> None:
    """Load the command line and run it.

    An interrupted command leaves with ``os._exit(130)`` once its output is
    flushed: CPython remembers a KeyboardInterrupt that escaped code it ran
    through ``PyRun`` (a compiled module's set-up does) even when the program
    caught it, and at exit kills itself with SIGINT to report it -- the exit
    status would then be a signal, not the documented 130.  By then every
    ``with`` block (worker pools, output files) has been left.
    """
    try:
        try:
            app = importlib.import_module("solver.cli.app")
            app.main(prog_name="durak")
        except KeyboardInterrupt:
            interrupted("--json" in sys.argv[1:])
    except SystemExit as e:
        if e.code != INTERRUPTED:
            raise
        for stream in (sys.stdout, sys.stderr):
            try:
                stream.flush()
            except (OSError, ValueError):
                pass
        os._exit(INTERRUPTED)


def interrupted(as_json: bool) -> NoReturn:
    """Say that the command was stopped before it had an answer, and exit 130."""
    if as_json:  # one valid JSON object whatever the moment
        sys.stdout.write(json.dumps({"interrupted": True,
                                     "error": "interrupted before an answer"}) + "\n")
        sys.stdout.flush()
    sys.stderr.write("durak: interrupted\n")
    sys.exit(INTERRUPTED)
