"""One-step improvement on the heuristic: the true value of every first card it could play.

HeuristicAgent plays all four seats. At every lead, and every follow of a one-card lead,
where the seat has more than one card to start with, each legal first card is played out
on the true deal — the heuristic's own plan when the card starts it, the card alone
otherwise — with the heuristic playing every seat after it. The value of each card is the
seat's hand reward (levels) and its team's card points, exact for that deal: the heuristic
is deterministic, so the advice's value is the hand's own result.

Regressed on the observation, these values give E[value | what the seat sees] for every
candidate, and a policy that takes the best of them is a policy-improvement step over the
heuristic (against heuristic play). Every candidate of every state is a target, not only
the rare states where a search departs. A lead of a single card the heuristic would not
play also needs the ``COMMIT`` that ends it: those steps are kept as demonstrations.

    python -m train.improve --out checkpoints/full/first-card-values --first 0 --parts 20
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
import torch

from agents import HeuristicAgent
from agents.advice import NO_LABEL
from agents.knowledge import is_attacker
from shengji_env.actions import COMMIT, NUM_ACTIONS, DecisionKind
from shengji_env.encoding import SeatView, seat_view
from shengji_env.env import hand_rewards, raw_env
from shengji_env.rules import Game, Phase

from . import parts as parts_io
from .bc import Demonstrations, play_hand
from .network import PolicyNet
from .parts import Arrays, Columns

DEALS_PER_PART = 20
COMMIT_STRIDE = 4  # every 4th COMMIT step is kept for the clone: there are 4 a valued lead
PART_SEED = 2_000_003  # deal seeds of part p: p * PART_SEED + 0..DEALS_PER_PART-1


@dataclass
class FirstCardValues(Columns):
    """States with the value of each legal first card (NaN for the other actions)."""

    obs: np.ndarray  # float16 [n, OBS_SIZE]
    masks: np.ndarray  # int8 [n, 55]
    advice: np.ndarray  # int64 [n]: the heuristic's first card
    levels: np.ndarray  # float32 [n, 55]: the seat's hand reward
    points: np.ndarray  # float32 [n, 55]: its team's card points (attackers' total or minus)


def first_card_plays(view: SeatView, mask: np.ndarray, plan: list[int]) -> dict[int, list[int]]:
    """The play each legal first card stands for, in a decision of one-card plays (a lead,
    or a follow of a one-card lead); empty elsewhere or where there is no choice."""
    one_card = view.kind is DecisionKind.LEAD or (
        view.kind is DecisionKind.FOLLOW and len(view.trick[0]) == 1
    )
    if not one_card:
        return {}
    cards = [int(a) for a in np.flatnonzero(mask) if a != COMMIT]
    if len(cards) < 2:
        return {}
    return {card: plan if card == plan[0] else [card] for card in cards}


def play_out(
    game: Game, seat: int, play: list[int], bot: HeuristicAgent, reward: str
) -> tuple[float, float]:
    """``play`` then the heuristic in every seat to the end of the hand: the seat's reward
    and its team's card points."""
    game.play(play)
    while game.phase is Phase.PLAY:
        player = game.current_player
        kind = DecisionKind.FOLLOW if game.trick else DecisionKind.LEAD
        game.play(bot.decide(seat_view(game, player, kind)), trusted=True)
    result = game.result
    assert result is not None
    attackers = is_attacker(seat_view(game, seat))
    points = result.attacker_points if attackers else -result.attacker_points
    return hand_rewards(result, reward, game.config)[seat % 2], float(points)


class _Recorder:
    """Plays each first card out at every decision of a heuristic hand it is shown."""

    def __init__(self, env: Any) -> None:
        self.env = env
        self.bot = HeuristicAgent()
        self.states: list[tuple[np.ndarray, np.ndarray, int, np.ndarray, np.ndarray]] = []
        self.commits: list[tuple[np.ndarray, np.ndarray, float]] = []

    def __call__(
        self, seat: int, observed: dict[str, Any], info: dict[str, Any], action: int
    ) -> None:
        if info.get("selection"):
            return
        env, view = self.env, info["view"]
        plays = first_card_plays(view, observed["action_mask"], list(self.bot.decide(view)))
        if not plays:
            return
        levels = np.full(NUM_ACTIONS, np.nan, np.float32)
        points = np.full(NUM_ACTIONS, np.nan, np.float32)
        for card, play in plays.items():
            levels[card], points[card] = play_out(
                env.game.clone(), seat, play, self.bot, env.reward_kind
            )
        self.states.append(
            (observed["observation"], observed["action_mask"], action, levels, points)
        )
        if view.kind is DecisionKind.LEAD:
            for card in plays:
                if card != action:
                    self._commit_step(seat, card, float(levels[card] - levels[action]))

    def _commit_step(self, seat: int, card: int, gain: float) -> None:
        """The step after leading ``card`` alone: the policy must ``COMMIT``."""
        decision = self.env.decision.clone()
        decision.add(card)
        obs = self.env.encoder.encode(self.env.game, seat, decision)
        self.commits.append((obs, decision.mask.copy(), gain))


