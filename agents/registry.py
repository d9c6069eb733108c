"""``load_agent(spec)``: agent spec strings, shared by the arena and every command line.

A spec is a name with optional ``key=value`` options: ``random``, ``greedy``,
``heuristic``, ``search:rollouts=32``, ``search:budget=0.5,seed=3``. Agents that load a
policy take a path first: ``ppo:runs/NAME/checkpoint.pt``, ``ppo:models/NAME,sample=1``,
``onnx:exports/NAME``; a shipped model goes by its name (``ppo:standalone-v7``), and
``default`` is the default bot (:data:`~shengji_env.agents.shipped.DEFAULT_MODEL`).
A program outside the package is ``cmd:"PROGRAM ARGS"`` with its limits after the quotes
(``cmd:"node bot.js",decision_seconds=2``), and a server of the protocol is
``http:http://127.0.0.1:8765/decide`` (:mod:`shengji_env.agents.outside`).
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from pathlib import Path
from typing import Any

from .base import Agent
from .greedy import GreedyAgent
from .heuristic import HeuristicAgent
from .outside import command_agent, http_agent
from .random_agent import RandomAgent
from .search import SearchAgent
from .shipped import DEFAULT_MODEL, shipped_model_path


def policy_location(path: str) -> str:
    """``path`` itself where it exists, else the shipped model of that name (``standalone-v7``).

    Raises:
        ValueError: neither; the message lists the shipped models.
    """
    if Path(path).exists():
        return path
    try:
        return str(shipped_model_path(path))
    except ValueError as error:
        raise ValueError(f"no policy at {path!r}, and {error}") from None


def _ppo_agent(path: str, sample: int = 0, seed: int | None = None, threads: int = 1) -> Agent:
    from .ppo_agent import PPOAgent  # imports torch: only when asked for

    return PPOAgent(policy_location(path), sample=sample, seed=seed, threads=threads)


def _default_agent(sample: int = 0, seed: int | None = None, threads: int = 1) -> Agent:
    """The default bot: the shipped policy :data:`DEFAULT_MODEL`."""
    path = str(shipped_model_path(DEFAULT_MODEL))
    return _ppo_agent(path, sample=sample, seed=seed, threads=threads)


def _onnx_agent(path: str, sample: int = 0, seed: int | None = None) -> Agent:
    from .onnx_agent import OnnxAgent  # imports onnxruntime: only when asked for

    return OnnxAgent(path, sample=sample, seed=seed)


AGENTS: dict[str, Callable[..., Agent]] = {
    "random": RandomAgent,
    "greedy": GreedyAgent,
    "heuristic": HeuristicAgent,
    "search": SearchAgent,
    "ppo": _ppo_agent,
    "onnx": _onnx_agent,
    "default": _default_agent,
    "cmd": command_agent,
    "http": http_agent,
}
PATH_AGENTS = {"ppo", "onnx"}
POLICY_AGENTS = {*PATH_AGENTS, "default"}


def is_rule_based(spec: str) -> bool:
    """Whether ``spec`` names a registered agent that needs no policy file (``heuristic``,
    ``search:rollouts=48``); False for policy agents and for malformed or unknown specs."""
    try:
        name, _ = parse_spec(spec)
    except ValueError:
        return False
    return name in AGENTS and name not in POLICY_AGENTS


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """Split ``name:key=value,key=value`` (or ``name:PATH,key=value``) into the name and
    its options (as text; a path is the option ``path``)."""
    name, _, rest = spec.strip().partition(":")
    options: dict[str, str] = {}
    if name == "cmd":
        options["command"], rest = _quoted_command(spec, rest)
    items = rest.split(",")
    if name == "http":
        options["url"] = items.pop(0).strip()
    if name in PATH_AGENTS:
        if not items[0].strip():
            raise ValueError(f"agent spec {spec!r} needs a path: '{name}:path/to/policy'")
        options["path"] = items.pop(0).strip()
    for item in filter(None, items):
        key, sep, value = item.partition("=")
        if not sep or not key.strip() or not value.strip():
            raise ValueError(
                f"malformed agent spec {spec!r}: options are key=value pairs separated by "
                "commas, e.g. 'search:rollouts=32,seed=1'"
            )
        options[key.strip()] = value.strip()
    return name, options


def _quoted_command(spec: str, rest: str) -> tuple[str, str]:
    """The program of a ``cmd:`` spec and the options after it: ``"node bot.js",x=1``
    (quoted, so that its own commas and spaces stay), or all of ``rest`` unquoted."""
    rest = rest.strip()
    if not rest.startswith('"'):
        if not rest:
            raise ValueError(f'agent spec {spec!r} needs a program: cmd:"PROGRAM ARGS"')
        return rest, ""
    end = rest.find('"', 1)
    if end < 0:
        raise ValueError(f"agent spec {spec!r}: the program's closing quote is missing")
    after = rest[end + 1 :].strip()
    if after and not after.startswith(","):
        raise ValueError(f"agent spec {spec!r}: options follow the program after a comma")
    return rest[1:end], after.lstrip(",")


def _convert(value: str, annotation: Any) -> Any:
    text = str(annotation)
    if "float" in text:
        return float(value)
    if "int" in text:
        return int(value)
    return value


def load_agent(spec: str, seed: int | None = None) -> Agent:
    """The agent a spec names. ``seed`` seeds agents that draw random numbers, unless the
    spec sets its own.

    Raises:
        ValueError: an unknown name or option, or a malformed spec, listing the choices.
    """
    name, options = parse_spec(spec)
    if name not in AGENTS:
        raise ValueError(
            f"unknown agent {name!r} in {spec!r}; choices: {', '.join(sorted(AGENTS))}"
        )
    factory = AGENTS[name]
    parameters = inspect.signature(factory).parameters
    unknown = sorted(set(options) - set(parameters))
    if unknown:
        allowed = ", ".join(parameters) or "none"
        raise ValueError(
            f"unknown option(s) {', '.join(unknown)} for agent {name!r}; allowed: {allowed}"
        )
    kwargs: dict[str, Any] = {}
    for key, value in options.items():
        try:
            kwargs[key] = _convert(value, parameters[key].annotation)
        except ValueError:
            raise ValueError(f"option {key}={value!r} of agent {name!r} is not a number") from None
    if "seed" in parameters and "seed" not in kwargs:
        kwargs["seed"] = seed
    return factory(**kwargs)
