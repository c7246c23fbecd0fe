"""How a real `durak` process ends, whatever stops it (issue 51, "Reliability, round 2").

Each test runs the command in a subprocess and does to it what a hostile user,
a shell or a supervisor would: SIGTERM and SIGKILL to the real process tree,
two writers racing for one output file, a full disk, a reader that goes away,
a FIFO, a 200 KB token, a thousand workers, Ctrl-C while loading or before
the first result.  The promises are the README's ("Exit codes", the batch
paragraph): 0, 2 bad input, 3 budget, 4 the system refused a file or stream,
130 Ctrl-C, 141 stdout's reader gone, 143 SIGTERM -- never a traceback, never
"internal error", never half a line or half a file, no worker left behind.
The machinery: :mod:`solver.cli.launch`, :mod:`solver.run.outfile`,
:mod:`solver.run.executor`, :func:`solver.cli.common.read_input`.
"""
from __future__ import annotations

import json
import os
import re
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from terminal import as_at_a_terminal

ROOT = Path(__file__).resolve().parent.parent
#: The command, as this checkout's code (not an installed `durak` elsewhere).
DURAK = [sys.executable, "-m", "solver.cli"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
SIMPLE = "trump H; hands 6S 7S KH | 8C 9C AH; attacker 1"
HIDDEN = ("trump 9H; pile 7; hands 6S 6D QC KS TD AH | ?6; attacker 1; "
          "out 7S 8S 9S TS JS 6H 7H 8H TH 7D 8D 9D 6C 7C 8C 9C TC; me 1")
# three players, eighteen cards, transfers: far more than a few seconds of search
SLOW_3P = ("trump C; hands 6S JH AH 7D 9D TD | JS KS 7H TH 9C QC | 7S 9S AS JD 7C AC; "
           "attacker 3; rules transfer")
RECORD = str(ROOT / "docs" / "examples" / "full-game.txt")

linux_only = pytest.mark.skipif(not sys.platform.startswith("linux"),
                                reason="reads the process tree from /proc")


def start(*args: str, **kw) -> subprocess.Popen:
    kw.setdefault("stdout", subprocess.PIPE)
    kw.setdefault("stderr", subprocess.PIPE)
    return subprocess.Popen([*DURAK, *args], text=True, env=kw.pop("env", ENV), cwd=ROOT,
                            preexec_fn=kw.pop("preexec_fn", as_at_a_terminal), **kw)


def durak(*args: str, **kw) -> subprocess.CompletedProcess:
    kw.setdefault("capture_output", True)
    return subprocess.run([*DURAK, *args], text=True, env=kw.pop("env", ENV), cwd=ROOT,
                          timeout=60, preexec_fn=as_at_a_terminal, **kw)


def finish(p: subprocess.Popen, timeout: float = 30) -> subprocess.CompletedProcess:
    out, err = p.communicate(timeout=timeout)
    return subprocess.CompletedProcess(p.args, p.returncode, out, err)


def children(pid: int) -> list[int]:
    """The live child processes of ``pid`` (/proc)."""
    kids = []
    for d in os.listdir("/proc"):
        if d.isdigit():
            try:
                stat = Path(f"/proc/{d}/stat").read_text()
            except OSError:
                continue
            fields = stat.rsplit(")", 1)[1].split()
            if int(fields[1]) == pid and fields[0] != "Z":
                kids.append(int(d))
    return kids


def alive(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def wait_for(cond, timeout: float = 20, step: float = 0.05):
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        got = cond()
        if got:
            return got
        time.sleep(step)
    raise AssertionError("timed out waiting")


def no_crash(r: subprocess.CompletedProcess) -> None:
    assert "Traceback" not in r.stderr and "internal error" not in r.stderr, r.stderr


def one_line(r: subprocess.CompletedProcess) -> str:
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1, r.stderr
    return lines[0]


# ------------------------------------------------ 1. output files are never corrupted

def _jsonl(path: Path) -> list[dict]:
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_output_files_one_writer_never_the_input_whole_lines(tmp_path):
    inp = tmp_path / "in.jsonl"
    inp.write_text("".join(json.dumps({"id": f"s{i}", "position": SLOW_3P, "hero": 1}) + "\n"
                           for i in range(4)))
    out = tmp_path / "same.jsonl"
    # two writers at once: the second is refused (exit 2, one line), the file is the first's
    a = start("batch", "solve", str(inp), "--out", str(out), "-j", "1", "--max-time", "0.8")
    wait_for(out.exists)
    b = durak("batch", "solve", str(inp), "--out", str(out), "-j", "1", "--max-time", "0.8")
    ra = finish(a)
    assert b.returncode == 2 and "another process" in one_line(b), b.stderr
    assert ra.returncode == 0, ra.stderr
    assert [o["id"] for o in _jsonl(out)] == ["s0", "s1", "s2", "s3"]
    # --out naming the input: refused, the input left as it was
    before = inp.read_text()
    r = durak("batch", "solve", str(inp), "--out", str(inp))
    assert r.returncode == 2 and "is the input" in one_line(r)
    assert inp.read_text() == before
    # a full disk (a file-size limit) cuts a write short: the file keeps whole lines only,
    # the command says so in one line (exit 4), and --resume finishes the same answers
    many = tmp_path / "many.jsonl"
    many.write_text("".join(json.dumps({"id": i, "position": SIMPLE}) + "\n" for i in range(12)))
    full = tmp_path / "full.jsonl"

    def small_disk() -> None:
        as_at_a_terminal()
        resource.setrlimit(resource.RLIMIT_FSIZE, (1000, 1000))

    r = subprocess.run([*DURAK, "batch", "solve", str(many), "--out", str(full), "-j", "1"],
                       text=True, capture_output=True, env=ENV, cwd=ROOT, timeout=60,
                       preexec_fn=small_disk)
    assert r.returncode == 4 and "full.jsonl" in one_line(r), r.stderr
    kept = full.read_text()
    assert 0 < len(kept) <= 1000 and kept.endswith("\n")
    assert all(json.loads(line)["id"] == i for i, line in enumerate(kept.splitlines()))
    r = durak("batch", "solve", str(many), "--out", str(full), "--resume", "-j", "1")
    assert r.returncode == 0, r.stderr
    assert [o["id"] for o in _jsonl(full)] == list(range(12))
    # a whole file (a game record) that cannot be written whole is not written at all
    deal = ("trump KC; hands AS 7H JH 7C 8C TC | JS 9H TD JD QD 6C; attacker 2; pile 24")
    rec = tmp_path / "g.txt"
    rec.write_text("old record\n")

    def tiny_disk() -> None:
        as_at_a_terminal()
        resource.setrlimit(resource.RLIMIT_FSIZE, (100, 100))

    r = subprocess.run([*DURAK, "play-out", deal, "--seed", "3", "--record", str(rec), "--json"],
                       text=True, capture_output=True, env=ENV, cwd=ROOT, timeout=60,
                       preexec_fn=tiny_disk)
    assert r.returncode == 4, r.stderr
    no_crash(r)
    assert rec.read_text() == "old record\n"
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["in.jsonl", "same.jsonl", "many.jsonl", "full.jsonl", "g.txt"])  # no temporary left
    r = durak("play-out", deal, "--seed", "3", "--record", str(rec))
    assert r.returncode == 0 and "players 2\n" in rec.read_text()


# ------------------------------------------------ 2. SIGTERM is Ctrl-C, exit 143, no orphans

def test_sigterm_prints_the_partial_answer_and_exits_143():
    p = start("solve", SLOW_3P, "--hero", "1", "--json")
    time.sleep(1.5)
    p.send_signal(signal.SIGTERM)
    r = finish(p)
    assert r.returncode == 143, r.stderr
    obj = json.loads(r.stdout)  # one JSON object: what was proven
    assert obj["exact"] is False and "lower" in obj
    no_crash(r)


@linux_only
@pytest.mark.parametrize("kind", ["hint", "batch"])
def test_sigterm_stops_the_workers_too(kind, tmp_path):
    if kind == "hint":
        p = start("hint", HIDDEN, "--samples", "1000000", "--seed", "1", "--json", "-j", "2")
    else:
        inp = tmp_path / "in.jsonl"
        inp.write_text("".join(json.dumps({"id": i, "position": SLOW_3P, "hero": 1}) + "\n"
                               for i in range(4)))
        p = start("batch", "solve", str(inp), "-j", "2", "--max-time", "20")
    kids = wait_for(lambda: len(children(p.pid)) >= 2 and children(p.pid))
    time.sleep(0.5)
    p.send_signal(signal.SIGTERM)
    r = finish(p)
    assert r.returncode == 143, r.stderr
    no_crash(r)
    if kind == "hint":
        assert json.loads(r.stdout)["interrupted"] is True
    assert not [k for k in kids if alive(k)]


@linux_only
def test_workers_die_with_a_parent_killed_by_sigkill():
    p = start("hint", HIDDEN, "--samples", "1000000", "--seed", "1", "--json", "-j", "2")
    kids = wait_for(lambda: len(children(p.pid)) >= 2 and children(p.pid))
    p.kill()
    p.communicate(timeout=30)
    wait_for(lambda: not [k for k in kids if alive(k)], timeout=5)


# ------------------------------------------------ 4. the environment: streams and folders

@linux_only
def test_a_reader_that_goes_away_ends_durak_quietly_with_141():
    import fcntl
    p = start("puzzle", "list")  # some 30 KB of tables
    fcntl.fcntl(p.stdout.fileno(), fcntl.F_SETPIPE_SZ, 4096)  # the pipe cannot hold them
    p.stdout.readline()
    p.stdout.close()  # `| head -1`
    err = p.stderr.read()
    assert p.wait(timeout=30) == 141 and err == ""


@pytest.mark.parametrize("how, expect", [
    (">/dev/full", "No space left on device"),
    (">&-", "closed"),
])
def test_an_answer_that_cannot_be_written_is_one_line_and_exit_4(how, expect):
    cmd = " ".join(map(_quote, [*DURAK, "solve", SIMPLE, "--json"])) + " " + how
    r = subprocess.run(["bash", "-c", cmd], text=True, stderr=subprocess.PIPE, env=ENV, cwd=ROOT,
                       timeout=60)
    assert r.returncode == 4
    line = one_line(subprocess.CompletedProcess([], 4, "", r.stderr))
    assert "standard output" in line and expect in line


def test_an_ascii_terminal_gets_escapes_not_an_error():
    env = {**ENV, "PYTHONIOENCODING": "ascii"}
    r = durak("show", SIMPLE, env=env)
    assert r.returncode == 0 and "\\u2665" in r.stdout
    r = durak("moves", "--json", "trump H; hands 6S | 7S; attacker \u0661", env=env)
    assert r.returncode == 2
    no_crash(r)


def test_a_plot_into_a_missing_folder_is_one_line_and_exit_4(tmp_path):
    pytest.importorskip("matplotlib")
    plot = tmp_path / "no" / "such" / "plot.png"
    r = durak("review", RECORD, "--exact-only", "--json", "--plot", str(plot))
    assert r.returncode == 4 and "plot.png" in one_line(r)


def _quote(s: str) -> str:
    return "'" + s.replace("'", "'\\''") + "'"


# ------------------------------------------------ 5. inputs that are not plain files

def test_fifos_dev_stdin_and_process_substitution_read_like_files(tmp_path):
    fifo = tmp_path / "position"
    os.mkfifo(fifo)
    p = start("solve", str(fifo), "--json")
    time.sleep(0.5)  # the writer comes late
    with open(fifo, "w") as fh:
        fh.write(SIMPLE)
    r = finish(p)
    assert r.returncode == 0 and json.loads(r.stdout)["value"] == "win", r.stderr
    # nobody writes: a budget bounds the wait for the first byte (exit 3)
    t0 = time.monotonic()
    r = durak("solve", str(fifo), "--max-time", "0.5")
    assert r.returncode == 3 and "nothing arrived" in one_line(r)
    assert time.monotonic() - t0 < 10
    # a game record through a FIFO: review no longer blocks
    p = start("review", str(fifo), "--exact-only", "--json")
    with open(fifo, "w") as fh:
        fh.write(Path(RECORD).read_text())
    r = finish(p)
    assert r.returncode == 0 and json.loads(r.stdout)["decisions"], r.stderr
    r = durak("solve", "/dev/stdin", "--json", input=SIMPLE)
    assert r.returncode == 0 and json.loads(r.stdout)["value"] == "win", r.stderr
    cmd = " ".join(map(_quote, [*DURAK, "solve"])) + f" <(echo {_quote(SIMPLE)}) --json"
    r = subprocess.run(["bash", "-c", cmd], text=True, capture_output=True, env=ENV, cwd=ROOT,
                       timeout=60)
    assert r.returncode == 0 and json.loads(r.stdout)["value"] == "win", r.stderr


# ------------------------------------------------ 6. sizes: long tokens, many workers

def test_a_200kb_token_is_cut_and_workers_are_capped(tmp_path):
    big = tmp_path / "big.txt"
    big.write_text("trump " + "Z" * 200_000 + "; hands 6S | 7S")
    r = durak("moves", str(big))
    assert r.returncode == 2
    line = one_line(r)
    assert len(line) < 600 and line.startswith("durak: error: trump:") and "200,00" in line
    r = durak("solve", SIMPLE, "--hero", "9" * 100_000)  # click's own error line
    assert r.returncode == 2 and len(r.stderr) < 1000
    two = tmp_path / "two.jsonl"
    two.write_text(json.dumps({"position": SIMPLE}) + "\n" + json.dumps({"position": SIMPLE}))
    r = durak("batch", "solve", str(two), "--workers", "1000")
    assert r.returncode == 0, r.stderr
    workers = int(re.search(r"on (\d+) local process", r.stderr)[1]) if "local" in r.stderr else 1
    assert workers <= min(2, os.cpu_count() or 1)


# ------------------------------------------------ 7. Ctrl-C while the tool loads

@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_while_the_command_line_loads_is_answered(sig, code):
    """The signal lands exactly while the command line is being imported."""
    prog = ("import os, sys; from solver.cli import entry\n"
            "load = entry.importlib.import_module\n"
            "def loading(name):\n"
            f"    os.kill(os.getpid(), {int(sig)}); return load(name)\n"
            "entry.importlib.import_module = loading\n"
            f"sys.argv = ['durak', 'solve', {SIMPLE!r}, '--json']; entry.run()\n")
    r = subprocess.run([sys.executable, "-c", prog], text=True, capture_output=True, env=ENV,
                       cwd=ROOT, timeout=60, preexec_fn=as_at_a_terminal)
    assert r.returncode == code, r.stderr
    assert json.loads(r.stdout)["interrupted"] is True
    assert r.stderr.strip() == "durak: interrupted"


#: A function whose code looks like importlib's own (its file name): the module-lock
#: callback a real Ctrl-C can land in (issue 60, item 8).  It sends the signal to its
#: process and goes on running, so the handler runs inside it.
_IMPORTLIB_CALLBACK = (
    "import os\n"
    "def callback(ref):\n"
    "    os.kill(os.getpid(), SIG)\n"
    "    for _ in range(200000):\n"
    "        pass\n")


@pytest.mark.parametrize("sig, code", [(signal.SIGINT, 130), (signal.SIGTERM, 143)])
def test_a_signal_inside_importlibs_module_lock_callback_is_not_swallowed(sig, code):
    """A KeyboardInterrupt raised in a weak-reference callback is only printed as
    "Exception ignored" by Python: the Ctrl-C was lost and the search ran its whole
    budget (exit 3).  The signal is deferred to the first safe point: 130 (143)."""
    prog = ("import os, sys, weakref; from solver.cli import entry\n"
            f"ns = {{'SIG': {int(sig)}}}\n"
            f"exec(compile({_IMPORTLIB_CALLBACK!r}, '<frozen importlib._bootstrap>', 'exec'), ns)\n"
            "load = entry.importlib.import_module\n"
            "class ModuleLock: pass\n"
            "def loading(name):\n"
            "    lock = ModuleLock(); ref = weakref.ref(lock, ns['callback']); del lock\n"
            "    return load(name)\n"
            "entry.importlib.import_module = loading\n"
            f"sys.argv = ['durak', 'solve', {SLOW_3P!r}, '--hero', '1', '--json', "
            "'--max-time', '5']; entry.run()\n")
    r = subprocess.run([sys.executable, "-c", prog], text=True, capture_output=True, env=ENV,
                       cwd=ROOT, timeout=60, preexec_fn=as_at_a_terminal)
    assert r.returncode == code, r.stderr
    assert json.loads(r.stdout)["interrupted"] is True
    assert r.stderr.strip() == "durak: interrupted"  # no "Exception ignored", no traceback


def test_only_importlibs_frames_defer_a_signal():
    from solver.cli import launch
    ns: dict = {}
    exec(compile("import sys\ndef here():\n    return sys._getframe()\n",
                 "<frozen importlib._bootstrap>", "exec"), ns)
    assert launch._importing(ns["here"]())
    assert not launch._importing(sys._getframe())
    assert not launch._importing(None)


def test_the_launcher_loads_nothing_slow_before_its_handlers():
    prog = ("import sys; before = set(sys.modules); import solver.cli.entry; "
            "print(' '.join(sorted(set(sys.modules) - before)))")
    r = subprocess.run([sys.executable, "-S", "-c", prog], text=True, capture_output=True,
                       cwd=ROOT, timeout=60)
    loaded = set(r.stdout.split())
    assert {"solver", "solver.cli", "solver.cli.entry", "solver.cli.launch"} <= loaded, r.stderr
    assert not loaded & {"typing", "json", "click", "rich", "solver.cli.app", "solver.errors"}


# ------------------------------------------------ 9. Ctrl-C before the first result

@pytest.mark.parametrize("as_json", [False, True])
@pytest.mark.parametrize("args", [
    ["match", "--a", "hint", "--b", "hint", "--games", "2"],
    ["solve", SLOW_3P, "--hero", "1"],
    ["analyse", SLOW_3P, "--hero", "1"],
    ["hint", HIDDEN, "--samples", "1000000", "-j", "2"],
    ["review", RECORD, "--all", "--samples", "50000"],
    ["puzzle", "generate", "--count", "500", "--seed", "2"],
], ids=["match", "solve", "analyse", "hint", "review", "puzzle"])
def test_ctrl_c_before_the_first_result_exits_130_with_what_is_known(args, as_json):
    p = start(*args, *(["--json"] if as_json else []))
    time.sleep(1.0)
    p.send_signal(signal.SIGINT)
    r = finish(p)
    assert r.returncode == 130, r.stderr
    no_crash(r)
    assert r.stderr.strip().splitlines()[-1].startswith("durak: interrupted")
    if as_json:
        json.loads(r.stdout)  # exactly one JSON object


# ------------------------------------------------ the mechanisms, in this process

def test_a_whole_file_is_replaced_only_when_complete(tmp_path):
    from solver.run.outfile import whole_file, write_whole
    target = tmp_path / "record.txt"
    target.write_text("old\n")
    target.chmod(0o640)
    with pytest.raises(RuntimeError):
        with whole_file(str(target)) as tmp:
            Path(tmp).write_text("half")
            raise RuntimeError("stopped")
    assert target.read_text() == "old\n" and os.listdir(tmp_path) == ["record.txt"]
    write_whole(str(target), "new\n")
    assert target.read_text() == "new\n" and (target.stat().st_mode & 0o777) == 0o640
    assert os.listdir(tmp_path) == ["record.txt"]


def test_a_line_file_has_one_writer_and_resumes_after_a_cut_line(tmp_path):
    from solver.run.outfile import LineFile, OutputBusy
    path = tmp_path / "out.jsonl"
    path.write_text('{"id": 1}\n{"id": 2, "cut')
    with LineFile(str(path), resume=True) as out:
        assert out.existing == '{"id": 1}\n'
        with pytest.raises(OutputBusy):
            LineFile(str(path))
        out.write('{"id": 2}\n')
    assert path.read_text() == '{"id": 1}\n{"id": 2}\n'
    with LineFile(str(path)):  # the lock went with the first writer
        pass
    assert path.read_text() == ""


def test_local_workers_are_capped_by_the_cores_and_the_tasks():
    from solver.run.executor import Executor, default_workers, local_workers
    assert local_workers(1000, 2) == min(2, default_workers())
    assert local_workers(3, None) == min(3, default_workers())
    with Executor(1000, tasks=1) as ex:
        assert ex.kind == "inline" and ex.workers == 1
