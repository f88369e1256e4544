// Observation planes: what one viewer knows of a position, as a stack of
// rows x cols planes for networks and learning code.
//
// Contract: planes are built from a Perspective, which holds only what one
// viewer knows (view.h's rules): a View gives one (`perspective_of`), and the
// batched environments (search/vector_env.h) keep the same facts for each
// game's player to move, so both give the same planes for the same view. A
// Perspective holds its cells as dense bitboards: bit r * cols + c is the cell
// (r, c), with no guard bits.
// Nothing a viewer may not see reaches a Perspective. The layout is the same
// for every variant and shape, channel by channel (kPlaneCount channels):
//
//   0 own          the perspective player's stones
//   1 opponent     the opponent's stones the viewer sees (Dark Hex: found ones)
//   2 empty        cells that are empty or unknown to the viewer
//   3 to_move      all 1 when the perspective player is to move
//   4 red          all 1 when the perspective player is Red (joins rows 1 and N)
//   5 swap         all 1 when the player to move may use the swap now
//   6 hit          Dark Hex: cells where the perspective player hit (found) an
//                  enemy stone; all 0 in Hex and Rex
//   7 hits_taken   all hits_received / cells: how often the opponent hit one of
//                  the perspective player's stones (which ones is not told)
//   8 hidden       all hidden / cells: stones on the board the viewer cannot see
//                  (a player: the opponent's stones not found yet)
//
// The perspective player is the viewer; for a spectator, the player to move
// (Red once the game is over). In a boolean stack the two counting planes are
// 1 where the count is not 0.
#pragma once

#include <cstdint>
#include <cstring>
#include <type_traits>

#if defined(__SSE2__) || defined(_M_X64)
#include <emmintrin.h>
#define HEXENGINE_SSE2 1
#endif

#include "core/bitboard.h"
#include "core/geometry.h"
#include "core/view.h"

