"""The documentation: the site builds in strict mode, the references cover the code, and
every example command of the README and the user guide runs and prints what is shown.

Example commands are read from fenced blocks (```sh or ```console) of the pages in
:data:`PAGES` and from the README's tour table: a line ``$ durak ...`` (or, in a ``sh``
block, a line starting ``durak ...``) is run, in order within its page, from a scratch
folder of the page's own where ``docs/`` and ``puzzles/`` are the repository's (the
files an example reads are in the repository: ``docs/examples/``).  The lines after a
``$`` line, up to the next, are its whole output as shown -- standard output and error
as a terminal shows them: the output must be those lines, once times, node counts and
seeds drawn fresh are masked (:data:`_VOLATILE`).  A line ``...`` alone stands for lines
the page leaves out, ``...`` inside a line for any text; a command shown without output
must print nothing.  A command to copy (no ``$``, no output shown) must still print an
answer: something (unless it writes a file), and no error, interruption or traceback.
"""
from __future__ import annotations

import difflib
import functools
import importlib.util
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

import solver

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
#: The pages whose examples are run: the README and the user guide.
PAGES = ["docs/index.md", "docs/getting-started.md", "docs/notation.md", "docs/game-record.md",
         "docs/web.md", "README.md"] + sorted(str(p.relative_to(ROOT))
                                              for p in (DOCS / "guide").glob("*.md"))
#: Example commands that are shown but not run here, and why.
NOT_RUN = {
    "durak serve": "a server runs until stopped (tests/test_web_server.py starts it)",
    "durak play ": "interactive (tests/test_game_prompt.py plays whole games at a terminal)",
    "durak game ": "interactive (tests/test_game_prompt.py follows whole games at a terminal)",
    "durak puzzle train": "interactive (tests/test_puzzle_cli.py trains at a prompt)",
    "--scheduler tcp://": "needs a running Dask cluster",
    "--games 2000": "a figure's match: hours",
    "--games 3000": "a figure's match: hours",
}
#: Commands the docs show with a pipe or a redirect run in a shell, the rest as argv.
TIMEOUT = 180


def _blocks(text: str) -> list[tuple[str, list[str]]]:
    """The fenced blocks of a Markdown text: (info string, lines)."""
    out, cur, info = [], None, ""
    for line in text.splitlines():
        if line.startswith("```"):
            if cur is None:
                cur, info = [], line[3:].strip()
            else:
                out.append((info, cur))
                cur = None
            continue
        if cur is not None:
            cur.append(line)
    return out


def examples(page: str) -> list[tuple[str, list[str], bool]]:
    """(command, shown output lines, whether its output is shown) of a page, in order:
    a ``$`` line's output is shown (maybe as nothing); a command to copy has none."""
    text = (ROOT / page).read_text(encoding="utf-8")
    found: list[tuple[str, list[str], bool]] = []
    for info, lines in _blocks(text):
        if info not in ("sh", "console"):
            continue
        if any(line.startswith("$ ") for line in lines):  # a session: commands and output
            for line in lines:
                if line.startswith("$ "):
                    found.append((line[2:].strip(), [], True))
                elif found and found[-1][2]:
                    found[-1][1].append(line)
        else:  # commands to copy
            found.extend((line.strip(), [], False) for line in lines
                         if line.startswith("durak "))
    if page == "README.md":  # the tour table's examples
        tour = text.split("## A tour of the commands", 1)[1].split("\n## ", 1)[0]
        for cmd in re.findall(r"\| `(durak [^`]+)` \|\n", tour):
            found.append((cmd.replace("\\|", "|"), [], False))
    return found


#: The programs an example may start (others, such as curl against a server, are shown only).
RUNS = ("durak", "cat", "ls", "printf", "echo")


def _skipped(cmd: str) -> str | None:
    if cmd.split()[0] not in RUNS:
        return f"not a command this test runs ({cmd.split()[0]})"
    for key, why in NOT_RUN.items():
        if key in cmd + " ":
            return why
    return None


#: What varies from run to run, masked before the output is compared (in this order).
#: A search on one thread (``--threads 1``) with a node budget stops at the same node
#: on any machine, so there the node counts and the plies are compared (issue 69).
_THREAD_SAFE = [
    (re.compile(r"(\d[\d,]* nodes), [\d.]+ s, [\d.]+ M nodes/s"), r"\1, <t> s, <rate>"),
]
_VOLATILE = [
    (re.compile(r"\d[\d,]* nodes, [\d.]+ s, [\d.]+ M nodes/s"), "<nodes>"),
    (re.compile(r"\d+\.\d+ s\b"), "<t> s"),
    (re.compile(r'"seconds": [0-9.e-]+'), '"seconds": <t>'),
    (re.compile(r'"nodes": \d+'), '"nodes": <n>'),
    (re.compile(r"\d+\.\d+ positions/s"), "<rate>"),
    (re.compile(r"\d[\d,]* playouts, "), "<n> playouts, "),  # the estimate has a second
    (re.compile(r"\d+(\.\d+)? ms\b"), "<t> ms"),
    # what a budget cut off depends on the machine's speed
    (re.compile(r"in \d+ plies or more"), "in <n> plies or more"),
    (re.compile(r"(record is saved in|saved in) \S+"), r"\1 <file>"),
]


