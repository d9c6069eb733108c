"""Our engine as Botzone's judge: four Botzone bots (:mod:`.botzone`) play a hand on the same
requests Botzone would send them, and every response is checked against
Botzone's rules and ours. Tests and ``benchmarks/botzone_judge.py`` use it."""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from shengji_env.rules import Game, HandResult, IllegalMoveError, Phase
from shengji_env.rules.cards import RANKS, SMALL_JOKER, rank_of, suit_of

from .botzone import BOTZONE_SUITS, OUR_SUIT, RULES, answer, botzone_id, card_of

THEIR_SUIT = {ours: theirs for theirs, ours in OUR_SUIT.items()}


class IllegalResponse(AssertionError):
    """A bot's response that Botzone's judge (or our rules) would refuse."""


@dataclass
class Seat:
    """One bot as Botzone runs it in long-running mode: the history grows by a request and
    the bot's response per turn."""

    agent: Any
    requests: list[dict[str, Any]] = field(default_factory=list)
    responses: list[list[int]] = field(default_factory=list)
    seconds: list[tuple[str, float]] = field(default_factory=list)  # (stage, seconds)

    def turn(self, request: dict[str, Any]) -> list[int]:
        self.requests.append(request)
        start = time.perf_counter()
        response = answer(self.requests, self.responses, self.agent)
        self.seconds.append((request["stage"], time.perf_counter() - start))
        self.responses.append(response)
        return response


@dataclass
class HandReport:
    result: HandResult
    requests: int
    seconds: list[tuple[str, float]]  # every request's stage and answer time, all seats


def judge_hand(agents: Sequence[Any], seed: int, level: int = 0) -> HandReport:
    """One hand of the seeded deal, every seat a Botzone bot playing ``agents[seat]``.
    Raises :class:`IllegalResponse` at the first response the judge refuses."""
    return _Hand(agents, seed, level).play()


class _Hand:
    def __init__(self, agents: Sequence[Any], seed: int, level: int) -> None:
        self.game = Game(RULES, seed=seed, levels=(level, level))
        self.seats = [Seat(agent) for agent in agents]
        self.level = level
        self.banking: dict[str, Any] = {"banker": -1, "called": -1, "snatched": -1, "major": "n"}
        copies: Counter[int] = Counter()
        self.ids = []
        for card in self.game.deck:
            self.ids.append(botzone_id(card, copies[card]))
            copies[card] += 1
        self.held: list[list[int]] = [[], [], [], []]
        self.bids: dict[tuple[int, int], list[int]] = {}

    def request(self, seat: int, stage: str, **fields: Any) -> list[int]:
        request: dict[str, Any] = {"stage": stage, **fields}
        request["global"] = {"level": RANKS[self.level], "banking": dict(self.banking)}
        if not self.seats[seat].requests:
            request["playerpos"] = seat
        return self.seats[seat].turn(request)

    def play(self) -> HandReport:
        self._deal()
        self._bid_on_our_engine()
        self._cover()
        self._tricks()
        assert self.game.result is not None
        seconds = [s for seat in self.seats for s in seat.seconds]
        return HandReport(self.game.result, sum(len(s.requests) for s in self.seats), seconds)

    def _held(self, seat: int, response: list[int], what: str) -> list[int]:
        if not isinstance(response, list) or Counter(response) - Counter(self.held[seat]):
            raise IllegalResponse(f"seat {seat} {what} with cards it does not hold: {response}")
        return [card_of(bz) for bz in response]

    def _deal(self) -> None:
        total = 4 * RULES.hand_size
        for k in range(total):
            seat = (self.game.deal_start + k) % 4
            self.held[seat].append(self.ids[k])
            response = self.request(seat, "deal", deliver=[self.ids[k]])
            if response:
                self._declaration(seat, response, k + 1)

    def _declaration(self, seat: int, response: list[int], dealt: int) -> None:
        cards = self._held(seat, response, "declares")
        if any(card >= SMALL_JOKER or rank_of(card) != self.level for card in cards):
            raise IllegalResponse(
                f"seat {seat} declares with cards that are not level cards: {response}"
            )
        banking = self.banking
        if banking["called"] == -1 and len(cards) == 1:
            banking.update(called=seat, banker=seat)
        elif (
            banking["snatched"] == -1
            and banking["called"] not in (-1, seat)
            and len(cards) == 2
            and cards[0] == cards[1]
        ):
            banking["snatched"] = seat
        else:
            raise IllegalResponse(
                f"seat {seat}'s declaration {response} is not allowed now ({banking})"
            )
        banking["major"] = BOTZONE_SUITS[THEIR_SUIT[suit_of(cards[0])]]
        self.bids[(seat, dealt)] = cards

    def _bid_on_our_engine(self) -> None:
        game, bids = self.game, dict(self.bids)
        while game.phase is Phase.BID:
            cards = bids.pop((game.current_player, game.dealt), [])
            try:
                game.declare(cards)
            except IllegalMoveError as error:
                raise IllegalResponse(f"our rules refuse declaration {cards}: {error}") from None
        if bids:
            raise IllegalResponse(f"declarations our deal never asked for: {bids}")
        self.banking["banker"] = game.dealer
        if not game.bids:
            self.banking["major"] = "n"

    def _cover(self) -> None:
        dealer = self.game.dealer
        assert dealer is not None
        kitty = self.ids[4 * RULES.hand_size :]
        self.held[dealer] += kitty
        response = self.request(dealer, "cover", deliver=kitty)
        cards = self._held(dealer, response, "buries")
        try:
            self.game.bury(cards)
        except IllegalMoveError as error:
            raise IllegalResponse(f"the bury {response}: {error}") from None
        for bz in response:
            self.held[dealer].remove(bz)

    def _tricks(self) -> None:
        game = self.game
        last: list[list[int]] = []
        last_leader = -1
        current: list[list[int]] = []
        while game.phase is Phase.PLAY:
            seat, leading = game.current_player, not game.trick
            history = [last, list(current), last_leader, game.leader]
            response = self.request(seat, "play", history=history)
            cards = self._held(seat, response, "plays")
            leader = game.leader
            try:
                game.play(cards)
            except IllegalMoveError as error:
                raise IllegalResponse(f"seat {seat} plays {response}: {error}") from None
            played = self._played(response, leading)
            for bz in played:
                self.held[seat].remove(bz)
            current.append(played)
            if not game.trick:  # the trick is over
                last, last_leader, current = current, leader, []

    def _played(self, response: list[int], leading: bool) -> list[int]:
        """The physical cards that reached the trick: a failed throw plays its forced part."""
        game = self.game
        plays = game.tricks[-1].plays if not game.trick else game.trick
        actual = plays[0] if leading else plays[-1]
        free, out = list(response), []
        for card in actual:
            match = next(bz for bz in free if card_of(bz) == card)
            free.remove(match)
            out.append(match)
        return out
