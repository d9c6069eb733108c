"""The derived observation blocks (shengji_env.card_reading) agree with the rules engine's
reading of each seat's view, at 1, 2 and 3 decks; and they are worked out from the record."""

import numpy as np
import pytest

from shengji_env.actions import DecisionKind
from shengji_env.agents import HeuristicAgent
from shengji_env.agents.knowledge import unseen
from shengji_env.agents.play import play_hand
from shengji_env.card_reading import POINT_SCALE, SUIT_SCALE, write_card_reading
from shengji_env.encoding import OBS_LAYOUT, PHASE_SLOTS, RECORD_SIZE, deck_counts
from shengji_env.env import raw_env
from shengji_env.rules import TRUMP, card_points
from shengji_env.rules.cards import DECK_POINTS
from shengji_env.rules.trick import trick_winner


def _block(observation: np.ndarray, name: str, rows: int) -> np.ndarray:
    return observation[OBS_LAYOUT[name]].reshape(rows, 54)


def _expected_counting(view, decks: int) -> np.ndarray:
    """Copies out, bosses in hand and outstanding copies above each card, by card id, from
    the seat's view with the rules' own trump context."""
    ctx = view.ctx
    kitty = [] if view.kind is DecisionKind.BURY else list(view.kitty)  # burying: in hand
    seen = [c for row in view.played for c in row] + list(view.hand) + kitty
    out = [decks - seen.count(c) for c in range(54)]
    higher = [
        sum(
            out[d]
            for d in range(54)
            if ctx.suits[d] == ctx.suits[c] and ctx.rank_keys[d] > ctx.rank_keys[c]
        )
        for c in range(54)
    ]
    boss = [c in view.hand and higher[c] == 0 for c in range(54)]
    return np.array([np.array(out) / decks, boss, np.array(higher) / decks / SUIT_SCALE])


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_card_counting_matches_the_rules(decks):
    env = raw_env(decks=decks)
    env.reset(seed=decks)
    rng = np.random.default_rng(decks)
    checked = 0
    for step, name in enumerate(env.agent_iter()):
        observed, _, terminated, truncated, info = env.last()
        if terminated or truncated:
            env.step(None)
            continue
        view = info["view"]
        if view.ctx is not None and step % 3 == 0:
            got = _block(observed["observation"], "card_counting", 3)
            np.testing.assert_allclose(
                got, _expected_counting(view, decks), atol=1e-6, err_msg=name
            )
            checked += 1
        env.step(int(rng.choice(np.flatnonzero(observed["action_mask"]))))
    assert checked > 10


def _expected_reading(view, card: int, decks: int) -> tuple[float, ...]:
    ctx = view.ctx
    suit = ctx.suits[card]
    winning = list(view.trick[trick_winner(list(view.trick), ctx)])
    same_suit = [c for c in winning if ctx.suits[c] == suit]
    above = bool(same_suit) and ctx.rank_keys[card] > max(ctx.rank_keys[c] for c in same_suit)
    length = sum(1 for c in view.hand if ctx.suits[c] == suit)
    partner = (view.seat + 2) % 4
    opponents = [(view.seat + 1) % 4, (view.seat + 3) % 4]
    threat = any(view.voids[o][suit] and not view.voids[o][TRUMP] for o in opponents)
    return (
        float(ctx.suits[view.trick[0][0]] == suit),
        float(bool(same_suit)),
        float(above),
        card_points(card) / POINT_SCALE,
        length / decks / SUIT_SCALE,
        float(view.voids[partner][suit]),
        float(threat),
    )


def _expected_trick(view, decks: int) -> list[float]:
    ctx = view.ctx
    winning = list(view.trick[trick_winner(list(view.trick), ctx)])
    top = max(winning, key=lambda c: ctx.rank_keys[c])
    over = sum(
        copies
        for card, copies in unseen(view).items()
        if ctx.suits[card] == ctx.suits[top] and ctx.rank_keys[card] > ctx.rank_keys[top]
    )
    lead = view.trick[0]
    return [
        sum(card_points(c) for play in view.trick for c in play) / DECK_POINTS / decks,
        len(lead) / decks / SUIT_SCALE,
        max(lead.count(c) for c in lead) / decks,
        float(ctx.suits[top] == TRUMP),
        over / decks / SUIT_SCALE,
    ]


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_each_card_in_hand_reads_the_trick_as_the_rules_do(decks):
    checked = 0

    def check(seat, observed, info, action):
        nonlocal checked
        view = info["view"]
        if view.kind.value != "follow" or info.get("selection"):
            return
        observation = observed["observation"]
        reading = _block(observation, "play_reading", 7)
        for card in set(view.hand):
            expected = _expected_reading(view, card, decks)
            assert reading[:, card] == pytest.approx(expected, abs=1e-6), (view.trick, card)
        trick = observation[OBS_LAYOUT["card_context"]][10:15]
        assert trick.tolist() == pytest.approx(_expected_trick(view, decks), abs=1e-6)
        checked += 1

    for seed in range(3):
        play_hand(raw_env(decks=decks), [HeuristicAgent()] * 4, seed, on_decision=check)
    assert checked > 40


def test_a_lead_has_no_trick_to_read():
    env = raw_env(decks=2)
    env.reset(seed=4)
    for _name in env.agent_iter():
        observed, _, _, _, info = env.last()
        if info["view"].kind.value == "lead":
            observation = observed["observation"]
            assert not _block(observation, "play_reading", 7)[:3].any()
            assert not observation[OBS_LAYOUT["card_context"]][10:15].any()
            return
        env.step(HeuristicAgent().act(observed, info))


@pytest.mark.parametrize("decks", [1, 2, 3])
def test_the_blocks_are_worked_out_from_the_record_alone(decks):
    env = raw_env(decks=decks, twos_always_trump=decks == 3)
    env.reset(seed=decks)
    rng = np.random.default_rng(decks)
    bury = OBS_LAYOUT["phase"].start + PHASE_SLOTS[DecisionKind.BURY]
    observations = []
    while not all(env.terminations.values()):
        observed = env.observe(env.agent_selection)
        observation = observed["observation"]
        observations.append(observation)
        again = observation.copy()
        again[RECORD_SIZE:] = 0.0
        write_card_reading(again, OBS_LAYOUT, decks, bury)
        np.testing.assert_array_equal(again, observation)
        env.step(int(rng.choice(np.flatnonzero(observed["action_mask"]))))
    assert (deck_counts(np.array(observations)) == decks).all()
