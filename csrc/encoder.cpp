#include "encoder.hpp"

#include <algorithm>
#include <cmath>
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

// shengji_env/card_reading.py, bit for bit: the derived blocks from the blocks before them
// (the copies read back from the buffer; ranks compared by the standing trump's keys, which
// order each effective suit as the card_order block does).
constexpr int kKeys = 32;  // above any rank key

struct CardReading {
  std::array<int, kCardTypes> hand{}, out{}, higher{}, in_trick{}, led{}, group{}, column{};
  std::array<bool, kCardTypes> winning{};
  std::array<int, kEffectiveSuits> out_by_group{}, hand_by_group{};
  std::array<bool, kEffectiveSuits> led_groups{}, win_groups{};
  std::array<float, kEffectiveSuits> top{};
};

int copies(float value, int decks) { return static_cast<int>(value * decks + 0.5f); }

// The relative seat a one-hot block names, or -1.
int seat_of(const float* block) {
  for (int seat = 0; seat < 4; ++seat) {
    if (block[seat] > 0.5f) return seat;
  }
  return -1;
}

void read_groups(const float* out, const Trump& ctx, CardReading& reading) {
  int trump_suit = kNumSuits;
  for (int suit = 0; suit <= kNumSuits; ++suit) {
    if (out[obs::kTrumpSuit + suit] > 0.5f) trump_suit = suit;
  }
  for (int card = 0; card < kCardTypes; ++card) {
    const int printed = printed_suit(card);
    const bool trump = ctx.suit[card] == kNumSuits;
    reading.column[card] = trump ? kNumSuits : printed;
    reading.group[card] = trump ? kNumSuits : printed - (printed > trump_suit ? 1 : 0);
  }
}

void read_counting(const float* out, const Trump& ctx, int decks, CardReading& reading) {
  const bool burying = out[obs::kPhase + static_cast<int>(Kind::kBury)] > 0.5f;
  std::array<std::array<int, kKeys + 1>, kEffectiveSuits> out_above{};  // by group, key
  for (int card = 0; card < kCardTypes; ++card) {
    int seen = reading.hand[card] = copies(out[obs::kHand + card], decks);
    for (int seat = 0; seat < 4; ++seat) {
      seen += copies(out[obs::kPlayed + seat * kCardTypes + card], decks);
      reading.in_trick[card] += copies(out[obs::kTrick + seat * kCardTypes + card], decks);
    }
    if (!burying) seen += copies(out[obs::kKitty + card], decks);
    reading.out[card] = std::max(decks - seen, 0);
    out_above[reading.group[card]][ctx.key[card]] += reading.out[card];
    reading.out_by_group[reading.group[card]] += reading.out[card];
    reading.hand_by_group[reading.group[card]] += reading.hand[card];
  }
  for (auto& by_key : out_above) {  // suffix sums: the copies out at this key or above
    for (int key = kKeys - 1; key >= 0; --key) by_key[key] += by_key[key + 1];
  }
  for (int card = 0; card < kCardTypes; ++card) {
    reading.higher[card] = out_above[reading.group[card]][ctx.key[card] + 1];
  }
}

void read_trick(const float* out, int decks, CardReading& reading) {
  const int leader = seat_of(out + obs::kLeader);
  const int winner = seat_of(out + obs::kTrickWinner);
  const float* order = out + obs::kCardOrder;
  for (int card = 0; card < kCardTypes; ++card) {
    const int group = reading.group[card];
    if (leader >= 0)
      reading.led[card] = copies(out[obs::kTrick + leader * kCardTypes + card], decks);
    reading.winning[card] = winner >= 0 && out[obs::kTrick + winner * kCardTypes + card] > 0.0f;
    if (reading.led[card] > 0) reading.led_groups[group] = true;
    if (reading.winning[card]) {
      reading.win_groups[group] = true;
      reading.top[group] = std::max(reading.top[group], order[card] + 1.0f);
    }
  }
}

void write_per_card(const float* out, const CardReading& reading, double decks, float* counting,
                    float* play) {
  const double suit_total = decks * kCardTypes;
  const float* order = out + obs::kCardOrder;
  const float* voids = out + obs::kVoids;
  for (int card = 0; card < kCardTypes; ++card) {
    const int group = reading.group[card], column = reading.column[card];
    counting[card] = static_cast<float>(reading.out[card] / decks);
    counting[kCardTypes + card] = reading.hand[card] > 0 && reading.higher[card] == 0 ? 1.0f : 0.0f;
    counting[2 * kCardTypes + card] = static_cast<float>(reading.higher[card] / suit_total);
    const bool holds = reading.win_groups[group];
    play[card] = reading.led_groups[group] ? 1.0f : 0.0f;
    play[kCardTypes + card] = holds ? 1.0f : 0.0f;
    play[2 * kCardTypes + card] = holds && order[card] + 1.0f > reading.top[group] ? 1.0f : 0.0f;
    play[3 * kCardTypes + card] = static_cast<float>(card_points(card) / 10.0);
    play[4 * kCardTypes + card] = static_cast<float>(reading.hand_by_group[group] / suit_total);
    play[5 * kCardTypes + card] = voids[2 * kEffectiveSuits + column];
    float threat = 0.0f;
    for (int seat : {1, 3}) {
      const float* row = voids + seat * kEffectiveSuits;
      threat = std::max(threat, row[column] * (1.0f - row[kNumSuits]));
    }
    play[6 * kCardTypes + card] = threat;
  }
}

void write_context(const CardReading& reading, const Rules& rules, float* context) {
  const double decks = rules.decks;
  const double suit_total = decks * kCardTypes;
  int trick_points = 0, lead_size = 0, lead_most = 0, over = -1;
  for (int card = 0; card < kCardTypes; ++card) {
    trick_points += reading.in_trick[card] * card_points(card);
    lead_size += reading.led[card];
    lead_most = std::max(lead_most, reading.led[card]);
    if (reading.winning[card] && (over < 0 || reading.higher[card] < over)) {
      over = reading.higher[card];
    }
  }
  for (int group = 0; group < kEffectiveSuits; ++group) {
    context[group] = static_cast<float>(reading.out_by_group[group] / suit_total);
    context[kEffectiveSuits + group] =
        static_cast<float>(reading.hand_by_group[group] / suit_total);
  }
  float* trick = context + 2 * kEffectiveSuits;
  trick[0] = static_cast<float>(trick_points / static_cast<double>(rules.total_points()));
  trick[1] = static_cast<float>(lead_size / suit_total);
  trick[2] = static_cast<float>(lead_most / decks);
  trick[3] = reading.win_groups[kNumSuits] ? 1.0f : 0.0f;
  trick[4] = over < 0 ? 0.0f : static_cast<float>(over / suit_total);
  trick[5 + rules.decks - 1] = 1.0f;
}

void write_card_reading(const Game& game, float* out) {
  const Trump& ctx = game.standing_trump();
  const int decks = game.rules.decks;
  CardReading reading;
  read_groups(out, ctx, reading);
  read_counting(out, ctx, decks, reading);
  read_trick(out, decks, reading);
  write_per_card(out, reading, decks, out + obs::kCardCounting, out + obs::kPlayReading);
  write_context(reading, game.rules, out + obs::kCardContext);
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
  write_card_reading(game, out);
}

}  // namespace shengji
