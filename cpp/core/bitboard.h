// Bitboards for Hex boards up to 19x19.
//
// Contract: a board of `rows x cols` cells is laid out row by row with a
// stride of `cols + 1`; the extra bit at the end of each row is a guard that is
// never a cell. Cell (r, c) has padded index `r * stride + c`. With the guard
// column the six hex neighbours of a set are six shifts of the set (by 1,
// stride - 1 and stride in both directions) masked with the board's cells: a
// shift that wraps off one row lands on a guard bit and is masked away.
// 19 rows of stride 20 need 380 bits, so six 64-bit words hold every board.
// `Bitboard<W>` uses W words; hot code picks the smallest W for the board.
#pragma once

#include <array>
#include <bit>
#include <cstdint>
#include <type_traits>

namespace hexengine {

// Largest number of rows or columns a board may have.
inline constexpr int kMaxSide = 19;
// Words needed for the largest padded board (19 * 20 = 380 bits).
inline constexpr int kMaxWords = 6;
// Bits in the largest padded board.
inline constexpr int kMaxBits = kMaxWords * 64;

// A fixed-size set of padded cell indices.
template <int W>
struct Bitboard {
  std::array<uint64_t, W> w{};

  // Whether padded index `i` is in the set.
  constexpr bool test(int i) const { return (w[i >> 6] >> (i & 63)) & 1u; }
  // Adds padded index `i`.
  constexpr void set(int i) { w[i >> 6] |= uint64_t{1} << (i & 63); }
  // Removes padded index `i`.
  constexpr void reset(int i) { w[i >> 6] &= ~(uint64_t{1} << (i & 63)); }

  // Whether the set is non-empty.
  constexpr bool any() const {
    uint64_t acc = 0;
    for (int k = 0; k < W; ++k) acc |= w[k];
    return acc != 0;
  }
  // Number of members.
  constexpr int count() const {
    int n = 0;
    for (int k = 0; k < W; ++k) n += std::popcount(w[k]);
    return n;
  }
  // Smallest member; the set must not be empty.
  constexpr int first() const {
    for (int k = 0; k < W; ++k)
      if (w[k]) return k * 64 + std::countr_zero(w[k]);
    return -1;
  }

  constexpr Bitboard operator&(const Bitboard& o) const {
    Bitboard r;
    for (int k = 0; k < W; ++k) r.w[k] = w[k] & o.w[k];
    return r;
  }
  constexpr Bitboard operator|(const Bitboard& o) const {
    Bitboard r;
    for (int k = 0; k < W; ++k) r.w[k] = w[k] | o.w[k];
    return r;
  }
  constexpr Bitboard operator^(const Bitboard& o) const {
    Bitboard r;
    for (int k = 0; k < W; ++k) r.w[k] = w[k] ^ o.w[k];
    return r;
  }
  // Members of this set that are not in `o`.
  constexpr Bitboard andnot(const Bitboard& o) const {
    Bitboard r;
    for (int k = 0; k < W; ++k) r.w[k] = w[k] & ~o.w[k];
    return r;
  }
  constexpr Bitboard& operator&=(const Bitboard& o) { return *this = *this & o; }
  constexpr Bitboard& operator|=(const Bitboard& o) { return *this = *this | o; }
  constexpr bool operator==(const Bitboard& o) const = default;

  // Every index moved up by `s` (0 < s < 64); bits past the end are dropped.
  constexpr Bitboard shl(int s) const {
    Bitboard r;
    for (int k = W - 1; k > 0; --k) r.w[k] = (w[k] << s) | (w[k - 1] >> (64 - s));
    r.w[0] = w[0] << s;
    return r;
  }
  // Every index moved down by `s` (0 < s < 64).
  constexpr Bitboard shr(int s) const {
    Bitboard r;
    for (int k = 0; k < W - 1; ++k) r.w[k] = (w[k] >> s) | (w[k + 1] << (64 - s));
    r.w[W - 1] = w[W - 1] >> s;
    return r;
  }

  // Calls `f(i)` for each member in increasing order.
  template <class F>
  constexpr void for_each(F&& f) const {
    for (int k = 0; k < W; ++k) {
      uint64_t b = w[k];
      while (b) {
        f(k * 64 + std::countr_zero(b));
        b &= b - 1;
      }
    }
  }

  // Copies the first min(W, V) words of another width.
  template <int V>
  static constexpr Bitboard from(const Bitboard<V>& o) {
    Bitboard r;
    for (int k = 0; k < W && k < V; ++k) r.w[k] = o.w[k];
    return r;
  }
};

// The set plus every padded index adjacent to it (guards not yet masked).
template <int W>
constexpr Bitboard<W> dilate(const Bitboard<W>& x, int stride) {
  return x | x.shl(1) | x.shr(1) | x.shl(stride - 1) | x.shr(stride - 1) |
         x.shl(stride) | x.shr(stride);
}

// The part of `within` connected to `seed` (seed must lie inside `within`),
// with `grow(x)` giving x and its neighbours (unmasked) in the set's layout.
template <int W, class Grow>
constexpr Bitboard<W> flood_by(Bitboard<W> seed, const Bitboard<W>& within, Grow&& grow) {
  for (;;) {
    Bitboard<W> next = grow(seed) & within;
    if (next == seed) return seed;
    seed = next;
  }
}

// The part of `within` connected to `seed` (seed must lie inside `within`).
template <int W>
constexpr Bitboard<W> flood(const Bitboard<W>& seed, const Bitboard<W>& within, int stride) {
  return flood_by(seed, within, [stride](const Bitboard<W>& x) { return dilate(x, stride); });
}

// Words needed for a board with `rows` rows and `cols` columns.
constexpr int words_for(int rows, int cols) { return (rows * (cols + 1) + 63) / 64; }

// Calls `f(std::integral_constant<int, W>{})` with the W that `words` names (1..6),
// so code templated on the width runs with the smallest bitboards for a board.
template <class F>
decltype(auto) with_width(int words, F&& f) {
  switch (words) {
    case 1: return f(std::integral_constant<int, 1>{});
    case 2: return f(std::integral_constant<int, 2>{});
    case 3: return f(std::integral_constant<int, 3>{});
    case 4: return f(std::integral_constant<int, 4>{});
    case 5: return f(std::integral_constant<int, 5>{});
    default: return f(std::integral_constant<int, 6>{});
  }
}

}  // namespace hexengine
