#include "decision.hpp"

#include <map>
#include <tuple>

namespace shengji {

namespace {

Kind kind_of(const Game& game) {
  switch (game.phase) {
    case Phase::kBid:
      return Kind::kBid;
    case Phase::kBury:
      return Kind::kBury;
    case Phase::kPlay:
      return game.trick.empty() ? Kind::kLead : Kind::kFollow;
    default:
      throw RuleError{"no decision after the hand is over"};
  }
}

const char* const kRanks[] = {"2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A"};

std::string card_name(int card) {
  if (card == kSmallJoker) return "SJ";
  if (card == kBigJoker) return "BJ";
  return std::string(kRanks[card % kNumRanks]) + "SHDC"[card / kNumRanks];
}

}  // namespace

Decision::Decision(const Game& game) : seat(game.current_player), kind(kind_of(game)) {
  remaining_ = game.hands[seat];
  if (kind == Kind::kBid) {
    for (const Cards& bid : game.legal_bids(seat)) {
      Counts counts{};
      for (int card : bid) ++counts[card];
      candidates_.push_back(counts);
    }
  } else if (kind == Kind::kBury) {
    size_ = game.rules.kitty_size();
  } else if (kind == Kind::kFollow) {
    setup_follow(game);
  }
  update_mask(game);
}

void Decision::setup_follow(const Game& game) {
  const Trump& ctx = game.ctx;
  const Cards& lead = game.trick[0];
  size_ = static_cast<int>(lead.size());
  suit_ = ctx.suit[lead[0]];
  int in_suit = 0;
  bool has_units = false;
  for (int card = 0; card < kCardTypes; ++card) {
    if (ctx.suit[card] != suit_) continue;
    in_suit += remaining_[card];  // nothing is selected yet: the whole hand
    has_units = has_units || remaining_[card] >= 2;
  }
  off_suit_room_ = std::max(0, size_ - in_suit);
  if (in_suit <= size_) return;
  Shape shape = lead_shape(lead, ctx);
  bool structured = false;
  for (const auto& part : shape) structured = structured || part.first >= 2;
  if (structured && has_units) {
    free_follow_ = false;
    shape_ = std::move(shape);
    for (int card = 0; card < kCardTypes; ++card) {
      if (ctx.suit[card] == suit_) in_suit_[card] = remaining_[card];
    }
  }
}

void Decision::add(const Game& game, int card) {
  selection.push_back(card);
  --remaining_[card];
  ++chosen_[card];
  if (kind == Kind::kLead && suit_ < 0) {
    suit_ = game.ctx.suit[card];
  } else if (kind == Kind::kFollow && off_suit_room_ && game.ctx.suit[card] != suit_) {
    --off_suit_room_;
  }
  if (static_cast<int>(selection.size()) == size_) {  // complete: only COMMIT is left
    mask_.fill(0);
    mask_[kCommit] = 1;
    only_commit_ = true;
    return;
  }
  if (!candidates_.empty()) {  // a bid
    std::vector<Counts> kept;
    for (const Counts& candidate : candidates_) {
      if (candidate[card] >= chosen_[card]) kept.push_back(candidate);
    }
    candidates_ = std::move(kept);
  }
  update_mask(game);
}

void Decision::update_mask(const Game& game) {
  mask_.fill(0);
  const int selected = static_cast<int>(selection.size());
  switch (kind) {
    case Kind::kBid: {
      bool complete = false;
      for (const Counts& candidate : candidates_) {
        for (int card = 0; card < kCardTypes; ++card) {
          if (candidate[card] > chosen_[card]) mask_[card] = 1;
        }
        complete = complete || candidate == chosen_;
      }
      mask_[kCommit] = selected == 0 || complete ? 1 : 0;
      break;
    }
    case Kind::kLead:
      for (int card = 0; card < kCardTypes; ++card) {
        if (remaining_[card] && (suit_ < 0 || game.ctx.suit[card] == suit_)) mask_[card] = 1;
      }
      mask_[kCommit] = selected ? 1 : 0;
      break;
    case Kind::kBury:
      if (selected == size_) {
        mask_[kCommit] = 1;
        break;
      }
      for (int card = 0; card < kCardTypes; ++card) mask_[card] = remaining_[card] ? 1 : 0;
      break;
    case Kind::kFollow:
      if (selected == size_) {
        mask_[kCommit] = 1;
        break;
      }
      follow_mask(game);
      break;
  }
  bool any_card = false;
  for (int card = 0; card < kCardTypes && !any_card; ++card) any_card = mask_[card] == 1;
  only_commit_ = mask_[kCommit] == 1 && !any_card;
}

void Decision::follow_mask(const Game& game) {
  if (!free_follow_) {
    shaped_follow_mask(game);
    return;
  }
  const Trump& ctx = game.ctx;
  for (int card = 0; card < kCardTypes; ++card) {
    if (remaining_[card] && (ctx.suit[card] == suit_ || off_suit_room_)) mask_[card] = 1;
  }
}

void Decision::shaped_follow_mask(const Game& game) {
  const Trump& ctx = game.ctx;
  const bool triples_first = game.rules.triples_first;
  const int room = size_ - static_cast<int>(selection.size());
  const int needed = cost_from_counts(shape_, in_suit_, chosen_, ctx, triples_first);
  if (needed < room) {
    for (int card = 0; card < kCardTypes; ++card) {
      if (in_suit_[card] && remaining_[card]) mask_[card] = 1;
    }
    return;
  }
  std::map<std::tuple<int, int, int>, bool> answers;  // cards alike in rank and count
  for (int card = 0; card < kCardTypes; ++card) {
    if (in_suit_[card] < 2 || !remaining_[card]) continue;
    const auto alike = std::make_tuple(int{ctx.key[card]}, int{in_suit_[card]}, int{chosen_[card]});
    auto known = answers.find(alike);
    if (known == answers.end()) {
      Counts grown = chosen_;
      ++grown[card];
      const bool helps = cost_from_counts(shape_, in_suit_, grown, ctx, triples_first) < needed;
      known = answers.emplace(alike, helps).first;
    }
    if (known->second) mask_[card] = 1;
  }
}

std::string Decision::why_illegal(int action) const {
  if (action < 0 || action >= kNumActions) {
    return "action " + std::to_string(action) + " is outside Discrete(55)";
  }
  static const char* const kKinds[] = {"bid", "bury", "lead", "follow"};
  if (action == kCommit) {
    return std::string("the selection is not a complete ") + kKinds[static_cast<int>(kind)] +
           " yet";
  }
  const std::string name = card_name(action);
  if (remaining_[action] == 0) return "no " + name + " left in the hand to select";
  switch (kind) {
    case Kind::kBid:
      return "no declaration stronger than the standing one holds " + name + " (§4)";
    case Kind::kBury:
      return "the bury already has " + std::to_string(size_) + " cards (§5)";
    case Kind::kLead:
      return name + " is not in the suit of the lead (§6.1)";
    case Kind::kFollow:
      return name + " breaks the follow rules (§6.2: suit, then shape)";
  }
  return "";
}

}  // namespace shengji
