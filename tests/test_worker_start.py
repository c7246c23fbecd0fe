"""The web board's job processes start from any folder, and say so when they cannot (#59).

The board's workers come from a forkserver, a fresh interpreter whose working folder
comes first on its ``sys.path``.  Started in a source tree whose core is not compiled
(a clone's top folder after ``pip install .``), it used to import that tree, and every
solve answered a bare 500.  The servers here run in a folder holding a copy of
``solver/`` whose job module cannot be imported: this suite's own editable install
would lend such a tree its compiled core (setuptools' finder resolves ``solver._core``
by name), so the copy is made to fail the way an uncompiled tree fails a user
(tests/test_install.py does it with a real install and a real unpacked sdist).
"""
from __future__ import annotations

import json
import os
import shutil
import signal
import subprocess
import sys
import time
import urllib.error
import urllib.request
from pathlib import Path

import pytest
from terminal import as_at_a_terminal
from web_support import SMALL, free_port

ROOT = Path(__file__).resolve().parent.parent
#: What the tree's job module raises when it is imported.
FROM_THE_TREE = "the job module of the source tree was imported"


def _copy_tree(top: Path) -> Path:
    shutil.copytree(ROOT / "solver", top / "solver",
                    ignore=shutil.ignore_patterns("_core.*.so", "_core.*.pyd", "__pycache__"))
    (top / "ext").mkdir()
    shutil.copy(ROOT / "ext" / "_core.pyx", top / "ext")
    return top


@pytest.fixture()
def tree(tmp_path) -> Path:
    """A source tree whose job processes cannot start, as a fresh clone's top folder is."""
    top = _copy_tree(tmp_path / "clone")
    with open(top / "solver" / "web" / "worker.py", "a") as f:
        f.write(f"\nraise ImportError({FROM_THE_TREE!r})\n")
    return top


def _script(tmp_path: Path, text: str) -> Path:
    """A script run as the ``durak`` console script is: its own folder, not the current
    one, first on ``sys.path``."""
    bindir = tmp_path / "bin"
    bindir.mkdir(exist_ok=True)
    script = bindir / "program.py"
    script.write_text(text)
    return script


def _launcher(tmp_path: Path, prelude: str = "pass") -> Path:
    """``durak`` itself, after ``prelude``, as its console script is written (a process
    started from it imports it again as ``__mp_main__``: the guard keeps the rest out)."""
    return _script(tmp_path, "from solver.cli.entry import run\n"
                             f"if __name__ == '__main__':\n    {prelude}\n    run()\n")


def _env(tmp_path: Path) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    env["DURAK_DATA_DIR"] = str(tmp_path / "data")
    return env


def test_durak_serve_started_in_a_source_tree_answers_a_solve(tree, tmp_path):
    port = free_port()
    proc = subprocess.Popen([sys.executable, str(_launcher(tmp_path)), "serve", "--port",
                             str(port), "--workers", "1"], cwd=tree, env=_env(tmp_path),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                            preexec_fn=as_at_a_terminal)
    try:
        deadline = time.monotonic() + 60
        while True:
            try:
                req = urllib.request.Request(
                    f"http://127.0.0.1:{port}/api/solve", method="POST",
                    data=json.dumps({"position": SMALL}).encode(),
                    headers={"Content-Type": "application/json"})
                with urllib.request.urlopen(req, timeout=30) as r:
                    answer = json.loads(r.read())
                break
            except urllib.error.HTTPError as e:
                pytest.fail(f"{e.code}: {e.read().decode()}")
            except OSError:
                assert proc.poll() is None, proc.communicate()
                assert time.monotonic() < deadline, "the board did not come up"
                time.sleep(0.2)
    finally:
        proc.send_signal(signal.SIGINT)
        out, err = proc.communicate(timeout=30)
    assert answer["value"] == "win" and answer["best"] == ["6S", "7S"]
    assert proc.returncode == 0 and "serving the board" in err, err


#: Makes the job processes start in the source tree (the current folder), as they did
#: before the forkserver was started where the package lies.
IN_THE_TREE = "import os, solver.web.jobs as jobs; jobs.package_home = os.getcwd"


