// The evaluator search of Dark Hex: PUCT over the searching player's
// information sets, through worlds drawn from its view.
//
// Contract: `DarkPuct::search` takes the View of a running Dark Hex game
// (classic or abrupt) whose viewer is to move, and an Evaluator
// (search/evaluator.h), and returns a move with the statistics behind it. It
// never sees a hidden stone: each simulation draws a complete world from the
// view with a Belief (belief.h, uniformly among the worlds the view allows),
// and the evaluator only ever receives the searcher's own view of the
// positions the search reaches (its own stones, the enemy stones it found,
// the hits it took: planes.h), never a world's hidden stones.
//
// The tree holds the searcher's decisions only (search/puct_tree.h). A move
// of the searcher leads, in the world, to what it observes: its result (a
// placement, or a hit that finds a stone: in `dark` it then moves again), and
// when the turn passed, the opponent's moves until the searcher is to move
// again, of which the searcher learns only how many hit its stones. The
// searcher's move and that observation pick the child, so every node is one
// information set of the searcher. Inside the search the opponent plays a
// uniformly random move among those it may play in the world (by its own
// knowledge there), which is also the model under which the Belief's worlds
// are exact. Values are always the searcher's: the evaluator's value of a
// position where the searcher is to move, or the exact result of a game that
// ended in the simulation.
#pragma once

#include <atomic>

#include "core/view.h"
#include "search/evaluator.h"
#include "search/search.h"

namespace hexengine {

// The evaluator search of Dark Hex.
class DarkPuct {
 public:
  // Throws ConfigError for parameters validate_puct_params refuses.
  explicit DarkPuct(const PuctParams& params);

  // Searches the Dark Hex `view` with `evaluator`; stops early once
  // `interrupt` (if given) is set. Rethrows what the evaluator throws.
  SearchResult search(const View& view, Evaluator& evaluator, const std::atomic<bool>* interrupt = nullptr);

 private:
  PuctParams params_;
};

}  // namespace hexengine
