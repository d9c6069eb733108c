"""``reset(options={"hand": game})`` plays a given hand, and
:func:`~shengji_env.agents.play.play_match`
plays a match hand by hand on it: the same hands, rewards and results as a match
episode, which deals each next hand by itself (docs/rules.md §4, §8)."""

from __future__ import annotations

import pytest

from shengji_env.agents import load_agent
from shengji_env.agents.play import play_hand, play_match
from shengji_env.core import load_core
from shengji_env.env import raw_env
from shengji_env.rules import Game, RuleConfig

ENGINES = ["python"] + (["core"] if load_core() is not None else [])


def heuristics() -> list:
    return [load_agent("heuristic", seed=seat) for seat in range(4)]


@pytest.mark.parametrize("engine", ENGINES)
@pytest.mark.parametrize(("decks", "seed"), [(1, 0), (2, 1), (3, 2)])
def test_a_match_played_hand_by_hand_is_the_match_episode(engine, decks, seed):
    episode = raw_env(decks=decks, episode="match", engine=engine, start_level="random")
    expected = play_hand(episode, heuristics(), seed)
    hands: list[Game] = []
    env = raw_env(decks=decks, engine=engine, start_level="random")
    rewards = play_match(env, heuristics(), seed, hands.append)
    assert rewards == expected
    assert hands[-1].results == episode.game.results
    assert [game.hand_number for game in hands] == list(range(len(hands)))
    assert all(game.match_winner is None for game in hands[:-1])
    assert hands[-1].match_winner == (0 if rewards[0] > 0 else 1)


@pytest.mark.parametrize("engine", ENGINES)
def test_the_given_hand_is_played_as_it_was_dealt(engine):
    game = Game(RuleConfig(decks=2, start_level="7"), seed=5, levels=(3, 9), dealer=2)
    env = raw_env(decks=2, engine=engine)
    env.reset(options={"hand": game})
    assert env.game.deck == game.deck and env.game.levels == [3, 9] and env.game.dealer == 2
    assert env.agent_selection == f"player_{game.current_player}"
    before = env.game.hand(0)
    env.step(int(env.observe(env.agent_selection)["action_mask"].nonzero()[0][0]))
    assert game.hand(0) == before and not game.bids  # the env played a copy


def test_a_given_hand_must_be_unbid_of_the_env_rules_and_a_game():
    env = raw_env(decks=2)
    with pytest.raises(ValueError, match=r"other rules than the env's .*decks: 1, env 2"):
        env.reset(options={"hand": Game(RuleConfig(decks=1), seed=1)})
    with pytest.raises(ValueError, match="takes a Game, not dict"):
        env.reset(options={"hand": {"deck": []}})
    env.reset(seed=3)
    agent = load_agent("heuristic", seed=0)
    while not env.game.bids:  # deal on until someone declares
        observation, _, _, _, info = env.last()
        env.step(agent.act(observation, info))
    with pytest.raises(ValueError, match="before any declaration, not one in bid with 1"):
        env.reset(options={"hand": env.game})


def test_play_match_refuses_envs_that_do_not_start_matches_hand_by_hand():
    with pytest.raises(ValueError, match="needs a hand-episode env that starts matches"):
        play_match(raw_env(episode="match"), heuristics(), 0)
    with pytest.raises(ValueError, match="needs a hand-episode env that starts matches"):
        play_match(raw_env(start="mid_match"), heuristics(), 0)
