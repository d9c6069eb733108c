"""What seating a bot as an outside program costs the arena per decision, beyond the bot's
own time: a trivial long-running bot (``cmd:``, it passes or plays its first card and
reports the time it spent between reading the request and writing the answer) asked for
real decisions of seeded random hands. The overhead is the round trip as the arena sees it
(the request built from the seat's view, written, the answer read and parsed) minus the
bot's own time.

    python benchmarks/outside_overhead.py --decisions 2000
"""

from __future__ import annotations

import argparse
import os
import random
import shlex
import sys
import tempfile
import time
from pathlib import Path

import numpy as np

from shengji_env.actions import DecisionKind
from shengji_env.agents.outside import command_agent
from shengji_env.env import raw_env
from shengji_env.view import PHASE_OF_KIND, SeatView, view_request

TRIVIAL_BOT = """
import json, sys, time
for line in sys.stdin:
    started = time.perf_counter()
    request = json.loads(line)
    cards = [] if request["phase"] == "bid" else request["hand"][:1]
    answer = json.dumps({"cards": cards, "spent_us": 0})
    spent = (time.perf_counter() - started) * 1e6
    sys.stdout.write(answer.replace('"spent_us": 0', f'"spent_us": {spent:.1f}') + "\\n")
    sys.stdout.flush()
"""


def views(count: int, seed: int) -> list:
    """Seat views of decisions from seeded random hands, every kind."""
    rng = random.Random(seed)
    env, out, hand = raw_env(decks=2), [], 0
    while len(out) < count:
        env.reset(seed=seed + hand)
        hand += 1
        while not all(env.terminations.values()):
            observation, _, _, _, info = env.last()
            if not info.get("selection") and info["view"].kind is not None:
                out.append(info["view"])
            legal = np.flatnonzero(observation["action_mask"])
            env.step(int(rng.choice(legal)))
    return out[:count]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--decisions", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    with tempfile.TemporaryDirectory() as folder:
        bot = Path(folder) / "trivial_bot.py"
        bot.write_text(TRIVIAL_BOT, encoding="utf-8")
        agent = command_agent(shlex.join([sys.executable, str(bot)]))
        asked = views(args.decisions, args.seed)
        overheads, kinds = [], []
        cpu = time.process_time()
        for view in asked:
            started = time.perf_counter()
            answer = agent.bot.ask(agent_request(view))
            elapsed = (time.perf_counter() - started) * 1e6
            overheads.append(elapsed - float(answer["spent_us"]))
            kinds.append(view.kind)
        cpu = time.process_time() - cpu
        agent.close()
    us = np.array(overheads)
    print(
        f"{len(us)} decisions ({sum(k is DecisionKind.FOLLOW for k in kinds)} follows); "
        f"overhead beyond the bot's own time: median {np.median(us):.0f} µs, "
        f"p90 {np.percentile(us, 90):.0f} µs, p99 {np.percentile(us, 99):.0f} µs; "
        f"arena-side CPU {cpu / len(us) * 1e6:.0f} µs a decision; {os.cpu_count()} cores"
    )


def agent_request(view: SeatView) -> dict:
    assert view.kind is not None
    return view_request(view, PHASE_OF_KIND[view.kind])


if __name__ == "__main__":
    main()
