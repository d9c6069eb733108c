#include "bots.hpp"

#include <algorithm>
#include <functional>
#include <tuple>

namespace shengji {

namespace {

constexpr size_t kFollowLimit = 400;  // knowledge.FOLLOW_LIMIT
constexpr size_t kEndgameCards = 6;   // heuristic.ENDGAME_CARDS
constexpr int kMaxKeys = 32;

using Items = std::vector<std::pair<int, int>>;     // (card, count)
using Groups = std::vector<std::pair<int, Cards>>;  // (effective suit, cards), first met first

bool odd(int a) { return (a & 1) != 0; }
bool is_trump(int card, const Trump& ctx) { return ctx.suit[card] == kTrump; }

// rules.legal.submultisets: every multiset of `size` cards from `items`, each once, in the
// reference's order; `visit` returns false to stop. Returns false once stopped.
template <typename Visit>
bool each_submultiset(const Items& items, const std::vector<int>& after, size_t first, int size,
                      Cards& prefix, Visit& visit) {
  if (size == 0) return visit(prefix);
  if (first == items.size()) return true;
  const auto [card, count] = items[first];
  for (int take = std::min(count, size); take >= 0; --take) {
    if (size - take > after[first]) break;
    prefix.insert(prefix.end(), take, card);
    const bool go = each_submultiset(items, after, first + 1, size - take, prefix, visit);
    prefix.resize(prefix.size() - take);
    if (!go) return false;
  }
  return true;
}

template <typename Visit>
void for_submultisets(const Items& items, int size, Visit visit) {
  std::vector<int> after(items.size(), 0);  // cards in the items after each one
  for (size_t i = items.size(); i-- > 1;) after[i - 1] = after[i] + items[i].second;
  Cards prefix;
  each_submultiset(items, after, 0, size, prefix, visit);
}

std::tuple<int, int, int> sort_key(int card, const Trump& ctx) {
  return {ctx.suit[card], ctx.key[card], card};
}

// rules.legal._items: each card type with its count, highest sort key first.
Items items_of(const Cards& cards, const Trump& ctx) {
  Counts counts{};
  for (int card : cards) ++counts[card];
  Items items;
  for (int card = 0; card < kCardTypes; ++card) {
    if (counts[card]) items.emplace_back(card, counts[card]);
  }
  std::sort(items.begin(), items.end(), [&](const auto& a, const auto& b) {
    return sort_key(a.first, ctx) > sort_key(b.first, ctx);
  });
  return items;
}

// rules.legal.shape_score of the cards of one suit.
Score shape_score(const Shape& shape, const Cards& cards, const Trump& ctx, bool triples_first) {
  Counts counts{};
  for (int card : cards) ++counts[card];
  std::vector<Unit> units;
  for (int card = 0; card < kCardTypes; ++card) {
    if (counts[card] >= 2) units.push_back({ctx.key[card], counts[card], 0});
  }
  std::sort(units.begin(), units.end(), [](const Unit& a, const Unit& b) {
    return std::tie(a.key, a.count) < std::tie(b.key, b.count);
  });
  return cheapest_match(shape, units, triples_first).score;
}

int cost(const Cards& cards, const Trump& ctx) {
  int total = 0;
  for (int card : cards) {
    total += ctx.key[card] + (is_trump(card, ctx) ? 20 : 0) + 2 * card_points(card);
  }
  return total;
}

Groups by_suit(const Cards& cards, const Trump& ctx) {
  Groups groups;
  for (int card : cards) {
    const int suit = ctx.suit[card];
    auto found = std::find_if(groups.begin(), groups.end(),
                              [suit](const auto& group) { return group.first == suit; });
    if (found == groups.end()) {
      groups.emplace_back(suit, Cards{card});
    } else {
      found->second.push_back(card);
    }
  }
  return groups;
}

const Cards* group_of(const Groups& groups, int suit) {
  for (const auto& group : groups) {
    if (group.first == suit) return &group.second;
  }
  return nullptr;
}

// The first element whose key no later one beats: Python's min (with std::less) and max
// (with std::greater), ties to the first.
template <typename T, typename Key, typename Beats>
const T& first_best(const std::vector<T>& items, Key key, Beats beats) {
  size_t best = 0;
  for (size_t i = 1; i < items.size(); ++i) {
    if (beats(key(items[i]), key(items[best]))) best = i;
  }
  return items[best];
}

template <typename T, typename Key>
const T& first_min(const std::vector<T>& items, Key key) {
  return first_best(items, key, std::less<>{});
}

template <typename T, typename Key>
const T& first_max(const std::vector<T>& items, Key key) {
  return first_best(items, key, std::greater<>{});
}

// --- knowledge.py ---------------------------------------------------------------------------

bool others_can_beat(const SeatSight& s, const Component& component, const Counts& pool) {
  const Game& g = s.game;
  bool any_holder = false;
  for (int seat = 0; seat < 4; ++seat) {
    if (seat != s.seat && !g.voids[seat][component.suit]) any_holder = true;
  }
  if (!any_holder) return false;
  std::array<bool, kMaxKeys> keys{};
  for (int card = 0; card < kCardTypes; ++card) {
    if (pool[card] >= component.multiplicity && s.ctx.suit[card] == component.suit) {
      keys[s.ctx.key[card]] = true;
    }
  }
  for (int key = component.top_key + 1; key < kMaxKeys; ++key) {
    if (!keys[key]) continue;
    bool run = true;
    for (int step = 0; step < component.length && run; ++step) {
      run = key - step >= 0 && keys[key - step];
    }
    if (run) return true;
  }
  return false;
}

bool ruff_risk(const SeatSight& s, int suit) {
  if (suit == kTrump) return false;
  for (int seat = 0; seat < 4; ++seat) {
    if (odd(seat - s.seat) && s.game.voids[seat][suit] && !s.game.voids[seat][kTrump]) {
      return true;
    }
  }
  return false;
}

int winner_with(const SeatSight& s, const Cards& play) {
  std::vector<Cards> plays = s.game.trick;
  plays.push_back(play);
  return (s.game.leader + trick_winner(plays, s.ctx)) % 4;
}

int current_winner(const SeatSight& s) {
  return (s.game.leader + trick_winner(s.game.trick, s.ctx)) % 4;
}

bool is_partner(const SeatSight& s, int seat) { return seat != s.seat && !odd(seat - s.seat); }
bool is_attacker(const SeatSight& s) { return s.game.dealer >= 0 && odd(s.seat - s.game.dealer); }

int points_of_play(const Cards& play) { return points_of(play); }

// --- heuristic.py ---------------------------------------------------------------------------

bool has_component(const Groups& groups, int suit, const Trump& ctx, Component& out) {
  const Cards* trumps = group_of(groups, suit);
  if (trumps == nullptr) return false;
  const std::vector<Component> components = decompose(*trumps, ctx);
  out =
      first_max(components, [](const Component& c) { return std::make_pair(c.size(), c.top_key); });
  return true;
}

// HeuristicAgent._kitty_weapon: the strongest trump combination.
bool kitty_weapon(const SeatSight& s, const Groups& groups, Component& out) {
  return has_component(groups, kTrump, s.ctx, out);
}

bool void_everywhere(const SeatSight& s) {
  for (int seat = 0; seat < 4; ++seat) {
    if (seat != s.seat && !s.game.voids[seat][kTrump]) return false;
  }
  return true;
}

Cards safe_throw(const SeatSight& s, const Groups& groups) {
  Cards best;
  bool found = false;
  for (const auto& [suit, cards] : groups) {
    if (ruff_risk(s, suit) || (suit == kTrump && !void_everywhere(s))) continue;
    Cards play;
    int sure = 0;
    for (const Component& component : decompose(cards, s.ctx)) {
      if (others_can_beat(s, component, s.pool)) continue;
      ++sure;
      play.insert(play.end(), component.cards.begin(), component.cards.end());
    }
    if (sure >= 2 && (!found || play.size() > best.size())) {
      best = play;
      found = true;
    }
  }
  return best;
}

bool sure_winner(const SeatSight& s, const Groups& groups, Cards& out) {
  bool found = false;
  std::tuple<int, int, int> best_key;
  for (const auto& [suit, cards] : groups) {
    if (suit == kTrump || ruff_risk(s, suit)) continue;
    for (const Component& component : decompose(cards, s.ctx)) {
      if (others_can_beat(s, component, s.pool)) continue;
      const auto key =
          std::make_tuple(component.size(), points_of(component.cards), component.top_key);
      if (!found || key > best_key) {
        best_key = key;
        out = component.cards;
        found = true;
      }
    }
  }
  return found;
}

bool partner_void(const SeatSight& s, int suit) {
  const auto& voids = s.game.voids;
  const int partner = (s.seat + 2) % 4;
  return voids[partner][suit] && !voids[partner][kTrump] && !voids[(s.seat + 1) % 4][suit] &&
         !voids[(s.seat + 3) % 4][suit];
}

int low_single(const Cards& cards, const Trump& ctx) {  // min by (points > 0, rank key)
  return first_min(cards, [&](int c) { return std::make_pair(card_points(c) > 0, ctx.key[c]); });
}

Cards strongest(const SeatSight& s, const Groups& groups) {
  Groups side;
  for (const auto& group : groups) {
    if (group.first != kTrump) side.push_back(group);
  }
  if (side.empty()) side = groups;
  std::array<bool, kCardTypes> keep{};
  Component weapon;
  if (is_attacker(s) && kitty_weapon(s, groups, weapon)) {
    for (int card : weapon.cards) keep[card] = true;
  }
  bool found = false;
  std::pair<int, int> best_key;
  Component best;
  for (const auto& [suit, cards] : side) {
    for (const Component& component : decompose(cards, s.ctx)) {
      const bool kept = std::any_of(component.cards.begin(), component.cards.end(),
                                    [&](int c) { return keep[c]; });
      if (kept && side.size() > 1) continue;
      const auto key = std::make_pair(component.size(), component.top_key);
      if (!found || key > best_key) {
        best_key = key;
        best = component;
        found = true;
      }
    }
  }
  if (!found) return {low_single(s.hand, s.ctx)};
  if (best.size() == 1 && others_can_beat(s, best, s.pool)) {
    return {low_single(*group_of(side, best.suit), s.ctx)};
  }
  return best.cards;
}

bool later_may_ruff(const SeatSight& s, int suit) {
  const int later = 3 - static_cast<int>(s.game.trick.size());
  for (int k = 1; k <= later; ++k) {
    const int seat = (s.seat + k) % 4;
    if (odd(seat - s.seat) && s.game.voids[seat][suit] && !s.game.voids[seat][kTrump]) return true;
  }
  return false;
}

bool stands(const SeatSight& s, const Cards& play, bool played) {
  const Cards& lead = s.game.trick[0];
  const int suit = s.ctx.suit[lead[0]];
  const int followers = 3 - static_cast<int>(s.game.trick.size()) + (played ? 1 : 0);
  if (followers <= 0) return true;
  const bool ruff_later = suit != kTrump && later_may_ruff(s, suit);
  if (std::any_of(play.begin(), play.end(), [&](int c) { return s.ctx.suit[c] != suit; })) {
    return !ruff_later;
  }
  const std::vector<Component> components = decompose(play, s.ctx);
  if (components.size() != 1) return true;
  return !others_can_beat(s, components[0], s.pool) && !ruff_later;
}

bool holds(const SeatSight& s, int winner) {
  const int index = ((winner - s.game.leader) % 4 + 4) % 4;
  return stands(s, s.game.trick[index], true);
}

int top_key(const Cards& play, const Trump& ctx) {
  int top = -1;
  for (int card : play) top = std::max(top, ctx.key[card] + (is_trump(card, ctx) ? 100 : 0));
  return top;
}

}  // namespace

SeatSight::SeatSight(const Game& g, int s, const Cards& h) : game(g), ctx(g.ctx), seat(s), hand(h) {
  std::array<int, kCardTypes> counts;
  counts.fill(g.rules.decks);
  for (int card : h) --counts[card];
  for (const Cards& cards : g.played) {
    for (int card : cards) --counts[card];
  }
  if (s == g.dealer && g.phase != Phase::kBid) {
    for (int card : g.kitty) --counts[card];
  }
  for (int card = 0; card < kCardTypes; ++card) {
    pool[card] = static_cast<uint8_t>(std::max(0, counts[card]));
  }
}

std::vector<Cards> legal_follows(const Cards& hand, const Cards& lead, const Trump& ctx,
                                 bool triples_first, size_t limit) {
  const int suit = ctx.suit[lead[0]];
  Cards in_suit, others;
  for (int card : hand) (ctx.suit[card] == suit ? in_suit : others).push_back(card);
  std::vector<Cards> plays;
  const auto descending = [&](int a, int b) { return sort_key(a, ctx) > sort_key(b, ctx); };
  if (in_suit.size() <= lead.size()) {
    std::stable_sort(in_suit.begin(), in_suit.end(), descending);
    const int need = static_cast<int>(lead.size() - in_suit.size());
    for_submultisets(items_of(others, ctx), need, [&](const Cards& fill) {
      if (plays.size() >= limit) return false;
      Cards play = in_suit;
      play.insert(play.end(), fill.begin(), fill.end());
      plays.push_back(std::move(play));
      return true;
    });
    return plays;
  }
  if (lead.size() == 1) {
    for (const auto& [card, count] : items_of(in_suit, ctx)) {
      if (plays.size() >= limit) break;
      plays.push_back({card});
    }
    return plays;
  }
  const Shape shape = lead_shape(lead, ctx);
  const Score best = shape_score(shape, in_suit, ctx, triples_first);
  for_submultisets(items_of(in_suit, ctx), static_cast<int>(lead.size()), [&](const Cards& play) {
    if (plays.size() >= limit) return false;
    if (shape_score(shape, play, ctx, triples_first) == best) plays.push_back(play);
    return true;
  });
  return plays;
}

std::vector<Cards> follow_candidates(const SeatSight& s) {
  const Trump& ctx = s.ctx;
  const Cards& lead = s.game.trick[0];
  const int suit = ctx.suit[lead[0]];
  Cards in_suit, others;
  for (int card : s.hand) (ctx.suit[card] == suit ? in_suit : others).push_back(card);
  if (in_suit.size() >= lead.size()) {
    return legal_follows(s.hand, lead, ctx, s.game.rules.triples_first, kFollowLimit);
  }
  const size_t need = lead.size() - in_suit.size();
  Cards cheap = others, rich = others;
  std::stable_sort(cheap.begin(), cheap.end(), [&](int a, int b) {
    return std::make_tuple(card_points(a), is_trump(a, ctx), ctx.key[a]) <
           std::make_tuple(card_points(b), is_trump(b, ctx), ctx.key[b]);
  });
  std::stable_sort(rich.begin(), rich.end(), [&](int a, int b) {
    return std::make_tuple(-card_points(a), is_trump(a, ctx), ctx.key[a]) <
           std::make_tuple(-card_points(b), is_trump(b, ctx), ctx.key[b]);
  });
  std::vector<Cards> candidates;
  for (const Cards* filler : {&cheap, &rich}) {
    Cards play = in_suit;
    play.insert(play.end(), filler->begin(), filler->begin() + static_cast<long>(need));
    candidates.push_back(std::move(play));
  }
  Cards trumps;
  for (int card : others) {
    if (is_trump(card, ctx)) trumps.push_back(card);
  }
  if (in_suit.empty() && suit != kTrump && trumps.size() >= lead.size()) {
    const std::vector<Component> components = decompose(lead, ctx);
    Items items;  // Counter(trumps): first met first, then by rank key, highest first
    for (int card : trumps) {
      auto found = std::find_if(items.begin(), items.end(),
                                [card](const auto& item) { return item.first == card; });
      if (found == items.end()) {
        items.emplace_back(card, 1);
      } else {
        ++found->second;
      }
    }
    std::stable_sort(items.begin(), items.end(), [&](const auto& a, const auto& b) {
      return ctx.key[a.first] > ctx.key[b.first];
    });
    size_t count = 0;
    for_submultisets(items, static_cast<int>(lead.size()), [&](const Cards& play) {
      if (count++ >= kFollowLimit) return false;
      if (ruff_strength(components, play, ctx) >= 0) candidates.push_back(play);
      return true;
    });
  }
  return candidates;
}

Cards heuristic_lead(const SeatSight& s) {
  const Groups groups = by_suit(s.hand, s.ctx);
  Component kept;
  if (is_attacker(s) && s.hand.size() <= kEndgameCards && kitty_weapon(s, groups, kept) &&
      s.hand.size() == static_cast<size_t>(kept.size())) {
    return kept.cards;
  }
  Cards play = safe_throw(s, groups);
  if (!play.empty()) return play;
  if (sure_winner(s, groups, play)) return play;
  std::vector<size_t> order(groups.size());
  for (size_t i = 0; i < order.size(); ++i) order[i] = i;
  std::stable_sort(order.begin(), order.end(), [&](size_t a, size_t b) {
    return groups[a].second.size() < groups[b].second.size();
  });
  for (size_t index : order) {
    const auto& [suit, cards] = groups[index];
    if (suit != kTrump && partner_void(s, suit)) {
      return {
          first_min(cards, [&](int c) { return std::make_pair(card_points(c), s.ctx.key[c]); })};
    }
  }
  return strongest(s, groups);
}

Cards heuristic_follow(const SeatSight& s) {
  const Trump& ctx = s.ctx;
  const std::vector<Cards> candidates = follow_candidates(s);
  int trick_points = 0;
  for (const Cards& play : s.game.trick) trick_points += points_of(play);
  const bool last_to_play = s.game.trick.size() == 3;
  const int winner = current_winner(s);
  const auto feed = [&](const Cards& p) {
    return std::make_pair(points_of_play(p), -cost(p, ctx));
  };
  const auto by_cost = [&](const Cards& p) { return cost(p, ctx); };
  if (is_partner(s, winner) && (last_to_play || holds(s, winner))) {
    return first_max(candidates, feed);
  }
  std::vector<Cards> winning;
  for (const Cards& play : candidates) {
    if (winner_with(s, play) == s.seat) winning.push_back(play);
  }
  if (!winning.empty()) {
    const Cards& cheapest = first_min(winning, by_cost);
    if (last_to_play) {
      if (trick_points > 0 || cost(cheapest, ctx) < 15) return cheapest;
    } else {
      std::vector<Cards> safe;
      for (const Cards& play : winning) {
        if (stands(s, play, false)) safe.push_back(play);
      }
      if (!safe.empty()) return first_min(safe, by_cost);
      if (trick_points >= 10) {
        return first_max(winning, [&](const Cards& p) {
          return std::make_pair(top_key(p, ctx), -cost(p, ctx));
        });
      }
      if (cost(cheapest, ctx) < 12) return cheapest;
    }
  }
  if (is_partner(s, winner)) return first_max(candidates, feed);
  return first_min(candidates,
                   [&](const Cards& p) { return std::make_pair(points_of_play(p), cost(p, ctx)); });
}

Cards greedy_lead(const SeatSight& s) {
  const Groups groups = by_suit(s.hand, s.ctx);
  Groups plain;
  for (const auto& group : groups) {
    if (group.first != kTrump) plain.push_back(group);
  }
  bool found = false;
  std::pair<int, int> best_key;
  Cards best;
  for (const auto& [suit, cards] : plain.empty() ? groups : plain) {
    for (const Component& component : decompose(cards, s.ctx)) {
      const auto key = std::make_pair(component.multiplicity * component.length, component.top_key);
      if (!found || key > best_key) {
        best_key = key;
        best = component.cards;
        found = true;
      }
    }
  }
  return best;
}

Cards greedy_follow(const SeatSight& s) {
  const Trump& ctx = s.ctx;
  const std::vector<Cards> candidates = follow_candidates(s);
  const auto by_cost = [&](const Cards& p) { return cost(p, ctx); };
  if (is_partner(s, current_winner(s))) {
    return first_max(candidates, [&](const Cards& p) {
      return std::make_pair(points_of_play(p), -cost(p, ctx));
    });
  }
  std::vector<Cards> winning;
  for (const Cards& play : candidates) {
    if (winner_with(s, play) == s.seat) winning.push_back(play);
  }
  return first_min(winning.empty() ? candidates : winning, by_cost);
}

Cards bot_play(BotPolicy policy, const SeatSight& sight) {
  const bool lead = sight.game.trick.empty();
  if (policy == BotPolicy::kGreedy) return lead ? greedy_lead(sight) : greedy_follow(sight);
  return lead ? heuristic_lead(sight) : heuristic_follow(sight);
}

Cards heuristic_bid(const Game& game, const Cards& hand) {
  int jokers = 0;
  int levels = 0;
  for (int card : hand) {
    jokers += card >= kSmallJoker;
    levels += rank_of(card) == game.level;
  }
  const double size = static_cast<double>(std::max<size_t>(1, hand.size()));
  const Cards* best = nullptr;
  double best_share = 0.0;
  const std::vector<Cards> options = game.legal_bids(game.current_player);
  for (const Cards& cards : options) {
    int strength = jokers + levels;
    if (cards[0] < kSmallJoker) {  // a suit: its other cards are trump too
      const int suit = printed_suit(cards[0]);
      for (int card : hand) strength += printed_suit(card) == suit && rank_of(card) != game.level;
    }
    const double share = strength / size;
    if (best == nullptr || share > best_share) {
      best = &cards;
      best_share = share;
    }
  }
  const double threshold = game.has_bid ? 0.4 : 0.3;
  if (best != nullptr && best_share >= threshold && hand.size() >= 5) return *best;
  return {};
}

namespace {

// HeuristicAgent._is_top: among the two highest ranks of its effective suit.
bool is_top(int card, const Trump& ctx) {
  return ctx.key[card] >= ctx.key_count[ctx.suit[card]] - 2;
}

}  // namespace

Cards heuristic_bury(const Game& game, const Cards& hand) {
  const Trump& ctx = game.ctx;
  const size_t size = static_cast<size_t>(game.rules.kitty_size());
  Groups side = by_suit(hand, ctx);
  side.erase(std::remove_if(side.begin(), side.end(),
                            [](const auto& group) { return group.first == kTrump; }),
             side.end());
  std::array<double, kCardTypes> keep{};
  for (const auto& group : side) {
    for (const Component& component : decompose(group.second, ctx)) {
      for (int card : component.cards) {
        const double value = 2 * component.multiplicity * component.length + ctx.key[card] / 20.0;
        keep[card] = std::max(keep[card], value);
      }
    }
  }
  Cards buried;
  std::stable_sort(side.begin(), side.end(),
                   [](const auto& a, const auto& b) { return a.second.size() < b.second.size(); });
  for (const auto& [suit, cards] : side) {  // empty the shortest side suits first
    if (buried.size() + cards.size() > size) continue;
    const bool kept = std::any_of(cards.begin(), cards.end(), [&](int card) {
      return card_points(card) > 0 || keep[card] >= 4 || is_top(card, ctx);
    });
    if (!kept) buried.insert(buried.end(), cards.begin(), cards.end());
  }
  Counts held{};
  for (int card : hand) ++held[card];
  auto count_in = [](const Cards& cards, int card) {
    return static_cast<int>(std::count(cards.begin(), cards.end(), card));
  };
  Cards rest;
  for (int card : hand) {
    if (count_in(buried, card) < held[card]) rest.push_back(card);
  }
  auto key = [&](int card) {
    return std::make_tuple(ctx.suit[card] == kTrump, keep[card] >= 4, card_points(card) > 0,
                           is_top(card, ctx), keep[card], static_cast<int>(ctx.key[card]));
  };
  std::stable_sort(rest.begin(), rest.end(), [&](int a, int b) { return key(a) < key(b); });
  for (int card : rest) {  // then the lowest loose cards
    if (buried.size() == size) break;
    if (count_in(buried, card) < held[card]) buried.push_back(card);
  }
  return buried;
}

namespace {

// Drops from the ordered `hand` the first copies of the cards that left `counts`
// (the reference removes each played card's first occurrence).
void sync_hand(Cards& hand, const Counts& counts) {
  Counts have{};
  for (int card : hand) ++have[card];
  Cards kept;
  kept.reserve(hand.size());
  for (int card : hand) {
    if (have[card] > counts[card]) {
      --have[card];
    } else {
      kept.push_back(card);
    }
  }
  hand = std::move(kept);
}

}  // namespace

int rollout(Game game, std::array<Cards, 4> hands, const Cards& first, BotPolicy policy) {
  int seat = game.current_player;
  game.step(first, false);
  sync_hand(hands[seat], game.hands[seat]);
  while (game.phase == Phase::kPlay) {
    seat = game.current_player;
    const Cards play = bot_play(policy, SeatSight(game, seat, hands[seat]));
    game.step(play, true);
    sync_hand(hands[seat], game.hands[seat]);
  }
  return game.result.attacker_points;
}

std::pair<int, int> heuristic_hand(Game game) {
  auto in_card_order = [](const Counts& counts) {
    Cards cards;
    for (int card = 0; card < kCardTypes; ++card) cards.insert(cards.end(), counts[card], card);
    return cards;
  };
  while (game.phase == Phase::kBid || game.phase == Phase::kBury) {
    const Cards hand = in_card_order(game.hands[game.current_player]);
    game.step(game.phase == Phase::kBid ? heuristic_bid(game, hand) : heuristic_bury(game, hand),
              false);
  }
  std::array<Cards, 4> hands;
  for (int seat = 0; seat < 4; ++seat) hands[seat] = in_card_order(game.hands[seat]);
  while (game.phase == Phase::kPlay) {
    const int seat = game.current_player;
    game.step(bot_play(BotPolicy::kHeuristic, SeatSight(game, seat, hands[seat])), true);
    sync_hand(hands[seat], game.hands[seat]);
  }
  return {game.result.attacker_points, game.result.dealer};
}

}  // namespace shengji
