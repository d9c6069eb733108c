"""What a seat can infer from its view: unseen cards, voids, candidate plays, who wins.

Everything here reads only a :class:`~shengji_env.encoding.SeatView`; nothing hidden.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable

from shengji_env.information import unseen
from shengji_env.rules import (
    TRUMP,
    TrumpContext,
    card_points,
    legal_plays,
    ruff_strength,
)
from shengji_env.rules.legal import submultisets
from shengji_env.rules.patterns import Component, decompose
from shengji_env.rules.trick import trick_winner
from shengji_env.view import SeatView

FOLLOW_LIMIT = 400
__all__ = ["unseen"]  # re-exported: the bots read it from here


def context(view: SeatView) -> TrumpContext:
    if view.ctx is None:
        raise ValueError("trump is not known before the bidding ends")
    return view.ctx


def others_can_beat(view: SeatView, component: Component, pool: Counter[int]) -> bool:
    """Whether the cards outside this seat could form a higher component of the same shape
    in its suit (pooled over the other seats: cautious). Seats void in the suit hold none."""
    ctx = context(view)
    suit = component.suit
    holders = [s for s in range(4) if s != view.seat and not view.voids[s][suit]]
    if not holders:
        return False
    keys = {
        ctx.rank_keys[card]
        for card, count in pool.items()
        if count >= component.multiplicity and ctx.suits[card] == suit
    }
    return any(
        all(key - step in keys for step in range(component.length))
        for key in keys
        if key > component.top_key
    )


def ruff_risk(view: SeatView, suit: int) -> bool:
    """An opponent void in a plain ``suit`` may still hold trump."""
    if suit == TRUMP:
        return False
    return any(
        view.voids[s][suit] and not view.voids[s][TRUMP] for s in range(4) if (s - view.seat) % 2
    )


def by_suit(cards: Iterable[int], ctx: TrumpContext) -> dict[int, list[int]]:
    groups: dict[int, list[int]] = {}
    for card in cards:
        groups.setdefault(ctx.suits[card], []).append(card)
    return groups


def cost(cards: Iterable[int], ctx: TrumpContext) -> float:
    """How much playing these cards gives up: rank, trump-ness and points."""
    return sum(
        ctx.rank_keys[c] + (20 if ctx.suits[c] == TRUMP else 0) + 2 * card_points(c) for c in cards
    )


def follow_candidates(view: SeatView) -> list[list[int]]:
    """Legal follows worth considering: all of them when few, else a spread of fills."""
    ctx = context(view)
    lead = view.trick[0]
    hand = list(view.hand)
    suit = ctx.suits[lead[0]]
    in_suit = [c for c in hand if ctx.suits[c] == suit]
    if len(in_suit) >= len(lead):
        return legal_plays(hand, lead, ctx, limit=FOLLOW_LIMIT)
    need = len(lead) - len(in_suit)
    others = [c for c in hand if ctx.suits[c] != suit]
    cheap = sorted(others, key=lambda c: (card_points(c), ctx.suits[c] == TRUMP, ctx.rank_keys[c]))
    rich = sorted(others, key=lambda c: (-card_points(c), ctx.suits[c] == TRUMP, ctx.rank_keys[c]))
    candidates = [in_suit + cheap[:need], in_suit + rich[:need]]
    trumps = [c for c in others if ctx.suits[c] == TRUMP]
    if not in_suit and suit != TRUMP and len(trumps) >= len(lead):
        components = decompose(lead, ctx)
        items = sorted(Counter(trumps).items(), key=lambda item: -ctx.rank_keys[item[0]])
        for count, play in enumerate(submultisets(items, len(lead))):
            if count >= FOLLOW_LIMIT:
                break
            if ruff_strength(components, play, ctx) is not None:
                candidates.append(play)
    return candidates


def winner_with(view: SeatView, play: list[int]) -> int:
    """The seat that would be winning the trick if this seat played ``play`` now."""
    plays = [*view.trick, tuple(play)]
    return (view.trick_leader + trick_winner(plays, context(view))) % 4


def current_winner(view: SeatView) -> int:
    return (view.trick_leader + trick_winner(list(view.trick), context(view))) % 4


def is_partner(view: SeatView, seat: int) -> bool:
    return seat != view.seat and (seat - view.seat) % 2 == 0


def is_attacker(view: SeatView) -> bool:
    return view.dealer is not None and (view.seat - view.dealer) % 2 == 1
