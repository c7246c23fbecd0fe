"""The package as a user installs it (issue 59): the sdist, in a fresh virtual
environment outside the clone, with today's releases and with the lowest versions
pyproject.toml declares.

A source distribution that lacks a file the build or the package needs (the core's
``.pyx``/``.pxi``/``.pxd``, the pages, the puzzles, the model) fails here, and so does
a lower bound in pyproject.toml that does not work: a range is a promise tested at
both ends.  Every command runs where the package's own source tree is the current
folder (the unpacked sdist, as a clone's top folder is after ``pip install .``): the
processes durak starts -- the board's workers, ``-j`` -- must import the installed
package, not the uncompiled tree.

The tests marked ``install`` need the package index (pip resolves the dependencies)
and take two or three minutes; offline, deselect them: ``pytest -m "not install"``.
``$DURAK_DIST`` names a folder holding the sdist and the wheel ``python -m build``
made from it (``.ci/run`` builds them once); without it the sdist is built here.
"""
from __future__ import annotations

import glob
import json
import os
import re
import shutil
import signal
import socket
import subprocess
import sys
import tarfile
import time
import urllib.error
import urllib.request
import zipfile
from pathlib import Path

import pytest
from terminal import as_at_a_terminal

try:
    import tomllib
except ImportError:  # Python 3.10
    import tomli as tomllib

ROOT = Path(__file__).resolve().parent.parent
LOWEST = Path(__file__).resolve().parent / "lowest-versions.txt"
#: The extras a user installs (the test and docs extras are the developers').
USER_EXTRAS = ("plot", "cluster", "train", "lan")
#: pip may compile the core on a loaded machine: minutes, not seconds.
PIP_TIMEOUT = 1200

SMALL = "trump H; hands 6S 7S KH | 8C 9C AH; attacker 1"
HIDDEN = ("trump 9H; pile 7; hands 6S 6D QC KS TD AH | ?6; attacker 1; out 7S 8S 9S TS JS 6H 7H "
          "8H TH 7D 8D 9D 6C 7C 8C 9C TC; me 1")


def _requirements() -> list[str]:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["project"]
    return project["dependencies"] + [r for extra in USER_EXTRAS
                                      for r in project["optional-dependencies"][extra]]


def test_the_lowest_versions_file_names_every_lower_bound_a_user_installs():
    declared = {}
    for req in _requirements():
        m = re.fullmatch(r"([A-Za-z0-9_.-]+)(?:\[[^\]]*\])?>=([0-9.]+)(?:,<[0-9.]+)?(?:;.*)?",
                         req.replace(" ", ""))
        assert m, f"pyproject.toml: {req!r} has no lower bound (>=) to test"
        declared[m[1].lower()] = m[2]
    pinned = dict(line.split("==") for line in LOWEST.read_text().splitlines()
                  if line.strip() and not line.startswith("#"))
    assert pinned == declared


# ------------------------------------------------------------------- the sdist

@pytest.fixture(scope="session")
def dist(tmp_path_factory) -> Path:
    """The folder with the sdist (and, from .ci/run, the wheel built from it)."""
    given = os.environ.get("DURAK_DIST")
    if given:
        return Path(given)
    out = tmp_path_factory.mktemp("dist")
    r = subprocess.run([sys.executable, "-m", "build", "--sdist", "--outdir", str(out), str(ROOT)],
                       capture_output=True, text=True, timeout=PIP_TIMEOUT)
    assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
    return out


@pytest.fixture(scope="session")
def sdist(dist) -> Path:
    found = sorted(dist.glob("durak_solver-*.tar.gz"))
    assert len(found) == 1, f"one sdist in {dist}: {found}"
    return found[0]


@pytest.fixture(scope="session")
def source_tree(sdist, tmp_path_factory) -> Path:
    """The sdist unpacked: the package's source without a compiled core, as a clone is."""
    where = tmp_path_factory.mktemp("unpacked")
    with tarfile.open(sdist) as tar:
        tar.extractall(where)
    (top,) = where.iterdir()
    return top


