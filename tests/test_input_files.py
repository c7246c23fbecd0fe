"""A file a user names that cannot be read as text is bad input naming the file (issue 73).

A model file that is not UTF-8 (``durak learn evaluate MODEL``, ``durak match --a
hint-fast-learn=FILE``, ``durak learn generate --model FILE``) ended in exit 1,
"internal error: UnicodeDecodeError": ``Path.read_text`` lets that ``ValueError``
out.  Every file below the command line is now read by
:func:`solver.inputs.files.read_user_text` (exit 2, one line naming the file), and a
guard keeps ``read_text`` out of the package but for its own data.
"""
from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from solver.errors import OptionError
from solver.inputs.files import UnreadableFile, read_user_text

ROOT = Path(__file__).resolve().parent.parent
DURAK = [sys.executable, "-m", "solver.cli"]
ENV = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", "")}
#: A model file in UTF-16 (what a Windows editor may save): not UTF-8.
NOT_UTF8 = '{"format": "durak-linear-policy", "version": 1}'.encode("utf-16")


def durak(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([*DURAK, *args], text=True, capture_output=True, env=ENV, cwd=ROOT,
                          timeout=120)


def one_line_naming(r: subprocess.CompletedProcess, path: Path) -> str:
    """The one error line of a refused command, which names ``path``."""
    lines = r.stderr.strip().splitlines()
    assert r.returncode == 2, (r.returncode, r.stderr)
    assert len(lines) == 1 and repr(str(path)) in lines[0], r.stderr
    assert "internal error" not in lines[0]
    return lines[0]


@pytest.mark.parametrize("command", [
    ["learn", "evaluate", "{model}", "--games", "1"],
    ["match", "--a", "hint-fast-learn={model}", "--b", "greedy", "--games", "1"],
    ["learn", "generate", "--out", "{out}", "--model", "{model}", "--games", "1"],
], ids=["learn-evaluate", "match", "learn-generate"])
def test_a_model_file_that_is_not_utf8_is_bad_input_naming_it(tmp_path, command):
    model = tmp_path / "model.json"
    model.write_bytes(NOT_UTF8)
    args = [a.format(model=model, out=tmp_path / "data") for a in command]
    line = one_line_naming(durak(*args), model)
    assert "not UTF-8 text (byte 0xff at offset 0)" in line, line


def test_a_model_that_is_a_folder_is_bad_input_naming_it(tmp_path):
    line = one_line_naming(durak("learn", "evaluate", str(tmp_path), "--games", "1"), tmp_path)
    assert "Is a directory" in line, line


def test_a_puzzle_collection_that_is_not_utf8_names_the_file(tmp_path):
    (tmp_path / "mine.toml").write_bytes(b"title = \"\xe9checs\"\n")  # Latin-1
    r = durak("puzzle", "--dir", str(tmp_path), "list")
    assert r.returncode == 2, r.stderr
    assert "mine.toml: cannot read: not UTF-8 text (byte 0xe9 at offset 9)" in r.stderr, r.stderr


def test_the_reader_says_which_file_and_what_is_wrong(tmp_path):
    f = tmp_path / "m.json"
    f.write_bytes(b'{"a": 1}')
    assert read_user_text(f, "model") == '{"a": 1}'
    f.write_bytes(b'{"a": "\xc3"}')
    with pytest.raises(UnreadableFile) as e:
        read_user_text(f, "model")
    assert isinstance(e.value, OptionError)
    assert str(e.value) == f"model {str(f)!r}: not UTF-8 text (byte 0xc3 at offset 7)"
    with pytest.raises(UnreadableFile, match="larger than 4 bytes"):
        read_user_text(f, "model", max_bytes=4)
    with pytest.raises(UnreadableFile, match="No such file or directory"):
        read_user_text(tmp_path / "none.json", "model")


#: The modules that read files with ``read_text``: the package's own data only (its
#: pages, its rules), never a file a user named.
OWN_DATA = {"solver/web/pages.py", "solver/web/rulespage.py"}


def test_no_module_reads_a_users_file_past_the_reader():
    found = set()
    for path in sorted((ROOT / "solver").rglob("*.py")):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)
                    and node.func.attr == "read_text"):
                found.add(path.relative_to(ROOT).as_posix())
    assert found - OWN_DATA == set()
