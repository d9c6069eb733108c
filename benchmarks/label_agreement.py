"""How closely a student follows its DAgger labels, by deck count and decision kind.

The distillation logs one agreement over a whole round; a student can fit the 2-deck
follows well and the 3-deck leads badly inside the same figure. This reads stored label
parts (``RUN/dagger/round-NN``) and reports, per deck count and kind: how many labelled
steps, how often the student's top action is the teacher's, and the teacher's
probability of the student's top action (the same for one-hot labels from a rule-based
teacher; lower where the teacher spreads its probability).

Usage: ``python benchmarks/label_agreement.py POLICY ROUND_DIR [ROUND_DIR ...] [--parts 20]``
(POLICY: a checkpoint file or a model folder).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import numpy as np
import torch

from shengji_env.agents.masked_policy import MaskedPolicy
from shengji_env.agents.network import network_from_checkpoint
from shengji_env.agents.policy_file import load_checkpoint, policy_path
from shengji_env.encoding import OBS_LAYOUT, PHASE_SLOTS, deck_counts
from shengji_env.train.dagger import load_labels

KIND_OF_SLOT = {slot: kind.value for kind, slot in PHASE_SLOTS.items()}
Group = tuple[int, str]  # deck count, decision kind


def agreement_by_group(
    chosen: np.ndarray, targets: np.ndarray, decks: np.ndarray, kinds: list[str]
) -> dict[Group, tuple[int, float, float]]:
    """Per (deck count, kind): steps, share where ``chosen`` is the targets' top action,
    and the mean target probability of ``chosen``."""
    taught = targets.argmax(1)
    probability = targets[np.arange(len(chosen)), chosen]
    kind_array = np.array(kinds)
    table: dict[Group, tuple[int, float, float]] = {}
    for group in sorted(set(zip(decks.tolist(), kinds, strict=True))):
        rows = (decks == group[0]) & (kind_array == group[1])
        table[group] = (
            int(rows.sum()),
            float((chosen[rows] == taught[rows]).mean()),
            float(probability[rows].mean()),
        )
    return table


@torch.no_grad()
def student_choices(
    net: MaskedPolicy, obs: np.ndarray, masks: np.ndarray, batch: int = 4096
) -> np.ndarray:
    """The student's top action at each labelled step."""
    chosen = []
    for start in range(0, len(obs), batch):
        states = torch.from_numpy(obs[start : start + batch].astype(np.float32))
        logits, _ = net(states, torch.from_numpy(masks[start : start + batch]))
        chosen.append(logits.argmax(1).numpy())
    return np.concatenate(chosen)


def deck_counts_and_kinds(obs: np.ndarray) -> tuple[np.ndarray, list[str]]:
    """The deck count and decision kind of each state."""
    decks = deck_counts(obs)
    phase = OBS_LAYOUT["phase"]
    kinds = [KIND_OF_SLOT[int(slot)] for slot in obs[:, phase].argmax(1)]
    return decks, kinds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("policy", type=Path)
    parser.add_argument("rounds", type=Path, nargs="+")
    parser.add_argument("--parts", type=int, default=20, help="the first N parts of each round")
    args = parser.parse_args()
    torch.set_num_threads(1)
    net = network_from_checkpoint(load_checkpoint(policy_path(args.policy)), str(args.policy))
    net.eval()
    print(f"{args.policy}: its top action against the labels of the first {args.parts} parts")
    print("| round | decks | kind | steps | agreement | teacher's probability of it |")
    print("|---|---:|---|---:|---:|---:|")
    for folder in args.rounds:
        labels = load_labels(folder, args.parts)
        decks, kinds = deck_counts_and_kinds(labels.obs)
        chosen = student_choices(net, labels.obs, labels.masks)
        table = agreement_by_group(chosen, labels.targets.astype(np.float32), decks, kinds)
        for (deck_count, kind), (steps, agreement, probability) in table.items():
            print(
                f"| {folder.name} | {deck_count} | {kind} | {steps:,} | {agreement:.1%} "
                f"| {probability:.3f} |"
            )


if __name__ == "__main__":
    main()
