"""The package's arrangement: no import circles, imports at the top, a layout table that is true.

Imports are read from the source (``ast``), not by importing: an edge goes
from a module to every ``solver`` module it names.  A name imported from a
package that is one of its submodules counts as that submodule.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import solver

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "solver"
#: Function-level imports that are allowed: optional heavy dependencies only.
OPTIONAL = {"matplotlib", "dask", "distributed", "babel"}


def module_name(path: Path) -> str:
    rel = path.relative_to(ROOT).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts.pop()
    return ".".join(parts)


def modules() -> dict[str, Path]:
    return {module_name(p): p for p in sorted(PACKAGE.rglob("*.py"))}


def imports(path: Path, known: set[str]) -> tuple[set[str], list[str]]:
    """The solver modules ``path`` imports, and its imports below the top level."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    me = module_name(path)
    is_pkg = path.name == "__init__.py"
    out: set[str] = set()
    nested: list[str] = []
    top = set(id(n) for n in tree.body)
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = me.split(".") if is_pkg else me.split(".")[:-1]
                base = base[: len(base) - (node.level - 1)]
                mod = ".".join(base + ([node.module] if node.module else []))
            else:
                mod = node.module or ""
            names = [f"{mod}.{a.name}" for a in node.names]
        elif isinstance(node, ast.Import):
            mod = ""
            names = [a.name for a in node.names]
        else:
            continue
        if id(node) not in top and not _guarded(tree, node):
            root = (mod or names[0]).split(".")[0]
            if root not in OPTIONAL:
                nested.append(f"{me}:{node.lineno}")
        for full in names:
            if full in known:
                out.add(full)
            elif mod in known:
                out.add(mod)
    out.discard(me)
    return out, nested


def _guarded(tree: ast.Module, node: ast.AST) -> bool:
    """Imports under ``if TYPE_CHECKING:`` or in a top-level ``try`` (a fallback) count as top level."""
    for top in tree.body:
        if isinstance(top, (ast.If, ast.Try)) and any(n is node for n in ast.walk(top)):
            return True
    return False


def graph() -> dict[str, set[str]]:
    mods = modules()
    known = set(mods)
    return {m: imports(p, known)[0] for m, p in mods.items()}


def cycles(g: dict[str, set[str]]) -> list[list[str]]:
    """Every strongly connected component with more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    found: list[list[str]] = []
    counter = [0]

    def visit(v: str) -> None:
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in sorted(g.get(v, ())):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                found.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            visit(v)
    return found


def test_the_import_graph_has_no_cycles():
    g = graph()
    assert len(g) > 30
    assert cycles(g) == []


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_imports_stand_at_the_top():
    mods = modules()
    known = set(mods)
    nested = [n for p in mods.values() for n in imports(p, known)[1]]
    assert nested == []


def test_the_layout_page_lists_every_module():
    layout = (ROOT / "docs" / "design" / "layout.md").read_text(encoding="utf-8")
    listed = set(re.findall(r"`(solver/[\w/]+\.py)`", layout))
    files = {str(p.relative_to(ROOT)) for p in PACKAGE.rglob("*.py")}
    assert files - listed == set()
    assert listed - files == set()


def test_the_package_lists_every_public_name_it_can_load():
    # solver/__init__.py imports its names on first use (PEP 562): __all__ and the
    # table of their homes must agree, and every name must load
    assert sorted(solver.__all__) == sorted(solver._HOME_OF)
    for name in solver.__all__:
        assert getattr(solver, name) is not None
