"""Drive the AEC env with seeded random agents and visit the states it passes through."""

from __future__ import annotations

import random
from collections.abc import Iterator

import numpy as np

from shengji_env.env import raw_env
from shengji_env.rules import Game, Phase


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


def reshuffle_hidden(game: Game, seat: int, rng: random.Random) -> Game:
    """A copy of ``game`` where every card ``seat`` cannot see is dealt differently."""
    other = game.clone()
    pool: list[int] = []
    keep: dict[int, list[int]] = {}
    for s in range(4):
        if s == seat:
            continue
        public = list(game.revealed[s])
        hidden = list(game.hands[s])
        for card in public:
            hidden.remove(card)
        keep[s] = public
        pool += hidden
    hidden_kitty = game.phase is not Phase.BID and seat != game.dealer
    if game.phase is Phase.BID:
        pool += game.deck[game.dealt :]
    elif hidden_kitty:
        pool += game.kitty
    rng.shuffle(pool)
    for s in keep:
        size = len(game.hands[s]) - len(keep[s])
        other.hands[s] = sorted(keep[s] + pool[:size])
        pool = pool[size:]
    if game.phase is Phase.BID:
        other.deck = game.deck[: game.dealt] + pool
    elif hidden_kitty:
        other.kitty = pool
    return other
