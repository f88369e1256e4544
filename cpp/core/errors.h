// Errors raised at the boundary of the core.
//
// Contract: the core validates every input that enters it (sizes, variants,
// cells, turn order) and reports a problem by throwing one of these types
// before any state changes. Hot loops (playouts, search) never throw: they run
// only on positions the boundary has already validated. The bindings turn
// these into Python exceptions with the same fields.
#pragma once

#include <stdexcept>
#include <string>

namespace hexengine {

// A configuration that no game can have: bad size, unknown variant, swap where
// it does not exist.
struct RulesError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// A setting or argument that no search, solver or table accepts (a bad budget,
// a view of the wrong kind or of the wrong player).
struct ConfigError : std::invalid_argument {
  using std::invalid_argument::invalid_argument;
};

// A move the rules forbid in the current position.
struct IllegalMove : std::invalid_argument {
  // Row and column of the cell involved, or -1 when no cell is involved.
  int row;
  int col;
  // Short name of the rule that forbids the move (e.g. "occupied").
  std::string rule;

  IllegalMove(const std::string& message, int row_, int col_, std::string rule_)
      : std::invalid_argument(message), row(row_), col(col_), rule(std::move(rule_)) {}
};

// A long computation that cannot return part of its work (building a game
// tree) stopped because its caller's stop flag was set; the bindings set that
// flag on Ctrl-C and raise Python's KeyboardInterrupt instead.
struct Interrupted : std::runtime_error {
  using std::runtime_error::runtime_error;
};

}  // namespace hexengine
