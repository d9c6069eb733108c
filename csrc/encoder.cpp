#include "encoder.hpp"

#include <algorithm>
#include <cstring>

namespace shengji {

namespace {

// count * scale as float for count 0..3: what the reference stores for a count.
using Values = std::array<float, 4>;

// Writes each card's count of `cards` (the buffer is zero): two passes over the list.
void write_counts(const Cards& cards, const Values& values, float* out) {
  if (cards.empty()) return;
  uint8_t counts[kCardTypes] = {};
  for (int card : cards) ++counts[card];
  for (int card : cards) out[card] = values[counts[card]];
}

int relative(int seat, int observer) { return (seat - observer + 4) % 4; }

void write_trump_tables(const Game& game, float* out) {
  const Trump& ctx = game.standing_trump();
  std::memcpy(out + obs::kTrumpCards, ctx.trump_flag.data(), sizeof(float) * kCardTypes);
  std::memcpy(out + obs::kCardOrder, ctx.order.data(), sizeof(float) * kCardTypes);
}

void write_public(const Game& game, int seat, float* out) {
  const int trump = game.has_ctx ? game.ctx.trump_suit : (game.has_bid ? game.bid.trump_suit : -1);
  out[obs::kTrumpSuit + (trump < 0 ? kNumSuits : trump)] = 1.0f;
  out[obs::kLevel + game.level] = 1.0f;
  out[obs::kTeamLevels + game.levels[seat % 2]] = 1.0f;
  out[obs::kTeamLevels + kNumRanks + game.levels[1 - seat % 2]] = 1.0f;
  out[obs::kBidStrength + (game.has_bid ? game.bid.strength : 0)] = 1.0f;
  out[obs::kBidder + (game.has_bid ? relative(game.bid.seat, seat) : 4)] = 1.0f;
  out[obs::kDealer + (game.dealer >= 0 ? relative(game.dealer, seat) : 4)] = 1.0f;
  if (game.phase == Phase::kPlay) out[obs::kLeader + relative(game.leader, seat)] = 1.0f;
}

void write_progress(const Game& game, int seat, float* out) {
  const Rules& rules = game.rules;
  const double total_cards = 4.0 * rules.hand_size();
  size_t played = 0;
  for (const Cards& cards : game.played) played += cards.size();
  float* progress = out + obs::kProgress;
  progress[0] = static_cast<float>(game.dealt / total_cards);
  progress[1] = static_cast<float>(static_cast<double>(played) / total_cards);
  if (game.attacker_trick_points) {
    progress[2] = static_cast<float>(
        std::min(1.0, game.attacker_trick_points / static_cast<double>(rules.total_points())));
  }
  if (game.penalty_points > 0) {
    progress[3] = static_cast<float>(
        std::min(1.0, game.penalty_points / static_cast<double>(rules.total_points())));
  }
  if (game.dealer >= 0 && game.phase != Phase::kBid && seat % 2 != game.dealer % 2) {
    progress[4] = 1.0f;
  }
}

}  // namespace

void encode(const Game& game, int seat, const Decision* decision, float* out) {
  std::memset(out, 0, sizeof(float) * obs::kSize);
  const double scale = 1.0 / game.rules.decks;
  const Values values = {0.0f, static_cast<float>(scale), static_cast<float>(2 * scale),
                         static_cast<float>(3 * scale)};
  const Counts& hand = game.hands[seat];
  for (int card = 0; card < kCardTypes; ++card) out[obs::kHand + card] = values[hand[card]];
  for (int other = 0; other < 4; ++other) {
    const int row = relative(other, seat) * kCardTypes;
    write_counts(game.played[other], values, out + obs::kPlayed + row);
    write_counts(game.revealed[other], values, out + obs::kRevealed + row);
    for (int suit = 0; suit < kEffectiveSuits; ++suit) {
      if (game.voids[other][suit]) {
        out[obs::kVoids + relative(other, seat) * kEffectiveSuits + suit] = 1.0f;
      }
    }
  }
  for (size_t index = 0; index < game.trick.size(); ++index) {
    const int player = (game.leader + static_cast<int>(index)) % 4;
    write_counts(game.trick[index], values,
                 out + obs::kTrick + relative(player, seat) * kCardTypes);
  }
  if (!game.trick.empty() && game.has_ctx) {
    const int winner = game.current_trick_winner();
    out[obs::kTrickWinner + relative(winner, seat)] = 1.0f;
  }
  if (game.phase != Phase::kBid && game.dealer == seat) {
    write_counts(game.kitty, values, out + obs::kKitty);
  }
  write_trump_tables(game, out);
  write_public(game, seat, out);
  write_progress(game, seat, out);
  if (decision != nullptr && decision->seat == seat) {
    const float step = static_cast<float>(scale);
    for (int card : decision->selection) out[obs::kSelection + card] += step;
    out[obs::kPhase + static_cast<int>(decision->kind)] = 1.0f;
  }
}

}  // namespace shengji
