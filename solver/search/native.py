"""Loads the compiled core; there is no silent fallback to Python.

If ``solver._core`` was not built, importing this module fails with a message
that says how to build it, so a slow pure-Python path can never stand in for
the solver unnoticed.
"""
from __future__ import annotations

try:
    from . import _core  # noqa: F401
except ImportError as exc:  # pragma: no cover - exercised by a subprocess test
    raise ImportError(
        "the compiled core solver._core is not built: install the package with "
        "`pip install .` (or `pip install -e .` for development), which compiles ext/*.pyx "
        f"with Cython ({exc})"
    ) from exc

core = _core
