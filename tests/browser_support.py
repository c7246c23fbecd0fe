"""The browser the web tests drive: Debian's Chromium through Playwright.

Playwright's own browser download is never used (`playwright install` cannot
reach its host here): the tests launch /usr/bin/chromium (or
$DURAK_CHROMIUM), which .ci/run installs with apt when it is missing.
Importing this module skips the importing test module, saying why, when
Playwright or the browser is missing; a browser that is there but fails is a
failure.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pytest

sync_api = pytest.importorskip(
    "playwright.sync_api", reason="Playwright is not installed (pip install -e '.[test]')")

CHROMIUM = os.environ.get("DURAK_CHROMIUM", "/usr/bin/chromium")
if not Path(CHROMIUM).exists():
    pytest.skip(f"no Chromium at {CHROMIUM} (.ci/run installs Debian's chromium with apt)",
                allow_module_level=True)

#: Chromium's switches for a quiet headless run as root in a container.
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium for one test module."""
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()
