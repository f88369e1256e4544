// Searches guided by a learned evaluator (a network): AlphaZero's PUCT, with
// the evaluator's priors for choosing moves and its values backed up instead
// of playouts.
//
// Contract: an Evaluator receives a batch of positions as the observation
// planes of planes.h (B x kPlaneCount x cells floats, for the player to move,
// built from what that player knows) and their legal-action flags (B x
// (cells + 1)), and fills priors (B x (cells + 1)) and values (B, in [-1, 1]
// for the player to move). It may throw; a search that meets an exception
// stops, leaves its tree for the next search to rebuild, and rethrows it.
// PuctSearch (search/puct.h) searches Hex and Rex positions with one;
// DarkPuct (dark/dark_puct.h) searches Dark Hex from its player's view.
#pragma once

#include <cstdint>
#include <string>

namespace hexengine {

// A batch evaluator of positions.
class Evaluator {
 public:
  virtual ~Evaluator() = default;
  // Fills `priors` and `values` for `batch` positions given by `planes` and `masks`.
  virtual void evaluate(const float* planes, const bool* masks, int batch, float* priors, float* values) = 0;
};

// Budgets and settings of an evaluator search.
struct PuctParams {
  // Evaluated positions (simulations) per search; 0 means no limit (then
  // `seconds` must be set).
  uint64_t simulations = 800;
  // Seconds per search; 0 means no limit.
  double seconds = 0.0;
  // Threads collecting and backing up batches on one tree.
  int threads = 1;
  // Positions per evaluator call, at most.
  int batch_size = 16;
  // PUCT's exploration constant: a move's score is Q + c_puct * P * sqrt(N) / (1 + n).
  double c_puct = 1.5;
  // Root noise for self-play: the root's priors become (1 - noise_fraction) *
  // P + noise_fraction * Dirichlet(noise_alpha) (0: no noise).
  double noise_fraction = 0.0;
  double noise_alpha = 0.3;
  // Seed of the random streams (noise, and Dark Hex's worlds).
  uint64_t seed = 0;
  // Hex and Rex: a search that continues the game searched last starts from
  // that search's subtree (search/puct.h); Dark Hex builds a new tree each time.
  bool reuse_tree = true;
};

// Checks a parameter set; throws ConfigError naming the bad field.
void validate_puct_params(const PuctParams& params);

// Statistics of the evaluator calls of one search.
struct EvaluatorStats {
  // Evaluator calls, positions evaluated, and seconds spent inside the evaluator.
  uint64_t batches = 0;
  uint64_t evaluated = 0;
  double seconds = 0.0;
};

}  // namespace hexengine
