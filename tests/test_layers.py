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
        # the OGC services: each service imports the shared ``ows`` pieces downward (``ows``
        # names the services' tables by module, in ``ows/routes.SERVICES``); WMTS draws its
        # tiles through WMS; OGC API Features reuses them (the view, the access decision, the
        # feature collections); no other area imports them
        (
            "geoserver_emulator.areas.ows",
            {
                "geoserver_emulator.areas.ogcapi_features",
                "geoserver_emulator.areas.wms",
                "geoserver_emulator.areas.wfs",
                "geoserver_emulator.areas.wcs",
                "geoserver_emulator.areas.wmts",
                "geoserver_emulator_pytest",  # the coverage page lists the tables' rows
            },
        ),
        ("geoserver_emulator.areas.wms", {"geoserver_emulator.areas.wmts"}),
        ("geoserver_emulator.areas.wfs", set()),
        ("geoserver_emulator.areas.wcs", set()),
        ("geoserver_emulator.areas.wmts", set()),
        ("geoserver_emulator.areas.ogcapi_features", set()),
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


# -- the documented tables (docs/architecture.md) ---------------------------------------------

DOC = ROOT / "docs" / "architecture.md"
EXCEPTIONS = {
    # the OGC services are being reshaped like the other areas (docs/architecture.md)
    ("geoserver_emulator.areas.ows.routes", "geoserver_emulator.http.middleware"),
}


def _doc_table(heading: str) -> list[list[str]]:
    """The rows (cells, stripped) of the first table under ``### heading`` in the doc."""
    text = DOC.read_text(encoding="utf-8")
    section = text.split(f"### {heading}\n", 1)[1]
    rows = []
    for line in section.splitlines():
        if rows and not line.startswith("|"):
            break
        if line.startswith("|"):
            rows.append([cell.strip() for cell in line.strip().strip("|").split("|")])
    return rows[2:]  # no header, no separator


def _names(cell: str) -> list[str]:
    return [n.strip().strip("`") for n in cell.split(",") if n.strip() not in ("", "—")]


LAYER_ROWS = [
    (row[0], _names(row[1]), set(_names(row[2])))
    for row in _doc_table("Which layer may import which")
]
AREA_ROWS = {row[0]: set(_names(row[1])) for row in _doc_table("Which area may import which")}


def _where(module: str) -> str:
    """A module's file, as the tables name it: relative to ``emulator/``, or ``plugin/…``."""
    path = MODULES[module]
    if module.startswith("geoserver_emulator_pytest"):
        return "plugin/" + path.relative_to(PACKAGES["geoserver_emulator_pytest"]).as_posix()
    return path.relative_to(PACKAGES["geoserver_emulator"]).as_posix()


def layer_of(where: str, rows: list[tuple[str, list[str], set[str]]]) -> str:
    """The layer of a file: the row naming the file itself, else the longest folder."""
    for name, paths, _ in rows:
        if where in paths:
            return name
    folders = [(len(p), name) for name, paths, _ in rows for p in paths if p.endswith("/")]
    found = [(n, name) for n, name in folders if where.startswith(_folder_path(rows, name, n))]
    if not found:
        raise LookupError(f"{where} is in no row of the layer table")
    return max(found)[1]


def _folder_path(rows: list[tuple[str, list[str], set[str]]], name: str, size: int) -> str:
    return next(p for n, paths, _ in rows if n == name for p in paths if len(p) == size)


def layer_violations(
    graph: dict[str, set[str]], where: dict[str, str], rows: list[tuple[str, list[str], set[str]]]
) -> list[str]:
    """Each import of a layer its importer's row does not allow."""
    allowed = {name: names for name, _, names in rows}
    out = []
    for module, targets in graph.items():
        mine = layer_of(where[module], rows)
        for target in targets:
            theirs = layer_of(where[target], rows)
            if theirs != mine and theirs not in allowed[mine]:
                if (module, target) not in EXCEPTIONS:
                    out.append(f"{module} ({mine}) imports {target} ({theirs})")
    return sorted(out)


def _area_unit(where: str) -> str | None:
    """``areas/catalog/model.py`` → ``catalog``; ``areas/access.py`` → ``access.py``."""
    if not where.startswith("areas/"):
        return None
    rest = where.removeprefix("areas/")
    return rest.split("/", 1)[0] if "/" in rest else (None if rest == "__init__.py" else rest)


def area_violations(
    graph: dict[str, set[str]], where: dict[str, str], rows: dict[str, set[str]]
) -> list[str]:
    """Each import of another area that the area table does not allow."""
    out = []
    for module, targets in graph.items():
        mine = _area_unit(where[module])
        if mine is None:
            continue
        for target in targets:
            theirs = _area_unit(where[target])
            if theirs is not None and theirs != mine and theirs not in rows.get(mine, set()):
                if (module, target) not in EXCEPTIONS:
                    out.append(f"{module} imports the area {theirs}")
    return sorted(out)


WHERE = {m: _where(m) for m in MODULES}


def test_the_tables_are_read() -> None:
    assert [row[0] for row in LAYER_ROWS][:3] == ["core", "wire", "stockdata"]
    assert AREA_ROWS["uploads"] == {"appschema", "catalog", "mosaics"}


def test_every_module_is_in_a_layer() -> None:
    for module in MODULES:
        layer_of(WHERE[module], LAYER_ROWS)


def test_every_import_is_allowed_by_the_layer_table() -> None:
    bad = layer_violations(GRAPH, WHERE, LAYER_ROWS)
    assert not bad, "imports the layer table (docs/architecture.md) does not allow:\n" + "\n".join(
        bad
    )


