"""Agents that play the Shengji environment, and (later) the arena."""

from .base import Agent
from .random_agent import RandomAgent

__all__ = ["Agent", "RandomAgent"]
