"""Drive the AEC env with seeded random agents and visit the states it passes through."""

from __future__ import annotations

from collections.abc import Iterator

import numpy as np

from shengji_env.env import raw_env
from shengji_env.rules import Phase


def random_states(
    seed: int, hands: int = 1, stop_at_play: bool = False, **options
) -> Iterator[raw_env]:
    """Yield the env before every action of ``hands`` random hands (the env is live: do not
    step it from outside). ``stop_at_play`` abandons each hand when the play begins."""
    env = raw_env(**options)
    rng = np.random.default_rng(seed)
    for hand in range(hands):
        env.reset(seed=seed * 1000 + hand)
        while env.agents and not all(env.terminations.values()):
            if stop_at_play and env.game.phase is Phase.PLAY:
                break
            yield env
            mask = env.observe(env.agent_selection)["action_mask"]
            env.step(int(rng.choice(np.flatnonzero(mask))))
