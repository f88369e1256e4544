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

// The evaluator search's action for an action of the record: its cell, or the swap (`cells`).
int tree_action(const Action& a, int cells) { return a.result == MoveResult::Swapped ? cells : a.cell; }

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
    for (const Action& a : view.history) play(root_, tree_action(a, g_.cells));
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

PuctNodes subtree(const PuctNodes& tree, const std::vector<int>& actions) {
  int32_t node = tree.nodes.empty() ? -1 : 0;
  for (size_t i = 0; i < actions.size() && node >= 0; ++i) {
    const PuctNode& n = tree.nodes[node];
    int32_t next = -1;
    if (n.kind == PuctNode::kExpanded) {
      for (int32_t e = n.first; e < n.first + n.count; ++e) {
        if (tree.edges[e].action == actions[i]) next = tree.edges[e].child;
      }
    }
    node = next;
  }
  PuctNodes out;
  if (node < 0) return out;
  // Breadth first: each node's edges side by side, as the search lays them out.
  std::vector<int32_t> from;
  const auto take = [&](int32_t old) {
    PuctNode n = tree.nodes[old];
    n.sibling = -1;
    if (n.kind == PuctNode::kWaiting) n.kind = PuctNode::kNew;
    from.push_back(old);
    out.nodes.push_back(n);
    return static_cast<int32_t>(out.nodes.size() - 1);
  };
  take(node);
  for (size_t k = 0; k < from.size(); ++k) {
    const PuctNode& old = tree.nodes[from[k]];
    if (out.nodes[k].kind != PuctNode::kExpanded) continue;  // no edges (first -1, count 0)
    out.nodes[k].first = static_cast<int32_t>(out.edges.size());
    for (int32_t e = old.first; e < old.first + old.count; ++e) {
      PuctEdge edge = tree.edges[e];
      edge.virtual_loss = 0;
      edge.child = -1;
      int32_t last = -1;
      for (int32_t c = tree.edges[e].child; c >= 0; c = tree.nodes[c].sibling) {
        const int32_t made = take(c);
        (last < 0 ? edge.child : out.nodes[last].sibling) = made;
        last = made;
      }
      out.edges.push_back(edge);
    }
  }
  return out;
}

struct PuctMemory::Kept {
  PuctNodes tree;
  Rules rules;
  std::vector<Action> history;
};

PuctMemory::PuctMemory() = default;
PuctMemory::~PuctMemory() = default;
void PuctMemory::clear() { kept_.reset(); }

PuctSearch::PuctSearch(const PuctParams& params) : params_(params) { validate_puct_params(params); }

PuctSearch::~PuctSearch() = default;

SearchResult PuctSearch::search(const View& view, Evaluator& evaluator, const std::atomic<bool>* interrupt,
                                PuctMemory* memory) {
  check_searchable(view);
  if (is_dark(view.rules.variant)) throw ConfigError("PuctSearch searches Hex and Rex; Dark Hex goes to DarkPuct");
  const Geometry g = make_geometry(view.rules.rows, view.rules.cols);
  PuctNodes tree;
  const PuctMemory::Kept* kept = memory ? memory->kept_.get() : nullptr;
  const std::vector<Action>& h = view.history;
  if (kept && kept->rules == view.rules && continues(h, kept->history)) {
    std::vector<int> since;
    for (size_t i = kept->history.size(); i < h.size(); ++i) since.push_back(tree_action(h[i], g.cells));
    tree = subtree(kept->tree, since);
  }
  if (memory) memory->clear();  // an evaluator that throws leaves no tree behind
  SearchResult r = with_width(g.words, [&](auto w) {
    HexWalk<w.value> walk(view);
    return PuctTree<HexWalk<w.value>>(params_, walk, evaluator, interrupt, tree).run();
  });
  if (memory) memory->kept_.reset(new PuctMemory::Kept{std::move(tree), view.rules, h});
  return r;
}

}  // namespace hexengine
