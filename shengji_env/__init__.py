"""Shengji (升级 / Tractor): rules engine and reinforcement-learning environment."""

from . import rules

__all__ = ["rules"]
__version__ = "0.1.0"
