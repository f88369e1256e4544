#include "core/distance.h"

#include <string>

#include "core/errors.h"

namespace hexengine {

std::vector<int> move_distances(const View& view) {
  validate_view(view);
  if (view.is_over()) throw ConfigError("the game is over: there is no move to score");
  if (!view.viewer || view.viewer != view.to_move) {
    throw ConfigError("this view is not the view of the player to move; give the view of " +
                      std::string(view.to_move == Color::Red ? "Red" : "Blue"));
  }
  const Geometry g = make_geometry(view.rules.rows, view.rules.cols);
  const Color me = *view.viewer;
  const std::array<Board, 2> shown = shown_stones(view, g);
  const Board open = g.on_board.andnot(shown[0] | shown[1]);
  return with_width(g.words, [&](auto w) {
    constexpr int W = decltype(w)::value;
    DistanceMap<W> after;
    distances_after(g, Bitboard<W>::from(shown[index_of(me)]), Bitboard<W>::from(open), me, after);
    std::vector<int> out(g.cells, -1);
    for (int cell = 0; cell < g.cells; ++cell) {
      const int p = g.padded(cell);
      if (open.test(p)) out[cell] = after[p];
    }
    return out;
  });
}

}  // namespace hexengine
