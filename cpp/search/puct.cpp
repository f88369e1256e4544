#include "search/puct.h"

#include <cmath>
#include <string>
#include <vector>

#include "core/errors.h"
#include "search/position.h"
#include "search/puct_tree.h"

namespace hexengine {

void validate_puct_params(const PuctParams& p) {
  validate_threads(p.threads);
  if (p.simulations == 0 && !(p.seconds > 0)) {
    throw ConfigError("a search needs a budget: give simulations > 0 or seconds > 0");
  }
  if (!(p.seconds >= 0) || p.seconds > 1e6) throw ConfigError("seconds must be between 0 and 1,000,000");
  if (p.batch_size < 1 || p.batch_size > 4096) {
    throw ConfigError("batch_size must be between 1 and 4,096, not " + std::to_string(p.batch_size));
  }
  if (!(p.c_puct > 0) || p.c_puct > 1000) throw ConfigError("c_puct must be above 0 and at most 1,000");
  if (!(p.noise_fraction >= 0) || p.noise_fraction > 1) throw ConfigError("noise_fraction must be between 0 and 1");
  if (!(p.noise_alpha > 0) || p.noise_alpha > 1000) throw ConfigError("noise_alpha must be above 0 and at most 1,000");
}

namespace {

// A standard normal deviate (Box-Muller).
double normal(Rng& rng) {
  const double u = 1.0 - rng.uniform(), v = rng.uniform();
  return std::sqrt(-2.0 * std::log(u)) * std::cos(6.283185307179586 * v);
}

// A Gamma(shape, 1) deviate (Marsaglia and Tsang; shapes below 1 by boosting).
double gamma(Rng& rng, double shape) {
  if (shape < 1.0) return gamma(rng, shape + 1.0) * std::pow(1.0 - rng.uniform(), 1.0 / shape);
  const double d = shape - 1.0 / 3.0, c = 1.0 / std::sqrt(9.0 * d);
  for (;;) {
    double x, v;
    do {
      x = normal(rng);
      v = 1.0 + c * x;
    } while (v <= 0);
    v = v * v * v;
    const double u = 1.0 - rng.uniform();
    if (std::log(u) < 0.5 * x * x + d - d * v + d * std::log(v)) return d * v;
  }
}

// How a simulation moves in Hex and Rex: on the true position, one move at a time.
template <int W>
class HexWalk {
 public:
  struct Position {
    State<W> state;
    Shadow<W> shadow;
  };

  explicit HexWalk(const View& view)
      : rules_(view.rules), g_(make_geometry(view.rules.rows, view.rules.cols)), board_(dense_cells<W>(g_.cells)) {
    for (const Action& a : view.history) play(root_, a.result == MoveResult::Swapped ? g_.cells : a.cell);
  }

  int cells() const { return g_.cells; }
  Position start(Rng&) const { return root_; }
  Color to_move(const Position& pos) const { return pos.shadow.to_move; }

  Outcome play(Position& pos, int action, Rng&) const { return play(pos, action); }

  void observe(const Position& pos, float* planes, bool* mask) const {
    write_planes(perspective_of(pos.shadow, rules_, pos.shadow.to_move, EndReason::None), g_.cells, planes);
    put_bits<false>(legal_cells(pos.shadow, rules_.variant, board_), g_.cells, mask);
    mask[g_.cells] = swap_available(pos.shadow, rules_);
  }

 private:
  Outcome play(Position& pos, int action) const {
    const Color mover = pos.shadow.to_move;
    Outcome out;
    out.ended = play_action(pos.state, pos.shadow, g_, rules_, action, action < g_.cells ? g_.padded(action) : -1);
    if (out.ended) out.value = winner_of_connection(rules_.variant, mover) == mover ? 1.0f : -1.0f;
    return out;
  }

  Rules rules_;
  Geometry g_;
  Bitboard<W> board_;
  Position root_;
};

}  // namespace

void dirichlet(Rng& rng, double alpha, int n, float* out) {
  double total = 0.0;
  std::vector<double> draws(n);
  for (int k = 0; k < n; ++k) total += draws[k] = gamma(rng, alpha);
  for (int k = 0; k < n; ++k) out[k] = static_cast<float>(total > 0 ? draws[k] / total : 1.0 / n);
}

PuctSearch::PuctSearch(const PuctParams& params) : params_(params) { validate_puct_params(params); }

PuctSearch::~PuctSearch() = default;

SearchResult PuctSearch::search(const View& view, Evaluator& evaluator, const std::atomic<bool>* interrupt) {
  check_searchable(view);
  if (is_dark(view.rules.variant)) throw ConfigError("PuctSearch searches Hex and Rex; Dark Hex goes to DarkPuct");
  const Geometry g = make_geometry(view.rules.rows, view.rules.cols);
  return with_width(g.words, [&](auto w) {
    HexWalk<w.value> walk(view);
    return PuctTree<HexWalk<w.value>>(params_, walk, evaluator, interrupt).run();
  });
}

}  // namespace hexengine
