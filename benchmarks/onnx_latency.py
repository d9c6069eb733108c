"""Decision latency of OnnxAgent: one ``act`` call (a single observation) at recorded
positions, median and 99th percentile, on one thread, and the CPU time a decision took on
average (beside the wall time: other work on the machine inflates the wall time).

Usage: ``python benchmarks/onnx_latency.py EXPORT_DIR [--decisions 2000]``
"""

from __future__ import annotations

import argparse
import json
import time
from pathlib import Path

import numpy as np

from shengji_env.agents.onnx_agent import OnnxAgent
from shengji_env.env import raw_env


def decision_times(
    agent: OnnxAgent, rules: dict, count: int, warm_up: int = 50
) -> tuple[np.ndarray, float]:
    """Wall seconds of ``count`` ``act`` calls, each at the position of a random game under
    the policy's rules as it stands (so an advised policy reads the live view), and the
    CPU seconds they took together; ``warm_up`` calls first go untimed."""
    env = raw_env(**rules)
    rng = np.random.default_rng(0)
    env.reset(seed=0)
    latencies, cpu = [], 0.0
    while len(latencies) < count:
        if all(env.terminations.values()):
            env.reset()
            continue
        observation = env.observe(env.agent_selection)
        info = env.infos[env.agent_selection]
        cpu_start, start = time.process_time(), time.perf_counter()
        agent.act(observation, info)
        if warm_up:
            warm_up -= 1
        else:
            latencies.append(time.perf_counter() - start)
            cpu += time.process_time() - cpu_start
        env.step(int(rng.choice(np.flatnonzero(observation["action_mask"]))))
    return np.array(latencies), cpu


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("export_dir", type=Path)
    parser.add_argument("--decisions", type=int, default=2000)
    args = parser.parse_args()
    agent = OnnxAgent(str(args.export_dir))
    rules = json.loads((args.export_dir / "manifest.json").read_text())["rule_config"]
    latencies, cpu_seconds = decision_times(agent, rules, args.decisions)
    cpu = cpu_seconds / len(latencies) * 1e6
    micros = np.array(latencies) * 1e6
    median, p99 = np.median(micros), np.percentile(micros, 99)
    print(
        f"{len(micros)} decisions: median {median:.0f} us, p99 {p99:.0f} us "
        f"(wall); mean {micros.mean():.0f} us wall, {cpu:.0f} us CPU"
    )


if __name__ == "__main__":
    main()
