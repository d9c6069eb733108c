"""Shengji (升级 / Tractor): rules engine and reinforcement-learning environment.

``from shengji_env import env, raw_env`` gives the environment factories (the same as
``shengji_env.shengji_v1``'s); ``shengji_env.rules`` is the pure rules engine.
"""

from . import rules
from .env import env, raw_env

__all__ = ["env", "raw_env", "rules"]
__version__ = "0.2.0"
