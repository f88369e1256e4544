// What the Hex/Rex search (search/mcts.cpp) and the Dark Hex search
// (dark/dark_search.cpp) share around their engines: a width-free interface to
// an engine compiled for one bitboard width, the slot their front ends keep
// it in, the RAVE value their selections
// compare, the relaxed counter bump their node statistics use, and a
// forced-inline marker for their hot loops. (Each file keeps its own 4-line
// factory: a factory templated on the files' internal `Engine` templates was
// merged across the two files by the linker.)
#pragma once

#include <atomic>
#include <cstdint>
#include <memory>

#include "core/view.h"
#include "search/search.h"

namespace hexengine {

// A search engine for one rule set, whatever its bitboard width.
class EngineBase {
 public:
  virtual ~EngineBase() = default;
  // `interrupt` (may be null) is polled: once it is set the search stops early.
  virtual SearchResult search(const View& view, const std::atomic<bool>* interrupt) = 0;
  // The budget of the searches from now on (checked by the caller).
  virtual void set_budget(const Budget& budget) = 0;
};

// The engine behind a search front end (HexSearch, DarkSearch): made for the
// rules of the first view searched, with the parameters fitted to them
// (params_for), and made again, with a new tree, when a view of other rules
// comes.
class EngineSlot {
 public:
  // Makes an engine for `rules` with parameters already fitted to them.
  using Factory = std::unique_ptr<EngineBase> (*)(const Rules& rules, const SearchParams& params);

  EngineSlot(const SearchParams& params, Factory make) : params_(params), make_(make) {}

  // Searches `view` with the engine for its rules, within `budget`.
  SearchResult search(const View& view, const std::atomic<bool>* interrupt, const Budget& budget) {
    if (!engine_ || rules_ != view.rules) {
      engine_ = make_(view.rules, params_for(params_, view.rules));
      rules_ = view.rules;
    }
    engine_->set_budget(budget);
    return engine_->search(view, interrupt);
  }

  // Drops the engine and its tree.
  void clear() { engine_.reset(); }

 private:
  SearchParams params_;
  Factory make_;
  std::unique_ptr<EngineBase> engine_;
  Rules rules_;
};

// Forces inlining of a search's per-child scoring function: left to itself
// the compiler keeps it out of line, and then cannot hoist its branches out of
// the selection loop (a fifth of the Dark Hex search's time).
#if defined(_MSC_VER)
#define HEXENGINE_ALWAYS_INLINE __forceinline
#else
#define HEXENGINE_ALWAYS_INLINE __attribute__((always_inline)) inline
#endif

// The RAVE value of a tree edge (Silver's schedule, weighted as MoHex's):
// (1 - beta) * wins / visits + beta * rave_wins / rave_visits with beta =
// rave_visits / (rave_visits + visits * inv_w + visits * rave_visits * inv_k),
// kept as the fraction num / den (den > 0) so that selection may compare
// edges without dividing. An edge never visited either way is `fresh`, worth
// 1 / 1.
struct RaveFraction {
  float num;
  float den;
  bool fresh;
};

// The RAVE fraction of `edge`, a node type with atomic visits, wins,
// rave_visits and rave_wins; inv_k = 1 / the RAVE equivalence parameter, inv_w =
// 1 / the initial RAVE weight (SearchParams::rave_initial_weight).
template <class Node>
HEXENGINE_ALWAYS_INLINE RaveFraction rave_fraction(const Node& edge, float inv_k, float inv_w) {
  const float n = static_cast<float>(edge.visits.load(std::memory_order_relaxed));
  const float rn = static_cast<float>(edge.rave_visits.load(std::memory_order_relaxed));
  const float w = static_cast<float>(edge.wins.load(std::memory_order_relaxed));
  const float rw = static_cast<float>(edge.rave_wins.load(std::memory_order_relaxed));
  const float den = rn + n * inv_w + n * rn * inv_k;
  const bool fresh = !(den > 0);  // selects, not branches: cheaper in the selection loops
  return {fresh ? 1.0f : (inv_w + rn * inv_k) * w + rw, fresh ? 1.0f : den, fresh};
}

// Relaxed increment without a locked instruction: statistics tolerate the
// rare lost update between threads.
inline void bump(std::atomic<uint32_t>& x, uint32_t by = 1) {
  x.store(x.load(std::memory_order_relaxed) + by, std::memory_order_relaxed);
}

}  // namespace hexengine
