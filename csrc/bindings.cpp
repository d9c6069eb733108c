// The Python module shengji_env._core: tables (one env's game, decision and observations),
// a batch of tables stepped without the GIL, and the rules functions for the
// differential tests. shengji_env/core.py is its Python face.
#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <cstring>
#include <string>

#include "bots.hpp"
#include "table.hpp"

namespace py = pybind11;
using namespace shengji;

namespace {

void check_range(int value, int low, int high, const char* name) {
  if (value < low || value > high) {
    throw py::value_error(std::string(name) + " must be in " + std::to_string(low) + ".." +
                          std::to_string(high) + ", got " + std::to_string(value));
  }
}

// The largest batch of tables one TableBatch holds (a training batch is a few hundred).
constexpr int kMaxTables = 1 << 16;
// The largest failed-throw penalty (RULES.md §8.3 uses 10 a card; a hand has 300 points).
constexpr int kMaxPenalty = 1000;

// The rule options every entry point takes are range-checked here: the game's code trusts
// them (a deck count indexes its tables), so an out-of-range one is a ValueError, not a crash.
Rules make_rules(int decks, bool twos_always_trump, int failed_throw_penalty,
                 int kitty_multiplier_cap, bool triples_first, int start_level) {
  check_range(decks, 1, 3, "decks");
  check_range(failed_throw_penalty, 0, kMaxPenalty, "failed_throw_penalty");
  check_range(kitty_multiplier_cap, 1, 1 << 20, "kitty_multiplier_cap");
  check_range(start_level, 0, kAce, "start_level");
  Rules rules;
  rules.decks = decks;
  rules.twos_always_trump = twos_always_trump;
  rules.failed_throw_penalty = failed_throw_penalty;
  rules.kitty_multiplier_cap = kitty_multiplier_cap;
  rules.triples_first = triples_first;
  rules.start_level = start_level;
  return rules;
}

template <typename T>
T* buffer(py::array_t<T, py::array::c_style>& array, py::ssize_t size, const char* name) {
  if (!array.writeable() || array.size() != size || !(array.flags() & py::array::c_style)) {
    throw py::value_error(std::string(name) + " must be a writeable C-contiguous array of " +
                          std::to_string(size) + " elements");
  }
  return array.mutable_data();
}

py::object optional_int(int value) { return value < 0 ? py::object(py::none()) : py::int_(value); }
int from_optional(const py::handle& value) { return value.is_none() ? -1 : value.cast<int>(); }

py::tuple plays_tuple(const std::vector<Cards>& plays) {
  py::tuple out(plays.size());
  for (size_t i = 0; i < plays.size(); ++i) out[i] = py::tuple(py::cast(plays[i]));
  return out;
}

Cards sorted_hand(const Counts& counts) {
  Cards cards;
  for (int card = 0; card < kCardTypes; ++card) {
    for (int i = 0; i < counts[card]; ++i) cards.push_back(card);
  }
  return cards;
}

py::tuple bid_tuple(const Bid& bid) {
  return py::make_tuple(bid.seat, py::tuple(py::cast(bid.cards)), bid.strength,
                        optional_int(bid.trump_suit));
}

py::tuple result_tuple(const HandResult& r) {
  return py::make_tuple(r.dealer, r.level, optional_int(r.trump_suit), r.trick_points,
                        r.kitty_points, r.kitty_multiplier, r.penalty_points, r.attacker_points,
                        r.dealer_kept ? "dealer" : "attackers", r.levels_gained, r.next_dealer,
                        optional_int(r.match_winner));
}

// Every field of the game, named as the reference Game names them (see core.py).
py::dict export_game(const Game& g) {
  py::dict d;
  d["rules"] =
      py::make_tuple(g.rules.decks, g.rules.twos_always_trump, g.rules.failed_throw_penalty,
                     g.rules.kitty_multiplier_cap, g.rules.triples_first, g.rules.start_level);
  d["rng_state"] = g.rng.state();
  d["levels"] = py::make_tuple(g.levels[0], g.levels[1]);
  d["hand_number"] = g.hand_number;
  d["match_winner"] = optional_int(g.match_winner);
  py::list results;
  for (const HandResult& r : g.results) results.append(result_tuple(r));
  d["results"] = results;
  d["deck"] = g.deck;
  d["dealer"] = optional_int(g.dealer);
  d["level"] = g.level;
  d["deal_start"] = g.deal_start;
  d["dealt"] = g.dealt;
  py::list hands;
  for (const Counts& hand : g.hands) hands.append(py::cast(sorted_hand(hand)));
  d["hands"] = hands;
  py::list bids;
  for (const Bid& bid : g.bids) bids.append(bid_tuple(bid));
  d["bids"] = bids;
  d["final_round"] =
      g.final_round_started ? py::object(py::cast(g.final_round)) : py::object(py::none());
  d["kitty"] = g.kitty;
  d["trump_suit"] = g.has_ctx ? optional_int(g.ctx.trump_suit) : py::object(py::none());
  d["has_ctx"] = g.has_ctx;
  d["leader"] = g.leader;
  d["trick"] = plays_tuple(g.trick);
  d["trick_attempt"] = g.trick_failed_throw ? py::object(py::tuple(py::cast(g.trick_attempt)))
                                            : py::object(py::none());
  py::list tricks;
  for (const TrickRecord& t : g.tricks) {
    tricks.append(py::make_tuple(
        t.leader, plays_tuple(t.plays), t.winner, t.points,
        t.failed_throw ? py::object(py::tuple(py::cast(t.attempt))) : py::object(py::none())));
  }
  d["tricks"] = tricks;
  d["played"] = g.played;
  py::list voids;
  for (const auto& row : g.voids) voids.append(py::cast(std::vector<bool>(row.begin(), row.end())));
  d["voids"] = voids;
  d["revealed"] = g.revealed;
  d["attacker_trick_points"] = g.attacker_trick_points;
  d["penalty_points"] = g.penalty_points;
  d["result"] = g.has_result ? py::object(result_tuple(g.result)) : py::object(py::none());
  d["phase"] = static_cast<int>(g.phase);
  d["current_player"] = g.current_player;
  return d;
}

// A tuple of exactly `size` items (a bid, a result, a trick record).
py::tuple sized_tuple(const py::handle& item, size_t size, const char* what) {
  auto t = item.cast<py::tuple>();
  if (t.size() != size) {
    throw py::value_error(std::string(what) + " must hold " + std::to_string(size) +
                          " items, got " + std::to_string(t.size()));
  }
  return t;
}

Bid bid_from(const py::handle& item) {
  auto t = sized_tuple(item, 4, "a bid");
  Bid bid{t[0].cast<int>(), t[1].cast<Cards>(), t[2].cast<int>(), from_optional(t[3])};
  for (int card : bid.cards) check_range(card, 0, kCardTypes - 1, "a bid's card");
  check_range(bid.seat, 0, 3, "a bid's seat");
  check_range(bid.trump_suit, -1, 3, "a bid's trump");
  return bid;
}

HandResult result_from(const py::handle& item) {
  auto t = sized_tuple(item, 12, "a hand result");
  HandResult r{t[0].cast<int>(), t[1].cast<int>(),  from_optional(t[2]),
               t[3].cast<int>(), t[4].cast<int>(),  t[5].cast<int>(),
               t[6].cast<int>(), t[7].cast<int>(),  t[8].cast<std::string>() == "dealer",
               t[9].cast<int>(), t[10].cast<int>(), from_optional(t[11])};
  check_range(r.dealer, 0, 3, "a result's dealer");
  check_range(r.level, 0, kAce, "a result's level");
  check_range(r.trump_suit, -1, 3, "a result's trump");
  check_range(r.next_dealer, 0, 3, "a result's next dealer");
  check_range(r.match_winner, -1, 1, "a result's match winner");
  return r;
}

void check_cards(const Cards& cards, const char* name) {
  for (int card : cards) check_range(card, 0, kCardTypes - 1, name);
}

Cards checked_cards(const py::handle& value, const char* name) {
  Cards cards = value.cast<Cards>();
  check_cards(cards, name);
  return cards;
}

std::vector<Cards> checked_plays(const py::handle& value, const char* name) {
  std::vector<Cards> plays;
  for (auto play : value) {
    if (plays.size() == 4) throw py::value_error(std::string(name) + " holds more than four plays");
    plays.push_back(checked_cards(play, name));
  }
  return plays;
}

TrickRecord record_from(const py::handle& item) {
  auto t = sized_tuple(item, 5, "a trick record");
  TrickRecord record{t[0].cast<int>(), checked_plays(t[1], "tricks"),
                     t[2].cast<int>(), t[3].cast<int>(),
                     !t[4].is_none(),  Cards{}};
  if (record.failed_throw) record.attempt = checked_cards(t[4], "tricks");
  check_range(record.leader, 0, 3, "a trick's leader");
  check_range(record.winner, 0, 3, "a trick's winner");
  return record;
}

// Reads the state's field `name` with `read`. A missing field, or a value of the wrong type
// or shape, is a ValueError naming the field; `read`'s own range checks name it already.
template <typename Read>
void read_field(const py::dict& d, const char* name, Read&& read) {
  const std::string field = std::string("state field '") + name + "'";
  if (!d.contains(name)) throw py::value_error(field + " is missing");
  try {
    read(d[name]);
  } catch (const py::cast_error&) {
    throw py::value_error(field + " has the wrong type or shape");
  } catch (const std::out_of_range&) {
    throw py::value_error(field + " has too few entries");
  } catch (py::error_already_set& error) {
    if (!error.matches(PyExc_IndexError) && !error.matches(PyExc_TypeError)) throw;
    throw py::value_error(field + ": " + error.what());
  } catch (py::value_error& error) {
    throw py::value_error(field + ": " + error.what());
  }
}

// A fixed number of card lists, one a seat (hands, played, revealed).
std::array<Cards, 4> seat_cards(const py::handle& value, const char* name) {
  auto lists = value.cast<std::vector<Cards>>();
  if (lists.size() != 4) throw py::value_error("must hold four lists, one a seat");
  std::array<Cards, 4> out;
  for (int seat = 0; seat < 4; ++seat) {
    check_cards(lists[seat], name);
    out[seat] = std::move(lists[seat]);
  }
  return out;
}

// Cards a game of `decks` decks can hold: ids 0..53, no id more than `decks` times (§1).
Counts counted_cards(const Cards& cards, int decks, const char* name) {
  Counts counts{};
  for (int card : cards) {
    check_range(card, 0, kCardTypes - 1, name);
    if (++counts[card] > decks) {
      throw py::value_error(std::string(name) + " holds card " + std::to_string(card) +
                            " more than " + std::to_string(decks) + " times");
    }
  }
  return counts;
}

// One play of a trick: 1..hand-size cards of the game (§6).
const Cards& checked_play(const Cards& play, int decks, const char* name) {
  counted_cards(play, decks, name);
  if (play.empty()) throw py::value_error(std::string(name) + " must not be empty");
  return play;
}

// A trick's plays: the lead and up to three follows of the lead's size (§6).
void check_trick(const std::vector<Cards>& plays, int decks) {
  if (plays.empty() || plays.size() > 4) throw py::value_error("a trick holds 1..4 plays");
  for (const Cards& play : plays) {
    checked_play(play, decks, "a play");
    if (play.size() != plays[0].size()) {
      throw py::value_error("every play of a trick holds as many cards as the lead");
    }
  }
}

// No card is in the state more often than the game's decks hold it (§1), counting each
// place a card can be: a hand, the cards played, the kitty (held in the dealer's hand
// while they bury) and, while dealing, the deck. Fewer is allowed: a seat's view of the
// game (the JSON protocol's request) leaves the other hands empty.
void check_cards_conserved(const Game& g) {
  Counts seen{};
  for (const Counts& hand : g.hands) {
    for (int card = 0; card < kCardTypes; ++card) seen[card] += hand[card];
  }
  for (const Cards& cards : g.played) {
    for (int card : cards) ++seen[card];
  }
  if (g.phase != Phase::kBury) {
    for (int card : g.kitty) ++seen[card];
  }
  if (g.phase == Phase::kBid) {
    for (size_t i = g.dealt; i < g.deck.size(); ++i) ++seen[g.deck[i]];
  }
  for (int card = 0; card < kCardTypes; ++card) {
    if (seen[card] > g.rules.decks) {
      throw py::value_error("card " + std::to_string(card) + " is in the state " +
                            std::to_string(seen[card]) + " times, more than the " +
                            std::to_string(g.rules.decks) + " the decks hold");
    }
  }
}

// The hands are the sizes the deal leaves them (§2, §5, §6). A hand left empty is unknown
// (a seat's view of the game) and is not counted.
void check_dealt_sizes(const Game& g) {
  std::array<int, 4> expected{};
  if (g.phase == Phase::kBid && !g.deck.empty()) {
    for (int i = 0; i < g.dealt; ++i) ++expected[(g.deal_start + i) % 4];
  } else if (g.phase == Phase::kBury) {
    expected.fill(g.rules.hand_size());
    expected[g.dealer] += g.rules.kitty_size();
  } else {
    return;  // the bidding of a seat's view, without its deck: nothing to count against
  }
  for (int seat = 0; seat < 4; ++seat) {
    if (g.hand_sizes[seat] != 0 && g.hand_sizes[seat] != expected[seat]) {
      throw py::value_error("hands[" + std::to_string(seat) + "] holds " +
                            std::to_string(g.hand_sizes[seat]) + " cards, not the " +
                            std::to_string(expected[seat]) + " the deal gives it");
    }
  }
}

// In play, the known hands are of equal size but for the trick under way, and the seat to
// play holds cards (§6). The trick is checked before.
void check_play_sizes(const Game& g) {
  const int lead = g.trick.empty() ? 0 : static_cast<int>(g.trick[0].size());
  int common = -1;  // the cards each known hand held before the trick under way
  for (int seat = 0; seat < 4; ++seat) {
    if (g.hand_sizes[seat] == 0) continue;
    const bool played = (seat - g.leader + 4) % 4 < static_cast<int>(g.trick.size());
    const int before = g.hand_sizes[seat] + (played ? lead : 0);
    if (common >= 0 && before != common) {
      throw py::value_error("the hands must be of equal size, but for the trick under way");
    }
    common = before;
  }
  if (g.hand_sizes[g.current_player] == 0) {
    throw py::value_error("the seat to play must hold cards");
  }
}

// A loaded game is one the rules could reach in the ways the engine relies on: no card
// too often, and in play a trick under way of equal, non-empty plays by the seats in turn
// after the leader, with trump known (§6).
void check_consistent(const Game& g) {
  check_cards_conserved(g);
  const int most = g.rules.hand_size() + g.rules.kitty_size();
  for (int size : g.hand_sizes) {
    if (size > most)
      throw py::value_error("a hand holds at most " + std::to_string(most) + " cards");
  }
  const int cards = g.rules.decks * kCardTypes;
  if (!g.deck.empty() && static_cast<int>(g.deck.size()) != cards) {
    throw py::value_error("the deck holds all " + std::to_string(cards) + " cards or none");
  }
  if (!g.deck.empty() && g.dealt > 4 * g.rules.hand_size()) {
    throw py::value_error("dealt counts the cards dealt to the hands, the kitty not included");
  }
  if (g.phase == Phase::kBid && g.final_round_started && !g.deck.empty() &&
      g.dealt != 4 * g.rules.hand_size()) {
    throw py::value_error("the last round of declarations starts once every card is dealt (§4)");
  }
  if (g.phase == Phase::kBury && g.current_player != g.dealer) {
    throw py::value_error("the dealer buries: current_player must be the dealer (§5)");
  }
  if (g.phase == Phase::kBid && !g.can_bid(g.current_player)) {
    throw py::value_error("in the bidding current_player must be a seat that can declare (§4)");
  }
  if (g.phase != Phase::kPlay) {
    if (!g.trick.empty()) throw py::value_error("only a game in play has a trick under way");
    check_dealt_sizes(g);
    return;
  }
  if (!g.has_ctx) throw py::value_error("a game in play needs trump known");
  if (g.trick.size() > 3) throw py::value_error("a trick under way holds at most three plays");
  if (!g.trick.empty()) check_trick(g.trick, g.rules.decks);
  if (g.current_player != (g.leader + static_cast<int>(g.trick.size())) % 4) {
    throw py::value_error("current_player must be the seat after the trick's last play");
  }
  check_play_sizes(g);
}

// The inverse of export_game (the rules stay the table's own). Every field is read and
// range-checked, so that a bad state is a ValueError naming the field, never a crash; its
// consistency beyond that is the caller's.
void load_game(Game& g, const py::dict& d) {
  const int cards = g.rules.decks * kCardTypes;
  read_field(d, "rng_state", [&](const py::handle& v) {
    if (!g.rng.set_state(v.cast<std::vector<uint32_t>>())) {
      throw py::value_error("must hold 624 words and an index <= 624");
    }
  });
  read_field(d, "levels", [&](const py::handle& v) {
    g.levels = v.cast<std::array<int, 2>>();
    for (int level : g.levels) check_range(level, 0, kAce, "levels");
  });
  read_field(d, "hand_number", [&](const py::handle& v) {
    g.hand_number = v.cast<int>();
    check_range(g.hand_number, 0, 1 << 20, "hand_number");
  });
  read_field(d, "match_winner", [&](const py::handle& v) {
    g.match_winner = from_optional(v);
    check_range(g.match_winner, -1, 1, "match_winner");
  });
  read_field(d, "results", [&](const py::handle& v) {
    g.results.clear();
    for (auto item : v) g.results.push_back(result_from(item));
  });
  read_field(d, "deck", [&](const py::handle& v) { g.deck = checked_cards(v, "deck"); });
  read_field(d, "dealer", [&](const py::handle& v) {
    g.dealer = from_optional(v);
    check_range(g.dealer, -1, 3, "dealer");
  });
  read_field(d, "level", [&](const py::handle& v) {
    g.level = v.cast<int>();
    check_range(g.level, 0, kAce, "level");
  });
  read_field(d, "deal_start", [&](const py::handle& v) {
    g.deal_start = v.cast<int>();
    check_range(g.deal_start, 0, 3, "deal_start");
  });
  read_field(d, "dealt", [&](const py::handle& v) {
    g.dealt = v.cast<int>();
    check_range(g.dealt, 0, g.deck.empty() ? cards : static_cast<int>(g.deck.size()), "dealt");
  });
  read_field(d, "hands", [&](const py::handle& v) {
    const std::array<Cards, 4> hands = seat_cards(v, "a hand");
    for (int seat = 0; seat < 4; ++seat) {
      g.hands[seat].fill(0);
      for (int card : hands[seat]) ++g.hands[seat][card];
      g.hand_sizes[seat] = static_cast<int>(hands[seat].size());
    }
  });
  read_field(d, "bids", [&](const py::handle& v) {
    g.bids.clear();
    for (auto item : v) g.bids.push_back(bid_from(item));
  });
  g.has_bid = !g.bids.empty();
  g.bid = g.has_bid ? g.bids.back() : Bid{};
  read_field(d, "final_round", [&](const py::handle& v) {
    g.final_round_started = !v.is_none();
    g.final_round = g.final_round_started ? v.cast<std::vector<int>>() : std::vector<int>{};
    for (int seat : g.final_round) check_range(seat, 0, 3, "final_round");
  });
  read_field(d, "kitty", [&](const py::handle& v) { g.kitty = checked_cards(v, "kitty"); });
  read_field(d, "has_ctx", [&](const py::handle& v) { g.has_ctx = v.cast<bool>(); });
  read_field(d, "trump_suit", [&](const py::handle& v) {
    const int trump = from_optional(v);
    check_range(trump, -1, 3, "trump_suit");
    if (g.has_ctx) g.ctx = make_trump(g.rules, g.level, trump);
  });
  read_field(d, "leader", [&](const py::handle& v) {
    g.leader = v.cast<int>();
    check_range(g.leader, 0, 3, "leader");
  });
  read_field(d, "trick", [&](const py::handle& v) { g.trick = checked_plays(v, "trick"); });
  read_field(d, "trick_attempt", [&](const py::handle& v) {
    g.trick_failed_throw = !v.is_none();
    g.trick_attempt = g.trick_failed_throw ? checked_cards(v, "trick_attempt") : Cards{};
  });
  read_field(d, "tricks", [&](const py::handle& v) {
    g.tricks.clear();
    for (auto item : v) g.tricks.push_back(record_from(item));
  });
  read_field(d, "played", [&](const py::handle& v) { g.played = seat_cards(v, "played"); });
  read_field(d, "voids", [&](const py::handle& v) {
    auto voids = v.cast<std::vector<std::vector<bool>>>();
    if (voids.size() != 4) throw py::value_error("must hold four rows, one a seat");
    for (int seat = 0; seat < 4; ++seat) {
      if (voids[seat].size() != kEffectiveSuits) {
        throw py::value_error("each row must hold " + std::to_string(kEffectiveSuits) + " flags");
      }
      for (int suit = 0; suit < kEffectiveSuits; ++suit) g.voids[seat][suit] = voids[seat][suit];
    }
  });
  read_field(d, "revealed", [&](const py::handle& v) { g.revealed = seat_cards(v, "revealed"); });
  read_field(d, "attacker_trick_points",
             [&](const py::handle& v) { g.attacker_trick_points = v.cast<int>(); });
  read_field(d, "penalty_points", [&](const py::handle& v) { g.penalty_points = v.cast<int>(); });
  read_field(d, "result", [&](const py::handle& v) {
    g.has_result = !v.is_none();
    if (g.has_result) g.result = result_from(v);
  });
  read_field(d, "phase", [&](const py::handle& v) {
    const int phase = v.cast<int>();
    check_range(phase, 0, 4, "phase");
    g.phase = static_cast<Phase>(phase);
  });
  if (g.phase == Phase::kBid && !g.final_round_started &&
      static_cast<int>(g.deck.size()) != cards) {
    throw py::value_error("a game still dealing needs its whole deck");
  }
  read_field(d, "current_player", [&](const py::handle& v) {
    g.current_player = v.cast<int>();
    check_range(g.current_player, 0, 3, "current_player");
  });
  check_consistent(g);
  g.forget_cache();
}

// A rule bot plays in the play phase.
void check_bot_start(const Game& g, int policy) {
  if (policy != 0 && policy != 1)
    throw py::value_error("policy must be 0 (heuristic) or 1 (greedy)");
  if (g.phase != Phase::kPlay) throw py::value_error("rule bots play in the play phase");
}

// The decision a rule bot makes now from the game's own hand, in card order: the
// heuristic's bid, bury, lead or follow; the greedy bot's lead or follow.
Cards own_bot_play(const Game& g, int policy) {
  const Cards hand = sorted_hand(g.hands[g.current_player]);
  if (policy == 0 && g.phase == Phase::kBid) return heuristic_bid(g, hand);
  if (policy == 0 && g.phase == Phase::kBury) return heuristic_bury(g, hand);
  check_bot_start(g, policy);
  return bot_play(static_cast<BotPolicy>(policy), SeatSight(g, g.current_player, hand));
}

// A rollout starts in the play phase from hands (in the reference's order) that hold
// exactly the game's cards.
void check_rollout_start(const Game& g, const std::array<Cards, 4>& hands, int policy) {
  check_bot_start(g, policy);
  for (int seat = 0; seat < 4; ++seat) {
    Counts counts{};
    for (int card : hands[seat]) {
      if (card < 0 || card >= kCardTypes) throw py::value_error("a hand holds a bad card id");
      ++counts[card];
    }
    if (counts != g.hands[seat]) {
      throw py::value_error("hands[" + std::to_string(seat) + "] is not the game's hand");
    }
  }
}

// The trump context of the rules functions below, its arguments checked (§3).
Trump context(int decks, bool twos, int level, int trump_suit) {
  check_range(decks, 1, 3, "decks");
  check_range(level, 0, kAce, "level");
  check_range(trump_suit, -1, 3, "trump");
  Rules rules;
  rules.decks = decks;
  rules.twos_always_trump = twos;
  return make_trump(rules, level, trump_suit);
}

py::list components_list(const std::vector<Component>& components) {
  py::list out;
  for (const Component& c : components) {
    out.append(
        py::make_tuple(c.multiplicity, c.length, py::tuple(py::cast(c.cards)), c.top_key, c.suit));
  }
  return out;
}

// The rules functions for the differential tests: each checks its arguments first, so that
// a call out of range is a ValueError naming the argument, never a crash.
void bind_rules(py::module_& m) {
  m.def(
      "trump_tables",
      [](int decks, bool twos, int level, int trump) {
        const Trump ctx = context(decks, twos, level, trump);
        return py::make_tuple(std::vector<int>(ctx.suit.begin(), ctx.suit.end()),
                              std::vector<int>(ctx.key.begin(), ctx.key.end()),
                              std::vector<int>(ctx.key_count.begin(), ctx.key_count.end()));
      },
      "Effective suit, rank key of each card, and keys per suit (-1 trump: no trump).");
  m.def("decompose", [](const Cards& cards, int decks, bool twos, int level, int trump) {
    const Trump ctx = context(decks, twos, level, trump);
    counted_cards(cards, decks, "cards");
    return components_list(decompose(cards, ctx));
  });
  m.def("trick_winner",
        [](const std::vector<Cards>& plays, int decks, bool twos, int level, int trump) {
          const Trump ctx = context(decks, twos, level, trump);
          check_trick(plays, decks);
          return trick_winner(plays, ctx);
        });
  m.def("check_throw", [](const Cards& lead, const std::vector<Cards>& others, int decks, bool twos,
                          int level, int trump) {
    const Trump ctx = context(decks, twos, level, trump);
    checked_play(lead, decks, "lead");
    if (others.size() > 3) throw py::value_error("others holds at most three hands");
    std::vector<Counts> counts;
    for (const Cards& hand : others) counts.push_back(counted_cards(hand, decks, "others"));
    std::vector<const Counts*> hands;
    for (const Counts& hand : counts) hands.push_back(&hand);
    return check_throw(lead, hands, ctx);
  });
  m.def("follow_error", [](const Cards& lead, const Cards& hand, const Cards& play, int decks,
                           bool twos, int level, int trump, bool triples_first) {
    const Trump ctx = context(decks, twos, level, trump);
    checked_play(lead, decks, "lead");
    counted_cards(play, decks, "play");
    return follow_error(lead, counted_cards(hand, decks, "hand"), play, ctx, triples_first);
  });
  m.def("cheapest_match",
        [](const Shape& shape, const std::vector<std::array<int, 3>>& units, bool triples_first) {
          std::vector<Unit> marked;
          for (const auto& u : units) marked.push_back({u[0], u[1], u[2]});
          const Match match = cheapest_match(shape, marked, triples_first);
          return py::make_tuple(py::tuple(py::cast(match.score)), match.cost);
        });
  m.def("legal_bids", [](const Cards& hand, int level, int decks, int floor) {
    check_range(level, 0, kAce, "level");
    check_range(decks, 1, 3, "decks");
    Counts counts = counted_cards(hand, decks, "hand");
    for (int card = 0; card < kCardTypes; ++card) {
      if (!is_bid_type(card, level)) counts[card] = 0;
    }
    return legal_bids(counts, level, decks, floor);
  });
  m.def("kitty_multiplier",
        [](const Cards& lead, int decks, bool twos, int level, int trump, int cap) {
          const Trump ctx = context(decks, twos, level, trump);
          checked_play(lead, decks, "lead");
          check_range(cap, 1, 1 << 20, "cap");
          return kitty_multiplier(lead, ctx, cap);
        });
}

void bind_table(py::module_& m) {
  py::class_<Table>(m, "Table")
      .def(py::init([](int decks, bool twos, int penalty, int cap, bool triples_first,
                       int start_level, bool match, bool points) {
             return new Table(make_rules(decks, twos, penalty, cap, triples_first, start_level),
                              EpisodeRules{match, points});
           }),
           py::arg("decks"), py::arg("twos_always_trump"), py::arg("failed_throw_penalty"),
           py::arg("kitty_multiplier_cap"), py::arg("triples_first"), py::arg("start_level"),
           py::arg("match"), py::arg("points"))
      .def(
          "reset",
          [](Table& t, uint64_t seed, int start_level) {
            check_range(start_level, -1, kAce, "start_level");
            t.reset(seed, start_level);
          },
          py::arg("seed"), py::arg("start_level") = -1,
          "A new hand from `seed` (`start_level` -1: the table's own).")
      .def("step", &Table::step, py::arg("action"))
      .def_property_readonly("seat", &Table::seat)
      .def_property_readonly("over", &Table::over)
      .def_property_readonly("kind",
                             [](const Table& t) { return static_cast<int>(t.decision().kind); })
      .def_property_readonly("selection", [](const Table& t) { return t.decision().selection; })
      .def_property_readonly("phase",
                             [](const Table& t) { return static_cast<int>(t.game().phase); })
      .def_property_readonly("team_rewards", &Table::team_rewards)
      .def("allows",
           [](const Table& t, int action) { return !t.over() && t.decision().allows(action); })
      .def("why_illegal",
           [](const Table& t, int action) { return t.decision().why_illegal(action); })
      .def_readonly("serial", &Table::serial)
      .def_readonly("steps", &Table::steps)
      .def("acting", &Table::seat, "The seat whose decision it is.")
      .def(
          "stamp", [](const Table& t) { return t.steps; }, "Changes at every accepted action.")
      .def(
          "observation",
          [](const Table& t, int seat) {
            if (seat < 0 || seat > 3) throw py::value_error("seat must be 0..3");
            py::array_t<float> out(obs::kSize);
            t.observe(seat, out.mutable_data());
            return out;
          },
          "A new observation vector of `seat`.")
      .def(
          "mask_of",
          [](const Table& t, int seat) {
            py::array_t<int8_t> out(kNumActions);
            if (seat == t.seat()) {
              t.write_mask(out.mutable_data());
            } else {
              std::memset(out.mutable_data(), 0, kNumActions);
            }
            return out;
          },
          "A new action mask of `seat`: all zero unless it decides now.")
      .def("observe",
           [](const Table& t, int seat, py::array_t<float, py::array::c_style> out) {
             if (seat < 0 || seat > 3) throw py::value_error("seat must be 0..3");
             t.observe(seat, buffer(out, obs::kSize, "out"));
           })
      .def("mask",
           [](const Table& t, py::array_t<int8_t, py::array::c_style> out) {
             t.write_mask(buffer(out, kNumActions, "out"));
           })
      .def("export", [](const Table& t) { return export_game(t.game()); })
      .def("load",
           [](Table& t, const py::dict& state) {
             Game loaded = t.game();  // all or nothing: a refused state changes nothing
             load_game(loaded, state);
             t.mutable_game() = loaded;
             t.restart_decision();
           })
      .def("select",
           [](Table& t, const Cards& cards) {  // a decision's selection, replayed
             for (int card : cards) {
               if (t.step(card) != kSelected) throw py::value_error("the selection does not fit");
             }
           })
      .def(
          "bot_play",
          [](const Table& t, const std::array<Cards, 4>& hands, int policy) {
            const Game& g = t.game();
            check_rollout_start(g, hands, policy);
            return bot_play(static_cast<BotPolicy>(policy),
                            SeatSight(g, g.current_player, hands[g.current_player]));
          },
          py::arg("hands"), py::arg("policy"),
          "The lead or follow a rule bot (0 heuristic, 1 greedy) plays now; `hands` in the "
          "reference's order.")
      .def(
          "own_bot_play", [](const Table& t, int policy) { return own_bot_play(t.game(), policy); },
          py::arg("policy"),
          "The decision a rule bot makes now from the game's own hand, in card order (the "
          "order `export` gives): the heuristic's (0) bid, bury, lead or follow; the greedy "
          "bot's (1) lead or follow.")
      .def(
          "heuristic_hand",
          [](const Table& t) {
            const Game& g = t.game();
            if (g.phase != Phase::kBid && g.phase != Phase::kBury && g.phase != Phase::kPlay) {
              throw py::value_error("the hand is over: nothing to play out");
            }
            py::gil_scoped_release released;
            return heuristic_hand(g);
          },
          "The hand played out from here by the heuristic in every seat (hands in card "
          "order), the table unchanged: (the attackers' final points, the dealer).")
      .def(
          "rollouts",
          [](const Table& t, const std::array<Cards, 4>& hands, const std::vector<Cards>& plays,
             int policy) {
            const Game& g = t.game();
            check_rollout_start(g, hands, policy);
            std::vector<int> points;
            std::string refused;
            {
              py::gil_scoped_release released;
              try {
                for (const Cards& play : plays) {
                  points.push_back(rollout(g, hands, play, static_cast<BotPolicy>(policy)));
                }
              } catch (const RuleError& error) {
                refused = error.message;
              }
            }
            if (!refused.empty()) throw py::value_error(refused);
            return points;
          },
          py::arg("hands"), py::arg("plays"), py::arg("policy"),
          "The attackers' final points after each play, the hand played out by a rule bot.")
      .def("play", [](Table& t, const Cards& cards) {  // a whole action, checked by the rules
        try {
          t.mutable_game().step(cards, false);
        } catch (const RuleError& error) {
          throw py::value_error(error.message);
        }
        t.restart_decision();
      });
}

void bind_batch(py::module_& m) {
  py::class_<TableBatch>(m, "TableBatch")
      .def(py::init([](int count, int decks, bool twos, int penalty, int cap, bool triples_first,
                       int start_level, bool match, bool points, uint64_t seed, bool redeal) {
             check_range(count, 1, kMaxTables, "count");
             return new TableBatch(
                 count, make_rules(decks, twos, penalty, cap, triples_first, start_level),
                 EpisodeRules{match, points}, seed, redeal);
           }),
           py::arg("count"), py::arg("decks"), py::arg("twos_always_trump"),
           py::arg("failed_throw_penalty"), py::arg("kitty_multiplier_cap"),
           py::arg("triples_first"), py::arg("start_level"), py::arg("match"), py::arg("points"),
           py::arg("seed"), py::arg("redeal") = true)
      .def_property_readonly("size", &TableBatch::size)
      .def_property_readonly("episodes", &TableBatch::episodes)
      .def("export",
           [](const TableBatch& b, int index) {
             check_range(index, 0, b.size() - 1, "table index");
             return export_game(b.table(index).game());
           })
      .def("selection",
           [](const TableBatch& b, int index) {
             check_range(index, 0, b.size() - 1, "table index");
             return b.table(index).decision().selection;
           })
      .def("seed",
           [](const TableBatch& b, int index) {
             check_range(index, 0, b.size() - 1, "table index");
             return b.seed(index);
           })
      .def(
          "start",
          [](TableBatch& b, int index, const py::dict& state, int decks, int start_level,
             py::array_t<float, py::array::c_style> obs_out,
             py::array_t<int8_t, py::array::c_style> masks,
             py::array_t<int32_t, py::array::c_style> seats) {
            check_range(index, 0, b.size() - 1, "table index");
            check_range(decks, 1, 3, "decks");
            check_range(start_level, 0, kAce, "start_level");
            const py::ssize_t n = b.size();
            float* o = buffer(obs_out, n * obs::kSize, "observations");
            int8_t* k = buffer(masks, n * kNumActions, "masks");
            int32_t* s = buffer(seats, n, "seats");
            Rules rules = b.rules();
            rules.decks = decks;
            rules.start_level = start_level;
            Game game(rules, 0);
            load_game(game, state);
            b.start(index, std::move(game), o, k, s);
          },
          py::arg("index"), py::arg("state"), py::arg("decks"), py::arg("start_level"),
          py::arg("observations"), py::arg("masks"), py::arg("seats"),
          "Table `index` plays the exported `state` (a game of `decks` decks) next; its row "
          "of the outputs is written.")
      .def(
          "own_bot_play",
          [](const TableBatch& b, int index, int policy) {
            check_range(index, 0, b.size() - 1, "table index");
            return own_bot_play(b.table(index).game(), policy);
          },
          py::arg("index"), py::arg("policy"), "Table.own_bot_play on table `index`.")
      .def("reset",
           [](TableBatch& b, py::array_t<float, py::array::c_style> obs_out,
              py::array_t<int8_t, py::array::c_style> masks,
              py::array_t<int32_t, py::array::c_style> seats) {
             const py::ssize_t n = b.size();
             float* o = buffer(obs_out, n * obs::kSize, "observations");
             int8_t* k = buffer(masks, n * kNumActions, "masks");
             int32_t* s = buffer(seats, n, "seats");
             py::gil_scoped_release release;
             b.reset(o, k, s);
           })
      .def("step", [](TableBatch& b, py::array_t<int64_t, py::array::c_style> actions,
                      py::array_t<float, py::array::c_style> obs_out,
                      py::array_t<int8_t, py::array::c_style> masks,
                      py::array_t<int32_t, py::array::c_style> seats,
                      py::array_t<float, py::array::c_style> rewards,
                      py::array_t<uint8_t, py::array::c_style> dones) {
        const py::ssize_t n = b.size();
        const int64_t* a = buffer(actions, n, "actions");
        float* o = buffer(obs_out, n * obs::kSize, "observations");
        int8_t* k = buffer(masks, n * kNumActions, "masks");
        int32_t* s = buffer(seats, n, "seats");
        float* r = buffer(rewards, n * 4, "rewards");
        uint8_t* d = buffer(dones, n, "dones");
        int bad;
        {
          py::gil_scoped_release release;
          bad = b.step(a, o, k, s, r, d);
        }
        return bad;
      });
}

}  // namespace

