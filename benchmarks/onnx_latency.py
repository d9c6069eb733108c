"""Decision latency of OnnxAgent: one ``act`` call (a single observation) at recorded
positions, median and 99th percentile, on one thread.

Usage: ``python benchmarks/onnx_latency.py EXPORT_DIR [--decisions 2000]``
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from agents.onnx_agent import OnnxAgent
from shengji_env.env import raw_env


def positions(count: int, decks: int) -> list[dict[str, np.ndarray]]:
    env = raw_env(decks=decks)
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    observed = []
    while len(observed) < count:
        if all(env.terminations.values()):
            env.reset()
            continue
        observation = env.observe(env.agent_selection)
        observed.append(observation)
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return observed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("export_dir", type=Path)
    parser.add_argument("--decisions", type=int, default=2000)
    args = parser.parse_args()
    agent = OnnxAgent(str(args.export_dir))
    decks = json.loads((args.export_dir / "manifest.json").read_text())["rule_config"]["decks"]
    observed = positions(args.decisions, decks)
    for observation in observed[:50]:  # warm up
        agent.act(observation, {})
    latencies = []
    for observation in observed:
        start = time.perf_counter()
        agent.act(observation, {})
        latencies.append(time.perf_counter() - start)
    micros = np.array(latencies) * 1e6
    median, p99 = np.median(micros), np.percentile(micros, 99)
    print(f"{len(micros)} decisions: median {median:.0f} us, p99 {p99:.0f} us")


if __name__ == "__main__":
    main()
