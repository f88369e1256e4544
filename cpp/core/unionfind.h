// Union-find over the padded cells of a board plus four virtual edge nodes.
//
// Contract: `UnionFind<Bits>` covers padded indices 0 .. Bits-1 and, for each
// colour, two edge nodes `edge_node(color, 0|1)`. A stone touching one of its
// colour's edges is joined to that edge's node, so a colour has a finished
// chain exactly when its two edge nodes share a root. Path halving plus union
// by size keep each find near-constant. Stones of the two colours never share
// a cell, so one structure serves both colours. Bits is a multiple of 64 up to
// kMaxBits; search code picks the smallest that holds the board.
#pragma once

#include <array>
#include <cstdint>
#include <type_traits>
#include <utility>

#include "core/bitboard.h"
#include "core/geometry.h"

namespace hexengine {

// Disjoint sets of same-coloured stones, with virtual edge nodes.
template <int Bits>
class UnionFind {
 public:
  static constexpr int kNodes = Bits + 4;

  UnionFind() { clear(); }

  // A node index (and a set's size): one byte while every node fits in one,
  // so that a union-find of boards up to 13x13 takes half the cache.
  using Index = std::conditional_t<(kNodes < 256), uint8_t, int16_t>;

  // Makes every node its own set.
  void clear() {
    for (int i = 0; i < kNodes; ++i) {
      parent_[i] = static_cast<Index>(i);
      size_[i] = 1;
    }
  }

  // The virtual node of `color`'s first (0) or second (1) edge.
  static constexpr int edge_node(Color color, int which) { return Bits + 2 * index_of(color) + which; }

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
    parent_[b] = static_cast<Index>(a);
    size_[a] = static_cast<Index>(size_[a] + size_[b]);
  }

  // Whether `color`'s two edges are joined by a chain.
  bool connected(Color color) { return find(edge_node(color, 0)) == find(edge_node(color, 1)); }

  // Adds a stone of `color` at padded index `p`, joining it to its own-coloured
  // neighbours in `own` and to the edges it touches.
  template <int W>
  void add_stone(const Geometry& g, Color color, int p, const Bitboard<W>& own) {
    for (int off : neighbour_offsets(g.stride)) {
      const int q = p + off;
      if (q >= 0 && q < Bits && own.test(q)) unite(p, q);
    }
    const int ci = index_of(color);
    if (g.first_edge[ci].test(p)) unite(p, edge_node(color, 0));
    if (g.second_edge[ci].test(p)) unite(p, edge_node(color, 1));
  }

  // Whether a stone of `color` at empty padded index `p` would join its two edges.
  template <int W>
  bool would_connect(const Geometry& g, Color color, int p, const Bitboard<W>& own) {
    const int ci = index_of(color);
    const int a = find(edge_node(color, 0)), b = find(edge_node(color, 1));
    bool touch_a = g.first_edge[ci].test(p), touch_b = g.second_edge[ci].test(p);
    for (int off : neighbour_offsets(g.stride)) {
      const int q = p + off;
      if (q >= 0 && q < Bits && own.test(q)) {
        const int r = find(q);
        touch_a |= r == a;
        touch_b |= r == b;
      }
    }
    return touch_a && touch_b;
  }

 private:
  std::array<Index, kNodes> parent_;
  std::array<Index, kNodes> size_;
};

}  // namespace hexengine
