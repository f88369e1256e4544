#include "core/view.h"

#include <algorithm>
#include <string>

#include "core/errors.h"

namespace hexengine {

std::vector<int> View::legal_moves() const {
  std::vector<int> out;
  if (!viewer || !to_move || *viewer != *to_move) return out;
  for (int cell = 0; cell < static_cast<int>(board.size()); ++cell) {
    if (board[cell] == 0) out.push_back(cell);
  }
  return out;
}

int View::hits_received() const {
  int n = 0;
  if (!viewer) return 0;
  for (const Action& a : history) n += a.color != *viewer && a.result == MoveResult::Hit;
  return n;
}

std::array<Board, 2> shown_stones(const View& view, const Geometry& g) {
  std::array<Board, 2> out;
  for (int cell = 0; cell < g.cells; ++cell) {
    if (view.board[cell] != 0) out[view.board[cell] - 1].set(g.padded(cell));
  }
  return out;
}

bool board_follows(const std::vector<int8_t>& before, const View& view, size_t from) {
  if (before.size() != view.board.size()) return false;
  std::vector<int8_t> board = before;
  for (size_t i = from; i < view.history.size(); ++i) {
    const Action& a = view.history[i];
    if (a.cell < 0) {
      if (a.result == MoveResult::Swapped) return false;
      continue;
    }
    if (static_cast<size_t>(a.cell) >= board.size()) return false;
    if (a.result == MoveResult::Swapped) {
      // The one stone on the board moves to `cell`: as the swapper's stone
      // (`pieces`), or keeping its colour (`sides`, where the players change seats).
      if (std::count(board.begin(), board.end(), 0) + 1 != static_cast<long>(board.size())) return false;
      const int8_t first = *std::max_element(board.begin(), board.end());
      std::fill(board.begin(), board.end(), 0);
      board[a.cell] = view.rules.swap == SwapForm::Pieces ? static_cast<int8_t>(index_of(a.color) + 1) : first;
      continue;
    }
    const Color shown = a.result == MoveResult::Hit ? opponent(a.color) : a.color;
    board[a.cell] = static_cast<int8_t>(index_of(shown) + 1);
  }
  return board == view.board;
}

void validate_view(const View& v) {
  make_rules(v.rules.variant, v.rules.rows, v.rules.cols, v.rules.swap);
  const int cells = v.rules.rows * v.rules.cols;
  if (static_cast<int>(v.board.size()) != cells) {
    throw RulesError("view board has " + std::to_string(v.board.size()) + " cells; a " +
                     std::to_string(v.rules.rows) + "x" + std::to_string(v.rules.cols) + " board has " +
                     std::to_string(cells));
  }
  for (int8_t x : v.board) {
    if (x < 0 || x > 2) throw RulesError("view board values must be 0 (empty or unknown), 1 (red) or 2 (blue)");
  }
  if (v.hidden_stones < 0 || v.hidden_stones > cells) throw RulesError("view hidden stone count is out of range");
  if (v.is_over() != !v.to_move) throw RulesError("view must have a player to move exactly while the game runs");
  if (v.is_over() != v.winner.has_value()) throw RulesError("view must have a winner exactly when the game is over");
  for (const Action& a : v.history) {
    if (a.cell < -1 || a.cell >= cells) throw RulesError("view history names a cell off the board");
  }
  if (!v.completed_chain.empty() && v.end_reason != EndReason::Connection) {
    throw RulesError("view has a completed chain but the game did not end by connection");
  }
  for (int cell : v.completed_chain) {
    if (cell < 0 || cell >= cells) throw RulesError("view completed chain names a cell off the board");
  }
}

}  // namespace hexengine
