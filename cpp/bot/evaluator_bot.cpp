#include "bot/evaluator_bot.h"

#include "core/rng.h"
#include "dark/dark_puct.h"

namespace hexengine {

EvaluatorBot::EvaluatorBot(const PuctParams& params) : params_(params) { validate_puct_params(params); }

SearchResult EvaluatorBot::search(const View& view, Evaluator& evaluator, const std::atomic<bool>* interrupt) {
  return search(view, evaluator, Budget{params_.simulations, params_.seconds}, interrupt);
}

SearchResult EvaluatorBot::search(const View& view, Evaluator& evaluator, const Budget& budget,
                                  const std::atomic<bool>* interrupt) {
  validate_budget(budget);
  std::lock_guard<std::mutex> lock(busy_);
  validate_view(view);
  check_searchable(view);
  PuctParams params = params_;
  apply_budget(params, budget);
  params.seed = derive_seed(params_.seed, searches_++);  // fresh root noise and worlds each search
  if (is_dark(view.rules.variant)) return DarkPuct(params).search(view, evaluator, interrupt);
  return PuctSearch(params).search(view, evaluator, interrupt, params_.reuse_tree ? &memory_ : nullptr);
}

void EvaluatorBot::clear() {
  std::lock_guard<std::mutex> lock(busy_);
  memory_.clear();
}

}  // namespace hexengine
