"""The baseline bots: always legal, in every phase and deck count, and blind to hidden cards."""

import random

import numpy as np
import pytest

from shengji_env.actions import DecisionKind
from shengji_env.agents import load_agent
from shengji_env.env import raw_env
from shengji_env.view import seat_view

from ..env.helpers import random_states, reshuffle_hidden

HANDS_PER_DECK_COUNT = 2000
CHUNKS = 8
TABLES = [
    ["heuristic", "greedy", "heuristic", "greedy"],
    ["greedy", "random", "heuristic", "random"],
]


def play_hand(specs, seed, **options):
    env = raw_env(**options)
    env.reset(seed=seed)
    bots = [load_agent(spec, seed=seed) for spec in specs]
    kinds = set()
    for name in env.agent_iter():
        seat = env.possible_agents.index(name)
        observation, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        kinds.add(info["view"].kind)
        env.step(bots[seat].act(observation, info))  # raw_env raises on an illegal action
    assert env.game.result is not None
    return kinds


@pytest.mark.slow
@pytest.mark.parametrize("chunk", range(CHUNKS))
@pytest.mark.parametrize("decks", [1, 2, 3])
def test_bots_never_play_illegally(decks, chunk):
    per_chunk = HANDS_PER_DECK_COUNT // CHUNKS
    kinds = set()
    for seed in range(chunk * per_chunk, (chunk + 1) * per_chunk):
        kinds |= play_hand(TABLES[seed % 2], seed, decks=decks, twos_always_trump=seed % 3 == 0)
    assert kinds == set(DecisionKind)


@pytest.mark.parametrize("decks", [1, 2, pytest.param(3, marks=pytest.mark.slow)])
def test_search_bot_plays_legally(decks):
    for seed in range(2):
        play_hand(
            ["search:rollouts=6", "heuristic", "search:rollouts=6", "greedy"], seed, decks=decks
        )


@pytest.mark.parametrize("spec", ["greedy", "heuristic", "search:rollouts=6,seed=1"])
def test_decisions_do_not_depend_on_unseen_cards(spec):
    rng = random.Random(0)
    checked = 0
    for index, env in enumerate(random_states(seed=21, hands=2, decks=2)):
        decision = env.decision
        if decision is None or decision.selection or index % 4:
            continue
        game, seat = env.game, decision.seat
        bot = load_agent(spec, seed=5)
        mine = bot.decide(seat_view(game, seat, decision.kind))
        other = reshuffle_hidden(game, seat, rng)
        assert load_agent(spec, seed=5).decide(seat_view(other, seat, decision.kind)) == mine
        checked += 1
    assert checked >= 40


def test_planning_bots_feed_their_decision_card_by_card():
    env = raw_env(decks=2)
    env.reset(seed=2)
    bot = load_agent("heuristic")
    while env.game.phase.value != "play":
        observation, _, _, _, info = env.last()
        env.step(load_agent("greedy").act(observation, info))
    observation, _, _, _, info = env.last()
    plan = bot.decide(info["view"])
    played = []
    agent = env.agent_selection
    while env.agent_selection == agent and len(played) < len(plan):
        observation, _, _, _, info = env.last()
        action = bot.act(observation, info)
        played.append(action)
        env.step(action)
    assert played == plan[: len(played)]
    assert np.isin(played, plan).all()
