"""The browser the web tests drive: Debian's Chromium through Playwright.

Playwright's own browser download is never used (`playwright install` cannot
reach its host here): the tests launch /usr/bin/chromium (or
$DURAK_CHROMIUM), which .ci/run installs with apt when it is missing.
Importing this module skips the importing test module, saying why, when
Playwright or the browser is missing -- unless $DURAK_REQUIRE_BROWSER is 1
(.ci/run sets it): then every test that needs the browser fails, saying why,
so that a CI run without the browser is not green.  A browser that is there but
fails is always a failure.
"""
from __future__ import annotations

import os
from contextlib import contextmanager
from pathlib import Path
from typing import Any, Iterator

import pytest

#: Set to 1 by .ci/run: a missing browser fails the browser tests instead of skipping them.
REQUIRED = os.environ.get("DURAK_REQUIRE_BROWSER", "") not in ("", "0")
CHROMIUM = os.environ.get("DURAK_CHROMIUM", "/usr/bin/chromium")

try:
    from playwright import sync_api
except ImportError:
    sync_api = None
    MISSING: str | None = "Playwright is not installed (pip install -e '.[test]')"
else:
    MISSING = (None if Path(CHROMIUM).exists() else
               f"no Chromium at {CHROMIUM} (.ci/run installs Debian's chromium with apt)")
if MISSING and not REQUIRED:
    pytest.skip(MISSING, allow_module_level=True)

#: Chromium's switches for a quiet headless run as root in a container.
ARGS = ["--no-sandbox", "--disable-gpu", "--disable-background-networking",
        "--disable-component-update", "--disable-sync", "--no-first-run"]


@contextmanager
def chromium() -> Iterator[Any]:
    """A headless Chromium for one test module."""
    if MISSING:
        pytest.fail(f"{MISSING}, and DURAK_REQUIRE_BROWSER={os.environ['DURAK_REQUIRE_BROWSER']} "
                    "requires the browser tests", pytrace=False)
    with sync_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=ARGS)
        yield b
        b.close()
