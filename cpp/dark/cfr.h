// Exact play of Dark Hex on tiny boards: the game tree, CFR+ and best responses.
//
// Contract: a DarkTree holds every history of one Dark Hex game (classic or
// abrupt, docs/rules.md section 5) on a board of at most kTinyMaxCells cells whose
// tree has at most kTinyMaxHistories nodes; the constructor refuses anything
// else with a ConfigError that says why. Information sets are keyed by exactly
// what the core's View gives the player to move: their own actions with cells
// and results, and the opponent's actions as (colour, result) without cells;
// the board and the hidden-stone count follow from that record. A history of
// the tree is a sequence of cells; what each move does is the core's
// `play_move` (core/state.h) on a one-word State, as in the referee, and
// `infoset_view` builds a view with Game itself.
//
// Payoffs are +1 when Red wins and -1 when Blue wins. A policy gives, for
// each colour, one probability per sequence (information set, action): the
// actions of an information set are its legal cells in ascending order, and
// its probabilities sum to one. `evaluate` computes a profile's value and each
// colour's exact best response, hence NashConv and exploitability (NashConv
// divided by two, as OpenSpiel reports it), in two passes over the tree.
#pragma once

#include <atomic>
#include <cstdint>
#include <mutex>
#include <vector>

#include "core/geometry.h"
#include "core/rules.h"
#include "core/view.h"

namespace hexengine {

// Largest board, in cells, the tiny-board solver represents (16-bit masks in keys).
inline constexpr int kTinyMaxCells = 16;
// Most histories a DarkTree holds in memory (4 bytes each: about 1.6 GB).
inline constexpr double kTinyMaxHistories = 4.0e8;

// How many histories, information sets and sequences a game tree has.
struct DarkTreeSize {
  // Every node of the tree: decisions and game ends.
  double histories = 0;
  // Histories where the game is over.
  double terminals = 0;
  // Information sets per colour (0 Red, 1 Blue).
  double infosets[2] = {0, 0};
  // Sequences (information set, action) per colour.
  double sequences[2] = {0, 0};
  // Whether the history count finished (false: it passed `history_limit`).
  bool histories_complete = true;
  // Whether the information-set count finished (false: it passed `belief_limit` beliefs).
  bool infosets_complete = true;
};

// Counts a Dark Hex tree without building it: histories by dynamic programming
// on referee positions (stopping once past `history_limit`), information sets
// and sequences by dynamic programming on each colour's belief (the set of
// positions consistent with what it has seen), stopping past `belief_limit`
// distinct beliefs. `silent_hits` is the observation model of `DarkTree`.
DarkTreeSize count_dark_tree(const Rules& rules, double history_limit, double belief_limit,
                             bool silent_hits = false);

// One information set: where its sequences start, its legal cells, and the
// sequence of the same colour that leads to it.
struct DarkInfoSet {
  // Index of its first sequence among its colour's sequences.
  uint32_t first_seq = 0;
  // Legal cells as a mask; its actions are these cells in ascending order.
  uint32_t moves = 0;
  // The colour's previous sequence on every path here, or -1 for its first decision.
  int32_t parent_seq = -1;
};

// A policy for both colours: one probability per sequence, per colour.
struct DarkPolicy {
  std::vector<double> prob[2];
};

// A strategy profile's value and distance from equilibrium.
struct DarkEvaluation {
  // Red's expected payoff when both colours play the profile.
  double value = 0;
  // The most each colour (0 Red, 1 Blue) can expect against the other's strategy.
  double best_response[2] = {0, 0};
  // Sum of what each colour gains by switching to its best response.
  double nash_conv() const { return best_response[0] + best_response[1]; }
  // NashConv / 2: how much an average colour gains by best-responding.
  double exploitability() const { return nash_conv() / 2; }
};

// The complete game tree of tiny-board Dark Hex, in depth-first order.
class DarkTree {
 public:
  // Builds the tree; throws ConfigError unless the variant is dark and the tree
  // fits (at most kTinyMaxCells cells and kTinyMaxHistories histories).
  // `silent_hits` (dark-abrupt only) is OpenSpiel's `adh` observation model, in
  // which the player whose stone is hit is not told; it exists to cross-check
  // against OpenSpiel and is not hexengine's rules (views announce hits).
  // When `stop` is given and becomes true, the build throws Interrupted.
  explicit DarkTree(const Rules& rules, bool silent_hits = false, const std::atomic<bool>* stop = nullptr);

