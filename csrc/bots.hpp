// The rule bots' plays (agents/heuristic.py, agents/greedy.py, agents/knowledge.py) on a
// core Game, for SearchAgent's rollouts. Each function mirrors the Python one of the same
// name card for card, ties included: a seat's hand is kept in the reference's list order
// (the deal order less the cards played), since ties between equal keys go to the card or
// suit met first. tests/core/test_bots.py pins the two together.
#pragma once

#include <array>
#include <utility>
#include <vector>

#include "game.hpp"

namespace shengji {

enum class BotPolicy { kHeuristic = 0, kGreedy = 1 };

// What one seat sees of a game in the play phase: its hand in the reference's order, the
// public trick state and the cards it has not seen (information.unseen).
struct SeatSight {
  SeatSight(const Game& game, int seat, const Cards& hand);
  const Game& game;
  const Trump& ctx;
  int seat;
  const Cards& hand;
  Counts pool{};
};

// The heuristic's candidate follows (knowledge.follow_candidates), in the same order.
std::vector<Cards> follow_candidates(const SeatSight& sight);
// Every legal follow up to `limit` (rules.legal_plays with a lead), in the same order.
std::vector<Cards> legal_follows(const Cards& hand, const Cards& lead, const Trump& ctx,
                                 bool triples_first, size_t limit);

Cards heuristic_lead(const SeatSight& sight);
Cards heuristic_follow(const SeatSight& sight);
Cards greedy_lead(const SeatSight& sight);
Cards greedy_follow(const SeatSight& sight);
// The lead or follow `policy` plays for the game's current player.
Cards bot_play(BotPolicy policy, const SeatSight& sight);
// HeuristicAgent.bid and .bury for the game's current player, whose hand is `hand` (in the
// reference's order): the declaration (empty: a pass) and the kitty.
Cards heuristic_bid(const Game& game, const Cards& hand);
Cards heuristic_bury(const Game& game, const Cards& hand);

// Plays the hand out from `game` (the play phase) after `first` is played by the current
// player, every later play by `policy`; the attackers' final points. `hands` holds each
// seat's hand in the reference's order and is consumed.
int rollout(Game game, std::array<Cards, 4> hands, const Cards& first, BotPolicy policy);
// Plays the hand of `game` out from any phase of it (a bid, a bury or a play) with the
// heuristic in every seat, each hand in card order; (the attackers' final points, the
// dealer).
std::pair<int, int> heuristic_hand(Game game);

}  // namespace shengji