def test_a_server_whose_workers_cannot_start_says_why_in_one_line_and_does_not_serve(
        tree, tmp_path):
    r = subprocess.run([sys.executable, str(_launcher(tmp_path, IN_THE_TREE)), "serve",
                        "--port", str(free_port()), "--workers", "1"], cwd=tree,
                       env=_env(tmp_path), capture_output=True, text=True, timeout=120)
    assert r.returncode == 1, r.stderr
    assert "serving the board" not in r.stderr
    assert r.stderr == f"durak: error: the server's worker processes cannot start: {FROM_THE_TREE}\n"


def test_a_job_whose_process_cannot_start_is_a_503_with_the_reason(tree, tmp_path):
    prog = ("if __name__ == '__main__':\n"
            f"  {IN_THE_TREE}\n"
            "  import json, warnings\n"
            "  warnings.simplefilter('ignore')\n"
            "  from starlette.testclient import TestClient\n"
            "  from solver.web.app import create_app\n"
            f"  with TestClient(create_app(workers=1, data_dir={str(tmp_path)!r})) as c:\n"
            f"    r = c.post('/api/solve', json={{'position': {SMALL!r}}})\n"
            "    s = c.get('/api/status').json()\n"
            "    print(json.dumps([r.status_code, r.json(), s['workers']]))\n")
    r = subprocess.run([sys.executable, str(_script(tmp_path, prog))], cwd=tree,
                       env=_env(tmp_path), capture_output=True, text=True, timeout=180)
    assert r.returncode == 0, r.stderr
    status, answer, workers = json.loads(r.stdout.splitlines()[-1])
    assert status == 503 and workers == 1
    assert answer == {"error": f"the server's worker processes cannot start: {FROM_THE_TREE}",
                      "exit_code": 1}


# ------------------------------------------------- Python started in a source tree

@pytest.mark.parametrize("installed", [True, False])
def test_python_started_in_a_source_tree_without_its_core_says_what_happened(tmp_path,
                                                                             installed):
    """Without site-packages (-S): nothing lends the tree a core.  With a compiled
    package further down sys.path (this checkout, through PYTHONPATH), the tree shadows it."""
    tree = _copy_tree(tmp_path / "clone")
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    if installed:
        env["PYTHONPATH"] = str(ROOT)
    r = subprocess.run([sys.executable, "-S", "-c", f"import solver; solver.solve({SMALL!r})"],
                       cwd=tree, env=env, capture_output=True, text=True, timeout=60)
    assert r.returncode == 1
    last = r.stderr.strip().splitlines()[-1]
    assert last.startswith("solver.errors.CoreMissing: ")
    if installed:
        assert (f"the source tree {tree / 'solver'} shadows the durak-solver installed in {ROOT} "
                f"(Python was started in {tree}, which comes first on sys.path), and its core "
                "is not compiled: run from another folder, or compile the core here with "
                "`pip install -e .`") in last
    else:
        assert f"not built in the source tree {tree / 'solver'}: run `pip install -e .` in {tree}" \
            in last


def test_the_forkserver_outlives_the_thread_that_asked_for_it(tmp_path):
    """A server stopped and started again in one process (a test's restart, an
    embedding program) finds its forkserver alive: the forkserver dies with the
    thread that launched it (PR_SET_PDEATHSIG), so it is launched from one that
    lasts, not from the asking pool thread that ends with its server."""
    script = (
        "import os, threading, time, multiprocessing.forkserver as fs\n"
        "from solver.web.jobs import job_context, start_forkserver\n"
        "ctx = job_context()\n"
        "def ask():\n"
        "    start_forkserver(ctx)\n"
        "    time.sleep(2)  # past the forkserver's preload, which arms the death signal\n"
        "t = threading.Thread(target=ask); t.start(); t.join()\n"
        "time.sleep(1)\n"
        "pid = fs._forkserver._forkserver_pid\n"
        "print('alive' if os.waitpid(pid, os.WNOHANG)[0] == 0 else 'dead')\n")
    out = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True,
                         timeout=60, cwd=tmp_path)
    assert out.stdout.strip() == "alive", out.stderr
