"""The batched API: every table's observation, mask and rewards agree with the reference
engine replaying the same deal and actions; tables deal on by themselves; a refused action
steps nothing; and the batched rollout collector's contract."""

from __future__ import annotations

import numpy as np
import pytest

from shengji_env.actions import Decision
from shengji_env.core import load_core, to_game
from shengji_env.encoding import ObservationEncoder
from shengji_env.env import hand_rewards
from shengji_env.rules import Game, IllegalMoveError, Phase, RuleConfig

pytestmark = pytest.mark.skipif(load_core() is None, reason="the compiled core is not built")


def random_actions(masks: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    return (rng.random(masks.shape) * masks).argmax(axis=1)


@pytest.mark.parametrize(
    "options", [{"decks": 1}, {"decks": 2}, {"decks": 3, "twos_always_trump": True}]
)
def test_each_table_is_the_reference_game(options):
    from shengji_env.vector import TableBatch

    config = RuleConfig(**options)
    batch = TableBatch(4, seed=7, **options)
    out = batch.reset()
    rng = np.random.default_rng(0)
    games = [Game(config, seed=batch.deal_seed(i)) for i in range(4)]
    decisions = [Decision(game) for game in games]
    encoder = ObservationEncoder(config)
    finished = 0
    while finished < 12:
        for i in range(4):
            seat = int(out.seats[i])
            assert seat == decisions[i].seat
            assert np.array_equal(out.masks[i], decisions[i].mask)
            encoder.reset()
            expected = encoder.encode(games[i], seat, decisions[i])
            assert np.array_equal(out.observations[i], expected)
        actions = random_actions(out.masks, rng)
        out = batch.step(actions)
        for i in range(4):
            decision, game = decisions[i], games[i]
            if actions[i] != 54:
                decision.add(int(actions[i]))
            if actions[i] == 54 or decision.only_commit:
                game.step(decision.selection, trusted=True)
                if game.phase is Phase.HAND_OVER:
                    assert out.dones[i]
                    expected = hand_rewards(game.result, "levels", config)
                    assert tuple(out.rewards[i]) == (*expected, *expected)
                    finished += 1
                    games[i] = Game(config, seed=batch.deal_seed(i))
                decisions[i] = Decision(games[i])
            assert not out.dones[i] or game.phase is Phase.HAND_OVER
    assert batch.episodes >= 12
    state = to_game(batch.state(0), config)
    assert state.hands == games[0].hands


def test_a_refused_action_steps_no_table():
    from shengji_env.vector import TableBatch

    batch = TableBatch(3, seed=1)
    out = batch.reset()
    before = [batch.state(i) for i in range(3)]
    actions = out.masks.argmax(axis=1)
    illegal = int(np.flatnonzero(out.masks[1] == 0)[0])
    actions[1] = illegal
    with pytest.raises(IllegalMoveError, match=f"table 1: action {illegal} is not allowed"):
        batch.step(actions)
    assert [batch.state(i) for i in range(3)] == before


@pytest.mark.parametrize("decks", [1, 3])
def test_a_started_table_plays_the_given_hand_and_without_redeal_stays_over(decks):
    """A mid-match hand of another deck count, dealt by the env: the table's observations
    and masks are the env's, step by step, to the end; then the table stays over and its
    action is ignored while the other table plays on."""
    from shengji_env.env import raw_env
    from shengji_env.vector import TableBatch

    env = raw_env(decks=decks, start="mid_match", start_level="random")
    env.reset(seed=11)
    batch = TableBatch(2, seed=3, redeal=False, decks=2)
    batch.reset()
    out = batch.start(0, env.game)
    rng = np.random.default_rng(1)
    while True:
        observed = env.observe(env.agent_selection)
        assert out.seats[0] == env.possible_agents.index(env.agent_selection)
        assert np.array_equal(out.observations[0], observed["observation"])
        assert np.array_equal(out.masks[0], observed["action_mask"])
        actions = random_actions(out.masks, rng)
        env.step(int(actions[0]))
        out = batch.step(actions)
        if out.dones[0]:
            break
    assert tuple(out.rewards[0]) == tuple(env.rewards[agent] for agent in env.possible_agents)
    finished = batch.state(0)
    assert not out.masks[0].any()
    for _ in range(3):
        actions = random_actions(out.masks, rng)
        actions[0] = 99  # out of range: ignored at a table that is over
        out = batch.step(actions)
        assert not out.dones[0] and not out.rewards[0].any()
    assert batch.state(0) == finished


def test_a_batch_refuses_a_hand_of_other_rules():
    from shengji_env.vector import TableBatch

    batch = TableBatch(1, redeal=False, decks=2)
    game = Game(RuleConfig(decks=2, twos_always_trump=True), seed=1)
    with pytest.raises(ValueError, match="other rules than the batch's"):
        batch.start(0, game)


def test_the_batch_rule_bot_plays_what_the_table_bot_plays():
    from shengji_env.engines import CoreEngine
    from shengji_env.vector import TableBatch

    config = RuleConfig(decks=2)
    game = Game(config, seed=4)
    engine = CoreEngine(config, match=False, points=False)
    engine.start(game)
    batch = TableBatch(1, redeal=False, decks=2)
    out = batch.start(0, game)
    with pytest.raises(ValueError, match="play phase"):
        batch.bot_play(0, 1)  # the greedy bot neither bids nor buries
    plays = 0
    while plays < 40:
        if not engine.selection():
            assert batch.bot_play(0, 0) == engine.bot_play(0)
        if engine.kind().value in ("lead", "follow") and not engine.selection():
            assert batch.bot_play(0, 1) == engine.bot_play(1)
            plays += 1
        action = int(np.flatnonzero(engine.mask())[0])
        engine.step(action)
        out = batch.step(np.array([action]))
        assert not out.dones[0]


def test_bad_arguments_are_named():
    from shengji_env.vector import TableBatch

    with pytest.raises(ValueError, match="num_tables must be an int >= 1"):
        TableBatch(0)
    with pytest.raises(ValueError, match="unknown rule option"):
        TableBatch(2, deck=2)
    with pytest.raises(ValueError, match="episode must be one of"):
        TableBatch(2, episode="rubber")


def test_the_batch_collector_collects_whole_hands_deterministically():
    from shengji_env.train.batch_rollout import BatchCollector, batchable
    from shengji_env.train.config import load_config
    from shengji_env.train.rollout import Collector, make_collector

    overrides = ["envs_per_worker=4", "opponents={self: 1.0}", "hidden_sizes=[32]"]
    config = load_config(None, overrides)
    assert batchable(config) and isinstance(make_collector(config), BatchCollector)
    mixed = load_config(None, ["opponents={self: 0.5, greedy: 0.5}"])
    assert not batchable(mixed) and isinstance(make_collector(mixed), Collector)
    one, other = BatchCollector(config), BatchCollector(config)
    other.load(one.policy.state_dict(), [])
    first, second = one.collect(600, seed=3), other.collect(600, seed=3)
    assert len(first["actions"]) >= 600
    for key in first:
        assert np.array_equal(first[key], second[key]), key
    masks, actions = first["masks"], first["actions"]
    assert masks[np.arange(len(actions)), actions].all()  # every recorded action was legal
    assert len(first["hand_rewards"]) >= 1 and np.all(np.abs(first["hand_rewards"]) <= 4)


@pytest.mark.parametrize("game", ["x", None, 3])
def test_starting_a_table_on_something_else_than_a_game_is_refused_by_name(game):
    from shengji_env.vector import TableBatch

    batch = TableBatch(2, redeal=False)
    batch.reset()
    with pytest.raises(ValueError, match=r"game must be a shengji_env\.rules\.Game"):
        batch.start(0, game)
