// The tree of the evaluator searches (PUCT with batched evaluation), shared
// by the Hex and Rex search (search/puct.cpp) and the Dark Hex one
// (dark/dark_puct.cpp), which differ only in how a simulation moves.
//
// Contract: a PuctTree<Walk> runs the search described in search/puct.h. The
// Walk says how one simulation moves through its game:
//
//   using Position = ...;                        // what a simulation plays on
//   int cells() const;                           // actions are 0 .. cells (the swap)
//   Position start(Rng& rng);                    // the root position (Dark Hex: a world)
//   Color to_move(const Position&) const;        // whose choice a position is
//   Outcome play(Position&, int action, Rng&);   // plays a root-side choice and what follows it
//   void observe(const Position&, float* planes, bool* mask) const;  // for the evaluator
//
// `play` returns whether the game ended (with its result for the player who
// chose the action) and an observation key: positions reached by the same
// action with the same key are one node of the tree (in Hex and Rex every key
// is 0; in Dark Hex it tells what the searcher saw happen).
//
// The tree's nodes live in a PuctNodes the caller owns, node 0 the root: a
// search may start from the subtree of an earlier one (`subtree`, tree
// reuse), whose visits stay in the result's and count as `reused`; a root
// already expanded gets its noise when the search starts.
#pragma once

#include <algorithm>
#include <chrono>
#include <cmath>
#include <exception>
#include <mutex>
#include <thread>
#include <vector>

#include "core/errors.h"
#include "core/planes.h"
#include "core/rng.h"
#include "search/evaluator.h"
#include "search/search.h"

namespace hexengine {

// Draws a Dirichlet(alpha, ..., alpha) vector of `n` components into `out`.
void dirichlet(Rng& rng, double alpha, int n, float* out);

// What a Walk's `play` did.
struct Outcome {
  // Whether the game ended, and then its result for the player who chose the action.
  bool ended = false;
  float value = 0.0f;
  // Positions with the same key after the same action are the same node.
  int key = 0;
};

// A move of the tree: its action, the evaluator's prior, the visits and the
// sum of values for the player choosing it, the walks now under way through
// it (virtual losses), and the first of the nodes it leads to.
struct PuctEdge {
  int32_t child = -1;
  int32_t visits = 0;
  float prior = 0.0f;
  float value_sum = 0.0f;
  int16_t action = 0;
  int16_t virtual_loss = 0;
};

// A node: its moves (edges[first .. first + count)), its player to move,
// whether it waits for the evaluator, has its moves, or ended the game (then
// `value` is the result for the player who chose the move into it), and the
// observation key that tells it from its siblings (the next one: `sibling`).
struct PuctNode {
  enum Kind : int8_t { kNew, kWaiting, kExpanded, kTerminal };
  int32_t first = -1;
  int32_t count = 0;
  int32_t visits = 0;
  int32_t sibling = -1;
  int32_t key = 0;
  Kind kind = kNew;
  Color to_move = Color::Red;
  float value = 0.0f;
};

// The nodes and edges of a tree, node 0 its root (empty: no tree yet).
struct PuctNodes {
  std::vector<PuctNode> nodes;
  std::vector<PuctEdge> edges;
};

// The subtree of `tree` under the node that `actions` (each followed to its
// first child) lead to from the root, as a tree of its own; empty when they
// leave the tree. Visits stay; positions waiting for the evaluator become new
// again, and no walk is under way.
PuctNodes subtree(const PuctNodes& tree, const std::vector<int>& actions);

template <class Walk>
class PuctTree {
 public:
  // Searches on `tree`: from its root if it has one (a tree kept from an
  // earlier search of this position), else from a new root.
  PuctTree(const PuctParams& p, Walk& walk, Evaluator& evaluator, const std::atomic<bool>* interrupt,
           PuctNodes& tree)
      : p_(p),
        walk_(walk),
        evaluator_(evaluator),
        interrupt_(interrupt),
        rng_(derive_seed(p.seed, 0)),
        nodes_(tree.nodes),
        edges_(tree.edges) {
    if (nodes_.empty()) {
      Rng first(derive_seed(p.seed, 1));
      nodes_.emplace_back();
      nodes_[0].to_move = walk_.to_move(walk_.start(first));
    }
    reused_ = static_cast<uint64_t>(nodes_[0].visits);
    if (nodes_[0].kind == Node::kExpanded) add_root_noise();
  }

