"""The layers import downward only and nothing imports in a circle.

Layers, low to high: the rules engine (``shengji_env.rules``), the environment (the rest of
``shengji_env``), the bots and policies (``shengji_env.agents``, folder ``agents/``),
training (``shengji_env.train``, folder ``train/``), and the front ends with the command
line, the decision protocol and its HTTP server (``shengji_env.frontends``, folder
``frontends/``). Every import statement counts, function-local
and ``TYPE_CHECKING`` ones included: a circle held together by a late import is still a
circle.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
# Each folder of the repository and the name it installs as under the one import root.
PACKAGES = {
    "shengji_env": "shengji_env",
    "agents": "shengji_env.agents",
    "train": "shengji_env.train",
    "frontends": "shengji_env.frontends",
}
LAYERS = ("shengji_env.rules", "shengji_env", *list(PACKAGES.values())[1:])


def layer(module: str) -> int:
    """The highest layer whose package holds ``module`` (the most specific one wins)."""
    within = [
        index
        for index, package in enumerate(LAYERS)
        if module == package or module.startswith(package + ".")
    ]
    return max(within, key=lambda index: len(LAYERS[index]))


def module_files() -> dict[str, Path]:
    modules = {}
    for folder, package in PACKAGES.items():
        for path in sorted((ROOT / folder).rglob("*.py")):
            parts = list(path.relative_to(ROOT / folder).with_suffix("").parts)
            if parts[-1] == "__init__":
                parts.pop()
            modules[".".join([package, *parts])] = path
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
    expected = {"shengji_env.rules.game", "shengji_env.agents.arena", "shengji_env.train.ppo"}
    assert expected <= set(graph)
    assert "shengji_env.frontends.cli" in graph
    assert "shengji_env.rules.legal" in graph["shengji_env.rules.game"]  # a relative import
    assert "shengji_env.agents.network" in graph["shengji_env.train.ppo"]  # an absolute one
    registry = graph["shengji_env.agents.registry"]
    assert "shengji_env.agents.ppo_agent" in registry  # a function-local one


@pytest.mark.parametrize(
    ("module", "expected"),
    [
        ("shengji_env.rules.game", 0),
        ("shengji_env.env", 1),
        ("shengji_env.agents.arena", 2),
        ("shengji_env.train.ppo", 3),
        ("shengji_env.frontends.cli", 4),
    ],
)
def test_the_layers_run_rules_env_agents_train_frontends(module, expected):
    assert layer(module) == expected


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
