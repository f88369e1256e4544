// Inferior-cell knowledge: board tables, dead cells, captured pairs,
// dominated and vulnerable moves, and the Rex pairing strategy. Used by the
// solver (solver/solver.cpp) and by the Hex search at well-visited nodes
// (search/mcts.cpp).
//
// Contract and proofs. Let f(colouring) say whether Red joins top and bottom
// on a full board; exactly one player is joined on a full board, and a game
// that ends early (someone joined) ends with the result of any completion.
// So Hex and Rex are both decided by f of the final board: Red wins Hex iff
// f = 1, Red wins Rex iff f = 0.
//
// Dead cell: f does not depend on its colour in any completion. Ring test:
// look at the six neighbours of empty cell c in cyclic order, an off-board
// neighbour counting as a stone of the edge it lies beyond. Two consecutive
// ring members of one colour are joined (adjacent cells, or a cell touching
// that edge). If every two neighbours of c that X could use (X stones, X
// edges, empty cells) are consecutive or joined by an arc of X members, then
// any X path through c can skip c, so c is in no minimal X winning set, so f
// does not depend on c: c is dead. Either colour's test alone suffices.
// Dead cells stay dead when stones are added.
//   Hex: a dead cell can be filled with either colour, same player to move
//   (Hex is monotone: an extra stone never hurts its owner).
//   Rex: a move to a dead cell d is at least as good as any move m. If X wins
//   after X@m, X wins after X@d by the same strategy with m and d exchanged:
//   the final boards differ only at d (irrelevant) and at m (X in one, any
//   colour in the other), and an X stone only helps X join, which loses Rex.
//   So the player to move plays a dead cell, then the other does, and so on:
//   filling k dead cells passes the move k times.
// Captured pair: adjacent empty a, b such that a C stone in either makes the
// other dead. Filling both with C keeps the value in Hex and in Rex, by a
// pairing argument that uses only deadness: whoever wins the filled position
// answers a move in the pair with the other cell (the result is worth C, C)
// and never enters it otherwise; if only a and b are left, the same answer
// applies. Fills are applied one at a time, each on the current position.
// Permanently inferior cell (Hex; Benzene's fill-in, its patterns PI1 to
// PI3): empty p whose ring holds three consecutive members a, b, c of X
// (stones or X's edge) and then three empty cells d, e, f, where on d's side
// the cell g next to c and d is X's or the cell straight beyond d (from p) is
// Y's, and on f's side the cell h next to a and f is X's or the cell straight
// beyond f is Y's. Filling p with X keeps the value: X wins without p
// whenever X wins with it, playing that strategy as if p were X's and
// answering Y's moves in {p, d, e, f} locally:
//  - with e Y's, p is dead (any two of its X-usable neighbours are joined
//    through a, b, c), and so it is with d or f X's: Y's p is then worth
//    nothing; the ring test shows it;
//  - Y at p, d or f while e is empty (and p too): X takes e;
//  - once e is X's, d and f are dead in the strategy's world (where p is
//    X's): d has e, p, c and g as four consecutive X neighbours, or Y's
//    cell straight beyond it, next to both of its other neighbours, so any
//    two neighbours Y could use are joined through it (the ring test); the
//    same for f. So Y's moves on p, d and f are worth nothing there;
//    X answers Y at d or f by the other, or by p if Y has the other, and Y
//    at p by d or f if neither is X's. In the end p is X's, or Y's with d or
//    f X's, which leaves it dead.
// Each local answer follows a Y move that is worth nothing in the strategy's
// world (p, or a dead cell), so the strategy goes on with one more X stone,
// which never hurts in Hex. The fill stays valid while d, e and f hold no Y
// stone, so a proof that uses it needs them (its carrier).
// Rex pairing (Young and Hayward, "A Reverse Hex Solver", 2016): a join
// pairing of X is a set of disjoint pairs of empty cells such that X joins
// its edges whenever X owns a cell of each pair. Then X loses whoever moves:
// Y answers X's move in an untouched pair with the other cell, and otherwise
// plays outside the pairs, or, when no such cell is left, one cell of an
// untouched pair. X must then take the other cell of that pair before Y's
// next free move (no cell outside the pairs is left for X, and Y answers
// moves into untouched pairs), so Y never has to take both cells of a pair,
// and on the full board X owns a cell of each. A pre-join pairing is a key
// cell k that gives X a join pairing once X owns it: X@k loses, and X loses
// when X is to fill the last cell, i.e. the number of empty cells is odd with
// X to move (even with Y to move). Y plays as above and never on k: at Y's
// free moves an even number of cells is empty, k and the untouched pairs
// included, so an odd number, at least one, lie outside the pairs. X ends up
// playing k. The solver finds pairings with H-search (solver/vc.h) whose OR
// rule combines exactly two semi connections: every full connection it
// builds is a join pairing (the two keys of an OR are a pair; induction over
// AND and OR), and every semi a pre-join pairing with its key.
#pragma once

