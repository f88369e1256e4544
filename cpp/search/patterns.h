// Local patterns for the move prior: the twelve cells around a cell (its six
// neighbours and its six bridge partners) as the player to move sees them,
// and the weights learned for them from self-play (tools/train_prior.py), one
// table for Hex (and Dark Hex) and one for Rex.
//
// Contract: a pattern key holds two bits per pattern cell, cell k at bits 2k:
// kPatEmpty, kPatOwn (a stone of the player to move), kPatTheirs, or kPatOff
// (off the board). Cells are read for a mover who joins top and bottom; for
// Blue the board is read transposed (a symmetry of the hex grid), so one table
// serves both colours. Cell k + 6 is cell k turned half a turn, so
// canonical_key folds the board's 180-degree symmetry. A PatternReader is made
// for one geometry and reads only that board's cells.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <vector>

#include "core/geometry.h"
#include "core/view.h"

namespace hexengine {

// What a pattern cell holds.
constexpr uint32_t kPatEmpty = 0, kPatOwn = 1, kPatTheirs = 2, kPatOff = 3;
// Cells in a full pattern; its first six (three neighbours, three bridge
// partners) turned half a turn are its last six.
constexpr int kPatternCells = 12;
// Bits of a full pattern key.
constexpr int kPatternBits = 2 * kPatternCells;

// Where the move just played lies from a cell: a neighbour, a bridge partner,
// or elsewhere (also: no move yet).
enum class LastMove : int { Adjacent = 0, Bridge = 1, Elsewhere = 2 };

// How pattern cell k lies from the pattern's centre.
constexpr LastMove pattern_cell_kind(int k) { return k % 6 < 3 ? LastMove::Adjacent : LastMove::Bridge; }

// The pattern key turned half a turn.
constexpr uint32_t turned_key(uint32_t key) { return (key >> 12) | ((key & 0xfffu) << 12); }
// The smaller of a key and its half-turn: one key per pattern up to symmetry.
constexpr uint32_t canonical_key(uint32_t key) { return key < turned_key(key) ? key : turned_key(key); }
// The 12-bit key of the six neighbours alone: pattern cells 0-2 and cells
// 6-8 as two 6-bit halves, the smaller half low, so that a half turn (which
// exchanges the halves) keeps it.
constexpr uint32_t inner_key(uint32_t key) {
  const uint32_t a = key & 0x3fu, b = (key >> 12) & 0x3fu;
  return a < b ? a | b << 6 : b | a << 6;
}

// The pattern cells of every cell of one board, for each mover.
class PatternReader {
 public:
  explicit PatternReader(const Geometry& g);
  // The key (not canonical) of padded cell `p` for `mover`; `cells` holds each
  // padded cell's content, 0 empty, 1 + the colour index of a stone.
  uint32_t key(const uint8_t* cells, int p, Color mover) const {
    const std::array<int16_t, kPatternCells>& at = cells_[index_of(mover)][p];
    const uint8_t* own = kRelative[index_of(mover)];
    uint32_t k = 0;
    for (int i = 0; i < kPatternCells; ++i) k |= (at[i] < 0 ? kPatOff : own[cells[at[i]]]) << (2 * i);
    return k;
  }
  // Writes into `near` (indexed by padded cell) where `last` (a padded cell,
  // or -1) lies from each cell around it; `on` false puts back Elsewhere.
  // Cells farther away are left as they are (Elsewhere between uses).
  void mark_last(LastMove* near, int last, bool on) const {
    if (last < 0) return;
    const std::array<int16_t, kPatternCells>& at = cells_[0][last];
    for (int k = 0; k < kPatternCells; ++k) {
      if (at[k] >= 0) near[at[k]] = on ? pattern_cell_kind(k) : LastMove::Elsewhere;
    }
  }

 private:
  // Cell contents (0 empty, 1 Red, 2 Blue) as the mover sees them.
  static constexpr uint8_t kRelative[2][3] = {{kPatEmpty, kPatOwn, kPatTheirs}, {kPatEmpty, kPatTheirs, kPatOwn}};
  // Per mover, per padded cell: the padded pattern cells, -1 off the board.
  std::vector<std::array<int16_t, kPatternCells>> cells_[2];
};

// A learned log-weight.
struct PatternWeight {
  uint32_t key;
  float weight;
};

// The learned weights of the move prior, by key (made once, shared by all).
class PriorWeights {
 public:
  // The weights shipped for `variant`: search/prior_weights_rex.inc for Rex,
  // search/prior_weights.inc for the others.
  static const PriorWeights& shipped(Variant variant);
  // The log-weight of a move with canonical full key `key` (falling back on
  // its neighbours' key when the full one was too rare to learn) and the last
  // move at `last`; higher is a likelier move.
  float weight(uint32_t key, LastMove last) const {
    float w = 0.0f;
    if (!find(full_, key, w) && !find(inner_, inner_key(key), w)) w = 0.0f;
    return w + last_[static_cast<int>(last)];
  }

 private:
  // The weights of one table as a prior_weights*.inc file declares them.
  template <size_t F, size_t I>
  PriorWeights(const PatternWeight (&full)[F], const PatternWeight (&inner)[I], const float (&last)[3])
      : full_(make_table(full, F)), inner_(make_table(inner, I)), last_{last[0], last[1], last[2]} {}
  // Open-addressed table: a power-of-two size, kNoKey marks a free slot.
  static constexpr uint32_t kNoKey = 0xffffffffu;
  static size_t slot(const std::vector<PatternWeight>& table, uint32_t key) {
    const size_t mask = table.size() - 1;
    size_t i = (key * 0x9e3779b1u) & mask;
    while (table[i].key != kNoKey && table[i].key != key) i = (i + 1) & mask;
    return i;
  }
  static bool find(const std::vector<PatternWeight>& table, uint32_t key, float& w) {
    const PatternWeight& at = table[slot(table, key)];
    w = at.weight;
    return at.key == key;
  }
  static std::vector<PatternWeight> make_table(const PatternWeight* weights, size_t count);
  std::vector<PatternWeight> full_, inner_;
  float last_[3] = {0.0f, 0.0f, 0.0f};
};

// The padded cell of the stone the opponent of the player to move placed
// last in `view`, or -1 (no move yet, or a swap).
int last_placed(const View& view, const Geometry& g);

// The prior's view of every cell of a board, row by row.
struct CellPatterns {
  std::vector<int32_t> key;    // canonical full pattern key; -1 on a stone
  std::vector<int32_t> inner;  // canonical key of the six neighbours; -1 on a stone
  std::vector<int8_t> last;    // where the last move lies (LastMove); -1 on a stone
  std::vector<float> weight;   // PriorWeights::shipped(variant).weight; NaN on a stone
};

// The patterns of the cells of `view` for its player to move, weighed by its
// variant's table. Throws
// RulesError if the game is over or the view hides stones (Dark Hex).
CellPatterns cell_patterns(const View& view);

}  // namespace hexengine
