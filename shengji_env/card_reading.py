"""What a player reads off the public record, card by card: the observation's last three
blocks, worked out from the blocks before them (so from nothing hidden).

- ``card_counting`` (3 x 54): the copies of each card still out (not in the own hand, not
  played, not in the own kitty), whether the card is in hand and no outstanding card of
  its suit beats it, and how many outstanding copies of its suit rank above it.
- ``play_reading`` (7 x 54): whether the card's suit was led, whether the play winning
  the trick holds that suit, whether the card ranks above that play's highest card there,
  the card's points, the own copies of its suit, whether the partner has shown void in its
  suit, and whether an opponent has while not void in trump (a ruff threat).
- ``card_context`` (18): the copies out and in hand by suit, the points in the trick, the
  lead's size and most copies of one card, whether the winning play is trump, how many
  outstanding cards beat its top card, and the deck count one-hot.

"Suit" is the effective suit (trump as one). By-suit values are in suit-group order: the
plain suits other than the trump suit in printed order (♠♥♦♣), the trump suit's plain
column (empty then), then trump. Copies are divided by the decks, sums over a suit also
by ``SUIT_SCALE`` and points by the deck's points, so every value stays in ``[0, 1]``.
The compiled core writes the same values (csrc/encoder.cpp), bit for bit.
"""

from __future__ import annotations

import numpy as np

from .rules.cards import NUM_CARD_TYPES, NUM_RANKS, NUM_SUITS, POINTS

COUNTING_ROWS = 3  # copies out, boss, outstanding copies above
PLAY_ROWS = 7  # led suit, winner holds the suit, above the winner, points, own copies of
# the suit, partner void, opponent ruff threat
SUIT_GROUPS = NUM_SUITS + 1  # the plain suits and trump
DECK_COUNTS = 3
CONTEXT_SIZE = 2 * SUIT_GROUPS + 5 + DECK_COUNTS
SUIT_SCALE = float(NUM_CARD_TYPES)  # a suit holds fewer card types: sums stay below 1
POINT_SCALE = 10.0  # a card's points: a ten or king is 1.0
TRUMP_COLUMN = NUM_SUITS  # the ``voids`` block's trump column

_PRINTED_SUIT = np.array([card // NUM_RANKS for card in range(NUM_SUITS * NUM_RANKS)] + [-1, -1])
_POINTS = np.array(POINTS, dtype=np.float64)
_DECK_POINTS = float(_POINTS.sum())
_GROUPS = np.arange(SUIT_GROUPS)[:, None]


def write_card_reading(
    vector: np.ndarray, layout: dict[str, slice], decks: int, bury_column: int
) -> None:
    """Fill the three derived blocks of ``vector`` from its other blocks (``layout``: the
    observation layout; ``bury_column``: the phase slot that is 1 while the dealer buries,
    the kitty then being in the hand too)."""
    counted = slice(layout["hand"].start, layout["kitty"].stop)  # the card counts, in one
    copies = np.rint(vector[counted] * decks).astype(np.int64).reshape(-1, NUM_CARD_TYPES)
    hands, played, trick, kitty = (copies[_rows(layout, name)] for name in _COUNTED)
    hand = hands[0]
    burying = vector[bury_column] > 0.5
    seen = hand + played.sum(0) + (0 if burying else kitty[0])
    out = np.maximum(decks - seen, 0)
    trump = vector[layout["trump_cards"]] > 0.5
    trump_suit = int(np.argmax(vector[layout["trump_suit"]]))  # NUM_SUITS: none
    column = np.where(trump, TRUMP_COLUMN, _PRINTED_SUIT)
    group = np.where(trump, TRUMP_COLUMN, _PRINTED_SUIT - (trump_suit < _PRINTED_SUIT))
    members = (group == _GROUPS).astype(np.int64)  # (5, 54)
    order = vector[layout["card_order"]]
    above = (group[:, None] == group) & (order > order[:, None])  # [c, j]: j beats c
    higher = above.astype(np.int64) @ out
    suit_total = decks * SUIT_SCALE
    vector[layout["card_counting"]] = np.concatenate(
        [out / decks, (hand > 0) & (higher == 0), higher / suit_total]
    )
    led = _seat_row(trick, vector[layout["leader"]])
    winning = _seat_row(trick, vector[layout["trick_winner"]]) > 0
    led_groups = (members @ (led > 0)) > 0
    win_groups = (members @ winning) > 0
    top = (np.where(winning, order + 1.0, 0.0) * members).max(1)
    hand_groups = members @ hand
    voids = vector[layout["voids"]].reshape(4, SUIT_GROUPS)
    threat = np.maximum(
        *(voids[seat, column] * (1.0 - voids[seat, TRUMP_COLUMN]) for seat in (1, 3))
    )
    holds = win_groups[group]
    vector[layout["play_reading"]] = np.concatenate(
        [
            led_groups[group],
            holds,
            (order + 1.0 > top[group]) & holds,
            _POINTS / POINT_SCALE,
            hand_groups[group] / suit_total,
            voids[2, column],
            threat,
        ]
    )
    over = higher[winning].min() / suit_total if winning.any() else 0.0
    deck = np.zeros(DECK_COUNTS)
    deck[decks - 1] = 1.0
    vector[layout["card_context"]] = np.concatenate(
        [
            members @ out / suit_total,
            hand_groups / suit_total,
            [
                trick.sum(0) @ _POINTS / (decks * _DECK_POINTS),
                led.sum() / suit_total,
                led.max() / decks,
                float(win_groups[TRUMP_COLUMN]),
                over,
            ],
            deck,
        ]
    )


_COUNTED = ("hand", "played", "trick", "kitty")


def _rows(layout: dict[str, slice], name: str) -> slice:
    """The 54-card rows of a card block among the rows from ``hand`` on."""
    start = (layout[name].start - layout["hand"].start) // NUM_CARD_TYPES
    return slice(start, start + (layout[name].stop - layout[name].start) // NUM_CARD_TYPES)


def _seat_row(rows: np.ndarray, one_hot: np.ndarray) -> np.ndarray:
    """The row of the relative seat ``one_hot`` names (zeros where it names none)."""
    if not one_hot.any():
        return np.zeros(NUM_CARD_TYPES, dtype=np.int64)
    return rows[int(np.argmax(one_hot))]