#include <array>
#include <bit>
#include <cmath>
#include <cstdint>
#include <random>
#include <stdexcept>
#include <string>
#include <vector>

#include "core/bitboard.h"
#include "core/geometry.h"

namespace hexengine::solver {

// Ring directions in cyclic order: E, NE, NW, W, SW, SE as (dr, dc).
inline constexpr int kDirRow[6] = {0, -1, -1, 0, 1, 1};
inline constexpr int kDirCol[6] = {1, 1, 0, -1, -1, 0};

// Flags of the ring table.
inline constexpr uint8_t kRedUseless = 1;
inline constexpr uint8_t kBlueUseless = 2;

// Whether the empty centre of a ring is useless to a colour whose members are
// `own` (6 bits) and whose blocked positions are `other`.
constexpr bool ring_useless(unsigned own, unsigned other) {
  const unsigned usable = ~other & 63u;
  for (int i = 0; i < 6; ++i) {
    if (!((usable >> i) & 1u)) continue;
    for (int j = i + 1; j < 6; ++j) {
      if (!((usable >> j) & 1u)) continue;
      if (j - i == 1 || (i == 0 && j == 5)) continue;  // consecutive
      bool arc1 = true;  // i+1 .. j-1 all own
      for (int k = i + 1; k < j; ++k) arc1 = arc1 && ((own >> k) & 1u);
      bool arc2 = true;  // j+1 .. i-1 (wrapping) all own
      for (int k = (j + 1) % 6; k != i; k = (k + 1) % 6) arc2 = arc2 && ((own >> k) & 1u);
      if (!arc1 && !arc2) return false;
    }
  }
  return true;
}

// kRing.flags[red][blue]: kRedUseless / kBlueUseless for every ring of an
// empty cell; kRing.killers[c][red][blue]: the empty ring directions where a
// stone of colour c would leave the cell dead (6 bits); kRing.inferior[own][empty]:
// the directions k whose ring members k, k+1, k+2 are in `own` and k+3, k+4,
// k+5 in `empty` (the start of a permanently inferior pattern, see below).
struct RingTable {
  uint8_t flags[64][64];
  uint8_t killers[2][64][64];
  uint8_t inferior[64][64];
  constexpr RingTable() : flags{}, killers{}, inferior{} {
    for (unsigned own = 0; own < 64; ++own) {
      for (unsigned empty = 0; empty < 64; ++empty) {
        for (unsigned k = 0; k < 6; ++k) {
          const auto has = [k](unsigned set, unsigned i) { return (set >> ((k + i) % 6)) & 1u; };
          if (has(own, 0) && has(own, 1) && has(own, 2) && has(empty, 3) && has(empty, 4) && has(empty, 5)) {
            inferior[own][empty] |= static_cast<uint8_t>(1u << k);
          }
        }
      }
    }
    for (unsigned r = 0; r < 64; ++r) {
      for (unsigned b = 0; b < 64; ++b) {
        if (r & b) continue;
        uint8_t f = 0;
        if (ring_useless(r, b)) f |= kRedUseless;
        if (ring_useless(b, r)) f |= kBlueUseless;
        flags[r][b] = f;
      }
    }
    for (unsigned r = 0; r < 64; ++r) {
      for (unsigned b = 0; b < 64; ++b) {
        if (r & b) continue;
        for (unsigned d = 0; d < 6; ++d) {
          const unsigned bit = 1u << d;
          if ((r | b) & bit) continue;
          if (flags[r | bit][b]) killers[0][r][b] |= static_cast<uint8_t>(bit);
          if (flags[r][b | bit]) killers[1][r][b] |= static_cast<uint8_t>(bit);
        }
      }
    }
  }
};
inline constexpr RingTable kRing{};

// Fixed tables of one board for bitboards of W words, in the solver's own
// layout. Cell (r, c) has the index `r * stride + c`. When the padded layout
// of core/bitboard.h (stride cols + 1, a guard bit ending each row) fits in W
// words, it is that layout; otherwise the board is compact (stride cols, no
// guard: 8x8 in one word instead of two), and `grow` masks the shifts that
// would wrap from one row's end to the next row's start. Boards come in and
// cells go out through `from_board` and `public_cell`.
template <int W>
struct BoardInfo {
  using BB = Bitboard<W>;
  int rows = 0, cols = 0, stride = 0;
  bool square = false;
  bool compact = false;  // stride cols: no guard bits
  BB on_board;
  BB edge1[2], edge2[2];
  BB not_first_col, not_last_col;  // cells with a west, or an east, neighbour in their row
  std::vector<int> cells;  // layout indices, row by row
  // Per layout index: neighbour in each ring direction (-1 off board), and the
  // ring bits contributed by off-board neighbours of each colour.
  std::array<std::array<int16_t, 6>, 64 * W> nbr{};
  std::array<uint8_t, 64 * W> edge_bits[2]{};
  // The part of edge_bits[c] beyond colour c's second edge (bottom, right).
  std::array<uint8_t, 64 * W> second_edge_bits[2]{};
  // Zobrist keys per colour and layout index, and for Blue to move.
  std::array<uint64_t, 64 * W> zobrist[2]{};
  uint64_t zobrist_blue_to_move = 0;
  // Images of each layout index under the half turn and (square boards) the
  // transposition (row <-> column).
  std::array<int16_t, 64 * W> rot{}, transp{};

