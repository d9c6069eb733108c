"""Agents that play the Shengji environment, and the arena that compares them."""

from .base import Agent
from .greedy import GreedyAgent
from .heuristic import HeuristicAgent
from .random_agent import RandomAgent
from .registry import AGENTS, load_agent
from .search import SearchAgent


def __getattr__(name: str) -> object:
    """``agents.OnnxAgent`` and ``agents.PPOAgent`` import onnxruntime / torch only on use."""
    if name == "OnnxAgent":
        from .onnx_agent import OnnxAgent

        return OnnxAgent
    if name == "PPOAgent":
        from .ppo_agent import PPOAgent

        return PPOAgent
    raise AttributeError(f"module 'shengji_env.agents' has no attribute {name!r}")


__all__ = [
    "AGENTS",
    "Agent",
    "GreedyAgent",
    "HeuristicAgent",
    "RandomAgent",
    "SearchAgent",
    "load_agent",
]
