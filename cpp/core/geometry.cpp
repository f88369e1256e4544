#include "core/geometry.h"

#include <string>

#include "core/errors.h"

namespace hexengine {

Geometry make_geometry(int rows, int cols) {
  if (rows < 1 || rows > kMaxSide || cols < 1 || cols > kMaxSide) {
    throw RulesError("board size " + std::to_string(rows) + "x" + std::to_string(cols) +
                     " is out of range: rows and columns must each be between 1 and " +
                     std::to_string(kMaxSide));
  }
  Geometry g;
  g.rows = rows;
  g.cols = cols;
  g.stride = cols + 1;
  g.cells = rows * cols;
  g.words = words_for(rows, cols);
  for (int r = 0; r < rows; ++r) {
    for (int c = 0; c < cols; ++c) {
      const int p = g.padded(r, c);
      g.on_board.set(p);
      if (r == 0) g.first_edge[index_of(Color::Red)].set(p);
      if (r == rows - 1) g.second_edge[index_of(Color::Red)].set(p);
      if (c == 0) g.first_edge[index_of(Color::Blue)].set(p);
      if (c == cols - 1) g.second_edge[index_of(Color::Blue)].set(p);
    }
  }
  return g;
}

}  // namespace hexengine
