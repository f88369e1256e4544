#include "search/playout.h"

#include <algorithm>
#include <atomic>
#include <thread>
#include <vector>

#include "core/rng.h"
#include "search/search.h"

namespace hexengine {

namespace {

// Calls `play()` `n` times, in blocks of 1,024 with `stop` (if given) checked
// before each block, so the loop of a block stays as tight as without it.
template <class F>
void repeat(uint64_t n, const std::atomic<bool>* stop, F&& play) {
  for (uint64_t block = 0; block < n; block += 1024) {
    if (stop && stop->load(std::memory_order_relaxed)) return;
    const uint64_t end = std::min(n, block + 1024);
    for (uint64_t i = block; i < end; ++i) play();
  }
}

// Fill-the-board playouts for Hex and Rex from the stones `red0` and `blue0`;
// stops early once `stop` (if given) is set.
template <int W>
PlayoutCounts fill_playouts(const Geometry& g, Variant v, const Board& red0, const Board& blue0, Color to_move,
                            uint64_t n, Rng& rng, const std::atomic<bool>* stop = nullptr) {
  const auto red = Bitboard<W>::from(red0);
  const auto blue = Bitboard<W>::from(blue0);
  const auto empty = Bitboard<W>::from(g.on_board).andnot(red | blue);
  std::vector<int> cells;
  empty.for_each([&](int p) { cells.push_back(p); });
  const int count = static_cast<int>(cells.size());
  const int mover_share = (count + 1) / 2;
  const bool mover_is_red = to_move == Color::Red;
  PlayoutCounts out;
  repeat(n, stop, [&] {
    // A partial Fisher-Yates shuffle picks the mover's cells uniformly; the
    // array stays a permutation, so it need not be reset between playouts.
    Bitboard<W> mine;
    for (int k = 0; k < mover_share; ++k) {
      const int j = k + static_cast<int>(rng.below(static_cast<uint32_t>(count - k)));
      std::swap(cells[k], cells[j]);
      mine.set(cells[k]);
    }
    const Bitboard<W> full_red = mover_is_red ? red | mine : red | empty.andnot(mine);
    const Color owner = full_board_chain_owner(g, full_red);
    ++out.wins[index_of(winner_of_connection(v, owner))];
  });
  return out;
}

// Dark Hex playouts with the real dark rules; stops early once `stop` is set.
template <int W>
PlayoutCounts dark_playouts(const Game& game, uint64_t n, Rng& rng, const std::atomic<bool>* stop) {
  const Geometry& g = game.geometry();
  const Variant v = game.rules().variant;
  State<W> start;
  for (int c = 0; c < 2; ++c) {
    start.stones[c] = Bitboard<W>::from(game.state().stones[c]);
    start.found[c] = Bitboard<W>::from(game.state().found[c]);
  }
  start.to_move = game.state().to_move;
  for (Color c : {Color::Red, Color::Blue}) {
    start.stones[index_of(c)].for_each([&](int p) { start.chains.add_stone(g, c, p, start.stones[index_of(c)]); });
  }
  const auto board = Bitboard<W>::from(g.on_board);
  std::vector<int> unknown_start[2];
  for (int c = 0; c < 2; ++c) {
    board.andnot(start.stones[c] | start.found[c]).for_each([&](int p) { unknown_start[c].push_back(p); });
  }
  PlayoutCounts out;
  std::vector<int> unknown[2];
  repeat(n, stop, [&] {
    State<W> s = start;
    unknown[0] = unknown_start[0];
    unknown[1] = unknown_start[1];
    for (;;) {
      std::vector<int>& mine = unknown[index_of(s.to_move)];
      const Color mover = s.to_move;
      const size_t k = rng.below(static_cast<uint32_t>(mine.size()));
      const int p = mine[k];
      mine[k] = mine.back();
      mine.pop_back();
      if (play_move(s, g, v, p).connected) {
        ++out.wins[index_of(winner_of_connection(v, mover))];
        return;
      }
    }
  });
  return out;
}

template <int W>
PlayoutCounts playouts_for_width(const Game& game, uint64_t n, Rng& rng, const std::atomic<bool>* stop) {
  if (is_dark(game.rules().variant)) return dark_playouts<W>(game, n, rng, stop);
  const State<kMaxWords>& s = game.state();
  return fill_playouts<W>(game.geometry(), game.rules().variant, s.stones[0], s.stones[1], s.to_move, n, rng, stop);
}

PlayoutCounts playouts(const Game& game, uint64_t n, Rng& rng, const std::atomic<bool>* stop) {
  return with_width(game.geometry().words, [&](auto w) { return playouts_for_width<w.value>(game, n, rng, stop); });
}

template <int W>
uint64_t floor_for_width(const Geometry& g, uint64_t n, Rng& rng) {
  std::vector<int> cells;
  g.on_board.for_each([&](int p) { cells.push_back(p); });
  const int count = static_cast<int>(cells.size()), half = (count + 1) / 2;
  uint64_t red_wins = 0;
  for (uint64_t i = 0; i < n; ++i) {
    Bitboard<W> red;
    for (int k = 0; k < half; ++k) {
      std::swap(cells[k], cells[k + rng.below(static_cast<uint32_t>(count - k))]);
      red.set(cells[k]);
    }
    red_wins += full_board_chain_owner(g, red) == Color::Red;
  }
  return red_wins;
}

}  // namespace

uint64_t floor_playouts(int rows, int cols, uint64_t n, uint64_t seed) {
  const Geometry g = make_geometry(rows, cols);
  Rng rng(seed);
  return with_width(g.words, [&](auto w) { return floor_for_width<w.value>(g, n, rng); });
}

PlayoutCounts fill_playouts(const Geometry& g, Variant variant, const Board& red, const Board& blue, Color to_move,
                            uint64_t n, uint64_t seed) {
  Rng rng(derive_seed(seed, 0));
  return with_width(g.words, [&](auto w) { return fill_playouts<w.value>(g, variant, red, blue, to_move, n, rng); });
}

PlayoutCounts random_playouts(const Game& game, uint64_t n, uint64_t seed, int threads, const std::atomic<bool>* stop) {
  validate_threads(threads);
  PlayoutCounts total;
  if (game.is_over()) {
    total.wins[index_of(*game.winner())] = n;
    return total;
  }
  std::vector<PlayoutCounts> parts(threads);
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) {
    const uint64_t share = n / threads + (static_cast<uint64_t>(t) < n % threads ? 1 : 0);
    auto work = [&, t, share] {
      Rng rng(derive_seed(seed, t));
      parts[t] = playouts(game, share, rng, stop);
    };
    if (t + 1 == threads) {
      work();
    } else {
      pool.emplace_back(work);
    }
  }
  for (auto& th : pool) th.join();
  for (const auto& p : parts) {
    total.wins[0] += p.wins[0];
    total.wins[1] += p.wins[1];
  }
  return total;
}

}  // namespace hexengine
