// Shortest connections: how many more stones a colour needs to join its edges.
//
// Contract: a distance counts the cells of `open` on a path of adjacent cells
// between a colour's two edges; the colour's own stones (`own`) cost nothing
// and every other cell (enemy stones, cells the caller shuts) is impassable.
// What is open is the caller's choice: a Dark Hex player passes every cell it
// does not know to be occupied, so a hidden enemy stone it cannot see costs 1
// like an empty cell, and only the enemy stones it has found block. `own` and
// `open` must be disjoint sets of cells of the geometry; nothing here throws
// except `move_distances`, which checks its View.
//
// Method: the cells at distance k from an edge are found a whole level at a
// time with bitboard floods (the open cells next to level k - 1 or on the
// edge, then every own stone joined to them), so a distance map costs one
// flood per level, with no queue.
#pragma once

#include <algorithm>
#include <array>
#include <cstdint>
#include <vector>

#include "core/bitboard.h"
#include "core/geometry.h"
#include "core/view.h"

namespace hexengine {

// Distance of a cell no path reaches.
inline constexpr int kFar = 0x7fff;

// Per padded cell, a distance (kFar where none).
template <int W>
using DistanceMap = std::array<int16_t, W * 64>;

// Distances of every cell from edge `edge` (0 first, 1 second) of colour `c`:
// the fewest `open` cells on a path from the edge to the cell, the cell
// included; own stones cost nothing; kFar for cells outside `own | open` and
// cells no such path reaches.
template <int W>
void edge_distances(const Geometry& g, const Bitboard<W>& own, const Bitboard<W>& open, Color c, int edge,
                    DistanceMap<W>& out) {
  out.fill(static_cast<int16_t>(kFar));
  const Bitboard<W> side = Bitboard<W>::from(edge == 0 ? g.first_edge[index_of(c)] : g.second_edge[index_of(c)]);
  const Bitboard<W> cells = Bitboard<W>::from(g.on_board);
  Bitboard<W> reached = flood(side & own, own, g.stride);
  reached.for_each([&](int p) { out[p] = 0; });
  for (int level = 1;; ++level) {
    const Bitboard<W> frontier = ((dilate(reached, g.stride) & cells) | side) & open.andnot(reached);
    if (!frontier.any()) return;
    const Bitboard<W> seed = reached | frontier;
    const Bitboard<W> next = flood(seed, seed | own, g.stride);
    next.andnot(reached).for_each([&](int p) { out[p] = static_cast<int16_t>(level); });
    reached = next;
  }
}

// Fewest `open` cells colour `c` needs to join its edges through `own` and
// `open` (0 once it is joined; kFar if no path is left).
template <int W>
int connection_distance(const Geometry& g, const Bitboard<W>& own, const Bitboard<W>& open, Color c) {
  const Bitboard<W> first = Bitboard<W>::from(g.first_edge[index_of(c)]);
  const Bitboard<W> second = Bitboard<W>::from(g.second_edge[index_of(c)]);
  const Bitboard<W> cells = Bitboard<W>::from(g.on_board);
  Bitboard<W> reached = flood(first & own, own, g.stride);
  for (int level = 0;; ++level) {
    if ((reached & second).any()) return level;
    const Bitboard<W> frontier = ((dilate(reached, g.stride) & cells) | first) & open.andnot(reached);
    if (!frontier.any()) return kFar;
    const Bitboard<W> seed = reached | frontier;
    reached = flood(seed, seed | own, g.stride);
  }
}

// For each cell of `open`, colour `c`'s connection distance once it puts a
// stone there, into `out` (padded; kFar elsewhere): the shorter of the
// distance now and the best path through the cell with the cell free.
template <int W>
void distances_after(const Geometry& g, const Bitboard<W>& own, const Bitboard<W>& open, Color c,
                     DistanceMap<W>& out) {
  DistanceMap<W> a, b;
  edge_distances(g, own, open, c, 0, a);
  edge_distances(g, own, open, c, 1, b);
  int now = kFar;
  Bitboard<W>::from(g.second_edge[index_of(c)]).for_each([&](int p) { now = std::min<int>(now, a[p]); });
  out.fill(static_cast<int16_t>(kFar));
  open.for_each([&](int p) {
    const int through = a[p] >= kFar || b[p] >= kFar ? kFar : a[p] + b[p] - 2;
    out[p] = static_cast<int16_t>(std::min(now, through));
  });
}

// The greedy player's scores for the player to move in `view`, per cell
// (public index): its connection distance after a stone of its own there,
// with its own stones free, every cell it does not know to be occupied open
// (empty or unknown alike) and the enemy stones it sees impassable; -1 where
// it may not play. Throws ConfigError unless `view` is a running game seen
// by the player to move.
std::vector<int> move_distances(const View& view);

}  // namespace hexengine
