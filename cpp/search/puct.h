// AlphaZero's search of Hex and Rex positions with a learned evaluator.
//
// Contract: `PuctSearch::search` takes the View of a running Hex or Rex game
// whose viewer is to move (check_searchable) and an Evaluator
// (search/evaluator.h), and returns the move with the statistics behind it.
// Each simulation walks from the root by PUCT: the move maximising
// Q + c_puct * P * sqrt(N) / (1 + n), where P is the evaluator's prior of the
// move, n its visits, N its position's, and Q its mean value for the player
// choosing it (0 while unvisited); at a position not yet evaluated it stops,
// and the position joins the batch. A move that completes a chain ends the
// simulation with the exact result instead. When a batch holds `batch_size`
// positions, or the next walk would reach a position already waiting, the
// evaluator is called once for the whole batch; each position then gets its
// legal moves with the priors (renormalised over the legal moves; uniform if
// the evaluator gave them no weight) and its value is backed up along its
// path, for each move's chooser (the player to move need not alternate: a
// `sides` swap is followed by the swapper's move). A walk counts a virtual
// loss on every move it takes until its value comes back, so the walks of one
// batch spread out. With threads > 1 each thread collects and evaluates its
// own batches on the shared tree (the tree is locked while a batch is
// collected or backed up, not while it is evaluated). The move played is
// the most visited root move. With one thread, the same seed and evaluator
// give the same results. Given a PuctMemory, a search of a position that
// continues the game searched last (the same rules, its history extended)
// starts from the subtree of that search under the moves played since (tree
// reuse): the subtree's visits count in the result as `reused`, and the
// budget's simulations are new ones. The tree itself is search/puct_tree.h,
// shared with the Dark Hex search.
#pragma once

#include <atomic>
#include <memory>

#include "core/view.h"
#include "search/evaluator.h"
#include "search/search.h"

namespace hexengine {

// The tree a PuctSearch keeps for the next search of the same game.
class PuctMemory {
 public:
  PuctMemory();
  ~PuctMemory();
  PuctMemory(const PuctMemory&) = delete;
  PuctMemory& operator=(const PuctMemory&) = delete;
  // Forgets the tree.
  void clear();

 private:
  friend class PuctSearch;
  struct Kept;
  std::unique_ptr<Kept> kept_;
};

// The evaluator search of Hex and Rex.
class PuctSearch {
 public:
  // Throws ConfigError for parameters validate_puct_params refuses.
  explicit PuctSearch(const PuctParams& params);
  ~PuctSearch();
  PuctSearch(const PuctSearch&) = delete;
  PuctSearch& operator=(const PuctSearch&) = delete;

  // Searches the position of `view` with `evaluator`; stops early once
  // `interrupt` (if given) is set. Rethrows what the evaluator throws (and
  // then forgets `memory`'s tree). With `memory`, starts from the tree kept
  // there when the view continues its game, and keeps this search's tree.
  SearchResult search(const View& view, Evaluator& evaluator, const std::atomic<bool>* interrupt = nullptr,
                      PuctMemory* memory = nullptr);

 private:
  PuctParams params_;
};

}  // namespace hexengine
