"""Shengji in RLlib (Ray's new API stack): PPO with one policy shared by the four seats and
the env's exact masks, through a small ``MultiAgentEnv`` adapter.

Only the deciding seat gets an observation at each step (a seat keeps the turn for every
card step of its decision, so its steps are consecutive in its own trajectory); at the end
of the hand every seat gets its final observation and its team's reward. Masking uses
RLlib's own ``ActionMaskingTorchRLModule``, which reads observations shaped
``{"observations": ..., "action_mask": ...}``: the adapter renames the env's keys.

    python examples/rllib_ppo.py --iterations 20 --decks 2
"""

from __future__ import annotations

import argparse
from typing import Any

import gymnasium as gym
import numpy as np
import ray
from ray.rllib.algorithms.ppo import PPOConfig
from ray.rllib.core.rl_module.multi_rl_module import MultiRLModuleSpec
from ray.rllib.core.rl_module.rl_module import RLModuleSpec
from ray.rllib.env.multi_agent_env import MultiAgentEnv
from ray.rllib.examples.rl_modules.classes.action_masking_rlm import ActionMaskingTorchRLModule

from shengji_env import shengji_v1
from shengji_env.actions import NUM_ACTIONS
from shengji_env.encoding import OBS_SIZE

SHARED = "shared"


class ShengjiMultiAgentEnv(MultiAgentEnv):
    """``shengji_v1.env`` as an RLlib multi-agent env (``env_config``: its options). An
    action the mask forbids ends the hand with that agent losing, as in PettingZoo's
    classic games (RLlib's env check steps with unmasked random actions)."""

    def __init__(self, config: dict[str, Any] | None = None) -> None:
        super().__init__()
        self.game = shengji_v1.env(**(config or {}))
        self.agents = self.possible_agents = list(self.game.possible_agents)
        space = gym.spaces.Dict(
            {
                "action_mask": gym.spaces.Box(0.0, 1.0, (NUM_ACTIONS,), np.float32),
                "observations": gym.spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32),
            }
        )
        self.observation_spaces = dict.fromkeys(self.agents, space)
        self.action_spaces = dict.fromkeys(self.agents, gym.spaces.Discrete(NUM_ACTIONS))

    def _observe(self, agent: str) -> dict[str, np.ndarray]:
        observed = self.game.observe(agent)
        return {
            "action_mask": observed["action_mask"].astype(np.float32),
            "observations": observed["observation"],
        }

    def reset(self, *, seed: int | None = None, options: dict | None = None) -> tuple:
        self.game.reset(seed=seed)
        agent = self.game.agent_selection
        return {agent: self._observe(agent)}, {}

    def step(self, actions: dict[str, int]) -> tuple:
        self.game.step(int(actions[self.game.agent_selection]))
        if all(self.game.terminations.values()) or all(self.game.truncations.values()):
            observations = {agent: self._observe(agent) for agent in self.agents}
            rewards = {agent: float(self.game.rewards[agent]) for agent in self.agents}
            return observations, rewards, {"__all__": True}, {"__all__": False}, {}
        agent = self.game.agent_selection  # RLlib wants a reward with every next observation
        return (
            {agent: self._observe(agent)},
            {agent: 0.0},
            {"__all__": False},
            {"__all__": False},
            {},
        )


def make_config(env_config: dict[str, Any], batch: int) -> PPOConfig:
    module = RLModuleSpec(
        module_class=ActionMaskingTorchRLModule, model_config={"head_fcnet_hiddens": [128]}
    )
    return (
        PPOConfig()
        .environment(ShengjiMultiAgentEnv, env_config=env_config)
        .multi_agent(policies={SHARED}, policy_mapping_fn=lambda agent, episode, **_: SHARED)
        .rl_module(rl_module_spec=MultiRLModuleSpec(rl_module_specs={SHARED: module}))
        .env_runners(num_env_runners=0)
        .training(train_batch_size_per_learner=batch, minibatch_size=min(batch, 256), num_epochs=2)
    )


def main(argv: list[str] | None = None) -> list[dict[str, Any]]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--decks", type=int, default=2)
    parser.add_argument("--batch", type=int, default=4000)
    args = parser.parse_args(argv)
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, ignore_reinit_error=True)
    algo = make_config({"decks": args.decks}, args.batch).build_algo()
    results = []
    try:
        for iteration in range(args.iterations):
            result = algo.train()
            learner = result["learners"][SHARED]
            steps = result["env_runners"]["num_env_steps_sampled_lifetime"]
            print(
                f"iteration {iteration + 1}: {steps} env steps, "
                f"policy loss {learner['policy_loss']:.3f}, vf loss {learner['vf_loss']:.3f}",
                flush=True,
            )
            results.append(result)
    finally:
        algo.stop()
        ray.shutdown()
    return results


if __name__ == "__main__":
    main()