@pytest.mark.install
def test_the_sdist_carries_every_file_the_build_and_the_package_need(sdist):
    with tarfile.open(sdist) as tar:
        names = {n.split("/", 1)[1] for n in tar.getnames() if "/" in n}
    needed = {str(p.relative_to(ROOT)) for pattern in (
        "ext/*.pyx", "ext/*.pxi", "ext/*.pxd", "ext/solver/*.pxd", "solver/**/*.py",
        "solver/_core.pyi", "solver/py.typed", "solver/models/*.json",
        "solver/web/static/*", "solver/web/templates/*", "puzzles/*.toml", "puzzles/README.md")
        for p in ROOT.glob(pattern) if "__pycache__" not in p.parts}
    assert {"ext/_core.pyx", "solver/web/templates/base.html",
            "solver/web/templates/index.html", "solver/web/static/icon-192.png", "puzzles/motifs.toml",
            "solver/models/policy.json"} <= needed
    assert needed - names == set()
    assert not {n for n in names if n.endswith(".c") or n.startswith("tests/")}


@pytest.mark.install
def test_the_licence_text_ships_in_the_sdist_and_the_wheel(dist, sdist):
    """pyproject says MIT; the text itself goes with both packages (issue 69)."""
    text = (ROOT / "LICENSE").read_text()
    assert text.startswith("MIT License")
    with tarfile.open(sdist) as tar:
        top = tar.getnames()[0].split("/", 1)[0]
        shipped = tar.extractfile(f"{top}/LICENSE")
        assert shipped is not None and shipped.read().decode() == text
    wheels = sorted(dist.glob("durak_solver-*.whl"))
    if not wheels:  # the wheel is built by .ci/run beside the sdist
        r = subprocess.run([sys.executable, "-m", "build", "--wheel", "--outdir", str(dist),
                            str(ROOT)], capture_output=True, text=True, timeout=PIP_TIMEOUT)
        assert r.returncode == 0, r.stdout[-2000:] + r.stderr[-2000:]
        wheels = sorted(dist.glob("durak_solver-*.whl"))
    with zipfile.ZipFile(wheels[0]) as whl:
        inside = [n for n in whl.namelist() if n.endswith(".dist-info/licenses/LICENSE")]
        assert len(inside) == 1 and whl.read(inside[0]).decode() == text


# ---------------------------------------------------------- a user's commands