  // Runs the search and returns its result; rethrows what the evaluator threw.
  SearchResult run() {
    const auto start = std::chrono::steady_clock::now();
    deadline_ = p_.seconds > 0 ? start + std::chrono::duration_cast<std::chrono::steady_clock::duration>(
                                             std::chrono::duration<double>(p_.seconds))
                               : std::chrono::steady_clock::time_point::max();
    std::vector<std::thread> helpers;
    for (int t = 1; t < p_.threads; ++t) helpers.emplace_back([this, t] { work(t); });
    work(0);
    for (auto& t : helpers) t.join();
    if (error_) std::rethrow_exception(error_);
    SearchResult r = result();
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    return r;
  }

 private:
  using Edge = PuctEdge;
  using Node = PuctNode;

  // One step of a simulation: the node it left and the edge it took.
  struct Step {
    int32_t node;
    int32_t edge;
  };

  // A simulation waiting in a batch for its position's evaluation.
  struct Pending {
    int32_t node = 0;
    std::vector<Step> path;
  };

  // A thread's loop: collect a batch, evaluate it, back it up, until the budget is spent.
  void work(int thread) {
    const int cells = walk_.cells(), size = kPlaneCount * cells, actions = cells + 1;
    std::vector<float> planes(static_cast<size_t>(p_.batch_size) * size);
    std::vector<uint8_t> masks(static_cast<size_t>(p_.batch_size) * actions);
    std::vector<float> priors(static_cast<size_t>(p_.batch_size) * actions), values(p_.batch_size);
    bool* mask = reinterpret_cast<bool*>(masks.data());
    std::vector<Pending> batch;
    Rng rng(derive_seed(p_.seed, 2 + static_cast<uint64_t>(thread)));
    try {
      while (!finished()) {
        {
          std::lock_guard<std::mutex> lock(mutex_);
          collect(batch, planes.data(), mask, rng);
        }
        if (batch.empty()) {
          std::this_thread::yield();  // every simulation met a position another thread is evaluating
          continue;
        }
        const auto before = std::chrono::steady_clock::now();
        evaluator_.evaluate(planes.data(), mask, static_cast<int>(batch.size()), priors.data(), values.data());
        const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - before).count();
        std::lock_guard<std::mutex> lock(mutex_);
        stats_.batches += 1;
        stats_.evaluated += batch.size();
        stats_.seconds += spent;
        for (size_t k = 0; k < batch.size(); ++k) {
          expand(batch[k].node, priors.data() + k * actions, mask + k * actions);
          backup(batch[k].path, nodes_[batch[k].node].to_move, values[k]);
          ++simulations_;
        }
        batch.clear();
      }
    } catch (...) {
      std::lock_guard<std::mutex> lock(mutex_);
      if (!error_) error_ = std::current_exception();
      stop_ = true;
    }
  }

  // Whether the search should stop (budget, time, interrupt or another thread's error).
  bool finished() {
    std::lock_guard<std::mutex> lock(mutex_);
    return finished_locked();
  }

  // finished() for a caller that holds the lock.
  bool finished_locked() {
    if ((p_.simulations > 0 && simulations_ >= p_.simulations) ||
        (interrupt_ && interrupt_->load(std::memory_order_relaxed)) || std::chrono::steady_clock::now() >= deadline_) {
      stop_ = true;
    }
    return stop_;
  }

