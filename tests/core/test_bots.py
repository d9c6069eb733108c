"""The core's rule bots (csrc/bots.cpp) against the heuristic and greedy agents: the same play, card
for card, at every lead and follow of seeded games on the reference engine
(hands in the reference's deal order, where ties between equal keys are settled), the same
final points from rollouts, and SearchAgent's same decisions on either engine."""

from __future__ import annotations

import random

import pytest

from shengji_env.actions import DecisionKind
from shengji_env.agents.greedy import GreedyAgent
from shengji_env.agents.heuristic import HeuristicAgent
from shengji_env.agents.search import CORE_POLICIES, SearchAgent
from shengji_env.core import load_core, rule_arguments, state_of, to_game
from shengji_env.env import raw_env
from shengji_env.information import resample
from shengji_env.rules import Game, Phase, RuleConfig
from shengji_env.rules.sampling import random_action
from shengji_env.view import seat_view

core = load_core()
pytestmark = pytest.mark.skipif(core is None, reason="the compiled core is not built")
BOTS = {"heuristic": HeuristicAgent(), "greedy": GreedyAgent()}


def random_config(rng: random.Random, decks: int) -> RuleConfig:
    return RuleConfig(
        decks=decks,
        twos_always_trump=rng.random() < 0.3,
        failed_throw_penalty=rng.choice((0, 10)),
        titanic_follow_order=rng.choice(("tractor_first", "triples_first")),
    )


def play_positions(rng: random.Random, decks: int, games: int):
    """Every lead and follow of ``games`` seeded games in which each decision is the
    heuristic's or, one time in four, a random legal action (failed throws, odd voids)."""
    for _ in range(games):
        config = random_config(rng, decks)
        game = Game(config, seed=rng.randrange(10**9))
        while game.phase in (Phase.BID, Phase.BURY, Phase.PLAY):
            seat = game.current_player
            if game.phase is Phase.PLAY:
                yield game.clone(), config
                kind = DecisionKind.FOLLOW if game.trick else DecisionKind.LEAD
            else:
                kind = DecisionKind.BID if game.phase is Phase.BID else DecisionKind.BURY
            if game.phase is Phase.BID or rng.random() < 0.25:
                game.step(random_action(game, rng))
            else:
                game.step(BOTS["heuristic"].decide(seat_view(game, seat, kind)))


def choice_positions(rng: random.Random, decks: int, games: int):
    """Every declaration and bury decision of ``games`` seeded hands, each hand dealt at a
    random level with either team dealing; declarations by the heuristic or, one time in
    three, at random (so that stronger bids stand)."""
    for _ in range(games):
        config = random_config(rng, decks)
        levels = (rng.randrange(13), rng.randrange(13))
        game = Game(config, seed=rng.randrange(10**9), levels=levels, dealer=rng.randrange(4))
        while game.phase in (Phase.BID, Phase.BURY):
            yield game.clone(), config
            seat = game.current_player
            if game.phase is Phase.BID and rng.random() < 1 / 3:
                game.step(random_action(game, rng))
                continue
            kind = DecisionKind.BID if game.phase is Phase.BID else DecisionKind.BURY
            game.step(BOTS["heuristic"].decide(seat_view(game, seat, kind)))


def loaded_table(game: Game, config: RuleConfig):
    table = core.Table(**rule_arguments(config), match=False, points=True)
    table.load(state_of(game))
    return table


