// What the Hex/Rex search (mcts.cpp) and the Dark Hex search (dark_search.cpp)
// share around their engines: a width-free interface to an engine compiled
// for one bitboard width, the relaxed counter bump their node statistics use,
// and a forced-inline marker for their hot loops. (Each file keeps its own
// 4-line factory: a factory templated on the files' internal `Engine`
// templates was merged across the two files by the linker.)
#pragma once

#include <atomic>
#include <cstdint>

#include "mcts.h"

namespace hexengine {

// A search engine for one rule set, whatever its bitboard width.
class EngineBase {
 public:
  virtual ~EngineBase() = default;
  virtual SearchResult search(const View& view) = 0;
};

// Forces inlining of a search's per-child scoring function: left to itself
// the compiler keeps it out of line, and then cannot hoist its branches out of
// the selection loop (a fifth of the Dark Hex search's time).
#if defined(_MSC_VER)
#define HEXENGINE_ALWAYS_INLINE __forceinline
#else
#define HEXENGINE_ALWAYS_INLINE __attribute__((always_inline)) inline
#endif

// Relaxed increment without a locked instruction: statistics tolerate the
// rare lost update between threads.
inline void bump(std::atomic<uint32_t>& x, uint32_t by = 1) {
  x.store(x.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
}

}  // namespace hexengine
