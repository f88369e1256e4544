// The shape of a Hex board: cells, neighbours and edges.
//
// Contract: a Geometry is built only through `make_geometry`, which accepts
// 1 <= rows, cols <= 19 and throws RulesError otherwise. Cell (r, c) has the
// public index `r * cols + c` and the padded index `r * stride + c` used by
// bitboards (see core/bitboard.h). Red owns the top and bottom edges, Blue the left
// and right ones; a corner cell lies on one edge of each colour.
#pragma once

#include <array>

#include "core/bitboard.h"

namespace hexengine {

// A bitboard wide enough for any board.
using Board = Bitboard<kMaxWords>;

// The two colours. Red moves first and joins top and bottom.
enum class Color : int { Red = 0, Blue = 1 };

// The other colour.
constexpr Color opponent(Color c) { return c == Color::Red ? Color::Blue : Color::Red; }
// 0 for Red, 1 for Blue.
constexpr int index_of(Color c) { return static_cast<int>(c); }

// The six neighbour offsets of a padded index, for a given stride.
constexpr std::array<int, 6> neighbour_offsets(int stride) {
  return {-1, 1, -stride, -stride + 1, stride - 1, stride};
}

// Board dimensions with precomputed masks.
struct Geometry {
  int rows = 0;
  int cols = 0;
  int stride = 0;         // cols + 1
  int cells = 0;          // rows * cols
  int words = 0;          // 64-bit words the padded board needs
  Board on_board;         // every cell
  Board first_edge[2];    // per colour: Red's top row, Blue's left column
  Board second_edge[2];   // per colour: Red's bottom row, Blue's right column

  // Padded index of cell (r, c).
  constexpr int padded(int r, int c) const { return r * stride + c; }
  // Padded index of public index `cell`.
  constexpr int padded(int cell) const { return padded(cell / cols, cell % cols); }
  // Public index of padded index `p`.
  constexpr int unpadded(int p) const { return (p / stride) * cols + p % stride; }
  // Row of padded index `p`.
  constexpr int row_of(int p) const { return p / stride; }
  // Column of padded index `p`.
  constexpr int col_of(int p) const { return p % stride; }
  // Whether padded index `p` is a cell of this board.
  constexpr bool contains(int p) const { return p >= 0 && p < kMaxBits && on_board.test(p); }
  // Padded cells adjacent to `set`, excluding `set` itself.
  Board neighbours(const Board& set) const { return dilate(set, stride).andnot(set) & on_board; }
};

// Builds the geometry of a rows x cols board; throws RulesError if out of range.
Geometry make_geometry(int rows, int cols);

// Whether `stones` (padded, any width that holds the board) join the two
// edges of colour `c` on `g`.
template <int W>
bool joins_edges(const Geometry& g, const Bitboard<W>& stones, Color c) {
  const Bitboard<W> start = stones & Bitboard<W>::from(g.first_edge[index_of(c)]);
  return start.any() && (flood(start, stones, g.stride) & Bitboard<W>::from(g.second_edge[index_of(c)])).any();
}

}  // namespace hexengine