  const Rules& rules() const { return rules_; }
  const Geometry& geometry() const { return geom_; }
  bool silent_hits() const { return silent_hits_; }
  // Number of histories (nodes) in the tree.
  size_t histories() const { return nodes_.size(); }
  // Number of terminal histories.
  size_t terminals() const { return terminals_; }
  // Information sets of `color` (0 Red, 1 Blue), in order of discovery: a
  // set's parent sequence always belongs to an earlier set.
  const std::vector<DarkInfoSet>& infosets(int color) const { return infosets_[color]; }
  // Number of sequences of `color`.
  uint32_t sequences(int color) const { return sequences_[color]; }
  // Bytes held by the tree's arrays and lookup tables.
  size_t memory_bytes() const;

  // The information set (of the player to move) a view of this game belongs
  // to; throws ConfigError for a view of another game, a view whose viewer is
  // not to move, or a view that does not occur in this tree.
  int infoset_of(const View& view) const;
  // The view the core's referee gives the player of information set `index`
  // of colour `color`, replaying one of its histories.
  View infoset_view(int color, int index) const;

  // The nodes in depth-first order (see node encoding in dark/cfr.cpp).
  const std::vector<uint32_t>& nodes() const { return nodes_; }

 private:
  void build(const std::atomic<bool>* stop);
  void find_representatives() const;

  Rules rules_;
  Geometry geom_;
  bool silent_hits_ = false;
  std::vector<uint32_t> nodes_;
  size_t terminals_ = 0;
  std::vector<DarkInfoSet> infosets_[2];
  uint32_t sequences_[2] = {0, 0};
  // Per colour: key (previous sequence, what was seen since) -> information set.
  std::vector<uint64_t> keys_[2];
  std::vector<uint32_t> values_[2];
  // Per colour: one history (cells) per information set, found on demand.
  mutable std::once_flag representatives_once_;
  mutable std::vector<uint32_t> rep_offset_[2];
  mutable std::vector<uint8_t> rep_cells_[2];
};

// The uniform policy: every legal cell equally likely.
DarkPolicy uniform_policy(const DarkTree& tree);
// Checks that a policy has the tree's shape and sums to one per information
// set (within 1e-6) with no negative or non-finite entry; throws ConfigError.
void check_policy(const DarkTree& tree, const DarkPolicy& policy);
// Value, best responses and exploitability of a policy.
DarkEvaluation evaluate(const DarkTree& tree, const DarkPolicy& policy);
// A best response of `color` against the other colour's part of `policy`: a
// pure policy for `color` (other colour's entries copied from `policy`).
DarkPolicy best_response_policy(const DarkTree& tree, const DarkPolicy& policy, int color);

// The pure policy playing, at each information set, the most likely action of
// `policy` (the lowest cell on ties). Evaluated, it proves bounds on the game
// value with pure strategies: exact when they meet.
DarkPolicy purified(const DarkTree& tree, const DarkPolicy& policy);

// Most iterations a DarkCfr runs in all (its count is an int).
inline constexpr int kCfrMaxIterations = 2'147'483'647;

// CFR+ on a DarkTree: alternating updates, regret matching+, and a linearly
// weighted average strategy (Tammelin et al., 2015). Deterministic.
class DarkCfr {
 public:
  explicit DarkCfr(const DarkTree& tree);
  // The tree it solves.
  const DarkTree& tree() const { return tree_; }
  // Runs `iterations` more iterations (each updates Red, then Blue); when
  // `stop` is given and becomes true, returns after the iteration under way.
  // Throws ConfigError for a negative count or one past kCfrMaxIterations in all.
  void run(int iterations, const std::atomic<bool>* stop = nullptr);
  // Iterations run so far.
  int iterations() const { return t_; }
  // The average strategy (the one that converges to an equilibrium).
  DarkPolicy average_policy() const;
  // The strategy of the last iteration.
  DarkPolicy current_policy() const;

 private:
  double traverse(size_t& pos, int player, double reach_opp);
  void accumulate_average(int color);
  void update_current(int color);

  const DarkTree& tree_;
  std::vector<double> regret_[2];
  std::vector<double> average_[2];
  std::vector<double> current_[2];
  std::vector<double> realization_;
  int t_ = 0;
};

}  // namespace hexengine
