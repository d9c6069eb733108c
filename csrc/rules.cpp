#include "rules.hpp"

#include <algorithm>
#include <map>
#include <string>

namespace shengji {

int points_of(const Cards& cards) {
  int total = 0;
  for (int card : cards) total += card_points(card);
  return total;
}

// --- trump order ----------------------------------------------------------------------------

Trump make_trump(const Rules& rules, int level, int trump_suit) {
  Trump ctx;
  ctx.level = level;
  ctx.trump_suit = trump_suit;
  const bool twos_permanent = rules.twos_always_trump && level != 0;
  auto ordinary = [&](int rank) { return rank != level && !(twos_permanent && rank == 0); };
  for (int suit = 0; suit < kNumSuits; ++suit) {
    if (suit == trump_suit) continue;
    int key = 0;
    for (int rank = 0; rank < kNumRanks; ++rank) {
      if (!ordinary(rank)) continue;
      ctx.suit[make_card(rank, suit)] = static_cast<int8_t>(suit);
      ctx.key[make_card(rank, suit)] = static_cast<int8_t>(key++);
    }
    ctx.key_count[suit] = static_cast<int8_t>(key);
  }
  int key = 0;
  auto tier = [&](int card) {
    ctx.suit[card] = kTrump;
    ctx.key[card] = static_cast<int8_t>(key);
  };
  if (trump_suit != kNoSuit) {
    for (int rank = 0; rank < kNumRanks; ++rank) {
      if (ordinary(rank)) {
        tier(make_card(rank, trump_suit));
        ++key;
      }
    }
  }
  std::vector<int> special;
  if (twos_permanent) special.push_back(0);
  special.push_back(level);
  for (int rank : special) {
    for (int suit = 0; suit < kNumSuits; ++suit) {
      if (suit != trump_suit) tier(make_card(rank, suit));
    }
    ++key;
    if (trump_suit != kNoSuit) {
      tier(make_card(rank, trump_suit));
      ++key;
    }
  }
  tier(kSmallJoker);
  ++key;
  tier(kBigJoker);
  ++key;
  ctx.key_count[kTrump] = static_cast<int8_t>(key);
  for (int card = 0; card < kCardTypes; ++card) {
    const int suit = ctx.suit[card];
    ctx.trump_flag[card] = suit == kTrump ? 1.0f : 0.0f;
    const double top = std::max(1, ctx.key_count[suit] - 1);
    ctx.order[card] = static_cast<float>(ctx.key[card] / top);
  }
  return ctx;
}

// --- decomposition --------------------------------------------------------------------------

namespace {

constexpr int kMaxKeys = 32;

// The longest run among the card types with at least `multiplicity` copies, ties to the
// higher top; card types from the top down. Off-suit level cards share a key: the
// lowest card id stands for the key.
Cards longest_run(const Counts& counts, const Cards& types, int multiplicity, const Trump& ctx) {
  std::array<int, kMaxKeys> by_key;
  by_key.fill(-1);
  for (int card : types) {
    if (counts[card] >= multiplicity && by_key[ctx.key[card]] < 0) by_key[ctx.key[card]] = card;
  }
  Cards best;
  for (int key = kMaxKeys - 1; key >= 0; --key) {
    if (by_key[key] < 0 || (key + 1 < kMaxKeys && by_key[key + 1] >= 0)) continue;
    Cards run;
    for (int k = key; k >= 0 && by_key[k] >= 0; --k) run.push_back(by_key[k]);
    if (run.size() > best.size()) best = run;
  }
  return best;
}

void decompose_suit(Counts& counts, const Cards& types, int suit, const Trump& ctx,
                    std::vector<Component>& out) {
  for (int multiplicity : {3, 2}) {
    while (true) {
      Cards run = longest_run(counts, types, multiplicity, ctx);
      if (run.empty()) break;
      Component component;
      component.multiplicity = multiplicity;
      component.length = static_cast<int>(run.size());
      component.top_key = ctx.key[run[0]];
      component.suit = suit;
      for (int card : run) {
        counts[card] = static_cast<uint8_t>(counts[card] - multiplicity);
        for (int i = 0; i < multiplicity; ++i) component.cards.push_back(card);
      }
      out.push_back(std::move(component));
    }
  }
  Cards singles;
  for (int card : types) {
    for (int i = 0; i < counts[card]; ++i) singles.push_back(card);
  }
  std::sort(singles.begin(), singles.end(), [&](int a, int b) {
    return ctx.key[a] != ctx.key[b] ? ctx.key[a] > ctx.key[b] : a < b;
  });
  for (int card : singles) {
    Component component;
    component.top_key = ctx.key[card];
    component.suit = suit;
    component.cards = {card};
    out.push_back(std::move(component));
  }
}

}  // namespace

std::vector<Component> decompose(const Cards& cards, const Trump& ctx) {
  std::vector<Component> out;
  if (cards.size() == 1) {
    Component component;
    component.top_key = ctx.key[cards[0]];
    component.suit = ctx.suit[cards[0]];
    component.cards = cards;
    out.push_back(std::move(component));
    return out;
  }
  Counts counts{};
  for (int card : cards) ++counts[card];
  for (int suit = 0; suit < kEffectiveSuits; ++suit) {
    Cards types;
    for (int card = 0; card < kCardTypes; ++card) {
      if (counts[card] && ctx.suit[card] == suit) types.push_back(card);
    }
    if (!types.empty()) decompose_suit(counts, types, suit, ctx, out);
  }
  return out;
}

int single_suit(const Cards& cards, const Trump& ctx) {
  if (cards.empty()) return -1;
  const int suit = ctx.suit[cards[0]];
  for (int card : cards) {
    if (ctx.suit[card] != suit) return -1;
  }
  return suit;
}

// --- shape matching -------------------------------------------------------------------------

namespace {

using Run = std::vector<int>;  // unit indices, low to high

bool better(const Match& a, const Match& b) {
  return a.score > b.score || (a.score == b.score && a.cost < b.cost);
}

int extra(int multiplicity, int selected) { return std::max(0, multiplicity - selected); }

// Every run of length 2..max_length of units holding >= multiplicity cards; among units
// sharing a key with as many cards selected, only the one with the fewest cards.
std::vector<Run> runs_of(const std::vector<Unit>& units, int multiplicity, int max_length) {
  std::map<int, std::vector<std::pair<int, int>>> chosen;  // key -> (selected, index)
  for (int index = 0; index < static_cast<int>(units.size()); ++index) {
    const Unit& unit = units[index];
    if (unit.count < multiplicity) continue;
    auto& options = chosen[unit.key];
    auto found = std::find_if(options.begin(), options.end(),
                              [&](const auto& option) { return option.first == unit.selected; });
    if (found == options.end()) {
      options.emplace_back(unit.selected, index);
    } else if (unit.count < units[found->second].count) {
      found->second = index;
    }
  }
  std::vector<Run> runs;
  Run run;
  auto extend = [&](auto&& self, int key) -> void {
    if (run.size() >= 2) runs.push_back(run);
    if (static_cast<int>(run.size()) >= max_length) return;
    auto next = chosen.find(key);
    if (next == chosen.end()) return;
    for (const auto& option : next->second) {
      run.push_back(option.second);
      self(self, key + 1);
      run.pop_back();
    }
  };
  for (const auto& [low, options] : chosen) {
    for (const auto& option : options) {
      run.assign(1, option.second);
      extend(extend, low + 1);
    }
  }
  return runs;
}

std::vector<Unit> remove_run(const std::vector<Unit>& units, const Run& used, int multiplicity) {
  std::vector<Unit> remaining = units;
  for (int index : used) {
    remaining[index].count -= multiplicity;
    remaining[index].selected = std::max(0, remaining[index].selected - multiplicity);
  }
  std::vector<Unit> kept;
  for (const Unit& unit : remaining) {
    if (unit.count >= 2) kept.push_back(unit);
  }
  return kept;
}

int grouped_triples(const std::vector<int>& titanic_room, int triples) {
  std::vector<bool> reachable(triples + 1, false);
  reachable[0] = true;
  for (int room : titanic_room) {
    std::vector<bool> grown = reachable;
    for (int total = 0; total <= triples; ++total) {
      if (!reachable[total]) continue;
      for (int placed = 2; placed <= room && total + placed <= triples; ++placed) {
        grown[total + placed] = true;
      }
    }
    reachable = grown;
  }
  for (int total = triples; total > 0; --total) {
    if (reachable[total]) return total;
  }
  return 0;
}

int cheapest_roles(const std::vector<Unit>& units, int triple_roles, int pair_roles) {
  bool any_selected = false;
  for (const Unit& unit : units) any_selected = any_selected || unit.selected > 0;
  if (!any_selected) return 3 * triple_roles + 2 * pair_roles;
  constexpr int kUnset = 1 << 20;
  const int width = pair_roles + 1;
  std::vector<int> costs((triple_roles + 1) * width, kUnset);
  costs[0] = 0;
  for (const Unit& unit : units) {
    std::vector<int> step = costs;
    for (int t = 0; t <= triple_roles; ++t) {
      for (int p = 0; p <= pair_roles; ++p) {
        const int cost = costs[t * width + p];
        if (cost == kUnset) continue;
        if (p + 1 <= pair_roles) {
          int& slot = step[t * width + p + 1];
          slot = std::min(slot, cost + extra(2, unit.selected));
        }
        if (unit.count >= 3 && t + 1 <= triple_roles) {
          int& slot = step[(t + 1) * width + p];
          slot = std::min(slot, cost + extra(3, unit.selected));
        }
      }
    }
    costs = step;
  }
  return costs[triple_roles * width + pair_roles];
}

struct Searcher {
  Shape bins;
  bool triples_first;
  std::map<std::string, Match> memo;

