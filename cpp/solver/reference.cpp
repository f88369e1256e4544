// The tests' oracle: a plain exhaustive search with nothing from the solver
// but the position checks.
#include <bit>
#include <string>

#include "solver/solver.h"

namespace hexengine {

namespace solver {
// The position checks of `solve` (solver/solver.cpp).
void check_position(const Rules& rules, const Board& red, const Board& blue);
}  // namespace solver

ReferenceSearch::ReferenceSearch(const Rules& rules) : rules_(rules) {
  solver::check_position(rules, Board{}, Board{});  // Dark Hex is refused
  cells_ = rules.rows * rules.cols;
  if (cells_ > 25) throw SolveError("the reference search is for boards of at most 25 cells");
  nbr_.assign(cells_, 0);
  // The six neighbours of docs/rules.md section 1.
  const int dr[6] = {0, 0, -1, -1, 1, 1};
  const int dc[6] = {-1, 1, 0, 1, -1, 0};
  for (int r = 0; r < rules.rows; ++r) {
    for (int c = 0; c < rules.cols; ++c) {
      const int i = r * rules.cols + c;
      for (int d = 0; d < 6; ++d) {
        const int nr = r + dr[d], nc = c + dc[d];
        if (nr >= 0 && nr < rules.rows && nc >= 0 && nc < rules.cols) nbr_[i] |= 1u << (nr * rules.cols + nc);
      }
      if (r == 0) edge_[0][0] |= 1u << i;
      if (r == rules.rows - 1) edge_[0][1] |= 1u << i;
      if (c == 0) edge_[1][0] |= 1u << i;
      if (c == rules.cols - 1) edge_[1][1] |= 1u << i;
    }
  }
}

bool ReferenceSearch::joined(uint32_t stones, int colour) const {
  uint32_t reach = stones & edge_[colour][0];
  for (;;) {
    uint32_t next = reach;
    for (uint32_t b = reach; b; b &= b - 1) next |= nbr_[std::countr_zero(b)] & stones;
    if (next == reach) break;
    reach = next;
  }
  return (reach & edge_[colour][1]) != 0;
}

// Whether the player to move (`mover`, owning `mine`) wins.
bool ReferenceSearch::wins(uint32_t mine, uint32_t theirs, int mover) {
  const uint32_t red = mover == 0 ? mine : theirs, blue = mover == 0 ? theirs : mine;
  const uint64_t key = uint64_t{red} | (uint64_t{blue} << 25) | (uint64_t(mover) << 50);
  if (auto it = memo_.find(key); it != memo_.end()) return it->second;
  const bool misere = is_misere(rules_.variant);
  const uint32_t full = cells_ == 32 ? ~0u : (1u << cells_) - 1;
  bool result = false;
  for (uint32_t empty = full & ~(mine | theirs); empty && !result; empty &= empty - 1) {
    const uint32_t after = mine | (empty & (0u - empty));
    result = joined(after, mover) ? !misere : !wins(theirs, after, 1 - mover);
  }
  memo_.emplace(key, result);
  return result;
}

Color ReferenceSearch::winner(const Board& red, const Board& blue, Color to_move) {
  solver::check_position(rules_, red, blue);
  const Geometry g = make_geometry(rules_.rows, rules_.cols);
  uint32_t s[2] = {0, 0};
  for (int i = 0; i < cells_; ++i) {
    if (red.test(g.padded(i))) s[0] |= 1u << i;
    if (blue.test(g.padded(i))) s[1] |= 1u << i;
  }
  const int m = index_of(to_move);
  return wins(s[m], s[1 - m], m) ? to_move : opponent(to_move);
}

}  // namespace hexengine
