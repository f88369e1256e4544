// Bindings of the solver: solve a game, a view or a bare position; the plain
// reference search used by the tests.
#include <cmath>

#include "bindings/bindings.h"
#include "core/errors.h"
#include "core/game.h"
#include "solver/solver.h"

namespace hexengine::bindings {

namespace {

// Limits from Python values; the core checks their ranges.
SolveLimits limits_from_py(bool winning_moves, long long max_nodes, double max_seconds, long long max_memory,
                           const std::optional<std::vector<std::string>>& knowledge, int threads,
                           const std::vector<int>& first_moves) {
  if (max_nodes < 0) throw SolveError("max_nodes must be a positive number of nodes, not " + std::to_string(max_nodes));
  if (max_memory < 0) throw SolveError("max_memory must be a positive number of bytes, not " + std::to_string(max_memory));
  SolveLimits l;
  l.winning_moves = winning_moves;
  l.max_nodes = static_cast<uint64_t>(max_nodes);
  l.max_seconds = max_seconds;
  l.max_memory = static_cast<uint64_t>(max_memory);
  if (knowledge) l.knowledge = knowledge_from_names(*knowledge);
  l.threads = threads;
  l.first_moves = first_moves;
  return l;
}

// Where the nodes went, by name (SolveStats).
py::dict counts_to_py(const SolveStats& s) {
  py::dict d;
  d["expanded"] = s.expanded;
  d["vc_won"] = s.vc_won;
  d["vc_lost"] = s.vc_lost;
  d["mustplay_lost"] = s.mustplay_lost;
  d["rex_paired"] = s.rex_paired;
  d["no_mustplay"] = s.no_mustplay;
  d["vc_budget_out"] = s.vc_budget_out;
  d["decomposed"] = s.decomposed;
  d["mirrored"] = s.mirrored;
  d["empty_cells"] = s.empty_cells;
  d["mustplay_moves"] = s.mustplay_moves;
  d["moves"] = s.moves;
  d["filled"] = s.filled;
  d["max_depth"] = s.max_depth;
  d["helper_nodes"] = s.helper_nodes;
  d["nodes_by_depth"] = py::cast(s.nodes_by_depth);
  d["tt_entries"] = s.tt_entries;
  return d;
}

// (winner 0|1|2, to_move 1|2, status, winning moves or None, swap wins,
//  best move (-1 none, -2 swap), nodes, seconds, memory bytes, table entries,
//  counts by name)
py::tuple result_to_py(const SolveResult& r) {
  py::object moves = py::none();
  if (r.winning_moves_known) moves = py::cast(r.winning_moves);
  return py::make_tuple(r.winner ? color_to_py(*r.winner) : 0, color_to_py(r.to_move), status_name(r.status), moves,
                        r.swap_wins, r.best_move, r.stats.nodes, r.stats.seconds, r.stats.memory_bytes,
                        r.stats.tt_entries, counts_to_py(r.stats));
}

// Stones of a (rows * cols) board of 0/1/2 values as padded bitboards.
void board_from_py(const Geometry& g, const std::vector<int>& cells, Board& red, Board& blue) {
  if (static_cast<int>(cells.size()) != g.cells) {
    throw SolveError("a board of " + std::to_string(g.rows) + "x" + std::to_string(g.cols) + " has " +
                     std::to_string(g.cells) + " cells, not " + std::to_string(cells.size()));
  }
  for (int i = 0; i < g.cells; ++i) {
    if (cells[i] == 1) {
      red.set(g.padded(i));
    } else if (cells[i] == 2) {
      blue.set(g.padded(i));
    } else if (cells[i] != 0) {
      throw SolveError("board values are 0 (empty), 1 (red) or 2 (blue), not " + std::to_string(cells[i]));
    }
  }
}

void translate_solve_error(std::exception_ptr p) {
  try {
    if (p) std::rethrow_exception(p);
  } catch (const SolveError& e) {
    py::object cls = py::module_::import("hexengine.solver").attr("SolveError");
    py::object exc = cls(e.what());
    PyErr_SetObject(cls.ptr(), exc.ptr());
  }
}

}  // namespace

void bind_solver(py::module_& m) {
  py::register_exception_translator(&translate_solve_error);

  py::tuple names(std::size(kKnowledgeNames));
  for (size_t i = 0; i < std::size(kKnowledgeNames); ++i) names[i] = kKnowledgeNames[i].name;
  m.attr("SOLVER_KNOWLEDGE") = names;

  m.def(
      "solve_game",
      [](const Game& game, bool winning_moves, long long max_nodes, double max_seconds, long long max_memory,
         const std::optional<std::vector<std::string>>& knowledge, int threads,
         const std::vector<int>& first_moves) {
        SolveLimits l =
            limits_from_py(winning_moves, max_nodes, max_seconds, max_memory, knowledge, threads, first_moves);
        const SolveResult r = interruptible([&](const std::atomic<bool>& stop) {
          l.stop = &stop;
          return solve_game(game, l);
        });
        return result_to_py(r);
      },
      py::arg("game"), py::arg("winning_moves"), py::arg("max_nodes"), py::arg("max_seconds"), py::arg("max_memory"),
      py::arg("knowledge") = py::none(), py::arg("threads") = 1,
      py::arg("first_moves") = std::vector<int>{}, "Solves a game's current position (GIL released).");

  m.def(
      "solve_view",
      [](const View& view, bool winning_moves, long long max_nodes, double max_seconds, long long max_memory,
         const std::optional<std::vector<std::string>>& knowledge, int threads,
         const std::vector<int>& first_moves) {
        SolveLimits l =
            limits_from_py(winning_moves, max_nodes, max_seconds, max_memory, knowledge, threads, first_moves);
        const SolveResult r = interruptible([&](const std::atomic<bool>& stop) {
          l.stop = &stop;
          return solve_view(view, l);
        });
        return result_to_py(r);
      },
      py::arg("view"), py::arg("winning_moves"), py::arg("max_nodes"), py::arg("max_seconds"), py::arg("max_memory"),
      py::arg("knowledge") = py::none(), py::arg("threads") = 1,
      py::arg("first_moves") = std::vector<int>{}, "Solves the position a Hex or Rex view shows (GIL released).");

  m.def(
      "check_solve_game",
      [](const Game& game, const std::vector<int>& first_moves) {
        SolveLimits l;
        l.first_moves = first_moves;
        check_game_request(game, l);
      },
      py::arg("game"), py::arg("first_moves") = std::vector<int>{},
      "Raises the SolveError solve_game would raise before searching.");

  m.def(
      "check_solve_view",
      [](const View& view, const std::vector<int>& first_moves) {
        SolveLimits l;
        l.first_moves = first_moves;
        check_view_request(view, l);
      },
      py::arg("view"), py::arg("first_moves") = std::vector<int>{},
      "Raises the SolveError solve_view would raise before searching.");

  m.def(
      "solve_position",
      [](const std::string& variant, int rows, int cols, const std::vector<int>& board, int to_move,
         bool winning_moves, long long max_nodes, double max_seconds, long long max_memory,
         const std::optional<std::vector<std::string>>& knowledge, int threads,
         const std::vector<int>& first_moves) {
        const Rules rules = rules_from_py(variant, rows, cols, "off");
        const Geometry g = make_geometry(rows, cols);
        Board red, blue;
        board_from_py(g, board, red, blue);
        const Color mover = color_from_py(to_move);
        SolveLimits l =
            limits_from_py(winning_moves, max_nodes, max_seconds, max_memory, knowledge, threads, first_moves);
        const SolveResult r = interruptible([&](const std::atomic<bool>& stop) {
          l.stop = &stop;
          return solve(rules, red, blue, mover, l);
        });
        return result_to_py(r);
      },
      py::arg("variant"), py::arg("rows"), py::arg("cols"), py::arg("board"), py::arg("to_move"),
      py::arg("winning_moves"), py::arg("max_nodes"), py::arg("max_seconds"), py::arg("max_memory"),
      py::arg("knowledge") = py::none(), py::arg("threads") = 1,
      py::arg("first_moves") = std::vector<int>{}, "Solves a bare position with swap off (GIL released).");

  py::class_<ReferenceSearch>(m, "ReferenceSearch")
      .def(py::init([](const std::string& variant, int rows, int cols) {
             return ReferenceSearch(rules_from_py(variant, rows, cols, "off"));
           }),
           py::arg("variant"), py::arg("rows"), py::arg("cols"))
      .def(
          "winners",
          [](ReferenceSearch& self, const std::vector<std::vector<int>>& boards, const std::vector<int>& movers) {
            if (boards.size() != movers.size()) throw SolveError("one player to move per board");
            const Geometry g = make_geometry(self.rules().rows, self.rules().cols);
            std::vector<std::pair<Board, Board>> stones(boards.size());
            std::vector<Color> who(boards.size());
            for (size_t i = 0; i < boards.size(); ++i) {
              board_from_py(g, boards[i], stones[i].first, stones[i].second);
              who[i] = color_from_py(movers[i]);
            }
            std::vector<int> out(boards.size());
            {
              py::gil_scoped_release release;
              for (size_t i = 0; i < boards.size(); ++i) {
                out[i] = index_of(self.winner(stones[i].first, stones[i].second, who[i])) + 1;
              }
            }
            return out;
          },
          py::arg("boards"), py::arg("to_move"),
          "Winners (1|2) of positions of this board by plain exhaustive search, for tests.")
      .def_property_readonly("size", &ReferenceSearch::size);

  m.def(
      "joined_colour",
      [](int rows, int cols, const std::vector<int>& board) {
        const Geometry g = make_geometry(rows, cols);
        Board red, blue;
        board_from_py(g, board, red, blue);
        if (joins_edges(g, red, Color::Red)) return color_to_py(Color::Red);
        return joins_edges(g, blue, Color::Blue) ? color_to_py(Color::Blue) : 0;
      },
      py::arg("rows"), py::arg("cols"), py::arg("board"),
      "The colour (1|2) whose stones join its two edges on a board of 0/1/2 values, 0 if neither.");
}

}  // namespace hexengine::bindings
