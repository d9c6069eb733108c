"""Four-player team self-play PPO on batched tables, in one file (CleanRL style).

One network plays all four seats of ``--tables`` tables stepped together on the compiled
core (``shengji_env.vector.TableBatch``). Credit assignment: every (table, seat) is its own
trajectory. A seat's card-by-card steps of one decision, and its later decisions, are
consecutive samples of that trajectory — the other seats' steps never come between them —
and the hand's team reward arrives at the seat's last step; GAE runs along each trajectory.
Only hands that ended enter an update; a hand still being played carries over to the next
collection (its earlier steps keep the log-probabilities they were sampled with).

    python examples/selfplay_ppo.py --total-steps 200000 --tables 64
"""

from __future__ import annotations

import argparse
import time
from collections import defaultdict
from typing import Any

import numpy as np
import torch
from torch import nn

from shengji_env.actions import NUM_ACTIONS
from shengji_env.encoding import OBS_SIZE
from shengji_env.vector import BatchStep, TableBatch

Pending = defaultdict[tuple[int, int], list[tuple]]


class Agent(nn.Module):
    def __init__(self, hidden: int) -> None:
        super().__init__()
        self.trunk = nn.Sequential(
            nn.Linear(OBS_SIZE, hidden), nn.ReLU(), nn.Linear(hidden, hidden), nn.ReLU()
        )
        self.policy = nn.Linear(hidden, NUM_ACTIONS)
        self.value = nn.Linear(hidden, 1)

    def forward(
        self, obs: torch.Tensor, mask: torch.Tensor
    ) -> tuple[torch.distributions.Categorical, torch.Tensor]:
        features = self.trunk(obs)
        logits = self.policy(features).masked_fill(mask == 0, -1e9)
        return torch.distributions.Categorical(logits=logits), self.value(features).squeeze(-1)


def advantages_of(rewards: np.ndarray, values: np.ndarray, gamma: float, lam: float) -> np.ndarray:
    out, running = np.zeros_like(values), 0.0
    for t in range(len(values) - 1, -1, -1):
        following = values[t + 1] if t + 1 < len(values) else 0.0
        running = rewards[t] + gamma * following - values[t] + gamma * lam * running
        out[t] = running
    return out


def collect(
    batch: TableBatch, out: BatchStep, agent: Agent, pending: Pending, target: int, args: Any
) -> tuple[BatchStep, dict[str, torch.Tensor], int, list[float]]:
    """Steps every table until ``target`` samples of finished hands are in; returns them."""
    buffer = defaultdict(list)
    hands, rewards, steps = 0, [], 0
    while steps < target:
        with torch.no_grad():
            dist, values = agent(torch.from_numpy(out.observations), torch.from_numpy(out.masks))
            actions = dist.sample()
            logprobs = dist.log_prob(actions)
        for table, seat in enumerate(out.seats.tolist()):
            pending[(table, seat)].append(
                (
                    out.observations[table].copy(),
                    out.masks[table].copy(),
                    int(actions[table]),
                    float(logprobs[table]),
                    float(values[table]),
                )
            )
        out = batch.step(actions.numpy())
        for table in np.flatnonzero(out.dones):
            hands += 1
            rewards.append(float(out.rewards[table, 0]))
            for seat in range(4):
                trajectory = pending.pop((table, seat), [])
                if not trajectory:
                    continue
                obs, masks, acts, logps, vals = (
                    np.array(column) for column in zip(*trajectory, strict=True)
                )
                reward = np.zeros(len(acts), np.float32)
                reward[-1] = out.rewards[table, seat]
                advantage = advantages_of(reward, vals.astype(np.float32), args.gamma, args.lam)
                for key, column in zip(
                    ("obs", "masks", "actions", "logprobs", "advantages", "returns"),
                    (obs, masks, acts, logps, advantage, advantage + vals),
                    strict=True,
                ):
                    buffer[key].append(column)
                steps += len(acts)
    data = {key: torch.as_tensor(np.concatenate(columns)) for key, columns in buffer.items()}
    return out, data, hands, rewards


def update(
    agent: Agent, optimizer: torch.optim.Optimizer, data: dict[str, torch.Tensor], args: Any
) -> tuple[float, float, float]:
    count = len(data["actions"])
    advantages = data["advantages"].float()
    advantages = (advantages - advantages.mean()) / (advantages.std() + 1e-8)
    for _ in range(args.epochs):
        order = torch.randperm(count)
        for start in range(0, count, args.minibatch):
            rows = order[start : start + args.minibatch]
            dist, values = agent(data["obs"][rows], data["masks"][rows])
            ratio = torch.exp(dist.log_prob(data["actions"][rows]) - data["logprobs"][rows].float())
            clipped = torch.clamp(ratio, 1 - args.clip, 1 + args.clip)
            policy_loss = -torch.min(ratio * advantages[rows], clipped * advantages[rows]).mean()
            value_loss = ((values - data["returns"][rows].float()) ** 2).mean()
            entropy = dist.entropy().mean()
            loss = policy_loss + 0.5 * value_loss - args.entropy * entropy
            optimizer.zero_grad()
            loss.backward()
            nn.utils.clip_grad_norm_(agent.parameters(), 0.5)
            optimizer.step()
    return policy_loss.item(), value_loss.item(), entropy.item()


def main(argv: list[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--total-steps", type=int, default=200_000)
    parser.add_argument("--steps-per-update", type=int, default=4096)
    parser.add_argument("--tables", type=int, default=64)
    parser.add_argument("--decks", type=int, default=2)
    parser.add_argument("--hidden", type=int, default=256)
    parser.add_argument("--lr", type=float, default=3e-4)
    parser.add_argument("--gamma", type=float, default=1.0)
    parser.add_argument("--lam", type=float, default=0.95)
    parser.add_argument("--clip", type=float, default=0.2)
    parser.add_argument("--entropy", type=float, default=0.01)
    parser.add_argument("--epochs", type=int, default=4)
    parser.add_argument("--minibatch", type=int, default=512)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    torch.manual_seed(args.seed)
    agent = Agent(args.hidden)
    optimizer = torch.optim.Adam(agent.parameters(), lr=args.lr)
    batch = TableBatch(args.tables, seed=args.seed, decks=args.decks)
    out, pending = batch.reset(), defaultdict(list)
    done, started, stats = 0, time.perf_counter(), {}
    while done < args.total_steps:
        out, data, hands, rewards = collect(batch, out, agent, pending, args.steps_per_update, args)
        policy_loss, value_loss, entropy = update(agent, optimizer, data, args)
        done += len(data["actions"])
        stats = {
            "steps": done,
            "hands": hands,
            "policy_loss": policy_loss,
            "value_loss": value_loss,
            "entropy": entropy,
            "steps_per_s": done / (time.perf_counter() - started),
        }
        print(
            f"steps {done:>8}  hands {hands:>4}  team-0 reward {np.mean(rewards):+.2f}  "
            f"value loss {value_loss:.3f}  entropy {entropy:.2f}  "
            f"{stats['steps_per_s']:.0f} steps/s",
            flush=True,
        )
    return stats


if __name__ == "__main__":
    main()
