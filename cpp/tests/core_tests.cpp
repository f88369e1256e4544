// Unit tests of the C++ core on its own, without Python.
// Build and run: cmake -B build/cpp && cmake --build build/cpp && ctest --test-dir build/cpp
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>
#include <thread>
#include <vector>

#include "core/errors.h"
#include "core/game.h"
#include "core/notation.h"
#include "search/arena.h"
#include "search/patterns.h"
#include "search/playout.h"
#include "search/search.h"

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

// Neighbours in the padded layout are the six of RULES.md section 1.
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

// Both swap forms do what RULES.md section 3 says, once, only as Blue's first action.
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

// The node pool hands out disjoint zeroed blocks, each inside one chunk, from
// one thread or several (whose spare chunks are made outside the lock), and
// stops at its budget.
void test_arena() {
  struct Tag {
    uint32_t owner = 0;
  };
  using Pool = Arena<Tag, int16_t>;
  constexpr uint32_t kThreads = 2, kBlocks = 6000;
  const uint64_t budget = 4 * Pool::kChunk;
  Pool pool(budget);
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> got(kThreads);
  auto work = [&](uint32_t t) {
    std::mt19937 rng(t);
    for (uint32_t b = 0; b < kBlocks; ++b) {
      const uint32_t count = 1 + rng() % 130, first = pool.allocate(count);
      if (first == kNoNode) break;
      got[t].push_back({first, count});
      for (uint32_t i = first; i < first + count; ++i) {
        CHECK(pool[i].owner == 0 && pool.get<int16_t>(i) == 0);
        pool[i].owner = t + 1;
        pool.get<int16_t>(i) = static_cast<int16_t>(t + 1);
      }
    }
  };
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < kThreads; ++t) threads.emplace_back(work, t);
  for (auto& th : threads) th.join();
  std::vector<std::pair<uint32_t, uint32_t>> all;
  uint64_t handed = 0;
  for (uint32_t t = 0; t < kThreads; ++t) {
    for (auto [first, count] : got[t]) {
      CHECK((first & (Pool::kChunk - 1)) + count <= Pool::kChunk);  // one chunk
      CHECK(pool.begin_of(first) + (count - 1) == &pool[first + count - 1]);
      CHECK(pool.begin_of<int16_t>(first) == &pool.get<int16_t>(first));
      for (uint32_t i = first; i < first + count; ++i) {
        CHECK(pool[i].owner == t + 1 && pool.get<int16_t>(i) == static_cast<int16_t>(t + 1));
      }
      all.push_back({first, count});
      handed += count;
    }
  }
  std::sort(all.begin(), all.end());
  for (size_t k = 1; k < all.size(); ++k) CHECK(all[k - 1].first + all[k - 1].second <= all[k].first);
  CHECK(handed == pool.used() && handed <= budget && handed > budget - 130 * kThreads - Pool::kChunk);
  CHECK(pool.allocate(1) == kNoNode);  // the budget is spent: it stays spent
}

// Pattern keys read the board as the player to move sees it: Blue's key of a
// cell is Red's key of the mirrored cell on the transposed board with the
// colours exchanged, a half turn of the board turns every key, and cells off
// the board read as kPatOff.
void test_patterns() {
  const int n = 7;
  const Geometry g = make_geometry(n, n);
  const PatternReader reader(g);
  std::mt19937 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<uint8_t> cells(kMaxBits, 0), transposed(kMaxBits, 0), turned(kMaxBits, 0);
    for (int r = 0; r < n; ++r) {
      for (int c = 0; c < n; ++c) {
        const uint8_t x = static_cast<uint8_t>(rng() % 3);
        cells[g.padded(r, c)] = x;
        transposed[g.padded(c, r)] = static_cast<uint8_t>(x == 0 ? 0 : 3 - x);
        turned[g.padded(n - 1 - r, n - 1 - c)] = x;
      }
    }
    for (int r = 0; r < n; ++r) {
      for (int c = 0; c < n; ++c) {
        const int p = g.padded(r, c), t = g.padded(c, r), h = g.padded(n - 1 - r, n - 1 - c);
        for (Color mover : {Color::Red, Color::Blue}) {
          const uint32_t key = reader.key(cells.data(), p, mover);
          CHECK(key < (1u << kPatternBits));
          CHECK(reader.key(transposed.data(), t, opponent(mover)) == key);
          CHECK(reader.key(turned.data(), h, mover) == turned_key(key));
          CHECK(canonical_key(turned_key(key)) == canonical_key(key));
          CHECK(inner_key(turned_key(key)) == inner_key(key));
        }
      }
    }
  }
  // At a1 (the top-left corner) only the steps right, down and down-right stay on the board.
  std::vector<uint8_t> empty(kMaxBits, 0);
  uint32_t corner = 0;
  for (int i = 0; i < kPatternCells; ++i) corner |= (i == 0 || i == 1 || i == 3 ? kPatEmpty : kPatOff) << (2 * i);
  CHECK(reader.key(empty.data(), g.padded(0, 0), Color::Red) == corner);
  CHECK(reader.key(empty.data(), g.padded(0, 0), Color::Blue) == corner);
  CHECK(reader.key(empty.data(), g.padded(3, 3), Color::Blue) == 0);
  // Where the last move lies.
  auto last_move = [&](int p, int last) {
    std::vector<LastMove> near(kMaxBits, LastMove::Elsewhere);
    reader.mark_last(near.data(), last, true);
    const LastMove where = near[p];
    reader.mark_last(near.data(), last, false);
    CHECK(std::count(near.begin(), near.end(), LastMove::Elsewhere) == kMaxBits);  // put back
    return where;
  };
  CHECK(last_move(g.padded(3, 3), g.padded(3, 4)) == LastMove::Adjacent);
  CHECK(last_move(g.padded(3, 3), g.padded(4, 4)) == LastMove::Bridge);
  CHECK(last_move(g.padded(3, 3), g.padded(3, 5)) == LastMove::Elsewhere);
  CHECK(last_move(g.padded(3, 3), -1) == LastMove::Elsewhere);
}

// random_playouts refuses a thread count outside 1..kMaxThreads (it used to
// treat 0 as 1 silently) and counts every game on a valid one.
void test_playout_threads() {
  const Game game = make(Variant::Hex, 3, 3);
  for (int threads : {0, -1, kMaxThreads + 1}) {
    bool refused = false;
    try {
      random_playouts(game, 10, 1, threads);
    } catch (const ConfigError&) {
      refused = true;
    }
    CHECK(refused);
  }
  const PlayoutCounts counts = random_playouts(game, 100, 1, 2);
  CHECK(counts.wins[0] + counts.wins[1] == 100);
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
  test_arena();
  test_patterns();
  test_playout_threads();
  return testing::finish("core tests");
}