def test_an_area_reaches_another_only_as_the_area_table_allows() -> None:
    bad = area_violations(GRAPH, WHERE, AREA_ROWS)
    assert not bad, "area imports the area table (docs/architecture.md) does not allow:\n" + (
        "\n".join(bad)
    )


def test_a_violation_is_found_when_there_is_one() -> None:
    """Self-check of both tables on a made-up graph."""
    rows = [("core", ["core/"], set()), ("areas", ["areas/"], {"core"})]
    graph = {"p.core.a": {"p.areas.x.m"}, "p.areas.x.m": {"p.core.a", "p.areas.y.m"}}
    where = {"p.core.a": "core/a.py", "p.areas.x.m": "areas/x/m.py", "p.areas.y.m": "areas/y/m.py"}
    assert layer_violations(graph, where, rows) == ["p.core.a (core) imports p.areas.x.m (areas)"]
    assert area_violations(graph, where, {"x": set()}) == ["p.areas.x.m imports the area y"]
    assert area_violations(graph, where, {"x": {"y"}}) == []


def test_the_area_table_points_one_way() -> None:
    graph = {f"a.{area}": {f"a.{t}" for t in targets} for area, targets in AREA_ROWS.items()}
    for targets in list(graph.values()):
        for t in targets:
            graph.setdefault(t, set())
    assert not _cycles(graph), _cycles(graph)


def _closure(area: str) -> set[str]:
    seen: set[str] = set()
    todo = [area]
    while todo:
        for t in AREA_ROWS.get(todo.pop(), set()):
            if t not in seen:
                seen.add(t)
                todo.append(t)
    return seen


def test_hooks_point_down_and_name_functions_that_exist() -> None:
    """An area calls a hook to tell the areas above it: each function that answers belongs to
    an area that may import the caller's."""
    from geoserver_emulator.composition import HOOKS

    for hook, functions in HOOKS.items():
        caller = hook.split(".", 1)[0]
        for where in functions:
            module, _, function = where.partition(":")
            tree = ast.parse(MODULES[module].read_text(encoding="utf-8"))
            defined = {
                n.name for n in tree.body if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef)
            }
            assert function in defined, where
            answering = _area_unit(WHERE[module])
            assert answering is not None and caller in _closure(answering), (hook, where)


def test_every_hook_called_is_declared() -> None:
    from geoserver_emulator.composition import HOOKS

    called = set()
    for path in MODULES.values():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and ast.unparse(node.func) in ("hooks.call", "call_hook")
                and node.args
                and isinstance(node.args[0], ast.Constant)
            ):
                called.add(node.args[0].value)
    assert called, "no hook call found: the search is broken"
    assert called <= set(HOOKS), called - set(HOOKS)
    assert set(HOOKS) <= called, set(HOOKS) - called


def _strings(tree: ast.Module) -> list[str]:
    """The string constants of a module outside docstrings and ``if TYPE_CHECKING:`` blocks."""
    docstrings = {
        id(node.body[0].value)
        for node in ast.walk(tree)
        if isinstance(node, ast.Module | ast.ClassDef | ast.FunctionDef | ast.AsyncFunctionDef)
        and node.body
        and isinstance(node.body[0], ast.Expr)
        and isinstance(node.body[0].value, ast.Constant)
    }
    out = []

    def walk(node: ast.AST) -> None:
        for child in ast.iter_child_nodes(node):
            if isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
                continue
            if isinstance(child, ast.Constant) and isinstance(child.value, str):
                if id(child) not in docstrings:
                    out.append(child.value)
            walk(child)

    walk(tree)
    return out


def test_core_names_no_area() -> None:
    for module, path in MODULES.items():
        if not module.startswith("geoserver_emulator.core"):
            continue
        named = [s for s in _strings(ast.parse(path.read_text(encoding="utf-8"))) if ".areas" in s]
        assert not named, f"{module} names an area: {named}"
        assert not {t for t in GRAPH[module] if ".areas" in t}, module


def test_no_area_imports_the_app_or_the_scenario_loader() -> None:
    above = ("geoserver_emulator.http.app", "geoserver_emulator.scenarios.loader")
    for module, targets in GRAPH.items():
        if module.startswith("geoserver_emulator.areas."):
            assert not {t for t in targets if t.startswith(above)}, module


OGC_FOLDERS = ("ows", "wms", "wfs", "wcs", "wmts")


def test_only_the_ogc_routes_module_touches_http():
    """The OGC services' handlers return data; ``ows/routes.py`` alone makes responses."""
    http = ("starlette", "geoserver_emulator.http")
    for folder in OGC_FOLDERS:
        prefix = f"geoserver_emulator.areas.{folder}"
        for module, path in MODULES.items():
            if (
                not module.startswith(prefix + ".")
                or module == "geoserver_emulator.areas.ows.routes"
            ):
                continue
            tree = ast.parse(path.read_text(encoding="utf-8"))
            for node in _runtime_imports(tree):
                names = [a.name for a in node.names] if isinstance(node, ast.Import) else []
                names += [node.module or ""] if isinstance(node, ast.ImportFrom) else []
                targets = set(_targets(module, node)) | set(names)
                assert not {t for t in targets if t.startswith(http)}, (module, targets)


def test_the_stock_data_stands_on_the_core_only():
    """``stockdata/`` sits beside ``core/``: every layer that serves features may read it."""
    for module, targets in GRAPH.items():
        if module.startswith("geoserver_emulator.stockdata"):
            ours = {t for t in targets if t.startswith("geoserver_emulator")}
            assert all(
                t.startswith(("geoserver_emulator.core", "geoserver_emulator.stockdata"))
                for t in ours
            ), module
