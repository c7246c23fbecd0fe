"""Test options: ``--runslow`` runs the tests marked ``slow`` (large sweeps);
``-m "not install"`` leaves out the tests that install the package into fresh virtual
environments (tests/test_install.py), which need the package index.

Hypothesis runs derandomized by default, so a test run (CI included) is
repeatable; ``HYPOTHESIS_PROFILE=explore`` draws new examples each run, the
way the round-trip tests once found a rules-reading bug.
"""
import os

import pytest
from hypothesis import settings

settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "repeatable"))


def pytest_addoption(parser):
    parser.addoption("--runslow", action="store_true", default=False,
                     help="also run tests marked slow (large solver sweeps)")


def pytest_configure(config):
    config.addinivalue_line("markers", "slow: a large sweep, deselected unless --runslow")
    config.addinivalue_line("markers", "install: installs the package into fresh virtual "
                            "environments (needs the package index; offline: -m 'not install')")


def pytest_collection_modifyitems(config, items):
    if config.getoption("--runslow"):
        return
    skip = pytest.mark.skip(reason="slow: run with --runslow")
    for item in items:
        if "slow" in item.keywords:
            item.add_marker(skip)


import os as _os
import sys as _sys

# tests/solver_positions.py is a helper module shared by the solver tests and benchmarks
_sys.path.insert(0, _os.path.dirname(__file__))


@pytest.fixture(autouse=True)
def _data_dir(tmp_path_factory, monkeypatch):
    """Every test saves what durak keeps for the user (game records) in a folder of
    its own, never in the user's ~/.local/share/durak."""
    monkeypatch.setenv("DURAK_DATA_DIR", str(tmp_path_factory.mktemp("durak-data")))


@pytest.fixture(autouse=True)
def _english():
    """Every test starts in English, whatever a test before it in the same process set
    (``durak --lang lt`` invoked in-process sets the process's language for good, as a
    command should; under ``-n auto`` any test may follow it in a worker)."""
    from solver.i18n import DEFAULT, set_language
    set_language(DEFAULT)
    yield
    set_language(DEFAULT)


@pytest.fixture(scope="module")
def browser():
    """One headless Chromium for a browser test module (tests/browser_support.py: the
    module is skipped, or failed under DURAK_REQUIRE_BROWSER=1, when there is none)."""
    from browser_support import chromium
    with chromium() as b:
        yield b
