"""Text rendering of a game for people: ♠♥♦♣, hands in trump order, the current trick."""

from __future__ import annotations

from collections.abc import Sequence

from .actions import Decision
from .rules import Game, Phase, TrumpContext, format_cards
from .rules.cards import RANKS, SUIT_SYMBOLS


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
