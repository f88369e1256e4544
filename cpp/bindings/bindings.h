// Shared pieces of the pybind11 glue (the hexengine._core module).
//
// Conventions at the boundary: colours are 1 (Red) and 2 (Blue), the values
// they have on a board array; cells are public indices row * cols + col;
// results and end reasons are the small integers of core/action.h; boards are
// numpy int8 arrays (rows, cols). Each binding file binds one concern of the
// core and holds no logic of its own; long calls release the GIL.
#pragma once

#include <pybind11/numpy.h>
#include <pybind11/pybind11.h>
#include <pybind11/stl.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <exception>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/action.h"
#include "core/rules.h"
#include "core/view.h"

namespace py = pybind11;

namespace hexengine::bindings {

// Colour as 1 or 2.
int color_to_py(Color c);
// Colour as 1, 2 or None.
py::object color_to_py(const std::optional<Color>& c);
// Colour from 1 or 2; throws RulesError otherwise.
Color color_from_py(int c);
// Colour from 1, 2 or None.
std::optional<Color> optional_color_from_py(const py::object& c);
// A (rows, cols) int8 array holding `cells`.
py::array_t<int8_t> board_array(const std::vector<int8_t>& cells, int rows, int cols);
// Actions as (colour, cell, result) tuples.
py::list history_to_py(const std::vector<Action>& history);
// Actions from (colour, cell, result) tuples; checks colours and results.
std::vector<Action> history_from_py(const py::list& items);
// Validated rules from names; an empty swap name means the variant's default.
Rules rules_from_py(const std::string& variant, int rows, int cols, const std::string& swap);
// The hexengine.rules.MoveResult member for `r`.
py::object result_to_py(MoveResult r);
// An integer action from Python: an int (not a bool) or a numpy integer;
// TypeError naming what was given otherwise.
long long action_from_py(py::handle action);
// Legal actions as a Python list of ints: the public indices of `cells`
// (padded, on `g`) in increasing order, then the swap (g.cells) when `swap`.
py::list actions_to_py(const Board& cells, const Geometry& g, bool swap);
// Flags (g.cells + 1) of the same actions.
py::array_t<bool> action_mask(const Board& cells, const Geometry& g, bool swap);

// Runs `work(stop)` (a core call that ends early once `stop` is set) on a
// helper thread with the GIL released, while the calling thread waits and,
// every 50 ms, lets Python run its signal handlers. When a handler raises
// (Ctrl-C: KeyboardInterrupt), `stop` is set, the work is waited for and the
// Python exception propagates, so a long search, solve or batch of playouts
// can be interrupted.
// Exceptions of `work` propagate as they would from a direct call.
template <class F>
auto interruptible(F&& work) {
  using Result = decltype(work(std::declval<const std::atomic<bool>&>()));
  std::atomic<bool> stop{false};
  std::optional<Result> result;
  std::exception_ptr error;
  std::mutex mutex;
  std::condition_variable done;
  bool finished = false;
  bool interrupted = false;
  {
    std::thread helper([&] {
      try {
        result.emplace(work(stop));
      } catch (...) {
        error = std::current_exception();
      }
      std::lock_guard<std::mutex> lock(mutex);
      finished = true;
      done.notify_one();
    });
    for (;;) {
      {
        py::gil_scoped_release release;
        std::unique_lock<std::mutex> lock(mutex);
        if (done.wait_for(lock, std::chrono::milliseconds(50), [&] { return finished; })) break;
      }
      if (!interrupted && PyErr_CheckSignals() != 0) {
        interrupted = true;  // the Python error stays set until it is thrown below
        stop.store(true);
      }
    }
    py::gil_scoped_release release;
    helper.join();
  }
  if (interrupted) throw py::error_already_set();
  if (error) std::rethrow_exception(error);
  return std::move(*result);
}

// Turns IllegalMove, RulesError and ConfigError into hexengine.errors exceptions.
void register_errors(py::module_& m);
// Rules, cells, Game and View.
void bind_game(py::module_& m);
// Random playouts and the MCTS bot.
void bind_search(py::module_& m);
// The tiny-board Dark Hex solver.
void bind_darkcfr(py::module_& m);
// The Hex and Rex solver.
void bind_solver(py::module_& m);
// The batched environments.
void bind_envs(py::module_& m);
// Dark Hex belief sampling.
void bind_dark(py::module_& m);

}  // namespace hexengine::bindings
