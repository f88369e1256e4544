// Bindings of playouts and search. Every call releases the GIL while C++ runs.
#include <algorithm>
#include <cmath>

#include "bindings/bindings.h"
#include "bot/mcts_bot.h"
#include "core/errors.h"
#include "core/game.h"
#include "search/machine_probe.h"
#include "search/patterns.h"
#include "search/playout.h"

namespace hexengine::bindings {

namespace {

// A search result as a dict of plain values and numpy arrays.
py::dict result_to_py(const SearchResult& r, int rows, int cols) {
  py::array_t<uint32_t> visits({rows, cols});
  std::copy(r.visits.begin(), r.visits.end(), visits.mutable_data());
  py::array_t<double> values({rows, cols});
  double* out = values.mutable_data();
  for (size_t i = 0; i < r.values.size(); ++i) out[i] = r.values[i] < 0 ? std::nan("") : r.values[i];
  py::array_t<int8_t> proven({rows, cols});
  std::copy(r.proven.begin(), r.proven.end(), proven.mutable_data());
  py::dict d;
  d["best"] = r.best;
  d["proven"] = proven;
  d["value"] = r.value < 0 ? py::object(py::none()) : py::object(py::float_(r.value));
  d["visits"] = visits;
  d["values"] = values;
  d["swap_value"] = r.swap_value < 0 ? py::object(py::none()) : py::object(py::float_(r.swap_value));
  d["pv"] = r.pv;
  d["simulations"] = r.simulations;
  d["seconds"] = r.seconds;
  d["nodes"] = r.nodes;
  d["reused"] = r.reused;
  d["forced"] = r.forced;
  if (!r.occupied.empty()) {
    py::array_t<double> occupied({rows, cols});
    std::copy(r.occupied.begin(), r.occupied.end(), occupied.mutable_data());
    d["occupied"] = occupied;
  }
  return d;
}

}  // namespace

void bind_search(py::module_& m) {
  m.attr("MAX_THREADS") = kMaxThreads;
  m.def(
      "random_playouts",
      [](const Game& game, long long n, unsigned long long seed, int threads) {
        if (n < 0) throw ConfigError("the number of playouts must be at least 0, not " + std::to_string(n));
        const PlayoutCounts counts = interruptible([&](const std::atomic<bool>& stop) {
          return random_playouts(game, static_cast<uint64_t>(n), seed, threads, &stop);
        });
        return py::make_tuple(counts.wins[0], counts.wins[1]);
      },
      py::arg("game"), py::arg("n"), py::arg("seed"), py::arg("threads"),
      "Random games from the game's true position: (red wins, blue wins).");

  m.def(
      "floor_playouts",
      [](int rows, int cols, unsigned long long n, unsigned long long seed) {
        py::gil_scoped_release release;
        return floor_playouts(rows, cols, n, seed);
      },
      "Benchmark floor: shuffle, fill and check an empty board n times; returns Red's wins.");

  m.def(
      "cache_handoff_ns",
      [](int64_t handoffs) {
        py::gil_scoped_release release;
        return cache_handoff_ns(handoffs);
      },
      py::arg("handoffs") = 2000,
      "Benchmark probe: nanoseconds one cache line takes to pass between two CPUs (median over 15 lines of fresh memory).");

  m.def(
      "cell_patterns",
      [](const View& view) {
        const CellPatterns p = cell_patterns(view);
        const int rows = view.rules.rows, cols = view.rules.cols;
        py::array_t<int32_t> key({rows, cols}), inner({rows, cols});
        py::array_t<int8_t> last({rows, cols});
        py::array_t<float> weight({rows, cols});
        std::copy(p.key.begin(), p.key.end(), key.mutable_data());
        std::copy(p.inner.begin(), p.inner.end(), inner.mutable_data());
        std::copy(p.last.begin(), p.last.end(), last.mutable_data());
        std::copy(p.weight.begin(), p.weight.end(), weight.mutable_data());
        return py::make_tuple(key, inner, last, weight);
      },
      py::arg("view"),
      "Per cell for the player to move: (pattern key, neighbours' key, last-move class, prior log-weight).");

  // The bot of bot/mcts_bot.h, under the name hexengine.MCTSBot (bots.py) has always wrapped.
  py::class_<MctsBot>(m, "Mcts")
      .def(py::init([](unsigned long long simulations, double seconds, int threads, unsigned long long seed,
                       unsigned long long max_nodes, bool reuse_tree, bool allow_swap, bool knowledge, bool patterns,
                       double rave_equivalence, double exploration, unsigned expand_threshold,
                       double rex_endgame, unsigned knowledge_visits, std::optional<unsigned long long> solver_nodes,
                       int solver_empties, bool swindle, double opponent_model, double prior,
                       double prior_bias, unsigned amaf_sample_visits, unsigned shadow_visits) {
             SearchParams p;
             p.simulations = simulations;
             p.seconds = seconds;
             p.threads = threads;  // validate_params checks it
             p.seed = seed;
             p.max_nodes = max_nodes;
             p.reuse_tree = reuse_tree;
             p.allow_swap = allow_swap;
             p.knowledge = knowledge;
             p.patterns = patterns;
             p.rave_equivalence = rave_equivalence;
             p.exploration = exploration;
             p.expand_threshold = expand_threshold;
             p.rex_endgame = rex_endgame;
             p.knowledge_visits = knowledge_visits;
             p.solver_nodes = solver_nodes.value_or(kDefaultSolverNodes);  // None: the rules' default
             p.solver_empties = solver_empties;
             p.swindle = swindle;
             p.opponent_model = opponent_model;
             p.prior = prior;
             p.prior_bias = prior_bias;
             p.amaf_sample_visits = amaf_sample_visits;
             p.shadow_visits = shadow_visits;
             return std::make_unique<MctsBot>(p);
           }),
           py::arg("simulations"), py::arg("seconds"), py::arg("threads"), py::arg("seed"), py::arg("max_nodes"),
           py::arg("reuse_tree"), py::arg("allow_swap"), py::arg("knowledge"), py::arg("patterns"),
           py::arg("rave_equivalence"), py::arg("exploration"), py::arg("expand_threshold"),
           py::arg("rex_endgame"), py::arg("knowledge_visits"), py::arg("solver_nodes"),
           py::arg("solver_empties"), py::arg("swindle"), py::arg("opponent_model"), py::arg("prior"),
           py::arg("prior_bias"), py::arg("amaf_sample_visits"), py::arg("shadow_visits"))
      .def("search",
           [](MctsBot& mcts, const View& view) {
             const SearchResult r =
                 interruptible([&](const std::atomic<bool>& stop) { return mcts.search(view, &stop); });
             return result_to_py(r, view.rules.rows, view.rules.cols);
           })
      .def("clear", [](MctsBot& mcts) {
        py::gil_scoped_release release;
        mcts.clear();
      });
}

}  // namespace hexengine::bindings
