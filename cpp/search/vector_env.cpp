#include "search/vector_env.h"

#include <algorithm>
#include <bit>
#include <string>

#include "core/errors.h"
#include "core/game.h"
#include "core/planes.h"
#include "core/rng.h"
#include "core/state.h"
#include "search/search.h"
#include "search/worker_pool.h"

namespace hexengine {

namespace {

// What the batch reads of one game, apart from its position (kept apart, so
// that checks, draws and planes run over a few cache lines per game): the
// stones and found stones as dense bitboards (bit r * cols + c is the cell
// (r, c)), how many of each, the actions played, where Red's first stone
// stands (padded) and the player to move.
template <int W>
struct Slot {
  Bitboard<W> stones[2];
  Bitboard<W> found[2];
  int16_t placed[2] = {0, 0};
  int16_t hits[2] = {0, 0};
  int16_t plies = 0;
  int16_t first = -1;
  Color to_move = Color::Red;
};

// The width-free face of a batch.
struct BatchBase {
  virtual ~BatchBase() = default;
  virtual void reset(uint64_t seed) = 0;
  virtual StepOutcome step(const int64_t* actions, float* rewards, bool* terminated, const EnvOutputs& out) = 0;
  virtual void sample(int64_t* out) = 0;
  virtual void observe(const EnvOutputs& out) const = 0;
  virtual void final_observations(bool* b, float* f) const = 0;
  virtual size_t bytes_per_env() const = 0;
};

// A batch whose boards fit in W words.
template <int W>
class Batch final : public BatchBase {
 public:
  Batch(const Rules& rules, int n, WorkerPool& pool)
      : rules_(rules),
        g_(make_geometry(rules.rows, rules.cols)),
        slots_(n),
        states_(n),
        pool_(pool),
        ended_(pool.size()) {
    for (int cell = 0; cell < g_.cells; ++cell) {
      padded_[cell] = static_cast<int16_t>(g_.padded(cell));
      dense_board_.set(cell);
    }
  }

  size_t bytes_per_env() const override { return sizeof(Slot<W>) + sizeof(State<W>) + sizeof(Rng); }

  void reset(uint64_t seed) override {
    rngs_.clear();
    for (size_t i = 0; i < slots_.size(); ++i) {
      slots_[i] = Slot<W>();
      states_[i] = State<W>();
      rngs_.emplace_back(derive_seed(seed, i));
    }
    finals_.clear();
  }

  StepOutcome step(const int64_t* actions, float* rewards, bool* terminated, const EnvOutputs& out) override {
    const int n = static_cast<int>(slots_.size());
    for (int i = 0; i < n; ++i) check(i, actions[i]);
    for_parts([&](int part, int begin, int end) {
      std::vector<std::pair<int, Slot<W>>>& ended = ended_[part];
      ended.clear();
      for (int i = begin; i < end; ++i) {
        Slot<W>& slot = slots_[i];
        const Color mover = slot.to_move;
        rewards[i] = 0.0f;
        terminated[i] = false;
        if (play(slot, states_[i], static_cast<int>(actions[i]))) {
          rewards[i] = winner_of_connection(rules_.variant, mover) == mover ? 1.0f : -1.0f;
          terminated[i] = true;
          ended.emplace_back(i, slot);
          slot = Slot<W>();
          states_[i] = State<W>();
        }
        write(i, out);
      }
    });
    StepOutcome outcome;
    finals_.clear();
    for (int part = 0; part < parts(); ++part) {
      for (auto& [i, slot] : ended_[part]) {
        outcome.ended.push_back(i);
        finals_.push_back(slot);
      }
    }
    return outcome;
  }

  void sample(int64_t* out) override {
    for_parts([&](int, int begin, int end) {
      for (int i = begin; i < end; ++i) {
        const Slot<W>& slot = slots_[i];
        Rng& rng = rngs_[i];
        const int legal = legal_count(slot);
        if (swap_available(slot) && rng.below(static_cast<uint32_t>(legal + 1)) == static_cast<uint32_t>(legal)) {
          out[i] = g_.cells;
          continue;
        }
        // A uniform legal cell: draw cells until one is legal (on average
        // cells / legal draws), and after 16 misses pick one by its rank.
        const Bitboard<W> cells = legal_cells(slot);
        int cell = -1;
        for (int tries = 0; tries < 16 && cell < 0; ++tries) {
          const int c = static_cast<int>(rng.below(static_cast<uint32_t>(g_.cells)));
          if (cells.test(c)) cell = c;
        }
        if (cell < 0) cell = nth_member(cells, static_cast<int>(rng.below(static_cast<uint32_t>(legal))));
        out[i] = cell;
      }
    });
  }

