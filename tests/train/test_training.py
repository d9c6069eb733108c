"""Training end to end on a tiny budget: checkpoints, exact resume, the agent it makes."""

from pathlib import Path

import numpy as np
import pytest
import torch

from shengji_env.actions import NUM_ACTIONS
from shengji_env.agents import load_agent
from shengji_env.agents.network import make_network
from shengji_env.agents.policy_file import load_checkpoint, save_checkpoint
from shengji_env.encoding import OBS_SIZE
from shengji_env.train.config import load_config
from shengji_env.train.ppo import _grow_network, ppo_update, train
from shengji_env.train.rollout import make_collector

from .helpers import TINY, tiny


def weights(path):
    return load_checkpoint(path)["model"]


@pytest.mark.parametrize("workers", [0, pytest.param(2, marks=pytest.mark.slow)])
def test_resume_gives_the_same_result_as_an_uninterrupted_run(tmp_path, workers):
    config = tiny(tmp_path / "a", f"num_workers={workers}", "total_steps=2500")
    whole = train(config)
    first = train(tiny(tmp_path / "b", f"num_workers={workers}", "total_steps=2500"), max_updates=2)
    assert load_checkpoint(first / "checkpoint.pt")["update"] == 2
    resumed = train(resume=first / "checkpoint.pt", overrides={"total_steps": 2500})
    a, b = weights(whole / "checkpoint.pt"), weights(resumed / "checkpoint.pt")
    assert a.keys() == b.keys()
    assert all(torch.equal(a[k], b[k]) for k in a)
    data, reference = (
        load_checkpoint(resumed / "checkpoint.pt"),
        load_checkpoint(whole / "checkpoint.pt"),
    )
    assert data["update"] == reference["update"] > 2
    assert data["global_step"] == reference["global_step"] >= 2500
    assert len(data["league"]) == len(reference["league"]) == data["update"]


def test_a_resume_keeps_the_checkpoint_config_under_the_overrides(tmp_path):
    first = train(tiny(tmp_path, "num_workers=0", "total_steps=600", "ent_coef=0.02"))
    steps = load_checkpoint(first / "checkpoint.pt")["global_step"]
    resumed = train(resume=first / "checkpoint.pt", overrides={"total_steps": steps + 300})
    data = load_checkpoint(resumed / "checkpoint.pt")
    assert data["global_step"] >= steps + 300
    assert data["config"]["ent_coef"] == 0.02 and data["config"]["total_steps"] == steps + 300
    with pytest.raises(ValueError, match="unknown config key"):
        train(resume=first / "checkpoint.pt", overrides={"entcoef": 0.1})


def test_a_trained_checkpoint_plays_as_an_agent(tmp_path):
    run = train(tiny(tmp_path, "num_workers=0", "total_steps=500"))
    agent = load_agent(f"ppo:{run / 'checkpoint.pt'}")
    from shengji_env.env import raw_env

    env = raw_env()
    env.reset(seed=0)
    for _ in env.agent_iter():
        observation, _, terminated, truncated, info = env.last()
        env.step(None if terminated or truncated else agent.act(observation, info))
    assert env.game.result is not None
    assert (run / "config.yaml").exists()
    assert list(run.glob("events.out.tfevents.*"))
    clone = load_checkpoint(run / "bc" / "policy.pt")  # the behaviour-cloned start, kept
    assert clone["update"] == 0 and clone["global_step"] == 0
    assert not torch.equal(clone["model"]["policy.weight"], agent.net.policy.weight)


def test_bad_configs_fail_at_start_with_the_key(tmp_path):
    with pytest.raises(ValueError, match=r"unknown config key.*learning_rat"):
        load_config(None, ["learning_rat=0.1"])
    with pytest.raises(ValueError, match="total_steps must be an integer"):
        load_config(None, ["total_steps=lots"])
    with pytest.raises(ValueError, match=r"opponents: unknown kind.*bots"):
        load_config(None, ["opponents={bots: 1}"])
    with pytest.raises(ValueError, match="decks must be one of"):
        load_config(None, ["decks=4"])
    bad = tmp_path / "bad.yaml"
    bad.write_text("- a list\n")
    with pytest.raises(ValueError, match="a config is a mapping"):
        load_config(bad)


