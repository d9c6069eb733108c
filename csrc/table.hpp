// One environment table: a game, its current decision and the env's episode rules
// (shengji_env/env.py's raw_env without PettingZoo's bookkeeping), and a batch of them.
#pragma once

#include <array>
#include <cstdint>
#include <memory>
#include <vector>

#include "encoder.hpp"

namespace shengji {

struct EpisodeRules {
  bool match = false;   // episode "match": deal on until a team passes the ace
  bool points = false;  // reward "points" rather than "levels"
};

enum StepCode { kIllegal = -1, kSelected = 0, kCommitted = 1, kOver = 2 };

class Table {
 public:
  Table(const Rules& rules, const EpisodeRules& episode);

  // A new episode; `start_level` >= 0 replaces the rules' start level for it.
  void reset(uint64_t seed, int start_level);
  // One card-by-card action; see StepCode. An illegal action changes nothing.
  int step(int action);

  bool over() const { return over_; }
  int seat() const { return decision_.seat; }
  const Decision& decision() const { return decision_; }
  const Game& game() const { return *game_; }
  Game& mutable_game() { return *game_; }
  void restart_decision();  // after the game was set from outside
  // Plays `game` from here on (its rules become the table's): a hand dealt elsewhere.
  void start(Game game);
  // Team rewards of the finished episode (team 0, team 1).
  std::array<double, 2> team_rewards() const { return rewards_; }
  void observe(int seat, float* out) const;
  void write_mask(int8_t* out) const;

  Rules rules;
  EpisodeRules episode;
  int64_t serial = 0;  // bumped at every reset and commit: the game changed
  int64_t steps = 0;   // bumped at every reset and accepted action: the decision changed

 private:
  void commit();
  void finish();

  std::unique_ptr<Game> game_;
  Decision decision_;
  bool over_ = false;
  std::array<double, 2> rewards_{};
};

// Many tables stepped in one call: actions in; observations, masks, acting seats,
// rewards per seat and done flags out. A finished table deals its next episode at once, or
// with `redeal` false stays over (its action ignored, its row not rewritten) until `start`
// gives it a hand dealt elsewhere.
class TableBatch {
 public:
  TableBatch(int count, const Rules& rules, const EpisodeRules& episode, uint64_t seed,
             bool redeal = true);

  int size() const { return static_cast<int>(tables_.size()); }
  // The first observations; then step() after each batch of actions.
  void reset(float* observations, int8_t* masks, int32_t* seats);
  // Returns -1, or the index of the first table whose action was illegal (nothing stepped).
  int step(const int64_t* actions, float* observations, int8_t* masks, int32_t* seats,
           float* rewards, uint8_t* dones);
  const Table& table(int index) const { return *tables_[index]; }
  const Rules& rules() const { return rules_; }
  // Table `index` plays `game` next; its first observation, mask and seat are written.
  void start(int index, Game game, float* observations, int8_t* masks, int32_t* seats);
  uint64_t seed(int index) const { return seeds_[index]; }  // of the table's current deal
  int64_t episodes() const { return episodes_; }

 private:
  uint64_t next_seed();
  void write(int index, float* observations, int8_t* masks, int32_t* seats) const;

  void deal(int index);

  std::vector<std::unique_ptr<Table>> tables_;
  Rules rules_;
  bool redeal_;
  std::vector<uint64_t> seeds_;
  uint64_t stream_;
  int64_t episodes_ = 0;
};

}  // namespace shengji
