"""Which stand-alone network learns the teacher best: the same DAgger labels (a run's
rounds, :mod:`shengji_env.train.dagger`), the same passes; scored on held-out parts of a later round
(states a student reached), or the last parts of a training round kept out of the fit, by
agreement with the teacher's choice, the teacher's probability of the student's choice,
and cross-entropy, per decision kind.

    python benchmarks/student_networks.py --run RUN --train-rounds 0 1 \
        --held-out-round 2 --epochs 2
    python benchmarks/student_networks.py --run RUN --train-rounds 0 --held-out-round 0 \
        --held-out-parts 10 --epochs 3 --networks "cards 64x2" "cards 64x2 play"
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

import numpy as np
import torch

from shengji_env.agents.network import make_network
from shengji_env.encoding import OBS_LAYOUT
from shengji_env.train.config import config_from_dict
from shengji_env.train.dagger import Labels, fit, load_labels, round_folder, score

NETWORKS = {
    "mlp counting 512x256": {"network": "counting", "hidden_sizes": [512, 256]},
    "cards 64x2": {"network": "cards", "card_width": 64, "card_blocks": 2},
    "cards 64x2 play": {
        "network": "cards",
        "card_width": 64,
        "card_blocks": 2,
        "card_play_features": True,
    },
}
KINDS = ("bid", "bury", "lead", "follow")


def held_out(folder: Path, parts: int) -> Labels:
    """The last ``parts`` parts of a round."""
    paths = sorted(folder.glob("part-*[0-9].npz"))[-parts:]
    return Labels.concatenate([Labels.from_arrays(np.load(path)) for path in paths])


def training_labels(run: Path, rounds: list[int], held_out_round: int, parts: int) -> Labels:
    """Every part of ``rounds``, less the held-out parts where a round is both."""
    data = []
    for number in rounds:
        folder = round_folder(run, number)
        count = len(list(folder.glob("part-*[0-9].npz")))
        data.append(load_labels(folder, count - parts if number == held_out_round else count))
    return Labels.concatenate(data)


@torch.no_grad()
def by_kind(net: torch.nn.Module, data: Labels) -> str:
    """Agreement and the teacher's probability of the student's pick, per decision kind."""
    picks = []
    for start in range(0, len(data), 4096):
        obs = torch.from_numpy(data.obs[start : start + 4096].astype(np.float32))
        logits, _ = net(obs, torch.from_numpy(data.masks[start : start + 4096]))
        picks.append(logits.argmax(-1).numpy())
    pick = np.concatenate(picks)
    targets = data.targets.astype(np.float32)
    kind = data.obs[:, OBS_LAYOUT["phase"]].astype(np.float32).argmax(1)
    mass = targets[np.arange(len(pick)), pick]
    agree = pick == targets.argmax(1)
    return ", ".join(
        f"{name} {agree[kind == k].mean():.1%} ({mass[kind == k].mean():.2f})"
        for k, name in enumerate(KINDS)
        if (kind == k).any()
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--run", type=Path, default=Path("checkpoints/standalone"))
    parser.add_argument("--train-rounds", type=int, nargs="+", default=[0, 1])
    parser.add_argument("--held-out-round", type=int, default=2)
    parser.add_argument("--held-out-parts", type=int, default=5)
    parser.add_argument("--epochs", type=int, nargs="+", default=[2], help="passes (each a fit)")
    parser.add_argument("--train-samples", type=int, default=0, help="the first N only (0: all)")
    parser.add_argument("--networks", nargs="*", default=list(NETWORKS))
    args = parser.parse_args()
    train = training_labels(args.run, args.train_rounds, args.held_out_round, args.held_out_parts)
    if args.train_samples:
        train = train.subset(slice(0, args.train_samples))
    test = held_out(round_folder(args.run, args.held_out_round), args.held_out_parts)
    print(f"{len(train):,} training samples (rounds {args.train_rounds}), {len(test):,} held out")
    torch.set_num_threads(2)
    for name, epochs in ((name, epochs) for name in args.networks for epochs in args.epochs):
        torch.manual_seed(0)
        config = config_from_dict({"dagger_epochs": epochs, **NETWORKS[name]})
        net = make_network(config.to_dict())
        optimizer = torch.optim.Adam(net.parameters(), lr=config.distill.bc_learning_rate)
        started, cpu = time.perf_counter(), time.process_time()
        fit(net, optimizer, train, config, np.random.default_rng(0), epochs)
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu
        scores = score(net, test)
        fitted = score(net, train.subset(slice(0, len(test))))["dagger/agreement"]
        print(
            f"{name}, {epochs} passes: training agreement {fitted:.1%}; held out: agreement "
            f"{scores['dagger/agreement']:.1%}, cross-entropy "
            f"{scores['dagger/cross_entropy']:.3f}; by kind (teacher's p of the pick): "
            f"{by_kind(net, test)}; fit {wall:.0f} s wall, {cpu:.0f} s CPU",
            flush=True,
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