  // The tables of board g; throws std::logic_error if its cells do not fit
  // in W words (callers take W from the board: see solver_words, words_for).
  explicit BoardInfo(const Geometry& g) {
    rows = g.rows;
    cols = g.cols;
    if (rows * cols > 64 * W) {
      throw std::logic_error("BoardInfo: a " + std::to_string(rows) + "x" + std::to_string(cols) +
                             " board does not fit in " + std::to_string(W) + " words");
    }
    compact = rows * (cols + 1) > 64 * W;
    stride = compact ? cols : cols + 1;
    square = rows == cols;
    // Zobrist keys are drawn per padded index, so that a position hashes the
    // same in either layout (and the search visits the same nodes).
    std::mt19937_64 rng(0x5eed'4e78'50c7'e11dULL);
    std::vector<uint64_t> keys(2 * 64 * words_for(rows, cols));
    for (uint64_t& k : keys) k = rng();
    zobrist_blue_to_move = rng();
    for (int p = 0; p < 64 * W; ++p) {
      nbr[p].fill(-1);
      rot[p] = transp[p] = -1;
    }
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < cols; ++c) {
        const int p = r * stride + c;
        const int q = r * (cols + 1) + c;  // the padded index
        zobrist[0][p] = keys[2 * q];
        zobrist[1][p] = keys[2 * q + 1];
        cells.push_back(p);
        on_board.set(p);
        if (r == 0) edge1[0].set(p);
        if (r == rows - 1) edge2[0].set(p);
        if (c == 0) edge1[1].set(p);
        if (c == cols - 1) edge2[1].set(p);
        if (c > 0) not_first_col.set(p);
        if (c < cols - 1) not_last_col.set(p);
        rot[p] = static_cast<int16_t>((rows - 1 - r) * stride + (cols - 1 - c));
        if (square) transp[p] = static_cast<int16_t>(c * stride + r);
        for (int d = 0; d < 6; ++d) {
          const int nr = r + kDirRow[d], nc = c + kDirCol[d];
          if (nc < 0 || nc >= cols) {
            edge_bits[1][p] |= static_cast<uint8_t>(1u << d);  // beyond a blue edge
            if (nc >= cols) second_edge_bits[1][p] |= static_cast<uint8_t>(1u << d);
          } else if (nr < 0 || nr >= rows) {
            edge_bits[0][p] |= static_cast<uint8_t>(1u << d);  // beyond a red edge
            if (nr >= rows) second_edge_bits[0][p] |= static_cast<uint8_t>(1u << d);
          } else {
            nbr[p][d] = static_cast<int16_t>(nr * stride + nc);
          }
        }
      }
    }
  }

  // The set plus every cell adjacent to it, and (padded layout) guard bits:
  // callers mask the result.
  BB grow(const BB& x) const {
    if (!compact) return dilate(x, stride);
    const BB east = x & not_last_col, west = x & not_first_col;
    return x | east.shl(1) | west.shr(1) | x.shl(stride) | x.shr(stride) | west.shl(stride - 1) |
           east.shr(stride - 1);
  }
  // The part of `within` connected to `seed` (seed must lie inside `within`).
  BB flood(const BB& seed, const BB& within) const {
    return flood_by(seed, within, [this](const BB& x) { return grow(x); });
  }
  // A board of core/bitboard.h's padded layout (Geometry g's) in this layout.
  BB from_board(const Board& b) const {
    if (!compact) return BB::from(b);
    BB out;
    b.for_each([&](int q) { out.set((q / (cols + 1)) * stride + q % (cols + 1)); });
    return out;
  }
  // The public index (row * cols + column) of layout index p.
  int public_cell(int p) const { return (p / stride) * cols + p % stride; }
  // The layout index of public index `cell`.
  int layout_cell(int cell) const { return (cell / cols) * stride + cell % cols; }

  // Ring bits of `stones` around layout index p (on-board neighbours only).
  unsigned ring(int p, const BB& stones) const {
    unsigned bits = 0;
    for (int d = 0; d < 6; ++d) {
      const int q = nbr[p][d];
      if (q >= 0 && stones.test(q)) bits |= 1u << d;
    }
    return bits;
  }
};

// A position: stones of each colour and the player to move (0 Red, 1 Blue).
template <int W>
struct Pos {
  Bitboard<W> stones[2];
  int mover = 0;
};

