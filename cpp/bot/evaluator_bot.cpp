#include "bot/evaluator_bot.h"

#include "dark/dark_puct.h"
#include "search/puct.h"

namespace hexengine {

EvaluatorBot::EvaluatorBot(const PuctParams& params) : params_(params) { validate_puct_params(params); }

SearchResult EvaluatorBot::search(const View& view, Evaluator& evaluator, const std::atomic<bool>* interrupt) {
  std::lock_guard<std::mutex> lock(busy_);
  validate_view(view);
  check_searchable(view);
  if (is_dark(view.rules.variant)) return DarkPuct(params_).search(view, evaluator, interrupt);
  return PuctSearch(params_).search(view, evaluator, interrupt);
}

}  // namespace hexengine