  void observe(const EnvOutputs& out) const override {
    for_parts([&](int, int begin, int end) {
      for (int i = begin; i < end; ++i) write(i, out);
    });
  }

  void final_observations(bool* b, float* f) const override {
    const size_t size = static_cast<size_t>(kPlaneCount) * g_.cells;
    for (size_t k = 0; k < finals_.size(); ++k) {
      // The game is over; the last mover is still the player to move in its slot.
      const Slot<W>& slot = finals_[k];
      const Perspective<W> p = perspective(slot, slot.to_move, EndReason::Connection);
      if (b) write_planes(p, g_.cells, b + k * size);
      if (f) write_planes(p, g_.cells, f + k * size);
    }
  }

 private:
  int parts() const { return std::min(pool_.size(), static_cast<int>(slots_.size())); }

  // Calls f(part, begin, end) for contiguous ranges of the batch, one per worker.
  template <class F>
  void for_parts(F&& f) const {
    const int n = static_cast<int>(slots_.size()), k = parts();
    pool_.run(k, [&](int part) { f(part, n * part / k, n * (part + 1) / k); });
  }

  bool swap_available(const Slot<W>& slot) const { return rules_.swap != SwapForm::Off && slot.plies == 1; }

  // Cells the player to move may choose (by their own knowledge in Dark Hex), as dense bits.
  Bitboard<W> legal_cells(const Slot<W>& slot) const {
    const int me = index_of(slot.to_move), them = 1 - me;
    const Bitboard<W>& known = is_dark(rules_.variant) ? slot.found[me] : slot.stones[them];
    return dense_board_.andnot(slot.stones[me] | known);
  }

  // The member of rank k (from 0) of `bits`, which has more than k members.
  static int nth_member(const Bitboard<W>& bits, int k) {
    for (int w = 0;; ++w) {
      const int here = std::popcount(bits.w[w]);
      if (k >= here) {
        k -= here;
        continue;
      }
      uint64_t word = bits.w[w];
      for (; k > 0; --k) word &= word - 1;
      return w * 64 + std::countr_zero(word);
    }
  }

  // How many cells legal_cells holds.
  int legal_count(const Slot<W>& slot) const {
    const int me = index_of(slot.to_move), them = 1 - me;
    return g_.cells - slot.placed[me] - (is_dark(rules_.variant) ? slot.hits[me] : slot.placed[them]);
  }

  // What player `me` of `slot` knows, its game running (EndReason::None) or over.
  Perspective<W> perspective(const Slot<W>& slot, Color me, EndReason end) const {
    const int mine = index_of(me), theirs = 1 - mine;
    Perspective<W> p;
    p.me = me;
    p.own = slot.stones[mine];
    p.to_move = end == EndReason::None;
    p.swap = end == EndReason::None && swap_available(slot);
    p.hit = slot.found[mine];
    p.hits_taken = slot.hits[theirs];
    if (sees_every_stone(rules_.variant, end)) {
      p.opponent = slot.stones[theirs];
    } else {
      p.opponent = slot.found[mine];
      p.hidden = slot.placed[theirs] - slot.hits[mine];
    }
    return p;
  }

  // Throws IllegalMove naming environment `i` unless `action` is legal there.
  void check(int i, int64_t action) const {
    const Slot<W>& slot = slots_[i];
    if (action >= 0 && action < g_.cells && !(slot.stones[0].test(static_cast<int>(action)) ||
                                              slot.stones[1].test(static_cast<int>(action)))) {
      return;  // an empty cell: always legal
    }
    try {
      if (action == g_.cells) {
        check_swap(rules_, swap_available(slot));
      } else if (action < 0 || action > g_.cells) {
        throw IllegalMove("out of range: actions are 0-" + std::to_string(g_.cells - 1) +
                              " (the cells row * cols + col) and " + std::to_string(g_.cells) + " (the swap)",
                          -1, -1, "off-board");
      } else {
        check_cell(states_[i], g_, rules_.variant, static_cast<int>(action));
      }
    } catch (const IllegalMove& e) {
      throw IllegalMove("environment " + std::to_string(i) + ", action " + std::to_string(action) + ": " + e.what(),
                        e.row, e.col, e.rule);
    }
  }

