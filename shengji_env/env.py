"""The PettingZoo AEC environment (docs/design.md: "Actions", "Observations", "Rewards").

``raw_env(**options)`` raises :class:`~shengji_env.rules.IllegalMoveError` with the
reason on an illegal action; ``env(**options)`` behaves the way PettingZoo's classic
games are wrapped (an illegal action ends the game and that agent loses).

Options: every :class:`~shengji_env.rules.RuleConfig` field (``start_level`` may also be
``"random"``: a level drawn per episode), ``episode`` (``"hand"`` or ``"match"``),
``start`` (``"match"``: the first hand of a match, both teams at the start level and the
first declarer dealing, §4; ``"mid_match"``, hand episodes only: a hand as it comes
inside a match, the dealer seat and each team's level drawn per episode, the hand played
at the dealer team's level), ``reward`` (``"levels"`` or ``"points"``), ``render_mode``
(``"ansi"`` or ``"human"``) and
``engine``: ``"core"`` (the compiled core, the default where it is built) or ``"python"``
(the reference engine). Both give the same observations, masks, rewards and views.
"""

from __future__ import annotations

import dataclasses
from typing import Any, ClassVar

import numpy as np
from gymnasium import spaces
from gymnasium.utils import seeding
from pettingzoo import AECEnv
from pettingzoo.utils.env_logger import EnvLogger

from .actions import NUM_ACTIONS, Decision
from .core import ENGINES, default_engine
from .encoding import OBS_SIZE
from .engines import COMMITTED, OVER, SELECTED, Engine, make_engine
from .info import LazyInfo
from .render import render_text
from .rules import Game, HandResult, IllegalMoveError, Phase, RuleConfig, team_of
from .rules.cards import RANKS
from .rules.scoring import level_change

EPISODES = ("hand", "match")
STARTS = ("match", "mid_match")


def mid_match_hand(
    config: RuleConfig, seed: int, rng: np.random.Generator, any_level: bool
) -> Game:
    """A hand as it comes inside a match: a dealer seat, and each team's level from the
    start level to A (any level with ``start_level="random"``), drawn from ``rng``; the
    cards from ``seed``. The hand is played at the dealer team's level."""
    low = 0 if any_level else config.start_level_index
    levels = (int(rng.integers(low, 13)), int(rng.integers(low, 13)))
    return Game(config, seed=seed, levels=levels, dealer=int(rng.integers(4)))


REWARDS = ("levels", "points")
RENDER_MODES = ("ansi", "human")
_RULE_FIELDS = tuple(field.name for field in dataclasses.fields(RuleConfig))


def env(**options: Any) -> AECEnv:
    """The classic environment: an illegal action ends the episode with that agent losing
    (-1, the others 0), an action outside the action space is an ``AssertionError``, and
    calls out of order are refused — PettingZoo's ``TerminateIllegalWrapper``,
    ``AssertOutOfBoundsWrapper`` and ``OrderEnforcingWrapper``, built in rather than
    stacked, so that a step pays for none of the wrapper chain's attribute forwarding."""
    return ClassicEnv(**options)


def hand_rewards(result: HandResult, reward: str, config: RuleConfig) -> tuple[float, float]:
    """Rewards of (team 0, team 1) at the end of a hand; zero-sum."""
    return points_rewards(result.dealer, result.attacker_points, reward, config)


def points_rewards(
    dealer: int, attacker_points: int, reward: str, config: RuleConfig
) -> tuple[float, float]:
    """Rewards of (team 0, team 1) of a hand that ended with the attackers' ``attacker_points``
    (kitty and penalties counted), from the level change they make (§7)."""
    attackers = 1 - team_of(dealer)
    if reward == "points":
        threshold = 2 * config.band
        attacker_reward = float(np.clip((attacker_points - threshold) / threshold, -1.0, 1.0))
    else:
        winner, gained = level_change(attacker_points, config)
        # a take-over must be worth something: the attackers' reward is one more than their gain
        attacker_reward = 1.0 + gained if winner == "attackers" else -float(gained)
    return (
        (attacker_reward, -attacker_reward)
        if attackers == 0
        else (-attacker_reward, attacker_reward)
    )


