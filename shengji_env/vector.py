"""Many tables stepped in one call on the compiled core, for training.

``TableBatch`` holds ``num_tables`` games. Each step takes one action per table — the card
or ``COMMIT`` of whichever seat decides there — and writes, with no Python per table and
the GIL released, every table's next observation (of the seat that decides next), its
mask, that seat, the rewards of the four seats and a done flag. A table whose episode
ended deals its next one at once (its rewards and done flag say so in that step's
output; its observation is already the new episode's first) — or, with ``redeal=False``,
stays over, its game readable, until :meth:`TableBatch.start` gives it a hand dealt
elsewhere (a mid-match hand, another deck count). The arrays returned are the batch's own
buffers, overwritten by the next call: copy what you keep.
"""

from __future__ import annotations

import dataclasses
from typing import Any

import numpy as np

from .actions import NUM_ACTIONS
from .core import require_core, rule_arguments, state_of
from .encoding import OBS_SIZE
from .env import EPISODES, REWARDS
from .rules import Game, IllegalMoveError, RuleConfig


@dataclasses.dataclass(frozen=True)
class BatchStep:
    """One step's output for every table (arrays of the batch, shape ``(N, ...)``)."""

    observations: np.ndarray  # float32 (N, OBS_SIZE)
    masks: np.ndarray  # int8 (N, 55)
    seats: np.ndarray  # int32 (N,): the seat that decides next
    rewards: np.ndarray  # float32 (N, 4): each seat's reward where an episode ended, else 0
    dones: np.ndarray  # bool (N,): the episode ended (and the next one began)


class TableBatch:
    """``num_tables`` tables of one rule set. Options: the :class:`RuleConfig` fields,
    ``episode`` (``"hand"``/``"match"``) and ``reward`` (``"levels"``/``"points"``), as for
    :func:`shengji_env.env.raw_env`; ``seed`` fixes every deal of every table; ``redeal``
    (default True) deals a finished table's next episode at once."""

    def __init__(self, num_tables: int, seed: int = 0, redeal: bool = True, **options: Any) -> None:
        if isinstance(num_tables, bool) or not isinstance(num_tables, int) or num_tables < 1:
            raise ValueError(f"num_tables must be an int >= 1, got {num_tables!r}")
        if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed < 2**64:
            raise ValueError(f"seed must be an int in 0..2**64-1, got {seed!r}")
        episode = options.pop("episode", "hand")
        reward = options.pop("reward", "levels")
        if episode not in EPISODES:
            raise ValueError(f"episode must be one of {EPISODES}, got {episode!r}")
        if reward not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, got {reward!r}")
        self.config = RuleConfig.from_dict(options)
        self.num_tables = num_tables
        self._batch = require_core().TableBatch(
            num_tables,
            **rule_arguments(self.config),
            match=episode == "match",
            points=reward == "points",
            seed=seed,
            redeal=redeal,
        )
        self._out = BatchStep(
            observations=np.zeros((num_tables, OBS_SIZE), np.float32),
            masks=np.zeros((num_tables, NUM_ACTIONS), np.int8),
            seats=np.zeros(num_tables, np.int32),
            rewards=np.zeros((num_tables, 4), np.float32),
            dones=np.zeros(num_tables, np.bool_),
        )
        self._actions = np.zeros(num_tables, np.int64)

    @property
    def episodes(self) -> int:
        """Episodes finished so far, over all tables."""
        return self._batch.episodes

    def reset(self) -> BatchStep:
        """Deal every table; returns the first observations (rewards 0, dones False)."""
        out = self._out
        self._batch.reset(out.observations, out.masks, out.seats)
        out.rewards.fill(0.0)
        out.dones.fill(False)
        return out

    def step(self, actions: np.ndarray) -> BatchStep:
        """One action per table (ints, shape ``(N,)``).

        Raises:
            IllegalMoveError: naming the first table whose action its mask forbids; then
                no table is stepped.
        """
        np.copyto(self._actions, actions, casting="same_kind")
        out = self._out
        bad = self._batch.step(
            self._actions,
            out.observations,
            out.masks,
            out.seats,
            out.rewards,
            out.dones.view(np.uint8),
        )
        if bad >= 0:
            raise IllegalMoveError(
                f"table {bad}: action {int(self._actions[bad])} is not allowed by its mask"
            )
        return out

    def start(self, table: int, game: Game) -> BatchStep:
        """Table ``table`` plays ``game`` (a reference :class:`Game` of these rules, any deck
        count and start level) from its current state; its row of the output is rewritten
        (the others are as the last call left them)."""
        if isinstance(table, bool) or not isinstance(table, int):
            raise ValueError(f"table must be an int, got {table!r}")
        if not isinstance(game, Game):
            raise ValueError(f"game must be a shengji_env.rules.Game, got {type(game).__name__}")
        others = dataclasses.replace(
            game.config, decks=self.config.decks, start_level=self.config.start_level
        )
        if others != self.config:
            raise ValueError(
                f"the game is played under other rules than the batch's: {game.config}"
            )
        out = self._out
        self._batch.start(
            table,
            state_of(game),
            game.config.decks,
            game.config.start_level_index,
            out.observations,
            out.masks,
            out.seats,
        )
        return out

    def bot_play(self, table: int, policy: int) -> list[int]:
        """The decision the core's rule bot ``policy`` makes now at ``table`` from the game's
        own hand, in card order: the heuristic's (0) bid, bury, lead or follow, the greedy
        bot's (1) lead or follow (see ``Table.own_bot_play``)."""
        return self._batch.own_bot_play(table, policy)

    def state(self, table: int) -> dict[str, Any]:
        """The full state of one table (as :func:`shengji_env.core.to_game` reads it)."""
        return self._batch.export(table)

    def selection(self, table: int) -> list[int]:
        """The cards selected so far in one table's current decision."""
        return self._batch.selection(table)

    def deal_seed(self, table: int) -> int:
        """The seed of one table's current deal: ``Game(config, seed=...)`` deals it too."""
        return self._batch.seed(table)
