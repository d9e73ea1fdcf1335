"""The import graph, read from the source: packages import one way down and modules form no cycles.

Every import counts, wherever it is written (module top, inside a function "to break a cycle",
under ``TYPE_CHECKING``) and so does ``importlib.import_module`` with a literal name: a lazy
import hides a cycle from Python, not from a reader. The layer order below is the architecture
map's (docs/architecture.md), bottom first; a package may import its own modules and packages of
lower layers only. Read the same way: no ``smh_core`` module imports Home Assistant, and no
top-level package holds more than :data:`LARGEST_SHARE` of the non-test lines.
"""

from __future__ import annotations

import ast
import re
from collections import defaultdict
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("smh_core", "sim_devices", "custom_components")

LAYERS: tuple[tuple[str, ...], ...] = (
    ("smh_core.__init__", "smh_core.progress"),
    ("smh_core.homeenv", "smh_core.llm"),
    ("sim_devices.catalog", "smh_core.sim", "smh_core.memory", "smh_core.voice"),
    ("smh_core.homes", "smh_core.agent", "smh_core.backends"),
    ("smh_core.task", "smh_core.languages"),
    ("smh_core.bench",),
    ("smh_core.suites",),
    ("smh_core.safety_suites",),
    ("smh_core.importers",),
    ("smh_core.ha", "smh_core.perf", "sim_devices.matter_bridge"),
    ("smh_core.cli", "custom_components.smh"),
)
"""Bottom first. ``sim_devices.__init__`` (a docstring) belongs to no layer and imports nothing.
The benchmark is four layers: the task format (``task``) under running and scoring (``bench``),
under the suite generators (``suites``: each generated task is validated by running it; the
safety suites above them, ``safety_suites``, use their draw helpers), under the importers
(``importers``: they validate imported tasks the way the suites do)."""

LARGEST_SHARE = 0.15
"""The most of the non-test lines one top-level package may hold (issue 36: no room holds a third of the house)."""


