// Bindings of Dark Hex belief sampling. Every call releases the GIL while C++ runs.
#include <string>

#include "bindings/bindings.h"
#include "core/errors.h"
#include "dark/belief.h"

namespace hexengine::bindings {

namespace {

SampleMethod method_from_py(const std::string& name) {
  if (name == "auto") return SampleMethod::Auto;
  if (name == "rejection") return SampleMethod::Rejection;
  if (name == "exact") return SampleMethod::Exact;
  throw ConfigError("method must be 'auto', 'rejection' or 'exact', not '" + name + "'");
}

// Checks a number of samples against the memory it would take.
uint64_t checked_count(long long n, const View& view) {
  const long long cells = static_cast<long long>(view.rules.rows) * view.rules.cols;
  if (n < 0) throw ConfigError("the number of samples must be at least 0, not " + std::to_string(n));
  if (n > (1LL << 31) / cells) {
    throw ConfigError("at most " + std::to_string((1LL << 31) / cells) + " boards of this size at once, not " +
                      std::to_string(n));
  }
  return static_cast<uint64_t>(n);
}

}  // namespace

void bind_dark(py::module_& m) {
  m.def(
      "sample_boards",
      [](const View& view, long long n, unsigned long long seed, const std::string& method) {
        const uint64_t count = checked_count(n, view);
        const SampleMethod how = method_from_py(method);
        std::vector<int8_t> boards;
        {
          py::gil_scoped_release release;
          boards = sample_boards(view, count, seed, how);
        }
        py::array_t<int8_t> out({static_cast<py::ssize_t>(count), static_cast<py::ssize_t>(view.rules.rows),
                                 static_cast<py::ssize_t>(view.rules.cols)});
        std::copy(boards.begin(), boards.end(), out.mutable_data());
        return out;
      },
      py::arg("view"), py::arg("n"), py::arg("seed"), py::arg("method"),
      "n complete boards drawn uniformly among those consistent with a Dark Hex player's view.");
  m.def(
      "sample_histories",
      [](const View& view, long long n, unsigned long long seed) {
        const uint64_t count = checked_count(n, view);
        std::vector<std::vector<Action>> records;
        {
          py::gil_scoped_release release;
          records = sample_histories(view, count, seed);
        }
        py::list out;
        for (const auto& r : records) out.append(history_to_py(r));
        return out;
      },
      py::arg("view"), py::arg("n"), py::arg("seed"),
      "Full records of n games consistent with a Dark Hex player's view.");
  m.def(
      "count_boards",
      [](const View& view, unsigned long long limit) {
        py::gil_scoped_release release;
        return count_boards(view, limit);
      },
      py::arg("view"), py::arg("limit"), "Exact number of boards consistent with a view, by enumeration.");
  m.def(
      "count_boards_table",
      [](const View& view) {
        py::gil_scoped_release release;
        return count_boards_table(view);
      },
      py::arg("view"), "Number of consistent boards from the exact sampler's table; negative if it does not fit.");
  m.def(
      "sampling_method",
      [](const View& view, unsigned long long seed) {
        SampleMethod method;
        {
          py::gil_scoped_release release;
          method = with_width(words_for(view.rules.rows, view.rules.cols), [&](auto w) {
            validate_view(view);
            return Belief<decltype(w)::value>(view, SampleMethod::Auto, seed).method();
          });
        }
        return std::string(method == SampleMethod::Exact ? "exact" : method == SampleMethod::Chain ? "mcmc" : "rejection");
      },
      py::arg("view"), py::arg("seed"), "The method Auto picks for a view: 'rejection', 'exact' or 'mcmc'.");
}

}  // namespace hexengine::bindings
