"""The layering of the package, checked from the source (no import at test time).

Layers point one way (docs/architecture.md):

    api/ cli eval/ wiring  →  graph/  →  learning/ service/  →  knowledge/ routing/ preferences
      →  llm/ persistence/ input vocabulary/  →  config errors users streaming models/

A module may import its own layer or a lower one, never a higher one; nothing outside ``graph/``
imports ``graph.nodes``; and there is no import cycle between modules (imports inside functions
count too, ``if TYPE_CHECKING:`` blocks do not: they never run).
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src" / "knowzero"

LAYERS: dict[str, int] = {
    "config": 0, "errors": 0, "users": 0, "streaming": 0, "models": 0, "__init__": 0,
    "llm": 1, "persistence": 1, "input": 1, "remote": 1, "vocabulary": 1,
    "understanding": 2,
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


# --- process-wide state ---------------------------------------------------------------------------
DOC = SRC.parents[1] / "docs" / "architecture.md"
_MUTABLE_CALLS = {"dict", "list", "set", "defaultdict", "OrderedDict", "deque", "Counter", "WeakValueDictionary",
                  "WeakKeyDictionary", "WeakSet", "ChainMap"}
_CACHING = {"lru_cache", "cache", "cached_property"}


def _name(node: ast.AST) -> str:
    if isinstance(node, ast.Call):
        node = node.func
    if isinstance(node, ast.Attribute):
        return node.attr
    return node.id if isinstance(node, ast.Name) else ""


def _mutable(value: ast.AST) -> bool:
    return isinstance(value, ast.Dict | ast.List | ast.Set | ast.DictComp | ast.ListComp | ast.SetComp) or (
        isinstance(value, ast.Call) and _name(value) in _MUTABLE_CALLS)


def _empty(value: ast.AST) -> bool:
    return (isinstance(value, ast.Dict) and not value.keys) or (isinstance(value, ast.List | ast.Set) and not value.elts) \
        or (isinstance(value, ast.Call) and _name(value) in _MUTABLE_CALLS and not value.args and not value.keywords)


def process_state(path: Path) -> tuple[dict[str, str], set[str]]:
    """:func:`process_state_of` a package file."""
    return process_state_of(path.read_text("utf-8"), module_name(path).removeprefix("knowzero."))


def process_state_of(source: str, mod: str) -> tuple[dict[str, str], set[str]]:
    """({what keeps process-wide state in module ``mod``: where}, its cached loaders as ``mod.function``).

    State: a ``global`` statement; a module-level mutable container bound to a lower-case name
    (``_servers = {}``) or an empty one under any name (``CACHE: dict = {}``), keyed ``mod.NAME``;
    a call of ``get_settings`` (process-wide settings). Upper-case containers with content are
    constants (tables, messages). Loaders: functions decorated with ``lru_cache``/``cache``.
    """
    tree = ast.parse(source)
    found: dict[str, str] = {}
    loaders: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Global):
            found[f"global {', '.join(node.names)}"] = f"{mod}:{node.lineno}"
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef) and any(_name(d) in _CACHING for d in node.decorator_list):
            loaders.add(f"{mod}.{node.name}")
        if isinstance(node, ast.Call) and _name(node) == "get_settings":
            found["get_settings()"] = f"{mod}:{node.lineno}"
    for node in tree.body:
        targets: list[ast.expr] = []
        if isinstance(node, ast.Assign):
            targets, value = node.targets, node.value
        elif isinstance(node, ast.AnnAssign) and node.value is not None:
            targets, value = [node.target], node.value
        for t in targets:
            name = t.id if isinstance(t, ast.Name) else ""
            if name and not name.startswith("__") and (_empty(value) or (_mutable(value) and not name.isupper())):
                found[f"{mod}.{name}"] = f"{mod}:{node.lineno}"
    return found, loaders


def documented(kind: str) -> set[str]:
    """What docs/architecture.md lists under "Process-wide resources": ``loaders`` (`module.function()`)
    or ``declarations`` (`module.NAME`: tables filled by declarations at import, read-only after)."""
    text = DOC.read_text("utf-8")
    section = text.split("## Process-wide resources", 1)[1].split("\n## ", 1)[0]
    pattern = r"`((?:[a-z_]+\.)+_?[a-z][a-z0-9_]*)\(\)`" if kind == "loaders" else r"`((?:[a-z_]+\.)+_?[A-Z][A-Z0-9_]*)`"
    return set(re.findall(pattern, section))


def test_nothing_keeps_process_wide_state_but_the_documented_resources() -> None:
    """Process-wide: only read-only resources loaded once by a cached loader, and the declaration
    tables filled at import, each listed in docs/architecture.md (and everything listed exists)."""
    found: dict[str, str] = {}
    loaders: set[str] = set()
    for path in SRC.rglob("*.py"):
        state_here, loaders_here = process_state(path)
        found |= state_here
        loaders |= loaders_here
    declared = documented("declarations")
    state = sorted(f"{where}: {what}" for what, where in found.items() if what not in declared)
    assert not state, "process-wide state (build it in wiring.build_deps and pass it in):\n" + "\n".join(state)
    assert declared <= set(found), f"docs/architecture.md lists tables that do not exist: {sorted(declared - set(found))}"
    listed = documented("loaders")
    assert loaders <= listed, f"cached loaders not listed in docs/architecture.md: {sorted(loaders - listed)}"
    assert listed <= loaders, f"docs/architecture.md lists loaders that do not exist: {sorted(listed - loaders)}"


def test_the_state_finder_sees_each_kind() -> None:
    """The finder itself: a global, a module cache, an empty constant, settings read at run time."""
    src = ("import functools\n_servers = {}\nCACHE: dict = {}\nTABLE = {'a': 1}\n_names = ('x',)\n"
           "def f():\n    global _x\n    return get_settings()\n"
           "@functools.lru_cache(maxsize=1)\ndef load():\n    return 1\n")
    found, loaders = process_state_of(src, "probe")
    assert set(found) == {"global _x", "get_settings()", "probe._servers", "probe.CACHE"}
    assert loaders == {"probe.load"}


def test_the_house_rules_hold() -> None:
    """scripts/check_house.py (the redesign's rules): no file over 800 lines, no package of more than 15
    modules, verdict levels set only in knowledge/answer/policy.py, no graph function on an untyped state,
    no hand-off phrase or order-id pattern outside vocabulary/, learning clear of the checker's internals,
    at most 15 function-level imports of our own modules."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("check_house", SRC.parents[1] / "scripts" / "check_house.py")
    assert spec and spec.loader
    house = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(house)
    assert house.long_files() == []
    assert house.crowded_packages() == []
    assert house.level_setters() == []
    assert house.loose_graph_state() == []
    assert house.hard_coded_vocabulary() == []
    assert house.learning_reaches_in() == []
    assert len(house.local_imports()) <= house.MAX_LOCAL_IMPORTS, house.local_imports()
