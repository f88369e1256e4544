// What happened in a game: actions, their results and how a game ended.
#pragma once

#include <algorithm>
#include <optional>
#include <vector>

#include "core/geometry.h"

namespace hexengine {

// The outcome of one action.
enum class MoveResult : int {
  Placed = 0,   // a stone was placed on an empty cell
  Hit = 1,      // Dark Hex: the cell held a hidden enemy stone, now found
  Swapped = 2,  // the swap (pie) rule was used
};

// Why a game is over.
enum class EndReason : int { None = 0, Connection = 1, Resignation = 2, Timeout = 3 };

// One action of the record. `cell` is the public index of the cell played (for
// a swap: where the swapped stone stands afterwards), or -1 where the cell is
// hidden from whoever reads this record.
struct Action {
  Color color = Color::Red;
  int cell = -1;
  MoveResult result = MoveResult::Placed;
  bool operator==(const Action&) const = default;
};

// Whether the record `history` continues `earlier`: it starts with every action of it.
inline bool continues(const std::vector<Action>& history, const std::vector<Action>& earlier) {
  return history.size() >= earlier.size() && std::equal(earlier.begin(), earlier.end(), history.begin());
}

}  // namespace hexengine
