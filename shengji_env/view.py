"""What one seat knows at the start of its decision, as a structured object for
rule-based bots (``info["view"]``): the same information as its observation vector
(:mod:`shengji_env.encoding`), nothing hidden from that seat."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .actions import DecisionKind
from .rules import Bid, Game, Phase, RuleConfig, TrickRecord, TrumpContext, format_cards
from .rules.cards import RANKS, SUITS


@dataclass(frozen=True)
class SeatView:
    """What one seat knows at the start of its decision, for rule-based bots. Seats here
    are absolute (0..3); ``revealed`` holds the cards failed throws showed that each seat
    still holds. The cards selected so far are ``info["selection"]``.

    ``kitty`` is the kitty the dealer picked up (during the bury) or buried (after),
    empty for the other seats. ``ctx`` is ``None`` until bidding ends.
    """

    seat: int
    config: RuleConfig
    kind: DecisionKind | None
    hand: tuple[int, ...]
    level: int
    levels: tuple[int, int]
    dealer: int | None
    bid: Bid | None
    bids: tuple[Bid, ...]
    ctx: TrumpContext | None
    trick_leader: int
    trick: tuple[tuple[int, ...], ...]
    tricks: tuple[TrickRecord, ...]
    played: tuple[tuple[int, ...], ...]
    voids: tuple[tuple[bool, ...], ...]
    revealed: tuple[tuple[int, ...], ...]
    kitty: tuple[int, ...]
    attacker_points: int
    penalty_points: int
    cards_dealt: int


def known_kitty(game: Game, seat: int) -> list[int]:
    if seat != game.dealer or game.phase is Phase.BID:
        return []
    return list(game.kitty)


def seat_view(game: Game, seat: int, kind: DecisionKind | None = None) -> SeatView:
    """The view of ``seat``; ``kind`` is the decision it is about to make, if any."""
    return SeatView(
        seat=seat,
        config=game.config,
        kind=kind,
        hand=tuple(game.hands[seat]),
        level=game.level,
        levels=(game.levels[0], game.levels[1]),
        dealer=game.dealer,
        bid=game.bid,
        bids=tuple(game.bids),
        ctx=game.ctx,
        trick_leader=game.leader,
        trick=tuple(game.trick),
        tricks=tuple(game.tricks),
        played=tuple(map(tuple, game.played)),
        voids=tuple(map(tuple, game.voids)),
        revealed=tuple(map(tuple, game.revealed)),
        kitty=tuple(known_kitty(game, seat)),
        attacker_points=game.attacker_trick_points,
        penalty_points=game.penalty_points,
        cards_dealt=game.dealt,
    )


PHASE_OF_KIND = {
    DecisionKind.BID: "bid",
    DecisionKind.BURY: "bury",
    DecisionKind.LEAD: "play",
    DecisionKind.FOLLOW: "play",
}


def view_request(view: SeatView, phase: str) -> dict[str, Any]:
    """The JSON decision protocol's request (docs/protocol.md) for ``view``'s seat in
    ``phase`` (``bid``, ``bury`` or ``play``): what that seat knows, cards as strings."""

    def names(cards: Any) -> list[str]:
        return format_cards(cards).split() if cards else []

    trump = view.bids[-1].trump_suit if view.bids else None
    return {
        "rules": view.config.to_dict(),
        "seat": view.seat,
        "phase": phase,
        "hand": names(view.hand),
        "level": RANKS[view.level],
        "levels": [RANKS[view.levels[0]], RANKS[view.levels[1]]],
        "dealer": view.dealer,
        "bids": [{"seat": bid.seat, "cards": names(bid.cards)} for bid in view.bids],
        "trump": "none" if trump is None else SUITS[trump],
        "cards_dealt": view.cards_dealt,
        "kitty": names(view.kitty),
        "tricks": [
            {
                "leader": record.leader,
                "plays": [names(play) for play in record.plays],
                "attempt": None if record.attempt is None else names(record.attempt),
            }
            for record in view.tricks
        ],
        "trick": {"leader": view.trick_leader, "plays": [names(play) for play in view.trick]},
        "revealed": [names(cards) for cards in view.revealed],
        "points": {"attackers": view.attacker_points, "penalty": view.penalty_points},
    }
