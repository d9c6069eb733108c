"""The Ray backend: the same training as the local backend, and an actor may die mid-run."""

import pytest
import torch

from train.checkpoint import load_checkpoint
from train.config import load_config
from train.ppo import train

ray = pytest.importorskip("ray")

TINY = [
    "total_steps=2000",
    "steps_per_update=500",
    "envs_per_worker=1",
    "hidden_sizes=[32]",
    "minibatch_size=128",
    "update_epochs=2",
    "eval_every=0",
    "checkpoint_every=1",
    "bc_steps=0",
    "num_workers=2",
]


@pytest.fixture(scope="module")
def local_ray():
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False)
    yield
    ray.shutdown()


def final_weights(run):
    return load_checkpoint(run / "checkpoint.pt")


def same(a, b):
    return a.keys() == b.keys() and all(torch.allclose(a[k], b[k], atol=1e-6) for k in a)


def test_ray_backend_trains_like_the_local_backend_and_survives_a_killed_actor(
    local_ray, tmp_path, monkeypatch
):
    local = final_weights(train(load_config(None, [*TINY, f"run_dir={tmp_path / 'local'}"])))
    on_ray = final_weights(
        train(load_config(None, [*TINY, "backend=ray", f"run_dir={tmp_path / 'ray'}"]))
    )
    assert on_ray["global_step"] == local["global_step"]
    assert same(on_ray["model"], local["model"])

    from train import rollout

    original = rollout.RayWorkers.collect
    calls = []

    def collect_then_kill(self, *args, **kwargs):
        batch = original(self, *args, **kwargs)
        calls.append(1)
        if len(calls) == 2:
            ray.kill(self.actors[0], no_restart=False)  # it restarts; its next call is retried
        return batch

    monkeypatch.setattr(rollout.RayWorkers, "collect", collect_then_kill)
    survived = final_weights(
        train(load_config(None, [*TINY, "backend=ray", f"run_dir={tmp_path / 'killed'}"]))
    )
    assert len(calls) == survived["update"] > 2
    assert same(survived["model"], local["model"])


def test_ray_backend_needs_workers():
    with pytest.raises(ValueError, match="backend ray needs num_workers >= 1"):
        load_config(None, ["backend=ray", "num_workers=0"])
    with pytest.raises(ValueError, match="backend must be one of local, ray"):
        load_config(None, ["backend=spark"])


def test_arena_fans_deals_out_to_ray(local_ray):
    from agents.arena import run_arena

    on_ray = run_arena(["greedy", "random"], 3, options={"decks": 1}, backend="ray")
    local = run_arena(["greedy", "random"], 3, options={"decks": 1})
    assert sorted(on_ray.records, key=lambda r: r.deal) == sorted(
        local.records, key=lambda r: r.deal
    )
