"""GreedyAgent: simple and fast. Wins a trick when it can do so cheaply, gives points to a
winning partner, otherwise sheds its lowest non-point cards; bids on a long trump suit,
buries low side cards."""

from __future__ import annotations

from shengji_env.rules import TRUMP, card_points, decompose, legal_bids
from shengji_env.rules.cards import is_joker, suit_of
from shengji_env.view import SeatView

from .knowledge import (
    by_suit,
    context,
    cost,
    current_winner,
    follow_candidates,
    is_partner,
    winner_with,
)
from .planning import PlanningAgent


class GreedyAgent(PlanningAgent):
    name = "greedy"

    def bid(self, view: SeatView) -> list[int]:
        options = legal_bids(view.hand, view.level, view.config.decks, view.bid)
        for cards in reversed(options):
            if is_joker(cards[0]):
                continue
            suit = suit_of(cards[0])
            length = sum(1 for c in view.hand if suit_of(c) == suit)
            if length >= max(3, len(view.hand) // 4):
                return list(cards)
        return []

    def bury(self, view: SeatView) -> list[int]:
        ctx = context(view)
        order = sorted(
            view.hand,
            key=lambda c: (ctx.suits[c] == TRUMP, card_points(c) > 0, ctx.rank_keys[c]),
        )
        return order[: view.config.kitty_size]

    def lead(self, view: SeatView) -> list[int]:
        ctx = context(view)
        groups = by_suit(view.hand, ctx)
        plain = {suit: cards for suit, cards in groups.items() if suit != TRUMP}
        best = None
        for cards in (plain or groups).values():
            for component in decompose(cards, ctx):
                key = (component.multiplicity * component.length, component.top_key)
                if best is None or key > best[0]:
                    best = (key, list(component.cards))
        assert best is not None
        return best[1]

    def follow(self, view: SeatView) -> list[int]:
        ctx = context(view)
        candidates = follow_candidates(view)
        if is_partner(view, current_winner(view)):
            return max(candidates, key=lambda p: (sum(map(card_points, p)), -cost(p, ctx)))
        winning = [p for p in candidates if winner_with(view, p) == view.seat]
        if winning:
            return min(winning, key=lambda p: cost(p, ctx))
        return min(candidates, key=lambda p: cost(p, ctx))
