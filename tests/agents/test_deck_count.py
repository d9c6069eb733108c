"""The deck count read off an observation's card counts (agents.deck_count)."""

from __future__ import annotations

import numpy as np
import pytest
import torch

from agents.deck_count import DeckCount
from agents.network import make_network
from agents.random_agent import RandomAgent
from shengji_env.encoding import OBS_LAYOUT, OBS_SIZE
from shengji_env.env import raw_env

HAND = OBS_LAYOUT["hand"].start
PLAYED = OBS_LAYOUT["played"].start


def _observation(**counts: float) -> torch.Tensor:
    """An observation whose hand holds ``counts`` at the first card types, by column."""
    obs = torch.zeros(1, OBS_SIZE)
    for column, value in counts.items():
        obs[0, int(column.removeprefix("c"))] = value
    return obs


@pytest.mark.parametrize(
    ("counts", "decks"),
    [
        ({}, 1),  # nothing in view reads one deck
        ({f"c{HAND}": 1.0, f"c{HAND + 1}": 1.0}, 1),
        ({f"c{HAND}": 0.5}, 2),
        ({f"c{HAND}": 1.0, f"c{PLAYED + 7}": 0.5}, 2),  # a single another seat played
        ({f"c{HAND}": 1 / 3}, 3),
        ({f"c{HAND}": 2 / 3, f"c{HAND + 1}": 1.0}, 3),
        ({f"c{HAND}": 2 / 3, f"c{PLAYED + 7}": 1 / 3}, 3),  # a pair and a single played
        ({f"c{OBS_LAYOUT['card_order'].start}": 0.5}, 1),  # only card counts are read
    ],
)
def test_the_deck_count_follows_the_fractions_of_the_card_counts(counts, decks):
    one_hot = DeckCount()(_observation(**counts))
    assert one_hot.tolist() == [[float(count == decks) for count in (1, 2, 3)]]


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_the_deck_count_is_right_at_every_decision_of_seeded_games(decks):
    env = raw_env(decks=decks)
    agent = RandomAgent(seed=decks)
    observations = []
    for seed in range(5):
        env.reset(seed=seed)
        while not all(env.terminations.values()):
            observed = env.observe(env.agent_selection)
            observations.append(observed["observation"])
            env.step(agent.act(observed, env.infos[env.agent_selection]))
    read = DeckCount()(torch.from_numpy(np.stack(observations))).argmax(1) + 1
    assert len(observations) > 300, len(observations)
    assert read.eq(decks).all(), f"misread at {read.ne(decks).sum()} of {len(read)} decisions"


def test_a_card_network_with_the_deck_context_gives_the_context_three_more_inputs():
    plain = make_network({"network": "cards", "card_width": 8, "card_blocks": 1})
    with_decks = make_network(
        {"network": "cards", "card_width": 8, "card_blocks": 1, "card_deck_context": True}
    )
    assert with_decks.context[0].in_features == plain.context[0].in_features + 3
