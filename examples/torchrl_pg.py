"""Shengji in TorchRL: its PettingZoo wrapper with the env's masks, a shared masked policy
for the four seats (``ProbabilisticActor`` over ``MaskedCategorical``), trained by
policy gradient with a mean baseline on rollouts TorchRL collects.

TorchRL's wrapper turns every info entry into a tensor, so :class:`TensorInfos` hands it
empty infos (the mask comes with the observation). The four seats are one group
(``agents``): at each step only the deciding seat's ``mask`` entry is set, and its action is
the one played; every seat's action is sampled, so the others get a mask that allows all
actions. The hand's team reward arrives at its last step to every seat; each acting step is
credited with its seat's reward at the end of that hand (no discount).

    python examples/torchrl_pg.py --iterations 20 --decks 2
"""

from __future__ import annotations

import argparse
import warnings

import torch
from pettingzoo.utils.wrappers import BaseWrapper
from tensordict import TensorDict
from tensordict.nn import TensorDictModule, TensorDictSequential
from torch import nn
from torchrl.envs.libs.pettingzoo import PettingZooWrapper
from torchrl.envs.utils import MarlGroupMapType
from torchrl.modules import MaskedCategorical, ProbabilisticActor

from shengji_env import shengji_v1
from shengji_env.actions import NUM_ACTIONS
from shengji_env.encoding import OBS_SIZE

GROUP = "agents"
OBS = (GROUP, "observation", "observation")


class TensorInfos(BaseWrapper):
    """The env with empty infos (views are Python objects, not tensors)."""

    @property
    def infos(self) -> dict[str, dict]:
        return {agent: {} for agent in self.env.infos}

    @infos.setter
    def infos(self, value: dict) -> None:  # PettingZoo's BaseWrapper assigns it
        pass


def make_env(decks: int, seed: int) -> PettingZooWrapper:
    warnings.filterwarnings("ignore", message="PettingZoo in TorchRL is tested")
    return PettingZooWrapper(
        TensorInfos(shengji_v1.env(decks=decks)),
        use_mask=True,
        categorical_actions=True,
        group_map=MarlGroupMapType.ALL_IN_ONE_GROUP,
        seed=seed,
    )


def sampling_mask(mask: torch.Tensor, acting: torch.Tensor) -> torch.Tensor:
    """The deciding seat's mask; every action for the seats whose action is not played."""
    return mask | ~acting.unsqueeze(-1)


def make_actor(hidden: int) -> ProbabilisticActor:
    net = nn.Sequential(nn.Linear(OBS_SIZE, hidden), nn.Tanh(), nn.Linear(hidden, NUM_ACTIONS))
    logits = TensorDictModule(net, in_keys=[OBS], out_keys=[(GROUP, "logits")])
    mask = TensorDictModule(
        sampling_mask,
        in_keys=[(GROUP, "action_mask"), (GROUP, "mask")],
        out_keys=[(GROUP, "sampling_mask")],
    )
    return ProbabilisticActor(
        TensorDictSequential(logits, mask),
        in_keys={"logits": (GROUP, "logits"), "mask": (GROUP, "sampling_mask")},
        out_keys=[(GROUP, "action")],
        distribution_class=MaskedCategorical,
        return_log_prob=True,
        log_prob_key=(GROUP, "log_prob"),
    )


def hand_returns(rollout: TensorDict) -> torch.Tensor:
    """Each step's (T, 4) return: the seat's reward at the end of the hand it is in (0 for
    a hand still being played when the rollout stopped)."""
    rewards = rollout["next", GROUP, "reward"].squeeze(-1)
    done = rollout["next", "done"].float()  # (T, 1)
    returns, following = torch.zeros_like(rewards), torch.zeros(rewards.shape[1])
    for t in range(rewards.shape[0] - 1, -1, -1):
        following = rewards[t] + following * (1.0 - done[t])
        returns[t] = following
    return returns


def main(argv: list[str] | None = None) -> list[float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--iterations", type=int, default=20)
    parser.add_argument("--steps", type=int, default=2000, help="env steps per iteration")
    parser.add_argument("--decks", type=int, default=2)
    parser.add_argument("--hidden", type=int, default=128)
    parser.add_argument("--lr", type=float, default=1e-3)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    torch.manual_seed(args.seed)
    env, actor = make_env(args.decks, args.seed), make_actor(args.hidden)
    optimizer = torch.optim.Adam(actor.parameters(), lr=args.lr)
    losses = []
    for iteration in range(args.iterations):
        with torch.no_grad():
            rollout = env.rollout(args.steps, actor, break_when_any_done=False)
        acting = rollout[GROUP, "mask"]
        returns = hand_returns(rollout)[acting]
        dist = actor.get_dist(rollout.exclude("next").clone())  # with gradients
        log_probs = dist.log_prob(rollout[GROUP, "action"])[acting]  # of the actions played
        advantages = returns - returns.mean()
        loss = -(log_probs * advantages).mean()
        optimizer.zero_grad()
        loss.backward()
        optimizer.step()
        hands = int(rollout["next", "done"].sum())
        losses.append(loss.item())
        print(
            f"iteration {iteration + 1}: {args.steps} env steps, {hands} hands ended, "
            f"loss {loss.item():+.4f}",
            flush=True,
        )
    return losses


if __name__ == "__main__":
    main()
