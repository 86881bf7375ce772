"""No import cycle in budgetcore: the graph of imports between its modules, read from
the AST, has no strongly connected component of more than one module.

Two graphs. Module-level imports (what runs when a module is imported: at the top, in a
module-level ``try`` or ``if``, but not under ``if TYPE_CHECKING:``) must have no cycle
at all. With the imports inside functions added (the lazy edges that keep the page's
boot path short: real dependencies all the same, docs/architecture.md counts them),
only the known cycles below may remain.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

PACKAGE = Path(__file__).resolve().parent.parent / "budgetcore"

#: Cycles through function-level imports that exist today, each as the sorted modules of
#: its component, removed by a named piece of work; remove an entry when it goes. None
#: today: issue 38's page refactor removed the last (the page's model, the replay and
#: Tune panels and the update: each panel's state now imports no handler, and the
#: validation path lives below the update, in ``ui.main.validate``).
KNOWN_LAZY_CYCLES: frozenset[tuple[str, ...]] = frozenset()


def module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _is_type_checking(test: ast.expr) -> bool:
    return (isinstance(test, ast.Name) and test.id == "TYPE_CHECKING") or (
        isinstance(test, ast.Attribute) and test.attr == "TYPE_CHECKING"
    )


def module_level_imports(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    """The import statements that run at import: not in a function or class body, not
    under ``if TYPE_CHECKING``."""
    stack: list[ast.stmt] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node
        elif isinstance(node, ast.If):
            if not _is_type_checking(node.test):
                stack.extend(node.body)
            stack.extend(node.orelse)
        elif isinstance(node, ast.Try):
            stack.extend(node.body)
            stack.extend(node.orelse)
            stack.extend(node.finalbody)
            for handler in node.handlers:
                stack.extend(handler.body)
        elif isinstance(node, ast.With):
            stack.extend(node.body)


def targets(node: ast.Import | ast.ImportFrom, here: str, modules: set[str]) -> set[str]:
    """The budgetcore modules an import statement loads (a name that is a submodule
    counts as that submodule)."""
    if isinstance(node, ast.Import):
        return {a.name for a in node.names if a.name in modules}
    base = node.module or ""
    assert not node.level, f"{here}: a relative import (budgetcore imports absolutely)"
    # ``from package import submodule`` loads the submodule (its package is loaded
    # before any of its modules anyway); ``from module import name`` loads the module.
    out = set()
    for alias in node.names:
        sub = f"{base}.{alias.name}"
        if sub in modules:
            out.add(sub)
        elif base in modules:
            out.add(base)
    return out


def every_import(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    """Every import statement, in functions and under TYPE_CHECKING too."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Import | ast.ImportFrom):
            yield node


def import_graph(lazy: bool = False) -> dict[str, set[str]]:
    """Module -> the budgetcore modules it imports at module level (with ``lazy``:
    anywhere)."""
    files = {module_name(p): p for p in PACKAGE.rglob("*.py")}
    modules = set(files)
    statements = every_import if lazy else module_level_imports
    graph: dict[str, set[str]] = {}
    for name, path in files.items():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        edges: set[str] = set()
        for node in statements(tree):
            edges |= targets(node, name, modules)
        graph[name] = edges - {name}
    return graph


