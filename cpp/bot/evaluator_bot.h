// The evaluator bot: one object that searches the views of every variant
// with a learned evaluator (the C++ side of hx.MCTSBot(evaluator=...)).
//
// Contract: `EvaluatorBot::search` takes a View whose viewer is to move
// (check_searchable) and an Evaluator (search/evaluator.h), and returns a
// move with the statistics behind it. This is the one place that chooses
// between the evaluator searches: Hex and Rex views go to PuctSearch
// (search/puct.h), Dark Hex views to DarkPuct (dark/dark_puct.h), which
// hands the evaluator only the searching player's own view. The parameters
// are checked once, when the bot is built (ConfigError naming the bad field);
// one search runs at a time. Each search draws its randomness (root noise,
// Dark Hex worlds) from a stream of its own, derived from the seed and the
// number of searches before it, so a bot's moves differ in their noise and
// a new bot with the same seed repeats them. With `reuse_tree`, the bot
// keeps its last Hex or Rex tree for the next search of the same game
// (PuctMemory).
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>

#include "core/view.h"
#include "search/evaluator.h"
#include "search/puct.h"
#include "search/search.h"

namespace hexengine {

// An evaluator search for any variant.
class EvaluatorBot {
 public:
  explicit EvaluatorBot(const PuctParams& params);

  // Searches `view` with `evaluator`; stops early once `interrupt` is set;
  // rethrows what the evaluator throws (the bot stays usable).
  SearchResult search(const View& view, Evaluator& evaluator, const std::atomic<bool>* interrupt = nullptr);
  // The same within `budget` instead of the parameters' simulations and
  // seconds; throws ConfigError for a budget validate_budget refuses.
  SearchResult search(const View& view, Evaluator& evaluator, const Budget& budget,
                      const std::atomic<bool>* interrupt = nullptr);
  // The parameters in use.
  const PuctParams& params() const { return params_; }
  // Forgets the kept tree (the next search starts afresh).
  void clear();

 private:
  PuctParams params_;
  PuctMemory memory_;
  uint64_t searches_ = 0;  // searches run (each one's seed derives from it)
  std::mutex busy_;
};

}  // namespace hexengine
