"""A seeded hand played by random legal moves, written out trick by trick.

``python -m shengji_env.demo [--decks 2] [--seed 7]`` prints it; the same text is
the golden trace in ``tests/golden/`` (``--write-golden PATH`` regenerates it).
"""

from __future__ import annotations

import argparse
import random
from collections.abc import Sequence
from pathlib import Path

from .rules import Game, Phase, RuleConfig, TrumpContext, format_cards
from .rules.cards import RANKS, SUIT_SYMBOLS
from .rules.sampling import random_action


def _cards(cards: Sequence[int], ctx: TrumpContext | None = None) -> str:
    ordered = sorted(cards, key=ctx.sort_key, reverse=True) if ctx else list(cards)
    return format_cards(ordered, symbols=True) or "-"


def _trump_name(suit: int | None) -> str:
    return "no trump" if suit is None else f"trump {SUIT_SYMBOLS[suit]}"


def hand_trace(config: RuleConfig, seed: int) -> list[str]:
    """Play one hand from ``seed`` with random legal moves; return its text trace."""
    game = Game(config, seed=seed)
    rng = random.Random(seed + 1)
    lines = [
        f"Shengji hand: {config.decks} deck(s), seed {seed}, level {RANKS[game.level]}",
        f"Deal starts with seat {game.deal_start}; {config.hand_size} cards each, "
        f"kitty {config.kitty_size}",
    ]
    while game.phase is Phase.BID:
        seat, action = game.current_player, random_action(game, rng)
        game.step(action)
        if action:
            lines.append(f"  seat {seat} declares {_cards(action)} after {game.dealt} cards")
    ctx = game.ctx
    assert ctx is not None and game.dealer is not None
    lines.append(f"Dealer seat {game.dealer}, {_trump_name(ctx.trump_suit)}")
    for seat in range(4):
        lines.append(f"  seat {seat}: {_cards(game.hand(seat), ctx)}")
    lines.append(f"Kitty taken by the dealer: {_cards(game.kitty, ctx)}")
    game.step(random_action(game, rng))
    lines.append(f"Buried: {_cards(game.kitty, ctx)}")
    while game.phase is Phase.PLAY:
        game.step(random_action(game, rng))
        if not game.trick:
            lines += _trick_lines(game, ctx)
    lines += _result_lines(game)
    return lines


def _trick_lines(game: Game, ctx: TrumpContext) -> list[str]:
    record = game.tricks[-1]
    number = len(game.tricks)
    plays = " | ".join(
        f"{(record.leader + i) % 4}: {_cards(play, ctx)}" for i, play in enumerate(record.plays)
    )
    lines = [f"Trick {number:2d}  {plays}  -> seat {record.winner} (+{record.points})"]
    if record.attempt is not None:
        lines.append(f"          failed throw: {_cards(record.attempt, ctx)}")
    return lines


def _result_lines(game: Game) -> list[str]:
    result = game.result
    assert result is not None
    return [
        f"Attackers: {result.trick_points} in tricks + kitty {result.kitty_points} x "
        f"{result.kitty_multiplier} - penalty {result.penalty_points} = {result.attacker_points}",
        f"Result: {result.winner} +{result.levels_gained}; next dealer seat {result.next_dealer}; "
        f"levels {RANKS[game.levels[0]]} / {RANKS[game.levels[1]]}",
    ]


def main(argv: Sequence[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decks", type=int, default=2, choices=(1, 2, 3))
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--write-golden", type=Path, help="write the trace to this file")
    args = parser.parse_args(argv)
    text = "\n".join(hand_trace(RuleConfig(decks=args.decks), args.seed)) + "\n"
    if args.write_golden:
        args.write_golden.write_text(text, encoding="utf-8")
    print(text, end="")


if __name__ == "__main__":
    main()
