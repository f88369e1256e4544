// Bindings of the tiny-board Dark Hex solver: trees, CFR+, counts and evaluation,
// and the exact best response to the greedy player.
#include <memory>
#include <optional>
#include <tuple>

#include "bindings/bindings.h"
#include "core/errors.h"
#include "dark/cfr.h"
#include "dark/greedy_response.h"

namespace hexengine::bindings {

namespace {

// 0 (Red) or 1 (Blue) from the boundary's 1 or 2.
int color_index(int color) { return index_of(color_from_py(color)); }

// A policy from two probability arrays (Red's sequences, then Blue's).
DarkPolicy policy_from_py(const py::array_t<double, py::array::c_style | py::array::forcecast>& red,
                          const py::array_t<double, py::array::c_style | py::array::forcecast>& blue) {
  DarkPolicy policy;
  const py::array_t<double, py::array::c_style | py::array::forcecast>* arrays[2] = {&red, &blue};
  for (int c = 0; c < 2; ++c) {
    if (arrays[c]->ndim() != 1) throw ConfigError("policy probabilities must be one-dimensional arrays");
    policy.prob[c].assign(arrays[c]->data(), arrays[c]->data() + arrays[c]->size());
  }
  return policy;
}

py::array_t<double> to_array(const std::vector<double>& v) {
  py::array_t<double> out(static_cast<py::ssize_t>(v.size()));
  std::copy(v.begin(), v.end(), out.mutable_data());
  return out;
}

py::tuple evaluation_to_py(const DarkEvaluation& e) {
  return py::make_tuple(e.value, e.best_response[0], e.best_response[1]);
}

}  // namespace

void bind_darkcfr(py::module_& m) {
  m.def(
      "greedy_best_response",
      [](const std::string& variant, int rows, int cols, int responder, long long max_states,
         std::optional<double> target, std::optional<int> reveal_after) {
        const Rules rules = rules_from_py(variant, rows, cols, "off");
        const Color me = color_from_py(responder);
        if (max_states < 0) {
          throw ConfigError("max_states must be a number of states (0 for no limit), not " + std::to_string(max_states));
        }
        const GreedyResponse r = interruptible([&](const std::atomic<bool>& stop) {
          return greedy_best_response(rules, me, static_cast<uint64_t>(max_states), &stop, target, reveal_after);
        });
        const char* bound = r.bound == GreedyBound::AtMost    ? "at most"
                            : r.bound == GreedyBound::AtLeast ? "at least"
                                                              : "exact";
        return py::make_tuple(r.complete ? py::object(py::float_(r.value)) : py::none(), r.decisions + r.informed,
                              r.greedy_turns, r.complete ? py::object(py::str(bound)) : py::none());
      },
      py::arg("variant"), py::arg("rows"), py::arg("cols"), py::arg("responder"), py::arg("max_states") = 0,
      py::arg("target") = py::none(), py::arg("reveal_after") = py::none(),
      "(value or None when stopped at max_states, decisions, greedy turns, 'exact' or a bound) of the exact best "
      "response of colour `responder` (1 Red, 2 Blue) to the greedy player. With a `target`, only whether the "
      "value is above it: (target, ..., 'at most') or (a value above it, ..., 'at least'). With `reveal_after`, "
      "the value of a responder told every hidden stone once it has that many stones, an upper bound on the "
      "exact one (decisions then count its told positions too). Ctrl-C stops it.");

  py::class_<GreedyResponder>(m, "GreedyResponder")
      .def(py::init([](const std::string& variant, int rows, int cols, int responder, long long max_states) {
             if (max_states < 0) {
               throw ConfigError("max_states must be a number of states (0 for no limit), not " +
                                 std::to_string(max_states));
             }
             return std::make_unique<GreedyResponder>(rules_from_py(variant, rows, cols, "off"),
                                                      color_from_py(responder), static_cast<uint64_t>(max_states));
           }),
           py::arg("variant"), py::arg("rows"), py::arg("cols"), py::arg("responder"), py::arg("max_states") = 0)
      .def(
          "move_values",
          [](GreedyResponder& r, uint64_t mine, uint64_t seen, const std::vector<std::tuple<uint64_t, uint64_t, double>>& belief) {
            std::vector<GreedyHidden> b;
            for (const auto& [own, found, w] : belief) b.push_back({own, found, w});
            return interruptible([&](const std::atomic<bool>& stop) { return r.move_values(mine, seen, b, &stop); });
          },
          py::arg("mine"), py::arg("seen"), py::arg("belief"),
          "Per public cell, the exact value of each move at a decision (-1: not a move); cells are bits r*cols+c, "
          "the belief (greedy stones, found responder stones, weight) triples. Ctrl-C stops it.")
      .def_property_readonly("decisions", &GreedyResponder::decisions);

  m.attr("DARK_TREE_MAX_HISTORIES") = kTinyMaxHistories;
  m.attr("DARK_TREE_MAX_CELLS") = kTinyMaxCells;
  m.attr("DARK_CFR_MAX_ITERATIONS") = kCfrMaxIterations;

  m.def(
      "dark_tree_size",
      [](const std::string& variant, int rows, int cols, double history_limit, double belief_limit,
         bool silent_hits) {
        const Rules rules = rules_from_py(variant, rows, cols, "");
        DarkTreeSize s;
        {
          py::gil_scoped_release release;
          s = count_dark_tree(rules, history_limit, belief_limit, silent_hits);
        }
        py::dict d;
        d["histories"] = s.histories;
        d["terminals"] = s.terminals;
        d["histories_complete"] = s.histories_complete;
        d["infosets"] = py::make_tuple(s.infosets[0], s.infosets[1]);
        d["sequences"] = py::make_tuple(s.sequences[0], s.sequences[1]);
        d["infosets_complete"] = s.infosets_complete;
        return d;
      },
      py::arg("variant"), py::arg("rows"), py::arg("cols"), py::arg("history_limit"), py::arg("belief_limit"),
      py::arg("silent_hits") = false,
      "Counts histories, information sets and sequences of a Dark Hex tree without building it.");

  py::class_<DarkTree>(m, "DarkTree")
      .def(py::init([](const std::string& variant, int rows, int cols, bool silent_hits) {
             const Rules rules = rules_from_py(variant, rows, cols, "");
             return interruptible([&](const std::atomic<bool>& stop) {
               return std::make_unique<DarkTree>(rules, silent_hits, &stop);
             });
           }),
           py::arg("variant"), py::arg("rows"), py::arg("cols"), py::arg("silent_hits") = false)
      .def_property_readonly("variant", [](const DarkTree& t) { return variant_name(t.rules().variant); })
      .def_property_readonly("rows", [](const DarkTree& t) { return t.rules().rows; })
      .def_property_readonly("cols", [](const DarkTree& t) { return t.rules().cols; })
      .def_property_readonly("silent_hits", &DarkTree::silent_hits)
      .def_property_readonly("histories", &DarkTree::histories)
      .def_property_readonly("terminals", &DarkTree::terminals)
      .def_property_readonly("memory_bytes", &DarkTree::memory_bytes)
      .def_property_readonly("infosets",
                             [](const DarkTree& t) { return py::make_tuple(t.infosets(0).size(), t.infosets(1).size()); })
      .def_property_readonly("sequences",
                             [](const DarkTree& t) { return py::make_tuple(t.sequences(0), t.sequences(1)); })
      .def(
          "infoset_view",
          [](const DarkTree& t, int color, int index) { return t.infoset_view(color_index(color), index); },
          py::arg("color"), py::arg("index"), "The view of the player of an information set (colour 1 or 2).")
      .def("infoset_of", &DarkTree::infoset_of, py::arg("view"),
           "Index of the information set of the view's player (who must be to move).")
      .def(
          "first_sequence",
          [](const DarkTree& t, int color, int index) {
            const auto& sets = t.infosets(color_index(color));
            if (index < 0 || index >= static_cast<int>(sets.size())) throw ConfigError("no such information set");
            return sets[index].first_seq;
          },
          py::arg("color"), py::arg("index"))
      .def(
          "evaluate",
          [](const DarkTree& t, const py::array_t<double, py::array::c_style | py::array::forcecast>& red,
             const py::array_t<double, py::array::c_style | py::array::forcecast>& blue) {
            const DarkPolicy policy = policy_from_py(red, blue);
            DarkEvaluation e;
            {
              py::gil_scoped_release release;
              e = evaluate(t, policy);
            }
            return evaluation_to_py(e);
          },
          py::arg("red"), py::arg("blue"),
          "(value for Red, Red's best response value, Blue's best response value) of a policy given as one "
          "probability per sequence: information sets in index order, their legal cells ascending.");

  py::class_<DarkCfr>(m, "DarkCfr")
      .def(py::init<const DarkTree&>(), py::arg("tree"), py::keep_alive<1, 2>())
      .def(
          "run",
          [](DarkCfr& cfr, int iterations) {
            interruptible([&](const std::atomic<bool>& stop) {
              cfr.run(iterations, &stop);
              return cfr.iterations();
            });
          },
          py::arg("iterations"),
          "Runs that many more CFR+ iterations; Ctrl-C stops it after the iteration under way.")
      .def_property_readonly("iterations", &DarkCfr::iterations)
      .def("average_policy",
           [](const DarkCfr& cfr) {
             const DarkPolicy p = cfr.average_policy();
             return py::make_tuple(to_array(p.prob[0]), to_array(p.prob[1]));
           })
      .def("evaluate_average",
           [](const DarkCfr& cfr) {
             DarkEvaluation e;
             {
               py::gil_scoped_release release;
               e = evaluate(cfr.tree(), cfr.average_policy());
             }
             return evaluation_to_py(e);
           })
      .def("evaluate_purified", [](const DarkCfr& cfr) {
        DarkEvaluation e;
        {
          py::gil_scoped_release release;
          e = evaluate(cfr.tree(), purified(cfr.tree(), cfr.average_policy()));
        }
        return evaluation_to_py(e);
      });
}

}  // namespace hexengine::bindings
