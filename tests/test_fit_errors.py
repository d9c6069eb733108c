"""benchmarks/fit_errors.py: where a student's choices leave its teacher's."""

from types import SimpleNamespace

from shengji_env.agents.play import play_hand
from shengji_env.agents.random_agent import RandomAgent
from shengji_env.env import raw_env
from shengji_env.rules import RuleConfig, parse_card
from shengji_env.rules.trump import trump_context
from shengji_env.train.dagger import make_teacher

from .benchmark_scripts import load_script


def test_every_decision_of_a_hand_is_scored():
    scorer = load_script("fit_errors").Scorer(RandomAgent(seed=3), make_teacher("heuristic"))
    env = raw_env(decks=3, start="mid_match", start_level="random")
    play_hand(env, [scorer] * 4, seed=5)
    scorer.reset()
    kinds = {name for name, _ in scorer.done}
    assert {"bid", "lead"} <= kinds
    assert any(name.startswith("follow") for name in kinds)


def test_two_different_bid_cards_are_a_material_miss_while_no_trump_is_settled():
    material = load_script("fit_errors").material
    bidding = SimpleNamespace(ctx=None)
    assert material(bidding, parse_card("2H"), parse_card("2S"))


def test_a_play_differing_only_in_a_low_card_is_a_minor_miss():
    material = load_script("fit_errors").material
    playing = SimpleNamespace(ctx=trump_context(RuleConfig(), 0, 0))  # trump ♠, level 2
    assert not material(playing, parse_card("3H"), parse_card("4H"))
    assert material(playing, parse_card("3H"), parse_card("KH"))  # points
    assert material(playing, parse_card("3H"), parse_card("3S"))  # trump