def action_id(action: Any) -> int:
    """``action`` as an action id: an int or a numpy integer (a 0-d integer array too);
    floats, strings and bools are refused, not rounded or parsed."""
    if type(action) is int:
        return action
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
        "name": "shengji_v1",
        "is_parallelizable": False,
        "render_fps": 1,
    }

    def __init__(self, **options: Any) -> None:
        super().__init__()
        known = (*_RULE_FIELDS, "episode", "start", "reward", "render_mode", "engine")
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
        self.start = options.get("start", "match")
        self.reward_kind = options.get("reward", "levels")
        self.render_mode = options.get("render_mode")
        self.engine_name = options.get("engine") or default_engine()
        for name, value, allowed in (
            ("episode", self.episode, EPISODES),
            ("start", self.start, STARTS),
            ("reward", self.reward_kind, REWARDS),
            ("render_mode", self.render_mode, (*RENDER_MODES, None)),
            ("engine", self.engine_name, ENGINES),
        ):
            if value not in allowed:
                raise ValueError(f"{name} must be one of {allowed}, got {value!r}")
        if self.start == "mid_match" and self.episode != "hand":
            raise ValueError("start='mid_match' draws single hands: it needs episode='hand'")
        self.possible_agents = [f"player_{seat}" for seat in range(4)]
        self.agents = list(self.possible_agents)
        self._seats = {agent: seat for seat, agent in enumerate(self.possible_agents)}
        self._observation_space = spaces.Dict(
            {
                "observation": spaces.Box(0.0, 1.0, (OBS_SIZE,), np.float32),
                "action_mask": spaces.Box(0, 1, (NUM_ACTIONS,), np.int8),
            }
        )
        self._action_space = spaces.Discrete(NUM_ACTIONS)
        self.observation_spaces = dict.fromkeys(self.possible_agents, self._observation_space)
        self.action_spaces = dict.fromkeys(self.possible_agents, self._action_space)
        self.engine: Engine = make_engine(
            self.config, self.engine_name, self.episode == "match", self.reward_kind == "points"
        )
        self._np_random: np.random.Generator | None = None

    def observation_space(self, agent: str) -> spaces.Space:
        return self.observation_spaces[agent]

    def action_space(self, agent: str) -> spaces.Space:
        return self.action_spaces[agent]

    @property
    def game(self) -> Game:
        """The game as the reference engine's :class:`Game` (with the core: a copy of its
        state, made when read)."""
        return self.engine.game()

    @property
    def decision(self) -> Decision | None:
        """The current decision as a reference :class:`Decision`, ``None`` once over."""
        return self.engine.decision()

    # --- episode -------------------------------------------------------------------------

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        """A new episode. ``options={"hand": game}`` plays the hand of ``game`` (a
        :class:`Game` in its deal before any declaration, not changed), such as a match's
        next hand (``game.clone()``, then :meth:`Game.next_hand`); otherwise the option
        ``start`` draws the hand."""
        if seed is not None or self._np_random is None:
            self._np_random, _ = seeding.np_random(seed)
        hand = self._given_hand(options)
        if hand is not None:
            self.engine.start(hand)
        else:
            self._draw_hand(self._np_random)
        self.agents = list(self.possible_agents)
        self.rewards = dict.fromkeys(self.agents, 0.0)
        self._cumulative_rewards = dict.fromkeys(self.agents, 0.0)
        self.terminations = dict.fromkeys(self.agents, False)
        self.truncations = dict.fromkeys(self.agents, False)
        self.infos = {agent: {} for agent in self.agents}
        self._start_decision()

    def _draw_hand(self, rng: np.random.Generator) -> None:
        game_seed = int(rng.integers(2**62))
        config = self.config
        if self.random_level:
            config = dataclasses.replace(config, start_level=RANKS[int(rng.integers(13))])
        if self.start == "mid_match":
            self.engine.start(mid_match_hand(config, game_seed, rng, self.random_level))
        else:
            self.engine.reset(config, game_seed)

    def _given_hand(self, options: dict | None) -> Game | None:
        """The ``hand`` reset option, checked: a game of this env's rules, not yet bid on.
        Other options are ignored, as PettingZoo's API test expects."""
        hand = (options or {}).get("hand")
        if hand is None:
            return None
        if not isinstance(hand, Game):
            raise ValueError(f"the hand option takes a Game, not {type(hand).__name__}")
        if hand.phase is not Phase.BID or hand.bids:
            raise ValueError(
                "the hand option takes a hand in its deal before any declaration, not one in "
                f"{hand.phase.value} with {len(hand.bids)} declaration(s)"
            )
        ours = dataclasses.replace(self.config, start_level=hand.config.start_level)
        if hand.config != ours:
            differences = ", ".join(
                f"{field}: {getattr(hand.config, field)!r}, env {getattr(ours, field)!r}"
                for field in _RULE_FIELDS
                if getattr(hand.config, field) != getattr(ours, field)
            )
            raise ValueError(f"the hand is played under other rules than the env's ({differences})")
        return hand

    def _start_decision(self) -> None:
        seat = self.engine.seat()
        self.agent_selection = agent = self.possible_agents[seat]
        self.infos[agent] = LazyInfo(self.engine, seat)

    def step(self, action: Any) -> None:
        agent = self.agent_selection
        if agent not in self.terminations:
            raise ValueError("the episode is over: call reset() before stepping again")
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        if type(action) is not int:
            action = action_id(action)
        code = self.engine.step(action)
        # Rewards are all zero until the hand ends, and cumulative ones too: nothing to add.
        if code == SELECTED:
            self.infos[agent] = LazyInfo(self.engine, self._seats[agent])
        elif code == COMMITTED:
            self._start_decision()
        elif code == OVER:
            self._finish()
        else:
            raise IllegalMoveError(f"{agent}: {self.engine.why_illegal(action)}")
        if self.render_mode == "human":
            self.render()

    def _finish(self) -> None:
        engine = self.engine
        team_rewards = engine.team_rewards()
        if team_rewards is None:
            team_rewards = self._team_rewards(engine.game())
        self.rewards = {}
        for seat, agent in enumerate(self.possible_agents):
            self.rewards[agent] = float(team_rewards[seat % 2])
            self.terminations[agent] = True
            self.infos[agent] = LazyInfo(engine, seat, over=True)
        self._cumulative_rewards[self.agent_selection] = 0.0
        self._accumulate_rewards()

    def _team_rewards(self, game: Game) -> tuple[float, float]:
        if self.episode == "match":
            return (1.0, -1.0) if game.match_winner == 0 else (-1.0, 1.0)
        result = game.result
        assert result is not None
        return hand_rewards(result, self.reward_kind, game.config)

    # --- observation and rendering -------------------------------------------------------

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        seat = self._seats[agent]
        engine = self.engine
        return {"observation": engine.observation(seat), "action_mask": engine.mask_of(seat)}

    def render(self) -> str | None:
        if self.render_mode is None:
            return None
        text = render_text(self.game, self.decision)
        if self.render_mode == "human":
            print(text)  # noqa: T201 — "human" rendering prints by definition
            return None
        return text

    def close(self) -> None:
        pass


