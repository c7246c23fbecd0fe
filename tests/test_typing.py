"""The package type-checks (``[tool.mypy]`` in pyproject.toml: Python 3.10, the lowest
supported), and the compiled core's stub ``solver/_core.pyi`` matches the module that
``pip install`` builds from ``ext/``: a signature changed in the Cython sources
without its stub fails here, not in a user's editor."""
from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("mypy")  # a test extra (pyproject.toml)

ROOT = Path(__file__).resolve().parent.parent


def _run(module: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", module, *args], cwd=ROOT,
                          capture_output=True, text=True, timeout=600)


def test_the_package_type_checks(tmp_path):
    r = _run("mypy", "--cache-dir", str(tmp_path))
    assert r.returncode == 0, r.stdout + r.stderr
    assert "no issues found" in r.stdout


def test_the_core_stub_matches_the_compiled_module():
    r = _run("mypy.stubtest", "solver._core",
             "--allowlist", str(ROOT / "tests" / "stubtest-allowlist.txt"))
    assert r.returncode == 0, r.stdout + r.stderr
