"""Shared helpers: readable card lists and contexts for the rules tests."""

from __future__ import annotations

from collections.abc import Sequence

import pytest

from shengji_env.rules import RuleConfig, TrumpContext, parse_cards


def cards(text: str) -> list[int]:
    return parse_cards(text)


def context(
    level: str = "10", trump: str | None = "H", decks: int = 2, **options: object
) -> TrumpContext:
    return TrumpContext(RuleConfig(decks=decks, **options), level=level, trump_suit=trump)


def deck_for(hands: Sequence[str], kitty: str, first_seat: int = 0) -> list[int]:
    """A deck order that deals ``hands[seat]`` to each seat (one card at a time from
    ``first_seat``) and leaves ``kitty`` last."""
    per_seat = [parse_cards(text) for text in hands]
    order: list[int] = []
    for index in range(len(per_seat[0])):
        for offset in range(4):
            order.append(per_seat[(first_seat + offset) % 4][index])
    return order + parse_cards(kitty)


@pytest.fixture
def ctx10h() -> TrumpContext:
    return context()


def pytest_terminal_summary(terminalreporter) -> None:
    """Report how many inputs the fuzz tests tried (``fuzz_*`` properties of passed tests)
    and how much the differential tests compared (``differential_*``), gathered from every
    xdist worker."""
    counts: dict[str, int] = {}
    for report in terminalreporter.stats.get("passed", []):
        for name, value in getattr(report, "user_properties", []):
            if name.startswith(("fuzz_", "differential_")) or name.endswith("_states"):
                counts[name] = counts.get(name, 0) + int(value)
    for name, count in sorted(counts.items()):
        if name.startswith("fuzz_"):
            terminalreporter.write_line(f"fuzz {name[5:]}: {count:,} inputs, 0 crashes")
    for name, what in (
        ("whole_move_states", "whole-move states"),
        ("resampled_states", "resampled states"),
    ):
        if name in counts:
            terminalreporter.write_line(
                f"{what} checked against the card-by-card env: {counts[name]:,}"
            )
    if "differential_hands" in counts:
        terminalreporter.write_line(
            f"core vs reference: {counts['differential_hands']:,} episodes, "
            f"{counts['differential_steps']:,} steps compared, 0 differences"
        )
