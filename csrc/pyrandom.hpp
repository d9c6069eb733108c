// Python's random.Random (MT19937 seeded by init_by_array, shuffle by rejection sampling
// on getrandbits), so that a seed deals the same cards in the core and the reference.
#pragma once

#include <array>
#include <cstdint>
#include <vector>

namespace shengji {

class PyRandom {
 public:
  static constexpr int kN = 624;

  explicit PyRandom(uint64_t seed = 0) { seed_with(seed); }

  // random.Random(seed) for 0 <= seed < 2**64: the key is the seed's 32-bit words.
  void seed_with(uint64_t seed) {
    std::vector<uint32_t> key{static_cast<uint32_t>(seed)};
    if (seed >> 32) key.push_back(static_cast<uint32_t>(seed >> 32));
    init_by_array(key);
  }

  uint32_t next() {
    if (index_ >= kN) twist();
    uint32_t y = state_[index_++];
    y ^= y >> 11;
    y ^= (y << 7) & 0x9d2c5680U;
    y ^= (y << 15) & 0xefc60000U;
    y ^= y >> 18;
    return y;
  }

  // random.Random._randbelow(n) for 0 < n < 2**32.
  uint32_t below(uint32_t n) {
    int bits = 0;
    while ((static_cast<uint64_t>(1) << bits) <= n) ++bits;
    uint32_t r = next() >> (32 - bits);
    while (r >= n) r = next() >> (32 - bits);
    return r;
  }

  template <typename T>
  void shuffle(std::vector<T>& items) {
    for (size_t i = items.size() - 1; i >= 1; --i) {
      const size_t j = below(static_cast<uint32_t>(i + 1));
      std::swap(items[i], items[j]);
    }
  }

  // random.Random.getstate()[1]: the 624 words, then the index.
  std::vector<uint32_t> state() const {
    std::vector<uint32_t> words(state_.begin(), state_.end());
    words.push_back(static_cast<uint32_t>(index_));
    return words;
  }
  bool set_state(const std::vector<uint32_t>& words) {
    if (words.size() != kN + 1 || words[kN] > kN) return false;
    for (int i = 0; i < kN; ++i) state_[i] = words[i];
    index_ = static_cast<int>(words[kN]);
    return true;
  }

 private:
  void init_genrand(uint32_t s) {
    state_[0] = s;
    for (int i = 1; i < kN; ++i) {
      state_[i] = 1812433253U * (state_[i - 1] ^ (state_[i - 1] >> 30)) + static_cast<uint32_t>(i);
    }
    index_ = kN;
  }

  void init_by_array(const std::vector<uint32_t>& key) {
    init_genrand(19650218U);
    int i = 1, j = 0;
    const int length = static_cast<int>(key.size());
    for (int k = kN > length ? kN : length; k; --k) {
      state_[i] = (state_[i] ^ ((state_[i - 1] ^ (state_[i - 1] >> 30)) * 1664525U)) + key[j] +
                  static_cast<uint32_t>(j);
      ++i;
      ++j;
      if (i >= kN) {
        state_[0] = state_[kN - 1];
        i = 1;
      }
      if (j >= length) j = 0;
    }
    for (int k = kN - 1; k; --k) {
      state_[i] = (state_[i] ^ ((state_[i - 1] ^ (state_[i - 1] >> 30)) * 1566083941U)) -
                  static_cast<uint32_t>(i);
      ++i;
      if (i >= kN) {
        state_[0] = state_[kN - 1];
        i = 1;
      }
    }
    state_[0] = 0x80000000U;
  }

  void twist() {
    constexpr uint32_t kUpper = 0x80000000U, kLower = 0x7fffffffU, kMatrix = 0x9908b0dfU;
    for (int k = 0; k < kN; ++k) {
      const uint32_t y = (state_[k] & kUpper) | (state_[(k + 1) % kN] & kLower);
      state_[k] = state_[(k + 397) % kN] ^ (y >> 1) ^ ((y & 1U) ? kMatrix : 0U);
    }
    index_ = 0;
  }

  std::array<uint32_t, kN> state_{};
  int index_ = kN;
};

}  // namespace shengji