def normal(line: str, one_thread: bool = False) -> str:
    """``line`` with what varies masked; ``one_thread``: a node-budgeted search on one
    thread, whose node counts and plies do not vary."""
    line = line.rstrip()
    for pat, rep in (_THREAD_SAFE if one_thread else []):
        line = pat.sub(rep, line)
    for pat, rep in _VOLATILE:
        if one_thread and "plies or more" in pat.pattern:
            continue
        line = pat.sub(rep, line)
    return line


def matches(shown: str, got: str) -> bool:
    if "..." not in shown:
        return shown == got
    parts = [re.escape(p) for p in shown.split("...")]
    return re.fullmatch(".*".join(parts), got) is not None


def check_output(shown: list[str], output: str, one_thread: bool = False) -> str | None:
    """None when ``output`` is the ``shown`` block (masked; ``...`` lines stand for any
    lines), else a diff of the two; ``one_thread`` as for :func:`normal`."""
    want = [normal(x, one_thread) for x in shown]
    got = [normal(x, one_thread) for x in output.splitlines()]
    while want and not want[-1].strip():
        want.pop()
    while got and not got[-1].strip():
        got.pop()

    @functools.lru_cache(maxsize=None)
    def fits(i: int, j: int) -> bool:
        if i == len(want):
            return j == len(got)
        if want[i].strip() == "...":
            return any(fits(i + 1, k) for k in range(j, len(got) + 1))
        return j < len(got) and matches(want[i], got[j]) and fits(i + 1, j + 1)

    if fits(0, 0):
        return None
    return "\n".join(difflib.unified_diff(want, got, "shown", "printed", lineterm=""))


def unshown_output_problem(cmd: str, output: str) -> str | None:
    """What is wrong with the output of a command the page shows without its output: it
    prints nothing (unless it writes a file), or it tells of an error, an interruption
    or a traceback although it exited 0."""
    if not output.strip() and ">" not in cmd:
        return "printed nothing"
    for line in output.splitlines():
        if line.startswith(("durak: error", "durak: interrupted", "Traceback ")):
            return f"printed {line!r}"
    return None


@pytest.fixture()
def scratch(tmp_path_factory) -> Path:
    """A folder of the page's own: its examples run in order in it."""
    d = tmp_path_factory.mktemp("examples")
    for name in ("docs", "puzzles"):
        (d / name).symlink_to(ROOT / name)
    return d


