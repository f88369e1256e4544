#include "search/patterns.h"

#include <cmath>
#include <limits>

#include "core/errors.h"

namespace hexengine {

namespace {

// Row and column steps to the pattern cells, for a mover joining top and
// bottom: three neighbours, three bridge partners, then the same six turned
// half a turn.
constexpr int kStepRow[kPatternCells] = {0, 1, 1, 1, 2, 1, 0, -1, -1, -1, -2, -1};
constexpr int kStepCol[kPatternCells] = {1, 0, -1, 1, -1, -2, -1, 0, 1, -1, 1, 2};

namespace hex_prior {
#include "search/prior_weights.inc"
}  // namespace hex_prior

namespace rex_prior {
#include "search/prior_weights_rex.inc"
}  // namespace rex_prior

}  // namespace

PatternReader::PatternReader(const Geometry& g) {
  for (int mover = 0; mover < 2; ++mover) {
    cells_[mover].assign(kMaxBits, {});
    for (int r = 0; r < g.rows; ++r) {
      for (int c = 0; c < g.cols; ++c) {
        std::array<int16_t, kPatternCells>& at = cells_[mover][g.padded(r, c)];
        for (int i = 0; i < kPatternCells; ++i) {
          // Blue reads the board transposed: a row step is a column step.
          const int nr = r + (mover == 0 ? kStepRow[i] : kStepCol[i]);
          const int nc = c + (mover == 0 ? kStepCol[i] : kStepRow[i]);
          const bool on = nr >= 0 && nr < g.rows && nc >= 0 && nc < g.cols;
          at[i] = static_cast<int16_t>(on ? g.padded(nr, nc) : -1);
        }
      }
    }
  }
}

std::vector<PatternWeight> PriorWeights::make_table(const PatternWeight* weights, size_t count) {
  size_t size = 16;
  while (size < 2 * count) size *= 2;
  std::vector<PatternWeight> table(size, PatternWeight{kNoKey, 0.0f});
  for (size_t i = 0; i < count; ++i) table[slot(table, weights[i].key)] = weights[i];
  return table;
}

const PriorWeights& PriorWeights::shipped(Variant variant) {
  static const PriorWeights hex(hex_prior::kFullPatternWeights, hex_prior::kInnerPatternWeights,
                                hex_prior::kLastMoveWeights);
  static const PriorWeights rex(rex_prior::kFullPatternWeights, rex_prior::kInnerPatternWeights,
                                rex_prior::kLastMoveWeights);
  return is_misere(variant) ? rex : hex;
}

int last_placed(const View& view, const Geometry& g) {
  if (view.history.empty() || !view.to_move) return -1;
  const Action& last = view.history.back();
  return last.result == MoveResult::Placed && last.color != *view.to_move && last.cell >= 0 ? g.padded(last.cell)
                                                                                              : -1;
}

CellPatterns cell_patterns(const View& view) {
  if (!view.to_move) throw RulesError("the game is over: no player to move");
  if (view.hidden_stones > 0) throw RulesError("move patterns need every stone shown; this view hides some");
  const Geometry g = make_geometry(view.rules.rows, view.rules.cols);
  std::vector<uint8_t> cells(kMaxBits, 0);
  for (int i = 0; i < g.cells; ++i) cells[g.padded(i)] = static_cast<uint8_t>(view.board[i]);
  const PatternReader reader(g);
  const PriorWeights& weights = PriorWeights::shipped(view.rules.variant);
  std::vector<LastMove> near(kMaxBits, LastMove::Elsewhere);
  reader.mark_last(near.data(), last_placed(view, g), true);
  CellPatterns out;
  out.key.assign(g.cells, -1);
  out.inner.assign(g.cells, -1);
  out.last.assign(g.cells, -1);
  out.weight.assign(g.cells, std::numeric_limits<float>::quiet_NaN());
  for (int i = 0; i < g.cells; ++i) {
    const int p = g.padded(i);
    if (cells[p] != 0) continue;
    const uint32_t key = canonical_key(reader.key(cells.data(), p, *view.to_move));
    out.key[i] = static_cast<int32_t>(key);
    out.inner[i] = static_cast<int32_t>(inner_key(key));
    const LastMove where = near[p];
    out.last[i] = static_cast<int8_t>(where);
    out.weight[i] = weights.weight(key, where);
  }
  return out;
}

}  // namespace hexengine
