"""The PettingZoo AEC environment (docs/design.md: "Actions", "Observations", "Rewards").

``raw_env(**options)`` raises :class:`~shengji_env.rules.IllegalMoveError` with the
reason on an illegal action; ``env(**options)`` wraps it the way PettingZoo's classic
games are wrapped (an illegal action ends the game and that agent loses).

Options: every :class:`~shengji_env.rules.RuleConfig` field (``start_level`` may also be
``"random"``: a level drawn per episode), ``episode`` (``"hand"`` or ``"match"``),
``reward`` (``"levels"`` or ``"points"``) and ``render_mode`` (``"ansi"`` or ``"human"``).
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils import wrappers

from .actions import COMMIT, NUM_ACTIONS, Decision
from .encoding import OBS_SIZE, ObservationEncoder
from .render import render_text
from .rules import Game, HandResult, IllegalMoveError, Phase, RuleConfig, team_of
from .rules.cards import RANKS
from .view import seat_view

EPISODES = ("hand", "match")
REWARDS = ("levels", "points")
RENDER_MODES = ("ansi", "human")
_RULE_FIELDS = tuple(field.name for field in dataclasses.fields(RuleConfig))


def env(**options: Any) -> AECEnv:
    """The wrapped environment: illegal actions end the episode with that agent losing."""
    wrapped: AECEnv = raw_env(**options)
    wrapped = wrappers.TerminateIllegalWrapper(wrapped, illegal_reward=-1)
    wrapped = wrappers.AssertOutOfBoundsWrapper(wrapped)
    return wrappers.OrderEnforcingWrapper(wrapped)


def hand_rewards(result: HandResult, reward: str, config: RuleConfig) -> tuple[float, float]:
    """Rewards of (team 0, team 1) at the end of a hand; zero-sum."""
    attackers = 1 - team_of(result.dealer)
    if reward == "points":
        threshold = 2 * config.band
        margin = float(np.clip((result.attacker_points - threshold) / threshold, -1.0, 1.0))
        attacker_reward = margin
    elif result.winner == "dealer":
        attacker_reward = -float(result.levels_gained)
    else:
        attacker_reward = 1.0 + result.levels_gained  # a take-over must be worth something
    return (
        (attacker_reward, -attacker_reward)
        if attackers == 0
        else (-attacker_reward, attacker_reward)
    )


def action_id(action: Any) -> int:
    """``action`` as an action id: an int or a numpy integer (a 0-d integer array too);
    floats, strings and bools are refused, not rounded or parsed."""
    if isinstance(action, np.ndarray) and action.ndim == 0:
        action = action[()]
    if isinstance(action, bool | np.bool_) or not isinstance(action, int | np.integer):
        raise IllegalMoveError(
            f"an action is an integer id 0..{NUM_ACTIONS - 1}, not {type(action).__name__} "
            f"{action!r}"
        )
    return int(action)


class raw_env(AECEnv):  # PettingZoo names the unwrapped env class raw_env
    """Shengji for four agents, ``player_0`` … ``player_3`` (seats 0–3)."""

    metadata: ClassVar[dict[str, Any]] = {
        "render_modes": list(RENDER_MODES),
        "name": "shengji_v0",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, **options: Any) -> None:
        super().__init__()
        known = (*_RULE_FIELDS, "episode", "reward", "render_mode")
        unknown = sorted(set(options) - set(known))
        if unknown:
            raise ValueError(
                f"unknown option(s) {', '.join(unknown)}; known: {', '.join(sorted(known))}"
            )
        rule_options = {key: options[key] for key in _RULE_FIELDS if key in options}
        self.random_level = rule_options.get("start_level") == "random"
        if self.random_level:
            rule_options["start_level"] = "2"
        self.config = RuleConfig(**rule_options)
        self.episode = options.get("episode", "hand")
        self.reward_kind = options.get("reward", "levels")
        self.render_mode = options.get("render_mode")
        for name, value, allowed in (
            ("episode", self.episode, EPISODES),
            ("reward", self.reward_kind, REWARDS),
            ("render_mode", self.render_mode, (*RENDER_MODES, None)),
        ):
            if value not in allowed:
                raise ValueError(f"{name} must be one of {allowed}, got {value!r}")
        self.possible_agents = [f"player_{seat}" for seat in range(4)]
        self.agents = list(self.possible_agents)
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self._action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._observation_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._action_space)
        self.encoder = ObservationEncoder(self.config)
        self._np_random: np.random.Generator | None = None
        self.game: Game | None = None
        self.decision: Decision | None = None
        self._version = 0

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    # --- episode -------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        rng = self._np_random
        game_seed = int(rng.integers(2**62))
        config = self.config
        if self.random_level:
            config = dataclasses.replace(config, start_level=RANKS[int(rng.integers(13))])
        self.game = Game(config, seed=game_seed)
        self.encoder.reset()
        self._version = 0
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._start_decision()

    def _start_decision(self) -> None:
        game = self._game()
        decision = Decision(game)
        self.decision = decision
        self.agent_selection = self.possible_agents[decision.seat]
        self._view = seat_view(game, decision.seat, decision.kind)
        self._update_info(decision)

    def _update_info(self, decision: Decision) -> None:
        self.infos[self.agent_selection] = {
            "view": self._view,
            "selection": tuple(decision.selection),
            "action_mask": decision.mask,
        }

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        decision = self.decision
        assert decision is not None
        action = action_id(action)
        if not decision.allows(action):
            raise IllegalMoveError(f"{agent}: {decision.why_illegal(action)}")
        self._cumulative_rewards[agent] = 0.0
        self.rewards = dict.fromkeys(self.agents, 0.0)
        if action != COMMIT:
            decision.add(action)
        if action == COMMIT or decision.only_commit:
            self._commit(decision)
        else:
            self._update_info(decision)
        self._accumulate_rewards()
        if self.render_mode == "human":
            self.render()

    def _commit(self, decision: Decision) -> None:
        game = self._game()
        game.step(decision.selection, trusted=True)  # the mask is exact: no second check
        self._version += 1
        if game.phase is Phase.HAND_OVER and self.episode == "match":
            game.next_hand()
        if game.phase in (Phase.HAND_OVER, Phase.MATCH_OVER):
            self._finish(game)
        else:
            self._start_decision()

    def _finish(self, game: Game) -> None:
        result = game.result
        assert result is not None
        if self.episode == "match":
            winner = game.match_winner
            team_rewards = (1.0, -1.0) if winner == 0 else (-1.0, 1.0)
        else:
            team_rewards = hand_rewards(result, self.reward_kind, game.config)
        for seat, agent in enumerate(self.possible_agents):
            self.rewards[agent] = team_rewards[seat % 2]
            self.terminations[agent] = True
            self.infos[agent] = {
                "view": seat_view(game, seat),
                "action_mask": np.zeros(NUM_ACTIONS, np.int8),
                "result": result,
            }
        self.decision = None

    # --- observation and rendering -------------------------------------------------------

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self.possible_agents.index(agent)
        decision = self.decision
        mine = decision is not None and decision.seat == seat
        return {
            "observation": self.encoder.encode(self._game(), seat, decision, self._version),
            "action_mask": decision.mask if mine and decision else np.zeros(NUM_ACTIONS, np.int8),
        }

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = render_text(self._game(), self.decision)
        if self.render_mode == "human":
            print(text)  # noqa: T201 — "human" rendering prints by definition
            return None
        return text

    def close(self) -> None:
        pass

    def _game(self) -> Game:
        if self.game is None:
            raise RuntimeError("call reset() before using the environment")
        return self.game