// A hash of a position's stones and `salt` (a colour, the mover), for
// caches that compare the stones themselves on a hit.
template <int W>
uint64_t stones_hash(const Pos<W>& pos, int salt) {
  uint64_t h = 0x9E3779B97F4A7C15ULL * static_cast<uint64_t>(salt + 1);
  for (int s = 0; s < 2; ++s) {
    for (int k = 0; k < W; ++k) {
      h = (h ^ pos.stones[s].w[k]) * 0xBF58476D1CE4E5B9ULL;
      h ^= h >> 31;
    }
  }
  return h;
}

// Whether `stones` join the two edges of colour `c`.
template <int W>
bool joined(const BoardInfo<W>& bi, const Bitboard<W>& stones, int c) {
  const Bitboard<W> start = stones & bi.edge1[c];
  if (!start.any()) return false;
  return (bi.flood(start, stones) & bi.edge2[c]).any();
}

// The colour that has joined its edges, or -1.
template <int W>
int joined_colour(const BoardInfo<W>& bi, const Pos<W>& pos) {
  if (joined(bi, pos.stones[0], 0)) return 0;
  if (joined(bi, pos.stones[1], 1)) return 1;
  return -1;
}

// Ring bits of colour c around cell p: its stones and the edge beyond (6 bits).
template <int W>
unsigned colour_ring(const BoardInfo<W>& bi, const Pos<W>& pos, int p, int c) {
  return bi.ring(p, pos.stones[c]) | bi.edge_bits[c][p];
}

// Dead-cell flags of empty cell p (a layout index): kRedUseless | kBlueUseless bits.
template <int W>
uint8_t dead_flags(const BoardInfo<W>& bi, const Pos<W>& pos, int p) {
  const unsigned r = colour_ring(bi, pos, p, 0);
  const unsigned b = colour_ring(bi, pos, p, 1);
  return kRing.flags[r][b];
}

// Empty cells that are dead by the ring test.
template <int W>
Bitboard<W> dead_cells(const BoardInfo<W>& bi, const Pos<W>& pos) {
  const Bitboard<W> empty = bi.on_board.andnot(pos.stones[0] | pos.stones[1]);
  Bitboard<W> dead;
  empty.for_each([&](int p) {
    if (dead_flags(bi, pos, p)) dead.set(p);
  });
  return dead;
}

// The ring directions of empty cell p (its empty neighbours) where a stone
// of colour `c` would leave p dead, as 6 bits.
template <int W>
unsigned killer_dirs(const BoardInfo<W>& bi, const Pos<W>& pos, int p, int c) {
  const unsigned r = colour_ring(bi, pos, p, 0);
  const unsigned b = colour_ring(bi, pos, p, 1);
  return kRing.killers[c][r][b];
}

// Whether a stone of colour `c` on cell `q`, neighbour of `p` in
// direction `d`, leaves empty cell `p` dead.
template <int W>
bool dead_after(const BoardInfo<W>& bi, const Pos<W>& pos, int p, int d, int c) {
  return (killer_dirs(bi, pos, p, c) >> d) & 1u;
}

// The first empty neighbour of empty cell p (in ring order) that makes a
// captured pair of colour c with p: a c stone in either leaves the other
// dead. -1 if none.
template <int W>
int captured_partner(const BoardInfo<W>& bi, const Pos<W>& pos, int p, int c) {
  for (unsigned m = killer_dirs(bi, pos, p, c); m; m &= m - 1) {
    const int d = std::countr_zero(m);
    const int e = bi.nbr[p][d];
    if (dead_after(bi, pos, e, (d + 3) % 6, c)) return e;
  }
  return -1;
}

// For colour x, which of x's groups each cell is in or next to: bit 0 the
// first edge (with the stones touching it; the cells along the edge touch
// it), bit 1 the second, bit 2+i the i-th other group. False when x has
// more than 62 other groups (callers then skip their test).
template <int W>
bool touch_masks(const BoardInfo<W>& bi, const Pos<W>& pos, int x, std::array<uint64_t, 64 * W>& touch) {
  const Bitboard<W>& own = pos.stones[x];
  touch.fill(0);
  Bitboard<W> closed[2] = {bi.edge1[x], bi.edge2[x]};
  Bitboard<W> others[64];
  int n = 0;
  Bitboard<W> rest = own;
  while (rest.any()) {
    Bitboard<W> seed;
    seed.set(rest.first());
    const Bitboard<W> comp = bi.flood(seed, own);
    rest = rest.andnot(comp);
    const Bitboard<W> near = (bi.grow(comp) | comp) & bi.on_board;
    const bool e1 = (comp & bi.edge1[x]).any(), e2 = (comp & bi.edge2[x]).any();
    if (e1) closed[0] |= near;
    if (e2) closed[1] |= near;
    if (!e1 && !e2) {
      if (n == 62) return false;
      others[n++] = near;
    }
  }
  closed[0].for_each([&](int p) { touch[p] |= 1; });
  closed[1].for_each([&](int p) { touch[p] |= 2; });
  for (int i = 0; i < n; ++i) others[i].for_each([&](int p) { touch[p] |= uint64_t{4} << i; });
  return true;
}

