"""Agents that play the Shengji environment, and the arena that compares them."""

from .base import Agent
from .greedy import GreedyAgent
from .heuristic import HeuristicAgent
from .random_agent import RandomAgent
from .registry import AGENTS, load_agent
from .search import SearchAgent

__all__ = [
    "AGENTS",
    "Agent",
    "GreedyAgent",
    "HeuristicAgent",
    "RandomAgent",
    "SearchAgent",
    "load_agent",
]
