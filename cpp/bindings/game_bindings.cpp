// Bindings of the rules engine: rules, cells, Game and View.
#include "bindings/bindings.h"

#include "core/errors.h"
#include "core/game.h"
#include "core/notation.h"
#include "core/rules.h"
#include "core/view.h"

namespace hexengine::bindings {

namespace {

// Everything a View holds, as plain Python values (for pickling).
py::tuple view_state(const View& v) {
  std::vector<int8_t> board = v.board;
  return py::make_tuple(variant_name(v.rules.variant), v.rules.rows, v.rules.cols, swap_name(v.rules.swap),
                        color_to_py(v.viewer), py::bytes(reinterpret_cast<const char*>(board.data()), board.size()),
                        color_to_py(v.to_move), color_to_py(v.winner), static_cast<int>(v.end_reason),
                        v.hidden_stones, v.swap_available, history_to_py(v.history), v.completed_chain);
}

View view_from_state(const py::tuple& t) {
  if (t.size() != 13) throw RulesError("a view state has 13 fields");
  View v;
  v.rules = rules_from_py(t[0].cast<std::string>(), t[1].cast<int>(), t[2].cast<int>(), t[3].cast<std::string>());
  v.viewer = optional_color_from_py(t[4]);
  const std::string board = t[5].cast<std::string>();
  v.board.assign(board.begin(), board.end());
  v.to_move = optional_color_from_py(t[6]);
  v.winner = optional_color_from_py(t[7]);
  const int reason = t[8].cast<int>();
  if (reason < 0 || reason > 3) throw RulesError("an end reason is 0 to 3");
  v.end_reason = static_cast<EndReason>(reason);
  v.hidden_stones = t[9].cast<int>();
  v.swap_available = t[10].cast<bool>();
  v.history = history_from_py(t[11].cast<py::list>());
  v.completed_chain = t[12].cast<std::vector<int>>();
  validate_view(v);
  return v;
}

}  // namespace

void bind_game(py::module_& m) {
  m.def("check_rules",
        [](const std::string& variant, int rows, int cols, const std::string& swap) {
          const Rules r = rules_from_py(variant, rows, cols, swap);
          return py::make_tuple(variant_name(r.variant), r.rows, r.cols, swap_name(r.swap));
        },
        py::arg("variant"), py::arg("rows"), py::arg("cols"), py::arg("swap") = "",
        "Validates a rule set; returns (variant, rows, cols, swap) with the default swap filled in.");
  m.def("parse_cell", [](int rows, int cols, const std::string& text) {
    return parse_cell(make_geometry(rows, cols), text);
  }, "Public index of a cell name such as 'f6'.");
  m.def("cell_at", [](int rows, int cols, int row, int col) {
    return cell_at(make_geometry(rows, cols), row, col);
  }, "Public index of (row, col), checked.");
  m.def("checked_cell", [](int rows, int cols, long long cell) {
    return checked_cell(make_geometry(rows, cols), cell);
  }, "A public index, checked.");
  m.def("cell_name", [](int rows, int cols, long long cell) {
    const Geometry g = make_geometry(rows, cols);
    return cell_name(g, checked_cell(g, cell));
  }, "Name such as 'f6' of a public index.");

  py::class_<View>(m, "View")
      .def_property_readonly("variant", [](const View& v) { return variant_name(v.rules.variant); })
      .def_property_readonly("rows", [](const View& v) { return v.rules.rows; })
      .def_property_readonly("cols", [](const View& v) { return v.rules.cols; })
      .def_property_readonly("swap", [](const View& v) { return swap_name(v.rules.swap); })
      .def_property_readonly("viewer", [](const View& v) { return color_to_py(v.viewer); })
      .def_property_readonly("board", [](const View& v) { return board_array(v.board, v.rules.rows, v.rules.cols); })
      .def_property_readonly("to_move", [](const View& v) { return color_to_py(v.to_move); })
      .def_property_readonly("winner", [](const View& v) { return color_to_py(v.winner); })
      .def_property_readonly("end_reason", [](const View& v) { return static_cast<int>(v.end_reason); })
      .def_property_readonly("hidden_stones", [](const View& v) { return v.hidden_stones; })
      .def_property_readonly("completed_chain", [](const View& v) { return v.completed_chain; })
      .def_property_readonly("hits_received", &View::hits_received)
      .def_property_readonly("swap_available", [](const View& v) { return v.swap_available; })
      .def_property_readonly("history", [](const View& v) { return history_to_py(v.history); })
      .def("legal_moves", &View::legal_moves)
      .def("state", &view_state, "Every field as plain values; View.from_state rebuilds it.")
      .def_static("from_state", &view_from_state, "Rebuilds and validates a view from View.state().");

  py::class_<Game>(m, "Game")
      .def(py::init([](const std::string& variant, int rows, int cols, const std::string& swap) {
             return Game(rules_from_py(variant, rows, cols, swap));
           }),
           py::arg("variant"), py::arg("rows"), py::arg("cols"), py::arg("swap") = "")
      .def("copy", [](const Game& g) { return Game(g); })
      .def_property_readonly("variant", [](const Game& g) { return variant_name(g.rules().variant); })
      .def_property_readonly("rows", [](const Game& g) { return g.rules().rows; })
      .def_property_readonly("cols", [](const Game& g) { return g.rules().cols; })
      .def_property_readonly("swap_form", [](const Game& g) { return swap_name(g.rules().swap); })
      .def_property_readonly("to_move", [](const Game& g) { return color_to_py(g.to_move()); })
      .def_property_readonly("is_over", &Game::is_over)
      .def_property_readonly("winner", [](const Game& g) { return color_to_py(g.winner()); })
      .def_property_readonly("end_reason", [](const Game& g) { return static_cast<int>(g.end_reason()); })
      .def_property_readonly("swap_available", &Game::swap_available)
      .def("play", [](Game& g, long long cell) {
        return static_cast<int>(g.play(checked_cell(g.geometry(), cell)));
      })
      .def("swap", [](Game& g) { return static_cast<int>(g.swap()); })
      .def("resign", [](Game& g, int color) { g.resign(color_from_py(color)); })
      .def("timeout", [](Game& g, int color) { g.timeout(color_from_py(color)); })
      .def("legal_moves", &Game::legal_moves)
      .def("completed_chain", &Game::completed_chain)
      .def("history", [](const Game& g) { return history_to_py(g.history()); })
      .def("board", [](const Game& g) { return board_array(g.board(), g.rules().rows, g.rules().cols); })
      .def("board_after", [](const Game& g, int actions) {
        return board_array(g.board_after(actions), g.rules().rows, g.rules().cols);
      })
      .def("view", [](const Game& g, int color) { return g.view(color_from_py(color)); })
      .def("spectator_view", &Game::spectator_view);
}

}  // namespace hexengine::bindings