  Match fill(const std::vector<Unit>& units, const std::vector<int>& capacity) const {
    int triples = 0;
    for (const Unit& unit : units) triples += unit.count >= 3 ? 1 : 0;
    const int pairs = static_cast<int>(units.size());
    int grouped = 0;
    if (triples_first) {
      std::vector<int> titanic_room;
      for (size_t i = 0; i < bins.size(); ++i) {
        if (bins[i].first == 3 && bins[i].second >= 2) titanic_room.push_back(capacity[i]);
      }
      grouped = grouped_triples(titanic_room, triples);
    }
    int triple_room = -grouped, total_room = 0;
    for (size_t i = 0; i < bins.size(); ++i) {
      if (bins[i].first == 3) triple_room += capacity[i];
      total_room += capacity[i];
    }
    const int loose_triples = std::min(triples - grouped, triple_room);
    const int pair_room = total_room - grouped - loose_triples;
    const int loose_pairs = std::min(pairs - grouped - loose_triples, pair_room);
    Match match;
    match.score = {0, 3 * grouped, 0, 3 * loose_triples, 2 * loose_pairs};
    match.cost = cheapest_roles(units, grouped + loose_triples, loose_pairs);
    return match;
  }

  static std::string state_key(size_t index, const std::vector<Unit>& left,
                               const std::vector<int>& capacity) {
    std::string key(1, static_cast<char>(index));
    for (int cap : capacity) key.push_back(static_cast<char>(cap));
    for (const Unit& unit : left) {
      key.push_back(static_cast<char>(unit.key));
      key.push_back(static_cast<char>(unit.count));
      key.push_back(static_cast<char>(unit.selected));
    }
    return key;
  }