def cycles(graph: dict[str, set[str]]) -> set[tuple[str, ...]]:
    """Every strongly connected component of more than one module (Tarjan's algorithm,
    iterative), as its sorted module names."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    on_stack: set[str] = set()
    stack: list[str] = []
    found: set[tuple[str, ...]] = set()
    counter = 0
    for root in sorted(graph):
        if root in index:
            continue
        work = [(root, iter(sorted(graph[root])))]
        index[root] = low[root] = counter
        counter += 1
        stack.append(root)
        on_stack.add(root)
        while work:
            node, children = work[-1]
            for child in children:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph[child]))))
                    break
                if child in on_stack:
                    low[node] = min(low[node], index[child])
            else:
                work.pop()
                if work:
                    low[work[-1][0]] = min(low[work[-1][0]], low[node])
                if low[node] == index[node]:
                    component = []
                    while True:
                        member = stack.pop()
                        on_stack.discard(member)
                        component.append(member)
                        if member == node:
                            break
                    if len(component) > 1:
                        found.add(tuple(sorted(component)))
    return found


def test_budgetcore_s_module_level_imports_have_no_cycle() -> None:
    assert cycles(import_graph()) == set()


def test_with_function_level_imports_only_the_known_cycles_remain() -> None:
    found = cycles(import_graph(lazy=True))
    assert found - KNOWN_LAZY_CYCLES == set(), "a new import cycle"
    stale = KNOWN_LAZY_CYCLES - found
    assert stale == set(), "a known cycle is gone: remove it from KNOWN_LAZY_CYCLES"


def test_the_graph_is_the_package_s_module_level_imports() -> None:
    graph = import_graph()
    assert len(graph) > 100
    assert "budgetcore.errors" in graph["budgetcore.inputs.numbers"]
    # A lazy (function-level) import is not an edge: the CLI loads a command's modules
    # only when it runs.
    assert "budgetcore.cli.replay_table" not in graph["budgetcore.cli.replay_cmds"]
    # Nor is an import under TYPE_CHECKING.
    assert "budgetcore.conformance.cases" not in graph["budgetcore.conformance.pytest_plugin"]
    lazy = import_graph(lazy=True)
    assert "budgetcore.cli.replay_table" in lazy["budgetcore.cli.replay_cmds"]
    # ``from package import module`` is an edge to the module, not to the package.
    assert "budgetcore.replay.logs" not in lazy["budgetcore.replay.logs.reader"]


def test_every_module_names_its_exports_in_one_list() -> None:
    # A module's __all__ is one literal list at its top, not edited further down (the
    # review's `__all__ +=` in replay/logs/usage.py).
    edited = []
    for path in sorted(PACKAGE.rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            target = getattr(node, "target", None)
            if isinstance(node, ast.AugAssign) and getattr(target, "id", "") == "__all__":
                edited.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and getattr(node.func.value, "id", "") == "__all__"
            ):
                edited.append(f"{path.relative_to(PACKAGE)}:{node.lineno}")
    assert edited == []


def test_the_cycle_finder_finds_a_cycle_and_only_a_cycle() -> None:
    graph = {"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}, "e": {"e"}, "f": set()}
    assert cycles(graph) == {("a", "b", "c")}
    assert cycles({"a": {"b"}, "b": set()}) == set()
    two = {"a": {"b"}, "b": {"a"}, "c": {"d"}, "d": {"c", "a"}}
    assert cycles(two) == {("a", "b"), ("c", "d")}


# ------------------------------------------------------------------ the tests' own layout

TESTS = Path(__file__).resolve().parent


def _test_modules() -> list[Path]:
    return sorted(p for p in TESTS.rglob("test_*.py") if "node_modules" not in p.parts)


def test_no_test_module_imports_another() -> None:
    # Shared helpers live in helper modules (tests/helpers.py, tests/ccusage.py ...).
    offenders = []
    for path in _test_modules():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.ImportFrom) and node.module:
                names = [node.module, *(f"{node.module}.{a.name}" for a in node.names)]
            elif isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            else:
                continue
            if any(n.rsplit(".", 1)[-1].startswith("test_") for n in names):
                offenders.append(f"{path.relative_to(TESTS)}:{node.lineno}")
    assert offenders == []


def test_every_property_lives_in_tests_property_and_follows_the_profiles() -> None:
    outside, pinned = [], []
    for path in _test_modules():
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node in ast.walk(tree):
            if not isinstance(node, ast.Call):
                continue
            name = getattr(node.func, "id", getattr(node.func, "attr", ""))
            where = f"{path.relative_to(TESTS)}:{node.lineno}"
            if name == "given" and "property" not in path.parts:
                outside.append(where)
            for kw in node.keywords:
                if kw.arg == "max_examples" and isinstance(kw.value, ast.Constant):
                    pinned.append(where)  # use tests.profiles.examples(n)
    assert outside == []
    assert pinned == []


# ------------------------------------------------------------------ the layers

#: docs/architecture.md "Dependency rules", as data: each part of the package and what
#: it may import besides itself (every import, function-level ones included).
FOUNDATION = {"errors", "_exact", "_version", "_shipped", "units", "messages", "inputs"}
ALLOWED: dict[str, set[str]] = {
    **{part: set() for part in FOUNDATION - {"inputs", "errors"}},
    # A problem's rule is its catalogue sentence (Problem.rule, imported when said).
    "errors": {"messages"},
    "inputs": {"errors"},
    "core": {"_exact", "errors", "inputs"},
    "scenario": FOUNDATION | {"core"},
    "explore": FOUNDATION | {"core", "scenario"},
    # registry.peers reads the runtime profiles (a peer is a runtime at its defaults);
    # runtimes imports no registry module, so no cycle.
    "registry": FOUNDATION | {"core", "scenario", "runtimes"},
    "runtimes": FOUNDATION | {"core", "scenario", "registry"},
    "replay": FOUNDATION | {"core", "scenario", "registry", "runtimes"},
    "charts": FOUNDATION | {"core", "scenario", "replay"},
    "tune": FOUNDATION | {"core", "scenario", "replay", "runtimes"},
    "conformance": FOUNDATION | {"core", "scenario", "explore"},
    "ui": FOUNDATION
    | {"core", "scenario", "explore", "registry", "runtimes", "replay", "charts", "tune"},
    "files": set(),
    # How a command stops on a signal: neutral ground both shells read (the CLI sets the
    # handler, the report checks the flag between files), so no shell imports another.
    "stop": set(),
}
#: The shells, each with the modules that are part of it.
SHELL_OF = {
    "cli": "cli",
    "__main__": "cli",
    "report": "report",
    "report_tune": "report",
    "report_axes": "report",
}
#: Known exceptions (docs/architecture.md), each an edge: the scenario's parser and
#: link resolve a named model.
EXCEPTIONS = {
    ("budgetcore.scenario.parse", "budgetcore.registry.models"),
    ("budgetcore.scenario.fragment", "budgetcore.registry.models"),
    # The reviewer's warnings compare K with the peers' lines, loaded only when asked
    # (the page passes its own, loaded after ready).
    ("budgetcore.scenario.warnings", "budgetcore.registry.peers"),
    # ... and ask the runtime an export is for whether it runs the model (its profile),
    # only for such an export.
    ("budgetcore.scenario.warnings", "budgetcore.runtimes"),
}


def part_of(module: str) -> str:
    parts = module.split(".")
    part = parts[1] if len(parts) > 1 else "budgetcore"
    return SHELL_OF.get(part, part)


def test_every_import_keeps_to_the_layers() -> None:
    broken = []
    for module, imported in import_graph(lazy=True).items():
        here = part_of(module)
        for target in imported:
            there = part_of(target)
            if there == here or (module, target) in EXCEPTIONS or here == "budgetcore":
                continue
            if here in SHELL_OF.values():
                # A shell imports anything below it, and no other shell: but the CLI's
                # report command imports the report.
                if there in SHELL_OF.values() and (here, there) != ("cli", "report"):
                    broken.append(f"{module} -> {target}")
                continue
            if there not in ALLOWED[here]:
                broken.append(f"{module} -> {target}")
    assert broken == []


def test_the_layers_know_every_part_of_the_package() -> None:
    parts = {part_of(m) for m in import_graph()}
    assert parts - {"budgetcore", "data"} <= set(ALLOWED) | set(SHELL_OF.values())


# ------------------------------------------------------------------ modules that read whole

#: A module over this many bytes is no longer read whole (issue 42's structural
#: leftovers, after the December 2026 code review): it is split along its seams.
MODULE_BYTES = 40_000
#: Over it today, each to be split by a named piece of work; remove an entry when it goes.
KNOWN_LARGE: frozenset[str] = frozenset()
#: Catalogues of sentences in two languages, already one module per area: data, not code.
CATALOGUES = frozenset({"messages/problems.py"})


def test_no_module_is_too_large_to_read_whole() -> None:
    large = {
        path.relative_to(PACKAGE).as_posix()
        for path in PACKAGE.rglob("*.py")
        if path.stat().st_size > MODULE_BYTES
    }
    assert large - CATALOGUES == KNOWN_LARGE
