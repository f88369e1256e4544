// Bindings of the rules engine: rules, cells, Game and View.
#include "bindings/bindings.h"

#include "core/distance.h"
#include "core/errors.h"
#include "core/game.h"
#include "core/notation.h"
#include "core/planes.h"
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

// The observation planes of `view` (core/planes.h), as bools or float32.
py::array view_planes(const View& view, bool as_float) {
  const auto p = perspective_of(view);
  const int rows = view.rules.rows, cols = view.rules.cols;
  const std::vector<py::ssize_t> shape{kPlaneCount, rows, cols};
  if (as_float) {
    py::array_t<float> out(shape);
    write_planes(p, rows * cols, out.mutable_data());
    return out;
  }
  py::array_t<bool> out(shape);
  write_planes(p, rows * cols, out.mutable_data());
  return out;
}

// The legal actions of `view` for its viewer (none unless the viewer is to move).
std::pair<Board, bool> view_actions(const View& view, const Geometry& g) {
  Board cells;
  for (int cell : view.legal_moves()) cells.set(g.padded(cell));
  const bool swap = view.swap_available && view.viewer && view.viewer == view.to_move;
  return {cells, swap};
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
  m.attr("PLANES") = static_cast<int>(kPlaneCount);
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
  m.def(
      "move_distances",
      [](const View& view) {
        std::vector<int> d;
        {
          py::gil_scoped_release release;
          d = move_distances(view);
        }
        py::array_t<int32_t> out({view.rules.rows, view.rules.cols});
        std::copy(d.begin(), d.end(), out.mutable_data());
        return out;
      },
      py::arg("view"),
      "Per cell, the mover's connection distance after a stone of its own there, unknown cells open; -1 where it "
      "may not play.");

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
      .def("legal_actions", [](const View& v) {
        const Geometry g = make_geometry(v.rules.rows, v.rules.cols);
        const auto [cells, swap] = view_actions(v, g);
        return actions_to_py(cells, g, swap);
      })
      .def("action_mask", [](const View& v) {
        const Geometry g = make_geometry(v.rules.rows, v.rules.cols);
        const auto [cells, swap] = view_actions(v, g);
        return action_mask(cells, g, swap);
      })
      .def("planes", &view_planes, py::arg("as_float"))
      .def("state", &view_state, "Every field as plain values; View.from_state rebuilds it.")
      .def_static("from_state", &view_from_state, "Rebuilds and validates a view from View.state().");

  // hexengine.Game derives from this class, so that its fast path (is_over,
  // legal_actions, action_mask, apply) is these methods themselves, with no
  // Python frame in between; the rest is private (a leading underscore) and
  // presented by the Python class.
  py::class_<Game>(m, "Game")
      .def(py::init([](const std::string& variant, int rows, int cols, const std::string& swap) {
             return Game(rules_from_py(variant, rows, cols, swap));
           }),
           py::arg("variant"), py::arg("rows"), py::arg("cols"), py::arg("swap") = "")
      .def(py::init<const Game&>(), py::arg("other"), "A copy of another game.")
      .def_property_readonly("is_over", &Game::is_over, "Whether the game has ended.")
      .def("legal_actions", [](const Game& g) { return actions_to_py(g.legal_cells(), g.geometry(), g.swap_available()); },
           "The legal moves as integer actions, in increasing order: ``row * cols + col`` for a cell and\n"
           "``rows * cols`` for the swap (see :func:`hexengine.action_of`).")
      .def("action_mask", [](const Game& g) { return action_mask(g.legal_cells(), g.geometry(), g.swap_available()); },
           "The legal actions as a ``bool`` array of ``rows * cols + 1`` flags.")
      .def("apply", [](Game& g, py::handle action) { return result_to_py(g.apply(action_from_py(action))); },
           py::arg("action"),
           "Plays integer ``action`` (a cell's ``row * cols + col``, or ``rows * cols`` for the swap) for the\n"
           "player to move and returns the :class:`~hexengine.MoveResult`. No parsing; still checked in C++:\n"
           "raises :class:`~hexengine.IllegalMove` naming the cell and the rule, TypeError for a non-integer.")
      .def_property_readonly("_to_move", [](const Game& g) { return color_to_py(g.to_move()); })
      .def_property_readonly("_winner", [](const Game& g) { return color_to_py(g.winner()); })
      .def_property_readonly("_end_reason", [](const Game& g) { return static_cast<int>(g.end_reason()); })
      .def_property_readonly("_swap_available", &Game::swap_available)
      .def("_play", [](Game& g, long long cell) {
        return static_cast<int>(g.play(checked_cell(g.geometry(), cell)));
      })
      .def("_swap", [](Game& g) { return static_cast<int>(g.swap()); })
      .def("_undo", [](Game& g) {
        const Action a = g.undo();
        return py::make_tuple(color_to_py(a.color), a.cell, static_cast<int>(a.result));
      })
      .def("_resign", [](Game& g, int color) { g.resign(color_from_py(color)); })
      .def("_timeout", [](Game& g, int color) { g.timeout(color_from_py(color)); })
      .def("_legal_moves", &Game::legal_moves)
      .def("_completed_chain", &Game::completed_chain)
      .def("_history", [](const Game& g) { return history_to_py(g.history()); })
      .def("_actions", [](const Game& g) { return g.history().size(); })
      .def("_board", [](const Game& g) { return board_array(g.board(), g.rules().rows, g.rules().cols); })
      .def("_board_after", [](const Game& g, int actions) {
        return board_array(g.board_after(actions), g.rules().rows, g.rules().cols);
      })
      .def("_view", [](const Game& g, int color) { return g.view(color_from_py(color)); })
      .def("_spectator_view", &Game::spectator_view);
}

}  // namespace hexengine::bindings
