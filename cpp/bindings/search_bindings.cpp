// Bindings of playouts and search. Every call releases the GIL while C++ runs.
#include <algorithm>
#include <cmath>
#include <optional>

#include "bindings/bindings.h"
#include "bot/evaluator_bot.h"
#include "bot/mcts_bot.h"
#include "core/errors.h"
#include "core/game.h"
#include "core/planes.h"
#include "search/machine_probe.h"
#include "search/patterns.h"
#include "search/playout.h"

namespace hexengine::bindings {

namespace {

// The budget of one search when the caller gives one (a missing half is 0:
// no cap, no limit), else none: the bot's own.
std::optional<Budget> budget_of(std::optional<unsigned long long> simulations, std::optional<double> seconds) {
  if (!simulations && !seconds) return std::nullopt;
  return Budget{simulations.value_or(0), seconds.value_or(0.0)};
}

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
  d["swap_visits"] = r.swap_visits;
  d["pv"] = r.pv;
  d["simulations"] = r.simulations;
  d["seconds"] = r.seconds;
  d["nodes"] = r.nodes;
  d["endgame_nodes"] = r.endgame_nodes;
  d["endgame_playouts"] = r.endgame_playouts;
  d["reused"] = r.reused;
  d["forced"] = r.forced;
  if (!r.occupied.empty()) {
    py::array_t<double> occupied({rows, cols});
    std::copy(r.occupied.begin(), r.occupied.end(), occupied.mutable_data());
    d["occupied"] = occupied;
  }
  d["batches"] = r.evaluator.batches;
  d["evaluated"] = r.evaluator.evaluated;
  d["evaluator_seconds"] = r.evaluator.seconds;
  return d;
}

// An Evaluator that calls a Python function fn(planes, mask) -> (priors,
// values), holding the GIL only for the call, and checks what it returns:
// a clear ConfigError for anything else than floating-point arrays of the
// right shapes, finite, priors >= 0 and values in [-1, 1].
class PyEvaluator final : public Evaluator {
 public:
  PyEvaluator(py::object fn, int rows, int cols) : fn_(std::move(fn)), rows_(rows), cols_(cols) {}

  void evaluate(const float* planes, const bool* masks, int batch, float* priors, float* values) override {
    py::gil_scoped_acquire gil;
    const py::ssize_t actions = rows_ * cols_ + 1;
    py::array_t<float> p({static_cast<py::ssize_t>(batch), static_cast<py::ssize_t>(kPlaneCount),
                          static_cast<py::ssize_t>(rows_), static_cast<py::ssize_t>(cols_)});
    std::copy(planes, planes + p.size(), p.mutable_data());
    py::array_t<bool> m({static_cast<py::ssize_t>(batch), actions});
    std::copy(masks, masks + m.size(), m.mutable_data());
    const py::object out = fn_(p, m);
    if (!py::isinstance<py::tuple>(out) && !py::isinstance<py::list>(out)) {
      throw ConfigError("the evaluator must return (priors, values), not " + type_name(out));
    }
    const py::sequence pair = out;
    if (pair.size() != 2) {
      throw ConfigError("the evaluator must return (priors, values): 2 items, not " + std::to_string(pair.size()));
    }
    const auto got_priors = floats(pair[0], "priors", {batch, actions}, {});
    const auto got_values = floats(pair[1], "values", {batch}, {batch, 1});
    for (py::ssize_t i = 0; i < got_priors.size(); ++i) {
      const float x = got_priors.data()[i];
      if (!std::isfinite(x) || x < 0) {
        throw ConfigError("the evaluator's priors must be finite and at least 0; position " +
                          std::to_string(i / actions) + ", action " + std::to_string(i % actions) + " has " +
                          std::to_string(x));
      }
      priors[i] = x;
    }
    for (py::ssize_t i = 0; i < got_values.size(); ++i) {
      const float x = got_values.data()[i];
      if (!std::isfinite(x) || x < -1.0f - 1e-5f || x > 1.0f + 1e-5f) {
        throw ConfigError("the evaluator's values must be finite and between -1 and 1; position " +
                          std::to_string(i) + " has " + std::to_string(x));
      }
      values[i] = std::clamp(x, -1.0f, 1.0f);
    }
  }

 private:
  // The name of `x`'s type, for messages.
  static std::string type_name(const py::handle& x) { return py::str(py::type::of(x).attr("__name__")); }

  // `x` as a float32 array of shape `shape` (or `other`, if given); ConfigError otherwise.
  static py::array_t<float> floats(const py::handle& x, const char* what, std::vector<py::ssize_t> shape,
                                   std::vector<py::ssize_t> other) {
    py::array a = py::array::ensure(x);
    if (!a) {
      PyErr_Clear();
      throw ConfigError(std::string("the evaluator's ") + what + " must be a numpy array, not " + type_name(x));
    }
    if (a.dtype().kind() != 'f') {
      throw ConfigError(std::string("the evaluator's ") + what + " must be floating-point, not " +
                        py::str(a.dtype()).cast<std::string>());
    }
    const std::vector<py::ssize_t> got(a.shape(), a.shape() + a.ndim());
    if (got != shape && got != other) {
      auto text = [](const std::vector<py::ssize_t>& s) {
        std::string t = "(";
        for (size_t i = 0; i < s.size(); ++i) t += (i ? ", " : "") + std::to_string(s[i]);
        return t + (s.size() == 1 ? ",)" : ")");
      };
      throw ConfigError(std::string("the evaluator's ") + what + " must have shape " + text(shape) + ", not " +
                        text(got));
    }
    return py::array_t<float, py::array::c_style | py::array::forcecast>::ensure(a);
  }

