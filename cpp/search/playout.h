// Random playouts: complete random games from a true position.
//
// Contract: Hex and Rex use the fill-the-board technique: the empty cells are
// shared at random, the player to move getting the extra cell when their
// number is odd, and the colour owning a chain on the full board is the random
// game's winner in Hex and its loser in Rex (chains never break, and a full
// board holds exactly one, so the first chain completed is that one). Dark Hex
// plays the real dark rules with `play_move`: each side picks uniformly among
// the cells it does not know to be occupied; a hit reveals the stone, and in
// `dark` the same side picks again. Random players never use the swap rule.
// Results depend only on the position, n, seed and threads.
#pragma once

#include <atomic>
#include <cstdint>

#include "core/game.h"

namespace hexengine {

// Wins of each colour over a batch of random games.
struct PlayoutCounts {
  uint64_t wins[2] = {0, 0};
};

// Plays `n` random games from `game`'s true position on `threads` threads
// (ConfigError unless 1 <= threads <= kMaxThreads, see validate_threads).
// Once `stop` (if given) is set the threads stop within 1,024 games each, and
// the counts then cover fewer than `n` games.
PlayoutCounts random_playouts(const Game& game, uint64_t n, uint64_t seed, int threads,
                              const std::atomic<bool>* stop = nullptr);

// Fill-the-board playouts of Hex or Rex (`variant`) from the stones `red` and
// `blue` (padded bitboards of `g`, any counts) with `to_move` to play, on one
// thread: for a game in that position, the counts of random_playouts with one
// thread and the same seed.
PlayoutCounts fill_playouts(const Geometry& g, Variant variant, const Board& red, const Board& blue, Color to_move,
                            uint64_t n, uint64_t seed);
// The floor for benchmarks: a bare loop that shares the cells of an empty
// rows x cols board at random, fills it and checks it, with no game around
// it. Returns Red's wins.
uint64_t floor_playouts(int rows, int cols, uint64_t n, uint64_t seed);

// The colour owning a chain on a full board (`red` and `blue` partition the
// board's cells).
template <int W>
Color full_board_chain_owner(const Geometry& g, const Bitboard<W>& red) {
  const auto top = Bitboard<W>::from(g.first_edge[0]);
  const auto bottom = Bitboard<W>::from(g.second_edge[0]);
  const Bitboard<W> reach = flood(red & top, red, g.stride);
  return (reach & bottom).any() ? Color::Red : Color::Blue;
}

}  // namespace hexengine
