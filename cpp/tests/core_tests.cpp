// Unit tests of the C++ core layer (cpp/core/) on its own, without Python.
// Build and run: cmake -B build/cpp && cmake --build build/cpp && ctest --test-dir build/cpp
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <vector>

#include "core/distance.h"
#include "core/errors.h"
#include "core/game.h"
#include "core/planes.h"
#include "core/notation.h"

#include "tests/check.h"

using namespace hexengine;

namespace {

template <class F>
std::string rule_of(F&& f) {
  try {
    f();
  } catch (const IllegalMove& e) {
    return e.rule;
  } catch (const RulesError&) {
    return "rules";
  }
  return "";
}

Game make(Variant v, int rows, int cols, SwapForm s = SwapForm::Off) { return Game(make_rules(v, rows, cols, s)); }

int at(const Game& g, const char* name) { return parse_cell(g.geometry(), name); }

// Neighbours in the padded layout are the six of docs/rules.md section 1.
void test_neighbours() {
  const Geometry g = make_geometry(4, 3);
  Board one;
  one.set(g.padded(1, 1));
  const Board n = g.neighbours(one);
  CHECK(n.count() == 6);
  for (auto [r, c] : {std::pair{1, 0}, {1, 2}, {0, 1}, {0, 2}, {2, 0}, {2, 1}}) CHECK(n.test(g.padded(r, c)));
  Board corner;
  corner.set(g.padded(0, 2));  // top-right corner: neighbours (0,1), (1,1), (1,2)
  CHECK(g.neighbours(corner).count() == 3);
  const Geometry line = make_geometry(1, 7);
  Board mid;
  mid.set(line.padded(0, 3));
  CHECK(line.neighbours(mid).count() == 2);
}

// One-row and one-column boards end at once for the side that crosses them in one stone.
void test_thin_boards() {
  Game row = make(Variant::Hex, 1, 7);
  row.play(3);
  CHECK(row.is_over() && row.winner() == Color::Red);
  Game col = make(Variant::Hex, 5, 1);
  col.play(0);
  CHECK(!col.is_over());
  col.play(4);
  CHECK(col.is_over() && col.winner() == Color::Blue);
  Game rex = make(Variant::Rex, 1, 1);
  rex.play(0);
  CHECK(rex.is_over() && rex.winner() == Color::Blue);
  CHECK(rex.completed_chain().size() == 1);
}

// Both swap forms do what docs/rules.md section 3 says, once, only as Blue's first action.
void test_swap() {
  Game sides = make(Variant::Hex, 5, 5, SwapForm::Sides);
  CHECK(rule_of([&] { sides.swap(); }) == "swap-timing");
  sides.play(at(sides, "b4"));
  sides.swap();
  CHECK(sides.to_move() == Color::Blue);
  CHECK(sides.board()[at(sides, "b4")] == 1);
  CHECK(rule_of([&] { sides.swap(); }) == "swap-timing");
  Game pieces = make(Variant::Hex, 5, 5, SwapForm::Pieces);
  pieces.play(at(pieces, "b4"));  // row 3, column 1
  pieces.swap();
  CHECK(pieces.to_move() == Color::Red);
  CHECK(pieces.board()[at(pieces, "b4")] == 0);
  CHECK(pieces.board()[at(pieces, "d2")] == 2);  // row 1, column 3
  CHECK(rule_of([] { make_rules(Variant::Hex, 4, 5, SwapForm::Pieces); }) == "rules");
  CHECK(rule_of([] { make_rules(Variant::Dark, 4, 4, SwapForm::Sides); }) == "rules");
  Game off = make(Variant::Hex, 3, 3);
  off.play(0);
  CHECK(rule_of([&] { off.swap(); }) == "swap-off");
}

// A hit reveals to the mover only; classic moves again, abrupt passes the turn.
void test_dark_hits() {
  for (Variant v : {Variant::Dark, Variant::DarkAbrupt}) {
    Game g = make(v, 3, 3);
    g.play(4);
    CHECK(g.play(4) == MoveResult::Hit);
    CHECK(g.to_move() == (v == Variant::Dark ? Color::Blue : Color::Red));
    const View blue = g.view(Color::Blue);
    CHECK(blue.board[4] == 1 && blue.hidden_stones == 0);
    const View red = g.view(Color::Red);
    CHECK(red.hits_received() == 1 && red.history[1].cell == -1);
    if (v == Variant::Dark) CHECK(rule_of([&] { g.play(4); }) == "found-stone");
    CHECK(g.spectator_view().hidden_stones == 1);
  }
}

// Rex: whoever completes their own chain loses.
void test_rex() {
  Game g = make(Variant::Rex, 2, 2);
  g.play(at(g, "a1"));  // Red
  g.play(at(g, "b1"));  // Blue
  g.play(at(g, "a2"));  // Red joins rows 1 and 2: loses
  CHECK(g.is_over() && g.winner() == Color::Blue);
  CHECK(g.completed_chain().size() == 2);
}

// Random games on every shape end with exactly one connected colour on the full board.
void test_random_games() {
  std::mt19937 rng(7);
  for (int trial = 0; trial < 2000; ++trial) {
    const int rows = 1 + rng() % 9, cols = 1 + rng() % 9;
    const Variant v = static_cast<Variant>(rng() % 4);
    Game g = make(v, rows, cols);
    while (!g.is_over()) {
      const auto moves = g.legal_moves();
      g.play(moves[rng() % moves.size()]);
    }
    const bool misere = v == Variant::Rex;
    CHECK(!g.completed_chain().empty());
    const Geometry& geo = g.geometry();
    const Color owner = misere ? opponent(*g.winner()) : *g.winner();
    const int ci = index_of(owner);
    const Board reach = flood(g.stones(owner) & geo.first_edge[ci], g.stones(owner), geo.stride);
    CHECK((reach & geo.second_edge[ci]).any());
    const Color other = opponent(owner);
    const int oi = index_of(other);
    const Board other_reach = flood(g.stones(other) & geo.first_edge[oi], g.stones(other), geo.stride);
    CHECK(!(other_reach & geo.second_edge[oi]).any());
  }
}

// Every view of a running game follows from each earlier view of the same
// viewer by the actions recorded since (placements, found stones, swaps), and
// a board with one stone more or less does not.
void test_board_follows() {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 300; ++trial) {
    const Variant v = static_cast<Variant>(rng() % 4);
    const SwapForm s = is_dark(v) ? SwapForm::Off : static_cast<SwapForm>(rng() % 3);
    Game g = make(v, 5, 5, s);
    std::vector<View> seen[2];
    while (!g.is_over()) {
      for (Color c : {Color::Red, Color::Blue}) {
        const View now = g.view(c);
        for (const View& before : seen[index_of(c)]) {
          CHECK(board_follows(before.board, now, before.history.size()));
        }
        seen[index_of(c)].push_back(now);
        View changed = now;
        const int cell = static_cast<int>(rng() % changed.board.size());
        changed.board[cell] = changed.board[cell] ? 0 : 1;
        CHECK(!board_follows(seen[index_of(c)].front().board, changed, 0));
      }
      if (g.swap_available() && rng() % 2) {
        g.swap();
        continue;
      }
      const auto moves = g.legal_moves();
      g.play(moves[rng() % moves.size()]);
    }
  }
}