// The ring members of cell c that colour x could use, with their touch
// masks (an off-board member is the x edge beyond it) and cells (-1 off board).
struct Usable {
  int count = 0;
  int dir[6];
  int cell[6];
  uint64_t mask[6];
};

template <int W>
Usable usable_ring(const BoardInfo<W>& bi, const Pos<W>& pos, int x, int c, const std::array<uint64_t, 64 * W>& touch) {
  Usable u;
  const Bitboard<W>& enemy = pos.stones[1 - x];
  for (int d = 0; d < 6; ++d) {
    const int q = bi.nbr[c][d];
    if (q >= 0) {
      if (enemy.test(q)) continue;
      u.mask[u.count] = touch[q];
    } else {
      if (!((bi.edge_bits[x][c] >> d) & 1u)) continue;
      u.mask[u.count] = (bi.second_edge_bits[x][c] >> d) & 1u ? 2 : 1;
    }
    u.dir[u.count] = d;
    u.cell[u.count++] = q;
  }
  return u;
}

// Per colour c and empty cell p, colour_ring(p, c). An off-board neighbour
// lies beyond one colour's edge, so `~(ring[0][p] | ring[1][p])` holds
// exactly p's empty neighbours.
template <int W>
using Rings = std::array<std::array<uint8_t, 64 * W>, 2>;

// The rings of the empty cells of `pos` (other entries are left as they were).
template <int W>
void empty_rings(const BoardInfo<W>& bi, const Pos<W>& pos, const Bitboard<W>& empty, Rings<W>& ring) {
  empty.for_each([&](int p) {
    ring[0][p] = static_cast<uint8_t>(colour_ring(bi, pos, p, 0));
    ring[1][p] = static_cast<uint8_t>(colour_ring(bi, pos, p, 1));
  });
}

// Whether empty cell p is permanently inferior for colour c (see the
// contract above), given the rings of the empty cells; if so its three empty
// neighbours d, e, f go to `carrier`.
template <int W>
bool permanently_inferior(const BoardInfo<W>& bi, const Rings<W>& ring, int p, int c, Bitboard<W>& carrier) {
  const unsigned empty = ~(ring[0][p] | ring[1][p]) & 63u;
  for (unsigned m = kRing.inferior[ring[c][p]][empty]; m; m &= m - 1) {
    const int k = std::countr_zero(m);
    const int d = bi.nbr[p][(k + 3) % 6], e = bi.nbr[p][(k + 4) % 6], f = bi.nbr[p][(k + 5) % 6];
    // d's side: g (d's neighbour towards c) c's, or the cell straight beyond d the opponent's; f's likewise.
    if (!((ring[c][d] >> ((k + 2) % 6)) & 1u) && !((ring[1 - c][d] >> ((k + 3) % 6)) & 1u)) continue;
    if (!((ring[c][f] >> k) & 1u) && !((ring[1 - c][f] >> ((k + 5) % 6)) & 1u)) continue;
    carrier.set(d);
    carrier.set(e);
    carrier.set(f);
    return true;
  }
  return false;
}

// Empty cells dead by the group test, which extends the ring test: an empty
// cell c is useless to colour X when every two non-consecutive ring members
// a, b that X could use touch a common X group (a group counts its own cells;
// an X edge is a group with the stones touching it and touches the cells
// along it). An X path through a, c, b can then go a, group, b instead, so c
// is in no minimal X winning set, hence dead.
template <int W>
Bitboard<W> dead_cells_by_groups(const BoardInfo<W>& bi, const Pos<W>& pos) {
  const Bitboard<W> empty = bi.on_board.andnot(pos.stones[0] | pos.stones[1]);
  Bitboard<W> useless;
  std::array<uint64_t, 64 * W> touch;
  for (int x = 0; x < 2; ++x) {
    if (!touch_masks(bi, pos, x, touch)) continue;
    empty.for_each([&](int c) {
      const Usable u = usable_ring(bi, pos, x, c, touch);
      for (int i = 0; i < u.count; ++i) {
        for (int j = i + 1; j < u.count; ++j) {
          const int gap = u.dir[j] - u.dir[i];
          if (gap == 1 || gap == 5) continue;  // consecutive members are adjacent
          if (!(u.mask[i] & u.mask[j])) return;  // c may be needed by X
        }
      }
      useless.set(c);
    });
  }
  return useless;
}

