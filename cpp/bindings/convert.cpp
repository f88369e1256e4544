// Conversions shared by every binding file, and the error translator.
#include "bindings/bindings.h"
#include "core/errors.h"

namespace hexengine::bindings {

int color_to_py(Color c) { return index_of(c) + 1; }

py::object color_to_py(const std::optional<Color>& c) {
  if (!c) return py::none();
  return py::int_(color_to_py(*c));
}

Color color_from_py(int c) {
  if (c != 1 && c != 2) throw RulesError("a colour is 1 (Red) or 2 (Blue), not " + std::to_string(c));
  return static_cast<Color>(c - 1);
}

std::optional<Color> optional_color_from_py(const py::object& c) {
  if (c.is_none()) return std::nullopt;
  return color_from_py(c.cast<int>());
}

py::array_t<int8_t> board_array(const std::vector<int8_t>& cells, int rows, int cols) {
  py::array_t<int8_t> out({rows, cols});
  std::copy(cells.begin(), cells.end(), out.mutable_data());
  return out;
}

py::list history_to_py(const std::vector<Action>& history) {
  py::list out;
  for (const Action& a : history) {
    out.append(py::make_tuple(color_to_py(a.color), a.cell, static_cast<int>(a.result)));
  }
  return out;
}

std::vector<Action> history_from_py(const py::list& items) {
  std::vector<Action> out;
  for (const py::handle& item : items) {
    auto t = item.cast<std::tuple<int, int, int>>();
    const int result = std::get<2>(t);
    if (result < 0 || result > 2) throw RulesError("an action result is 0 (placed), 1 (hit) or 2 (swapped)");
    out.push_back({color_from_py(std::get<0>(t)), std::get<1>(t), static_cast<MoveResult>(result)});
  }
  return out;
}

Rules rules_from_py(const std::string& variant, int rows, int cols, const std::string& swap) {
  const Variant v = parse_variant(variant);
  return make_rules(v, rows, cols, swap.empty() ? default_swap(v) : parse_swap(swap));
}

namespace {

// Raises hexengine.errors.<cls_name>(*args) as the current Python error.
void raise_python(const char* cls_name, const py::tuple& args) {
  py::object cls = py::module_::import("hexengine.errors").attr(cls_name);
  py::object exc = cls(*args);
  PyErr_SetObject(cls.ptr(), exc.ptr());
}

}  // namespace

void register_errors(py::module_&) {
  py::register_exception_translator([](std::exception_ptr p) {
    try {
      if (p) std::rethrow_exception(p);
    } catch (const IllegalMove& e) {
      py::object cell = py::none();
      if (e.row >= 0) cell = py::module_::import("hexengine.cells").attr("Cell")(e.row, e.col);
      raise_python("IllegalMove", py::make_tuple(e.what(), cell, e.rule));
    } catch (const RulesError& e) {
      raise_python("RulesError", py::make_tuple(e.what()));
    } catch (const ConfigError& e) {
      raise_python("ConfigError", py::make_tuple(e.what()));
    }
  });
}

}  // namespace hexengine::bindings
