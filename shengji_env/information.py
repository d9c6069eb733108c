"""What one seat knows, as search users want it: an information-state string (equal for
exactly the states the seat cannot tell apart) and ``resample``, which draws a full state
consistent with the seat's information (SearchAgent plays its rollouts on such states)."""

from __future__ import annotations

import random
from collections import Counter

from .actions import DecisionKind
from .rules import Game, Phase, Position
from .rules.cards import NUM_CARD_TYPES, RANKS, SUITS, format_cards
from .view import SeatView

SAMPLE_TRIES = 20
KITTY = -1


def unseen(view: SeatView) -> Counter[int]:
    """Cards the seat has not seen: in the other hands (or the hidden kitty)."""
    counts = [view.config.decks] * NUM_CARD_TYPES
    for cards in (view.hand, *view.played, view.kitty):
        for card in cards:
            counts[card] -= 1
    return Counter({card: count for card, count in enumerate(counts) if count > 0})


def information_state(view: SeatView) -> str:
    """Everything ``view``'s seat knows, as one line of text per item: two states give the
    same string iff the seat sees the same rules, deal so far, declarations, kitty (the
    dealer's), tricks, current trick, revealed cards and scores."""

    def cards(items: object) -> str:
        return format_cards(sorted(items)) if items else "-"  # type: ignore[arg-type]

    trump = "-" if view.ctx is None or view.ctx.trump_suit is None else SUITS[view.ctx.trump_suit]
    lines = [
        f"rules {sorted(view.config.to_dict().items())}",
        f"seat {view.seat} decides {view.kind.value if view.kind else '-'}",
        f"levels {RANKS[view.levels[0]]} {RANKS[view.levels[1]]} hand level {RANKS[view.level]}",
        f"dealer {view.dealer if view.dealer is not None else '-'} dealt {view.cards_dealt}",
        "bids " + " | ".join(f"{b.seat}:{format_cards(b.cards)}" for b in view.bids),
        f"trump {trump}",
        f"hand {cards(view.hand)}",
        f"kitty {cards(view.kitty)}",
    ]
    for number, trick in enumerate(view.tricks):
        plays = " | ".join(format_cards(play) for play in trick.plays)
        attempt = "" if trick.attempt is None else f" (tried {format_cards(trick.attempt)})"
        lines.append(
            f"trick {number} led by {trick.leader}{attempt}: {plays} won by {trick.winner}"
        )
    current = " | ".join(format_cards(play) for play in view.trick)
    lines.append(f"current trick led by {view.trick_leader}: {current or '-'}")
    lines.append("revealed " + " | ".join(cards(shown) for shown in view.revealed))
    lines.append(f"points {view.attacker_points} penalty {view.penalty_points}")
    return "\n".join(lines)


def resample(view: SeatView, rng: random.Random) -> Game:
    """A full state consistent with ``view`` (the play phase): the unseen cards dealt at
    random to the other hands (respecting their sizes, shown voids and revealed cards) and
    the hidden kitty. The seat's view of the game it returns is ``view`` again.

    Raises:
        ValueError: outside the play (bids and the bury come before hidden cards matter).
    """
    if view.kind not in (DecisionKind.LEAD, DecisionKind.FOLLOW) or view.dealer is None:
        raise ValueError("resample draws states in the play phase (a lead or a follow)")
    config = view.config
    pool = unseen(view)
    hands: list[list[int]] = [[] for _ in range(4)]
    hands[view.seat] = list(view.hand)
    for seat in range(4):
        if seat != view.seat:
            hands[seat] = list(view.revealed[seat])
            pool.subtract(view.revealed[seat])
    sizes = [config.hand_size - len(view.played[s]) for s in range(4)]
    cards = list((+pool).elements())
    for attempt in range(SAMPLE_TRIES + 1):
        dealt = _deal(cards, hands, sizes, view, rng, respect_voids=attempt < SAMPLE_TRIES)
        if dealt is not None:
            break
    assert dealt is not None
    full_hands, kitty = dealt
    position = Position(
        config,
        Phase.PLAY,
        view.seat,
        full_hands,
        view.level,
        view.levels,
        view.dealer,
        view.bids,
        view.cards_dealt,
        kitty=list(view.kitty) if view.seat == view.dealer else kitty,
        leader=view.trick_leader,
        trick=view.trick,
        tricks=view.tricks,
        revealed=view.revealed,
        attacker_trick_points=view.attacker_points,
        penalty_points=view.penalty_points,
    )
    return Game.from_position(position, rng=random.Random(rng.random()))


def _deal(
    cards: list[int],
    hands: list[list[int]],
    sizes: list[int],
    view: SeatView,
    rng: random.Random,
    respect_voids: bool,
) -> tuple[list[list[int]], list[int]] | None:
    """Deal ``cards`` into the other hands' free room and the hidden kitty (slot -1)."""
    ctx = view.ctx
    assert ctx is not None
    room = {s: sizes[s] - len(hands[s]) for s in range(4) if s != view.seat}
    room[KITTY] = len(cards) - sum(room.values())
    result = [list(hand) for hand in hands]
    kitty: list[int] = []
    shuffled = list(cards)
    rng.shuffle(shuffled)
    for card in shuffled:
        suit = ctx.suits[card]
        slots = [
            s
            for s, free in room.items()
            if free > 0 and (s == KITTY or not (respect_voids and view.voids[s][suit]))
        ]
        if not slots:
            return None
        slot = rng.choices(slots, [room[s] for s in slots])[0]
        (kitty if slot == KITTY else result[slot]).append(card)
        room[slot] -= 1
    return result, kitty