def _env(data: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONPATH", "PYTHONHOME")}
    env.update(COLUMNS="100", NO_COLOR="1", DURAK_DATA_DIR=str(data))
    return env


def _venv(python: str, where: Path) -> Path:
    """A fresh virtual environment; its bin folder."""
    subprocess.run([python, "-m", "venv", str(where)], check=True, timeout=300)
    return where / "bin"


def _pip_install(bindir: Path, *args: str) -> None:
    r = subprocess.run([str(bindir / "python"), "-m", "pip", "install", "--quiet",
                        "--disable-pip-version-check", *args],
                       capture_output=True, text=True, timeout=PIP_TIMEOUT)
    assert r.returncode == 0, f"pip install {' '.join(args)}:\n{r.stdout[-3000:]}{r.stderr[-3000:]}"


class User:
    """Runs the installed ``durak`` the way a user does, in the folder ``cwd``."""

    def __init__(self, bindir: Path, cwd: Path, scratch: Path):
        self.bindir, self.cwd, self.scratch = bindir, cwd, scratch
        self.env = _env(scratch / "data")

    def run(self, *args: str, input: str | None = None, timeout: float = 300,
            program: str = "durak") -> subprocess.CompletedProcess:
        r = subprocess.run([str(self.bindir / program), *args], cwd=self.cwd, env=self.env,
                           input=input, capture_output=True, text=True, timeout=timeout)
        return r

    def ok(self, *args: str, **kw) -> str:
        r = self.run(*args, **kw)
        assert r.returncode == 0, f"durak {' '.join(args)} exited {r.returncode}:\n{r.stderr}"
        return r.stdout

    # ---------------------------------------------------------------- the smoke set
    def solves_analyses_and_hints(self) -> None:
        assert self.ok("solve", SMALL).splitlines()[:2] == ["seat 1: win in 6 plies",
                                                            "best: 6S 7S"]
        moves = json.loads(self.ok("analyse", SMALL, "--json"))["moves"]
        assert {m["move"]: m["value"] for m in moves} == {"6S": "win", "7S": "win",
                                                          "KH": "loss"}
        hint = json.loads(self.ok("hint", HIDDEN, "--seed", "1", "-n", "64", "--json"))
        assert hint["samples"] == 64 and hint["best"] in {m["move"] for m in hint["moves"]}

    def lists_puzzles(self) -> None:
        out = self.ok("puzzle", "list")
        assert "(motifs, " in out and "(transfer, " in out

    def plays_a_game_to_its_end(self) -> None:
        """``durak play`` fed ``auto`` (play the hint's move) until the game is over."""
        record = self.scratch / "game.txt"
        out = self.ok("play", "--vs", "greedy", "--seed", "3", "-n", "16", "--record",
                      str(record), input="auto\n" * 150 + "quit\n")
        assert re.search(r"^Game over: seat \d is the durak", out, re.M), out[-2000:]
        assert self.ok("review", str(record), "--seat", "1", "--exact-only").strip()

    def serves_the_board(self) -> None:
        """``durak serve``: the page, its static files and a solve, then Ctrl-C."""
        with socket.socket() as s:
            s.bind(("127.0.0.1", 0))
            port = s.getsockname()[1]
        base = f"http://127.0.0.1:{port}"
        proc = subprocess.Popen([str(self.bindir / "durak"), "serve", "--port", str(port),
                                 "--workers", "1", "--data-dir", str(self.scratch / "games")],
                                cwd=self.cwd, env=self.env, stdout=subprocess.PIPE,
                                stderr=subprocess.PIPE, text=True, preexec_fn=as_at_a_terminal)
        try:
            deadline = time.monotonic() + 60
            while True:
                try:
                    with urllib.request.urlopen(base + "/", timeout=5) as r:
                        page = r.read().decode()
                    break
                except OSError:
                    assert proc.poll() is None, proc.communicate()
                    assert time.monotonic() < deadline, "the board did not come up"
                    time.sleep(0.2)
            assert "Durak board" in page
            for static in ("board.js", "app.js", "style.css"):
                with urllib.request.urlopen(f"{base}/static/{static}", timeout=10) as r:
                    assert r.status == 200 and len(r.read()) > 1000
            req = urllib.request.Request(base + "/api/solve", method="POST",
                                         data=json.dumps({"position": SMALL}).encode(),
                                         headers={"Content-Type": "application/json"})
            try:
                with urllib.request.urlopen(req, timeout=60) as r:
                    status, answer = r.status, json.loads(r.read())
            except urllib.error.HTTPError as e:
                status, answer = e.code, json.loads(e.read())
            assert (status, answer.get("value")) == (200, "win"), answer
        finally:
            proc.send_signal(signal.SIGINT)
            out, err = proc.communicate(timeout=30)
        assert proc.returncode == 0, err
        assert "serving the board" in err

    def smoke(self) -> None:
        self.solves_analyses_and_hints()
        self.lists_puzzles()
        self.plays_a_game_to_its_end()
        self.serves_the_board()


@pytest.mark.install
def test_the_sdist_installed_outside_the_clone_solves_serves_and_plays(dist, sdist, source_tree,
                                                                       tmp_path):
    """Today's releases of every dependency, as pip picks them for a new user.

    The wheel .ci/run built from the sdist (``python -m build`` builds the wheel from the
    sdist) is what ``pip install durak_solver-*.tar.gz`` would build and install; the
    sdist itself is installed when there is no such wheel for this Python."""
    tag = f"cp{sys.version_info[0]}{sys.version_info[1]}"
    wheels = sorted(dist.glob(f"durak_solver-*-{tag}-*.whl"))
    bindir = _venv(sys.executable, tmp_path / "venv")
    _pip_install(bindir, str(wheels[0] if wheels else sdist))
    # every command in the source tree, as in a clone's top folder after `pip install .`
    user = User(bindir, source_tree, tmp_path)
    user.smoke()

    # the commands that start processes import the installed package there too
    one = json.loads(user.ok("hint", HIDDEN, "--seed", "2", "-n", "32", "-j", "1", "--json"))
    two = json.loads(user.ok("hint", HIDDEN, "--seed", "2", "-n", "32", "-j", "2", "--json"))
    assert one["moves"] == two["moves"]
    (tmp_path / "positions.jsonl").write_text("".join(
        json.dumps({"position": SMALL.replace("attacker 1", f"attacker {a}")}) + "\n"
        for a in (1, 2)))
    lines = user.ok("batch", "solve", str(tmp_path / "positions.jsonl"), "-j", "2").splitlines()
    assert [json.loads(x).get("value") is not None for x in lines] == [True, True], lines
    match = json.loads(user.ok("match", "--a", "greedy", "--b", "random", "--games", "4",
                               "--players", "2", "--seed", "1", "-j", "2", "--json"))
    assert match["games"] == 4
    user.ok("learn", "generate", "-n", "2", "--out", str(tmp_path / "selfplay"), "-j", "2",
            "--samples", "8", "--iterations", "0")
    assert list((tmp_path / "selfplay").glob("*.jsonl*"))

    # Python started in the source tree imports the tree: it says so and what to do
    r = user.run("-c", f"import solver; solver.solve({SMALL!r})", program="python")
    assert r.returncode == 1
    last = r.stderr.strip().splitlines()[-1]
    assert f"the source tree {source_tree / 'solver'} shadows the durak-solver installed" in last
    assert "run from another folder, or compile the core here with `pip install -e .`" in last


def lowest_python() -> str | None:
    """The lowest Python requires-python allows (3.10), when this machine has one (a
    pyenv build counts)."""
    root = os.environ.get("PYENV_ROOT", os.path.expanduser("~/.pyenv"))
    for candidate in [shutil.which("python3.10"),
                      *sorted(glob.glob(f"{root}/versions/3.10*/bin/python3.10"))]:
        if candidate and subprocess.run(
                [candidate, "-c", "import sys, venv; assert sys.version_info[:2] == (3, 10)"],
                capture_output=True, timeout=60).returncode == 0:
            return candidate
    return None


@pytest.mark.install
def test_the_lowest_declared_versions_install_and_play(sdist, tmp_path):
    """Every dependency a user installs at the lowest version pyproject.toml allows, on
    the lowest Python it allows: the smoke set, the plot (matplotlib), a local Dask
    cluster and training (numpy).  Without a Python 3.10 here, the dependencies alone on
    this Python (the extras' lowest releases predate the newer Pythons), and then the test
    skips, saying that the extras went untested.  Python 3.10 cannot be downloaded here
    (only package registries are reached): pyenv's 3.10 on this kind of machine is used."""
    python = lowest_python()
    extras = USER_EXTRAS if python else ()
    bindir = _venv(python or sys.executable, tmp_path / "venv")
    _pip_install(bindir, "-c", str(LOWEST),
                 f"{sdist}[{','.join(extras)}]" if extras else str(sdist))
    versions = subprocess.run(
        [str(bindir / "python"), "-c", "from importlib.metadata import version as v; "
         "print(*(v(n) for n in ('click', 'rich', 'starlette', 'uvicorn')))"],
        capture_output=True, text=True, check=True).stdout.split()
    assert versions == ["8.1.0", "13.0.0", "0.35.0", "0.23.0"]
    user = User(bindir, tmp_path, tmp_path)
    user.smoke()
    if not extras:
        pytest.skip("no Python 3.10 here (python3.10 on PATH, or pyenv's): the lowest "
                    f"dependencies played on Python {sys.version_info[0]}.{sys.version_info[1]}, "
                    f"the extras {', '.join(USER_EXTRAS)} at their lowest went untested")
    user.ok("review", str(ROOT / "docs" / "examples" / "full-game.txt"), "--seat", "1",
            "--exact-only", "--plot", str(tmp_path / "review.png"))
    assert (tmp_path / "review.png").read_bytes()[:4] == b"\x89PNG"
    (tmp_path / "one.jsonl").write_text(json.dumps({"position": SMALL}) + "\n")
    out = user.ok("batch", "solve", str(tmp_path / "one.jsonl"), "--scheduler", "local",
                  "-j", "2")
    assert json.loads(out)["value"] == "win"
    user.ok("learn", "generate", "-n", "4", "--out", str(tmp_path / "selfplay"), "--samples",
            "8", "--iterations", "0", "-j", "1")
    user.ok("learn", "train", str(tmp_path / "selfplay"), "--out", str(tmp_path / "model.json"),
            "--epochs", "2")
    assert json.loads((tmp_path / "model.json").read_text())
    tomli = subprocess.run([str(bindir / "python"), "-c", "from importlib.metadata import "
                            "version; print(version('tomli'), version('numpy'))"],
                           capture_output=True, text=True, check=True).stdout.split()
    assert tomli == ["1.1.0", "1.22.0"]  # the puzzles above were read with it
