"""Two arena results against the same opponent on the same deals, compared deal by deal:
the mean difference of A's level gain per hand (in whole matches, of its match reward, ±1)
with its 95% interval over the paired deals.

Usage: ``python benchmarks/paired_results.py NEW.json OLD.json``

Both files come from ``shengji arena --agents X OPPONENT --seed S --out FILE`` with the same
opponent, seed and options; only the deals both finished are compared. A file may be
gzipped (``FILE.json.gz``), as the large records in ``benchmarks/results/`` are.
"""

from __future__ import annotations

import argparse
import gzip
import json
from pathlib import Path
from typing import Any

from shengji_env.agents.arena import DealRecord, Interval


def gains_by_seed(result: dict[str, Any]) -> dict[int, float]:
    """A's mean reward per hand, by deal seed, for the result's only pair of agents."""
    records = [DealRecord.from_json(record) for record in result["records"]]
    opponents = {record.b for record in records}
    if len(opponents) != 1:
        raise ValueError(f"expected one pair of agents, found opponents {sorted(opponents)}")
    return {record.seed: record.a_gain for record in records}


def compare(new: dict[str, Any], old: dict[str, Any]) -> tuple[int, Interval]:
    """Deals compared and the interval of new minus old."""
    for key in ("seed", "options"):
        if new[key] != old[key]:
            raise ValueError(f"the results differ in {key}: {new[key]!r} and {old[key]!r}")
    new_gains, old_gains = gains_by_seed(new), gains_by_seed(old)
    if {r["b"] for r in new["records"]} != {r["b"] for r in old["records"]}:
        raise ValueError("the results were played against different opponents")
    common = sorted(new_gains.keys() & old_gains.keys())
    return len(common), Interval.of([new_gains[s] - old_gains[s] for s in common])


def unit_of(result: dict[str, Any]) -> str:
    """What one paired difference measures: levels a hand, or a whole match's reward."""
    return "a match (reward ±1)" if result["options"].get("episode") == "match" else "levels a hand"


def read_result(path: Path) -> dict[str, Any]:
    """An arena result from its JSON file, gzipped or not."""
    if path.suffix == ".gz":
        with gzip.open(path, "rt", encoding="utf-8") as file:
            return json.load(file)
    return json.loads(path.read_text(encoding="utf-8"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("new", type=Path)
    parser.add_argument("old", type=Path)
    args = parser.parse_args()
    new, old = (read_result(path) for path in (args.new, args.old))
    deals, difference = compare(new, old)
    print(f"{deals} paired deals: new minus old {difference} {unit_of(new)}")


if __name__ == "__main__":
    main()
