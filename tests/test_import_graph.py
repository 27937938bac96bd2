"""No import cycles among the project's own modules, and every module imports on its own.

The graph is read from the sources (ast), so nothing has to be imported to check it: every `import` and
`from … import` at any level (inside functions too), relative imports resolved, and importing `a.b.c` also runs the
packages `a` and `a.b` (their __init__.py). A type-only import (under `if TYPE_CHECKING:`) never runs, so it is not
an edge. A cycle is a strongly connected part of the graph; the failure names one loop through it.

Then each module is imported alone, in a fresh interpreter (after `django.setup()` for the Django apps): a module
that works only when something else was imported first fails, naming the module and the error.
"""
from __future__ import annotations

import ast
import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("rules_engine", "cards", "builder", "hangar")

# Cycles left as they are, each a set of modules that import one another (directly or around a loop). A new cycle
# fails the test, and so does one of these once it is gone (remove it here).
ALLOWED_CYCLES: tuple[frozenset[str], ...] = ()


def _modules() -> dict[str, tuple[Path, bool]]:
    """module name -> (its file, whether it is a package's __init__.py)."""
    found: dict[str, tuple[Path, bool]] = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            is_package = parts[-1] == "__init__"
            if is_package:
                parts.pop()
            found[".".join(parts)] = (path, is_package)
    return found


def _type_only(tree: ast.Module) -> set[int]:
    """The ids of the nodes under `if TYPE_CHECKING:` (or `typing.TYPE_CHECKING`)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and ast.unparse(node.test) in ("TYPE_CHECKING", "typing.TYPE_CHECKING"):
            for child in node.body:
                skipped.update(id(n) for n in ast.walk(child))
    return skipped


def import_graph() -> dict[str, set[str]]:
    """module -> the project modules its import statements run."""
    modules = _modules()

    def known(name: str) -> str | None:  # the module itself, or the nearest package that holds it
        while name and name not in modules:
            name = name.rpartition(".")[0]
        return name or None

    def with_packages(name: str, importer: str) -> set[str]:  # a.b.c runs a and a.b too (not the importer's own)
        parts = name.split(".")
        ran = {".".join(parts[:i]) for i in range(1, len(parts) + 1)}
        own = importer.split(".")
        return {m for m in ran if m in modules} - {".".join(own[:i]) for i in range(1, len(own) + 1)}

    graph: dict[str, set[str]] = {}
    for name, (path, is_package) in modules.items():
        tree = ast.parse(path.read_text(encoding="utf-8"), str(path))
        skipped = _type_only(tree)
        here = name.split(".") if is_package else name.split(".")[:-1]
        targets: set[str] = set()
        for node in ast.walk(tree):
            if id(node) in skipped:
                continue
            if isinstance(node, ast.Import):
                targets.update(filter(None, (known(alias.name) for alias in node.names)))
            elif isinstance(node, ast.ImportFrom):
                if node.level:
                    base = ".".join(here[: len(here) - node.level + 1] + ([node.module] if node.module else []))
                else:
                    base = node.module or ""
                for alias in node.names:
                    target = f"{base}.{alias.name}" if f"{base}.{alias.name}" in modules else known(base)
                    if target:
                        targets.add(target)
        edges: set[str] = set()
        for target in targets:
            edges |= with_packages(target, name)
        edges.discard(name)
        graph[name] = edges
    return graph


def cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected parts of more than one module (Tarjan's algorithm, without recursion)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[frozenset[str]] = []
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = len(index)
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = len(index)
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                part = set()
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    part.add(member)
                    if member == node:
                        break
                if len(part) > 1:
                    found.append(frozenset(part))
    return found


def loop_through(graph: dict[str, set[str]], part: frozenset[str]) -> list[str]:
    """One import loop inside a cycle, from its first module back to it (breadth first: a shortest one)."""
    start = min(part)
    came_from: dict[str, str] = {}
    queue = [start]
    while queue:
        node = queue.pop(0)
        for child in sorted(graph[node] & part):
            if child == start:
                path = [node]
                while path[-1] != start:
                    path.append(came_from[path[-1]])
                return path[::-1] + [start]
            if child not in came_from:
                came_from[child] = node
                queue.append(child)
    return sorted(part)


def test_the_graph_reader_sees_imports_at_any_level_and_resolves_relative_ones():
    graph = import_graph()
    # a relative import (`from . import presenters`) and a package's own __init__ run by an import
    assert "builder.web.presenters" in graph["builder.web.lists"]
    assert "builder.services" in graph["builder.web.lists"]
    # an import inside a function (the management command imports the models once the apps are loaded)
    assert "cards.models" in graph["builder.management.commands.check_list"]
    # a type-only import is no edge: skills.py names the state's Table for the type checker only
    assert "rules_engine.hagmi.state" not in graph["rules_engine.hagmi.skills"]
    toy = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}
    assert cycles(toy) == [frozenset("abc")]
    assert loop_through(toy, frozenset("abc")) == ["a", "b", "c", "a"]


def test_no_import_cycles_among_the_projects_modules():
    """Each module's imports lead away from it: the game engines' rule modules, the catalog and the builder's pages
    and services import downwards (a shared piece lives in a module both sides import, or is bound into a table the
    engine already has, as HAGMI's skill handlers and Warcaster's on-hit abilities are)."""
    graph = import_graph()
    found = cycles(graph)
    new = [" -> ".join(loop_through(graph, part)) for part in found if part not in ALLOWED_CYCLES]
    assert not new, "import cycles:\n" + "\n".join(new)
    gone = [sorted(part) for part in ALLOWED_CYCLES if part not in found]
    assert not gone, f"these cycles are gone: remove them from ALLOWED_CYCLES: {gone}"


_IMPORT_EACH = r"""
import importlib, os, sys, traceback
names = sys.argv[1].split(",")
if sys.argv[2] == "django":
    import django
    django.setup()