  Match search(size_t index, const std::vector<Unit>& left, const std::vector<int>& capacity) {
    if (index == bins.size()) return fill(left, capacity);
    const std::string key = state_key(index, left, capacity);
    auto known = memo.find(key);
    if (known != memo.end()) return known->second;
    Match best = search(index + 1, left, capacity);
    const std::vector<int> multiplicities =
        bins[index].first == 3 ? std::vector<int>{3, 2} : std::vector<int>{2};
    for (int multiplicity : multiplicities) {
      for (const Run& run : runs_of(left, multiplicity, capacity[index])) {
        std::vector<int> rest = capacity;
        rest[index] -= static_cast<int>(run.size());
        const int gained = multiplicity * static_cast<int>(run.size());
        int added = 0;
        for (int i : run) added += extra(multiplicity, left[i].selected);
        Match sub = search(index, remove_run(left, run, multiplicity), rest);
        sub.score[multiplicity == 3 ? 0 : 2] += gained;
        sub.cost += added;
        if (better(sub, best)) best = sub;
      }
    }
    memo.emplace(key, best);
    return best;
  }
};

}  // namespace

Match cheapest_match(const Shape& shape, const std::vector<Unit>& units, bool triples_first) {
  Searcher searcher;
  searcher.triples_first = triples_first;
  for (const auto& part : shape) {
    if (part.first >= 2) searcher.bins.push_back(part);
  }
  if (searcher.bins.empty() || units.empty()) return Match{};
  std::vector<int> capacity;
  for (const auto& part : searcher.bins) capacity.push_back(part.second);
  return searcher.search(0, units, capacity);
}

// --- leads, throws and follows --------------------------------------------------------------

Shape lead_shape(const Cards& lead, const Trump& ctx) {
  if (lead.size() == 1) return {{1, 1}};
  Shape shape;
  for (const Component& component : decompose(lead, ctx)) {
    shape.emplace_back(component.multiplicity, component.length);
  }
  return shape;
}

namespace {

std::vector<Unit> marked_units(const Counts& held, const Counts& chosen, const Trump& ctx) {
  std::vector<Unit> units;
  for (int card = 0; card < kCardTypes; ++card) {
    if (held[card] >= 2) units.push_back({ctx.key[card], held[card], chosen[card]});
  }
  std::sort(units.begin(), units.end(), [](const Unit& a, const Unit& b) {
    if (a.key != b.key) return a.key < b.key;
    if (a.count != b.count) return a.count < b.count;
    return a.selected < b.selected;
  });
  return units;
}

Counts counts_in_suit(const Cards& cards, int suit, const Trump& ctx) {
  Counts counts{};
  for (int card : cards) {
    if (ctx.suit[card] == suit) ++counts[card];
  }
  return counts;
}

}  // namespace

int cost_from_counts(const Shape& shape, const Counts& held, const Counts& chosen, const Trump& ctx,
                     bool triples_first) {
  return cheapest_match(shape, marked_units(held, chosen, ctx), triples_first).cost;
}

bool can_form_higher(const Counts& hand, int suit, int multiplicity, int length, int top_key,
                     const Trump& ctx) {
  std::array<bool, kMaxKeys> keys{};
  for (int card = 0; card < kCardTypes; ++card) {
    if (ctx.suit[card] == suit && hand[card] >= multiplicity) keys[ctx.key[card]] = true;
  }
  for (int key = top_key + 1; key < kMaxKeys; ++key) {
    if (!keys[key]) continue;
    bool run = true;
    for (int step = 0; step < length && run; ++step) run = key - step >= 0 && keys[key - step];
    if (run) return true;
  }
  return false;
}

Cards check_throw(const Cards& lead, const std::vector<const Counts*>& others, const Trump& ctx) {
  if (lead.size() == 1) return {};
  const int suit = single_suit(lead, ctx);
  const std::vector<Component> components = decompose(lead, ctx);
  if (components.size() == 1) return {};
  const Component* forced = nullptr;
  auto order = [](const Component& c) {
    return std::array<int, 3>{c.top_key, c.size(), printed_suit(c.cards[0])};
  };
  for (const Component& component : components) {
    bool beatable = false;
    for (const Counts* hand : others) {
      beatable = beatable || can_form_higher(*hand, suit, component.multiplicity, component.length,
                                             component.top_key, ctx);
    }
    if (beatable && (forced == nullptr || order(component) < order(*forced))) forced = &component;
  }
  return forced == nullptr ? Cards{} : forced->cards;
}

int follow_error(const Cards& lead, const Counts& hand, const Cards& play, const Trump& ctx,
                 bool triples_first) {
  if (play.size() != lead.size()) return 1;
  Counts available = hand;
  for (int card : play) {
    if (available[card] == 0) return 2;
    --available[card];
  }
  const int suit = ctx.suit[lead[0]];
  int in_suit_hand = 0, in_suit_play = 0;
  for (int card = 0; card < kCardTypes; ++card) {
    if (ctx.suit[card] == suit) in_suit_hand += hand[card];
  }
  for (int card : play) in_suit_play += ctx.suit[card] == suit ? 1 : 0;
  const int size = static_cast<int>(lead.size());
  if (in_suit_play < std::min(size, in_suit_hand)) return 3;
  if (in_suit_hand <= size) return 0;
  const Shape shape = lead_shape(lead, ctx);
  bool structured = false;
  for (const auto& part : shape) structured = structured || part.first >= 2;
  if (!structured) return 0;
  Counts held{};
  for (int card = 0; card < kCardTypes; ++card) {
    if (ctx.suit[card] == suit) held[card] = hand[card];
  }
  const Counts none{};
  const Score best = cheapest_match(shape, marked_units(held, none, ctx), triples_first).score;
  const Counts played = counts_in_suit(play, suit, ctx);
  const Score got = cheapest_match(shape, marked_units(played, none, ctx), triples_first).score;
  return got < best ? 4 : 0;
}

// --- trick winners --------------------------------------------------------------------------

namespace {

// Every run of exactly `length` units with >= multiplicity cards, as card types from
// the top down, highest top first.
std::vector<Cards> run_candidates(const Counts& counts, int multiplicity, int length,
                                  const Trump& ctx) {
  std::array<Cards, kMaxKeys> by_key;
  for (int card = 0; card < kCardTypes; ++card) {
    if (counts[card] >= multiplicity) by_key[ctx.key[card]].push_back(card);
  }
  std::vector<Cards> runs;
  Cards chosen;
  auto extend = [&](auto&& self, int key) -> void {
    if (static_cast<int>(chosen.size()) == length) {
      runs.push_back(chosen);
      return;
    }
    if (key < 0) return;
    for (int card : by_key[key]) {
      chosen.push_back(card);
      self(self, key - 1);
      chosen.pop_back();
    }
  };
  for (int top = kMaxKeys - 1; top >= 0; --top) {
    if (!by_key[top].empty()) extend(extend, top);
  }
  return runs;
}

bool covers(Counts& counts, const Shape& shapes, size_t first, const Trump& ctx) {
  if (first == shapes.size()) return true;
  const auto [multiplicity, length] = shapes[first];
  for (const Cards& run : run_candidates(counts, multiplicity, length, ctx)) {
    for (int card : run) counts[card] = static_cast<uint8_t>(counts[card] - multiplicity);
    const bool covered = covers(counts, shapes, first + 1, ctx);
    for (int card : run) counts[card] = static_cast<uint8_t>(counts[card] + multiplicity);
    if (covered) return true;
  }
  return false;
}

std::array<int, 3> largest_first_key(const std::pair<int, int>& shape) {
  return {shape.second >= 2 ? 1 : 0, shape.first, shape.second};
}

bool as_combination(const Cards& play, const Trump& ctx, Component& out) {
  if (single_suit(play, ctx) < 0) return false;
  std::vector<Component> components = decompose(play, ctx);
  if (components.size() != 1) return false;
  out = std::move(components[0]);
  return true;
}

}  // namespace

int ruff_strength(const std::vector<Component>& lead_components, const Cards& play,
                  const Trump& ctx) {
  for (int card : play) {
    if (ctx.suit[card] != kTrump) return -1;
  }
  Shape shapes;
  for (const Component& c : lead_components) shapes.emplace_back(c.multiplicity, c.length);
  std::stable_sort(shapes.begin(), shapes.end(), [](const auto& a, const auto& b) {
    return largest_first_key(a) > largest_first_key(b);
  });
  Shape structured;
  for (const auto& shape : shapes) {
    if (shape.first >= 2) structured.push_back(shape);
  }
  Counts counts{};
  for (int card : play) ++counts[card];
  const auto largest = shapes[0];
  for (const Cards& run : run_candidates(counts, largest.first, largest.second, ctx)) {
    for (int card : run) counts[card] = static_cast<uint8_t>(counts[card] - largest.first);
    const bool covered = largest.first >= 2 ? covers(counts, structured, 1, ctx) : true;
    for (int card : run) counts[card] = static_cast<uint8_t>(counts[card] + largest.first);
    if (covered) return ctx.key[run[0]];
  }
  return -1;
}

namespace {

int single_card_winner(const std::vector<Cards>& plays, const Trump& ctx) {
  const int suit = ctx.suit[plays[0][0]];
  int winner = 0;
  std::pair<int, int> best{0, ctx.key[plays[0][0]]};
  for (size_t index = 1; index < plays.size(); ++index) {
    const int card = plays[index][0];
    std::pair<int, int> rank;
    if (ctx.suit[card] == suit) {
      rank = {0, ctx.key[card]};
    } else if (suit != kTrump && ctx.suit[card] == kTrump) {
      rank = {1, ctx.key[card]};
    } else {
      continue;
    }
    if (rank > best) {
      winner = static_cast<int>(index);
      best = rank;
    }
  }
  return winner;
}

int structured_winner(const std::vector<Cards>& plays, const Trump& ctx) {
  const Cards& lead = plays[0];
  const std::vector<Component> lead_components = decompose(lead, ctx);
  const int suit = ctx.suit[lead[0]];
  const bool lead_is_combination = lead_components.size() == 1;
  int winner = 0, winning_key = lead_components[0].top_key, winning_ruff = -1;
  for (size_t index = 1; index < plays.size(); ++index) {
    const Cards& play = plays[index];
    bool in_suit = true;
    for (int card : play) in_suit = in_suit && ctx.suit[card] == suit;
    if (in_suit) {
      if (!lead_is_combination || winning_ruff >= 0) continue;
      Component combination;
      if (as_combination(play, ctx, combination) &&
          combination.multiplicity == lead_components[0].multiplicity &&
          combination.length == lead_components[0].length && combination.top_key > winning_key) {
        winner = static_cast<int>(index);
        winning_key = combination.top_key;
      }
    } else if (suit != kTrump) {
      const int strength = ruff_strength(lead_components, play, ctx);
      if (strength >= 0 && (winning_ruff < 0 || strength > winning_ruff)) {
        winner = static_cast<int>(index);
        winning_ruff = strength;
      }
    }
  }
  return winner;
}

}  // namespace

int trick_winner(const std::vector<Cards>& plays, const Trump& ctx) {
  return plays[0].size() == 1 ? single_card_winner(plays, ctx) : structured_winner(plays, ctx);
}

// --- declarations ---------------------------------------------------------------------------

bool is_bid_type(int card, int level) { return card >= kSmallJoker || rank_of(card) == level; }

int bid_strength(const Cards& cards, int level, int decks) {
  if (cards.empty()) return 0;
  Counts counts{};
  int types = 0;
  for (int card : cards) types += counts[card]++ == 0 ? 1 : 0;
  if (types == 2 && counts[kSmallJoker] == 1 && counts[kBigJoker] == 1) {
    return decks == 1 ? 2 : 0;
  }
  if (types != 1) return 0;
  const int card = cards[0];
  const int copies = static_cast<int>(cards.size());
  if (card == kSmallJoker || card == kBigJoker) {
    const int big = card == kBigJoker ? 1 : 0;
    if (decks >= 2 && copies == 2) return 3 + big;
    if (decks == 3 && copies == 3) return 6 + big;
    return 0;
  }
  if (rank_of(card) != level) return 0;
  if (copies == 1) return 1;
  if (copies == 2 && decks >= 2) return 2;
  if (copies == 3 && decks == 3) return 5;
  return 0;
}

int bid_trump(const Cards& cards) {
  return cards[0] >= kSmallJoker ? kNoSuit : printed_suit(cards[0]);
}

namespace {

// Calls `visit(strength, cards)` for every declaration `hand` could show above `floor`
// (it reads only the level cards and jokers of `hand`),
// in the order of candidate_bids (rules/bidding.py); stops when it returns true.
template <typename Visit>
void for_each_bid(const Counts& hand, int level, int decks, int floor, Visit visit) {
  auto offer = [&](const Cards& cards) {
    const int strength = bid_strength(cards, level, decks);
    return strength > floor && visit(strength, cards);
  };
  for (int card : {make_card(level, 0), make_card(level, 1), make_card(level, 2),
                   make_card(level, 3), kSmallJoker, kBigJoker}) {
    for (int copies = 1; copies <= hand[card]; ++copies) {
      if (offer(Cards(copies, card))) return;
    }
  }
  if (hand[kSmallJoker] && hand[kBigJoker]) offer({kSmallJoker, kBigJoker});
}

}  // namespace

std::vector<Cards> legal_bids(const Counts& hand, int level, int decks, int floor) {
  std::vector<std::pair<int, Cards>> shown;
  for_each_bid(hand, level, decks, floor, [&](int strength, const Cards& cards) {
    shown.emplace_back(strength, cards);
    return false;
  });
  std::sort(shown.begin(), shown.end());
  std::vector<Cards> bids;
  for (auto& entry : shown) bids.push_back(std::move(entry.second));
  return bids;
}

bool has_legal_bid(const Counts& hand, int level, int decks, int floor) {
  bool found = false;
  for_each_bid(hand, level, decks, floor, [&](int, const Cards&) { return found = true; });
  return found;
}

// --- scoring --------------------------------------------------------------------------------

int kitty_multiplier(const Cards& lead, const Trump& ctx, int cap) {
  int largest = 0;
  for (const Component& component : decompose(lead, ctx)) {
    largest = std::max(largest, component.size());
  }
  return largest >= 30 ? cap : std::min(1 << largest, cap);
}

LevelChange level_change(int attacker_points, const Rules& rules) {
  const int band = rules.band();
  if (attacker_points <= 0) return {true, 3};
  if (attacker_points < band) return {true, 2};
  if (attacker_points < 2 * band) return {true, 1};
  return {false, (attacker_points - 2 * band) / band};
}

}  // namespace shengji