PYBIND11_MODULE(_core, m) {
  m.doc() = "The compiled Shengji core (see shengji_env/core.py).";
  m.attr("OBS_SIZE") = obs::kSize;
  m.attr("NUM_ACTIONS") = kNumActions;
  py::dict layout;
  layout["hand"] = obs::kHand;
  layout["selection"] = obs::kSelection;
  layout["played"] = obs::kPlayed;
  layout["trick"] = obs::kTrick;
  layout["revealed"] = obs::kRevealed;
  layout["kitty"] = obs::kKitty;
  layout["trump_cards"] = obs::kTrumpCards;
  layout["card_order"] = obs::kCardOrder;
  layout["voids"] = obs::kVoids;
  layout["trump_suit"] = obs::kTrumpSuit;
  layout["level"] = obs::kLevel;
  layout["team_levels"] = obs::kTeamLevels;
  layout["bid_strength"] = obs::kBidStrength;
  layout["bidder"] = obs::kBidder;
  layout["dealer"] = obs::kDealer;
  layout["leader"] = obs::kLeader;
  layout["phase"] = obs::kPhase;
  layout["progress"] = obs::kProgress;
  layout["trick_winner"] = obs::kTrickWinner;
  layout["card_counting"] = obs::kCardCounting;
  layout["play_reading"] = obs::kPlayReading;
  layout["card_context"] = obs::kCardContext;
  m.attr("OBS_STARTS") = layout;
  bind_rules(m);
  bind_table(m);
  bind_batch(m);
}
