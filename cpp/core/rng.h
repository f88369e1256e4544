// A small, fast, portable random number generator for playouts and search.
//
// Contract: SplitMix64 (Steele, Lea, Flood 2014): 64 bits of state, passes
// BigCrush, and the same seed gives the same sequence on every platform.
// `below(n)` uses Lemire's multiply-shift, whose bias (< n / 2^32) is far
// below anything a playout can notice.
#pragma once

#include <cstdint>

namespace hexengine {

// SplitMix64 generator.
struct Rng {
  uint64_t state;

  explicit Rng(uint64_t seed) : state(seed) {}

  // The next 64 random bits.
  uint64_t next() {
    uint64_t z = (state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
  }

  // A uniform integer in [0, n), n < 2^32.
  uint32_t below(uint32_t n) { return static_cast<uint32_t>(((next() >> 32) * n) >> 32); }

  // A uniform double in [0, 1).
  double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
};

// An index in [0, n) drawn with probability weight[i] / total, where total is
// the sum of the n weights (the last index if rounding leaves the draw past it).
inline int weighted_index(Rng& rng, const double* weight, int n, double total) {
  double pick = rng.uniform() * total;
  for (int i = 0; i < n; ++i) {
    if ((pick -= weight[i]) < 0) return i;
  }
  return n - 1;
}

// A seed for stream `stream` derived from `seed` (independent streams per thread).
inline uint64_t derive_seed(uint64_t seed, uint64_t stream) {
  Rng r(seed ^ (0x632be59bd9b4e019ULL * (stream + 1)));
  return r.next();
}

}  // namespace hexengine
