#include "core/planes.h"

#include <array>

#if (defined(__GNUC__) || defined(__clang__)) && (defined(__x86_64__) || defined(__i386__))
#include <immintrin.h>
#define HEXENGINE_AVX2_DISPATCH 1
#endif

namespace hexengine {

namespace {

// For each byte value, the eight bytes 0 or 1 that its bits spell (bit j in byte j).
constexpr auto kByteBits = [] {
  std::array<uint64_t, 256> table{};
  for (int b = 0; b < 256; ++b) {
    for (int j = 0; j < 8; ++j) table[b] |= static_cast<uint64_t>((b >> j) & 1) << (8 * j);
  }
  return table;
}();

// put_bytes eight bytes at a time, on any CPU.
void put_bytes_portable(const uint64_t* bits, int count, uint8_t* out, bool spill) {
  int k = 0;
  for (; spill ? k < count : k + 8 <= count; k += 8) {
    std::memcpy(out + k, &kByteBits[(bits[k >> 6] >> (k & 63)) & 0xff], 8);
  }
  if (k < count) std::memcpy(out + k, &kByteBits[(bits[k >> 6] >> (k & 63)) & 0xff], count - k);
}

#if HEXENGINE_AVX2_DISPATCH
// Bits k .. k + 31 of `bits` (k a multiple of 32, so they lie in one word) as
// 32 bytes 0 and 1: each byte picks its source byte of the 32 bits, keeps its
// own bit of it, and becomes 1 where that bit is set.
__attribute__((target("avx2"))) inline __m256i byte_flags(const uint64_t* bits, int k) {
  const __m256i spread = _mm256_setr_epi8(0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 1, 1, 1, 1,  //
                                          2, 2, 2, 2, 2, 2, 2, 2, 3, 3, 3, 3, 3, 3, 3, 3);
  const __m256i select = _mm256_set1_epi64x(static_cast<long long>(0x8040201008040201ULL));
  const int word = static_cast<int>(bits[k >> 6] >> (k & 63));
  const __m256i bytes = _mm256_shuffle_epi8(_mm256_set1_epi32(word), spread);
  return _mm256_and_si256(_mm256_cmpeq_epi8(_mm256_and_si256(bytes, select), select), _mm256_set1_epi8(1));
}

// put_bytes thirty-two bytes at a time.
__attribute__((target("avx2"))) void put_bytes_avx2(const uint64_t* bits, int count, uint8_t* out, bool spill) {
  int k = 0;
  for (; spill ? k < count : k + 32 <= count; k += 32) {
    _mm256_storeu_si256(reinterpret_cast<__m256i*>(out + k), byte_flags(bits, k));
  }
  if (k < count) {
    alignas(32) uint8_t last[32];
    _mm256_store_si256(reinterpret_cast<__m256i*>(last), byte_flags(bits, k));
    std::memcpy(out + k, last, static_cast<size_t>(count - k));
  }
}
#endif

// The put_bytes this CPU runs best.
using PutBytes = void (*)(const uint64_t*, int, uint8_t*, bool);
const PutBytes kPutBytes = [] {
#if HEXENGINE_AVX2_DISPATCH
  if (__builtin_cpu_supports("avx2")) return &put_bytes_avx2;
#endif
  return &put_bytes_portable;
}();

}  // namespace

void put_bytes(const uint64_t* bits, int count, uint8_t* out, bool spill) { kPutBytes(bits, count, out, spill); }

Perspective<kDenseWords> perspective_of(const View& view) {
  Perspective<kDenseWords> p;
  p.me = view.viewer ? *view.viewer : view.to_move.value_or(Color::Red);
  const int8_t mine = static_cast<int8_t>(index_of(p.me) + 1);
  for (int cell = 0; cell < static_cast<int>(view.board.size()); ++cell) {
    if (view.board[cell] == 0) continue;
    (view.board[cell] == mine ? p.own : p.opponent).set(cell);
  }
  for (const Action& a : view.history) {
    if (a.result != MoveResult::Hit) continue;
    if (a.color == p.me && a.cell >= 0) p.hit.set(a.cell);
    if (a.color != p.me) ++p.hits_taken;
  }
  p.to_move = view.to_move == p.me;
  p.swap = view.swap_available;
  p.hidden = view.hidden_stones;
  return p;
}

}  // namespace hexengine
