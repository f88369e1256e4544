// What every search shares: its settings, its result, and the checks at its
// boundary.
//
// Contract: a search (the Hex and Rex search of search/mcts.h and the Dark Hex
// search of dark/dark_search.h) is built from a SearchParams that
// validate_params accepts, and searches only a View that check_searchable
// accepts: a coherent view of a running game, seen by the player to move. It
// answers with a SearchResult for that player, whose cells are public indices
// (row * cols + col) and kSwapMove. Settings a SearchParams leaves to the rules
// (rave_equivalence 0, solver_nodes kDefaultSolverNodes) are filled by
// params_for once the rules are known. Nothing here searches; search/search.cpp
// holds the checks.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "core/view.h"
#include "search/evaluator.h"

namespace hexengine {

// The swap move in search results (cells are public indices >= 0).
inline constexpr int kSwapMove = -1;

// Most threads a search (or a batch of random playouts) may use.
inline constexpr int kMaxThreads = 256;

// `SearchParams::solver_nodes` that takes the rules' default (default_solver_nodes).
inline constexpr uint64_t kDefaultSolverNodes = UINT64_MAX;

// With a simulation budget, the endgame solver and the swindle do at most this
// many units of work (a solver node or a random playout each) per simulation.
// 100, not less: the Rex endgames the swindle converts need the solver's
// 200,000 nodes at the default 10,000 simulations, with room for the swindle;
// 60 simulations (the easy level) still get only 6,000 units, a few
// hundredths of a second, where the solver once took half a minute.
inline constexpr uint64_t kEndgameWorkPerSimulation = 100;

// Budgets and settings of a search.
struct SearchParams {
  // Simulations per search; 0 means no limit (then `seconds` must be set).
  uint64_t simulations = 10000;
  // Seconds per search; 0 means no limit.
  double seconds = 0.0;
  // Threads sharing the tree.
  int threads = 1;
  // Seed of the random streams.
  uint64_t seed = 0;
  // Node budget of the tree (38 bytes each; 34 without the progressive bias,
  // which then has no column).
  uint64_t max_nodes = 16'000'000;
  // Keep the subtree of the position reached when the game goes on.
  bool reuse_tree = true;
  // Consider the swap when it is available.
  bool allow_swap = true;
  // Use knowledge (wins in one, forced blocks, Rex suicide pruning).
  bool knowledge = true;
  // Use pattern playouts; false plays uniformly random playouts.
  bool patterns = true;
  // RAVE equivalence parameter: visits at which tree and AMAF values weigh the
  // same; 0 takes the variant's default (default_rave_equivalence).
  double rave_equivalence = 0.0;
  // Initial RAVE weight (MoHex's "rave weight initial", 2.12 there): while a
  // move has few AMAF results, each weighs this many of its own visits, so beta
  // starts at rave_visits / (rave_visits + visits / rave_initial_weight). 1,
  // not MoHex's: 2.12 won 120 of 200 11x11 self-play games at 20,000
  // simulations but was even at 5,000 and 100,000, and 2 won 38 of 100
  // against MoHex at equal time (docs/search-notes.md, "The RAVE weights").
  double rave_initial_weight = 1.0;
  // UCB exploration constant (0 relies on RAVE alone to explore).
  double exploration = 0.0;
  // Rex playouts: with at most this fraction of the board empty, each side
  // avoids completing its own chain while it can. Off by default: measured
  // weaker than uniform filling (bench notes in the README).
  double rex_endgame = 0.0;
  // Hex: a node visited this many times gets the virtual-connection analysis
  // (H-search): proven wins and losses, must-play pruning (0 turns it off).
  // 1024, not less: at equal simulations 64 won no more games in self-play
  // and cut the simulations per second of an 11x11 midgame from 225k to 53k.
  uint32_t knowledge_visits = 1024;
  // Hex: a node visited this many times gets the inferior-cell analysis of
  // the solver (solver/knowledge.h): moves into cells the reduced position
  // fills (dead, or captured by either colour) and moves dominated or
  // vulnerable there are pruned, when a move is left (0 turns it off). The
  // virtual connections are then built on that reduced position too.
  // 11x11 self-play at 0.25 s a move, 100 games each: pruning at 256 visits
  // won 61 against none, 64 won 56 against 256 (docs/search-notes.md).
  uint32_t inferior_visits = 64;
  // Hex: playouts below such a node start with the cells it filled in (dead
  // cells, captured pairs) already coloured: 62 of 100 against pruning alone.
  bool inferior_fill = true;
  // Endgames: with at most `solver_empties` empty cells the exact solver
  // (df-pn) runs first, for at most `solver_nodes` nodes (and half of
  // `seconds`, if set), and a proven win is played at once (0 turns it off;
  // kDefaultSolverNodes takes the rules' default, default_solver_nodes).
  // With `simulations` set, the solver's nodes and the swindle's playouts
  // together stay within kEndgameWorkPerSimulation units per simulation, so
  // a bot given only simulations answers in time proportional to them.
  uint64_t solver_nodes = kDefaultSolverNodes;
  int solver_empties = 24;
  // When that solver proves the player to move lost, play the swindle
  // (search/swindle.h) instead of searching: the move whose winning replies look
  // worst, by random playouts, next to its losing ones. Each of its solves
  // gets `solver_nodes` nodes; all of them together half of `seconds`, if set.
  bool swindle = true;
  // Hex and Rex: weight, in virtual AMAF visits, of the move prior given to
  // each new child, whose value is above or below even by the learned weight
  // of the child's local pattern in the variant's table (search/patterns.h; 0 turns
  // it off; with `knowledge` off it is off too). Rex self-play: the Rex table
  // won 128 of 200 9x9 games against none at 3,000 simulations, 47 of 60 11x11
  // games at 2,000, and 61 of 120 9x9 games at 0.1 s a move (it costs a
  // quarter of Rex's simulations per second).
  double prior = 30.0;
  // Hex and Rex: progressive bias of the move prior (MoHex's kind): a move's
  // selection value gains this times the prior's probability of the move
  // among its siblings (the softmax of their learned weights), divided by the
  // square root of its visits + 1 (0 turns it off; off too when `prior` is 0).
  // Hex 11x11 self-play, 200 games each: 1 beat 0 by 68% at 20,000 simulations;
  // 2.5 beat 1 by 59.5%; 6 against 2.5 won 54% at 20,000 and 52% at 0.1 s.
  double prior_bias = 6.0;
  // A leaf is expanded once it has been visited this many times.
  uint32_t expand_threshold = 8;
  // Hex and Rex: a node visited at least this many times updates its
  // children's AMAF counts on one simulation in kAmafSampleRate (at random),
  // not on every one (0: every one). By then each child has thousands of AMAF
  // results, which weigh little against its own visits, and the nodes every
  // simulation passes stop being written by every thread each time (two
  // threads ran faster, strength at equal simulations stayed even; figures in
  // docs/search-notes.md, "Threads").
  uint32_t amaf_sample_visits = 8192;
  // Threads > 1: a node visited this many times (and the root) gets, in each
  // thread, a copy of its children's counts that the thread searches with and
  // adds to the tree's after each 1/8 of the node's visits, instead of
  // writing the tree's counts on every simulation (0: never; at most 16 MB of
  // copies a thread, beyond `max_nodes`). The top of the tree then stops
  // passing between the CPUs' caches on every simulation: on a host that
  // slows that hand-off, two threads held about 1.85x one thread where they
  // fell to 1.25x (docs/search-notes.md, "Threads").
  uint32_t shadow_visits = 1024;
  // Dark Hex: strength of the opponent model (see dark/dark_search.h); 0 searches
  // worlds drawn uniformly from the view. Off by default: at equal time on
  // 7x7 against the naive baseline, uniform worlds won 99% (classic) and 94%
  // (abrupt) where the model (2.5) won 100% and 86%, at half the speed.
  double opponent_model = 0.0;
  // Dark Hex: share of playout moves a side plays on a shortest path of its
  // own between its edges, as its own knowledge in the world shows it (own
  // stones free, found enemy stones blocking, the rest open), ties at random;
  // the other moves are uniformly random among the cells it does not know to
  // be occupied, and playouts follow the dark rules, hits included, until a
  // chain. 0 keeps the random fill (see dark/dark_search.h).
  double greedy_playouts = 0.0;
  // Dark Hex: share of the opponent's moves in the tree chosen as a greedy
  // player would choose them in the world (a cell on a shortest path of its
  // own knowledge, see greedy_playouts) instead of by the tree's statistics,
  // which model an opponent that knows where the viewer's stones are.
  double greedy_opponent = 0.0;
  // Dark Hex: draw worlds by replaying the view's record with the opponent's
  // hidden moves drawn from a model that plays a cell on a shortest path of
  // its own knowledge with this probability (else any cell it does not know
  // to be occupied), kept only where they give the recorded results and
  // weighted by the model's probability of those results (see
  // dark/dark_search.h); 0 draws worlds uniformly.
  double greedy_worlds = 0.0;
};

// A node with `amaf_sample_visits` visits updates its children's AMAF counts
// on one simulation in this many.
inline constexpr uint32_t kAmafSampleRate = 8;

// Checks a parameter set; throws ConfigError naming the bad field.
void validate_params(const SearchParams& params);

// The budget of one search: simulations (0: no cap) and seconds (0: no
// limit), not both 0. A bot's own comes from its SearchParams; a caller may
// give one search another (a clock's share of the time) and keep the tree.
struct Budget {
  uint64_t simulations = 0;
  double seconds = 0.0;
};

// Sets the budget of a search's parameters (SearchParams, PuctParams).
template <class Params>
void apply_budget(Params& params, const Budget& budget) {
  params.simulations = budget.simulations;
  params.seconds = budget.seconds;
}

// Throws ConfigError unless `budget` has simulations > 0 or seconds > 0, and
// seconds between 0 and 1e6.
void validate_budget(const Budget& budget);

// Throws ConfigError unless 1 <= threads <= kMaxThreads.
void validate_threads(int threads);

// The RAVE equivalence a search of `variant` uses when the parameters leave it
// at 0: 3,000 for Rex, 1,000 for Hex and Dark Hex. (7x7 Rex at 10,000
// simulations against OpenSpiel, as Red: 1,000 won 163 of 200 games, 3,000
// won 173; see the README.)
double default_rave_equivalence(Variant variant);

// The endgame solver's nodes a search under `rules` uses when the parameters
// leave them at kDefaultSolverNodes: 200,000 for Rex on boards of at most 49
// cells, 20,000 otherwise. Rex endgames have no virtual connections to cut
// them short, and on 7x7 a solve of 200,000 nodes takes about 2 s (1,500
// games as Red against OpenSpiel at 10,000 simulations: 1,356 won, 1,332
// with 20,000; docs/search-notes.md); on 11x11 a node costs about ten times
// as much, and the swindle's solves of every reply can take minutes.
uint64_t default_solver_nodes(const Rules& rules);

// `params` with the rules' defaults in place of the settings left to them
// (rave_equivalence 0, solver_nodes kDefaultSolverNodes).
SearchParams params_for(const SearchParams& params, const Rules& rules);

// What a search found, for the player to move.
struct SearchResult {
  // Public cell index, or kSwapMove.
  int best = kSwapMove;
  // Estimated probability that the player to move wins; negative if unknown.
  double value = -1.0;
  // Visits of each root move, per public cell.
  std::vector<uint32_t> visits;
  // Estimated win probability after each root move (negative where unvisited).
  std::vector<double> values;
  // Per public cell: +1 the move is proven to win, -1 proven to lose, 0 unknown
  // (proofs come from terminal positions met in the tree, MCTS-solver style;
  // all 0 in Dark Hex). Like visits and values, always one entry per cell.
  std::vector<int8_t> proven;
  // Value of the swap when it is available: 1 - the best cell's value.
  double swap_value = -1.0;
  // Visits of the swap at the root: the evaluator search tries it like a cell,
  // the playout search values it without searching it (0).
  uint32_t swap_visits = 0;
  // Principal variation: public cells or kSwapMove, starting with `best`.
  std::vector<int> pv;
  // Simulations run and seconds spent in this search.
  uint64_t simulations = 0;
  double seconds = 0.0;
  // Tree nodes in use after the search.
  uint64_t nodes = 0;
  // The endgame solver's work before the search: nodes it expanded (the
  // swindle's solves included) and the swindle's random playouts.
  uint64_t endgame_nodes = 0;
  uint64_t endgame_playouts = 0;
  // Simulations through the root's moves inherited from the previous search's
  // tree (tree reuse): the visits sum to simulations + reused.
  uint64_t reused = 0;
  // Why the move was chosen without search ("win", "block", "only-move",
  // "dead-cell", "solved", "swindle"), or empty.
  std::string forced;
  // Dark Hex: per public cell, the share of searched worlds with a hidden
  // enemy stone there (the chance that playing it is a hit); empty otherwise.
  std::vector<double> occupied;
  // Evaluator searches: the evaluator's calls, positions and time.
  EvaluatorStats evaluator;
};

// Checks that `view` may be searched: throws RulesError if it is not coherent
// (validate_view), ConfigError if its game is over or its viewer is not the
// player to move.
void check_searchable(const View& view);

}  // namespace hexengine
