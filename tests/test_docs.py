"""The documentation: the site builds in strict mode, the references cover the code, and
every example command of the README and the user guide runs and prints what is shown.

Example commands are read from fenced blocks (```sh or ```console) of the pages in
:data:`PAGES` and from the README's tour table: a line ``$ durak ...`` (or, in a ``sh``
block, a line starting ``durak ...``) is run, in order within its page, from a scratch
folder of the page's own where ``docs/`` and ``puzzles/`` are the repository's; the lines after a
``$`` line, up to the next, are its output as shown.  Each shown line must appear in the
output, in order (lines the page leaves out do not matter; ``...`` inside a line matches
anything), once times, node counts and seeds drawn fresh are set aside.
"""
from __future__ import annotations

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


def examples(page: str) -> list[tuple[str, list[str]]]:
    """(command, shown output lines) of a page, in order."""
    text = (ROOT / page).read_text(encoding="utf-8")
    found: list[tuple[str, list[str]]] = []
    for info, lines in _blocks(text):
        if info not in ("sh", "console"):
            continue
        if any(line.startswith("$ ") for line in lines):  # a session: commands and output
            for line in lines:
                if line.startswith("$ "):
                    found.append((line[2:].strip(), []))
                elif found and found[-1][0] in [x[2:].strip() for x in lines if x[:2] == "$ "]:
                    found[-1][1].append(line)
        else:  # commands to copy
            found.extend((line.strip(), []) for line in lines if line.startswith("durak "))
    if page == "README.md":  # the tour table's examples
        tour = text.split("## A tour of the commands", 1)[1].split("\n## ", 1)[0]
        for cmd in re.findall(r"\| `(durak [^`]+)` \|\n", tour):
            found.append((cmd.replace("\\|", "|"), []))
    return found


#: README's tour examples whose input files are made on the guide page that runs the whole
#: example (each page's examples run on their own).
MADE_ELSEWHERE = {"durak compare new.json old.json": "guide/matches.md makes the two files",
                  "durak batch solve positions.jsonl -j 2": "guide/batch.md makes the file"}

#: The programs an example may start (others, such as curl against a server, are shown only).
RUNS = ("durak", "cat", "ls", "printf", "echo")


def _skipped(cmd: str) -> str | None:
    if cmd.split()[0] not in RUNS:
        return f"not a command this test runs ({cmd.split()[0]})"
    for key, why in NOT_RUN.items():
        if key in cmd + " ":
            return why
    return None


_VOLATILE = [
    (re.compile(r"\d+\.\d+ s\b"), "<t> s"),
    (re.compile(r'"seconds": [0-9.e-]+'), '"seconds": <t>'),
    (re.compile(r'"nodes": \d+'), '"nodes": <n>'),
    (re.compile(r"\d[\d,]* nodes, [\d.]+ s, [\d.]+ M nodes/s"), "<nodes>"),
    (re.compile(r"\d+\.\d+ positions/s"), "<rate>"),
    (re.compile(r"\d+\.\d+ ms\b"), "<t> ms"),
    # what a budget cut off depends on the machine's speed
    (re.compile(r"in \d+ plies or more"), "in <n> plies or more"),
    (re.compile(r"(record is saved in|saved in) \S+"), r"\1 <file>"),
]


def normal(line: str) -> str:
    line = line.rstrip()
    for pat, rep in _VOLATILE:
        line = pat.sub(rep, line)
    return line


def matches(shown: str, got: str) -> bool:
    if "..." not in shown:
        return shown == got
    parts = [re.escape(p) for p in shown.split("...")]
    return re.fullmatch(".*".join(parts), got) is not None


def check_output(shown: list[str], output: str) -> str | None:
    """None when every shown line appears in ``output`` in order, else the first one missing."""
    got = [normal(x) for x in output.splitlines()]
    i = 0
    for line in shown:
        want = normal(line)
        if not want.strip() or want.strip() == "...":
            continue
        while i < len(got) and not matches(want, got[i]):
            i += 1
        if i == len(got):
            return line
        i += 1
    return None