// One colour's fill-in after a stone of that colour c on empty cell q, by
// the ring test, in a position with no dead cell or captured pair yet (a
// reduced one): only rings next to new stones change, so only those are
// looked at. Dead cells are filled first, all with c, then one captured pair
// of c at a time, until none is left. Returns every cell filled but q; those
// filled as dead also go to `dead`. Each fill keeps the value (a dead cell
// takes any colour; a captured pair is its captor's), and each stays valid
// when stones of either colour are added elsewhere (dead cells stay dead),
// or when c's stones are added on the filled cells themselves.
template <int W>
Bitboard<W> fill_after(const BoardInfo<W>& bi, Pos<W>& pos, int q, int c, Bitboard<W>& dead) {
  pos.stones[c].set(q);
  Bitboard<W> filled, dirty;
  auto touch = [&](int p) {
    for (int d = 0; d < 6; ++d)
      if (bi.nbr[p][d] >= 0) dirty.set(bi.nbr[p][d]);
  };
  auto fill = [&](int p) {
    pos.stones[c].set(p);
    filled.set(p);
    touch(p);
  };
  touch(q);
  for (;;) {
    for (bool again = true; again;) {
      again = false;
      dirty = dirty.andnot(pos.stones[0] | pos.stones[1]);
      // The pass reads a copy: its fills mark more cells dirty, stones
      // included, for the next pass (for_each would see those in later words),
      // and fill only the cell being read, so every cell it reads is empty.
      const Bitboard<W> todo = dirty;
      todo.for_each([&](int p) {
        if (!dead_flags(bi, pos, p)) return;
        fill(p);
        dead.set(p);
        again = true;
      });
    }
    bool found = false;
    while (!found && (dirty = dirty.andnot(pos.stones[0] | pos.stones[1])).any()) {
      const int p = dirty.first();
      dirty.reset(p);
      const int e = captured_partner(bi, pos, p, c);
      if (e >= 0) {
        fill(p);
        fill(e);
        found = true;
      }
    }
    if (!found) return filled;
  }
}

// Hex: `moves` of the player to move X without the inferior ones, where Y is
// the other player and each fill-in below is fill_after's:
//  - vulnerable: c that Y's fill-in after a Y stone on some k (its killer)
//    fills as dead. Then X@c, Y@k is worth Y@c, Y@k: Y's fill-in after Y@k
//    is still valid with X@c added (c is filled later than the cells before
//    it, all of them Y's), and there c is dead. If X wins with c, X still
//    wins after Y@k, so after Y@c, Y@k, by some move m that also wins now
//    (fewer Y stones); if m is vulnerable too, its killer's fill-in is still
//    valid with those Y stones added (they only add Y stones, on cells
//    empty or Y in it), so the same step applies, each adding Y stones,
//    until a winning move outside V turns up (X is not joined, so X always
//    has one). So when a cell u outside V and the killers exists, some
//    winning move lies outside V.
//  - dominated: c that X's fill-in after an X stone on d fills (as dead or
//    as a captured pair): P+X@d is worth P+X@d with X's fills, which has
//    every X stone P+X@c has, so P+X@d >= P+X@c (Hex is monotone). c is
//    dropped while d is kept or outside `moves` (then d, hence c, loses
//    when `moves` holds every move that may win); chains of dominators end
//    at a kept or a losing move.
// Killers, u, dominators and the cells their fill-ins took join `region`:
// a loss proof needs them empty (with X stones added elsewhere every
// fill-in is still valid).
template <int W>
Bitboard<W> prune_inferior(const BoardInfo<W>& bi, const Pos<W>& pos, const Bitboard<W>& moves, bool dominated,
                           bool vulnerable, Bitboard<W>& region) {
  const Bitboard<W> empty = bi.on_board.andnot(pos.stones[0] | pos.stones[1]);
  const int me = pos.mover, you = 1 - me;
  Bitboard<W> kept = moves;
  if (vulnerable) {
    Bitboard<W> weak, killers, carriers;
    empty.for_each([&](int k) {
      Pos<W> after = pos;
      Bitboard<W> dead;
      const Bitboard<W> filled = fill_after(bi, after, k, you, dead);
      dead = (dead & moves).andnot(weak);
      if (!dead.any()) return;
      weak |= dead;
      killers.set(k);
      carriers |= filled;
    });
    const Bitboard<W> spare = empty.andnot(weak | killers);
    if (weak.any() && spare.any()) {
      kept = kept.andnot(weak);
      region |= killers | carriers;
      region.set(spare.first());
    }
  }
  if (dominated) {
    empty.for_each([&](int d) {
      if (moves.test(d) && !kept.test(d)) return;
      Pos<W> after = pos;
      Bitboard<W> dead;
      const Bitboard<W> filled = fill_after(bi, after, d, me, dead);
      const Bitboard<W> gone = filled & kept;
      if (!gone.any()) return;
      kept = kept.andnot(gone);
      region |= filled;
      region.set(d);
    });
  }
  return kept;
}

// Whether a stone of colour c on empty cell k leaves a cell of `good` dead
// (ring test) or, with `capture`, puts one in a pair that c then captures.
template <int W>
bool spoils(const BoardInfo<W>& bi, const Pos<W>& pos, int k, int c, const Bitboard<W>& good, bool capture) {
  Pos<W> after = pos;
  after.stones[c].set(k);
  for (int d = 0; d < 6; ++d) {
    const int p = bi.nbr[k][d];
    if (p < 0 || !good.test(p)) continue;
    if (dead_flags(bi, after, p)) return true;
    if (capture && captured_partner(bi, after, p, c) >= 0) return true;
  }
  return false;
}

