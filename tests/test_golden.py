"""A seeded 2-deck hand written out as text; a rules change shows up as a readable diff.

Regenerate after an intended change with ``make golden`` and review the diff.
"""

import difflib
from pathlib import Path

from shengji_env.demo import hand_trace
from shengji_env.rules import RuleConfig

GOLDEN = Path(__file__).parent / "golden" / "hand_2decks_seed7.txt"


def test_golden_trace_is_unchanged():
    expected = GOLDEN.read_text(encoding="utf-8").splitlines()
    actual = hand_trace(RuleConfig(decks=2), seed=7)
    diff = "\n".join(difflib.unified_diff(expected, actual, "golden", "now", lineterm=""))
    assert actual == expected, f"the trace changed (make golden regenerates it):\n{diff}"


def test_golden_trace_shows_every_trick_and_the_result():
    lines = GOLDEN.read_text(encoding="utf-8").splitlines()
    assert lines[0].startswith("Shengji hand: 2 deck(s), seed 7")
    assert any(line.startswith("Trick  1") for line in lines)
    assert lines[-1].startswith("Result:")