  // Runs simulations from the root until `batch` holds batch_size positions, a
  // simulation meets a waiting position, or the budget would be spent; writes
  // each position's planes and legal-action flags.
  void collect(std::vector<Pending>& batch, float* planes, bool* masks, Rng& rng) {
    const int cells = walk_.cells();
    const uint64_t busy = simulations_ + waiting_;
    const uint64_t room = p_.simulations > 0 ? p_.simulations - std::min(p_.simulations, busy) : UINT64_MAX;
    const size_t want = static_cast<size_t>(std::min<uint64_t>(p_.batch_size, room));
    while (batch.size() < want && !finished_locked()) {
      auto position = walk_.start(rng);
      Pending sim;
      int32_t node = 0;
      for (;;) {
        if (nodes_[node].kind == Node::kTerminal) {
          // A finished game: its exact result goes back at once.
          backup(sim.path, nodes_[sim.path.back().node].to_move, nodes_[node].value);
          ++simulations_;
          break;
        }
        if (nodes_[node].kind == Node::kWaiting) {
          for (const Step& s : sim.path) --edges_[s.edge].virtual_loss;
          return;
        }
        if (nodes_[node].kind == Node::kNew) {
          nodes_[node].kind = Node::kWaiting;
          const size_t k = batch.size();
          walk_.observe(position, planes + k * kPlaneCount * cells, masks + k * (cells + 1));
          sim.node = node;
          batch.push_back(std::move(sim));
          ++waiting_;
          break;
        }
        const int32_t e = select(nodes_[node]);
        ++edges_[e].virtual_loss;
        sim.path.push_back({node, e});
        const Outcome outcome = walk_.play(position, edges_[e].action, rng);
        node = child(e, outcome, walk_.to_move(position));
      }
    }
  }

  // The node edge `e` leads to with `outcome`'s key, made if new.
  int32_t child(int32_t e, const Outcome& outcome, Color to_move) {
    int32_t last = -1;
    for (int32_t c = edges_[e].child; c >= 0; c = nodes_[c].sibling) {
      if (nodes_[c].key == outcome.key) return c;
      last = c;
    }
    Node made;
    made.key = outcome.key;
    made.to_move = to_move;
    if (outcome.ended) {
      made.kind = Node::kTerminal;
      made.value = outcome.value;
    }
    const int32_t index = static_cast<int32_t>(nodes_.size());
    nodes_.push_back(made);
    (last < 0 ? edges_[e].child : nodes_[last].sibling) = index;
    return index;
  }

  // The edge of `n` with the best PUCT score, virtual losses counted as losses.
  int32_t select(const Node& n) const {
    int32_t parent_visits = n.visits;
    for (int32_t e = n.first; e < n.first + n.count; ++e) parent_visits += edges_[e].virtual_loss;
    const double scale = p_.c_puct * std::sqrt(static_cast<double>(std::max(parent_visits, 1)));
    int32_t best = n.first;
    double best_score = -1e300;
    for (int32_t e = n.first; e < n.first + n.count; ++e) {
      const Edge& edge = edges_[e];
      const int32_t visits = edge.visits + edge.virtual_loss;
      const double q = visits > 0 ? (edge.value_sum - edge.virtual_loss) / visits : 0.0;
      const double score = q + scale * edge.prior / (1 + visits);
      if (score > best_score) {
        best_score = score;
        best = e;
      }
    }
    return best;
  }

  // Gives waiting node `node` its legal moves with the evaluator's priors
  // (renormalised over them; uniform if they have no weight), plus root noise.
  void expand(int32_t node, const float* prior, const bool* mask) {
    const int cells = walk_.cells();
    Node& n = nodes_[node];
    n.first = static_cast<int32_t>(edges_.size());
    double total = 0.0;
    for (int a = 0; a <= cells; ++a) {
      if (mask[a]) total += prior[a];
    }
    for (int a = 0; a <= cells; ++a) {
      if (!mask[a]) continue;
      Edge edge;
      edge.action = static_cast<int16_t>(a);
      edge.prior = static_cast<float>(total > 0 ? prior[a] / total : 0.0);
      edges_.push_back(edge);
    }
    n.count = static_cast<int32_t>(edges_.size()) - n.first;
    if (!(total > 0)) {
      for (int32_t e = n.first; e < n.first + n.count; ++e) edges_[e].prior = 1.0f / static_cast<float>(n.count);
    }
    n.kind = Node::kExpanded;
    --waiting_;
    if (node == 0) add_root_noise();
  }

