"""The package's arrangement: layers that import only downwards, no import circles,
imports at the top, small files, a layout page that is true.

Imports are read from the source (``ast``), not by importing: an edge goes
from a module to every ``solver`` module it names.  A name imported from a
package that is one of its submodules counts as that submodule, and a module
loaded by its name (``importlib.import_module("solver.cli.app")``, the lazy
homes of the package's public names) counts as imported: a lazy import is
still an import.
"""
from __future__ import annotations

import ast
import re
from pathlib import Path

import solver

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "solver"
#: Function-level imports that are allowed: optional heavy dependencies only.
OPTIONAL = {"matplotlib", "dask", "distributed", "babel", "segno"}

#: The layers, lowest first (docs/design/layout.md draws the same table): a module
#: imports modules of its own package and of packages in lower layers, never of a
#: higher layer nor of another package of its own layer.  ``solver`` is the
#: package's face (``solver/__init__.py``, which loads the public names on first
#: use): above the library it gathers, below the two front ends.
LAYERS: list[tuple[str, ...]] = [
    ("solver.errors", "solver.i18n"),
    ("solver.inputs", "solver.run", "solver.game"),
    ("solver.notation",),
    ("solver.search",),
    ("solver.policy",),
    ("solver.hints",),
    ("solver.learn", "solver.games"),
    ("solver.answers", "solver.play", "solver.puzzles"),
    ("solver.batch",),
    ("solver",),
    ("solver.web",),
    ("solver.cli",),
]
#: What the top level of solver/ holds besides the packages: the package's face.
FACE_FILES = {"__init__.py", "errors.py", "_core.pyi", "py.typed"}
#: Folders of data, no code (shipped as packages of data files, pyproject.toml).
DATA_FOLDERS = {"models", "locale"}
#: No Python or JavaScript file of the package, and no unit of the compiled core
#: (ext/_core.pyx and the ext/*.pxi files it includes), is longer than this.
MAX_LINES = 600


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
    # modules loaded by their name (importlib, the face's lazy homes)
    for node in ast.walk(tree):
        if (isinstance(node, ast.Constant) and isinstance(node.value, str)
                and node.value in known and "." in node.value):  # ("solver" is a word too)
            out.add(node.value)
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


def package_of(module: str) -> str:
    """The package a module belongs to for the layers: ``solver.x`` of ``solver.x.y``;
    ``solver`` itself (the face) and its top-level modules are their own."""
    parts = module.split(".")
    return ".".join(parts[:2])


def layer_of() -> dict[str, int]:
    return {pkg: i for i, layer in enumerate(LAYERS) for pkg in layer}


def test_every_package_has_a_layer():
    packages = {package_of(m) for m in modules()}
    assert packages - set(layer_of()) == set()
    assert set(layer_of()) - packages == set()


def wrong_way(g: dict[str, set[str]]) -> list[str]:
    """Every import of a higher layer's module, or of another package of the same layer."""
    layer = layer_of()
    bad = []
    for m, deps in g.items():
        for d in deps:
            pm, pd = package_of(m), package_of(d)
            if pm != pd and layer[pd] >= layer[pm]:
                bad.append(f"{m} -> {d}")
    return sorted(bad)


def test_layers_import_only_downwards():
    assert wrong_way(graph()) == []


def test_the_layer_check_finds_an_upward_import():
    g = {"solver.game.cards": {"solver.search.exact"}, "solver.search.exact": set(),
         "solver.learn.train": {"solver.games.record"}, "solver.games.record": set(),
         "solver.hints.advise": {"solver.game.cards"}}
    assert wrong_way(g) == ["solver.game.cards -> solver.search.exact",
                            "solver.learn.train -> solver.games.record"]


def test_a_module_loaded_by_name_counts_as_imported():
    g = graph()
    assert "solver.cli.app" in g["solver.cli.entry"]  # importlib, once the handlers are set
    assert "solver.play.seats" in g["solver"]  # the face's lazy home of GameSession
    assert "solver.cli.app" not in g["solver.cli.launch"]


def test_the_cycle_finder_finds_a_cycle():
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]


def test_imports_stand_at_the_top():
    mods = modules()
    known = set(mods)
    nested = [n for p in mods.values() for n in imports(p, known)[1]]
    assert nested == []


def test_no_file_is_longer_than_a_room_you_can_hold():
    files = sorted([*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.js")])
    long = {str(f.relative_to(ROOT)): n for f in files
            if (n := len(f.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_no_unit_of_the_core_is_longer_than_a_room_you_can_hold():
    units = sorted([*(ROOT / "ext").glob("*.pyx"), *(ROOT / "ext").glob("*.pxi")])
    assert len(units) > 1  # _core.pyx and its include files
    long = {str(f.relative_to(ROOT)): n for f in units
            if (n := len(f.read_text(encoding="utf-8").splitlines())) > MAX_LINES}
    assert long == {}


def test_the_top_level_holds_packages_and_the_face():
    loose = []
    for p in PACKAGE.iterdir():
        if p.name == "__pycache__" or p.name.startswith("_core.") and p.suffix in (".so", ".pyd"):
            continue
        if p.is_dir():
            if not (p / "__init__.py").exists() and p.name not in DATA_FOLDERS:
                loose.append(p.name)
        elif p.name not in FACE_FILES:
            loose.append(p.name)
    assert loose == []


def test_the_layout_page_draws_the_layers():
    layout = (ROOT / "docs" / "design" / "layout.md").read_text(encoding="utf-8")
    rows = re.findall(r"^\| (\d+) \| ([^|]+) \|", layout, flags=re.M)
    drawn = [tuple(re.findall(r"`(solver[\w/.]*)`", cell)) for _, cell in rows]
    names = [tuple(p.rstrip("/").replace("/", ".").removesuffix(".py") for p in layer)
             for layer in drawn]
    assert [int(n) for n, _ in rows] == list(range(1, len(LAYERS) + 1))
    assert names == [tuple(layer) for layer in LAYERS]


def test_the_command_line_caps_node_budgets_as_the_solver_does():
    # written twice so that a command starts without loading the solver
    from solver.cli.common import MAX_NODES
    from solver.search.exact import MAX_NODES as SOLVER_MAX_NODES
    assert MAX_NODES == SOLVER_MAX_NODES


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
