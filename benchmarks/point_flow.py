"""Where each agent's point cards go, from arena replays: per agent and role (attacking or
defending), the points it played into tricks its team won and into tricks the other team
won, by how it played them (led, followed suit, trumped a plain lead, discarded or mixed).

Points played into a trick the other team wins are handed over; a player who hands over
more of them than another on the same deals is careless with points. Duplicate deals
seat every agent on the same cards, so the rows of two agents compare directly.

Usage::

    shengji arena --agents ppo:models/standalone-v2 heuristic --decks 3 --deals 200 \
        --start mid_match --seed 12 --replays replays.jsonl
    python benchmarks/point_flow.py replays.jsonl
"""

from __future__ import annotations

import argparse
from collections import Counter, defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

from shengji_env.replay import read_replay
from shengji_env.rules.cards import POINTS
from shengji_env.rules.config import RuleConfig
from shengji_env.rules.trump import TRUMP, TrumpContext, trump_context

WAYS = ("lead", "follow suit", "trump in", "discard or mixed")
Row = tuple[str, str]  # (agent, role)


def role(seat: int, dealer: int) -> str:
    """The seat's side in the hand: the dealer's team defends."""
    return "defending" if (seat - dealer) % 2 == 0 else "attacking"


def way_played(cards: Sequence[int], led_suit: int, leads: bool, ctx: TrumpContext) -> str:
    """How a play put its cards in the trick: one of :data:`WAYS`."""
    if leads:
        return "lead"
    suits = {ctx.suits[card] for card in cards}
    if suits == {led_suit}:
        return "follow suit"
    if led_suit != TRUMP and suits == {TRUMP}:
        return "trump in"
    return "discard or mixed"


def hand_flow(events: Sequence[dict[str, Any]]) -> dict[tuple[Row, str, bool], int]:
    """Points by (agent and role, way played, whether its team won the trick) in one hand."""
    header = events[0]
    seats, dealer = header["seats"], header["dealer"]
    score = next(event for event in events if event["event"] == "score")
    ctx = trump_context(RuleConfig(**header["rules"]), score["level"], score["trump_suit"])
    flow: dict[tuple[Row, str, bool], int] = Counter()
    plays: list[tuple[int, list[int]]] = []
    for event in events:
        if event["event"] == "play":
            plays.append((event["seat"], event["cards"]))
        elif event["event"] == "trick":
            led_suit = ctx.suits[plays[0][1][0]]
            for index, (seat, cards) in enumerate(plays):
                way = way_played(cards, led_suit, index == 0, ctx)
                won = (seat - event["winner"]) % 2 == 0
                row = (seats[seat], role(seat, dealer))
                flow[row, way, won] += sum(POINTS[card] for card in cards)
            plays = []
    return flow


def point_flow(hands: Sequence[Sequence[dict[str, Any]]]) -> dict[Row, dict[str, float]]:
    """Per (agent, role): points per seat and hand by way played and trick outcome
    (``"lead, won"``...), and the totals handed over and banked."""
    totals: dict[tuple[Row, str, bool], int] = Counter()
    seat_hands: Counter[Row] = Counter()
    for events in hands:
        header = events[0]
        if "seats" not in header:
            raise ValueError(
                "a replay without seat names: record one with 'shengji arena --replays'"
            )
        for seat, name in enumerate(header["seats"]):
            seat_hands[name, role(seat, header["dealer"])] += 1
        totals.update(hand_flow(events))
    table: dict[Row, dict[str, float]] = defaultdict(dict)
    for row, count in sorted(seat_hands.items()):
        for way in WAYS:
            for won in (True, False):
                table[row][f"{way}, {'won' if won else 'lost'}"] = totals[row, way, won] / count
        table[row]["handed over"] = sum(totals[row, way, False] for way in WAYS) / count
        table[row]["banked"] = sum(totals[row, way, True] for way in WAYS) / count
    return dict(table)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("replays", type=Path, help="replay JSON lines of 'shengji arena --replays'")
    args = parser.parse_args()
    table = point_flow(read_replay(args.replays))
    columns = list(next(iter(table.values())))
    print("| agent | role | " + " | ".join(columns) + " |")
    print("|---|---|" + "---:|" * len(columns))
    for (agent, side), values in table.items():
        print(f"| {agent} | {side} | " + " | ".join(f"{values[c]:.1f}" for c in columns) + " |")


if __name__ == "__main__":
    main()