// Rex: `moves` of the player to move X without the inferior ones, in a
// reduced position (Young and Hayward, "A Reverse Hex Solver", 2016). A move
// k is at most as good for X as an empty cell c when
//  - own (`dominated`): X@k leaves c dead ("prefer the victim to the
//    killer") or puts c in a pair captured by X ("prefer the captured cell to
//    the capturer"), or
//  - theirs (`vulnerable`): a Y stone on k would leave c dead ("prefer the
//    vulnerable cell to the opponent's killer");
// that is, if X wins with k, X wins with c (theorems 6, 8 and 7 there, in
// that order, prove the three cases). k is dropped while such a c is
// kept or is known to lose (an empty cell outside `moves`); chains of
// dominators end at a kept or a losing move, so a winning move is kept
// whenever one exists.
template <int W>
Bitboard<W> rex_prune_inferior(const BoardInfo<W>& bi, const Pos<W>& pos, const Bitboard<W>& moves, bool own,
                               bool theirs) {
  const Bitboard<W> empty = bi.on_board.andnot(pos.stones[0] | pos.stones[1]);
  const int me = pos.mover;
  const Bitboard<W> losing = empty.andnot(moves);
  Bitboard<W> kept = moves;
  moves.for_each([&](int k) {
    const Bitboard<W> good = kept | losing;
    if ((own && spoils(bi, pos, k, me, good, true)) || (theirs && spoils(bi, pos, k, 1 - me, good, false))) {
      kept.reset(k);
    }
  });
  return kept;
}

// Fills dead cells and captured pairs until none is left, as allowed by the
// flags, and with `inferior` (Hex only) permanently inferior cells, whose
// carriers it adds there; returns how many cells were filled. In Rex
// (`misere`) each dead cell filled passes the move.
template <int W>
int reduce(const BoardInfo<W>& bi, Pos<W>& pos, bool use_dead, bool use_captured, bool misere,
           Bitboard<W>* inferior = nullptr) {
  int filled = 0;
  for (;;) {
    const Bitboard<W> empty = bi.on_board.andnot(pos.stones[0] | pos.stones[1]);
    if (!empty.any()) return filled;
    if (use_dead) {
      int n = 0;
      Bitboard<W> fill[2];
      const Bitboard<W> dead = dead_cells_by_groups(bi, pos);
      dead.for_each([&](int p) {
        const unsigned r = colour_ring(bi, pos, p, 0);
        const unsigned b = colour_ring(bi, pos, p, 1);
        // Any colour keeps the value; the majority of the ring merges groups.
        fill[std::popcount(b) > std::popcount(r) ? 1 : 0].set(p);
        ++n;
      });
      if (n) {
        pos.stones[0] |= fill[0];
        pos.stones[1] |= fill[1];
        if (misere && (n & 1)) pos.mover ^= 1;
        filled += n;
        continue;
      }
    }
    bool found = false;
    const bool use_inferior = inferior && !misere;
    if (!use_captured && !use_inferior) return filled;
    Rings<W> ring;
    empty_rings(bi, pos, empty, ring);
    if (use_captured) {
      // Each adjacent empty pair once.
      empty.for_each([&](int p) {
        if (found) return;
        for (int d : {0, 4, 5}) {  // E, SW, SE
          const int q = bi.nbr[p][d];
          if (q < 0 || !empty.test(q)) continue;
          const unsigned dp = 1u << d, dq = 1u << ((d + 3) % 6);
          for (int c = 0; c < 2; ++c) {
            // Dead with a stone of colour c added at direction bit `bit`?
            auto dead_with = [&](int x, unsigned bit) {
              return kRing.flags[ring[0][x] | (c == 0 ? bit : 0u)][ring[1][x] | (c == 1 ? bit : 0u)] != 0;
            };
            if (dead_with(p, dp) && dead_with(q, dq)) {
              pos.stones[c].set(p);
              pos.stones[c].set(q);
              filled += 2;
              found = true;
              return;
            }
          }
        }
      });
    }
    if (!found && use_inferior) {
      empty.for_each([&](int p) {
        if (found) return;
        for (int c = 0; c < 2 && !found; ++c) {
          if (permanently_inferior(bi, ring, p, c, *inferior)) {
            pos.stones[c].set(p);
            ++filled;
            found = true;
          }
        }
      });
    }
    if (!found) return filled;
  }
}

