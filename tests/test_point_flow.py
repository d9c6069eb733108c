"""benchmarks/point_flow.py: where each agent's point cards go, from arena replays."""

import pytest

from shengji_env.agents.arena import run_arena
from shengji_env.replay import read_replay
from shengji_env.rules.cards import POINTS, parse_card
from shengji_env.rules.config import RuleConfig
from shengji_env.rules.trump import trump_context

from .benchmark_scripts import load_script


def _script():
    return load_script("point_flow")


@pytest.mark.parametrize(
    ("cards", "led", "leads", "way"),
    [  # trump ♠ at level 2
        (["5H"], "KH", True, "lead"),
        (["5H", "KH"], "AH", False, "follow suit"),
        (["10S"], "AH", False, "trump in"),
        (["2H"], "AH", False, "trump in"),  # the level card is trump
        (["10D"], "AH", False, "discard or mixed"),
        (["KH", "5D"], "AH", False, "discard or mixed"),
        (["5S"], "AS", False, "follow suit"),  # trump led, trump followed
    ],
)
def test_each_play_is_told_by_how_it_put_cards_in_the_trick(cards, led, leads, way):
    ctx = trump_context(RuleConfig(), 0, 0)
    led_suit = ctx.suits[parse_card(led)]
    assert _script().way_played([parse_card(c) for c in cards], led_suit, leads, ctx) == way


def test_every_trick_point_is_banked_or_handed_over_once(tmp_path):
    replays = tmp_path / "replays.jsonl"
    run_arena(
        ["heuristic", "random"],
        3,
        options={"decks": 1, "start": "mid_match"},
        seed=5,
        replay_path=replays,
    )
    hands = read_replay(replays)
    table = _script().point_flow(hands)
    assert set(table) == {
        (agent, role) for agent in ("heuristic", "random") for role in ("attacking", "defending")
    }
    seat_hands = 2 * len(hands)  # each (agent, role) row: two seats a hand, over half the hands
    played = sum(
        sum(POINTS[card] for card in event["cards"])
        for events in hands
        for event in events
        if event["event"] == "play"
    )
    counted = sum((row["handed over"] + row["banked"]) * seat_hands / 2 for row in table.values())
    assert counted == pytest.approx(played) and played > 0
    for row in table.values():
        assert row["handed over"] == pytest.approx(
            sum(value for key, value in row.items() if key.endswith(", lost"))
        )
