#include "bot/mcts_bot.h"

#include <mutex>

#include "core/rules.h"
#include "dark/dark_search.h"
#include "search/mcts.h"

namespace hexengine {

struct MctsBot::Impl {
  explicit Impl(const SearchParams& p) : params(p), hex(p), dark(p) {}
  std::mutex busy;  // one search at a time per bot
  SearchParams params;
  HexSearch hex;    // Hex and Rex views
  DarkSearch dark;  // Dark Hex views
};

MctsBot::MctsBot(const SearchParams& params) {
  validate_params(params);
  impl_ = std::make_unique<Impl>(params);
}

MctsBot::~MctsBot() = default;

const SearchParams& MctsBot::params() const { return impl_->params; }

void MctsBot::clear() {
  std::lock_guard<std::mutex> lock(impl_->busy);
  impl_->hex.clear();
  impl_->dark.clear();
}

SearchResult MctsBot::search(const View& view, const std::atomic<bool>* interrupt) {
  return search(view, Budget{impl_->params.simulations, impl_->params.seconds}, interrupt);
}

SearchResult MctsBot::search(const View& view, const Budget& budget, const std::atomic<bool>* interrupt) {
  validate_budget(budget);
  std::lock_guard<std::mutex> lock(impl_->busy);
  check_searchable(view);
  if (is_dark(view.rules.variant)) return impl_->dark.search(view, budget, interrupt);
  return impl_->hex.search(view, budget, interrupt);
}

}  // namespace hexengine
