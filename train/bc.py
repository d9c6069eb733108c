"""Behaviour cloning from HeuristicAgent: an optional warm start before PPO."""

from __future__ import annotations

import numpy as np
import torch
from torch import nn

from agents import HeuristicAgent
from shengji_env.env import raw_env

from .config import TrainConfig
from .network import PolicyNet


def heuristic_samples(
    config: TrainConfig, count: int, seed: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``count`` (observation, mask, action) triples of HeuristicAgent in all four seats."""
    env = raw_env(**config.env_options)
    bot = HeuristicAgent()
    obs, masks, actions = [], [], []
    hand = 0
    while len(actions) < count:
        env.reset(seed=seed + hand)
        hand += 1
        for _ in env.agent_iter():
            observed, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            action = bot.act(observed, info)
            obs.append(observed["observation"])
            masks.append(observed["action_mask"])
            actions.append(action)
            env.step(action)
    return np.array(obs), np.array(masks), np.array(actions)


def behaviour_clone(net: PolicyNet, config: TrainConfig, rng: np.random.Generator) -> float:
    """Fit the policy head (and trunk) to the heuristic's actions; returns the last loss."""
    obs, masks, actions = heuristic_samples(config, config.bc_steps, config.seed * 7919)
    optimizer = torch.optim.Adam(net.parameters(), lr=config.learning_rate)
    loss_fn = nn.CrossEntropyLoss()
    loss = torch.tensor(0.0)
    for _ in range(config.bc_epochs):
        order = rng.permutation(len(actions))
        for start in range(0, len(order), config.minibatch_size):
            index = order[start : start + config.minibatch_size]
            logits, _ = net(torch.from_numpy(obs[index]), torch.from_numpy(masks[index]))
            loss = loss_fn(logits, torch.from_numpy(actions[index]).long())
            optimizer.zero_grad()
            loss.backward()
            optimizer.step()
    return loss.item()
