"""A gymnasium single-agent view of the game: the learner in one seat, agents in the others.

``SingleAgentEnv`` exposes the flat observation vector as a ``Box`` and the legal actions
through ``action_masks()``, the convention of sb3-contrib's ``MaskablePPO``. The other
three seats are played by agents (anything with ``act(observation, info) -> int``);
by default uniform random ones seeded from the env's RNG. The reward is the learner's
team reward at the end of the episode. An action the mask forbids ends the episode with
``illegal_reward`` (the classic PettingZoo convention), ``info["illegal_action"]`` saying why.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import gymnasium as gym
import numpy as np

from .actions import NUM_ACTIONS
from .encoding import OBS_SIZE
from .env import raw_env


class _UniformOpponent:
    """Uniform over the mask, drawing from the wrapper's RNG (so a seed fixes everything)."""

    def __init__(self, rng: Callable[[], np.random.Generator]) -> None:
        self._rng = rng

    def act(self, observation: dict[str, np.ndarray], info: dict[str, Any]) -> int:
        legal = np.flatnonzero(observation["action_mask"])
        return int(legal[self._rng().integers(legal.size)])


class SingleAgentEnv(gym.Env):
    """The learner plays ``learner_seat`` (or a seat drawn per episode with ``"random"``).

    Args:
        opponents: three agents for the other seats in seat order after the learner's,
            or ``None`` for uniform random play.
        learner_seat: 0..3 or ``"random"``.
        illegal_reward: the learner's reward when it takes an action the mask forbids.
        **options: options of :func:`shengji_env.env.raw_env`.
    """

    metadata = {"render_modes": ["ansi"]}  # noqa: RUF012 — gymnasium's class attribute

    def __init__(
        self,
        opponents: Sequence[Any] | None = None,
        learner_seat: int | str = 0,
        illegal_reward: float = -1.0,
        **options: Any,
    ) -> None:
        super().__init__()
        if learner_seat != "random" and learner_seat not in range(4):
            raise ValueError(f"learner_seat must be 0..3 or 'random', got {learner_seat!r}")
        if opponents is not None and len(opponents) != 3:
            raise ValueError(f"opponents must hold three agents, got {len(opponents)}")
        self.game_env = raw_env(**options)
        self.render_mode = options.get("render_mode")
        self.illegal_reward = illegal_reward
        self.learner_seat_option = learner_seat
        self.learner_seat = 0 if learner_seat == "random" else int(learner_seat)
        uniform = _UniformOpponent(lambda: self.np_random)
        self.opponents = list(opponents) if opponents is not None else [uniform] * 3
        self.observation_space = gym.spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32)
        self.action_space = gym.spaces.Discrete(NUM_ACTIONS)
        self._mask = np.zeros(NUM_ACTIONS, dtype=bool)

    @property
    def learner(self) -> str:
        return self.game_env.possible_agents[self.learner_seat]

    def reset(
        self, *, seed: int | None = None, options: dict[str, Any] | None = None
    ) -> tuple[np.ndarray, dict[str, Any]]:
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**62))
        if self.learner_seat_option == "random":
            self.learner_seat = int(self.np_random.integers(4))
        self.game_env.reset(seed=game_seed)
        for opponent in self.opponents:
            if hasattr(opponent, "reset"):
                opponent.reset()
        return self._advance()

    def step(self, action: int) -> tuple[np.ndarray, float, bool, bool, dict[str, Any]]:
        action = int(action)
        if not self._mask[action]:
            decision = self.game_env.decision
            reason = decision.why_illegal(action) if decision else "the episode is over"
            observation = self.game_env.observe(self.learner)["observation"]
            self._mask[:] = False
            return observation, self.illegal_reward, True, False, {"illegal_action": reason}
        self.game_env.step(action)
        observation, info = self._advance()
        done = self.game_env.terminations[self.learner]
        reward = float(self.game_env._cumulative_rewards[self.learner]) if done else 0.0
        return observation, reward, done, False, info

    def _advance(self) -> tuple[np.ndarray, dict[str, Any]]:
        """Let the other seats play until the learner decides or the episode ends."""
        env = self.game_env
        while not env.terminations[self.learner] and env.agent_selection != self.learner:
            agent = env.agent_selection
            seat = env.possible_agents.index(agent)
            opponent = self.opponents[(seat - self.learner_seat) % 4 - 1]
            env.step(opponent.act(env.observe(agent), env.infos[agent]))
        observed = env.observe(self.learner)
        self._mask = observed["action_mask"].astype(bool)
        return observed["observation"], dict(env.infos[self.learner])

    def action_masks(self) -> np.ndarray:
        """The legal actions of the learner's current step (``bool``, shape ``(55,)``)."""
        return self._mask.copy()

    def render(self) -> str | None:
        return self.game_env.render()


def make_vector_env(
    num_envs: int, asynchronous: bool = False, **options: Any
) -> gym.vector.VectorEnv:
    """``num_envs`` single-agent envs in one vector env (subprocesses with ``asynchronous``).

    Masks come from ``vector_env.call("action_masks")``.
    """

    def make() -> SingleAgentEnv:
        return SingleAgentEnv(**options)

    factories = [make] * num_envs
    if asynchronous:
        return gym.vector.AsyncVectorEnv(factories)
    return gym.vector.SyncVectorEnv(factories)
