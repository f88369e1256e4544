// Edge templates: stones of one player near its edge, with a carrier of empty
// cells, that join their first stone (the anchor) to the edge even if the
// opponent moves first. The table (edge_templates.inc) holds the ones the
// H-search's rules alone miss, found by exact solves of small regions
// (tools/edge_templates.py). Internal to solver/vc.h.
//
// Contract: a template is written for Red's bottom edge, as (rows toward the
// edge, columns) from the anchor, which stands `height` rows from the edge
// (1 is the edge row). `placements` gives each place it fits on a board for
// one colour and one of its edges, with the images of the template under the
// half turn (the other edge) and the transposition (Blue's edges), which
// keep the hex grid's adjacency, laid out for a fast scan.
#pragma once

#include <cstdint>
#include <vector>

#include "solver/knowledge.h"

namespace hexengine::solver {

// One template of the table.
struct EdgeTemplate {
  int8_t height;
  int8_t stones;   // stones, the anchor first
  int8_t carrier;  // carrier cells after the stones
  int8_t cells[2 * 64];
};

inline constexpr EdgeTemplate kEdgeTemplates[] = {
#include "solver/edge_templates.inc"
};

// The templates placed on a board for one colour's edge, side by side:
// placement i has its anchor at anchor[i]; the anchor and the carrier must
// not hold an opponent stone (open[i]), and the other stones must be the
// colour's (stones[i]). by_stone[p] lists, in order, the placements whose
// first other stone is layout index p, and `lone` those with none, so a scan
// need only read the lists of the colour's stones.
template <int W>
struct Placements {
  std::vector<int16_t> anchor;
  std::vector<Bitboard<W>> open;
  std::vector<Bitboard<W>> stones;
  std::vector<std::vector<uint32_t>> by_stone;
  std::vector<uint32_t> lone;
};

// Every placement of every template for colour c's edge e (0: edge1, top or
// left; 1: edge2, bottom or right).
template <int W>
Placements<W> placements(const BoardInfo<W>& bi, int c, int e) {
  Placements<W> out;
  out.by_stone.resize(64 * W);
  const int along = c == 0 ? bi.cols : bi.rows;   // cells along the edge
  const int across = c == 0 ? bi.rows : bi.cols;  // rows from edge1 to edge2
  // The layout index of template cell (dr, dc) with the anchor at `a` along the edge.
  auto cell = [&](int h, int a, int dr, int dc) {
    const int x = e == 1 ? across - h + dr : h - 1 - dr;  // rows from edge1
    const int y = e == 1 ? a + dc : a - dc;
    if (x < 0 || x >= across || y < 0 || y >= along) return -1;
    return c == 0 ? x * bi.stride + y : y * bi.stride + x;
  };
  for (const EdgeTemplate& t : kEdgeTemplates) {
    for (int a = 0; a < along; ++a) {
      const int anchor = cell(t.height, a, 0, 0);
      Bitboard<W> open, stones;
      bool fits = anchor >= 0;
      if (fits) open.set(anchor);
      for (int i = 1; fits && i < t.stones + t.carrier; ++i) {
        const int p = cell(t.height, a, t.cells[2 * i], t.cells[2 * i + 1]);
        fits = p >= 0;
        if (fits) (i < t.stones ? stones : open).set(p);
      }
      if (!fits) continue;
      const auto i = static_cast<uint32_t>(out.anchor.size());
      (stones.any() ? out.by_stone[stones.first()] : out.lone).push_back(i);
      out.anchor.push_back(static_cast<int16_t>(anchor));
      out.open.push_back(open);
      out.stones.push_back(stones);
    }
  }
  return out;
}

}  // namespace hexengine::solver
