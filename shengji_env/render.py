"""Text rendering of a game for people: ♠♥♦♣, hands in trump order, the current trick."""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Decision
from .rules import Game, HandResult, Phase, TrumpContext, format_cards
from .rules.cards import RANKS, SUIT_SYMBOLS
from .view import SeatView


def _cards(cards: Sequence[int], ctx: TrumpContext | None) -> str:
    ordered = sorted(cards, key=ctx.sort_key, reverse=True) if ctx else sorted(cards, reverse=True)
    return format_cards(ordered, symbols=True) or "-"


def render_text(game: Game, decision: Decision | None = None) -> str:
    """A readable picture of the table: trump, levels, points, hands and the trick."""
    ctx = game.ctx
    trump = game.ctx.trump_suit if ctx else (game.bid.trump_suit if game.bid else None)
    trump_text = "no trump" if trump is None else f"trump {SUIT_SYMBOLS[trump]}"
    dealer = "?" if game.dealer is None else str(game.dealer)
    lines = [
        f"Hand {game.hand_number + 1} | phase {game.phase.value} | level {RANKS[game.level]} | "
        f"{trump_text} | dealer seat {dealer}",
        f"Levels: seats 0+2 {RANKS[game.levels[0]]}, seats 1+3 {RANKS[game.levels[1]]} | "
        f"attackers' points {game.attacker_trick_points}",
    ]
    for seat in range(4):
        marker = "*" if game.current_player == seat and game.phase not in _OVER else " "
        lines.append(f"{marker} seat {seat}: {_cards(game.hands[seat], ctx)}")
    if game.trick:
        plays = " | ".join(
            f"{(game.leader + i) % 4}: {_cards(play, ctx)}" for i, play in enumerate(game.trick)
        )
        lines.append(f"Trick {len(game.tricks) + 1}: {plays}")
    elif game.tricks:
        last = game.tricks[-1]
        lines.append(f"Last trick won by seat {last.winner} (+{last.points})")
    if decision is not None and decision.selection:
        lines.append(f"Selected by seat {decision.seat}: {_cards(decision.selection, ctx)}")
    if game.result is not None and game.phase in _OVER:
        result = game.result
        lines.append(
            f"Result: attackers {result.attacker_points} points; {result.winner} "
            f"+{result.levels_gained}"
        )
    return "\n".join(lines)


_OVER = (Phase.HAND_OVER, Phase.MATCH_OVER)


def render_seat(
    view: SeatView, selection: Sequence[int] = (), result: HandResult | None = None
) -> str:
    """What one seat may see, as text for a person in that seat: their own hand, the
    declarations, trump and levels, the current and last trick, points taken, the kitty
    (the dealer's own), cards failed throws revealed, and the result once the hand is over.
    Made from a :class:`SeatView` alone, so nothing hidden from the seat can show."""
    ctx = view.ctx
    lines = [_seat_header(view), f"Your hand (seat {view.seat}): {_cards(view.hand, ctx)}"]
    if view.bids:
        shown = " | ".join(f"seat {bid.seat}: {_cards(bid.cards, ctx)}" for bid in view.bids)
        lines.append(f"Declarations: {shown}")
    if view.kitty:
        lines.append(f"Kitty (yours): {_cards(view.kitty, ctx)}")
    for seat, cards in enumerate(view.revealed):
        if cards:
            lines.append(f"Seat {seat} showed by a failed throw: {_cards(cards, ctx)}")
    if view.tricks:
        last = view.tricks[-1]
        lines.append(
            f"Last trick (won by seat {last.winner}, {last.points} points): "
            + _trick_text(last.leader, last.plays, ctx)
        )
    if view.trick:
        lines.append(
            f"Trick {len(view.tricks) + 1}: " + _trick_text(view.trick_leader, view.trick, ctx)
        )
    if selection:
        lines.append(f"Selected: {_cards(selection, ctx)}")
    if result is not None:
        lines.append(_result_text(result))
    return "\n".join(lines)


def _seat_header(view: SeatView) -> str:
    ctx = view.ctx
    if ctx is None:
        trump_text = (
            "trump not set" if view.bid is None else f"bid {SUIT_NAMES[view.bid.trump_suit]}"
        )
    else:
        trump_text = (
            "no trump" if ctx.trump_suit is None else f"trump {SUIT_SYMBOLS[ctx.trump_suit]}"
        )
    dealer = "?" if view.dealer is None else str(view.dealer)
    return (
        f"Level {RANKS[view.level]} | {trump_text} | dealer seat {dealer} | levels: seats 0+2 "
        f"{RANKS[view.levels[0]]}, seats 1+3 {RANKS[view.levels[1]]} | attackers' points "
        f"{view.attacker_points - view.penalty_points}"
    )


def _trick_text(leader: int, plays: Sequence[Sequence[int]], ctx: TrumpContext | None) -> str:
    return " | ".join(f"{(leader + i) % 4}: {_cards(play, ctx)}" for i, play in enumerate(plays))


def _result_text(result: HandResult) -> str:
    return (
        f"Result: attackers {result.attacker_points} points (tricks {result.trick_points}, "
        f"kitty {result.kitty_points} x{result.kitty_multiplier}); {result.winner} "
        f"+{result.levels_gained}; seat {result.next_dealer} deals next"
    )


SUIT_NAMES = {None: "no trump", **dict(enumerate(SUIT_SYMBOLS))}


def render_replay(events: Sequence[dict]) -> str:
    """A replayed hand (its events, :mod:`shengji_env.replay`) as text, trick by trick."""
    header = events[0]
    level = RANKS[header["levels"][0 if header["dealer"] is None else header["dealer"] % 2]]
    seats = header.get("seats")
    lines = [f"Hand {header['hand_number'] + 1}: {header['rules']['decks']} deck(s), level {level}"]
    if seats:
        lines.append("Seats: " + " | ".join(f"{seat}: {name}" for seat, name in enumerate(seats)))
    tricks, trick = 0, []
    for event in events[2:]:
        kind = event["event"]
        if kind == "bid":
            lines.append(
                f"Seat {event['seat']} declares {_cards(event['cards'], None)} "
                f"(after {event['dealt']} cards)"
            )
        elif kind == "bury":
            lines.append(
                f"Seat {event['seat']} picks up {_cards(event['kitty'], None)} "
                f"and buries {_cards(event['cards'], None)}"
            )
        elif kind == "play":
            tried = (
                f" (throw {_cards(event['attempt'], None)} failed)" if "attempt" in event else ""
            )
            trick.append(f"{event['seat']}: {_cards(event['cards'], None)}{tried}")
        elif kind == "trick":
            tricks += 1
            lines.append(
                f"Trick {tricks}: {' | '.join(trick)} -> seat {event['winner']} "
                f"(+{event['points']})"
            )
            trick = []
        elif kind == "score":
            lines.append(
                _result_text(HandResult(**{k: v for k, v in event.items() if k != "event"}))
            )
    return "\n".join(lines)
