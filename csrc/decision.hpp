// One decision built card by card, with its exact prefix mask (shengji_env/actions.py).
#pragma once

#include <array>
#include <string>
#include <vector>

#include "game.hpp"

namespace shengji {

constexpr int kCommit = kCardTypes;
constexpr int kNumActions = kCardTypes + 1;

enum class Kind { kBid = 0, kBury = 1, kLead = 2, kFollow = 3 };

using Mask = std::array<int8_t, kNumActions>;

class Decision {
 public:
  Decision() = default;
  explicit Decision(const Game& game);

  bool allows(int action) const {
    return action >= 0 && action < kNumActions && mask_[action] == 1;
  }
  // Selects one more card; the caller has checked allows().
  void add(const Game& game, int card);
  std::string why_illegal(int action) const;

  const Mask& mask() const { return mask_; }
  bool only_commit() const { return only_commit_; }

  int seat = 0;
  Kind kind = Kind::kBid;
  Cards selection;

 private:
  void setup_follow(const Game& game);
  void update_mask(const Game& game);
  void follow_mask(const Game& game);
  void shaped_follow_mask(const Game& game);

  Counts remaining_{};
  Counts chosen_{};
  int size_ = 0;
  int suit_ = -1;
  int off_suit_room_ = 0;
  bool free_follow_ = true;
  Shape shape_;
  Counts in_suit_{};
  std::vector<Counts> candidates_;
  Mask mask_{};
  bool only_commit_ = false;
};

}  // namespace shengji