// Undo walks a random game of every variant back through exactly the boards,
// views and legal moves it passed, and the rebuilt chains still find the end.
void test_undo() {
  std::mt19937 rng(11);
  for (Variant v : {Variant::Hex, Variant::Rex, Variant::Dark, Variant::DarkAbrupt}) {
    for (int trial = 0; trial < 20; ++trial) {
      const SwapForm swap = is_dark(v) ? SwapForm::Off : (trial % 2 ? SwapForm::Pieces : SwapForm::Sides);
      Game game(make_rules(v, 5, 5, swap));
      std::vector<std::vector<int8_t>> boards{game.board()};
      std::vector<std::vector<int>> legal{game.legal_moves()};
      while (!game.is_over()) {
        std::vector<int> actions = game.legal_moves();
        if (game.swap_available()) actions.push_back(game.swap_action());
        game.apply(actions[rng() % actions.size()]);
        boards.push_back(game.board());
        legal.push_back(game.legal_moves());
      }
      const std::vector<Action> history = game.history();
      for (size_t k = history.size(); k > 0; --k) {
        const Action a = game.undo();
        CHECK(a.cell == history[k - 1].cell && a.result == history[k - 1].result);
        CHECK(game.board() == boards[k - 1] && game.legal_moves() == legal[k - 1] && !game.is_over());
        CHECK(game.view(Color::Red).board == replay(game.rules(), history, k - 1).view(Color::Red).board);
      }
      for (const Action& a : history) game.apply(a.result == MoveResult::Swapped ? game.swap_action() : a.cell);
      CHECK(game.is_over() && game.history().size() == history.size());
    }
  }
  Game empty(make_rules(Variant::Hex, 3, 3, SwapForm::Sides));
  bool refused = false;
  try {
    empty.undo();
  } catch (const IllegalMove& e) {
    refused = e.rule == "nothing-to-undo";
  }
  CHECK(refused);
}

