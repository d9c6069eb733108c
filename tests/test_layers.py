"""The layers import downward only and nothing imports in a circle.

Layers, low to high: the rules engine (``shengji_env.rules``), the environment (the rest of
``shengji_env``), the bots and policies (``agents``), the front ends (``frontends``),
training and the command line (``train``). Every import statement counts, function-local
and ``TYPE_CHECKING`` ones included: a circle held together by a late import is still a
circle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
PACKAGES = ("shengji_env", "agents", "frontends", "train")


def layer(module: str) -> int:
    if module == "shengji_env.rules" or module.startswith("shengji_env.rules."):
        return 0
    return {"shengji_env": 1, "agents": 2, "frontends": 3, "train": 4}[module.split(".")[0]]


def module_files() -> dict[str, Path]:
    modules = {}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            parts = list(path.relative_to(ROOT).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join(parts)] = path
    return modules


def _absolute(module: str, path: Path, node: ast.ImportFrom) -> str:
    if not node.level:
        return node.module or ""
    package = module.split(".") if path.name == "__init__.py" else module.split(".")[:-1]
    base = package[: len(package) - node.level + 1]
    return ".".join([*base, node.module] if node.module else base)


def imports_of(module: str, path: Path, known: set[str]) -> set[str]:
    """The project modules ``module`` imports (a name that is a submodule counts as it)."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom):
            source = _absolute(module, path, node)
            found.add(source)
            found.update(f"{source}.{alias.name}" for alias in node.names)
    return {name for name in found if name in known and name != module}


def import_graph() -> dict[str, set[str]]:
    files = module_files()
    return {module: imports_of(module, path, set(files)) for module, path in files.items()}


def find_cycle(graph: dict[str, set[str]]) -> list[str] | None:
    """One import circle of ``graph`` (as a path that returns to its start), or ``None``."""
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(module: str) -> list[str] | None:
        state[module] = 1
        path.append(module)
        for target in sorted(graph[module]):
            if state.get(target) == 1:
                return [*path[path.index(target) :], target]
            if target not in state:
                cycle = visit(target)
                if cycle:
                    return cycle
        path.pop()
        state[module] = 2
        return None

    for module in sorted(graph):
        if module not in state:
            cycle = visit(module)
            if cycle:
                return cycle
    return None


def test_the_walk_sees_the_packages_and_their_imports():
    graph = import_graph()
    assert {"shengji_env.rules.game", "agents.arena", "train.ppo"} <= set(graph)
    assert "shengji_env.rules.legal" in graph["shengji_env.rules.game"]  # a relative import
    assert "agents.network" in graph["train.ppo"]  # an absolute one
    assert "agents.ppo_agent" in graph["agents.registry"]  # a function-local one


def test_no_import_runs_up_a_layer():
    upward = sorted(
        f"{module} -> {target}"
        for module, targets in import_graph().items()
        for target in targets
        if layer(target) > layer(module)
    )
    assert upward == []


def test_nothing_imports_in_a_circle():
    cycle = find_cycle(import_graph())
    assert cycle is None, " -> ".join(cycle or [])


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, ["a", "b", "c", "a"]),
        ({"a": {"b"}, "b": set(), "c": {"a"}}, None),
    ],
)
def test_the_cycle_finder_finds_circles(graph, expected):
    assert find_cycle(graph) == expected