packages = sys.argv[3].split(",")
ours = lambda name: name.split(".")[0] in packages
baseline = {name for name in sys.modules if ours(name)}
failed = []
for name in names:
    for loaded in [m for m in sys.modules if ours(m) and m not in baseline]:
        del sys.modules[loaded]
    try:
        importlib.import_module(name)
    except BaseException as error:
        failed.append(f"{name}: {type(error).__name__}: {error}")
print("\n".join(failed))
sys.exit(1 if failed else 0)
"""


def _import_each(names: list[str], mode: str) -> subprocess.CompletedProcess:
    env = dict(os.environ, HANGAR_ENGINE="python", PYTHONDONTWRITEBYTECODE="1")
    return subprocess.run([sys.executable, "-c", _IMPORT_EACH, ",".join(names), mode, ",".join(PACKAGES)],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


def test_each_module_imports_alone_in_a_fresh_interpreter():
    """The engines without Django; the Django apps after `django.setup()` (which loads the models and the admin).
    Before each module, every project module the previous one loaded is forgotten, so each starts from nothing but
    what the interpreter (and Django's set-up) loaded. Engine modules load as plain Python here."""
    names = [name for name in _modules() if ".migrations." not in name]
    engine = [name for name in names if name.startswith("rules_engine")]
    django_side = [name for name in names if not name.startswith("rules_engine")]
    for group, mode in ((engine, "plain"), (django_side, "django")):
        done = _import_each(group, mode)
        assert done.returncode == 0, f"modules that do not import alone ({mode}):\n{done.stdout}{done.stderr[-3000:]}"


def test_no_module_is_imported_under_another_modules_name():
    """One name per concept: `from rules_engine import batch as batches` beside builder/services/batches.py and
    builder/web/batches.py made three different things read `batches`. An alias may shorten a module's name, never
    take the name of another module of the project."""
    modules = _modules()
    by_name: dict[str, set[str]] = {}
    for name in modules:
        by_name.setdefault(name.rsplit(".", 1)[-1], set()).add(name)
    wrong = []
    for name, (path, is_package) in modules.items():
        here = name.split(".") if is_package else name.split(".")[:-1]
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), str(path))):
            if isinstance(node, ast.ImportFrom):
                base = (".".join(here[: len(here) - node.level + 1] + ([node.module] if node.module else []))
                        if node.level else node.module or "")
                pairs = [(f"{base}.{alias.name}", alias.asname) for alias in node.names]
            elif isinstance(node, ast.Import):
                pairs = [(alias.name, alias.asname) for alias in node.names]
            else:
                continue
            for imported, alias in pairs:
                if imported in modules and alias in by_name and imported not in by_name[alias]:
                    wrong.append(f"{path.relative_to(ROOT)}:{node.lineno}: {imported} as {alias}")
    assert not wrong, "modules imported under another module's name:\n" + "\n".join(wrong)