  py::object fn_;
  int rows_, cols_;
};

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

  // The evaluator bot of bot/evaluator_bot.h, behind hx.MCTSBot(evaluator=...).
  py::class_<EvaluatorBot>(m, "EvaluatorBot")
      .def(py::init([](unsigned long long simulations, double seconds, int threads, int batch_size, double c_puct,
                       double noise_fraction, double noise_alpha, unsigned long long seed, bool reuse_tree) {
             PuctParams p;
             p.simulations = simulations;
             p.seconds = seconds;
             p.threads = threads;
             p.batch_size = batch_size;
             p.c_puct = c_puct;
             p.noise_fraction = noise_fraction;
             p.noise_alpha = noise_alpha;
             p.seed = seed;
             p.reuse_tree = reuse_tree;
             return std::make_unique<EvaluatorBot>(p);
           }),
           py::arg("simulations"), py::arg("seconds"), py::arg("threads"), py::arg("batch_size"), py::arg("c_puct"),
           py::arg("noise_fraction"), py::arg("noise_alpha"), py::arg("seed"), py::arg("reuse_tree") = true)
      .def("clear", &EvaluatorBot::clear, "Forgets the kept tree.")
      .def(
          "search",
          [](EvaluatorBot& bot, const View& view, py::object fn, std::optional<unsigned long long> simulations,
             std::optional<double> seconds) {
            const std::optional<Budget> budget = budget_of(simulations, seconds);
            PyEvaluator evaluator(std::move(fn), view.rules.rows, view.rules.cols);
            const SearchResult r = interruptible([&](const std::atomic<bool>& stop) {
              return budget ? bot.search(view, evaluator, *budget, &stop) : bot.search(view, evaluator, &stop);
            });
            return result_to_py(r, view.rules.rows, view.rules.cols);
          },
          py::arg("view"), py::arg("evaluator"), py::arg("simulations") = std::nullopt,
          py::arg("seconds") = std::nullopt);

  // The bot of bot/mcts_bot.h, under the name hexengine.MCTSBot (bots.py) has always wrapped.
  py::class_<MctsBot>(m, "Mcts")
      .def(py::init([](unsigned long long simulations, double seconds, int threads, unsigned long long seed,
                       unsigned long long max_nodes, bool reuse_tree, bool allow_swap, bool knowledge, bool patterns,
                       double rave_equivalence, double rave_initial_weight, double exploration,
                       unsigned expand_threshold,
                       double rex_endgame, unsigned knowledge_visits, unsigned inferior_visits, bool inferior_fill, std::optional<unsigned long long> solver_nodes,
                       int solver_empties, bool swindle, double opponent_model, double prior,
                       double prior_bias, unsigned amaf_sample_visits, unsigned shadow_visits, double greedy_playouts,
                       double greedy_opponent, double greedy_worlds) {
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
             p.rave_initial_weight = rave_initial_weight;
             p.exploration = exploration;
             p.expand_threshold = expand_threshold;
             p.rex_endgame = rex_endgame;
             p.knowledge_visits = knowledge_visits;
             p.inferior_visits = inferior_visits;
             p.inferior_fill = inferior_fill;
             p.solver_nodes = solver_nodes.value_or(kDefaultSolverNodes);  // None: the rules' default
             p.solver_empties = solver_empties;
             p.swindle = swindle;
             p.opponent_model = opponent_model;
             p.prior = prior;
             p.prior_bias = prior_bias;
             p.amaf_sample_visits = amaf_sample_visits;
             p.shadow_visits = shadow_visits;
             p.greedy_playouts = greedy_playouts;
             p.greedy_opponent = greedy_opponent;
             p.greedy_worlds = greedy_worlds;
             return std::make_unique<MctsBot>(p);
           }),
           py::arg("simulations"), py::arg("seconds"), py::arg("threads"), py::arg("seed"), py::arg("max_nodes"),
           py::arg("reuse_tree"), py::arg("allow_swap"), py::arg("knowledge"), py::arg("patterns"),
           py::arg("rave_equivalence"), py::arg("rave_initial_weight"), py::arg("exploration"),
           py::arg("expand_threshold"),
           py::arg("rex_endgame"), py::arg("knowledge_visits"), py::arg("inferior_visits"), py::arg("inferior_fill"),
           py::arg("solver_nodes"),
           py::arg("solver_empties"), py::arg("swindle"), py::arg("opponent_model"), py::arg("prior"),
           py::arg("prior_bias"), py::arg("amaf_sample_visits"), py::arg("shadow_visits"),
           py::arg("greedy_playouts"), py::arg("greedy_opponent"), py::arg("greedy_worlds"))
      .def(
          "search",
          [](MctsBot& mcts, const View& view, std::optional<unsigned long long> simulations,
             std::optional<double> seconds) {
            const std::optional<Budget> budget = budget_of(simulations, seconds);
            const SearchResult r = interruptible([&](const std::atomic<bool>& stop) {
              return budget ? mcts.search(view, *budget, &stop) : mcts.search(view, &stop);
            });
            return result_to_py(r, view.rules.rows, view.rules.cols);
          },
          py::arg("view"), py::arg("simulations") = std::nullopt, py::arg("seconds") = std::nullopt)
      .def("clear", [](MctsBot& mcts) {
        py::gil_scoped_release release;
        mcts.clear();
      });
}

}  // namespace hexengine::bindings
