"""The layers point one way (docs/architecture.md): read from the sources' import statements.

Every ``import`` counts, those inside functions too; those under ``if TYPE_CHECKING:`` do not
(they never run). Names are the installed ones (``geoserver_emulator``…), folders the
repository's.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = {"geoserver_emulator": ROOT / "emulator", "geoserver_emulator_pytest": ROOT / "plugin"}


def _modules() -> dict[str, Path]:
    out = {}
    for name, folder in PACKAGES.items():
        for path in folder.rglob("*.py"):
            parts = list(path.relative_to(folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            out[".".join([name, *parts])] = path
    return out


MODULES = _modules()


def _runtime_imports(tree: ast.Module) -> Iterator[ast.Import | ast.ImportFrom]:
    def walk(node: ast.AST) -> Iterator[ast.Import | ast.ImportFrom]:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                for other in child.orelse:
                    yield from walk(other)
                continue
            if isinstance(child, ast.Import | ast.ImportFrom):
                yield child
            yield from walk(child)

    yield from walk(tree)


def _targets(module: str, node: ast.Import | ast.ImportFrom) -> Iterator[str]:
    if isinstance(node, ast.Import):
        yield from (alias.name for alias in node.names)
        return
    if node.level:
        package = module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]
        base = package.rsplit(".", node.level - 1)[0] if node.level > 1 else package
        target = f"{base}.{node.module}" if node.module else base
    else:
        target = node.module or ""
    submodules = [f"{target}.{a.name}" for a in node.names if f"{target}.{a.name}" in MODULES]
    # ``from pkg import sub``: the submodule (the package's own body is already loaded)
    yield from submodules or [target]


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = {m: set() for m in MODULES}
    for module, path in MODULES.items():
        for node in _runtime_imports(ast.parse(path.read_text(encoding="utf-8"))):
            for target in _targets(module, node):
                while target and target not in MODULES:
                    target = target.rpartition(".")[0]
                if target and target != module:
                    graph[module].add(target)
    return graph


GRAPH = _graph()


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    for start in sorted(graph):
        if start in index:
            continue
        work = [(start, iter(sorted(graph[start])))]
        index[start] = low[start] = len(index)
        stack.append(start)
        on_stack.add(start)
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
                component = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    component.append(member)
                    if member == node:
                        break
                if len(component) > 1:
                    found.append(sorted(component))
    return found


def _folder(module: str) -> str:
    return module if MODULES[module].name == "__init__.py" else module.rpartition(".")[0]


def test_the_analysis_sees_imports_inside_functions():
    # emulator.py imports the HTTP app inside a property: the edge must be seen
    assert "geoserver_emulator.http.app" in GRAPH["geoserver_emulator.emulator"]
    # and ignores TYPE_CHECKING blocks: middleware names the Emulator only for the type checker
    assert "geoserver_emulator.emulator" not in GRAPH["geoserver_emulator.http.middleware"]


def test_a_cycle_is_found_when_there_is_one():
    graph = {"a.x": {"b.y"}, "b.y": {"a.x"}, "c.z": set()}
    assert _cycles(graph) == [["a.x", "b.y"]]


def test_no_import_cycles():
    """None crosses a folder, and none stays inside one either."""
    cycles = _cycles(GRAPH)
    crossing = [c for c in cycles if len({_folder(m) for m in c}) > 1]
    assert not crossing, f"import cycles across folders: {crossing}"
    assert not cycles, f"import cycles: {cycles}"


def _importers_of(prefix: str) -> set[str]:
    return {
        m
        for m, targets in GRAPH.items()
        if not m.startswith(prefix)
        and any(t == prefix or t.startswith(prefix + ".") for t in targets)
    }


@pytest.mark.parametrize(
    ("layer", "allowed"),
    [
        # the domain's base: pure Python, imports nothing of ours above it
        ("geoserver_emulator.core", set()),
        # the root object: only the layers above it (recording, the CLI, the plugin, the facade)
        (
            "geoserver_emulator.emulator",
            {
                "geoserver_emulator",
                "geoserver_emulator.cli",
                "geoserver_emulator.recording",
                "geoserver_emulator.testing",
                "geoserver_emulator_pytest",
            },
        ),
        # recording, replay checks and import: only the CLI and the plugin stand on them
        ("geoserver_emulator.recording", {"geoserver_emulator.cli", "geoserver_emulator_pytest"}),
        ("geoserver_emulator.cli", {"geoserver_emulator.__main__"}),
        # the pytest plugin is the very top: nothing of the emulator imports it
        ("geoserver_emulator_pytest", set()),
    ],
)
def test_who_may_import_a_layer(layer: str, allowed: set[str]):
    importers = _importers_of(layer)
    if layer == "geoserver_emulator.core":
        importers = {m for m in GRAPH if m.startswith(layer) and not _only_core(m)}
    stray = {m for m in importers if not any(m == a or m.startswith(a + ".") for a in allowed)}
    assert not stray, f"{layer} is imported from below: {sorted(stray)}"


def _only_core(module: str) -> bool:
    return all(t.startswith("geoserver_emulator.core") for t in GRAPH[module])


def test_http_never_imports_the_root_or_above():
    above = (
        "geoserver_emulator.emulator",
        "geoserver_emulator.recording",
        "geoserver_emulator.cli",
    )
    for module, targets in GRAPH.items():
        if module.startswith("geoserver_emulator.http"):
            assert not {t for t in targets if t.startswith(above)}, module


def test_the_stock_data_stands_on_the_core_only():
    """``stockdata/`` sits beside ``core/``: every layer that serves features may read it."""
    for module, targets in GRAPH.items():
        if module.startswith("geoserver_emulator.stockdata"):
            ours = {t for t in targets if t.startswith("geoserver_emulator")}
            assert all(
                t.startswith(("geoserver_emulator.core", "geoserver_emulator.stockdata"))
                for t in ours
            ), module
