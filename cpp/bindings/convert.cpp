// Conversions shared by every binding file, and the error translator.
#include "bindings/bindings.h"

#include <array>

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

py::object result_to_py(MoveResult r) {
  // Looked up once and kept for the life of the process (never released at exit).
  static const auto* results = [] {
    py::object cls = py::module_::import("hexengine.rules").attr("MoveResult");
    return new std::array<py::object, 3>{cls.attr("PLACED"), cls.attr("HIT"), cls.attr("SWAPPED")};
  }();
  return (*results)[static_cast<int>(r)];
}

long long action_from_py(py::handle action) {
  PyObject* p = action.ptr();
  if (PyLong_Check(p) && !PyBool_Check(p)) {
    int overflow = 0;
    const long long value = PyLong_AsLongLongAndOverflow(p, &overflow);
    if (overflow != 0) {
      throw IllegalMove("action " + py::str(action).cast<std::string>() + " is off every board", -1, -1,
                        "off-board");
    }
    return value;
  }
  if (!PyBool_Check(p) && PyIndex_Check(p) && !PyFloat_Check(p)) {
    py::object index = py::reinterpret_steal<py::object>(PyNumber_Index(p));
    if (index) return action_from_py(index);
    PyErr_Clear();
  }
  throw py::type_error("an action is an int (row * cols + col, or rows * cols for the swap), not " +
                       py::repr(action).cast<std::string>());
}

py::list actions_to_py(const Board& cells, const Geometry& g, bool swap) {
  PyObject* list = PyList_New(cells.count() + (swap ? 1 : 0));
  if (!list) throw py::error_already_set();
  Py_ssize_t i = 0;
  // Padded index p of row r is public index p - r; rows are tracked, not divided out.
  int row = 0, next_row = g.stride;
  cells.for_each([&](int p) {
    while (p >= next_row) {
      ++row;
      next_row += g.stride;
    }
    PyList_SET_ITEM(list, i++, PyLong_FromLong(p - row));
  });
  if (swap) PyList_SET_ITEM(list, i, PyLong_FromLong(g.cells));
  return py::reinterpret_steal<py::list>(list);
}

py::array_t<bool> action_mask(const Board& cells, const Geometry& g, bool swap) {
  py::array_t<bool> out(g.cells + 1);
  bool* flags = out.mutable_data();
  for (int cell = 0; cell < g.cells; ++cell) flags[cell] = cells.test(g.padded(cell));
  flags[g.cells] = swap;
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