def _run(cmd: str, cwd: Path) -> subprocess.CompletedProcess:
    """``cmd`` in a shell; its standard output and error in one stream, in the order a
    terminal shows them (unbuffered)."""
    env = dict(os.environ, COLUMNS="100", NO_COLOR="1", TERM="dumb", PYTHONUNBUFFERED="1",
               DURAK_DATA_DIR=str(cwd / "data"))
    bindir = cwd / "bin"
    bindir.mkdir(exist_ok=True)
    shim = bindir / "durak"  # the durak of this checkout, whatever is installed
    if not shim.exists():
        shim.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m solver.cli \"$@\"\n")
        shim.chmod(0o755)
    env["PATH"] = f"{bindir}:{env['PATH']}"
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run(["bash", "-c", cmd], cwd=cwd, env=env, stdout=subprocess.PIPE,
                          stderr=subprocess.STDOUT, text=True, timeout=TIMEOUT,
                          stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("page", PAGES)
def test_every_example_command_runs_and_prints_what_is_shown(page, scratch):
    ran = 0
    for cmd, shown, session in examples(page):
        if _skipped(cmd):
            continue
        r = _run(cmd, scratch)
        ok_codes = (0, 3) if any(b in cmd for b in ("--max-time", "--max-nodes", "--time")) else (0,)
        if "batch" in cmd:
            ok_codes = (0,)
        assert r.returncode in ok_codes, f"{page}: `{cmd}` exited {r.returncode}: {r.stdout[-500:]}"
        if session:  # a `$` line: its output is shown whole
            one = "--threads 1" in cmd and "--max-nodes" in cmd
            diff = check_output(shown, r.stdout, one_thread=one)
            assert diff is None, f"{page}: `{cmd}` printed other lines than shown:\n{diff}"
        else:  # a command to copy: no output to compare, but an answer all the same
            problem = unshown_output_problem(cmd, r.stdout)
            assert problem is None, f"{page}: `{cmd}` {problem}: {r.stdout[-500:]}"
        ran += 1
    assert ran or not examples(page) or all(_skipped(c) for c, _, _ in examples(page))


def test_the_example_reader_finds_commands_and_their_whole_output():
    found = {cmd: (shown, session) for cmd, shown, session in examples("README.md")}
    solve = "durak solve \"trump H; hands 6S 7S KH | 8C 9C AH; attacker 1\""
    assert found[solve][1] and found[solve][0][0] == "seat 1: win in 6 plies"
    printed = "seat 1: win in 6 plies\nbest: 6S 7S\nx\n"
    assert check_output(["seat 1: win in 6 plies", "best: 6S 7S", "x"], printed) is None
    assert check_output(["seat 1: win in 6 plies", "..."], printed) is None
    assert check_output(["...", "x"], printed) is None
    # a line left out, lines out of order, a line too many: each is a difference
    assert check_output(["seat 1: win in 6 plies", "x"], printed) is not None
    assert check_output(["best: 6S 7S", "seat 1: win in 6 plies", "x"], printed) is not None
    assert check_output(["seat 1: win in 6 plies", "best: 6S 7S", "x", "y"], printed) is not None
    assert check_output([], printed) is not None and check_output([], "\n") is None
    # timings and node counts are masked
    assert check_output(["80 nodes, 0.004 s, 0.02 M nodes/s"],
                        "1,234 nodes, 0.120 s, 0.01 M nodes/s") is None
    # ... but not where a node budget on one thread stops the search: only the times are
    assert check_output(["20,480 nodes, 0.2 s, 0.08 M nodes/s"],
                        "20,480 nodes, 0.9 s, 0.02 M nodes/s", one_thread=True) is None
    assert check_output(["20,000 nodes, 0.2 s, 0.08 M nodes/s"],
                        "20,480 nodes, 0.2 s, 0.08 M nodes/s", one_thread=True) is not None
    assert matches('{"to_move": 2, ...}', '{"to_move": 2, "moves": []}')
    # a command shown without its output must still answer, and not with an error
    assert unshown_output_problem("durak puzzle list", "pod-001 ...\n") is None
    assert unshown_output_problem("durak puzzle list", "\n") == "printed nothing"
    assert unshown_output_problem("durak match --json > new.json", "") is None
    assert unshown_output_problem("durak show x", "durak: error: hands: ...") is not None


@pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None,
                    reason="the docs extra is not installed: pip install '.[docs]'")
def test_the_site_builds_in_strict_mode(tmp_path):
    """A broken link, a missing reference or an option the CLI reference cannot read
    fails the build (mkdocs.yml: strict).

    Not ``-q``: mkdocs counts the warnings that strict mode turns into a failure only
    among those it logs, and ``-q`` logs none, so a quiet strict build of a broken site
    exits 0.  The log is read too: any warning or error fails the test."""
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-d",
                        str(tmp_path / "site")], cwd=ROOT, capture_output=True, text=True,
                       timeout=300, env=dict(os.environ, NO_MKDOCS_2_WARNING="1"))
    log = r.stdout + r.stderr
    warned = [line for line in log.splitlines() if re.match(r"(WARNING|ERROR)\b", line)]
    assert r.returncode == 0 and not warned, "\n".join(warned) or log
    cli = (tmp_path / "site" / "reference" / "cli" / "index.html").read_text(encoding="utf-8")
    for command in ("solve", "analyse", "hint", "game", "play", "review", "serve", "batch"):
        assert f"durak {command}" in cli
    assert "--max-time" in cli


def test_the_api_page_documents_every_public_name():
    page = (DOCS / "reference" / "api.md").read_text(encoding="utf-8")
    documented = set(re.findall(r"^::: solver\.[\w.]+\.(\w+)$", page, re.M))
    assert documented == set(solver.__all__)


def test_the_changelog_has_the_version_the_cli_prints():
    """#53: a CHANGELOG.md in the Keep a Changelog form, with a section for the
    version `durak --version` prints (the package's) and one for what is unreleased."""
    from click.testing import CliRunner

    from solver.cli import main

    try:
        import tomllib
    except ImportError:  # Python 3.10
        import tomli as tomllib

    out = CliRunner().invoke(main, ["--version"]).output
    version = re.search(r"version (\S+)", out).group(1)
    text = (ROOT / "CHANGELOG.md").read_text(encoding="utf-8")
    heads = re.findall(r"^## \[([^\]]+)\]", text, flags=re.M)
    assert heads[0] == "Unreleased" and version in heads
    assert version == tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["version"]