def _modules() -> dict[str, Path]:
    found = {}
    for pkg in PACKAGES:
        for path in sorted((ROOT / pkg).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__" and len(parts) > 1 and parts[:-1] != ["smh_core"]:
                parts = parts[:-1]
            found[".".join(parts)] = path
    return found


MODULES = _modules()


def _owner(name: str) -> str | None:
    """The module a dotted import name lands in (``a.b.c`` of ``from a.b import c`` may be a name)."""
    while name:
        if name in MODULES:
            return name
        if name == "smh_core":
            return "smh_core.__init__"
        name = name.rpartition(".")[0]
    return None


def _imported_names(module: str, path: Path) -> set[str]:
    names: set[str] = set()
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(a.name for a in node.names)
        elif isinstance(node, ast.ImportFrom):
            base = node.module or ""
            if node.level:
                anchor = package[: len(package) - (node.level - 1)]
                base = ".".join([*anchor, *([node.module] if node.module else [])])
            # ``from pkg import mod`` depends on ``mod``; on ``pkg`` itself only for a name
            # that is not a module (a class or function defined in the package's __init__)
            subs = {f"{base}.{a.name}" for a in node.names}
            names.update(subs)
            if any(sub not in MODULES for sub in subs):
                names.add(base)
        elif (
            isinstance(node, ast.Call)
            and getattr(node.func, "attr", getattr(node.func, "id", None)) == "import_module"
            and node.args
            and isinstance(node.args[0], ast.Constant)
        ):
            names.add(str(node.args[0].value))
    return names


def _graph() -> dict[str, set[str]]:
    graph: dict[str, set[str]] = defaultdict(set)
    for module, path in MODULES.items():
        for name in _imported_names(module, path):
            target = _owner(name)
            if target is not None and target != module:
                graph[module].add(target)
    return graph


GRAPH = _graph()


def _component(module: str) -> tuple[int, str] | None:
    for level, components in enumerate(LAYERS):
        for comp in components:
            if module == comp or module.startswith(comp + "."):
                return level, comp
    return None


def test_every_module_belongs_to_a_layer() -> None:
    stray = [
        m
        for m in MODULES
        if _component(m) is None and m not in ("sim_devices", "custom_components")
    ]
    assert stray == [], f"modules outside every layer (add their package to LAYERS): {stray}"


def test_imports_point_down_only() -> None:
    upward = []
    for module, targets in sorted(GRAPH.items()):
        here = _component(module)
        for target in sorted(targets):
            there = _component(target)
            if here is None or there is None or there[1] == here[1]:
                continue
            if there[0] >= here[0]:
                upward.append(f"{module} -> {target}")
    assert upward == [], "imports that do not point to a lower layer:\n" + "\n".join(upward)


def _homeassistant_imports(module: str, path: Path) -> list[str]:
    return sorted(
        n
        for n in _imported_names(module, path)
        if n == "homeassistant" or n.startswith("homeassistant.")
    )


def test_smh_core_never_imports_homeassistant() -> None:
    """``smh_core`` runs without Home Assistant (the CLI, the benchmark, the simulator): HA code
    lives in ``custom_components/smh`` only, and a lazy or ``import_module`` import counts too."""
    found = [
        f"{m}: {', '.join(names)}"
        for m, path in sorted(MODULES.items())
        if m.startswith("smh_core.") and (names := _homeassistant_imports(m, path))
    ]
    assert found == [], "smh_core modules that import homeassistant:\n" + "\n".join(found)


def test_the_homeassistant_check_sees_every_form(tmp_path: Path) -> None:
    src = (
        "import homeassistant\n"
        "def f():\n    from homeassistant.core import HomeAssistant\n"
        "def g():\n    import importlib\n    importlib.import_module('homeassistant.helpers.llm')\n"
        "from . import homeassistant_like\n"
    )
    (tmp_path / "probe.py").write_text(src, encoding="utf-8")
    assert _homeassistant_imports("smh_core.probe", tmp_path / "probe.py") == [
        "homeassistant",
        "homeassistant.core",
        "homeassistant.core.HomeAssistant",
        "homeassistant.helpers.llm",
    ]
    assert any(
        _homeassistant_imports(m, p)
        for m, p in MODULES.items()
        if m.startswith("custom_components.smh")
    )


def _package_of(path: Path) -> str:
    """The top-level package a file counts for (``smh_core.agent``), or the module itself when it
    sits at the top of its tree (``sim_devices.catalog``, ``smh_core.__init__``)."""
    parts = path.relative_to(ROOT).parts
    return ".".join(parts[:2]) if len(parts) > 2 else ".".join(parts).removesuffix(".py")


def _package_lines() -> dict[str, int]:
    """Non-test ``.py`` lines per top-level package of the three trees, counted recursively."""
    lines: dict[str, int] = defaultdict(int)
    for pkg in PACKAGES:
        for path in (ROOT / pkg).rglob("*.py"):
            rel = path.relative_to(ROOT)
            if (
                "tests" in rel.parts
                or path.name.startswith("test_")
                or path.name.endswith("_test.py")
            ):
                continue
            lines[_package_of(path)] += len(path.read_text(encoding="utf-8").splitlines())
    return dict(lines)


def test_no_package_holds_more_than_its_share() -> None:
    lines = _package_lines()
    total = sum(lines.values())
    largest = max(lines, key=lines.__getitem__)
    ranked = ", ".join(
        f"{p} {n} ({n / total:.1%})" for p, n in sorted(lines.items(), key=lambda kv: -kv[1])[:4]
    )
    assert lines[largest] <= LARGEST_SHARE * total, (
        f"{largest} holds {lines[largest]} of {total} non-test lines ({lines[largest] / total:.1%}, "
        f"at most {LARGEST_SHARE:.0%}); largest: {ranked}"
    )
    assert _package_of(ROOT / "smh_core/agent/eia.py") == "smh_core.agent"
    assert _package_of(ROOT / "sim_devices/catalog.py") == "sim_devices.catalog"
    assert _package_of(ROOT / "smh_core/suites/common.py") == "smh_core.suites"


def _cycles(graph: dict[str, set[str]]) -> list[list[str]]:
    """Strongly connected components of more than one module (Tarjan, iterative)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on_stack: set[str] = set()
    found: list[list[str]] = []
    counter = 0
    for start in sorted(MODULES):
        if start in index:
            continue
        work = [(start, iter(sorted(graph.get(start, ()))))]
        index[start] = low[start] = counter
        counter += 1
        stack.append(start)
        on_stack.add(start)
        while work:
            node, children = work[-1]
            child = next(children, None)
            if child is not None:
                if child not in index:
                    index[child] = low[child] = counter
                    counter += 1
                    stack.append(child)
                    on_stack.add(child)
                    work.append((child, iter(sorted(graph.get(child, ())))))
                elif child in on_stack:
                    low[node] = min(low[node], index[child])
                continue
            work.pop()
            if work:
                low[work[-1][0]] = min(low[work[-1][0]], low[node])
            if low[node] == index[node]:
                comp = []
                while True:
                    member = stack.pop()
                    on_stack.discard(member)
                    comp.append(member)
                    if member == node:
                        break
                if len(comp) > 1:
                    found.append(sorted(comp))
    return found


def test_no_import_cycles() -> None:
    assert _cycles(GRAPH) == []


def test_the_checker_sees_lazy_and_upward_imports() -> None:
    """The reader itself: a function-level import and an importlib call are edges, and a cycle
    made of them is found (so an empty answer above means something)."""
    src = "def f():\n    from b import x\n    import importlib\n    importlib.import_module('c')\n"
    tree_names = set()
    for node in ast.walk(ast.parse(src)):
        if isinstance(node, ast.ImportFrom):
            tree_names.add(node.module)
        elif isinstance(node, ast.Call) and getattr(node.func, "attr", None) == "import_module":
            tree_names.add(node.args[0].value)
    assert tree_names == {"b", "c"}
    assert _cycles(
        {
            "smh_core.llm.client": {"smh_core.llm.errors"},
            "smh_core.llm.errors": {"smh_core.llm.client"},
        }
    ) == [["smh_core.llm.client", "smh_core.llm.errors"]]
    assert _component("smh_core.homeenv.engine") == (1, "smh_core.homeenv")
    assert _component("custom_components.smh.light")[0] > _component("smh_core.bench.runner")[0]
    order = [
        _component(m)[0]
        for m in (
            "smh_core.task.model",
            "smh_core.bench.runner",
            "smh_core.suites.common",
            "smh_core.importers.homebench",
        )
    ]
    assert order == sorted(set(order))


@pytest.mark.parametrize("doc", ["docs/architecture.md"])
def test_readme_map_names_existing_paths(doc: str) -> None:
    """Every backticked repository path in the architecture map (docs/architecture.md) exists, and
    every package of the layers has a row (a reader finds any feature in one hop)."""
    text = (ROOT / doc).read_text(encoding="utf-8")
    start = text.index("## Architecture")
    table = text[start : text.index("\n## ", start + 5)]
    paths = {
        p.split(" ")[0]
        for p in re.findall(
            r"`((?:smh_core|sim_devices|custom_components|scripts|tasks|tests)/[^`]*)`", table
        )
    }
    missing = sorted(
        p for p in paths if "*" not in p and "{" not in p and not (ROOT / p.rstrip("/")).exists()
    )
    assert missing == [], f"the map names paths that do not exist: {missing}"
    for components in LAYERS[1:]:
        for comp in components:
            folder = comp.replace(".", "/") + "/"
            assert folder in table, f"the map has no row for {folder}"


BENCHMARK = (
    "smh_core.task",
    "smh_core.bench",
    "smh_core.languages",
    "smh_core.suites",
    "smh_core.safety_suites",
    "smh_core.importers",
)
"""The packages the benchmark was split into (issue 36): the map names each of their modules."""


def test_map_names_every_module_of_the_benchmark() -> None:
    """Each module of the benchmark's packages is named in a row of its package (``smh_core/bench/``
    and ``chart.py``, or ``smh_core/bench/chart.py``), so the map finds any of them in one hop."""
    text = (ROOT / "docs/architecture.md").read_text(encoding="utf-8")
    start = text.index("## Architecture")
    rows = [
        line
        for line in text[start : text.index("\n## ", start + 5)].splitlines()
        if line.startswith("|")
    ]
    missing = []
    for module, path in sorted(MODULES.items()):
        package = module.rpartition(".")[0]
        if package not in BENCHMARK or path.name == "__init__.py":
            continue
        folder = package.replace(".", "/") + "/"
        if not any(
            f"`{folder}{path.name}`" in row or (folder in row and f"`{path.name}`" in row)
            for row in rows
        ):
            missing.append(f"{folder}{path.name}")
    assert missing == [], f"modules the map does not name in their package's row: {missing}"