@pytest.fixture()
def scratch(tmp_path_factory) -> Path:
    """A folder of the page's own: its examples run in order in it."""
    d = tmp_path_factory.mktemp("examples")
    for name in ("docs", "puzzles"):
        (d / name).symlink_to(ROOT / name)
    return d


def _run(cmd: str, cwd: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, COLUMNS="100", NO_COLOR="1", TERM="dumb",
               DURAK_DATA_DIR=str(cwd / "data"))
    bindir = cwd / "bin"
    bindir.mkdir(exist_ok=True)
    shim = bindir / "durak"  # the durak of this checkout, whatever is installed
    if not shim.exists():
        shim.write_text(f"#!/bin/sh\nexec {shlex.quote(sys.executable)} -m solver.cli \"$@\"\n")
        shim.chmod(0o755)
    env["PATH"] = f"{bindir}:{env['PATH']}"
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    return subprocess.run(["bash", "-c", cmd], cwd=cwd, env=env, capture_output=True, text=True,
                          timeout=TIMEOUT, stdin=subprocess.DEVNULL)


@pytest.mark.parametrize("page", PAGES)
def test_every_example_command_runs_and_prints_what_is_shown(page, scratch):
    ran = 0
    for cmd, shown in examples(page):
        if _skipped(cmd) or (page == "README.md" and cmd in MADE_ELSEWHERE):
            continue
        if cmd.startswith("cat ") and not (scratch / cmd[4:].strip()).exists():
            # `$ cat FILE` shows a file the page's next commands read: make it so
            (scratch / cmd[4:].strip()).write_text("\n".join(shown) + "\n", encoding="utf-8")
        r = _run(cmd, scratch)
        ok_codes = (0, 3) if any(b in cmd for b in ("--max-time", "--max-nodes", "--time")) else (0,)
        if "solve positions.jsonl" in cmd or "batch" in cmd:
            ok_codes = (0,)
        assert r.returncode in ok_codes, f"{page}: `{cmd}` exited {r.returncode}: {r.stderr[-500:]}"
        missing = check_output(shown, r.stdout + r.stderr)
        assert missing is None, (f"{page}: `{cmd}` did not print, in order:\n  {missing}\n"
                                 f"its output:\n{r.stdout}{r.stderr}")
        ran += 1
    assert ran or not examples(page) or all(_skipped(c) for c, _ in examples(page))


def test_the_example_reader_finds_commands_and_their_output():
    found = dict(examples("README.md"))
    assert "durak solve \"trump H; hands 6S 7S KH | 8C 9C AH; attacker 1\"" in found
    assert found["durak solve \"trump H; hands 6S 7S KH | 8C 9C AH; attacker 1\""][0] == (
        "seat 1: win in 6 plies")
    assert check_output(["seat 1: win", "best: 6S 7S"], "seat 1: win\nx\nbest: 6S 7S") is None
    assert check_output(["best: 6S 7S", "seat 1: win"], "seat 1: win\nbest: 6S 7S") is not None
    assert matches('{"to_move": 2, ...}', '{"to_move": 2, "moves": []}')


@pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None,
                    reason="the docs extra is not installed: pip install '.[docs]'")
def test_the_site_builds_in_strict_mode(tmp_path):
    """A broken link, a missing reference or an option the CLI reference cannot read
    fails the build (mkdocs.yml: strict)."""
    r = subprocess.run([sys.executable, "-m", "mkdocs", "build", "--strict", "-q", "-d",
                        str(tmp_path / "site")], cwd=ROOT, capture_output=True, text=True,
                       timeout=300, env=dict(os.environ, NO_MKDOCS_2_WARNING="1"))
    assert r.returncode == 0, r.stdout + r.stderr
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
