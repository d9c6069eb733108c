// The state machine of a hand and of a match (shengji_env/rules/game.py), on card counts.
#pragma once

#include <array>
#include <string>
#include <vector>

#include "pyrandom.hpp"
#include "rules.hpp"

namespace shengji {

enum class Phase { kBid = 0, kBury = 1, kPlay = 2, kHandOver = 3, kMatchOver = 4 };

struct Bid {
  int seat = 0;
  Cards cards;
  int strength = 0;
  int trump_suit = kNoSuit;
};

struct TrickRecord {
  int leader = 0;
  std::vector<Cards> plays;
  int winner = 0;
  int points = 0;
  bool failed_throw = false;
  Cards attempt;
};

struct HandResult {
  int dealer = 0;
  int level = 0;
  int trump_suit = kNoSuit;
  int trick_points = 0;
  int kitty_points = 0;
  int kitty_multiplier = 0;
  int penalty_points = 0;
  int attacker_points = 0;
  bool dealer_kept = false;
  int levels_gained = 0;
  int next_dealer = 0;
  int match_winner = -1;
};

inline int team_of(int seat) { return seat % 2; }

// Raised for a step the rules refuse; the message names the rule.
struct RuleError {
  std::string message;
};

class Game {
 public:
  Game(const Rules& rules, uint64_t seed);
  // A first hand from a fixed deal (tests); `dealer` -1 lets the first declarer deal.
  Game(const Rules& rules, uint64_t seed, std::array<int, 2> levels, int dealer, const Cards& deck);

  void step(const Cards& cards, bool trusted);
  void next_hand();

  // Declarations `seat` may make now (strictly stronger than the standing one).
  std::vector<Cards> legal_bids(int seat) const;
  bool can_bid(int seat) const;  // legal_bids(seat) is not empty
  int attackers() const { return 1 - team_of(dealer); }

  // The state, declared once (the reference's Game fields, hands as counts).
  Rules rules;
  PyRandom rng;
  std::array<int, 2> levels{};
  int hand_number = 0;
  int match_winner = -1;
  std::vector<HandResult> results;
  Cards deck;
  int dealer = -1;
  int level = 0;
  int deal_start = 0;
  int dealt = 0;
  std::array<Counts, 4> hands{};
  std::array<int, 4> hand_sizes{};
  bool has_bid = false;
  Bid bid;
  std::vector<Bid> bids;
  bool final_round_started = false;
  std::vector<int> final_round;
  Cards kitty;
  bool has_ctx = false;
  Trump ctx;
  int leader = 0;
  std::vector<Cards> trick;
  bool trick_failed_throw = false;
  Cards trick_attempt;
  std::vector<TrickRecord> tricks;
  std::array<Cards, 4> played;
  std::array<std::array<bool, kEffectiveSuits>, 4> voids{};
  std::array<Cards, 4> revealed;
  int attacker_trick_points = 0;
  int penalty_points = 0;
  bool has_result = false;
  HandResult result;
  Phase phase = Phase::kBid;
  int current_player = 0;

  // Who wins the current trick so far (the encoder asks at every observation).
  int current_trick_winner() const;
  // The trump order as it stands: the hand's, or during the bidding the standing bid's.
  const Trump& standing_trump() const;
  void forget_cache() const {
    winner_key_ = -1;
    bidding_trump_key_ = -1;
  }

 private:
  mutable int64_t winner_key_ = -1;
  mutable int winner_ = 0;
  mutable int bidding_trump_key_ = -1;
  mutable Trump bidding_trump_;

  void start_hand(int first_dealer, const Cards* fixed_deck);
  void clear_hand(int first_dealer, int hand_level);
  void continue_bidding();
  void finish_bidding();
  void declare(const Cards& cards);
  void bury(const Cards& cards);
  void play(const Cards& cards, bool trusted);
  void check_play(int seat, const Cards& cards) const;
  Cards throw_result(int seat, const Cards& cards);
  void reveal(int seat, const Cards& cards);
  void finish_trick();
  void score_hand(int last_winner, const Cards& last_lead);
  void add_card(int seat, int card);
  void remove_cards(int seat, const Cards& cards);
  bool holds(int seat, const Cards& cards) const;
};

}  // namespace shengji