_BEFORE_RESET = frozenset(
    ("rewards", "terminations", "truncations", "infos", "agent_selection", "num_agents", "agents")
)


class ClassicEnv(raw_env):
    """:func:`env`: the raw env with PettingZoo's classic-game wrappers' behaviour built in."""

    def __init__(self, **options: Any) -> None:
        super().__init__(**options)
        del self.agents  # as OrderEnforcingWrapper: no agents before reset
        self._has_reset = False
        self._illegal_end = False

    def __getattr__(self, name: str) -> Any:
        if name in _BEFORE_RESET:
            raise AttributeError(f"{name} cannot be accessed before reset")
        raise AttributeError(f"{type(self).__name__!r} object has no attribute {name!r}")

    def __str__(self) -> str:
        return self.metadata["name"]

    def reset(self, seed: int | None = None, options: dict | None = None) -> None:
        self._has_reset = True
        self._illegal_end = False
        super().reset(seed=seed, options=options)

    def step(self, action: Any) -> None:
        if not self._has_reset:
            EnvLogger.error_step_before_reset()
        if not self.agents:
            EnvLogger.warn_step_after_terminated_truncated()
            return
        agent = self.agent_selection
        done = self.terminations[agent] or self.truncations[agent]
        if type(action) is not int or not 0 <= action < NUM_ACTIONS:
            assert (action is None and done) or self._action_space.contains(action), (
                "action is not in action space"
            )
        if done:
            self._was_dead_step(action)
        elif not self.engine.allows(int(action)):
            self._end_on_illegal(agent)
        else:
            super().step(action)

    def _end_on_illegal(self, agent: str) -> None:
        """TerminateIllegalWrapper's ending: the agent that moved illegally gets -1."""
        EnvLogger.warn_on_illegal_move()
        self._cumulative_rewards[agent] = 0
        self.terminations = dict.fromkeys(self.agents, True)
        self.truncations = dict.fromkeys(self.agents, True)
        self.rewards = dict.fromkeys(self.truncations, 0)
        self.rewards[agent] = -1.0
        self._accumulate_rewards()
        self._deads_step_first()
        self._illegal_end = True

    def observe(self, agent: str) -> dict[str, np.ndarray]:
        if not self._has_reset:
            EnvLogger.error_observe_before_reset()
        return super().observe(agent)

    def render(self) -> str | None:
        if not self._has_reset:
            EnvLogger.error_render_before_reset()
        return super().render()

    def state(self) -> np.ndarray:
        if not self._has_reset:
            EnvLogger.error_state_before_reset()
        return super().state()

    def agent_iter(self, max_iter: int = 2**63) -> Any:
        if not self._has_reset:
            EnvLogger.error_agent_iter_before_reset()
        return super().agent_iter(max_iter)