def test_corrupt_checkpoints_are_named(tmp_path):
    broken = tmp_path / "checkpoint.pt"
    broken.write_bytes(b"not a checkpoint")
    with pytest.raises(ValueError, match="corrupt or not a checkpoint"):
        load_checkpoint(broken)
    with pytest.raises(ValueError, match="no checkpoint at"):
        load_checkpoint(tmp_path / "missing.pt")
    with pytest.raises(ValueError, match="corrupt or not a checkpoint"):
        load_agent(f"ppo:{broken}")


def test_a_checkpoint_of_another_observation_layout_is_refused_by_name(tmp_path):
    run = train(tiny(tmp_path, "num_workers=0", "total_steps=300"))
    data = load_checkpoint(run / "checkpoint.pt")
    weight = data["model"]["trunk.0.weight"]
    data["model"]["trunk.0.weight"] = weight[:, :-4]  # as saved before a block was added
    save_checkpoint(tmp_path / "old.pt", data)
    with pytest.raises(ValueError, match=r"old\.pt.*do not fit.*trunk\.0\.weight"):
        load_agent(f"ppo:{tmp_path / 'old.pt'}")


def test_shipped_configs_load():

    for path in (Path(__file__).parents[2] / "configs").glob("*.yaml"):
        config = load_config(path)
        assert config.ppo.total_steps > 0 and np.isclose(
            sum(config.league.opponents.values()) > 0, True
        )


def test_a_kept_policy_is_small_and_loads_from_its_folder(tmp_path):
    from shengji_env.agents.policy_file import save_policy

    run = train(tiny(tmp_path, "num_workers=0", "total_steps=500"))
    kept = save_policy(run / "checkpoint.pt", tmp_path / "model")
    assert kept.stat().st_size < (run / "checkpoint.pt").stat().st_size
    assert "optimizer" not in load_checkpoint(kept)
    load_agent(f"ppo:{tmp_path / 'model'}")


def test_the_cli_resumes_a_run_under_its_own_config(tmp_path):
    from shengji_env.frontends.cli import main
    from shengji_env.train.config import PPOConfig

    settings = [*TINY, f"run_dir={tmp_path}", "num_workers=0", "total_steps=500"]
    settings += ["run_name=cli", "ent_coef=0.02"]
    assert main(["train", *settings]) == 0
    checkpoint = tmp_path / "cli" / "checkpoint.pt"
    steps = load_checkpoint(checkpoint)["global_step"]
    assert main(["train", "--resume", str(checkpoint), f"total_steps={steps + 200}"]) == 0
    data = load_checkpoint(checkpoint)
    assert data["global_step"] >= steps + 200
    assert data["config"]["ent_coef"] == 0.02 != PPOConfig.ent_coef  # not the defaults
    assert main(["train", "--resume", str(checkpoint), "entcoef=1"]) == 2


def test_until_update_stops_the_run_at_that_update_over_all_its_calls(tmp_path):
    from shengji_env.frontends.cli import main

    settings = [*TINY, f"run_dir={tmp_path}", "num_workers=0", "run_name=until", "bc_steps=0"]
    settings.append("checkpoint_every=5")  # the stop itself must checkpoint
    assert main(["train", "--until-update", "1", *settings]) == 0  # of 3 updates
    checkpoint = tmp_path / "until" / "checkpoint.pt"
    assert load_checkpoint(checkpoint)["update"] == 1
    assert main(["train", "--resume", str(checkpoint), "--until-update", "2"]) == 0
    assert load_checkpoint(checkpoint)["update"] == 2
    assert main(["train", "--resume", str(checkpoint), "--until-update", "2"]) == 0
    assert load_checkpoint(checkpoint)["update"] == 2  # already there: no update
    with pytest.raises(SystemExit):  # argparse: "0 is not >= 1"
        main(["train", "--until-update", "0", *settings])


