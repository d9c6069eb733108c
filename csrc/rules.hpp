// The rules of docs/rules.md in C++: trump order, decomposition, shape matching, throws,
// trick winners, bidding and scoring. Each function mirrors the one of the same name in
// shengji_env/rules (the readable reference); tests/core pin the two together.
#pragma once

#include <array>
#include <cstdint>
#include <utility>
#include <vector>

namespace shengji {

constexpr int kCardTypes = 54;
constexpr int kSmallJoker = 52;
constexpr int kBigJoker = 53;
constexpr int kNumSuits = 4;
constexpr int kNumRanks = 13;
constexpr int kTrump = 4;  // the effective suit of every trump card
constexpr int kEffectiveSuits = 5;
constexpr int kNoSuit = -1;  // no trump suit (a joker declaration, or none)
constexpr int kAce = 12;

using Cards = std::vector<int>;
using Counts = std::array<uint8_t, kCardTypes>;

struct Rules {
  int decks = 2;
  bool twos_always_trump = false;
  int failed_throw_penalty = 0;
  int kitty_multiplier_cap = 64;
  bool triples_first = false;
  int start_level = 0;

  int hand_size() const { return decks == 1 ? 12 : decks == 2 ? 25 : 39; }
  int kitty_size() const { return decks == 2 ? 8 : 6; }
  int band() const { return 20 * decks; }
  int total_points() const { return 100 * decks; }
};

inline int card_points(int card) {
  if (card >= kSmallJoker) return 0;
  int rank = card % kNumRanks;
  return rank == 3 ? 5 : (rank == 8 || rank == 11) ? 10 : 0;
}
inline int rank_of(int card) { return card >= kSmallJoker ? -1 : card % kNumRanks; }
inline int printed_suit(int card) { return card >= kSmallJoker ? -1 : card / kNumRanks; }
inline int make_card(int rank, int suit) { return suit * kNumRanks + rank; }
int points_of(const Cards& cards);

// Effective suit and dense rank key of every card for one hand (rules/trump.py).
struct Trump {
  int level = 0;
  int trump_suit = kNoSuit;
  std::array<int8_t, kCardTypes> suit{};
  std::array<int8_t, kCardTypes> key{};
  std::array<int8_t, kEffectiveSuits> key_count{};
  // The encoder's tables: 1 for a trump card, and each card's rank scaled to [0, 1].
  std::array<float, kCardTypes> trump_flag{};
  std::array<float, kCardTypes> order{};
};
Trump make_trump(const Rules& rules, int level, int trump_suit);

// One combination inside a play (rules/patterns.py).
struct Component {
  int multiplicity = 1;
  int length = 1;
  int top_key = 0;
  int suit = 0;
  Cards cards;  // highest unit first
  int size() const { return multiplicity * length; }
};
std::vector<Component> decompose(const Cards& cards, const Trump& ctx);
int single_suit(const Cards& cards, const Trump& ctx);  // -1: mixed or empty

// Shape matching (rules/matching.py).
using Shape = std::vector<std::pair<int, int>>;  // (multiplicity, length), largest first
using Score = std::array<int, 5>;
struct Unit {
  int key;
  int count;
  int selected;
};
struct Match {
  Score score{};
  int cost = 0;
};
Match cheapest_match(const Shape& shape, const std::vector<Unit>& units, bool triples_first);

// Leads, throws and follows (rules/legal.py).
Shape lead_shape(const Cards& lead, const Trump& ctx);
int cost_from_counts(const Shape& shape, const Counts& held, const Counts& chosen, const Trump& ctx,
                     bool triples_first);
bool can_form_higher(const Counts& hand, int suit, int multiplicity, int length, int top_key,
                     const Trump& ctx);
// The forced play of a failed throw, or an empty list when the lead stands (§6.1).
Cards check_throw(const Cards& lead, const std::vector<const Counts*>& others, const Trump& ctx);
// 0 when legal; else the §6.2 rule broken: 1 size, 2 not in hand, 3 suit, 4 shape.
int follow_error(const Cards& lead, const Counts& hand, const Cards& play, const Trump& ctx,
                 bool triples_first);

// Trick winners (rules/trick.py).
int ruff_strength(const std::vector<Component>& lead_components, const Cards& play,
                  const Trump& ctx);  // -1: no ruff
int trick_winner(const std::vector<Cards>& plays, const Trump& ctx);

// Declarations (rules/bidding.py).
int bid_strength(const Cards& cards, int level, int decks);  // 0: no declaration
int bid_trump(const Cards& cards);
std::vector<Cards> legal_bids(const Counts& hand, int level, int decks, int floor);
bool has_legal_bid(const Counts& hand, int level, int decks, int floor);  // legal_bids non-empty
bool is_bid_type(int card, int level);

// Scoring (rules/scoring.py).
int kitty_multiplier(const Cards& lead, const Trump& ctx, int cap);
struct LevelChange {
  bool dealer_kept;
  int gain;
};
LevelChange level_change(int attacker_points, const Rules& rules);

}  // namespace shengji
