"""The play loops: four agents play one deal of an environment, or a whole match hand by
hand. The arena, the clone's demonstrations, SearchAgent's label parts and the duplicate
baseline all play through them."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from shengji_env.rules import Game

from .base import Agent

DecisionHook = Callable[[int, dict[str, np.ndarray], dict[str, Any], int], None]
"""``(seat, observation, info, action)``, called at every decision of a hand."""


def play_hand(
    env: Any, agents: Sequence[Agent], seed: int, on_decision: DecisionHook | None = None
) -> list[float]:
    """``agents`` (one per seat, the same object may sit in several) play the deal ``seed``
    of ``env`` (a :func:`shengji_env.env.raw_env`); returns each seat's reward.
    ``env.game.result`` tells how the hand ended."""
    env.reset(seed=seed)
    _reset_agents(agents)
    return _play_out(env, agents, on_decision)


HandHook = Callable[[Game], None]
"""Called with each finished hand of a match (its :class:`Game`, not to be changed)."""


def play_match(
    env: Any,
    agents: Sequence[Agent],
    seed: int,
    on_hand: HandHook | None = None,
    on_decision: DecisionHook | None = None,
) -> list[float]:
    """A whole match, seed ``seed``, played hand by hand on ``env`` (a hand-episode
    :func:`~shengji_env.env.raw_env` that starts matches): each next hand starts from the
    finished one (:meth:`Game.next_hand`), as a match episode deals it, and ``on_hand``
    sees every finished hand. Returns each seat's match reward, +1 for the winners and -1
    for the others, as a match episode's."""
    if env.episode != "hand" or env.start != "match":
        raise ValueError("play_match needs a hand-episode env that starts matches")
    env.reset(seed=seed)
    _reset_agents(agents)
    while True:
        _play_out(env, agents, on_decision)
        game = env.game
        if on_hand is not None:
            on_hand(game)
        if game.match_winner is not None:
            return [1.0 if seat % 2 == game.match_winner else -1.0 for seat in range(4)]
        following = game.clone()
        following.next_hand()
        env.reset(options={"hand": following})


def _reset_agents(agents: Sequence[Agent]) -> None:
    for agent in agents:
        reset = getattr(agent, "reset", None)  # optional (shengji_env.agents.base.Agent)
        if reset is not None:
            reset()


def _play_out(env: Any, agents: Sequence[Agent], on_decision: DecisionHook | None) -> list[float]:
    """Plays ``env``'s episode from where it stands to its end; each seat's reward."""
    totals = [0.0] * 4
    for name in env.agent_iter():
        seat = env.possible_agents.index(name)
        observed, reward, terminated, truncated, info = env.last()
        totals[seat] += reward
        if terminated or truncated:
            env.step(None)
            continue
        action = agents[seat].act(observed, info)
        if on_decision is not None:
            on_decision(seat, observed, info, action)
        env.step(action)
    return totals