namespace hexengine {

// Channels of the observation planes.
enum Plane : int {
  kPlaneOwn = 0,
  kPlaneOpponent,
  kPlaneEmpty,
  kPlaneToMove,
  kPlaneRed,
  kPlaneSwap,
  kPlaneHit,
  kPlaneHitsTaken,
  kPlaneHidden,
  kPlaneCount
};

// Words of a dense bitboard that holds every cell of the largest board (361).
inline constexpr int kDenseWords = (kMaxSide * kMaxSide + 63) / 64;

// What one viewer knows, in the form the planes show it (dense bitboards of
// D words: bit r * cols + c is the cell (r, c)).
template <int D>
struct Perspective {
  // The player the planes are drawn for.
  Color me = Color::Red;
  // Stones of `me` and of the opponent that the viewer sees.
  Bitboard<D> own, opponent;
  // Cells where `me` hit an enemy stone (Dark Hex).
  Bitboard<D> hit;
  // Whether `me` is to move, and whether the player to move may swap now.
  bool to_move = false;
  bool swap = false;
  // Times the opponent hit a stone of `me`, and stones hidden from the viewer.
  int hits_taken = 0;
  int hidden = 0;
};

// The perspective of `view` (view.h): the viewer's, or the player to move's
// for a spectator.
Perspective<kDenseWords> perspective_of(const View& view);

// Writes bits 0 .. count - 1 of the dense words `bits` to out[0 .. count) as
// bytes 0 and 1, thirty-two at a time where the CPU has AVX2 (chosen when the
// program starts), eight at a time from a table elsewhere. With `spill`, it
// may also write up to 31 bytes past the end, which the caller overwrites
// afterwards.
void put_bytes(const uint64_t* bits, int count, uint8_t* out, bool spill);

// Writes members 0 .. count - 1 of the dense bitboard `bits` to out[0 ..
// count) as 0 and 1 (one-byte values through put_bytes; four floats at a time
// where the CPU has SSE2). With `Spill`, it may also write up to 31 values
// past the end, which the caller overwrites afterwards.
template <bool Spill, int D, class T>
inline void put_bits(const Bitboard<D>& bits, int count, T* out) {
  int k = 0;
  if constexpr (sizeof(T) == 1) {
    put_bytes(bits.w.data(), count, reinterpret_cast<uint8_t*>(out), Spill);
    return;
  }
#if HEXENGINE_SSE2
  if constexpr (std::is_same_v<T, float>) {
    const __m128i select = _mm_setr_epi32(1, 2, 4, 8);
    const __m128 unit = _mm_set1_ps(1.0f);
    for (; Spill ? k < count : k + 4 <= count; k += 4) {
      const int nibble = static_cast<int>((bits.w[k >> 6] >> (k & 63)) & 0xf);
      const __m128i on = _mm_cmpeq_epi32(_mm_and_si128(_mm_set1_epi32(nibble), select), select);
      _mm_storeu_ps(reinterpret_cast<float*>(out + k), _mm_and_ps(_mm_castsi128_ps(on), unit));
    }
  }
#endif
  for (; k < count; ++k) out[k] = static_cast<T>((bits.w[k >> 6] >> (k & 63)) & 1);
}

// Sets out[0 .. count) to `value`; with `Spill`, perhaps up to 15 values past
// the end too (see put_bits).
template <bool Spill, class T>
inline void fill_values(T* out, int count, T value) {
  int k = 0;
  if constexpr (sizeof(T) == 1) {
#if HEXENGINE_SSE2
    if constexpr (Spill) {
      const __m128i all = _mm_set1_epi8(static_cast<char>(value));
      for (; k < count; k += 16) _mm_storeu_si128(reinterpret_cast<__m128i*>(out + k), all);
      return;
    }
#endif
    std::memset(out, static_cast<int>(value), static_cast<size_t>(count));
    return;
  }
  for (; k < count; ++k) out[k] = value;
}

// write_planes, with each plane but the last allowed to spill (Spill) or not.
template <bool Spill, int D, class T>
void write_planes_spilling(const Perspective<D>& p, int cells, T* out) {
  static_assert(kPlaneHidden == kPlaneCount - 1, "the last plane is a filled one, written exactly");
  const int n = cells;
  Bitboard<D> empty;
  for (int w = 0; w < D; ++w) empty.w[w] = ~(p.own.w[w] | p.opponent.w[w]);
  auto fraction = [&](int count) {
    if constexpr (std::is_floating_point_v<T>) return static_cast<T>(static_cast<double>(count) / n);
    return static_cast<T>(count != 0);
  };
  put_bits<Spill>(p.own, n, out + kPlaneOwn * n);
  put_bits<Spill>(p.opponent, n, out + kPlaneOpponent * n);
  put_bits<Spill>(empty, n, out + kPlaneEmpty * n);
  fill_values<Spill>(out + kPlaneToMove * n, n, static_cast<T>(p.to_move));
  fill_values<Spill>(out + kPlaneRed * n, n, static_cast<T>(p.me == Color::Red));
  fill_values<Spill>(out + kPlaneSwap * n, n, static_cast<T>(p.swap));
  put_bits<Spill>(p.hit, n, out + kPlaneHit * n);
  fill_values<Spill>(out + kPlaneHitsTaken * n, n, fraction(p.hits_taken));
  fill_values<false>(out + kPlaneHidden * n, n, fraction(p.hidden));
}

// Writes the kPlaneCount x rows x cols planes of `p` (a board of `cells`
// cells) to `out` (C order), as 0/1 for integral T and with the counting
// planes as fractions of the cells for floating T. On boards of 32 cells or
// more the planes are written in order, each spilling at most 31 values into
// the next one, which is written after it; the last one, and every plane of a
// smaller board, is written exactly: nothing past kPlaneCount * cells values
// is touched.
template <int D, class T>
void write_planes(const Perspective<D>& p, int cells, T* out) {
  if (cells >= 32) {
    write_planes_spilling<true>(p, cells, out);
  } else {
    write_planes_spilling<false>(p, cells, out);
  }
}

}  // namespace hexengine
