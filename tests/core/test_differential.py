"""The compiled core against the reference engine, step by step (the contract of
``engine="core"``): over seeded random hands for 1, 2 and 3 decks and every rule option,
the two envs give identical observations for every seat, masks, rewards, terminations,
infos (views, selections, results) and states. Counts of hands and steps compared are
reported at the end of the run (``differential_*`` properties)."""

from __future__ import annotations

import random

import numpy as np
import pytest

from shengji_env.core import load_core
from shengji_env.env import raw_env

pytestmark = pytest.mark.skipif(load_core() is None, reason="the compiled core is not built")

OPTION_SETS = {
    "plain": {},
    "twos": {"twos_always_trump": True},
    "triples_first": {"titanic_follow_order": "triples_first"},
    "penalty": {"failed_throw_penalty": 10, "kitty_multiplier_cap": 4},
    "match": {"episode": "match", "start_level": "Q"},
    "points": {"reward": "points", "start_level": "random"},
    "mid_match": {"start": "mid_match", "start_level": "random"},
}
GAME_FIELDS = (
    "levels",
    "hand_number",
    "match_winner",
    "results",
    "deck",
    "dealer",
    "level",
    "deal_start",
    "dealt",
    "hands",
    "bids",
    "bid",
    "final_round",
    "kitty",
    "ctx",
    "leader",
    "trick",
    "trick_attempt",
    "tricks",
    "played",
    "voids",
    "revealed",
    "attacker_trick_points",
    "penalty_points",
    "result",
    "phase",
    "current_player",
)


def compare_episode(options: dict, seed: int) -> int:
    """Plays one episode on both engines with the same random actions; returns its steps."""
    core, python = raw_env(engine="core", **options), raw_env(engine="python", **options)
    core.reset(seed=seed)
    python.reset(seed=seed)
    rng = random.Random(seed)
    steps = 0
    while True:
        agent = python.agent_selection
        assert core.agent_selection == agent
        for other in python.possible_agents:
            a, b = core.observe(other), python.observe(other)
            assert np.array_equal(a["observation"], b["observation"]), (seed, steps, other)
            assert np.array_equal(a["action_mask"], b["action_mask"]), (seed, steps, other)
        assert core.rewards == python.rewards and core.terminations == python.terminations
        assert core._cumulative_rewards == python._cumulative_rewards
        info_a, info_b = core.infos[agent], python.infos[agent]
        assert info_a["selection"] == info_b["selection"] if "selection" in info_b else True
        if all(python.terminations.values()):
            for other in python.possible_agents:
                a, b = core.infos[other], python.infos[other]
                assert a["view"] == b["view"] and a["result"] == b["result"]
            for name in GAME_FIELDS:
                assert getattr(core.game, name) == getattr(python.game, name), (seed, name)
            assert core.game.rng.getstate() == python.game.rng.getstate()
            return steps
        if not info_b["selection"]:  # a decision starts: what the seat knows
            assert info_a["view"] == info_b["view"], (seed, steps)
        mask = python.observe(agent)["action_mask"]
        legal = np.flatnonzero(mask)
        action = int(legal[rng.randrange(legal.size)])
        core.step(action)
        python.step(action)
        steps += 1


def _run(record_property, options: dict, decks: int, seeds: range) -> None:
    steps = sum(compare_episode({"decks": decks, **options}, seed) for seed in seeds)
    record_property("differential_hands", len(seeds))
    record_property("differential_steps", steps)


@pytest.mark.parametrize("decks", [1, 2, 3])
@pytest.mark.parametrize("name", list(OPTION_SETS))
def test_core_matches_reference(record_property, name, decks):
    options = OPTION_SETS[name]
    count = 1 if options.get("episode") == "match" else 6
    _run(record_property, options, decks, range(100 * decks, 100 * decks + count))


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(6))
@pytest.mark.parametrize("decks", [1, 2, 3])
@pytest.mark.parametrize("name", list(OPTION_SETS))
def test_core_matches_reference_over_many_hands(record_property, name, decks, chunk):
    options = OPTION_SETS[name]
    count = 3 if options.get("episode") == "match" else 30
    first = 10_000 + 1000 * decks + chunk * count
    _run(record_property, options, decks, range(first, first + count))
