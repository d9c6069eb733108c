"""PPO's duplicate baseline: what HeuristicAgent scores from each seat on a hand's own deal.

On the compiled core its copy of the heuristic (``csrc/bots.cpp``: the same bids, buries,
leads and follows, ties included, from hands in card order) plays the whole hand in one
call. The attackers' final points then give each seat's reward and point score exactly as
the environment's own end of hand would. Without the core the whole hand is played in
Python (:func:`shengji_env.agents.play.play_hand`).
"""

from __future__ import annotations

from typing import Any

from shengji_env.agents import HeuristicAgent
from shengji_env.agents.play import play_hand
from shengji_env.core import load_core, rule_arguments, state_of
from shengji_env.env import points_rewards, raw_env


class HeuristicBaseline:
    """Each seat's reward and point score when HeuristicAgent plays all four seats of a
    deal, by deck count, on environments made from ``env_options``."""

    def __init__(self, env_options: dict[str, Any]) -> None:
        self.env_options = env_options
        self.bot = HeuristicAgent()
        self.envs: dict[int, Any] = {}
        self.tables: dict[int, Any] = {}

    def score(self, decks: int, seed: int) -> tuple[list[float], list[float]]:
        """``(rewards, point scores)`` of the four seats on deal ``seed`` at ``decks``
        (point scores as :func:`point_bands` gives them)."""
        env = self._env(decks)
        if load_core() is None:
            return play_hand(env, [self.bot] * 4, seed), point_scores(env.game)
        env.reset(seed=seed)
        return self.score_hand(env.game, env.reward_kind)

    def score_hand(self, game: Any, reward_kind: str) -> tuple[list[float], list[float]]:
        """:meth:`score` of a hand already dealt (``game``, not changed), on the core."""
        decks = game.config.decks
        table = self._table(decks, game.config)
        table.load(state_of(game))
        total, dealer = table.heuristic_hand()
        team_rewards = points_rewards(dealer, total, reward_kind, game.config)
        rewards = [team_rewards[seat % 2] for seat in range(4)]
        return rewards, point_bands(total, dealer, decks)

    def _env(self, decks: int) -> Any:
        if decks not in self.envs:
            self.envs[decks] = raw_env(**{**self.env_options, "decks": decks})
        return self.envs[decks]

    def _table(self, decks: int, config: Any) -> Any:
        if decks not in self.tables:
            core = load_core()
            self.tables[decks] = core.Table(**rule_arguments(config), match=False, points=True)
        return self.tables[decks]


def point_bands(attacker_points: int, dealer: int, decks: int) -> list[float]:
    """Each seat's points in a finished hand, in bands (20 points a deck): the attacker
    points for an attacker, minus them for a defender."""
    attackers = attacker_points / (20.0 * decks)
    return [attackers if (seat - dealer) % 2 else -attackers for seat in range(4)]


def point_scores(game: Any) -> list[float]:
    """Each seat's points in a finished hand, in bands (see :func:`point_bands`)."""
    result = game.result
    return point_bands(result.attacker_points, result.dealer, game.config.decks)
