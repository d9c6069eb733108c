"""A scripted person for the web table tests: picks cards from what the page's state
shows (the seat's own hand, the legal cards), aiming for a declaration, a bury, a
tractor lead and a throw."""

from __future__ import annotations

from typing import Any

from shengji_env.rules import RuleConfig
from shengji_env.rules.cards import SUITS, rank_index
from shengji_env.rules.patterns import decompose
from shengji_env.rules.trump import trump_context


def context(state: dict[str, Any], decks: int = 2) -> Any:
    trump = None if state["trump"] in (None, "none") else SUITS.index(state["trump"])
    return trump_context(RuleConfig(decks=decks), rank_index(state["level"]), trump)


def lead_choice(state: dict[str, Any], tried: dict[str, bool]) -> tuple[str, list[int]]:
    """A tractor if the hand has one (once), else a throw of two components of one suit
    (once), else the first legal card."""
    hand = [card["id"] for card in state["hand"]]
    components = decompose(hand, context(state))
    if not tried.get("tractor"):
        for component in components:
            if component.length >= 2:
                return "tractor", list(component.cards)
    if not tried.get("throw"):
        by_suit: dict[int, list[Any]] = {}
        for component in components:
            by_suit.setdefault(component.suit, []).append(component)
        for group in by_suit.values():
            if len(group) >= 2:
                big = sorted(group, key=lambda c: -c.top_key)[:2]
                return "throw", [card for component in big for card in component.cards]
    return "single", [state["legal"][0]]


def choose(state: dict[str, Any], tried: dict[str, bool]) -> tuple[str, list[int]]:
    """What to click in this state: (what it is, card ids in click order)."""
    phase = state["phase"]
    if phase == "bid":
        return (
            ("declare", [state["legal"][0]])
            if state["legal"] and not state["bids"]
            else ("pass", [])
        )
    if phase == "bury":
        hand = [card["id"] for card in state["hand"]]
        return "bury", hand[-8:]  # the lowest cards in trump order
    if phase == "lead":
        return lead_choice(state, tried)
    return "follow", []  # follow: the caller clicks legal cards until the play is complete


def play_decision(session: Any, tried: dict[str, bool], before_play: Any = None) -> None:
    """One decision of the scripted person at a TableSession: pick, complete, play;
    ``before_play(session)`` sees the full selection before it is played."""
    what, cards = choose(session.state(), tried)
    tried[what] = True
    for card in cards:
        session.select(card)
    while not session.state()["can_play"]:
        session.select(session.state()["legal"][0])
    if before_play is not None:
        before_play(session)
    session.play()
