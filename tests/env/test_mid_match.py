"""``start="mid_match"``: single hands as they come inside a match — the dealer seat and
both teams' levels drawn per episode, the hand at the dealer team's level — not the first
hand's "the first declarer deals" (docs/rules.md §4)."""

from __future__ import annotations

from collections import Counter

import pytest

from shengji_env.core import load_core
from shengji_env.env import raw_env
from shengji_env.rules.cards import RANKS

ENGINES = ["python"] + (["core"] if load_core() is not None else [])


@pytest.mark.parametrize("engine", ENGINES)
def test_dealers_and_levels_are_drawn_per_episode(engine):
    env = raw_env(start="mid_match", start_level="5", engine=engine)
    dealers, levels = Counter(), Counter()
    for seed in range(200):
        env.reset(seed=seed)
        game = env.game
        assert game.dealer is not None and not game.bids  # the dealer is set before bidding
        assert game.level == game.levels[game.dealer % 2]
        assert min(game.levels) >= RANKS.index("5")
        dealers[game.dealer] += 1
        levels.update(game.levels)
    assert set(dealers) == {0, 1, 2, 3} and min(dealers.values()) > 25
    assert len(levels) == 13 - RANKS.index("5")


def test_the_same_seed_gives_the_same_hand_and_any_level_with_random():
    first, second = raw_env(start="mid_match"), raw_env(start="mid_match")
    first.reset(seed=9)
    second.reset(seed=9)
    assert first.game.deck == second.game.deck and first.game.levels == second.game.levels
    env = raw_env(start="mid_match", start_level="random")
    seen = set()
    for seed in range(100):
        env.reset(seed=seed)
        seen.update(env.game.levels)
    assert 0 in seen and 12 in seen


def test_mid_match_starts_need_hand_episodes_and_bad_values_are_named():
    with pytest.raises(ValueError, match="needs episode='hand'"):
        raw_env(start="mid_match", episode="match")
    with pytest.raises(ValueError, match="start must be one of"):
        raw_env(start="middle")
