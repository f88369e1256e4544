// Union-find over the padded cells of one board plus four virtual edge nodes.
//
// Contract: node ids are padded indices (0 .. kMaxBits-1) and, for each colour,
// two edge nodes `edge_node(color, 0|1)`. A stone touching one of its colour's
// edges is joined to that edge's node, so a colour has a finished chain exactly
// when its two edge nodes share a root. Path halving plus union by size keep
// each find near-constant. Stones of the two colours never share a cell, so one
// structure serves both colours.
#pragma once

#include <array>
#include <cstdint>

#include "bitboard.h"
#include "geometry.h"

namespace hexengine {

// Disjoint sets of same-coloured stones, with virtual edge nodes.
class UnionFind {
 public:
  static constexpr int kNodes = kMaxBits + 4;

  UnionFind() { clear(); }

  // Makes every node its own set.
  void clear() {
    for (int i = 0; i < kNodes; ++i) {
      parent_[i] = static_cast<int16_t>(i);
      size_[i] = 1;
    }
  }

  // The virtual node of `color`'s first (0) or second (1) edge.
  static constexpr int edge_node(Color color, int which) { return kMaxBits + 2 * index_of(color) + which; }

  // Representative of the set containing `x`.
  int find(int x) {
    while (parent_[x] != x) {
      parent_[x] = parent_[parent_[x]];
      x = parent_[x];
    }
    return x;
  }

  // Merges the sets of `a` and `b`.
  void unite(int a, int b) {
    a = find(a);
    b = find(b);
    if (a == b) return;
    if (size_[a] < size_[b]) std::swap(a, b);
    parent_[b] = static_cast<int16_t>(a);
    size_[a] = static_cast<int16_t>(size_[a] + size_[b]);
  }

  // Whether `color`'s two edges are joined by a chain.
  bool connected(Color color) { return find(edge_node(color, 0)) == find(edge_node(color, 1)); }

  // Adds a stone of `color` at padded index `p`, joining it to its own-coloured
  // neighbours in `own` and to the edges it touches.
  void add_stone(const Geometry& g, Color color, int p, const Board& own) {
    for (int off : neighbour_offsets(g.stride)) {
      const int q = p + off;
      if (q >= 0 && q < kMaxBits && own.test(q)) unite(p, q);
    }
    const int ci = index_of(color);
    if (g.first_edge[ci].test(p)) unite(p, edge_node(color, 0));
    if (g.second_edge[ci].test(p)) unite(p, edge_node(color, 1));
  }

 private:
  std::array<int16_t, kNodes> parent_;
  std::array<int16_t, kNodes> size_;
};

}  // namespace hexengine
