#include "table.hpp"

#include <algorithm>
#include <cstring>

namespace shengji {

Table::Table(const Rules& rules_, const EpisodeRules& episode_) : rules(rules_), episode(episode_) {
  reset(0, -1);  // a table always holds a game, so that no call finds none
}

void Table::reset(uint64_t seed, int start_level) {
  Rules hand_rules = rules;
  if (start_level >= 0) hand_rules.start_level = start_level;
  game_ = std::make_unique<Game>(hand_rules, seed);
  over_ = false;
  rewards_ = {0.0, 0.0};
  decision_ = Decision(*game_);
  ++serial;
  ++steps;
}

void Table::restart_decision() {
  ++serial;
  ++steps;
  over_ = game_->phase == Phase::kHandOver || game_->phase == Phase::kMatchOver;
  if (!over_) decision_ = Decision(*game_);
}

void Table::start(Game game) {
  rules = game.rules;
  game_ = std::make_unique<Game>(std::move(game));
  restart_decision();
}

int Table::step(int action) {
  if (over_ || !decision_.allows(action)) return kIllegal;
  ++steps;
  if (action != kCommit) decision_.add(*game_, action);
  if (action != kCommit && !decision_.only_commit()) return kSelected;
  ++serial;
  commit();
  return over_ ? kOver : kCommitted;
}

void Table::commit() {
  Game& game = *game_;
  game.step(decision_.selection, true);  // the mask is exact: no second check
  if (game.phase == Phase::kHandOver && episode.match) game.next_hand();
  if (game.phase == Phase::kHandOver || game.phase == Phase::kMatchOver) {
    finish();
  } else {
    decision_ = Decision(game);
  }
}

void Table::finish() {
  const Game& game = *game_;
  over_ = true;
  if (episode.match) {
    rewards_ = game.match_winner == 0 ? std::array<double, 2>{1.0, -1.0}
                                      : std::array<double, 2>{-1.0, 1.0};
    return;
  }
  const HandResult& result = game.result;
  double attacker;
  if (episode.points) {
    const double threshold = 2.0 * game.rules.band();
    attacker = std::clamp((result.attacker_points - threshold) / threshold, -1.0, 1.0);
  } else if (result.dealer_kept) {
    attacker = -static_cast<double>(result.levels_gained);
  } else {
    attacker = 1.0 + result.levels_gained;  // a take-over must be worth something
  }
  const int attackers = 1 - team_of(result.dealer);
  rewards_ = attackers == 0 ? std::array<double, 2>{attacker, -attacker}
                            : std::array<double, 2>{-attacker, attacker};
}

void Table::observe(int seat, float* out) const {
  encode(*game_, seat, over_ ? nullptr : &decision_, out);
}

void Table::write_mask(int8_t* out) const {
  if (over_) {
    std::memset(out, 0, kNumActions);
  } else {
    std::memcpy(out, decision_.mask().data(), kNumActions);
  }
}

// --- the batch ------------------------------------------------------------------------------

TableBatch::TableBatch(int count, const Rules& rules, const EpisodeRules& episode, uint64_t seed,
                       bool redeal)
    : rules_(rules), redeal_(redeal), seeds_(count, 0), stream_(seed) {
  for (int i = 0; i < count; ++i) tables_.push_back(std::make_unique<Table>(rules, episode));
}

void TableBatch::deal(int index) {
  seeds_[index] = next_seed();
  tables_[index]->reset(seeds_[index], -1);
}

uint64_t TableBatch::next_seed() {  // splitmix64, kept below 2**62 like the env's seeds
  uint64_t z = (stream_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return (z ^ (z >> 31)) >> 2;
}

void TableBatch::write(int index, float* observations, int8_t* masks, int32_t* seats) const {
  const Table& table = *tables_[index];
  table.observe(table.seat(), observations + static_cast<size_t>(index) * obs::kSize);
  table.write_mask(masks + static_cast<size_t>(index) * kNumActions);
  seats[index] = table.seat();
}

void TableBatch::start(int index, Game game, float* observations, int8_t* masks, int32_t* seats) {
  seeds_[index] = 0;  // not dealt from the batch's stream
  tables_[index]->start(std::move(game));
  write(index, observations, masks, seats);
}

void TableBatch::reset(float* observations, int8_t* masks, int32_t* seats) {
  for (int i = 0; i < size(); ++i) {
    deal(i);
    write(i, observations, masks, seats);
  }
}

int TableBatch::step(const int64_t* actions, float* observations, int8_t* masks, int32_t* seats,
                     float* rewards, uint8_t* dones) {
  for (int i = 0; i < size(); ++i) {
    if (tables_[i]->over()) continue;  // without redeal: left over until started again
    const int64_t action = actions[i];
    if (action < 0 || action >= kNumActions || !tables_[i]->decision().allows(int(action))) {
      return i;
    }
  }
  for (int i = 0; i < size(); ++i) {
    Table& table = *tables_[i];
    float* seat_rewards = rewards + static_cast<size_t>(i) * 4;
    std::fill(seat_rewards, seat_rewards + 4, 0.0f);
    dones[i] = 0;
    if (table.over()) continue;
    if (table.step(static_cast<int>(actions[i])) == kOver) {
      const auto team = table.team_rewards();
      for (int seat = 0; seat < 4; ++seat) seat_rewards[seat] = static_cast<float>(team[seat % 2]);
      dones[i] = 1;
      ++episodes_;
      if (redeal_) deal(i);
    }
    write(i, observations, masks, seats);
  }
  return -1;
}

}  // namespace shengji
