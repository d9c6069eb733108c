"""The arena's behaviour report: each hand's team behaviour agrees with the hand's replay
(declarations, the dealer, the buried points, throws tried and failed)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import pytest

from shengji_env.agents.arena import DealRecord, run_arena
from shengji_env.agents.behaviour import BehaviourSummary, TeamBehaviour
from shengji_env.replay import read_replay, resimulate
from shengji_env.rules.patterns import as_combination


def from_replay(events, team: int) -> TeamBehaviour:
    game = resimulate(events)
    plays = [e for e in events if e["event"] == "play"]
    leads = plays[0::4]  # every fourth play of the hand opens a trick
    mine = [lead for lead in leads if lead["seat"] % 2 == team]
    failed = sum("attempt" in lead for lead in mine)
    clean = sum(
        "attempt" not in lead and as_combination(lead["cards"], game.ctx) is None for lead in mine
    )
    dealt = game.dealer % 2 == team
    bury = next(e for e in events if e["event"] == "bury")
    return TeamBehaviour(
        declared=any(e["seat"] % 2 == team for e in events if e["event"] == "bid"),
        dealt=dealt,
        bury_points=sum({3: 5, 8: 10, 11: 10}.get(c % 13, 0) for c in bury["cards"] if c < 52)
        if dealt
        else 0,
        throws=failed + clean,
        failed_throws=failed,
    )


def test_behaviour_agrees_with_the_replays(tmp_path):
    path = tmp_path / "hands.jsonl"
    result = run_arena(["heuristic", "random"], 12, options={"decks": 2}, seed=4, replay_path=path)
    hands = read_replay(path)
    outcomes = [hand for record in result.records for hand in record.hands]
    assert len(hands) == len(outcomes) == 24
    for events, outcome in zip(hands, outcomes, strict=True):
        a_team = outcome.a_seats
        assert outcome.a_teams == (from_replay(events, a_team),)
        assert outcome.b_teams == (from_replay(events, 1 - a_team),)
        assert outcome.a_teams[0].dealt != outcome.b_teams[0].dealt
        assert outcome.a_attacking == outcome.b_teams[0].dealt
    summary = result.behaviour()
    assert summary["random"].failed_throw_share > 0.5  # it throws at random and fails
    heuristic = summary["heuristic"].failed_throw_share
    assert heuristic == 0.0 or math.isnan(heuristic)  # it throws only what no one can beat
    assert math.isclose(summary["heuristic"].dealt_share + summary["random"].dealt_share, 1.0)


def old_record(first: dict, second: dict) -> DealRecord:
    """A deal record as an older arena wrote it, with these two hands."""
    data = {"a": "x", "b": "y", "deal": 0, "seed": 1, "hands": [first, second]}
    return DealRecord.from_json(json.loads(json.dumps(data)))


def test_records_from_before_the_behaviour_load_and_count_no_hands():
    record = old_record(
        {"a_seats": 0, "a_reward": 1.0, "a_attacking": True, "attacker_points": 90},
        {"a_seats": 1, "a_reward": -1.0, "a_attacking": False, "attacker_points": 30},
    )
    assert record.hands[0].a_teams == ()
    assert BehaviourSummary.of([]).hands == 0


def test_records_that_kept_one_hand_under_a_team_read_as_that_hand():
    team = {"declared": True, "dealt": False, "bury_points": 0, "throws": 2, "failed_throws": 1}
    hand = {"a_seats": 1, "a_reward": 2.0, "a_attacking": True, "attacker_points": 120}
    dealer = {**team, "dealt": True, "throws": 0, "failed_throws": 0}
    record = old_record({**hand, "a_team": team, "b_team": dealer}, {**hand, "a_seats": 0})
    assert record.hands[0].a_teams == (TeamBehaviour(**team),)
    assert record.hands[0].b_teams == (TeamBehaviour(**dealer),)
    assert record.hands[1].a_teams == ()
    assert DealRecord.from_json(json.loads(json.dumps(record.to_json()))) == record


def match_decks(seed: int, agent_seed: int, hands: int) -> list[list[int]]:
    """The decks of a match's first ``hands`` hands, random agents seeded ``agent_seed``."""
    from shengji_env.agents import load_agent
    from shengji_env.env import raw_env

    env = raw_env(decks=1, episode="match")
    env.reset(seed=seed)
    agent = load_agent("random", seed=agent_seed)
    decks = {0: list(env.game.deck)}
    for _ in env.agent_iter():
        observation, _, terminated, truncated, info = env.last()
        if terminated or truncated or len(decks) > hands:
            break
        env.step(agent.act(observation, info))
        game = env.game
        decks.setdefault(game.hand_number, list(game.deck))
    return [decks[number] for number in sorted(decks)][:hands]


def test_duplicate_matches_replay_the_same_decks_whatever_is_played():
    first, second = match_decks(3, 1, 4), match_decks(3, 2, 4)
    assert len(first) == len(second) == 4 and first == second
    result = run_arena(["heuristic", "greedy"], 2, options={"episode": "match"}, seed=3)
    for record in result.records:
        assert {hand.a_reward for hand in record.hands} <= {1.0, -1.0}
    with pytest.raises(ValueError, match="replays are written for hand episodes"):
        run_arena(["heuristic", "greedy"], 1, options={"episode": "match"}, replay_path=Path("x"))


def test_match_behaviour_counts_every_hand_of_the_matches():
    result = run_arena(["heuristic", "greedy"], 2, options={"episode": "match"}, seed=3)
    for record in result.records:
        for hand in record.hands:
            assert len(hand.a_teams) == len(hand.b_teams) > 1  # no match is one hand
            for a_team, b_team in zip(hand.a_teams, hand.b_teams, strict=True):
                assert a_team.dealt != b_team.dealt
    summary = result.behaviour()
    hands = sum(len(hand.a_teams) for record in result.records for hand in record.hands)
    assert summary["heuristic"].hands == summary["greedy"].hands == hands
    assert math.isclose(summary["heuristic"].dealt_share + summary["greedy"].dealt_share, 1.0)