def test_a_run_that_never_plays_its_snapshots_keeps_none(tmp_path):
    run = train(tiny(tmp_path, "num_workers=0", "total_steps=1000", "opponents={self: 1}"))
    data = load_checkpoint(run / "checkpoint.pt")
    assert data["update"] >= 2 and data["league"] == []


def test_resuming_a_model_folder_policy_is_refused_and_writes_nothing(tmp_path):
    import shutil

    folder = tmp_path / "model"
    shutil.copytree(Path(__file__).parents[2] / "models" / "standalone-v8", folder)
    before = {p.name: p.read_bytes() for p in folder.iterdir()}
    with pytest.raises(ValueError, match=r"is a policy .* cannot resume"):
        train(resume=folder / "policy.pt")
    assert {p.name: p.read_bytes() for p in folder.iterdir()} == before


@pytest.fixture(scope="module")
def small_run(tmp_path_factory):
    """One short run whose checkpoint the tests below damage (in copies)."""
    return train(tiny(tmp_path_factory.mktemp("small"), "num_workers=0", "total_steps=300"))


def test_a_flipped_byte_checkpoint_is_refused_by_name(tmp_path, small_run):
    data = bytearray((small_run / "checkpoint.pt").read_bytes())
    rng = np.random.default_rng(0)
    for position in rng.choice(np.arange(len(data) // 4, len(data) // 2), 50, replace=False):
        data[position] ^= 0xFF
    broken = tmp_path / "flipped.pt"
    broken.write_bytes(bytes(data))
    with pytest.raises(ValueError, match=r"flipped\.pt (is damaged|is corrupt)"):
        load_checkpoint(broken)
    with pytest.raises(ValueError, match=r"flipped\.pt"):
        train(resume=broken)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        (lambda d: d.update(model=[1, 2]), "'model' is not a state dict"),
        (lambda d: d.update(config="x"), "'config' is not a mapping"),
        (lambda d: d.pop("optimizer"), "'optimizer' is missing"),
        (lambda d: d.update(league=None), "'league' is missing or not a list"),
        (lambda d: d.update(rng={"python": 1}), "'rng' lacks"),
        (lambda d: d.update(update="3"), "'update' is missing or not a int"),
    ],
)
def test_malformed_checkpoint_parts_are_named(tmp_path, small_run, change, message):
    data = load_checkpoint(small_run / "checkpoint.pt")
    change(data)
    save_checkpoint(tmp_path / "bad.pt", data)
    with pytest.raises(ValueError, match=message):
        train(resume=tmp_path / "bad.pt")


def test_a_format_1_file_needs_its_sha256_beside_it(tmp_path):
    import shutil

    policy = Path(__file__).parents[2] / "models" / "full-v4" / "policy.pt"
    shutil.copy(policy, tmp_path / "policy.pt")
    with pytest.raises(ValueError, match="format-1 checkpoint without a SHA-256"):
        load_checkpoint(tmp_path / "policy.pt")
    (tmp_path / "policy.pt.sha256").write_text("0" * 64)
    with pytest.raises(ValueError, match=r"do not match policy\.pt\.sha256"):
        load_checkpoint(tmp_path / "policy.pt")
    shutil.copy(policy.with_name("policy.pt.sha256"), tmp_path)
    assert load_checkpoint(tmp_path / "policy.pt")["version"] == 1


