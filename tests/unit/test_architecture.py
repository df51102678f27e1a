"""The layering of the package, checked from the source (no import at test time).

Layers point one way (docs/architecture.md):

    api/ cli eval/ wiring  →  graph/  →  learning/ service/  →  knowledge/ routing/ preferences
      →  llm/ persistence/ input  →  config errors users streaming models/

A module may import its own layer or a lower one, never a higher one; nothing outside ``graph/``
imports ``graph.nodes``; and there is no import cycle between modules (imports inside functions
count too, ``if TYPE_CHECKING:`` blocks do not: they never run).
"""

from __future__ import annotations

import ast
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "knowzero"

LAYERS: dict[str, int] = {
    "config": 0, "errors": 0, "users": 0, "streaming": 0, "models": 0, "__init__": 0,
    "llm": 1, "persistence": 1, "input": 1, "remote": 1,
    "knowledge": 2, "routing": 2, "preferences": 2,
    "learning": 3, "service": 3,
    "graph": 4,
    "api": 5, "cli": 5, "eval": 5, "wiring": 5, "entry": 5,
}


def module_name(path: Path) -> str:
    rel = path.relative_to(SRC.parent).with_suffix("")
    parts = list(rel.parts)
    if parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


def _type_checking(node: ast.If) -> bool:
    t = node.test
    return (isinstance(t, ast.Name) and t.id == "TYPE_CHECKING") or (
        isinstance(t, ast.Attribute) and t.attr == "TYPE_CHECKING")


def imports_of(path: Path) -> set[str]:
    """Every ``knowzero`` module a file imports at run time (module level or inside functions)."""
    tree = ast.parse(path.read_text("utf-8"))
    found: set[str] = set()

    def visit(node: ast.AST) -> None:
        if isinstance(node, ast.If) and _type_checking(node):
            for child in node.orelse:
                visit(child)
            return
        if isinstance(node, ast.Import):
            found.update(a.name for a in node.names if a.name.startswith("knowzero"))
        elif isinstance(node, ast.ImportFrom) and node.module and node.module.startswith("knowzero"):
            found.add(node.module)
            for a in node.names:  # "from knowzero.service import tools" imports a module
                candidate = f"{node.module}.{a.name}"
                if (SRC.parent / Path(*candidate.split("."))).with_suffix(".py").exists() or \
                        (SRC.parent / Path(*candidate.split(".")) / "__init__.py").exists():
                    found.add(candidate)
        for child in ast.iter_child_nodes(node):
            visit(child)

    visit(tree)
    return found


def graph_of_modules() -> dict[str, set[str]]:
    return {module_name(p): imports_of(p) for p in SRC.rglob("*.py")}


def layer(module: str) -> int:
    top = module.split(".")[1] if "." in module else "__init__"
    assert top in LAYERS, f"{module}: give its top-level module a layer in LAYERS (and in docs/architecture.md)"
    return LAYERS[top]


def test_every_import_points_down_or_sideways() -> None:
    bad = []
    for mod, deps in graph_of_modules().items():
        for dep in deps:
            if layer(dep) > layer(mod):
                bad.append(f"{mod} (layer {layer(mod)}) imports {dep} (layer {layer(dep)})")
    assert not bad, "\n".join(sorted(bad))


def test_nothing_outside_graph_imports_its_nodes_and_no_lower_layer_imports_graph() -> None:
    bad = []
    for mod, deps in graph_of_modules().items():
        for dep in deps:
            if dep.startswith("knowzero.graph.nodes") and not mod.startswith("knowzero.graph"):
                bad.append(f"{mod} imports {dep}")
            if dep.startswith("knowzero.graph") and mod.split(".")[1] in ("knowledge", "service", "learning", "routing"):
                bad.append(f"{mod} imports {dep}")
    assert not bad, "\n".join(sorted(bad))


def test_no_import_cycles() -> None:
    g = graph_of_modules()
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    cycles: list[list[str]] = []
    counter = [0]

    def strongconnect(v: str) -> None:  # Tarjan's strongly connected components
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on_stack.add(v)
        for w in g.get(v, ()):
            if w not in g:
                continue
            if w not in index:
                strongconnect(w)
                low[v] = min(low[v], low[w])
            elif w in on_stack:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on_stack.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for v in sorted(g):
        if v not in index:
            strongconnect(v)
    # a package's __init__ importing its own submodules is not a cycle of ours to untangle
    real = [c for c in cycles if not all(m == c[0] or m.startswith(c[0] + ".") for m in c)]
    assert not real, "import cycles:\n" + "\n".join(" ↔ ".join(c) for c in real)


def test_the_checker_sees_a_cycle(tmp_path: Path) -> None:
    """The cycle finder itself: two modules importing each other are reported."""
    a = tmp_path / "a.py"
    a.write_text("import knowzero.b\n")
    assert imports_of(a) == {"knowzero.b"}
    b = tmp_path / "b.py"
    b.write_text("if TYPE_CHECKING:\n    import knowzero.a\nelse:\n    import knowzero.c\n")
    assert imports_of(b) == {"knowzero.c"}, "TYPE_CHECKING imports never run; the else branch does"
