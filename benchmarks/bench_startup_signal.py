"""When does a Ctrl-C at start-up stop being Python's?  Not part of CI.

docs/guide/commands.md, "Exit codes": a Ctrl-C (or SIGTERM) is answered as the commands answer
it -- exit 130 (143), one JSON object under ``--json`` -- from the moment
``solver.cli.launch.run`` has set its handlers up; before that it is Python's,
and may end in a traceback.  This measures the two parts of that window:

1. Python's own start-up, until it runs the first line of a program: the
   interpreter and the installed packages' ``.pth`` files (``python -c``
   started the way the console script is, timed from the spawn);
2. durak's code before its handlers are in place: importing ``solver``,
   ``solver.cli`` and ``solver.cli.launch``, the console script's own line
   (``re.sub`` on ``argv[0]``), and setting the handlers up.

``--sweep`` then sends SIGINT to ``durak solve POSITION --json`` at each delay
and counts how it ended: killed before Python's handler existed, a traceback
in Python's start-up, a traceback in durak's code, or exit 130 with one JSON
object::

    python benchmarks/bench_startup_signal.py
    python benchmarks/bench_startup_signal.py --sweep 40:160:5 --repeat 4

The children import this repository's ``solver`` (``PYTHONPATH``); the sweep
runs the ``durak`` console script that ``pip install`` wrote beside this
interpreter when there is one (``--script``), else ``python -m solver.cli``.
"""
from __future__ import annotations

import argparse
import collections
import os
import re
import signal
import statistics
import subprocess
import sys
import sysconfig
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
#: The children import this repository's ``solver``.
ENV = dict(os.environ, PYTHONPATH=os.pathsep.join(
    [ROOT] + ([os.environ["PYTHONPATH"]] if os.environ.get("PYTHONPATH") else [])))
POSITION = "trump H; hands 6S 7S KH | 8C 9C AH; attacker 1"

#: Timed in a fresh interpreter: durak's code from its first line until the handlers are set.
_WINDOW = """
import re, sys, time
t0 = time.perf_counter()
from solver.cli.launch import _install_handlers
sys.argv[0] = re.sub(r'(-script\\.pyw|\\.exe)?$', '', sys.argv[0])
_install_handlers()
print((time.perf_counter() - t0) * 1e3)
"""


def _child() -> None:
    """In the child before it starts: Ctrl-C handled as at a terminal."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def python_start_ms(repeat: int) -> list[float]:
    code = "import os, time; print((time.time() - float(os.environ['SPAWN'])) * 1e3)"
    out = []
    for _ in range(repeat):
        env = dict(ENV, SPAWN=repr(time.time()))
        r = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           text=True, check=True, cwd=ROOT)
        out.append(float(r.stdout))
    return out


def durak_window_ms(repeat: int) -> list[float]:
    return [float(subprocess.run([sys.executable, "-c", _WINDOW], capture_output=True, env=ENV,
                                 text=True, check=True, cwd=ROOT).stdout)
            for _ in range(repeat)]


def ending(p: subprocess.Popen, out: str, err: str) -> str:
    if "Traceback" in err:
        files = re.findall(r'File "([^"]+)", line \d+', err)
        mine = any(f"{os.sep}solver{os.sep}" in f or os.path.basename(f).startswith("durak")
                   for f in files)
        return "traceback in durak's code" if mine else "traceback in Python's start-up"
    if p.returncode == -signal.SIGINT:
        return "killed before Python's handler"
    if p.returncode == 130 and out.count("\n") == 1 and out.startswith("{"):
        return "130 and one JSON object"
    return f"exit {p.returncode}"


def sweep(command: list[str], delays: list[int], repeat: int) -> None:
    total: collections.Counter = collections.Counter()
    for d in delays:
        seen: collections.Counter = collections.Counter()
        for _ in range(repeat):
            t0 = time.perf_counter()
            p = subprocess.Popen([*command, "solve", POSITION, "--json"], text=True, env=ENV,
                                 stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                 preexec_fn=_child, cwd=ROOT)
            time.sleep(max(0.0, d / 1000 - (time.perf_counter() - t0)))
            p.send_signal(signal.SIGINT)
            out, err = p.communicate()
            seen[ending(p, out, err)] += 1
        total.update(seen)
        print(f"{d:5d} ms  " + ", ".join(f"{k}: {n}" for k, n in sorted(seen.items())),
              flush=True)
    print("all      " + ", ".join(f"{k}: {n}" for k, n in sorted(total.items())))


def console_script() -> str | None:
    """The ``durak`` script ``pip install`` wrote beside this interpreter, if any."""
    path = os.path.join(sysconfig.get_path("scripts"), "durak")
    return path if os.path.isfile(path) else None


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--repeat", type=int, default=10)
    ap.add_argument("--sweep", default=None, metavar="FROM:TO:STEP",
                    help="send SIGINT at these delays (ms) after the spawn")
    ap.add_argument("--script", default=console_script(),
                    help="the durak console script (default: the one pip wrote beside "
                         "this interpreter)")
    args = ap.parse_args()
    for name, ms in (("Python's own start-up (spawn to a program's first line)",
                      python_start_ms(args.repeat)),
                     ("durak's code until its handlers are set",
                      durak_window_ms(args.repeat))):
        print(f"{name}: median {statistics.median(ms):.1f} ms, "
              f"{min(ms):.1f}-{max(ms):.1f} ms over {len(ms)} runs")
    if os.environ.get("PYTHONDONTWRITEBYTECODE"):
        print("(PYTHONDONTWRITEBYTECODE is set: a module whose byte-code was never written "
              "is compiled at each start, which lengthens both parts)")
    if args.sweep:
        lo, hi, step = (int(x) for x in args.sweep.split(":"))
        command = ([sys.executable, args.script] if args.script
                   else [sys.executable, "-m", "solver.cli"])
        sweep(command, list(range(lo, hi + 1, step)), args.repeat)


if __name__ == "__main__":
    main()