def test_resuming_with_the_deck_context_grows_the_network_without_changing_its_play(tmp_path):
    from shengji_env.agents.network import network_from_checkpoint
    from shengji_env.train.checkpoint import add_deck_context

    cards = ["network=cards", "card_width=8", "card_blocks=1", "num_workers=0"]
    first = train(tiny(tmp_path, *cards, "total_steps=500"))
    state = load_checkpoint(first / "checkpoint.pt")
    before = network_from_checkpoint(state)
    steps = state["global_step"]
    _grow_network(state, {"card_deck_context": True})
    grown = network_from_checkpoint(state)
    observations = torch.rand(16, OBS_SIZE).round() / 2  # halves: two decks
    masks = torch.ones(16, NUM_ACTIONS, dtype=torch.int8)
    with torch.no_grad():
        (logits, values), (grown_logits, grown_values) = (
            net(observations, masks) for net in (before, grown)
        )
    # zero weights on the new inputs: the same numbers up to the summation order, which a
    # wider matrix product may change in the last bits on some CPUs (AMD EPYC: 6e-9, 1.5e-7)
    assert torch.equal(logits.argmax(1), grown_logits.argmax(1))
    torch.testing.assert_close(grown_logits, logits, rtol=0.0, atol=1e-6)
    torch.testing.assert_close(grown_values, values, rtol=0.0, atol=1e-6)
    resumed = train(
        resume=first / "checkpoint.pt",
        overrides={"card_deck_context": True, "total_steps": steps + 300},
    )
    data = load_checkpoint(resumed / "checkpoint.pt")
    assert data["config"]["card_deck_context"] and data["global_step"] >= steps + 300
    grown_inputs = network_from_checkpoint(data).context[0].in_features
    assert grown_inputs == before.context[0].in_features + 3
    with pytest.raises(ValueError, match="without card_deck_context"):
        add_deck_context(data)
    mlp = load_checkpoint(
        train(tiny(tmp_path / "mlp", "num_workers=0", "total_steps=500")) / "checkpoint.pt"
    )
    with pytest.raises(ValueError, match="needs a checkpoint of network: cards"):
        add_deck_context(mlp)


def test_a_last_minibatch_of_one_sample_keeps_the_weights_finite(tmp_path):
    config = tiny(tmp_path, "minibatch_size=64", "update_epochs=1")
    collector = make_collector(config)
    net = make_network(config.to_dict())
    collector.load(net.state_dict(), [])
    batch = {k: v[:65] for k, v in collector.collect(200, seed=3).items()}
    assert len(batch["actions"]) == 65  # one full minibatch, then one of a single sample
    optimizer = torch.optim.Adam(net.parameters(), lr=1e-3)
    ppo_update(net, optimizer, batch, config, np.random.default_rng(0))
    assert all(torch.isfinite(p).all() for p in net.parameters())


def test_a_run_folder_belongs_to_one_run(tmp_path):
    from shengji_env.frontends.cli import main
    from shengji_env.train.ppo import run_lock

    settings = [*TINY, f"run_dir={tmp_path}", "num_workers=0", "total_steps=300", "bc_steps=0"]
    config = tiny(tmp_path, "num_workers=0", "total_steps=300", "bc_steps=0", "run_name=mine")
    run = train(config)
    first = (run / "checkpoint.pt").read_bytes()
    with pytest.raises(ValueError, match=r"already holds a run: resume it .*--force"):
        train(config)
    assert (run / "checkpoint.pt").read_bytes() == first  # untouched
    assert main(["train", *settings, "run_name=mine"]) == 2
    with run_lock(run), pytest.raises(ValueError, match="another trainer is writing in"):
        train(resume=run / "checkpoint.pt")
    assert main(["train", *settings, "run_name=mine", "seed=9", "--force"]) == 0
    assert load_checkpoint(run / "checkpoint.pt")["config"]["seed"] == 9
    assert not [path.name for path in run.iterdir() if path.name.endswith(".tmp")]


def test_temporary_files_are_hidden_and_never_shared(tmp_path):
    from shengji_env.files import unique_temporary

    names = {unique_temporary(tmp_path / "part-00001.npz").name for _ in range(100)}
    assert len(names) == 100 and all(name.startswith(".part-00001.npz.") for name in names)
    left = unique_temporary(tmp_path / "part-00001.npz").with_suffix(".npz")  # a crash's
    left.write_bytes(b"")
    assert not list(tmp_path.glob("part-*[0-9].npz"))  # the parts' pattern does not take it
