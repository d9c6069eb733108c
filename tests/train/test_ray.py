"""The Ray backend: the same training as the local backend, and an actor may die mid-run."""

import pytest

from shengji_env.agents.policy_file import load_checkpoint
from shengji_env.train.config import load_config
from shengji_env.train.ppo import train

from .helpers import same_weights, tiny

ray = pytest.importorskip("ray")

WORKERS = ("total_steps=2000", "bc_steps=0", "snapshot_every=10", "num_workers=2")


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def final_weights(run):
    return load_checkpoint(run / "checkpoint.pt")


@pytest.mark.slow
def test_ray_backend_trains_like_the_local_backend_and_survives_a_killed_actor(
    local_ray, tmp_path, monkeypatch
):
    local = final_weights(train(tiny(tmp_path / "local", *WORKERS)))
    on_ray = final_weights(train(tiny(tmp_path / "ray", *WORKERS, "backend=ray")))
    assert on_ray["global_step"] == local["global_step"]
    assert same_weights(on_ray["model"], local["model"])

    from shengji_env.train import rollout

    original = rollout.RayWorkers.collect
    calls = []

    def collect_then_kill(self, *args, **kwargs):
        batch = original(self, *args, **kwargs)
        calls.append(1)
        if len(calls) == 2:
            ray.kill(self.actors[0], no_restart=False)  # it restarts; its next call is retried
        return batch

    monkeypatch.setattr(rollout.RayWorkers, "collect", collect_then_kill)
    survived = final_weights(train(tiny(tmp_path / "killed", *WORKERS, "backend=ray")))
    assert len(calls) == survived["update"] > 2
    assert same_weights(survived["model"], local["model"])


def test_ray_backend_needs_workers():
    with pytest.raises(ValueError, match="backend ray needs num_workers >= 1"):
        load_config(None, ["backend=ray", "num_workers=0"])
    with pytest.raises(ValueError, match="backend must be one of local, ray"):
        load_config(None, ["backend=spark"])


def test_arena_fans_deals_out_to_ray(local_ray):
    from shengji_env.agents.arena import run_arena

    on_ray = run_arena(["greedy", "random"], 3, options={"decks": 1}, backend="ray")
    local = run_arena(["greedy", "random"], 3, options={"decks": 1})
    assert sorted(on_ray.records, key=lambda r: r.deal) == sorted(
        local.records, key=lambda r: r.deal
    )
