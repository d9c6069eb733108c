"""The state machine of a hand and of a match (docs/rules.md §1, §4–§8).

Phases: :attr:`Phase.BID` (cards dealt one at a time, a declaration decision after
each card for a player who has a legal one, then a final round), :attr:`Phase.BURY`
(the dealer buries the kitty), :attr:`Phase.PLAY` (tricks), :attr:`Phase.HAND_OVER`
and :attr:`Phase.MATCH_OVER`. :attr:`Game.current_player` decides next; every
action is a list of card ids (an empty list passes a bid). An illegal action
raises :class:`IllegalMoveError` and leaves the state unchanged. Everything random
comes from the injected ``random.Random``, so a seed fixes the whole match.
"""

from __future__ import annotations

import numbers
import random
from bisect import insort
from collections.abc import Iterable, Sequence

from .bidding import Bid, bid_card_types, bid_strength, bid_trump, legal_bids
from .cards import NUM_CARD_TYPES, make_deck
from .config import RuleConfig
from .errors import IllegalMoveError
from .legal import check_throw, failed_throw_penalty, follow_error, is_submultiset
from .patterns import single_suit
from .scoring import kitty_multiplier, level_change, next_dealer, raise_level
from .state import HandResult, Phase, Position, TrickRecord
from .trick import trick_points, trick_winner
from .trump import NUM_EFFECTIVE_SUITS, TrumpContext, trump_context


def team_of(seat: int) -> int:
    return seat % 2