  // Plays a checked action on `state`, keeping `slot` in step with it;
  // returns whether it ended the game.
  bool play(Slot<W>& slot, State<W>& state, int action) {
    ++slot.plies;
    const int me = index_of(state.to_move);
    if (action == g_.cells) {
      const int stands = play_swap(state, g_, rules_.swap, slot.first);
      slot.to_move = state.to_move;
      if (rules_.swap == SwapForm::Pieces) {  // the red stone becomes a blue one on the mirrored cell
        slot.stones[0].reset(g_.unpadded(slot.first));
        slot.stones[1].set(g_.unpadded(stands));
        --slot.placed[0];
        ++slot.placed[1];
      }
      return false;
    }
    const int p = padded_[action];
    if (slot.plies == 1) slot.first = static_cast<int16_t>(p);
    const Step step = play_move(state, g_, rules_.variant, p);
    slot.to_move = state.to_move;
    if (step.result == MoveResult::Hit) {
      slot.found[me].set(action);
      ++slot.hits[me];
    } else {
      slot.stones[me].set(action);
      ++slot.placed[me];
    }
    return step.connected;
  }

  // Writes environment i's observation, mask and player to move.
  void write(int i, const EnvOutputs& out) const {
    const Slot<W>& slot = slots_[i];
    if (out.obs_bool || out.obs_float) {
      const Perspective<W> p = perspective(slot, slot.to_move, EndReason::None);
      const size_t size = static_cast<size_t>(kPlaneCount) * g_.cells;
      if (out.obs_bool) write_planes(p, g_.cells, out.obs_bool + i * size);
      if (out.obs_float) write_planes(p, g_.cells, out.obs_float + i * size);
    }
    if (out.mask) {
      bool* mask = out.mask + static_cast<size_t>(i) * (g_.cells + 1);
      put_bits<false>(legal_cells(slot), g_.cells, mask);
      mask[g_.cells] = swap_available(slot);
    }
    if (out.to_play) out.to_play[i] = static_cast<int8_t>(index_of(slot.to_move) + 1);
  }

  Rules rules_;
  Geometry g_;
  // The padded index of each cell, and every cell as dense bits.
  int16_t padded_[kMaxSide * kMaxSide];
  Bitboard<W> dense_board_;
  // Per game: what the batch reads, the position, the random stream.
  std::vector<Slot<W>> slots_;
  std::vector<State<W>> states_;
  std::vector<Rng> rngs_;
  WorkerPool& pool_;
  // Per worker, the games that ended in the latest step; then all of them in order.
  std::vector<std::vector<std::pair<int, Slot<W>>>> ended_;
  std::vector<Slot<W>> finals_;
};

}  // namespace

struct VectorEnv::Impl {
  Rules rules;
  int num_envs = 0;
  std::unique_ptr<WorkerPool> pool;
  std::unique_ptr<BatchBase> batch;
};

VectorEnv::VectorEnv(const Rules& rules, int num_envs, int threads, uint64_t seed) : impl_(std::make_unique<Impl>()) {
  validate_threads(threads);
  if (num_envs < 1 || num_envs > kMaxEnvs) {
    throw ConfigError("num_envs must be between 1 and " + std::to_string(kMaxEnvs) + ", not " +
                      std::to_string(num_envs));
  }
  impl_->rules = make_rules(rules.variant, rules.rows, rules.cols, rules.swap);
  impl_->num_envs = num_envs;
  impl_->pool = std::make_unique<WorkerPool>(threads);
  const Geometry g = make_geometry(rules.rows, rules.cols);
  impl_->batch = with_width(g.words, [&](auto w) -> std::unique_ptr<BatchBase> {
    return std::make_unique<Batch<w.value>>(impl_->rules, num_envs, *impl_->pool);
  });
  impl_->batch->reset(seed);
}

VectorEnv::~VectorEnv() = default;

const Rules& VectorEnv::rules() const { return impl_->rules; }
int VectorEnv::num_envs() const { return impl_->num_envs; }
int VectorEnv::threads() const { return impl_->pool->size(); }
int VectorEnv::num_actions() const { return impl_->rules.rows * impl_->rules.cols + 1; }
size_t VectorEnv::bytes_per_env() const { return impl_->batch->bytes_per_env(); }

void VectorEnv::reset(uint64_t seed) {
  impl_->batch->reset(seed);
}

StepOutcome VectorEnv::step(const int64_t* actions, float* rewards, bool* terminated, const EnvOutputs& out) {
  return impl_->batch->step(actions, rewards, terminated, out);
}

void VectorEnv::observe(const EnvOutputs& out) const { impl_->batch->observe(out); }

void VectorEnv::sample_actions(int64_t* out) { impl_->batch->sample(out); }

void VectorEnv::write_final_observations(bool* out) const { impl_->batch->final_observations(out, nullptr); }
void VectorEnv::write_final_observations(float* out) const { impl_->batch->final_observations(nullptr, out); }

}  // namespace hexengine