// Move ordering by electric resistance (Anshelevich; van Rijswijck): for each
// colour, cells are resistors (empty 1, own almost 0, enemy cut out) between
// the colour's edges held at 1 and 0 volts; `score[p]` is the share of each
// colour's current through empty cell p, summed. Gauss-Seidel with
// over-relaxation, a fixed number of sweeps: an ordering heuristic only.
template <int W>
void resistance_scores(const BoardInfo<W>& bi, const Pos<W>& pos, std::array<float, 64 * W>& score) {
  const Bitboard<W> empty = bi.on_board.andnot(pos.stones[0] | pos.stones[1]);
  score.fill(0.0f);
  // One colour's network: its live cells, each with its live neighbours and
  // their conductances, its current from the first edge and its total
  // conductance (fixed over the sweeps), and the voltages.
  struct Node {
    int p = 0, n = 0;
    std::array<int, 6> q;
    std::array<float, 6> g;
    float source = 0, den = 0;
  };
  struct Network {
    Bitboard<W> live;
    std::array<float, 64 * W> v{}, r{};
    std::vector<Node> nodes;
    float g(int p, int q) const { return 1.0f / (r[p] + r[q]); }
    // One Gauss-Seidel step at node i.
    void relax(size_t i) {
      const Node& x = nodes[i];
      float num = 0;
      for (int k = 0; k < x.n; ++k) num += x.g[k] * v[x.q[k]];
      num += x.source;
      if (x.den > 0) v[x.p] += 1.5f * (num / x.den - v[x.p]);
    }
  };
  std::array<Network, 2> net;
  for (int c = 0; c < 2; ++c) {
    Network& m = net[c];
    m.live = bi.on_board.andnot(pos.stones[1 - c]);
    m.nodes.reserve(m.live.count());
    m.live.for_each([&](int p) {
      m.r[p] = pos.stones[c].test(p) ? 0.01f : 1.0f;
      m.v[p] = 0.5f;
    });
    m.live.for_each([&](int p) {
      Node x;
      x.p = p;
      for (int d = 0; d < 6; ++d) {
        const int q = bi.nbr[p][d];
        if (q < 0 || !m.live.test(q)) continue;
        x.q[x.n] = q;
        x.g[x.n] = m.g(p, q);
        x.den += x.g[x.n++];
      }
      if (bi.edge1[c].test(p)) {
        x.source = 1.0f / m.r[p];
        x.den += 1.0f / m.r[p];
      }
      if (bi.edge2[c].test(p)) x.den += 1.0f / m.r[p];
      m.nodes.push_back(x);
    });
  }
  // The two colours' sweeps are independent: interleaved, each hides the
  // other's latency.
  const size_t n = std::max(net[0].nodes.size(), net[1].nodes.size());
  for (int sweep = 0; sweep < 40; ++sweep) {
    for (size_t i = 0; i < n; ++i) {
      if (i < net[0].nodes.size()) net[0].relax(i);
      if (i < net[1].nodes.size()) net[1].relax(i);
    }
  }
  for (int c = 0; c < 2; ++c) {
    const Network& m = net[c];
    float total = 0;
    for (const Node& x : m.nodes) {
      if (bi.edge1[c].test(x.p)) total += (1.0f - m.v[x.p]) / m.r[x.p];
    }
    if (total <= 0) continue;
    for (const Node& x : m.nodes) {
      const int p = x.p;
      if (!empty.test(p)) continue;
      float flow = 0;
      for (int k = 0; k < x.n; ++k) flow += std::abs(x.g[k] * (m.v[p] - m.v[x.q[k]]));
      if (bi.edge1[c].test(p)) flow += std::abs((1.0f - m.v[p]) / m.r[p]);
      if (bi.edge2[c].test(p)) flow += std::abs(m.v[p] / m.r[p]);
      score[p] += 0.5f * flow / total;
    }
  }
}

// Groups of `stones` of colour c as flood-filled components; the components
// touching the first and second edges are merged into nodes 0 and 1 (callers
// check beforehand that no component touches both).
template <int W>
struct Groups {
  std::vector<Bitboard<W>> members;  // [0] first edge group, [1] second edge group, then others
  std::vector<Bitboard<W>> adjacent_empty;
};

template <int W>
Groups<W> find_groups(const BoardInfo<W>& bi, const Bitboard<W>& stones, const Bitboard<W>& empty, int c) {
  Groups<W> g;
  g.members.resize(2);
  Bitboard<W> rest = stones;
  while (rest.any()) {
    Bitboard<W> seed;
    seed.set(rest.first());
    const Bitboard<W> comp = bi.flood(seed, stones);
    rest = rest.andnot(comp);
    if ((comp & bi.edge1[c]).any()) {
      g.members[0] |= comp;
    } else if ((comp & bi.edge2[c]).any()) {
      g.members[1] |= comp;
    } else {
      g.members.push_back(comp);
    }
  }
  g.adjacent_empty.resize(g.members.size());
  for (size_t i = 0; i < g.members.size(); ++i) {
    g.adjacent_empty[i] = bi.grow(g.members[i]) & empty;
  }
  g.adjacent_empty[0] |= bi.edge1[c] & empty;
  g.adjacent_empty[1] |= bi.edge2[c] & empty;
  return g;
}

}  // namespace hexengine::solver
