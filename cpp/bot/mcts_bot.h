// The MCTS bot: one object that searches the views of every variant (the C++
// side of Python's hx.MCTSBot, which the bindings wrap).
//
// Contract: `MctsBot::search` takes a View whose viewer is to move, and
// nothing else, and returns a move with the statistics behind it. It throws
// ConfigError for a finished game or a view whose viewer is not to move
// (check_searchable, search/search.h). This is the one place that chooses
// between the searches: Hex and Rex views go to the search of search/mcts.h,
// Dark Hex views to the information-set search of dark/dark_search.h. Each
// keeps its tree across the moves of a game and starts a new one for a view
// of other rules. The parameters are checked once, when the bot is built
// (ConfigError naming the bad field), and the bot runs one search at a time:
// a second call waits for the first to end.
#pragma once

#include <atomic>
#include <memory>

#include "core/view.h"
#include "search/search.h"

namespace hexengine {

// A search engine for any variant, with trees that live across the moves of a game.
class MctsBot {
 public:
  explicit MctsBot(const SearchParams& params);
  ~MctsBot();
  MctsBot(const MctsBot&) = delete;
  MctsBot& operator=(const MctsBot&) = delete;

  // Searches the position of `view` for its viewer, who must be to move. When
  // `interrupt` is given and becomes true, the search ends early (as if its
  // budget were spent) and returns what it has; the bindings set it on Ctrl-C.
  SearchResult search(const View& view, const std::atomic<bool>* interrupt = nullptr);
  // The same within `budget` instead of the parameters' simulations and
  // seconds, keeping the tree (a clock's share of the time for this move);
  // throws ConfigError for a budget validate_budget refuses.
  SearchResult search(const View& view, const Budget& budget, const std::atomic<bool>* interrupt = nullptr);
  // Forgets the trees.
  void clear();
  // The parameters in use.
  const SearchParams& params() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hexengine
