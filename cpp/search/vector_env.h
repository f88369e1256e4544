// A batch of games stepped together, for reinforcement learning and
// self-play: the engine behind hx.VectorEnv.
//
// Contract: every environment plays the same rules from the empty board.
// Actions are integers: a cell's public index row * cols + col, or rows * cols
// for the swap. `step` takes one action per environment, checks all of them
// first (an illegal one throws IllegalMove naming the environment and the
// action, and nothing changes), then plays them with `play_move` and
// `play_swap` (state.h), the rules every other part of the engine uses: in
// classic Dark Hex a hit leaves the same player to move, in dark-abrupt it
// passes the turn. A game that ends is reset to the empty board within the same
// step (Gymnasium's same-step autoreset); its last position, seen by the player
// who made the last move, is kept for `write_final_observations`. Rewards go to
// the player who moved: +1 for the move that wins, -1 for the move that loses
// (in Rex, completing your own chain), 0 otherwise.
//
// Observations are the planes of planes.h for the player to move (in Dark Hex,
// what that player knows, never a hidden stone). Each environment has its own
// random stream for `sample_actions`, seeded from the batch's seed and its
// index, so results do not depend on how the batch is split over threads.
#pragma once

#include <cstdint>
#include <cstddef>
#include <memory>
#include <vector>

#include "core/rules.h"

namespace hexengine {

// Where a step or an observation writes, each an array with one row per
// environment (a null pointer: not wanted): the planes of planes.h as 0/1
// bytes or as floats (kPlaneCount x rows x cols a row), the legal actions as
// flags (num_actions a row), the player to move (1 Red, 2 Blue).
struct EnvOutputs {
  bool* obs_bool = nullptr;
  float* obs_float = nullptr;
  bool* mask = nullptr;
  int8_t* to_play = nullptr;
};

// The outcome of one step of the batch.
struct StepOutcome {
  // Indices of the environments whose game ended in this step (ascending).
  std::vector<int> ended;
};

// A batch of games under one rule set.
class VectorEnv {
 public:
  // `num_envs` games under `rules` on `threads` threads (ConfigError unless
  // 1 <= num_envs <= kMaxEnvs and 1 <= threads <= kMaxThreads); all start empty.
  VectorEnv(const Rules& rules, int num_envs, int threads, uint64_t seed);
  ~VectorEnv();
  VectorEnv(const VectorEnv&) = delete;
  VectorEnv& operator=(const VectorEnv&) = delete;

  // Most environments one batch may hold.
  static constexpr int kMaxEnvs = 1 << 20;

  const Rules& rules() const;
  int num_envs() const;
  int threads() const;
  // Actions per environment: rows * cols cells, then the swap.
  int num_actions() const;
  // Bytes of game state each environment holds.
  size_t bytes_per_env() const;

  // Empties every board (Red to move) and reseeds the random streams from `seed`.
  void reset(uint64_t seed);
  // Plays `actions[i]` in environment i, writing the mover's reward and
  // whether the game ended, then what `out` asks for of the new positions;
  // throws IllegalMove (nothing changed) on an illegal action.
  StepOutcome step(const int64_t* actions, float* rewards, bool* terminated, const EnvOutputs& out);
  // Writes what `out` asks for of the current positions.
  void observe(const EnvOutputs& out) const;
  // A uniformly random legal action per environment, from its own stream.
  void sample_actions(int64_t* out);
  // The last position of each game that ended in the latest step, for the
  // player who made its last move (in the order of StepOutcome::ended).
  void write_final_observations(bool* out) const;
  void write_final_observations(float* out) const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace hexengine