class Game:
    """A Shengji match, one hand at a time, fully determined by its seed.

    Args:
        config: the rules.
        seed: seeds the match's own ``random.Random`` (ignored if ``rng`` is given).
        rng: the random source for shuffles.
        levels: the teams' levels (rank indices) at the start; default ``start_level``.
        dealer: the first hand's dealer; ``None`` lets the first declarer deal (§4).
        deck: a fixed card order for the first deal (tests); default a shuffle.
    """

    # The whole state, declared once. The match:
    config: RuleConfig
    rng: random.Random
    levels: list[int]  # each team's level (rank index; team 0 = seats 0 and 2)
    hand_number: int
    match_winner: int | None
    results: list[HandResult]  # the hands played so far
    # The hand:
    deck: list[int]  # this hand's card order (empty for a game made from a position)
    dealer: int | None  # None until the first declarer of a first hand (§4)
    level: int  # the hand's level rank
    deal_start: int  # the seat dealt the first card
    dealt: int  # cards dealt so far
    hands: list[list[int]]  # each seat's cards, sorted by id
    bid_cards: list[list[int]]  # each seat's level cards and jokers (what it may show)
    bid_types: frozenset[int]  # the card types a declaration shows at this level
    bid: Bid | None  # the standing declaration
    bids: list[Bid]  # every declaration, in order
    final_round: list[int] | None  # seats still to be asked after the deal (§4)
    kitty: list[int]
    ctx: TrumpContext | None  # None until the bidding ends
    leader: int  # who led the current trick
    trick: list[tuple[int, ...]]  # the current trick's plays, from the leader
    trick_attempt: tuple[int, ...] | None  # the current trick's failed throw
    tricks: list[TrickRecord]
    played: list[list[int]]  # each seat's plays, in order
    voids: list[list[bool]]  # seat x effective suit: shown void by a follow
    revealed: list[list[int]]  # cards failed throws showed that each seat still holds
    attacker_trick_points: int
    penalty_points: int  # failed-throw penalties, signed against the attackers
    result: HandResult | None
    phase: Phase
    current_player: int

    _SHARED = ("config", "dealer", "level", "deal_start", "dealt", "bid_types", "bid", "ctx")
    _SHARED += ("leader", "trick_attempt", "attacker_trick_points", "penalty_points", "result")
    _SHARED += ("phase", "current_player", "hand_number", "match_winner")
    _FLAT = ("levels", "results", "deck", "bids", "kitty", "trick", "tricks")
    _NESTED = ("hands", "bid_cards", "played", "voids", "revealed")
    """How :meth:`clone` copies each field: shared (immutable), a flat list, or a list of
    lists; ``final_round`` (a list or ``None``) and ``rng`` are copied by hand."""

    def __init__(
        self,
        config: RuleConfig | None = None,
        seed: int | None = None,
        *,
        rng: random.Random | None = None,
        levels: tuple[int, int] | None = None,
        dealer: int | None = None,
        deck: Sequence[int] | None = None,
    ) -> None:
        self.config = config or RuleConfig()
        self.rng = rng if rng is not None else random.Random(seed)
        start = self.config.start_level_index
        self.levels = list(levels) if levels is not None else [start, start]
        if dealer is None and self.levels[0] != self.levels[1]:
            raise ValueError("a first hand without a dealer needs both teams at the same level")
        self.hand_number = 0
        self.match_winner = None
        self.results = []
        self._start_hand(dealer, deck)

    # --- setup ---------------------------------------------------------------------------

    def _start_hand(self, dealer: int | None, deck: Sequence[int] | None) -> None:
        cfg = self.config
        if deck is None:
            cards = make_deck(cfg.decks)
            self.rng.shuffle(cards)
        else:
            cards = list(deck)
            if sorted(cards) != make_deck(cfg.decks):
                raise ValueError(f"a fixed deck must hold exactly {cfg.decks} full deck(s)")
        level = self.levels[0] if dealer is None else self.levels[team_of(dealer)]
        self._clear_hand(dealer, level)
        self.deck = cards
        self.deal_start = 0 if dealer is None else dealer
        self.current_player = self.deal_start
        self._continue_bidding()

    def _clear_hand(self, dealer: int | None, level: int) -> None:
        """Every field of the hand at its value before the first card is dealt."""
        self.deck, self.dealer, self.level = [], dealer, level
        self.deal_start, self.dealt = 0, 0
        self.hands = [[], [], [], []]
        self.bid_cards = [[], [], [], []]
        self.bid_types = bid_card_types(level)
        self.bid, self.bids, self.final_round = None, [], None
        self.kitty, self.ctx = [], None
        self.leader, self.trick, self.trick_attempt, self.tricks = 0, [], None, []
        self.played = [[], [], [], []]
        self.voids = [[False] * NUM_EFFECTIVE_SUITS for _ in range(4)]
        self.revealed = [[], [], [], []]
        self.attacker_trick_points, self.penalty_points = 0, 0
        self.result, self.phase, self.current_player = None, Phase.BID, 0

    @classmethod
    def from_position(cls, position: Position, rng: random.Random | None = None) -> Game:
        """A game at ``position``: the protocol answers a front end's request with one, and
        a search bot plays its sampled deals out from one. A position in the bidding holds
        no deck: its decision can be made, the deal does not go on."""
        config = position.config
        game = cls.__new__(cls)
        game.config = config
        game.rng = rng if rng is not None else random.Random(0)
        game.levels = list(position.levels)
        game.hand_number, game.match_winner, game.results = 0, None, []
        game._clear_hand(position.dealer, position.level)
        game.deal_start = 0 if position.dealer is None else position.dealer
        game.dealt = position.cards_dealt
        game.hands = [sorted(cards) for cards in position.hands]
        game.bid_cards = [[c for c in hand if c in game.bid_types] for hand in game.hands]
        game.bids = list(position.bids)
        game.bid = game.bids[-1] if game.bids else None
        game.kitty = list(position.kitty)
        game.phase, game.current_player = position.phase, position.seat
        if position.phase is Phase.BID:
            game.final_round = []
            return game
        trump = None if game.bid is None else game.bid.trump_suit
        game.ctx = trump_context(config, game.level, trump)
        game.leader = position.leader
        game.trick = [tuple(play) for play in position.trick]
        game.tricks = list(position.tricks)
        for record in [*game.tricks, TrickRecord(game.leader, tuple(game.trick), 0, 0)]:
            game._record_plays(record)
        game.revealed = [list(cards) for cards in position.revealed]
        game.attacker_trick_points = position.attacker_trick_points
        game.penalty_points = position.penalty_points
        return game

    def _record_plays(self, record: TrickRecord) -> None:
        """Who played what in ``record``, and the voids its follows showed (§6.2)."""
        ctx = self._ctx()
        for index, play in enumerate(record.plays):
            seat = (record.leader + index) % 4
            self.played[seat].extend(play)
            suit = ctx.suits[record.plays[0][0]]
            if index and sum(1 for card in play if ctx.suits[card] == suit) < len(play):
                self.voids[seat][suit] = True

    def next_hand(self) -> None:
        """Deal the next hand of the match (after :attr:`Phase.HAND_OVER`)."""
        if self.phase is not Phase.HAND_OVER or self.result is None:
            raise IllegalMoveError(
                f"the next hand starts only after a hand is over, not in {self.phase.value}"
            )
        self.hand_number += 1
        self._start_hand(self.result.next_dealer, None)

    def clone(self) -> Game:
        """An independent copy (search bots clone states); shares only immutable parts."""
        other = Game.__new__(Game)
        for name in self._SHARED:
            setattr(other, name, getattr(self, name))
        for name in self._FLAT:
            setattr(other, name, list(getattr(self, name)))
        for name in self._NESTED:
            setattr(other, name, [list(row) for row in getattr(self, name)])
        other.final_round = None if self.final_round is None else list(self.final_round)
        other.rng = random.Random()
        other.rng.setstate(self.rng.getstate())
        return other

    # --- queries -------------------------------------------------------------------------

    def hand(self, seat: int) -> list[int]:
        """The cards of ``seat``, in card id order (a copy)."""
        return list(self.hands[seat])

    def hand_size(self, seat: int) -> int:
        return len(self.hands[seat])

    @property
    def attackers(self) -> int:
        """The attacking team (0: seats 0 and 2, 1: seats 1 and 3); dealer must be known."""
        if self.dealer is None:
            raise ValueError("no dealer yet")
        return 1 - team_of(self.dealer)

    def legal_bids(self, seat: int | None = None) -> list[tuple[int, ...]]:
        """Declarations ``seat`` (default: the current player) may make now (§4)."""
        seat = self.current_player if seat is None else seat
        if not self.bid_cards[seat]:
            return []
        return legal_bids(self.bid_cards[seat], self.level, self.config.decks, self.bid)

    # --- actions -------------------------------------------------------------------------

    def step(self, cards: Sequence[int], *, trusted: bool = False) -> None:
        """Apply the current player's action for the current phase.

        ``trusted`` skips re-checking a play that the caller already knows is legal (the
        environment's exact masks); an illegal play then corrupts the state.
        """
        if self.phase is Phase.BID:
            self.declare(cards)
        elif self.phase is Phase.BURY:
            self.bury(cards)
        elif self.phase is Phase.PLAY:
            self.play(cards, trusted=trusted)
        else:
            raise IllegalMoveError(f"no action is taken in phase {self.phase.value}")

    def declare(self, cards: Sequence[int]) -> None:
        """Declare (show level cards or jokers) or pass with an empty list (§4)."""
        self._require(Phase.BID)
        cards = self._checked_cards(cards)
        seat = self.current_player
        if cards:
            strength = bid_strength(cards, self.level, self.config.decks)
            if strength is None:
                raise IllegalMoveError(
                    "a declaration shows level cards of one suit or jokers as §4 lists them"
                )
            if not is_submultiset(cards, self.hand(seat)):
                raise IllegalMoveError("a declaration may show only cards in the hand (§4)")
            floor = 0 if self.bid is None else self.bid.strength
            if strength <= floor:
                raise IllegalMoveError(
                    "a declaration must be strictly stronger than the standing one (§4)"
                )
            self.bid = Bid(seat, tuple(cards), strength, bid_trump(cards))
            self.bids.append(self.bid)
            if self.dealer is None:
                self.dealer = seat  # first hand: the first declarer deals (§4)
        self._continue_bidding()

    def _continue_bidding(self) -> None:
        total = 4 * self.config.hand_size
        while self.final_round is None and self.dealt < total:
            seat = (self.deal_start + self.dealt) % 4
            card = self.deck[self.dealt]
            insort(self.hands[seat], card)
            if card in self.bid_types:
                self.bid_cards[seat].append(card)
            self.dealt += 1
            if self.legal_bids(seat):
                self.current_player = seat
                return
        if self.final_round is None:
            first = self.dealer if self.dealer is not None else 0
            self.final_round = [(first + offset) % 4 for offset in range(4)]
        while self.final_round:
            seat = self.final_round.pop(0)
            if self.legal_bids(seat):
                self.current_player = seat
                return
        self._finish_bidding()

    def _finish_bidding(self) -> None:
        if self.dealer is None:
            self.dealer = 0  # first hand, nobody declared: seat 0 deals [decision, §4]
            self.level = self.levels[0]
        trump = None if self.bid is None else self.bid.trump_suit
        self.ctx = trump_context(self.config, self.level, trump)
        self.kitty = self.deck[self.dealt :]
        self.hands[self.dealer] = sorted(self.hands[self.dealer] + self.kitty)
        self.phase = Phase.BURY
        self.current_player = self.dealer

    def bury(self, cards: Sequence[int]) -> None:
        """The dealer buries ``kitty_size`` cards of any kind (§5)."""
        self._require(Phase.BURY)
        cards = self._checked_cards(cards)
        if len(cards) != self.config.kitty_size:
            raise IllegalMoveError(
                f"the dealer buries exactly {self.config.kitty_size} cards, not {len(cards)} (§5)"
            )
        if not is_submultiset(cards, self.hand(self.current_player)):
            raise IllegalMoveError("the dealer may bury only cards in the hand (§5)")
        self._remove(self.current_player, cards)
        self.kitty = list(cards)
        self.phase = Phase.PLAY
        self.leader = self.current_player

    def play(self, cards: Sequence[int], *, trusted: bool = False) -> None:
        """Lead or follow with ``cards`` (§6). A failed throw plays the forced part.

        ``trusted``: the caller guarantees legality (see :meth:`step`).
        """
        self._require(Phase.PLAY)
        seat = self.current_player
        ctx = self._ctx()
        if trusted:
            cards = list(cards)
        else:
            cards = self._checked_cards(cards)
            self._check_play(seat, cards, ctx)
        if not self.trick:
            cards = self._throw(seat, cards, ctx)
        else:
            lead = self.trick[0]
            suit = ctx.suits[lead[0]]
            if sum(1 for card in cards if ctx.suits[card] == suit) < len(lead):
                self.voids[seat][suit] = True
        self._remove(seat, cards)
        self.played[seat].extend(cards)
        shown = self.revealed[seat]
        for card in cards:
            if card in shown:
                shown.remove(card)
        self.trick.append(tuple(cards))
        if len(self.trick) == 4:
            self._finish_trick()
        else:
            self.current_player = (seat + 1) % 4

    def _check_play(self, seat: int, cards: list[int], ctx: TrumpContext) -> None:
        hand = self.hands[seat]
        if self.trick:
            reason = follow_error(self.trick[0], hand, cards, ctx)
            if reason is not None:
                raise IllegalMoveError(reason)
            return
        if not cards:
            raise IllegalMoveError("a lead must hold at least one card (§6.1)")
        if not is_submultiset(cards, hand):
            raise IllegalMoveError("the lead holds cards that are not in the hand")
        if single_suit(cards, ctx) is None:
            raise IllegalMoveError("a lead must be cards of one suit, trump counting as one (§6.1)")

    def _throw(self, seat: int, cards: list[int], ctx: TrumpContext) -> list[int]:
        """The lead as played: the attempt, or the forced part of a failed throw (§6.1)."""
        others = [self.hands[other] for other in range(4) if other != seat]
        forced = check_throw(cards, others, ctx)
        self.trick_attempt = None
        if forced is None:
            return cards
        self.trick_attempt = tuple(cards)
        self._reveal(seat, cards)
        penalty = failed_throw_penalty(cards, forced, self.config.failed_throw_penalty)
        self.penalty_points += penalty if team_of(seat) == self.attackers else -penalty
        return forced

    def _reveal(self, seat: int, cards: list[int]) -> None:
        """Cards a failed throw showed join the seat's known cards (a multiset union:
        cards shown twice are still the same cards), in card order; played ones leave it in
        :meth:`play`."""
        shown = self.revealed[seat]
        for card in sorted(set(cards)):
            shown.extend([card] * (cards.count(card) - shown.count(card)))

    def _finish_trick(self) -> None:
        ctx = self._ctx()
        offset = trick_winner(self.trick, ctx)
        winner = (self.leader + offset) % 4
        points = trick_points(self.trick)
        record = TrickRecord(self.leader, tuple(self.trick), winner, points, self.trick_attempt)
        self.tricks.append(record)
        if team_of(winner) == self.attackers:
            self.attacker_trick_points += points
        lead = self.trick[0]
        self.trick = []
        self.trick_attempt = None
        self.leader = winner
        self.current_player = winner
        if not self.hands[winner]:
            self._score_hand(winner, lead)

    def _score_hand(self, last_winner: int, last_lead: tuple[int, ...]) -> None:
        ctx = self._ctx()
        dealer = self._dealer()
        kitty_points = trick_points([self.kitty])
        multiplier = 0
        if team_of(last_winner) == self.attackers:
            multiplier = kitty_multiplier(last_lead, ctx)
        total = self.attacker_trick_points + kitty_points * multiplier - self.penalty_points
        winner, gain = level_change(total, self.config)
        team = team_of(dealer) if winner == "dealer" else self.attackers
        self.levels[team], passed_ace = raise_level(self.levels[team], gain)
        self.match_winner = team if passed_ace else None
        self.result = HandResult(
            dealer=dealer,
            level=self.level,
            trump_suit=ctx.trump_suit,
            trick_points=self.attacker_trick_points,
            kitty_points=kitty_points,
            kitty_multiplier=multiplier,
            penalty_points=self.penalty_points,
            attacker_points=total,
            winner=winner,
            levels_gained=gain,
            next_dealer=next_dealer(dealer, winner == "dealer"),
            match_winner=self.match_winner,
        )
        self.results.append(self.result)
        self.phase = Phase.MATCH_OVER if passed_ace else Phase.HAND_OVER

    # --- helpers -------------------------------------------------------------------------

    def _require(self, phase: Phase) -> None:
        if self.phase is not phase:
            raise IllegalMoveError(
                f"that action belongs to phase {phase.value}, not {self.phase.value}"
            )

    def _checked_cards(self, cards: Sequence[int]) -> list[int]:
        if isinstance(cards, str | bytes) or not isinstance(cards, Iterable):
            raise IllegalMoveError(
                f"an action is a list of card ids (an empty list passes a bid), not "
                f"{type(cards).__name__} {cards!r}"
            )
        cards = list(cards)
        for card in cards:
            if (
                isinstance(card, bool)
                or not isinstance(card, numbers.Integral)
                or not 0 <= card < NUM_CARD_TYPES
            ):
                raise IllegalMoveError(f"{card!r} is not a card id (0..53)")
        return [int(card) for card in cards]

    def _remove(self, seat: int, cards: Sequence[int]) -> None:
        hand = self.hands[seat]
        for card in cards:
            hand.remove(card)

    def _ctx(self) -> TrumpContext:
        if self.ctx is None:
            raise IllegalMoveError("trump is not known before bidding ends")
        return self.ctx

    def _dealer(self) -> int:
        if self.dealer is None:
            raise IllegalMoveError("no dealer yet")
        return self.dealer
