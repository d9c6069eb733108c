#include "game.hpp"

#include <algorithm>

namespace shengji {

namespace {

Cards full_deck(int decks) {
  Cards cards;
  for (int card = 0; card < kCardTypes; ++card) {
    for (int i = 0; i < decks; ++i) cards.push_back(card);
  }
  return cards;
}

const char* phase_name(Phase phase) {
  switch (phase) {
    case Phase::kBid:
      return "bid";
    case Phase::kBury:
      return "bury";
    case Phase::kPlay:
      return "play";
    case Phase::kHandOver:
      return "hand_over";
    case Phase::kMatchOver:
      return "match_over";
  }
  return "?";
}

void require(Phase actual, Phase wanted) {
  if (actual != wanted) {
    throw RuleError{std::string("that action belongs to phase ") + phase_name(wanted) + ", not " +
                    phase_name(actual)};
  }
}

void check_ids(const Cards& cards) {
  for (int card : cards) {
    if (card < 0 || card >= kCardTypes) {
      throw RuleError{std::to_string(card) + " is not a card id (0..53)"};
    }
  }
}

}  // namespace

Game::Game(const Rules& rules_, uint64_t seed) : rules(rules_), rng(seed) {
  levels = {rules.start_level, rules.start_level};
  start_hand(-1, nullptr);
}

Game::Game(const Rules& rules_, uint64_t seed, std::array<int, 2> levels_, int first_dealer,
           const Cards& fixed_deck)
    : rules(rules_), rng(seed), levels(levels_) {
  start_hand(first_dealer, &fixed_deck);
}

void Game::start_hand(int first_dealer, const Cards* fixed_deck) {
  Cards cards;
  if (fixed_deck == nullptr) {
    cards = full_deck(rules.decks);
    rng.shuffle(cards);
  } else {
    cards = *fixed_deck;
  }
  const int hand_level = first_dealer < 0 ? levels[0] : levels[team_of(first_dealer)];
  clear_hand(first_dealer, hand_level);
  deck = std::move(cards);
  deal_start = first_dealer < 0 ? 0 : first_dealer;
  current_player = deal_start;
  continue_bidding();
}

void Game::clear_hand(int first_dealer, int hand_level) {
  deck.clear();
  dealer = first_dealer;
  level = hand_level;
  deal_start = 0;
  dealt = 0;
  for (auto& hand : hands) hand.fill(0);
  hand_sizes.fill(0);
  has_bid = false;
  bid = Bid{};
  bids.clear();
  final_round_started = false;
  final_round.clear();
  kitty.clear();
  has_ctx = false;
  leader = 0;
  trick.clear();
  trick_failed_throw = false;
  trick_attempt.clear();
  tricks.clear();
  for (auto& cards : played) cards.clear();
  for (auto& row : voids) row.fill(false);
  for (auto& cards : revealed) cards.clear();
  attacker_trick_points = 0;
  penalty_points = 0;
  has_result = false;
  result = HandResult{};
  phase = Phase::kBid;
  current_player = 0;
}

void Game::next_hand() {
  if (phase != Phase::kHandOver || !has_result) {
    throw RuleError{std::string("the next hand starts only after a hand is over, not in ") +
                    phase_name(phase)};
  }
  ++hand_number;
  start_hand(result.next_dealer, nullptr);
}

std::vector<Cards> Game::legal_bids(int seat) const {
  return shengji::legal_bids(hands[seat], level, rules.decks, has_bid ? bid.strength : 0);
}

bool Game::can_bid(int seat) const {
  return has_legal_bid(hands[seat], level, rules.decks, has_bid ? bid.strength : 0);
}

void Game::step(const Cards& cards, bool trusted) {
  switch (phase) {
    case Phase::kBid:
      declare(cards);
      return;
    case Phase::kBury:
      bury(cards);
      return;
    case Phase::kPlay:
      play(cards, trusted);
      return;
    default:
      throw RuleError{std::string("no action is taken in phase ") + phase_name(phase)};
  }
}

void Game::declare(const Cards& cards) {
  require(phase, Phase::kBid);
  check_ids(cards);
  const int seat = current_player;
  if (!cards.empty()) {
    const int strength = bid_strength(cards, level, rules.decks);
    if (strength == 0) {
      throw RuleError{"a declaration shows level cards of one suit or jokers as §4 lists them"};
    }
    if (!holds(seat, cards)) throw RuleError{"a declaration may show only cards in the hand (§4)"};
    if (strength <= (has_bid ? bid.strength : 0)) {
      throw RuleError{"a declaration must be strictly stronger than the standing one (§4)"};
    }
    bid = Bid{seat, cards, strength, bid_trump(cards)};
    has_bid = true;
    bids.push_back(bid);
    if (dealer < 0) dealer = seat;  // first hand: the first declarer deals (§4)
  }
  continue_bidding();
}

void Game::continue_bidding() {
  const int total = 4 * rules.hand_size();
  while (!final_round_started && dealt < total) {
    const int seat = (deal_start + dealt) % 4;
    add_card(seat, deck[dealt]);
    ++dealt;
    if (can_bid(seat)) {
      current_player = seat;
      return;
    }
  }
  if (!final_round_started) {
    final_round_started = true;
    const int first = dealer >= 0 ? dealer : 0;
    for (int offset = 0; offset < 4; ++offset) final_round.push_back((first + offset) % 4);
  }
  while (!final_round.empty()) {
    const int seat = final_round.front();
    final_round.erase(final_round.begin());
    if (can_bid(seat)) {
      current_player = seat;
      return;
    }
  }
  finish_bidding();
}

void Game::finish_bidding() {
  if (dealer < 0) {
    dealer = 0;  // first hand, nobody declared: seat 0 deals [decision, §4]
    level = levels[0];
  }
  ctx = make_trump(rules, level, has_bid ? bid.trump_suit : kNoSuit);
  has_ctx = true;
  kitty.clear();  // a position without its deck (a protocol request) has no kitty to show
  if (dealt < static_cast<int>(deck.size())) kitty.assign(deck.begin() + dealt, deck.end());
  for (int card : kitty) add_card(dealer, card);
  phase = Phase::kBury;
  current_player = dealer;
}

void Game::bury(const Cards& cards) {
  require(phase, Phase::kBury);
  check_ids(cards);
  if (static_cast<int>(cards.size()) != rules.kitty_size()) {
    throw RuleError{"the dealer buries exactly " + std::to_string(rules.kitty_size()) +
                    " cards, not " + std::to_string(cards.size()) + " (§5)"};
  }
  if (!holds(current_player, cards)) {
    throw RuleError{"the dealer may bury only cards in the hand (§5)"};
  }
  remove_cards(current_player, cards);
  kitty = cards;
  phase = Phase::kPlay;
  leader = current_player;
}

void Game::play(const Cards& given, bool trusted) {
  require(phase, Phase::kPlay);
  const int seat = current_player;
  if (!trusted) {
    check_ids(given);
    check_play(seat, given);
  }
  Cards cards = given;
  if (trick.empty()) {
    cards = throw_result(seat, cards);
  } else {
    const Cards& lead = trick[0];
    const int suit = ctx.suit[lead[0]];
    int in_suit = 0;
    for (int card : cards) in_suit += ctx.suit[card] == suit ? 1 : 0;
    if (in_suit < static_cast<int>(lead.size())) voids[seat][suit] = true;
  }
  remove_cards(seat, cards);
  played[seat].insert(played[seat].end(), cards.begin(), cards.end());
  Cards& shown = revealed[seat];
  for (int card : cards) {
    auto found = std::find(shown.begin(), shown.end(), card);
    if (found != shown.end()) shown.erase(found);
  }
  trick.push_back(cards);
  if (trick.size() == 4) {
    finish_trick();
  } else {
    current_player = (seat + 1) % 4;
  }
}

void Game::check_play(int seat, const Cards& cards) const {
  if (!trick.empty()) {
    static const char* const kReasons[] = {
        "",
        "a follow must have as many cards as the lead (§6.2)",
        "the play holds cards that are not in the hand",
        "must follow suit: play the led suit's cards first (§6.2 rule 1)",
        "must keep the lead's shape: the hand can match more of its tractors, triples or "
        "pairs (§6.2 rule 2)",
    };
    const int error = follow_error(trick[0], hands[seat], cards, ctx, rules.triples_first);
    if (error) throw RuleError{kReasons[error]};
    return;
  }
  if (cards.empty()) throw RuleError{"a lead must hold at least one card (§6.1)"};
  if (!holds(seat, cards)) throw RuleError{"the lead holds cards that are not in the hand"};
  if (single_suit(cards, ctx) < 0) {
    throw RuleError{"a lead must be cards of one suit, trump counting as one (§6.1)"};
  }
}

Cards Game::throw_result(int seat, const Cards& cards) {
  std::vector<const Counts*> others;
  for (int other = 0; other < 4; ++other) {
    if (other != seat) others.push_back(&hands[other]);
  }
  Cards forced = check_throw(cards, others, ctx);
  trick_failed_throw = false;
  trick_attempt.clear();
  if (forced.empty()) return cards;
  trick_failed_throw = true;
  trick_attempt = cards;
  reveal(seat, cards);
  const int penalty = rules.failed_throw_penalty * static_cast<int>(cards.size() - forced.size());
  penalty_points += team_of(seat) == attackers() ? penalty : -penalty;
  return forced;
}

void Game::reveal(int seat, const Cards& cards) {
  Cards& shown = revealed[seat];
  Counts attempt{};
  for (int card : cards) ++attempt[card];
  for (int card = 0; card < kCardTypes; ++card) {
    const int known = static_cast<int>(std::count(shown.begin(), shown.end(), card));
    for (int i = known; i < attempt[card]; ++i) shown.push_back(card);
  }
}

void Game::finish_trick() {
  const int winner = (leader + trick_winner(trick, ctx)) % 4;
  int points = 0;
  for (const Cards& play : trick) points += points_of(play);
  tricks.push_back(TrickRecord{leader, trick, winner, points, trick_failed_throw, trick_attempt});
  if (team_of(winner) == attackers()) attacker_trick_points += points;
  const Cards lead = trick[0];
  trick.clear();
  trick_failed_throw = false;
  trick_attempt.clear();
  leader = winner;
  current_player = winner;
  if (hand_sizes[winner] == 0) score_hand(winner, lead);
}

void Game::score_hand(int last_winner, const Cards& last_lead) {
  const int kitty_points = points_of(kitty);
  int multiplier = 0;
  if (team_of(last_winner) == attackers()) {
    multiplier = kitty_multiplier(last_lead, ctx, rules.kitty_multiplier_cap);
  }
  const int total = attacker_trick_points + kitty_points * multiplier - penalty_points;
  const LevelChange change = level_change(total, rules);
  const int team = change.dealer_kept ? team_of(dealer) : attackers();
  const int raised = levels[team] + change.gain;
  const bool passed_ace = raised > kAce;
  levels[team] = std::min(raised, kAce);
  match_winner = passed_ace ? team : -1;
  result = HandResult{dealer,
                      level,
                      ctx.trump_suit,
                      attacker_trick_points,
                      kitty_points,
                      multiplier,
                      penalty_points,
                      total,
                      change.dealer_kept,
                      change.gain,
                      change.dealer_kept ? (dealer + 2) % 4 : (dealer + 1) % 4,
                      match_winner};
  has_result = true;
  results.push_back(result);
  phase = passed_ace ? Phase::kMatchOver : Phase::kHandOver;
}

int Game::current_trick_winner() const {
  const int64_t key =
      (static_cast<int64_t>(hand_number) * 1000 + static_cast<int64_t>(tricks.size())) * 8 +
      static_cast<int64_t>(trick.size());
  if (key != winner_key_) {
    winner_ = (leader + trick_winner(trick, ctx)) % 4;
    winner_key_ = key;
  }
  return winner_;
}

const Trump& Game::standing_trump() const {
  if (has_ctx) return ctx;
  const int trump = has_bid ? bid.trump_suit : kNoSuit;
  const int key = level * 8 + trump + 1;
  if (key != bidding_trump_key_) {
    bidding_trump_ = make_trump(rules, level, trump);
    bidding_trump_key_ = key;
  }
  return bidding_trump_;
}

void Game::add_card(int seat, int card) {
  ++hands[seat][card];
  ++hand_sizes[seat];
}

void Game::remove_cards(int seat, const Cards& cards) {
  for (int card : cards) --hands[seat][card];
  hand_sizes[seat] -= static_cast<int>(cards.size());
}

bool Game::holds(int seat, const Cards& cards) const {
  Counts available = hands[seat];
  for (int card : cards) {
    if (available[card] == 0) return false;
    --available[card];
  }
  return true;
}

}  // namespace shengji
