"""Which stand-alone network learns the teacher best: the same teacher-played labels
(:mod:`train.dagger` round 0, 2 decks, ``start: mid_match``), the same passes, held-out
agreement with the teacher's choice and cross-entropy to its distribution.

    python benchmarks/student_networks.py --parts 8 --hands 25 --epochs 3
"""

from __future__ import annotations

import argparse
import functools
import time
from pathlib import Path

import numpy as np
import torch

from agents.network import make_network
from train import parts as parts_io
from train.config import TrainConfig
from train.dagger import Labels, RoundSpec, fit, label_part, load_labels, score

NETWORKS = {
    "mlp counting 512x256": {"network": "counting", "hidden_sizes": [512, 256]},
    "cards 48x2": {"network": "cards", "card_width": 48, "card_blocks": 2},
    "cards 64x2": {"network": "cards", "card_width": 64, "card_blocks": 2},
}


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--parts", type=int, default=8)
    parser.add_argument("--hands", type=int, default=25)
    parser.add_argument("--epochs", type=int, default=3)
    parser.add_argument("--folder", type=Path, default=Path("runs/student-networks"))
    parser.add_argument("--teacher", default="models/full-v4")
    args = parser.parse_args()
    spec = RoundSpec(args.teacher, None, None, {2: 1.0}, {}, args.hands, 0.0, 0)
    parts_io.make_parts(args.folder, args.parts + 1, functools.partial(label_part, spec), 2)
    data = load_labels(args.folder, args.parts + 1)
    held_out_start = len(data) - len(load_labels_part(args.folder, args.parts))
    train, held_out = (
        data.subset(slice(0, held_out_start)),
        data.subset(slice(held_out_start, None)),
    )
    print(f"{len(train):,} training samples, {len(held_out):,} held out (the last part)")
    torch.set_num_threads(2)
    for name, overrides in NETWORKS.items():
        torch.manual_seed(0)
        config = TrainConfig(dagger_epochs=args.epochs, **overrides)
        net = make_network(config.to_dict())
        optimizer = torch.optim.Adam(net.parameters(), lr=config.bc_learning_rate)
        started, cpu = time.perf_counter(), time.process_time()
        fit(net, optimizer, train, config, np.random.default_rng(0))
        wall, cpu = time.perf_counter() - started, time.process_time() - cpu
        scores = score(net, held_out)
        print(
            f"{name}: agreement {scores['dagger/agreement']:.1%}, cross-entropy "
            f"{scores['dagger/cross_entropy']:.3f}, value MSE {scores['dagger/value_mse']:.2f}; "
            f"fit {wall:.0f} s wall, {cpu:.0f} s CPU"
        )
    return 0


def load_labels_part(folder: Path, part: int) -> Labels:
    return Labels.from_arrays(parts_io.read_parts(folder, part + 1)[part])


if __name__ == "__main__":
    raise SystemExit(main())
