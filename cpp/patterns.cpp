#include "patterns.h"

#include <cmath>
#include <limits>

#include "errors.h"

namespace hexengine {

namespace {

// Row and column steps to the pattern cells, for a mover joining top and
// bottom: three neighbours, three bridge partners, then the same six turned
// half a turn.
constexpr int kStepRow[kPatternCells] = {0, 1, 1, 1, 2, 1, 0, -1, -1, -1, -2, -1};
constexpr int kStepCol[kPatternCells] = {1, 0, -1, 1, -1, -2, -1, 0, 1, -1, 1, 2};

// A learned log-weight.
struct PatternWeight {
  uint32_t key;
  float weight;
};

#include "prior_weights.inc"

// Learned weights by key, in an open-addressed table (keys have 24 bits, so
// kNoKey marks a free slot).
class WeightTable {
 public:
  template <size_t N>
  explicit WeightTable(const PatternWeight (&weights)[N]) {
    size_t size = 16;
    while (size < 2 * N) size *= 2;
    slots_.assign(size, PatternWeight{kNoKey, 0.0f});
    mask_ = size - 1;
    for (const PatternWeight& w : weights) slots_[probe(w.key)] = w;
  }
  // The weight of `key`; false if it was not learned.
  bool find(uint32_t key, float& weight) const {
    const PatternWeight& slot = slots_[probe(key)];
    weight = slot.weight;
    return slot.key == key;
  }

 private:
  static constexpr uint32_t kNoKey = 0xffffffffu;
  size_t probe(uint32_t key) const {
    size_t i = (key * 0x9e3779b1u) & mask_;
    while (slots_[i].key != kNoKey && slots_[i].key != key) i = (i + 1) & mask_;
    return i;
  }
  std::vector<PatternWeight> slots_;
  size_t mask_ = 0;
};

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

LastMove PatternReader::last_move(int p, int last) const {
  if (last < 0) return LastMove::Elsewhere;
  const std::array<int16_t, kPatternCells>& at = cells_[0][p];
  for (int i = 0; i < kPatternCells; ++i) {
    if (at[i] == last) return (i % 6) < 3 ? LastMove::Adjacent : LastMove::Bridge;
  }
  return LastMove::Elsewhere;
}

float prior_weight(uint32_t key, LastMove last) {
  static const WeightTable full(kFullPatternWeights);
  static const WeightTable inner(kInnerPatternWeights);
  float w = 0.0f;
  if (!full.find(key, w) && !inner.find(inner_key(key), w)) w = 0.0f;
  return w + kLastMoveWeights[static_cast<int>(last)];
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
  const int last = last_placed(view, g);
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
    const LastMove where = reader.last_move(p, last);
    out.last[i] = static_cast<int8_t>(where);
    out.weight[i] = prior_weight(key, where);
  }
  return out;
}

}  // namespace hexengine
