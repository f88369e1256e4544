// The hexengine._core module: one bind_* call per concern of the core.
#include "bindings/bindings.h"

PYBIND11_MODULE(_core, m) {
  m.doc() = "hexengine's C++ core. Use the hexengine package, not this module.";
  using namespace hexengine::bindings;
  register_errors(m);
  bind_game(m);
  bind_search(m);
  bind_darkcfr(m);
  bind_solver(m);
  bind_dark(m);
  bind_envs(m);
}