  // Mixes Dirichlet noise into the root's priors (p_.noise_fraction of it).
  void add_root_noise() {
    const Node& n = nodes_[0];
    if (!(p_.noise_fraction > 0) || n.count == 0) return;
    std::vector<float> noise(n.count);
    dirichlet(rng_, p_.noise_alpha, n.count, noise.data());
    for (int32_t k = 0; k < n.count; ++k) {
      Edge& edge = edges_[n.first + k];
      edge.prior = static_cast<float>((1 - p_.noise_fraction) * edge.prior + p_.noise_fraction * noise[k]);
    }
  }

  // Adds `value` (for player `owner`) to every edge of `path`, for its chooser,
  // and lifts the path's virtual losses.
  void backup(const std::vector<Step>& path, Color owner, float value) {
    for (const Step& s : path) {
      Edge& edge = edges_[s.edge];
      edge.value_sum += nodes_[s.node].to_move == owner ? value : -value;
      ++edge.visits;
      --edge.virtual_loss;
      ++nodes_[s.node].visits;
    }
  }

  // The most visited of the edges of `n` (ties: the higher prior), or -1.
  int32_t most_visited(const Node& n) const {
    int32_t best = -1;
    for (int32_t e = n.first; e < n.first + n.count; ++e) {
      if (best < 0 || edges_[e].visits > edges_[best].visits ||
          (edges_[e].visits == edges_[best].visits && edges_[e].prior > edges_[best].prior)) {
        best = e;
      }
    }
    return best;
  }

  // Per cell the root's visits and win probabilities, the most visited move,
  // and the line of most visited moves (the first observation of each).
  SearchResult result() const {
    const int cells = walk_.cells();
    SearchResult r;
    r.visits.assign(cells, 0);
    r.values.assign(cells, -1.0);
    r.proven.assign(cells, 0);
    r.simulations = simulations_;
    r.reused = reused_;
    r.nodes = nodes_.size();
    r.evaluator = stats_;
    const Node& root = nodes_[0];
    double total = 0.0;
    for (int32_t e = root.first; e < root.first + root.count; ++e) {
      const Edge& edge = edges_[e];
      const double value = edge.visits > 0 ? 0.5 * (1.0 + edge.value_sum / edge.visits) : -1.0;
      if (edge.action == cells) {
        r.swap_value = value;
        r.swap_visits = static_cast<uint32_t>(edge.visits);
      } else {
        r.visits[edge.action] = static_cast<uint32_t>(edge.visits);
        r.values[edge.action] = value;
      }
      total += edge.value_sum;
    }
    const int32_t best = most_visited(root);
    if (best < 0) throw ConfigError("the search ended before its first evaluation: give it a larger budget");
    r.value = root.visits > 0 ? 0.5 * (1.0 + total / root.visits) : -1.0;
    r.best = edges_[best].action == cells ? kSwapMove : edges_[best].action;
    for (int32_t node = 0; node >= 0 && nodes_[node].kind == Node::kExpanded;) {
      const int32_t e = most_visited(nodes_[node]);
      if (e < 0 || edges_[e].visits == 0) break;
      r.pv.push_back(edges_[e].action == cells ? kSwapMove : edges_[e].action);
      node = edges_[e].child;
    }
    return r;
  }

  const PuctParams& p_;
  Walk& walk_;
  Evaluator& evaluator_;
  const std::atomic<bool>* interrupt_;
  Rng rng_;
  std::vector<Node>& nodes_;
  std::vector<Edge>& edges_;
  uint64_t reused_ = 0;  // the root's visits before this search
  std::mutex mutex_;
  std::chrono::steady_clock::time_point deadline_;
  uint64_t simulations_ = 0;
  uint64_t waiting_ = 0;
  bool stop_ = false;
  std::exception_ptr error_;
  EvaluatorStats stats_;
};

}  // namespace hexengine