// The planes of a view: own and found stones, the counts of hits, nothing hidden.
void test_planes() {
  Game game(make_rules(Variant::Dark, 3, 3, SwapForm::Off));
  game.play(4);  // Red b2
  game.play(4);  // Blue hits b2 and moves again
  game.play(0);  // Blue a1
  std::vector<uint8_t> planes(kPlaneCount * 9);
  write_planes(perspective_of(game.view(Color::Blue)), 9, reinterpret_cast<bool*>(planes.data()));
  CHECK(planes[kPlaneOwn * 9 + 0] == 1 && planes[kPlaneOpponent * 9 + 4] == 1 && planes[kPlaneHit * 9 + 4] == 1);
  CHECK(planes[kPlaneEmpty * 9 + 0] == 0 && planes[kPlaneEmpty * 9 + 8] == 1 && planes[kPlaneRed * 9] == 0);
  std::vector<float> red(kPlaneCount * 9);
  write_planes(perspective_of(game.view(Color::Red)), 9, red.data());
  CHECK(red[kPlaneOpponent * 9 + 0] == 0.0f && red[kPlaneHitsTaken * 9] == 1.0f / 9 && red[kPlaneHidden * 9] == 1.0f / 9);
}

// Connection distances: an empty board needs a full column or row, own stones
// shorten it, an enemy wall lengthens it, and a cell off every shortest path
// leaves it unchanged.
void test_distances() {
  const Geometry g = make_geometry(4, 4);
  Board red, blue;
  const Board open = g.on_board;
  CHECK(connection_distance(g, red, open, Color::Red) == 4);
  CHECK(connection_distance(g, red, open, Color::Blue) == 4);
  red.set(g.padded(0, 1));
  red.set(g.padded(1, 1));
  CHECK(connection_distance(g, red, open.andnot(red), Color::Red) == 2);
  // Blue walls off columns 0..2 of row 2: Red's path goes round through
  // b2 c2 d2 d3 and a cell of row 4 (b2 its own), or d1 d2 d3 and row 4.
  for (int c = 0; c < 3; ++c) blue.set(g.padded(2, c));
  const Board free = g.on_board.andnot(red | blue);
  CHECK(connection_distance(g, red, free, Color::Red) == 4);
  DistanceMap<kMaxWords> after;
  distances_after(g, red, free, Color::Red, after);
  CHECK(after[g.padded(2, 3)] == 3 && after[g.padded(3, 0)] == 4 && after[g.padded(2, 0)] == kFar);
  // Joined: distance 0; cut off: kFar.
  Board column;
  for (int r = 0; r < 4; ++r) column.set(g.padded(r, 0));
  CHECK(connection_distance(g, column, g.on_board.andnot(column), Color::Red) == 0);
  CHECK(connection_distance(g, Board{}, g.on_board.andnot(column), Color::Blue) == kFar);
}

}  // namespace

int main() {
  test_neighbours();
  test_thin_boards();
  test_swap();
  test_dark_hits();
  test_rex();
  test_random_games();
  test_board_follows();
  test_undo();
  test_planes();
  test_distances();
  return testing::finish("core tests");
}
