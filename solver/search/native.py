"""The compiled core ``solver._core`` and the conversions to and from it.

Loading it here fails with a message that says how to build it: there is no
silent fallback to Python, so a slow path can never stand in for the solver
unnoticed.  Everything that turns a :class:`GameState` into the core's bitmask
state, or a core move back into a :class:`Move`, lives in this module.
"""
from __future__ import annotations

import importlib.machinery
import os
import sys
from pathlib import Path
from typing import TYPE_CHECKING

from solver.errors import CoreMissing
from solver.game.cards import DECK_LOW_RANK, cards_of
from solver.game.moves import PASS, SWAP, TAKE, Move
from solver.game.rules import FLAG_OPTIONS
from solver.game.state import GameState

if TYPE_CHECKING:
    from solver._core import CState, Search


def _has_core(package: Path) -> bool:
    """Whether the folder of a ``solver`` package holds a compiled core."""
    return any((package / f"_core{suffix}").exists()
               for suffix in importlib.machinery.EXTENSION_SUFFIXES)


def core_missing(exc: ImportError) -> str:
    """Why the core did not load and what to do, from where this package lies.

    The usual case: Python was started in a source checkout's top folder (its
    folder comes first on ``sys.path``), so its uncompiled ``solver/`` was
    imported instead of the package ``pip install .`` put in site-packages.
    """
    package = Path(__file__).resolve().parent.parent
    top = package.parent
    why = f"({type(exc).__name__}: {exc})"
    if not (top / "ext" / "_core.pyx").exists():  # an installed package without its core
        return (f"the compiled core solver._core cannot be loaded from {package} {why}: "
                "reinstall the package (pip install --force-reinstall durak-solver)")
    installed = next((entry for entry in (Path(e or os.curdir).resolve() for e in sys.path)
                      if entry != top and _has_core(entry / "solver")), None)
    if installed is not None:
        first = (f"Python was started in {top}, which comes first on sys.path"
                 if Path.cwd().resolve() == top else f"{top} comes first on sys.path")
        return (f"the source tree {package} shadows the durak-solver installed in "
                f"{installed} ({first}), and its core is not compiled: run from another "
                "folder, or compile the core here with `pip install -e .`")
    return (f"the compiled core solver._core is not built in the source tree {package}: "
            f"run `pip install -e .` in {top} (it compiles ext/_core.pyx with Cython; a C "
            "compiler and the Python headers are needed), or `pip install .` there and run "
            f"durak from another folder {why}")


try:
    import solver._core as core
except ImportError as exc:  # pragma: no cover - exercised by a subprocess test
    raise CoreMissing(core_missing(exc)) from exc


def rule_flags(state: GameState) -> int:
    """The core's bit set of the options ``state`` is played with."""
    f = 0
    for attr, _ in FLAG_OPTIONS:
        if getattr(state.rules, attr):
            f |= core.RULE_FLAGS[attr]
    return f


def pile_order(state: GameState) -> tuple[int, ...]:
    """The pile as the core loads it: top first, ``()`` when none is known."""
    return tuple(state.pile_order) if state.pile > 0 and state.pile_order else ()


def load(search: Search, state: GameState) -> CState:
    """The core state of ``state`` (every card must be known)."""
    att, opn, cov = state.table_masks()
    order = pile_order(state)
    return search.setup(
        n=state.players, trump=state.trump, flags=rule_flags(state),
        low_rank=DECK_LOW_RANK[state.rules.deck], hands=tuple(state.hands),
        att=att, opn=opn, cov=cov, shown=state.shown, attacker=state.attacker,
        defender=state.defender, turn=state.turn, take=int(state.take), limit=state.limit,
        cap=state.cap, pile_order=order, trump_card=state.trump_card if state.pile > 0 else -1,
        fresh=int(state.out == 0),
    )


def to_move_obj(mv: tuple[int, int, int, int]) -> Move:
    kind, cards, card, target = mv
    if kind == 0:
        return Move.lead(*cards_of(cards))
    if kind == 1:
        return Move.cover(target, card)
    if kind == 2:
        return TAKE
    if kind == 3:
        return Move.transfer(card)
    if kind == 4:
        return Move.show(card)
    if kind == 5:
        return Move.throw(card)
    if kind == 6:
        return PASS
    return SWAP


def lead_size(mv: tuple[int, int, int, int]) -> int:
    """How many cards core move ``mv`` leads (0: it is not a lead)."""
    kind, cards, _, _ = mv
    return cards.bit_count() if kind == 0 else 0


def move_text(mv: tuple[int, int, int, int]) -> str:
    return str(to_move_obj(mv))
