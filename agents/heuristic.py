"""HeuristicAgent: the strongest rule-based player here.

It counts cards (what is unseen can still beat it) and voids (who may ruff), leads sure
winners and safe throws, draws trumps when its side holds trump control, leads into a
partner's void, protects points when the opponents win a trick and feeds them to a
partner who wins, keeps a strong trump combination for the last trick as an attacker
(the kitty multiplier), buries to make voids, and bids by trump strength.
"""

from __future__ import annotations

from collections import Counter

from shengji_env.rules import TRUMP, TrumpContext, card_points, decompose, legal_bids
from shengji_env.rules.cards import is_joker, rank_of, suit_of
from shengji_env.rules.patterns import Component
from shengji_env.view import SeatView

from .knowledge import (
    by_suit,
    context,
    cost,
    current_winner,
    follow_candidates,
    is_attacker,
    is_partner,
    others_can_beat,
    ruff_risk,
    unseen,
    winner_with,
)
from .planning import PlanningAgent

ENDGAME_CARDS = 6  # cards left in hand when the kitty fight begins


class HeuristicAgent(PlanningAgent):
    name = "heuristic"

    # --- bidding and burying -------------------------------------------------------------

    def bid(self, view: SeatView) -> list[int]:
        """Declare the suit that makes the most trump, if it is a strong share of the hand."""
        options = legal_bids(view.hand, view.level, view.config.decks, view.bid)
        jokers = sum(1 for c in view.hand if is_joker(c))
        levels = sum(1 for c in view.hand if rank_of(c) == view.level)
        best: tuple[float, list[int]] | None = None
        for cards in options:
            if is_joker(cards[0]):
                strength = jokers + levels  # no trump: only jokers and level cards
            else:
                suit = suit_of(cards[0])
                strength = (
                    jokers
                    + levels
                    + sum(1 for c in view.hand if suit_of(c) == suit and rank_of(c) != view.level)
                )
            share = strength / max(1, len(view.hand))
            if best is None or share > best[0]:
                best = (share, list(cards))
        threshold = 0.3 if view.bid is None else 0.4
        if best is not None and best[0] >= threshold and len(view.hand) >= 5:
            return best[1]
        return []

    def bury(self, view: SeatView) -> list[int]:
        """Empty the shortest side suits (voids let the dealer ruff); keep trumps, aces,
        pairs and points; fill with the lowest loose side cards."""
        ctx = context(view)
        size = view.config.kitty_size
        side = {s: cards for s, cards in by_suit(view.hand, ctx).items() if s != TRUMP}
        keep_value = Counter()
        for cards in side.values():
            for component in decompose(cards, ctx):
                for card in component.cards:
                    keep_value[card] = max(
                        keep_value[card],
                        2 * component.multiplicity * component.length + ctx.rank_keys[card] / 20,
                    )
        buried: list[int] = []
        for suit in sorted(side, key=lambda s: len(side[s])):
            cards = side[suit]
            if len(buried) + len(cards) > size:
                continue
            if any(card_points(c) or keep_value[c] >= 4 or self._is_top(c, ctx) for c in cards):
                continue
            buried += cards
        rest = sorted(
            (c for c in view.hand if c not in buried or buried.count(c) < view.hand.count(c)),
            key=lambda c: (
                ctx.suits[c] == TRUMP,
                keep_value[c] >= 4,
                card_points(c) > 0,
                self._is_top(c, ctx),
                keep_value[c],
                ctx.rank_keys[c],
            ),
        )
        for card in rest:
            if len(buried) == size:
                break
            if buried.count(card) < view.hand.count(card):
                buried.append(card)
        return buried

    @staticmethod
    def _is_top(card: int, ctx: TrumpContext) -> bool:
        suit = ctx.suits[card]
        return ctx.rank_keys[card] >= ctx.key_count[suit] - 2

    # --- leading -------------------------------------------------------------------------

    def lead(self, view: SeatView) -> list[int]:
        ctx = context(view)
        pool = unseen(view)
        groups = by_suit(view.hand, ctx)
        if is_attacker(view) and len(view.hand) <= ENDGAME_CARDS:
            kept = self._kitty_weapon(view, groups)
            if kept is not None and len(view.hand) == kept.size:
                return list(kept.cards)
        throw = self._safe_throw(view, groups, pool)
        if throw is not None:
            return throw
        sure = self._sure_winner(view, groups, pool)
        if sure is not None:
            return sure
        for suit, cards in sorted(groups.items(), key=lambda item: len(item[1])):
            if suit != TRUMP and self._partner_void(view, suit):
                return [min(cards, key=lambda c: (card_points(c), ctx.rank_keys[c]))]
        return self._strongest(view, groups, pool)

    def _safe_throw(
        self, view: SeatView, groups: dict[int, list[int]], pool: Counter
    ) -> list[int] | None:
        ctx = context(view)
        best: list[int] | None = None
        for suit, cards in groups.items():
            if ruff_risk(view, suit) or (suit == TRUMP and not self._void_everywhere(view)):
                continue
            sure = [c for c in decompose(cards, ctx) if not others_can_beat(view, c, pool)]
            if len(sure) >= 2:
                play = [card for component in sure for card in component.cards]
                if best is None or len(play) > len(best):
                    best = play
        return best

    @staticmethod
    def _void_everywhere(view: SeatView) -> bool:
        return all(view.voids[s][TRUMP] for s in range(4) if s != view.seat)

    def _sure_winner(
        self, view: SeatView, groups: dict[int, list[int]], pool: Counter
    ) -> list[int] | None:
        ctx = context(view)
        best: tuple[tuple[int, int, int], list[int]] | None = None
        for suit, cards in groups.items():
            if suit == TRUMP or ruff_risk(view, suit):
                continue
            for component in decompose(cards, ctx):
                if others_can_beat(view, component, pool):
                    continue
                points = sum(card_points(c) for c in component.cards)
                key = (component.size, points, component.top_key)
                if best is None or key > best[0]:
                    best = (key, list(component.cards))
        return best[1] if best else None

    def _partner_void(self, view: SeatView, suit: int) -> bool:
        partner = (view.seat + 2) % 4
        opponents = [(view.seat + 1) % 4, (view.seat + 3) % 4]
        return (
            view.voids[partner][suit]
            and not view.voids[partner][TRUMP]
            and not any(view.voids[o][suit] for o in opponents)
        )

    def _strongest(self, view: SeatView, groups: dict[int, list[int]], pool: Counter) -> list[int]:
        """Lead the biggest side-suit combination (pairs and tractors take tricks); a lone
        single that can be beaten goes low and pointless instead."""
        ctx = context(view)
        side = {s: cards for s, cards in groups.items() if s != TRUMP} or groups
        weapon = self._kitty_weapon(view, groups) if is_attacker(view) else None
        keep = set(weapon.cards) if weapon else set()
        best: tuple[tuple[int, int], Component] | None = None
        for cards in side.values():
            for component in decompose(cards, ctx):
                if keep & set(component.cards) and len(side) > 1:
                    continue
                key = (component.size, component.top_key)
                if best is None or key > best[0]:
                    best = (key, component)
        if best is None:
            return [min(view.hand, key=lambda c: (card_points(c) > 0, ctx.rank_keys[c]))]
        component = best[1]
        if component.size == 1 and others_can_beat(view, component, pool):
            suit = component.suit
            return [min(side[suit], key=lambda c: (card_points(c) > 0, ctx.rank_keys[c]))]
        return list(component.cards)

    def _kitty_weapon(self, view: SeatView, groups: dict[int, list[int]]) -> Component | None:
        """The strongest trump combination, kept to win the last trick with a multiplier."""
        if TRUMP not in groups:
            return None
        components = decompose(groups[TRUMP], context(view))
        return max(components, key=lambda c: (c.size, c.top_key))

    # --- following -----------------------------------------------------------------------

    def follow(self, view: SeatView) -> list[int]:
        ctx = context(view)
        pool = unseen(view)
        candidates = follow_candidates(view)
        trick_points = sum(card_points(c) for play in view.trick for c in play)
        last_to_play = len(view.trick) == 3
        winner = current_winner(view)
        if is_partner(view, winner) and (last_to_play or self._holds(view, winner, pool)):
            return max(candidates, key=lambda p: (sum(map(card_points, p)), -cost(p, ctx)))
        winning = [p for p in candidates if winner_with(view, p) == view.seat]
        if winning:
            cheapest = min(winning, key=lambda p: cost(p, ctx))
            if last_to_play:
                if trick_points > 0 or cost(cheapest, ctx) < 15:
                    return cheapest
            else:
                safe = [p for p in winning if self._stands(view, p, pool)]
                if safe:
                    return min(safe, key=lambda p: cost(p, ctx))
                if trick_points >= 10:
                    return max(winning, key=lambda p: (self._top_key(p, ctx), -cost(p, ctx)))
                if cost(cheapest, ctx) < 12:
                    return cheapest
        if is_partner(view, winner):
            return max(candidates, key=lambda p: (sum(map(card_points, p)), -cost(p, ctx)))
        return min(candidates, key=lambda p: (sum(map(card_points, p)), cost(p, ctx)))

    def _holds(self, view: SeatView, winner: int, pool: Counter) -> bool:
        """The partner's winning play will stand against the players still to come."""
        index = (winner - view.trick_leader) % 4
        return self._stands(view, list(view.trick[index]), pool, played=True)

    def _stands(self, view: SeatView, play: list[int], pool: Counter, played: bool = False) -> bool:
        ctx = context(view)
        lead = view.trick[0]
        suit = ctx.suits[lead[0]]
        followers = 3 - len(view.trick) + (1 if played else 0)
        if followers <= 0:
            return True
        if any(ctx.suits[c] != suit for c in play):
            return suit != TRUMP and not self._later_may_ruff(view, suit)
        components = decompose(play, ctx)
        if len(components) != 1:
            return True
        return not others_can_beat(view, components[0], pool) and not (
            suit != TRUMP and self._later_may_ruff(view, suit)
        )

    def _later_may_ruff(self, view: SeatView, suit: int) -> bool:
        later = [(view.seat + k) % 4 for k in range(1, 4 - len(view.trick))]
        return any(
            view.voids[s][suit] and not view.voids[s][TRUMP] for s in later if (s - view.seat) % 2
        )

    @staticmethod
    def _top_key(play: list[int], ctx: TrumpContext) -> int:
        return max(ctx.rank_keys[c] + (100 if ctx.suits[c] == TRUMP else 0) for c in play)
