#include "search/vector_env.h"

#include <algorithm>
#include <bit>
#include <string>

#include "core/errors.h"
#include "core/rng.h"
#include "search/position.h"
#include "search/search.h"
#include "search/worker_pool.h"

namespace hexengine {

namespace {

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
    for (int cell = 0; cell < g_.cells; ++cell) padded_[cell] = static_cast<int16_t>(g_.padded(cell));
    dense_board_ = dense_cells<W>(g_.cells);
  }

  size_t bytes_per_env() const override { return sizeof(Shadow<W>) + sizeof(State<W>) + sizeof(Rng); }

  void reset(uint64_t seed) override {
    rngs_.clear();
    for (size_t i = 0; i < slots_.size(); ++i) {
      slots_[i] = Shadow<W>();
      states_[i] = State<W>();
      rngs_.emplace_back(derive_seed(seed, i));
    }
    finals_.clear();
  }

  StepOutcome step(const int64_t* actions, float* rewards, bool* terminated, const EnvOutputs& out) override {
    const int n = static_cast<int>(slots_.size());
    for (int i = 0; i < n; ++i) check(i, actions[i]);
    for_parts([&](int part, int begin, int end) {
      std::vector<std::pair<int, Shadow<W>>>& ended = ended_[part];
      ended.clear();
      for (int i = begin; i < end; ++i) {
        Shadow<W>& slot = slots_[i];
        const Color mover = slot.to_move;
        rewards[i] = 0.0f;
        terminated[i] = false;
        const int action = static_cast<int>(actions[i]);
        if (play_action(states_[i], slot, g_, rules_, action, action < g_.cells ? padded_[action] : -1)) {
          rewards[i] = winner_of_connection(rules_.variant, mover) == mover ? 1.0f : -1.0f;
          terminated[i] = true;
          ended.emplace_back(i, slot);
          slot = Shadow<W>();
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
        out[i] = random_action(slots_[i], rules_, dense_board_, g_.cells, rngs_[i]);
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
      const Shadow<W>& slot = finals_[k];
      const Perspective<W> p = perspective_of(slot, rules_, slot.to_move, EndReason::Connection);
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

  // Throws IllegalMove naming environment `i` unless `action` is legal there.
  void check(int i, int64_t action) const {
    try {
      check_action(states_[i], slots_[i], g_, rules_, action);
    } catch (const IllegalMove& e) {
      throw IllegalMove("environment " + std::to_string(i) + ", action " + std::to_string(action) + ": " + e.what(),
                        e.row, e.col, e.rule);
    }
  }

  // Writes environment i's observation, mask and player to move.
  void write(int i, const EnvOutputs& out) const {
    const Shadow<W>& slot = slots_[i];
    if (out.obs_bool || out.obs_float) {
      const Perspective<W> p = perspective_of(slot, rules_, slot.to_move, EndReason::None);
      const size_t size = static_cast<size_t>(kPlaneCount) * g_.cells;
      if (out.obs_bool) write_planes(p, g_.cells, out.obs_bool + i * size);
      if (out.obs_float) write_planes(p, g_.cells, out.obs_float + i * size);
    }
    if (out.mask) {
      bool* mask = out.mask + static_cast<size_t>(i) * (g_.cells + 1);
      put_bits<false>(legal_cells(slot, rules_.variant, dense_board_), g_.cells, mask);
      mask[g_.cells] = swap_available(slot, rules_);
    }
    if (out.to_play) out.to_play[i] = static_cast<int8_t>(index_of(slot.to_move) + 1);
  }

  Rules rules_;
  Geometry g_;
  // The padded index of each cell, and every cell as dense bits.
  int16_t padded_[kMaxSide * kMaxSide];
  Bitboard<W> dense_board_;
  // Per game: what the batch reads, the position, the random stream.
  std::vector<Shadow<W>> slots_;
  std::vector<State<W>> states_;
  std::vector<Rng> rngs_;
  WorkerPool& pool_;
  // Per worker, the games that ended in the latest step; then all of them in order.
  std::vector<std::vector<std::pair<int, Shadow<W>>>> ended_;
  std::vector<Shadow<W>> finals_;
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
