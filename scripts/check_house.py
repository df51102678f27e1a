"""The house rules of issue 26, checked from the source: prints each rule and what breaks it; exit 1 if any does.

    python scripts/check_house.py            # all rules
    python scripts/check_house.py --json     # one JSON object on the last line

Rules: no source file over 800 lines; no package folder with more than 15 modules; verdict levels set in
exactly one module (``knowledge/answer/policy.py``); no graph function taking ``state: dict[str, Any]``;
no hand-off phrase or order-id pattern hard-coded in Python outside ``vocabulary/``; learning does not
call the knowledge checker's internals (``verify``, ``answerable``, ``reader``); at most 15 function-level
imports of the project's own modules. (Layer violations and cycles: tests/unit/test_architecture.py.)
"""

from __future__ import annotations

import ast
import json
import re
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[1] / "src" / "knowzero"
POLICY = "knowledge/answer/policy.py"
MAX_LINES, MAX_MODULES, MAX_LOCAL_IMPORTS = 800, 15, 15
HANDOFF = re.compile(r"转人工|人工客服|人工服务|真人客服|talk to a (?:person|human)|speak to (?:a|an) (?:agent|human|person)")
ORDER = re.compile(r"订单|order", re.I)
ID_LIKE = re.compile(r"\[A-Za-z0-9|\[0-9|\\\\d|_ID\b")
CHECKER_INTERNALS = ("knowzero.knowledge.answer.checks.verify", "knowzero.knowledge.answer.checks.answerable",
                     "knowzero.knowledge.answer.reader")


def py_files() -> list[Path]:
    return sorted(p for p in SRC.rglob("*.py") if "vendor" not in p.parts)


def rel(p: Path) -> str:
    return p.relative_to(SRC).as_posix()


def long_files() -> list[str]:
    return [f"{rel(p)}: {n} lines" for p in py_files() if (n := len(p.read_text("utf-8").splitlines())) > MAX_LINES]


def crowded_packages() -> list[str]:
    out = []
    for d in sorted({p.parent for p in py_files()}):
        n = len([p for p in d.glob("*.py") if p.name != "__init__.py"])
        if n > MAX_MODULES:
            out.append(f"{rel(d) or '.'}/: {n} modules")
    return out


def _sets_level(node: ast.AST) -> bool:
    if isinstance(node, ast.Call):
        name = node.func.attr if isinstance(node.func, ast.Attribute) else getattr(node.func, "id", "")
        if name in ("Verdict", "ClaimVerdict"):
            return True
        if name == "replace" and any(k.arg == "level" for k in node.keywords):
            return True
    if isinstance(node, (ast.Assign, ast.AugAssign)):
        targets = node.targets if isinstance(node, ast.Assign) else [node.target]
        return any(isinstance(t, ast.Attribute) and t.attr == "level" for t in targets)
    return False


def level_setters() -> list[str]:
    out = []
    for p in py_files():
        if rel(p) == POLICY or rel(p).startswith("eval/"):
            continue
        tree = ast.parse(p.read_text("utf-8"))
        lines = sorted({n.lineno for n in ast.walk(tree) if _sets_level(n)})
        if lines:
            out.append(f"{rel(p)}: lines {', '.join(map(str, lines[:12]))}{' …' if len(lines) > 12 else ''}")
    return out


def loose_graph_state() -> list[str]:
    out = []
    for p in (SRC / "graph").rglob("*.py"):
        tree = ast.parse(p.read_text("utf-8"))
        for f in ast.walk(tree):
            if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for a in f.args.args + f.args.kwonlyargs:
                    if a.arg == "state" and a.annotation is not None and "dict" in ast.unparse(a.annotation):
                        out.append(f"{rel(p)}:{f.lineno} {f.name}")
    return out


def hard_coded_vocabulary() -> list[str]:
    out = []
    for p in py_files():
        if rel(p).startswith("vocabulary/"):
            continue
        tree = ast.parse(p.read_text("utf-8"))
        for call in ast.walk(tree):
            if isinstance(call, ast.Call) and getattr(call.func, "attr", getattr(call.func, "id", "")) == "compile":
                for arg in call.args[:1]:
                    text = ast.unparse(arg)
                    if HANDOFF.search(text) or (ORDER.search(text) and ID_LIKE.search(text)):
                        out.append(f"{rel(p)}:{call.lineno}")
        docs = {id(b[0].value) for n in ast.walk(tree) if isinstance(n, (ast.Module, ast.ClassDef, ast.FunctionDef,
                                                                          ast.AsyncFunctionDef))
                and (b := n.body) and isinstance(b[0], ast.Expr) and isinstance(b[0].value, ast.Constant)}
        for const in ast.walk(tree):  # a phrase list, label or reply written as a plain string (docstrings aside)
            if isinstance(const, ast.Constant) and isinstance(const.value, str) and HANDOFF.search(const.value) \
                    and id(const) not in docs:
                out.append(f"{rel(p)}:{const.lineno} {const.value[:30]!r}")
    return out


def _imports(tree: ast.AST) -> list[str]:
    mods = []
    for n in ast.walk(tree):
        if isinstance(n, ast.ImportFrom) and n.module:
            mods.append(n.module)
            mods.extend(f"{n.module}.{a.name}" for a in n.names)
        elif isinstance(n, ast.Import):
            mods.extend(a.name for a in n.names)
    return mods


def learning_reaches_in() -> list[str]:
    out = []
    for p in (SRC / "learning").rglob("*.py"):
        bad = sorted({m for m in _imports(ast.parse(p.read_text("utf-8"))) if m.startswith(CHECKER_INTERNALS)})
        if bad:
            out.append(f"{rel(p)}: {', '.join(bad)}")
    return out


def local_imports() -> list[str]:
    out = []
    for p in py_files():
        tree = ast.parse(p.read_text("utf-8"))
        for f in ast.walk(tree):
            if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for n in ast.walk(f):
                    if isinstance(n, ast.ImportFrom) and (n.level or (n.module or "").startswith("knowzero")) or \
                            isinstance(n, ast.Import) and any(a.name.startswith("knowzero") for a in n.names):
                        out.append(f"{rel(p)}:{n.lineno} in {f.name}")
    return sorted(set(out))


def main() -> int:
    local = local_imports()
    rules = {
        "files_over_800_lines": long_files(),
        "packages_over_15_modules": crowded_packages(),
        "verdict_levels_set_outside_policy": level_setters(),
        "graph_functions_taking_dict_state": loose_graph_state(),
        "vocabulary_hard_coded_in_python": hard_coded_vocabulary(),
        "learning_calls_checker_internals": learning_reaches_in(),
        "function_level_imports_over_15": local if len(local) > MAX_LOCAL_IMPORTS else [],
    }
    for name, bad in rules.items():
        print(f"{'ok  ' if not bad else 'FAIL'} {name}" + (f" ({len(bad)})" if bad else ""))
        for b in bad:
            print(f"       {b}")
    print(f"     function-level imports: {len(local)} (at most {MAX_LOCAL_IMPORTS})")
    if "--json" in sys.argv:
        print(json.dumps({k: len(v) for k, v in rules.items()} | {"function_level_imports": len(local)}))
    return 1 if any(rules.values()) else 0


if __name__ == "__main__":
    sys.exit(main())