def value_part(env_options: dict[str, Any], part: int) -> Arrays:
    """Part ``part``: ``DEALS_PER_PART`` heuristic deals with every first card played out."""
    env = raw_env(**env_options)
    recorder = _Recorder(env)
    for deal in range(DEALS_PER_PART):
        play_hand(env, [recorder.bot] * 4, part * PART_SEED + deal, recorder)
    obs, masks, advice, levels, points = zip(*recorder.states, strict=True)
    commit_obs = [obs for obs, _, _ in recorder.commits]
    return {
        "obs": np.array(obs, dtype=np.float16),
        "masks": np.array(masks, dtype=np.int8),
        "advice": np.array(advice, dtype=np.int64),
        "levels": np.array(levels, dtype=np.float32),
        "points": np.array(points, dtype=np.float32),
        "commit_obs": np.array(commit_obs, dtype=np.float16).reshape(-1, len(obs[0])),
        "commit_masks": np.array([m for _, m, _ in recorder.commits], np.int8).reshape(
            -1, NUM_ACTIONS
        ),
        "commit_gains": np.array([g for _, _, g in recorder.commits], dtype=np.float32),
    }


def make_parts(folder: Path, count: int, env_options: dict[str, Any], workers: int) -> None:
    """Parts 0 .. ``count``-1 in ``folder``, the missing ones made by ``workers`` processes."""
    parts_io.make_parts(folder, count, functools.partial(value_part, env_options), workers)


def load_parts(folder: Path, count: int = 0) -> tuple[FirstCardValues, Demonstrations]:
    """The states with first-card values, and every ``COMMIT_STRIDE``-th ``COMMIT`` step of a
    single-card lead as demonstrations (no advice; the value target is the lead's gain over
    the heuristic's).

    Raises:
        ValueError: no parts, a part missing or unreadable, or not a first-card value part.
    """
    values, commits = [], []
    for index, arrays in enumerate(parts_io.read_parts(folder, count)):
        try:
            values.append(FirstCardValues.from_arrays(arrays))
            kept = slice(None, None, COMMIT_STRIDE)
            n = len(arrays["commit_gains"][kept])
            commits.append(
                Demonstrations(
                    arrays["commit_obs"][kept],
                    arrays["commit_masks"][kept],
                    np.full(n, COMMIT, np.int64),
                    arrays["commit_gains"][kept],
                    np.full(n, NO_LABEL, np.int64),
                )
            )
        except KeyError as error:
            message = f"{folder}: part {index} is not a first-card value part ({error})"
            raise ValueError(message) from error
    return FirstCardValues.concatenate(values), Demonstrations.concatenate(commits)


def main(argv: Sequence[str] | None = None) -> int:
    parser = parts_io.part_parser(__doc__.split("\n\n")[0], "first-card value parts")
    args = parser.parse_args(argv)
    make = functools.partial(value_part, {"decks": args.decks})
    parts_io.write_parts(args.out, parts_io.chosen_parts(args), make)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())


def first_card_targets(values: FirstCardValues, points_share: float, band: float) -> np.ndarray:
    """Each first card's value (levels and card points in bands, mixed) minus the
    advice's; NaN where no card was played out."""
    value = (1 - points_share) * values.levels + points_share * values.points / band
    rows = np.arange(len(values))
    return value - value[rows, values.advice][:, None]


def first_card_loss(
    net: PolicyNet, values: FirstCardValues, targets: np.ndarray, temperature: float
) -> tuple[torch.Tensor, torch.Tensor]:
    """Mean squared error of the logits' differences to the advice's logit against the
    value differences over ``temperature``; and the logits."""
    obs = torch.from_numpy(values.obs.astype(np.float32))
    advice = torch.from_numpy(values.advice)
    logits, _ = net(obs, torch.from_numpy(values.masks), advice)
    gaps = logits - logits.gather(1, advice[:, None])
    target = torch.from_numpy(targets) / temperature
    known = torch.isfinite(target)
    errors = torch.where(known, gaps - torch.nan_to_num(target), torch.zeros_like(gaps))
    return (errors**2).sum() / known.sum().clamp(min=1), logits


@torch.no_grad()
def evaluate_first_cards(
    net: PolicyNet, values: FirstCardValues, targets: np.ndarray, temperature: float
) -> dict[str, float]:
    """Held-out scores of the policy's top first card: how often it departs from the advice,
    and its true gain over the advice per decision (levels, card points; the departures
    alone), the one-step improvement it would make on the heuristic."""
    errors, choices = [], []
    for start in range(0, len(values), 4096):
        part = np.arange(start, min(len(values), start + 4096))
        error, logits = first_card_loss(net, values.subset(part), targets[part], temperature)
        errors.append(float(error) * len(part))
        choices.append(logits.argmax(-1).numpy())
    choice = np.concatenate(choices)
    rows = np.arange(len(values))
    departs = choice != values.advice
    levels = values.levels[rows, choice] - values.levels[rows, values.advice]
    points = values.points[rows, choice] - values.points[rows, values.advice]
    return {
        "improve/mse": sum(errors) / max(1, len(values)),
        "improve/departures": float(departs.mean()),
        "improve/gain_levels": float(np.nan_to_num(levels).mean()),
        "improve/gain_points": float(np.nan_to_num(points).mean()),
        "improve/departure_gain_levels": float(levels[departs].mean()) if departs.any() else 0.0,
        "improve/states": float(len(values)),
    }
