"""First-card values: every legal first card of a one-card decision played out on the true
deal with the heuristic continuing, and the clone's regression on them."""

import math

import numpy as np
import pytest
import torch

from agents import HeuristicAgent
from shengji_env.actions import COMMIT, DecisionKind
from shengji_env.env import raw_env
from train import improve
from train.bc import play_hand
from train.checkpoint import load_checkpoint
from train.ppo import train

from .helpers import tiny


def record_hand(seed: int) -> tuple[improve._Recorder, list[int], list[float]]:
    """A one-deck heuristic hand with every first card played out: the recorder, the seat
    of each recorded state and each seat's reward."""
    env = raw_env(decks=1)
    recorder = improve._Recorder(env)
    seats: list[int] = []

    def record(seat, observed, info, action):
        before = len(recorder.states)
        recorder(seat, observed, info, action)
        seats.extend([seat] * (len(recorder.states) - before))

    totals = play_hand(env, [recorder.bot] * 4, seed, record)
    return recorder, seats, totals


@pytest.fixture(scope="module")
def parts(tmp_path_factory):
    folder = tmp_path_factory.mktemp("values")
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(improve, "DEALS_PER_PART", 1)
        improve.parts_io.write_parts(
            folder, [0, 1], lambda part: improve.value_part({"decks": 1}, part)
        )
    return folder


def test_the_advice_is_worth_what_the_hand_scored_and_every_legal_first_card_is_valued():
    recorder, seats, totals = record_hand(seed=3)
    assert len(recorder.states) > 20
    for (_obs, mask, advice, levels, points), seat in zip(recorder.states, seats, strict=True):
        assert levels[advice] == totals[seat]  # the heuristic is deterministic
        legal = {int(a) for a in np.flatnonzero(mask) if a != COMMIT}
        assert {int(a) for a in np.flatnonzero(np.isfinite(levels))} == legal
        assert np.isfinite(points).sum() == len(legal) >= 2
        assert abs(points[advice]) % 5 == 0


def test_a_departure_is_worth_what_the_env_scores_when_it_is_played():
    recorder, seats, _ = record_hand(seed=5)
    state, card = next(
        (i, int(a))
        for i, (_, _, advice, _, points) in enumerate(recorder.states)
        for a in np.flatnonzero(np.isfinite(points))
        if points[a] != points[advice]
    )  # a first card that changes the outcome
    _, _, _, levels, points = recorder.states[state]

    bot, seen = HeuristicAgent(), [0]

    class Deviate:
        """The heuristic, except that it starts the ``state``-th valued decision with ``card``."""

        def reset(self):
            bot.reset()

        def act(self, observed, info):
            view = info["view"]
            if not info["selection"] and improve.first_card_plays(
                view, observed["action_mask"], list(bot.decide(view))
            ):
                seen[0] += 1
                if seen[0] == state + 1:
                    return card
            if (
                info["selection"] == (card,)
                and seen[0] == state + 1
                and view.kind is DecisionKind.LEAD
            ):
                return COMMIT
            return bot.act(observed, info)

    env = raw_env(decks=1)
    totals = play_hand(env, [Deviate()] * 4, seed=5)
    seat = seats[state]
    assert totals[seat] == levels[card]
    attackers = seat % 2 != env.game.result.dealer % 2
    assert env.game.result.attacker_points * (1 if attackers else -1) == points[card]


def test_single_card_leads_teach_the_commit_that_ends_them(parts):
    values, commits = improve.load_parts(parts)
    assert len(values) > 20 and len(commits) > 20
    assert (commits.actions == COMMIT).all() and commits.masks[:, COMMIT].all()
    assert (commits.advice == -1).all()
    selected = commits.obs.astype(np.float32)
    assert values.obs.shape[1] == selected.shape[1]
    assert len(improve.load_parts(parts, 1)[0]) < len(values)


def test_value_parts_that_are_not_there_or_of_another_kind_are_named(parts, tmp_path):
    with pytest.raises(ValueError, match=r"missing: part-00002\.npz"):
        improve.load_parts(parts, 3)
    np.savez(tmp_path / "part-00000.npz", obs=np.zeros(3))
    with pytest.raises(ValueError, match="not a first-card value part"):
        improve.load_parts(tmp_path)
    with pytest.raises(ValueError, match="bc_value_parts needs bc_values"):
        tiny(tmp_path, "bc_value_parts=3")
    with pytest.raises(ValueError, match="bc_value_temperature"):
        tiny(tmp_path, "bc_value_temperature=0")


class Logits(torch.nn.Module):
    """A stand-in network that answers fixed logits."""

    def __init__(self, logits: np.ndarray) -> None:
        super().__init__()
        self.logits = torch.from_numpy(logits.astype(np.float32))

    def forward(self, obs, mask, advice):
        return self.logits[: len(obs)], torch.zeros(len(obs))


def test_the_regression_is_on_logit_gaps_and_the_scores_are_the_true_gains(parts):
    values, _ = improve.load_parts(parts)
    targets = improve.first_card_targets(values, points_share=0.5, band=20)
    rows = np.arange(len(values))
    assert (targets[rows, values.advice] == 0).all()
    fitted = np.nan_to_num(targets / 0.1) + 3.0  # gaps right, any offset
    loss, _ = improve.first_card_loss(Logits(fitted), values, targets, 0.1)
    assert float(loss) == pytest.approx(0.0, abs=1e-6)
    loss, _ = improve.first_card_loss(
        Logits(fitted + np.eye(55)[values.advice]), values, targets, 0.1
    )
    assert float(loss) > 0.5

    follow = improve.evaluate_first_cards(Logits(np.eye(55)[values.advice]), values, targets, 0.1)
    assert follow["improve/departures"] == 0 and follow["improve/gain_levels"] == 0
    best = np.where(np.isfinite(targets), targets, -math.inf)
    oracle = improve.evaluate_first_cards(Logits(best), values, targets, 0.1)
    chosen = best.argmax(1)
    expected = (values.levels[rows, chosen] - values.levels[rows, values.advice]).mean()
    assert oracle["improve/gain_levels"] == pytest.approx(expected)
    assert oracle["improve/gain_points"] > 0


def test_a_run_fits_first_card_values_and_logs_the_improvement(tmp_path, parts):
    run = train(
        tiny(
            tmp_path,
            "decks=1",
            "num_workers=0",
            "total_steps=500",
            "network=counting",
            "advice=true",
            "bc_steps=0",
            f"bc_values={parts}",
            "bc_value_parts=2",
            "opponents={self: 1}",
        )
    )
    assert (run / "bc" / "policy.pt").exists()
    assert load_checkpoint(run / "checkpoint.pt")["config"]["bc_values"] == str(parts)
    from tensorboard.backend.event_processing.event_accumulator import EventAccumulator

    events = EventAccumulator(str(run)).Reload()
    assert {"improve/gain_levels", "improve/departures", "bc/accuracy"} <= set(
        events.Tags()["scalars"]
    )


def test_the_command_line_makes_the_parts_it_names(tmp_path, monkeypatch):
    monkeypatch.setattr(improve, "DEALS_PER_PART", 1)
    assert (
        improve.main(
            ["--out", str(tmp_path), "--first", "3", "--parts", "2", "--step", "2", "--decks", "1"]
        )
        == 0
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["part-00003.npz", "part-00005.npz"]
