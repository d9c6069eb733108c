// Observation vectors (shengji_env/encoding.py), written into a buffer the caller owns.
#pragma once

#include "decision.hpp"

namespace shengji {

// Where each block of OBS_BLOCKS starts; tests/core check these against OBS_LAYOUT.
namespace obs {
constexpr int kCards = kCardTypes;
constexpr int kHand = 0;
constexpr int kSelection = kHand + kCards;
constexpr int kPlayed = kSelection + kCards;
constexpr int kTrick = kPlayed + 4 * kCards;
constexpr int kRevealed = kTrick + 4 * kCards;
constexpr int kKitty = kRevealed + 4 * kCards;
constexpr int kTrumpCards = kKitty + kCards;
constexpr int kCardOrder = kTrumpCards + kCards;
constexpr int kVoids = kCardOrder + kCards;
constexpr int kTrumpSuit = kVoids + 4 * kEffectiveSuits;
constexpr int kLevel = kTrumpSuit + kNumSuits + 1;
constexpr int kTeamLevels = kLevel + kNumRanks;
constexpr int kBidStrength = kTeamLevels + 2 * kNumRanks;
constexpr int kBidder = kBidStrength + 8;
constexpr int kDealer = kBidder + 5;
constexpr int kLeader = kDealer + 5;
constexpr int kPhase = kLeader + 4;
constexpr int kProgress = kPhase + 4;
constexpr int kTrickWinner = kProgress + 5;
constexpr int kCardCounting = kTrickWinner + 4;  // shengji_env/card_reading.py from here
constexpr int kCountingRows = 3;
constexpr int kPlayReading = kCardCounting + kCountingRows * kCards;
constexpr int kPlayRows = 7;
constexpr int kCardContext = kPlayReading + kPlayRows * kCards;
constexpr int kDeckCounts = 3;
constexpr int kContextSize = 2 * kEffectiveSuits + 5 + kDeckCounts;
constexpr int kSize = kCardContext + kContextSize;
}  // namespace obs

// The observation of `seat`; `decision` (may be null) adds the selection and phase.
void encode(const Game& game, int seat, const Decision* decision, float* out);

}  // namespace shengji
