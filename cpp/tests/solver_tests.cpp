// Unit tests of the solver's C++ API (the one the MCTS calls), without Python.
// Build and run: cmake -B build/cpp && cmake --build build/cpp && ctest --test-dir build/cpp
#include <algorithm>
#include <atomic>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <random>
#include <stdexcept>

#include "core/game.h"
#include "core/notation.h"
#include "solver/knowledge.h"
#include "solver/solver.h"
#include "solver/vc.h"

#include "tests/check.h"

using namespace hexengine;

namespace {

Rules rules(Variant v, int rows, int cols) { return make_rules(v, rows, cols, SwapForm::Off); }

template <class F>
bool throws_solve_error(F&& f) {
  try {
    f();
  } catch (const SolveError&) {
    return true;
  }
  return false;
}

// The first player wins Hex 3x3; the winning first moves are the five of the
// short diagonal and its neighbours on the opponent's edges.
void test_hex_3x3() {
  SolveLimits l;
  l.winning_moves = true;
  const SolveResult r = solve(rules(Variant::Hex, 3, 3), Board{}, Board{}, Color::Red, l);
  CHECK(r.status == SolveStatus::Proven);
  CHECK(r.winner == Color::Red);
  CHECK(r.winning_moves_known);
  CHECK((r.winning_moves == std::vector<int>{2, 3, 4, 5, 6}));  // c1 a2 b2 c2 a3
  CHECK(r.best_move >= 0);
  CHECK(r.stats.nodes > 0 && r.stats.memory_bytes > 0);
}

// Limits end the search with no winner and the status says which.
void test_limits() {
  const Rules big = rules(Variant::Hex, 9, 9);
  SolveLimits l;
  l.max_nodes = 10;
  SolveResult r = solve(big, Board{}, Board{}, Color::Red, l);
  CHECK(r.status == SolveStatus::NodeLimit && !r.winner && r.best_move == -1);
  std::atomic<bool> stop{true};
  SolveLimits s;
  s.stop = &stop;
  r = solve(big, Board{}, Board{}, Color::Red, s);
  CHECK(r.status == SolveStatus::Stopped && !r.winner);
  SolveLimits t;
  t.max_seconds = 0.05;
  r = solve(big, Board{}, Board{}, Color::Red, t);
  CHECK(r.status == SolveStatus::TimeLimit && !r.winner);
  // With two threads the limits bound both: nodes are counted together.
  SolveLimits p;
  p.threads = 2;
  p.max_nodes = 200;
  r = solve(big, Board{}, Board{}, Color::Red, p);
  CHECK(r.status == SolveStatus::NodeLimit && !r.winner && r.stats.nodes <= 202);
  p.max_nodes = 0;
  p.stop = &stop;
  r = solve(big, Board{}, Board{}, Color::Red, p);
  CHECK(r.status == SolveStatus::Stopped && !r.winner);
}

// Two threads give the one-thread answers on every 6x6 opening of the first
// row and on 7x7 centre, and the memory limit bounds both threads together.
void test_threads() {
  const Rules r6 = rules(Variant::Hex, 6, 6);
  const Geometry g = make_geometry(6, 6);
  for (int c = 0; c < 6; ++c) {
    Board red;
    red.set(g.padded(0, c));
    SolveLimits one, two;
    two.threads = 2;
    const SolveResult a = solve(r6, red, {}, Color::Blue, one);
    const SolveResult b = solve(r6, red, {}, Color::Blue, two);
    CHECK(a.status == SolveStatus::Proven && b.status == SolveStatus::Proven && a.winner == b.winner);
  }
  SolveLimits small;
  small.threads = 2;
  small.max_memory = 1ull << 20;
  const SolveResult m = solve(rules(Variant::Rex, 6, 6), Board{}, Board{}, Color::Red, small);
  CHECK(m.status == SolveStatus::MemoryLimit && m.stats.memory_bytes <= small.max_memory);
  // In Hex the kept H-search builds and children count too.
  for (int threads : {1, 2}) {
    small.threads = threads;
    const SolveResult h = solve(rules(Variant::Hex, 8, 8), Board{}, Board{}, Color::Red, small);
    CHECK(h.status == SolveStatus::MemoryLimit && h.stats.memory_bytes <= small.max_memory);
  }
}

// Bad requests throw SolveError before any search.
void test_errors() {
  const Geometry g = make_geometry(3, 3);
  Board a, b;
  a.set(g.padded(0, 0));
  b.set(g.padded(0, 0));
  SolveLimits l;
  CHECK(throws_solve_error([&] { solve(rules(Variant::Hex, 3, 3), a, b, Color::Red, l); }));
  CHECK(throws_solve_error([&] { solve(make_rules(Variant::Dark, 3, 3, SwapForm::Off), {}, {}, Color::Red, l); }));
  Board col;
  for (int r = 0; r < 3; ++r) col.set(g.padded(r, 1));
  CHECK(throws_solve_error([&] { solve(rules(Variant::Hex, 3, 3), col, {}, Color::Blue, l); }));
  SolveLimits bad;
  bad.max_seconds = -1;
  CHECK(throws_solve_error([&] { solve(rules(Variant::Hex, 3, 3), {}, {}, Color::Red, bad); }));
  SolveLimits none;
  none.threads = 0;
  CHECK(throws_solve_error([&] { solve(rules(Variant::Hex, 3, 3), {}, {}, Color::Red, none); }));
  Game fresh(make_rules(Variant::Hex, 3, 3, SwapForm::Sides));
  CHECK(throws_solve_error([&] { solve_game(fresh, l); }));
  // Moves to prove first must be empty cells of the board.
  for (int cell : {-1, 9, 1 << 20}) {
    SolveLimits off;
    off.first_moves = {4, cell};
    CHECK(throws_solve_error([&] { solve(rules(Variant::Hex, 3, 3), {}, {}, Color::Red, off); }));
  }
  SolveLimits taken;
  taken.first_moves = {0};
  CHECK(throws_solve_error([&] { solve(rules(Variant::Hex, 3, 3), a, {}, Color::Blue, taken); }));
  CHECK(throws_solve_error([&] { solve(rules(Variant::Hex, 3, 3), {}, a, Color::Red, taken); }));
}

// `stones` stones on random cells of `g`, Red and Blue alternately from Red
// (so Blue is to move when `stones` is odd).
void random_position(const Geometry& g, int stones, std::mt19937& rng, Board s[2]) {
  std::vector<int> cells(g.cells);
  for (int i = 0; i < g.cells; ++i) cells[i] = i;
  std::shuffle(cells.begin(), cells.end(), rng);
  for (int k = 0; k < stones; ++k) s[k % 2].set(g.padded(cells[k]));
}

// A random position as the solver's internals take it (see random_position);
// false when a colour has joined its edges already.
bool random_open_position(const solver::BoardInfo<1>& bi, const Geometry& g, int stones, std::mt19937& rng,
                          solver::Pos<1>& pos) {
  Board s[2];
  random_position(g, stones, rng, s);
  pos = solver::Pos<1>{{Bitboard<1>::from(s[0]), Bitboard<1>::from(s[1])}, 0};
  return solver::joined_colour(bi, pos) < 0;
}

// A random position of `stones` stones with a random player to move, after
// the fill-in of Rex (`misere`) or Hex; false when a colour has joined.
bool random_reduced_position(const solver::BoardInfo<1>& bi, const Geometry& g, int stones, std::mt19937& rng,
                             bool misere, solver::Pos<1>& pos) {
  Board s[2];
  random_position(g, stones, rng, s);
  pos = solver::Pos<1>{{Bitboard<1>::from(s[0]), Bitboard<1>::from(s[1])}, static_cast<int>(rng() % 2)};
  solver::reduce(bi, pos, true, true, misere);
  return solver::joined_colour(bi, pos) < 0;
}

// The winner by the reference search, also when a colour has joined its
// edges already (it has won Hex, lost Rex).
Color reference_winner(const solver::BoardInfo<1>& bi, ReferenceSearch& ref, const Bitboard<1>& red,
                       const Bitboard<1>& blue, Color mover) {
  const int j = solver::joined_colour(bi, solver::Pos<1>{{red, blue}, 0});
  if (j >= 0) return (j == 0) != is_misere(ref.rules().variant) ? Color::Red : Color::Blue;
  return ref.winner(Board::from(red), Board::from(blue), mover);
}

// The solver agrees with the plain reference search on random 4x4 positions
// of both games, and its winning move wins.
void test_against_reference() {
  std::mt19937 rng(7);
  for (Variant v : {Variant::Hex, Variant::Rex}) {
    const Rules rl = rules(v, 4, 4);
    const Geometry g = make_geometry(4, 4);
    ReferenceSearch ref(rl);
    int checked = 0;
    while (checked < 60) {
      Board s[2];
      const int stones = 3 + static_cast<int>(rng() % 8);
      random_position(g, stones, rng, s);
      const Color mover = stones % 2 ? Color::Blue : Color::Red;
      Color want;
      try {
        want = ref.winner(s[0], s[1], mover);
      } catch (const SolveError&) {
        continue;  // finished
      }
      SolveLimits l;
      const SolveResult r = solve(rl, s[0], s[1], mover, l);
      CHECK(r.status == SolveStatus::Proven && r.winner == want);
      SolveLimits two = l;
      two.threads = 2;
      const SolveResult p = solve(rl, s[0], s[1], mover, two);
      CHECK(p.status == SolveStatus::Proven && p.winner == want);
      // Two empty cells proven first, on one thread and on two: the same
      // answer, and a first move that wins is the best move.
      const Board empty = g.on_board.andnot(s[0] | s[1]);
      std::vector<int> free;
      empty.for_each([&](int q) { free.push_back(g.unpadded(q)); });
      std::shuffle(free.begin(), free.end(), rng);
      SolveLimits first = l;
      first.first_moves = {free[0], free[1 % free.size()]};
      first.winning_moves = true;
      for (int threads : {1, 2}) {
        first.threads = threads;
        const SolveResult f = solve(rl, s[0], s[1], mover, first);
        CHECK(f.status == SolveStatus::Proven && f.winner == want && f.winning_moves_known);
        const auto wins = [&](int cell) {
          return std::find(f.winning_moves.begin(), f.winning_moves.end(), cell) != f.winning_moves.end();
        };
        if (want == mover) {
          const int expected = wins(free[0]) ? free[0] : wins(first.first_moves[1]) ? first.first_moves[1] : -1;
          CHECK(expected < 0 || f.best_move == expected);
          CHECK(wins(f.best_move));
        } else {
          CHECK(f.winning_moves.empty() && f.best_move == -1);
        }
      }
      if (want == mover) {
        CHECK(r.best_move >= 0);
        Board after = s[index_of(mover)];
        after.set(g.padded(r.best_move));
        const Board& red = mover == Color::Red ? after : s[0];
        const Board& blue = mover == Color::Blue ? after : s[1];
        bool joined = false;
        try {
          CHECK(ref.winner(red, blue, opponent(mover)) == mover);
        } catch (const SolveError&) {
          joined = true;  // the move joined: a win in Hex, a loss in Rex
        }
        if (joined) CHECK(v == Variant::Hex);
      }
      ++checked;
    }
  }
}

// The inferior-cell analysis the search prunes with (fill-in, then dominated
// and vulnerable moves) keeps a winning move of every won 5x5 Hex position:
// each kept move is played on the position as it stands and checked by the
// reference search, and a win is found among them whenever the mover wins.
void test_inferior_keeps_a_win() {
  const Rules rl = rules(Variant::Hex, 5, 5);
  const Geometry g = make_geometry(5, 5);
  const solver::BoardInfo<1> bi(g);
  ReferenceSearch ref(rl);
  std::mt19937 rng(11);
  int won = 0, pruned = 0;
  for (int trial = 0; trial < 200; ++trial) {
    Board s[2];
    const int stones = 11 + static_cast<int>(rng() % 5);
    random_position(g, stones, rng, s);
    const Color mover = stones % 2 ? Color::Blue : Color::Red;
    try {
      if (ref.winner(s[0], s[1], mover) != mover) continue;
    } catch (const SolveError&) {
      continue;  // finished
    }
    ++won;
    solver::Pos<1> pos{{Bitboard<1>::from(s[0]), Bitboard<1>::from(s[1])}, index_of(mover)};
    solver::reduce(bi, pos, true, true, false);
    if (solver::joined_colour(bi, pos) >= 0) continue;
    const Bitboard<1> empty = bi.on_board.andnot(pos.stones[0] | pos.stones[1]);
    Bitboard<1> region;
    const Bitboard<1> kept = solver::prune_inferior(bi, pos, empty, true, true, region);
    pruned += bi.on_board.andnot(Bitboard<1>::from(s[0] | s[1])).count() - kept.count();
    bool wins = false;
    kept.for_each([&](int p) {
      Board after[2] = {s[0], s[1]};
      after[index_of(mover)].set(p);
      try {
        wins = wins || ref.winner(after[0], after[1], opponent(mover)) == mover;
      } catch (const SolveError&) {
        wins = true;  // the move joins the mover's edges
      }
    });
    CHECK(wins);
  }
  CHECK(won > 80 && pruned > 400);
}

// The two fill-in probes of prune_inferior, checked against the reference
// search on random reduced 4x4 and 5x5 Hex positions: after a Y stone on k,
// every cell Y's fill-in fills as dead is worth the same to either colour
// (with either player to move); after an X stone on d, X's fill-in keeps the
// value, and every cell it fills is worth no more to X than d.
void test_fill_in_probes() {
  for (int n : {4, 5}) {
    const Rules rl = rules(Variant::Hex, n, n);
    const Geometry g = make_geometry(n, n);
    const solver::BoardInfo<1> bi(g);
    ReferenceSearch ref(rl);
    auto winner = [&](const Bitboard<1>& red, const Bitboard<1>& blue, Color mover) {
      return reference_winner(bi, ref, red, blue, mover);
    };
    std::mt19937 rng(17);
    int killed = 0, dominated = 0;
    for (int trial = 0; trial < (n == 4 ? 300 : 40); ++trial) {
      solver::Pos<1> pos;
      const int stones = n == 4 ? 2 + static_cast<int>(rng() % 7) : 10 + static_cast<int>(rng() % 6);
      if (!random_reduced_position(bi, g, stones, rng, false, pos)) continue;
      const int me = pos.mover, you = 1 - me;
      const Color x = me == 0 ? Color::Red : Color::Blue, y = opponent(x);
      const Bitboard<1> empty = bi.on_board.andnot(pos.stones[0] | pos.stones[1]);
      empty.for_each([&](int k) {
        solver::Pos<1> after = pos;
        Bitboard<1> dead;
        solver::fill_after(bi, after, k, you, dead);
        dead.for_each([&](int c) {
          ++killed;
          Bitboard<1> with[2] = {pos.stones[0], pos.stones[1]};
          with[you].set(k);
          Bitboard<1> as_x[2] = {with[0], with[1]}, as_y[2] = {with[0], with[1]};
          as_x[me].set(c);
          as_y[you].set(c);
          for (Color mover : {x, y}) CHECK(winner(as_x[0], as_x[1], mover) == winner(as_y[0], as_y[1], mover));
        });
      });
      empty.for_each([&](int d) {
        solver::Pos<1> after = pos;
        Bitboard<1> dead;
        const Bitboard<1> filled = solver::fill_after(bi, after, d, me, dead);
        Bitboard<1> with[2] = {pos.stones[0], pos.stones[1]};
        with[me].set(d);
        const Color value = winner(with[0], with[1], y);
        CHECK(winner(after.stones[0], after.stones[1], y) == value);
        filled.for_each([&](int c) {
          ++dominated;
          Bitboard<1> instead[2] = {pos.stones[0], pos.stones[1]};
          instead[me].set(c);
          CHECK(winner(instead[0], instead[1], y) != x || value == x);
        });
      });
    }
    CHECK(killed > (n == 4 ? 500 : 50) && dominated > (n == 4 ? 500 : 50));
  }
}

// The fill-in after a stone fills only empty cells, on boards of more than
// one word too (8x8 and 11x11 take two and three): a fill there once marked a
// neighbour of the other colour as dirty in a word the same pass then read,
// and filled that stone as dead.
template <int W>
void check_fills_stay_on_empty_cells(int n, int trials) {
  const Geometry g = make_geometry(n, n);
  const solver::BoardInfo<W> bi(g);
  std::mt19937 rng(23);
  int fills = 0;
  for (int trial = 0; trial < trials; ++trial) {
    Board s[2];
    random_position(g, 4 + static_cast<int>(rng() % (g.cells / 2)), rng, s);
    solver::Pos<W> pos{{Bitboard<W>::from(s[0]), Bitboard<W>::from(s[1])}, 0};
    solver::reduce(bi, pos, true, true, false);
    if (solver::joined_colour(bi, pos) >= 0) continue;
    const Bitboard<W> stones = pos.stones[0] | pos.stones[1];
    bi.on_board.andnot(stones).for_each([&](int k) {
      for (int c = 0; c < 2; ++c) {
        solver::Pos<W> after = pos;
        Bitboard<W> dead;
        const Bitboard<W> filled = solver::fill_after(bi, after, k, c, dead);
        fills += filled.count();
        CHECK(!(filled & stones).any());
        CHECK(!(after.stones[0] & after.stones[1]).any());
      }
    });
  }
  CHECK(fills > 1000);
}

void test_fills_stay_on_empty_cells() {
  check_fills_stay_on_empty_cells<2>(8, 300);
  check_fills_stay_on_empty_cells<3>(11, 100);
}

// A VC decomposition keeps the value of the position: on random 4x4 and 5x5
// Hex positions, filling the carrier it returns for either colour leaves the
// winner the reference search finds unchanged, with either player to move.
void test_decompositions_keep_the_value() {
  for (int n : {4, 5}) {
    const Rules rl = rules(Variant::Hex, n, n);
    const Geometry g = make_geometry(n, n);
    const solver::BoardInfo<1> bi(g);
    solver::VcBuilder<1> vc;
    ReferenceSearch ref(rl);
    std::mt19937 rng(13);
    int found = 0;
    for (int trial = 0; trial < (n == 4 ? 1000 : 200); ++trial) {
      Board s[2];
      const int stones = n == 4 ? 4 + static_cast<int>(rng() % 8) : 11 + static_cast<int>(rng() % 8);
      random_position(g, stones, rng, s);
      const solver::Pos<1> pos{{Bitboard<1>::from(s[0]), Bitboard<1>::from(s[1])}, 0};
      if (solver::joined_colour(bi, pos) >= 0) continue;
      for (int c = 0; c < 2; ++c) {
        vc.build(bi, pos, c);
        const Bitboard<1> carrier = vc.decomposition(bi, pos, c);
        if (!carrier.any()) continue;
        ++found;
        CHECK(!(carrier & (pos.stones[0] | pos.stones[1])).any());
        Board filled[2] = {s[0], s[1]};
        filled[c] |= Board::from(carrier);
        for (Color mover : {Color::Red, Color::Blue}) {
          Color after = c == 0 ? Color::Red : Color::Blue;
          try {
            after = ref.winner(filled[0], filled[1], mover);
          } catch (const SolveError&) {
            // the filled carrier joined c's edges: c had won already
          }
          CHECK(ref.winner(s[0], s[1], mover) == after);
        }
      }
    }
    CHECK(found > (n == 4 ? 100 : 20));
  }
}

// Whether colour c's ends ea and eb (an edge -1 or -2, or the group on a
// cell) are joined by c's stones in `pos`, each of c's edges counting as one
// node that every stone on its line touches (as in H-search).
bool ends_joined(const solver::BoardInfo<1>& bi, const solver::Pos<1>& pos, int c, int ea, int eb) {
  const Bitboard<1> mine = pos.stones[c];
  const Bitboard<1> line[2] = {bi.edge1[c] & mine, bi.edge2[c] & mine};
  bool edge[2] = {ea == -1, ea == -2};
  Bitboard<1> comp;
  if (ea >= 0) comp.set(ea);
  for (bool grew = true; grew;) {
    grew = false;
    for (int e = 0; e < 2; ++e) {
      if (!edge[e] && (comp & line[e]).any()) edge[e] = grew = true;
      if (edge[e]) comp |= line[e];
    }
    const Bitboard<1> next = flood(comp, mine, bi.stride);
    grew |= next.count() != comp.count();
    comp = next;
  }
  return eb >= 0 ? comp.test(eb) : edge[-1 - eb];
}

// The region game by brute force: the opponent of c to move (or c when
// `c_moves`) on the empty cells of `pos`; whether c ends with its ends joined.
bool region_game(const solver::BoardInfo<1>& bi, const solver::Pos<1>& pos, int c, int ea, int eb, bool c_moves,
                 std::map<std::pair<uint64_t, uint64_t>, bool>& memo) {
  if (ends_joined(bi, pos, c, ea, eb)) return true;
  const Bitboard<1> empty = bi.on_board.andnot(pos.stones[0] | pos.stones[1]);
  if (!empty.any()) return false;
  const auto key = std::make_pair(pos.stones[c].w[0], pos.stones[1 - c].w[0] | (c_moves ? 1ull << 63 : 0));
  if (const auto it = memo.find(key); it != memo.end()) return it->second;
  bool result = !c_moves;
  empty.for_each([&](int p) {
    if (result == c_moves) return;  // decided
    solver::Pos<1> q = pos;
    q.stones[c_moves ? c : 1 - c].set(p);
    if (region_game(bi, q, c, ea, eb, !c_moves, memo) == c_moves) result = c_moves;
  });
  memo[key] = result;
  return result;
}

// A local proof of a connection inside a region (what a VC decomposition
// falls back on) is right: on random 4x4 and 5x5 positions, whenever
// `joins_inside` says a colour joins two of its ends inside a random region
// with the opponent moving first, the brute-force region game agrees.
void test_local_connection_proofs() {
  solver::VcSizes sizes;
  sizes.local_plies = 2;
  sizes.local_builds = 400;
  int proven = 0, deep = 0;
  for (int n : {4, 5}) {
    const Geometry g = make_geometry(n, n);
    const solver::BoardInfo<1> bi(g);
    solver::VcBuilder<1> vc(sizes);
    solver::VcBuilder<1> flat(solver::VcSizes{.local_plies = 0});  // no moves, only the builds
    std::mt19937 rng(17);
    for (int trial = 0; trial < 5000; ++trial) {
      solver::Pos<1> pos;
      if (!random_open_position(bi, g, (n == 4 ? 3 : 8) + static_cast<int>(rng() % 6), rng, pos)) continue;
      const int c = static_cast<int>(rng() % 2);
      std::vector<int> ends = {-1, -2};
      pos.stones[c].for_each([&](int p) { ends.push_back(p); });
      const int ea = ends[rng() % ends.size()], eb = ends[rng() % ends.size()];
      if (ea == eb) continue;
      const Bitboard<1> empty = bi.on_board.andnot(pos.stones[0] | pos.stones[1]);
      Bitboard<1> region;
      empty.for_each([&](int p) {
        if (rng() % 5 != 0) region.set(p);
      });
      if (region.count() > 12) continue;
      solver::Pos<1> game = pos;
      game.stones[1 - c] |= empty.andnot(region);
      if (ends_joined(bi, game, c, ea, eb)) continue;
      if (!vc.joins_inside(bi, pos, c, ea, eb, region)) continue;
      ++proven;
      std::map<std::pair<uint64_t, uint64_t>, bool> memo;
      CHECK(region_game(bi, game, c, ea, eb, false, memo));
      // Proofs that needed a move of c's, not only the build's connections.
      deep += !flat.joins_inside(bi, pos, c, ea, eb, region);
    }
  }
  CHECK(proven > 500 && deep > 10);
  std::printf("local connection proofs: %d checked, %d needing moves\n", proven, deep);
}

// Checks a build's edge connection for colour c in `pos`: a full one joins
// c's edges inside its carrier with the opponent moving first, the smallest
// semi one after c's stone on its key (brute-force region games, carriers of
// up to 14 cells). Counts what it checked in `fulls` and `semis`.
void check_edge_connection(const solver::BoardInfo<1>& bi, const solver::Pos<1>& pos, int c,
                           const solver::EdgeConnection<1>& ec, int& fulls, int& semis) {
  const Bitboard<1> empty = bi.on_board.andnot(pos.stones[0] | pos.stones[1]);
  auto holds = [&](const Bitboard<1>& carrier, int key) {
    solver::Pos<1> game = pos;
    game.stones[1 - c] |= empty.andnot(carrier);
    if (key >= 0) game.stones[c].set(key);
    std::map<std::pair<uint64_t, uint64_t>, bool> memo;
    return region_game(bi, game, c, -1, -2, false, memo);
  };
  if (ec.full && ec.full_carrier.count() <= 14) {
    ++fulls;
    CHECK(holds(ec.full_carrier, -1));
  } else if (!ec.full && ec.semis && ec.smallest.count() <= 14) {
    ++semis;
    CHECK(holds(ec.smallest, ec.key));
  }
}

// H-search's edge connections are real: on random 5x5 and 6x6 positions,
// whenever a build finds a full connection between a colour's edges, the
// colour joins them inside its carrier with the opponent moving first, and
// so for the smallest semi connection after the colour's stone on its key.
void test_edge_connections_hold() {
  int fulls = 0, semis = 0;
  for (int n : {5, 6}) {
    const Geometry g = make_geometry(n, n);
    const solver::BoardInfo<1> bi(g);
    solver::VcBuilder<1> vc;
    std::mt19937 rng(29);
    for (int trial = 0; trial < 3000; ++trial) {
      solver::Pos<1> pos;
      if (!random_open_position(bi, g, (n == 5 ? 5 : 10) + static_cast<int>(rng() % 6), rng, pos)) continue;
      const int c = static_cast<int>(rng() % 2);
      check_edge_connection(bi, pos, c, vc.build(bi, pos, c), fulls, semis);
    }
  }
  CHECK(fulls > 300 && semis > 300);
  std::printf("edge connections: %d full and %d semi checked\n", fulls, semis);
}

// Lists that keep, past their capacity, the carriers that narrow their pair's
// intersection (`narrowing`) find only real edge connections, and find a full
// one in more positions than lists cut at the same capacity: on random 5x5
// and 6x6 positions, with room for one full and two semi carriers a pair.
void test_narrowing_lists_hold() {
  int fulls = 0, semis = 0, more = 0, fewer = 0;
  for (int n : {5, 6}) {
    const Geometry g = make_geometry(n, n);
    const solver::BoardInfo<1> bi(g);
    solver::VcBuilder<1> cut(solver::VcSizes{.max_full = 1, .max_semi = 2});
    solver::VcBuilder<1> narrowing(solver::VcSizes{.max_full = 1, .max_semi = 2, .narrowing = true});
    std::mt19937 rng(37);
    for (int trial = 0; trial < 3000; ++trial) {
      solver::Pos<1> pos;
      if (!random_open_position(bi, g, (n == 5 ? 5 : 10) + static_cast<int>(rng() % 6), rng, pos)) continue;
      const int c = static_cast<int>(rng() % 2);
      const solver::EdgeConnection<1> kept = narrowing.build(bi, pos, c);
      check_edge_connection(bi, pos, c, kept, fulls, semis);
      const bool cut_full = cut.build(bi, pos, c).full;
      more += kept.full && !cut_full;
      fewer += cut_full && !kept.full;
    }
  }
  CHECK(fulls > 300 && semis > 300 && more > 10 * std::max(fewer, 1));
  std::printf("narrowing lists: %d full and %d semi checked; a full found by them alone %d times, only without them %d\n",
              fulls, semis, more, fewer);
}

// A build that starts from the kept build of an earlier position (the same
// one with one to three stones of either colour fewer) finds only real edge
// connections too: the kept connections that the new stones break are gone.
void test_started_builds_hold() {
  int fulls = 0, semis = 0, started = 0;
  for (int n : {5, 6}) {
    const Geometry g = make_geometry(n, n);
    const solver::BoardInfo<1> bi(g);
    solver::VcBuilder<1> vc(solver::VcSizes{.kept = 64, .kept_bytes = 1 << 24});
    std::mt19937 rng(31);
    for (int trial = 0; trial < 4000; ++trial) {
      solver::Pos<1> pos;
      if (!random_open_position(bi, g, (n == 5 ? 6 : 11) + static_cast<int>(rng() % 6), rng, pos)) continue;
      solver::Pos<1> before = pos;
      for (int k = 1 + static_cast<int>(rng() % 3); k > 0; --k) {
        std::vector<int> stones;
        (before.stones[0] | before.stones[1]).for_each([&](int p) { stones.push_back(p); });
        const int p = stones[rng() % stones.size()];
        before.stones[0].reset(p);
        before.stones[1].reset(p);
      }
      const int c = static_cast<int>(rng() % 2);
      vc.build(bi, before, c);
      const solver::EdgeConnection<1> ec = vc.build(bi, pos, c, &before);
      if (!vc.started()) continue;
      ++started;
      check_edge_connection(bi, pos, c, ec, fulls, semis);
    }
  }
  CHECK(started > 2000 && fulls > 300 && semis > 300);
  std::printf("started builds: %d, %d full and %d semi checked\n", started, fulls, semis);
}

// With the swap available, the sides form hands the mover Red's side.
void test_swap() {
  Game g(make_rules(Variant::Hex, 3, 3, SwapForm::Sides));
  g.play(parse_cell(g.geometry(), "b2"));
  SolveLimits l;
  l.winning_moves = true;
  const SolveResult r = solve_game(g, l);
  CHECK(r.status == SolveStatus::Proven && r.winner == Color::Red && r.swap_wins && r.best_move == -2);
  CHECK(r.winning_moves.empty());
}

// Rex knowledge checked against the reference search on random reduced 4x4
// and 5x5 Rex positions, with either player to move: a colour whose pairing
// H-search has a full connection between its edges loses whoever moves; one
// with a semi connection loses when it fills the last cell, and a stone on
// the key of any of its semis loses for it; and rex_prune_inferior keeps a
// winning move whenever the mover has one.
void test_rex_pairings_and_inferior_cells() {
  int full = 0, semi = 0, keys = 0, pruned = 0;
  for (int n : {4, 5}) {
    const Rules rl = rules(Variant::Rex, n, n);
    const Geometry g = make_geometry(n, n);
    const solver::BoardInfo<1> bi(g);
    ReferenceSearch ref(rl);
    solver::VcBuilder<1> pairing(solver::VcSizes{.max_ors = 1});
    // The winner as a colour index, with the mover as one.
    auto winner = [&](const Bitboard<1>& red, const Bitboard<1>& blue, int mover) {
      return index_of(reference_winner(bi, ref, red, blue, static_cast<Color>(mover)));
    };
    std::mt19937 rng(23);
    for (int trial = 0; trial < (n == 4 ? 400 : 120); ++trial) {
      solver::Pos<1> pos;
      const int stones = n == 4 ? 2 + static_cast<int>(rng() % 8) : 9 + static_cast<int>(rng() % 7);
      if (!random_reduced_position(bi, g, stones, rng, true, pos)) continue;
      const Bitboard<1> empty = bi.on_board.andnot(pos.stones[0] | pos.stones[1]);
      if (!empty.any()) continue;
      const bool odd = empty.count() % 2 == 1;
      for (int c = 0; c < 2; ++c) {
        const solver::EdgeConnection<1> e = pairing.build(bi, pos, c);
        if (e.full) {
          ++full;
          for (int mover = 0; mover < 2; ++mover) CHECK(winner(pos.stones[0], pos.stones[1], mover) != c);
          continue;
        }
        if (e.semis) {
          ++semi;
          const int last = odd ? pos.mover : 1 - pos.mover;  // fills the last cell
          if (last == c) CHECK(winner(pos.stones[0], pos.stones[1], pos.mover) != c);
        }
        e.keys.for_each([&](int k) {
          ++keys;
          Bitboard<1> after[2] = {pos.stones[0], pos.stones[1]};
          after[c].set(k);
          CHECK(winner(after[0], after[1], 1 - c) != c);
        });
      }
      const int me = pos.mover;
      const Bitboard<1> kept = solver::rex_prune_inferior(bi, pos, empty, true, true);
      pruned += empty.count() - kept.count();
      if (winner(pos.stones[0], pos.stones[1], me) != me) continue;
      bool wins = false;
      kept.for_each([&](int p) {
        Bitboard<1> after[2] = {pos.stones[0], pos.stones[1]};
        after[me].set(p);
        wins = wins || winner(after[0], after[1], 1 - me) == me;
      });
      CHECK(wins);
    }
  }
  std::printf("rex pairings: %d full, %d semi, %d keys; %d moves pruned as inferior\n", full, semi, keys, pruned);
  CHECK(full > 50 && semi > 50 && keys > 100 && pruned > 300);
}

// The solver's compact layout (8x8 in one word, 11x11 in two: no guard
// column) answers exactly as the padded one on random positions: the
// fill-in of both games, the inferior moves, the move order, H-search with
// the edge templates, Rex's pairings and the VC decompositions.
template <int P, int C>
void check_layouts_agree(int n, int trials) {
  const Geometry g = make_geometry(n, n);
  const solver::BoardInfo<P> pb(g);
  const solver::BoardInfo<C> cb(g);
  CHECK(!pb.compact && cb.compact);
  // The public indices of a set, in order.
  auto cells = [](const auto& bi, const auto& set) {
    std::vector<int> v;
    set.for_each([&](int p) { v.push_back(bi.public_cell(p)); });
    return v;
  };
  auto same = [&](const solver::Pos<P>& a, const solver::Pos<C>& b) {
    return a.mover == b.mover && cells(pb, a.stones[0]) == cells(cb, b.stones[0]) &&
           cells(pb, a.stones[1]) == cells(cb, b.stones[1]);
  };
  solver::VcBuilder<P> vp;
  solver::VcBuilder<C> vc;
  vp.use_templates(true);
  vc.use_templates(true);
  solver::VcBuilder<P> pairs_p{solver::VcSizes{.max_ors = 1}};
  solver::VcBuilder<C> pairs_c{solver::VcSizes{.max_ors = 1}};
  std::mt19937 rng(29);
  int compared = 0;
  for (int trial = 0; trial < trials; ++trial) {
    Board s[2];
    random_position(g, 4 + static_cast<int>(rng() % (g.cells / 2)), rng, s);
    const int mover = static_cast<int>(rng() % 2);
    solver::Pos<P> pp{{pb.from_board(s[0]), pb.from_board(s[1])}, mover};
    solver::Pos<C> pc{{cb.from_board(s[0]), cb.from_board(s[1])}, mover};
    CHECK(same(pp, pc));
    for (bool misere : {false, true}) {
      solver::Pos<P> rp = pp;
      solver::Pos<C> rc = pc;
      CHECK(cells(pb, solver::dead_cells_by_groups(pb, rp)) == cells(cb, solver::dead_cells_by_groups(cb, rc)));
      solver::reduce(pb, rp, true, true, misere);
      solver::reduce(cb, rc, true, true, misere);
      CHECK(same(rp, rc));
      if (!same(rp, rc) || solver::joined_colour(pb, rp) >= 0) continue;
      ++compared;
      const Bitboard<P> ep = pb.on_board.andnot(rp.stones[0] | rp.stones[1]);
      const Bitboard<C> ec = cb.on_board.andnot(rc.stones[0] | rc.stones[1]);
      std::array<float, 64 * P> sp;
      std::array<float, 64 * C> sc;
      solver::resistance_scores(pb, rp, sp);
      solver::resistance_scores(cb, rc, sc);
      for (int i = 0; i < g.cells; ++i) CHECK(sp[pb.cells[i]] == sc[cb.cells[i]]);
      if (misere) {
        CHECK(cells(pb, solver::rex_prune_inferior(pb, rp, ep, true, true)) ==
              cells(cb, solver::rex_prune_inferior(cb, rc, ec, true, true)));
        for (int c = 0; c < 2; ++c) {
          const auto a = pairs_p.build(pb, rp, c);
          const auto b = pairs_c.build(cb, rc, c);
          CHECK(a.full == b.full && a.semis == b.semis && cells(pb, a.keys) == cells(cb, b.keys));
        }
        continue;
      }
      Bitboard<P> region_p;
      Bitboard<C> region_c;
      CHECK(cells(pb, solver::prune_inferior(pb, rp, ep, true, true, region_p)) ==
            cells(cb, solver::prune_inferior(cb, rc, ec, true, true, region_c)));
      CHECK(cells(pb, region_p) == cells(cb, region_c));
      for (int c = 0; c < 2; ++c) {
        const auto a = vp.build(pb, rp, c);
        const auto b = vc.build(cb, rc, c);
        CHECK(a.full == b.full && a.semis == b.semis && a.key >= -1 && b.key >= -1);
        CHECK(cells(pb, a.full_carrier) == cells(cb, b.full_carrier));
        CHECK(cells(pb, a.intersection) == cells(cb, b.intersection) && cells(pb, a.union_) == cells(cb, b.union_));
        CHECK(cells(pb, vp.decomposition(pb, rp, c)) == cells(cb, vc.decomposition(cb, rc, c)));
      }
    }
  }
  CHECK(compared > trials / 2);
}

void test_layouts_agree() {
  check_layouts_agree<2, 1>(8, 300);
  check_layouts_agree<3, 2>(11, 60);
  bool refused = false;  // a board too large for the width is refused, not overrun
  try {
    const solver::BoardInfo<1> too_small(make_geometry(9, 9));
  } catch (const std::logic_error&) {
    refused = true;
  }
  CHECK(refused);
}

// On 8x8, which the solver runs in the compact layout, its winning moves are
// public cell indices: playing each wins, and every other move loses.
void test_compact_board_moves() {
  const Rules rl = rules(Variant::Hex, 8, 8);
  const Geometry g = make_geometry(8, 8);
  std::mt19937 rng(31);
  int checked = 0;
  for (int trial = 0; trial < 6; ++trial) {
    Board s[2];
    random_position(g, 40, rng, s);
    if (joins_edges(g, s[0], Color::Red) || joins_edges(g, s[1], Color::Blue)) continue;
    SolveLimits l;
    l.winning_moves = true;
    const SolveResult r = solve(rl, s[0], s[1], Color::Red, l);
    CHECK(r.status == SolveStatus::Proven);
    for (int cell = 0; cell < g.cells; ++cell) {
      const int p = g.padded(cell);
      if (s[0].test(p) || s[1].test(p)) continue;
      Board red = s[0];
      red.set(p);
      const bool wins = std::binary_search(r.winning_moves.begin(), r.winning_moves.end(), cell);
      if (joins_edges(g, red, Color::Red)) {
        CHECK(wins);
        continue;
      }
      const SolveResult after = solve(rl, red, s[1], Color::Blue, SolveLimits{});
      CHECK(after.status == SolveStatus::Proven && (after.winner == Color::Red) == wins);
      ++checked;
    }
  }
  CHECK(checked > 50);
}

}  // namespace

int main() {
  test_hex_3x3();
  test_limits();
  test_errors();
  test_against_reference();
  test_inferior_keeps_a_win();
  test_fill_in_probes();
  test_fills_stay_on_empty_cells();
  test_layouts_agree();
  test_compact_board_moves();
  test_decompositions_keep_the_value();
  test_local_connection_proofs();
  test_edge_connections_hold();
  test_started_builds_hold();
  test_narrowing_lists_hold();
  test_swap();
  test_rex_pairings_and_inferior_cells();
  test_threads();
  return testing::finish("solver tests");
}
