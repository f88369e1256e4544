#include "search/search.h"

#include <string>

#include "core/errors.h"

namespace hexengine {

void validate_threads(int threads) {
  if (threads < 1 || threads > kMaxThreads) {
    throw ConfigError("threads must be between 1 and " + std::to_string(kMaxThreads) + ", not " +
                      std::to_string(threads));
  }
}

void validate_budget(const Budget& b) {
  if (!(b.seconds >= 0) || b.seconds > 1e6) throw ConfigError("seconds must be between 0 and 1e6");
  if (b.simulations == 0 && b.seconds <= 0) {
    throw ConfigError("a search needs a budget: give simulations > 0 or seconds > 0");
  }
}

void validate_params(const SearchParams& p) {
  validate_budget({p.simulations, p.seconds});
  validate_threads(p.threads);
  if (p.max_nodes < 1000 || p.max_nodes > 2'000'000'000ULL) {
    throw ConfigError("max_nodes must be between 1,000 and 2,000,000,000");
  }
  if (!(p.rave_equivalence >= 0)) throw ConfigError("rave_equivalence must be positive (0: the variant's default)");
  if (!(p.rave_initial_weight > 0) || p.rave_initial_weight > 1000) {
    throw ConfigError("rave_initial_weight must be more than 0 and at most 1,000");
  }
  if (!(p.exploration >= 0)) throw ConfigError("exploration must be at least 0");
  if (!(p.rex_endgame >= 0 && p.rex_endgame <= 1)) throw ConfigError("rex_endgame must be between 0 and 1");
  if (p.expand_threshold < 1 || p.expand_threshold > 1'000'000) {
    throw ConfigError("expand_threshold must be between 1 and 1,000,000");
  }
  if (!(p.opponent_model >= 0) || p.opponent_model > 100) throw ConfigError("opponent_model must be between 0 and 100");
  if (!(p.greedy_playouts >= 0 && p.greedy_playouts <= 1)) throw ConfigError("greedy_playouts must be between 0 and 1");
  if (!(p.greedy_opponent >= 0 && p.greedy_opponent <= 1)) throw ConfigError("greedy_opponent must be between 0 and 1");
  if (!(p.greedy_worlds >= 0 && p.greedy_worlds <= 1)) throw ConfigError("greedy_worlds must be between 0 and 1");
  if (!(p.prior >= 0) || p.prior > 1e6) throw ConfigError("prior must be between 0 and 1,000,000 (0: no move prior)");
  if (!(p.prior_bias >= 0) || p.prior_bias > 1000) {
    throw ConfigError("prior_bias must be between 0 and 1,000 (0: no progressive bias)");
  }
}

double default_rave_equivalence(Variant variant) { return is_misere(variant) ? 3000.0 : 1000.0; }

uint64_t default_solver_nodes(const Rules& rules) {
  return is_misere(rules.variant) && rules.rows * rules.cols <= 49 ? 200000 : 20000;
}

SearchParams params_for(const SearchParams& params, const Rules& rules) {
  SearchParams p = params;
  if (p.rave_equivalence == 0) p.rave_equivalence = default_rave_equivalence(rules.variant);
  if (p.solver_nodes == kDefaultSolverNodes) p.solver_nodes = default_solver_nodes(rules);
  return p;
}

void check_searchable(const View& view) {
  validate_view(view);
  if (view.is_over()) throw ConfigError("the game is over: there is no move to choose");
  if (!view.viewer || view.viewer != view.to_move) {
    throw ConfigError("this view is not the view of the player to move; give the bot the view of " +
                      std::string(view.to_move == Color::Red ? "Red" : "Blue"));
  }
}

}  // namespace hexengine