def python_rollout(game: Game, play: list[int], bot) -> int:
    game.play(play)
    while game.phase is Phase.PLAY:
        seat = game.current_player
        kind = DecisionKind.FOLLOW if game.trick else DecisionKind.LEAD
        game.play(bot.decide(seat_view(game, seat, kind)), trusted=True)
    return game.result.attacker_points


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_the_bots_play_as_the_reference(record_property, decks):
    rng = random.Random(40 + decks)
    compared = 0
    for game, config in play_positions(rng, decks, games=30 if decks < 3 else 15):
        table = loaded_table(game, config)
        seat = game.current_player
        kind = DecisionKind.FOLLOW if game.trick else DecisionKind.LEAD
        view = seat_view(game, seat, kind)
        for name, bot in BOTS.items():
            expected = bot.decide(view)
            assert table.bot_play(game.hands, CORE_POLICIES[name]) == expected, (name, view)
            in_card_order = [sorted(hand) for hand in game.hands]  # as the core's export
            own = table.bot_play(in_card_order, CORE_POLICIES[name])
            assert table.own_bot_play(CORE_POLICIES[name]) == own, (name, view)
            compared += 1
    record_property(f"bot_plays_{decks}_decks", compared)
    assert compared > 1000


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_the_core_heuristic_bids_and_buries_as_the_reference(record_property, decks):
    """From the game's own hands in card order (as the core exports them, so ties settle
    alike): the same declaration or pass, and the same kitty in the same order."""
    rng = random.Random(90 + decks)
    compared = {Phase.BID: 0, Phase.BURY: 0}
    declared = 0
    for game, config in choice_positions(rng, decks, games=120):
        table = loaded_table(game, config)
        in_card_order = to_game(table.export(), config)
        kind = DecisionKind.BID if game.phase is Phase.BID else DecisionKind.BURY
        view = seat_view(in_card_order, game.current_player, kind)
        expected = BOTS["heuristic"].decide(view)
        assert table.own_bot_play(CORE_POLICIES["heuristic"]) == expected
        compared[game.phase] += 1
        declared += bool(expected) and game.phase is Phase.BID
    bids, buries = compared[Phase.BID], compared[Phase.BURY]
    record_property(f"bids_buries_declarations_{decks}_decks", f"{bids} {buries} {declared}")
    assert bids > 150 and declared > 30 and buries == 120


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_rollouts_reach_the_reference_points(decks):
    """From sampled deals (as SearchAgent draws them) and from the true deal, each play
    played out by either bot ends with the reference's attackers' points."""
    rng = random.Random(70 + decks)
    positions = list(play_positions(rng, decks, games=4))
    compared = 0
    for game, config in rng.sample(positions, 40):
        seat = game.current_player
        kind = DecisionKind.FOLLOW if game.trick else DecisionKind.LEAD
        view = seat_view(game, seat, kind)
        for world in (game, resample(view, rng)):
            plays = [BOTS["heuristic"].decide(view), BOTS["greedy"].decide(view)]
            table = loaded_table(world, config)
            for name, bot in BOTS.items():
                points = table.rollouts(world.hands, plays, CORE_POLICIES[name])
                assert points == [python_rollout(world.clone(), play, bot) for play in plays]
                compared += len(plays)
    assert compared == 40 * 2 * 2 * 2


def test_search_decides_the_same_on_both_engines():
    decisions = 0
    for decks, seed in ((1, 3), (2, 4), (3, 5)):
        env = raw_env(decks=decks)
        env.reset(seed=seed)
        searchers = {e: SearchAgent(rollouts=12, seed=seed, engine=e) for e in ("core", "python")}
        for _ in env.agent_iter():
            observation, _, terminated, truncated, info = env.last()
            if terminated or truncated:
                env.step(None)
                continue
            view = info["view"]
            if view.kind in (DecisionKind.LEAD, DecisionKind.FOLLOW) and not info["selection"]:
                assert searchers["core"].decide(view) == searchers["python"].decide(view)
                decisions += 1
            env.step(searchers["core"].act(observation, info))
    assert decisions > 150


def test_rollouts_refuse_what_is_not_a_position():
    rng = random.Random(9)
    game, config = next(play_positions(rng, 2, games=1))
    table = loaded_table(game, config)
    hands = [list(hand) for hand in game.hands]
    with pytest.raises(ValueError, match="policy must be"):
        table.rollouts(hands, [], 7)
    with pytest.raises(ValueError, match=r"hands\[1\] is not the game's hand"):
        table.rollouts([hands[0], hands[1][1:], hands[2], hands[3]], [], 0)
    with pytest.raises(ValueError):  # a card the player does not hold
        seat = game.current_player
        missing = next(c for c in range(54) if c not in hands[seat])
        table.rollouts(hands, [[missing]], 0)
    table.load(state_of(Game(config, seed=1)))
    with pytest.raises(ValueError, match="play phase"):
        table.rollouts([[], [], [], []], [], 0)
    with pytest.raises(ValueError, match="engine must be"):
        SearchAgent(engine="gpu")


def test_the_own_hand_greedy_bot_refuses_outside_the_play_phase():
    table = core.Table(**rule_arguments(RuleConfig(decks=2)), match=False, points=True)
    table.reset(5, 0)
    with pytest.raises(ValueError, match="play phase"):
        table.own_bot_play(CORE_POLICIES["greedy"])
    with pytest.raises(ValueError, match="policy must be"):
        table.own_bot_play(7)
