// Belief sampling for Dark Hex: the complete worlds one player's view allows.
//
// Contract: a Belief is built from the View of a Dark Hex player (not a
// spectator) whose game has not ended by connection; any other view, or one
// whose record does not match its board, or one that no world fits, gets a
// ConfigError naming the problem. A *world* consistent with the view is a
// complete position that some game with exactly the viewer's record could
// have reached:
//
//   - exactly `view.hidden_stones` enemy stones stand on cells the viewer does
//     not know (cells that are neither the viewer's stones nor found enemy
//     stones), and nowhere else;
//   - the enemy's stones, found and hidden together, hold no chain between
//     the enemy's two edges (that placement would have ended the game); the
//     viewer's own stones hold none either (checked once: the game runs);
//   - the opponent has found one distinct stone of the viewer per opponent
//     hit in the record, each placed by the viewer before that hit (which
//     stones were hit is not told; the record gives their number and times).
//
// Nothing else in the record constrains a world: the viewer's placements were
// on cells no enemy stone ever took, the viewer's hits on enemy stones placed
// before them (any order of the enemy's placements that puts each found stone
// before its hit realises the same board), and chains only grow, so a board
// without a finished chain had none earlier.
//
// `sample` draws worlds uniformly: every consistent set of hidden stones is
// equally likely, and the opponent's found stones are drawn uniformly among
// the hit sequences the record allows, independently of the hidden stones.
// That is the exact posterior when the opponent is modelled as playing
// uniformly at random, since every consistent record then has the same
// probability (the numbers of choices along the record are known counts).
//
// Method. By the Hex theorem, the enemy has no chain exactly when the cells
// free of enemy stones join the viewer's two edges, so the condition is a
// crossing of "open" cells. `Rejection` draws the hidden stones uniformly
// among the unknown cells and redraws while the enemy holds a chain; it is
// exact and fast while most draws pass. `Exact` counts, with a transfer
// matrix over the board in rows from the viewer's first edge to the second
// (the state is the connectivity of the open cells on the frontier, as in
// percolation counting, and the number of hidden stones placed so far), how
// many consistent boards complete each partial board, and then draws each
// unknown cell's stone with the ratio of those counts: one pass per sample,
// never a rejection. `Auto` measures the acceptance rate on a short probe
// and builds the exact table when fewer than 1 draw in 8 passes; frontiers
// that no feasible number of stones reaches, or whose edge component cannot
// reach the second edge with the open cells left, are pruned, which keeps
// the table small late in the game. Should it still exceed its budget
// (wide boards with many unknown cells and few of them open), rejection
// stays, bounded: after 2^12 failed draws a sample repeats the thread's
// previous exact draw (or one kept by the probe). Failing does not depend on
// that earlier world, so every sample is still exactly uniform on its own;
// only consecutive samples correlate. When draws pass less often than that
// (fewer than 1 in 2^12 on a longer probe), `Chain` takes over: a Metropolis
// walk that moves one hidden stone at a time and keeps consistent boards,
// from the probe's exact draws (or, if none passed, from a board built to be
// valid). Its samples are uniform only in the limit: the one inexact case,
// and one that needs contrived positions (a 19x19 board whose unknown half
// is almost all hidden stones); `method()` reports it.
#pragma once

#include <cstdint>
#include <memory>
#include <utility>
#include <vector>

#include "core/rng.h"
#include "core/state.h"
#include "core/view.h"

namespace hexengine {

// How a Belief draws its worlds.
enum class SampleMethod : int { Auto = 0, Rejection = 1, Exact = 2, Chain = 3 };

struct CrossingTable;

// The worlds a Dark Hex player's view allows, for boards of W words.
template <int W>
class Belief {
 public:
  // Per-thread buffers for `sample`.
  struct Scratch {
    std::vector<int> cells;
    std::vector<int> pool;
    std::vector<int> drawn;
    std::vector<int> hits;
    std::vector<std::pair<double, int>> keys;
    Bitboard<W> last;
    bool has_last = false;
  };

  // Reads `view`; `seed` drives the probe that picks the method under Auto.
  explicit Belief(const View& view, SampleMethod method = SampleMethod::Auto, uint64_t seed = 0);
  ~Belief();
  Belief(const Belief&) = delete;
  Belief& operator=(const Belief&) = delete;

  // Fresh buffers for one thread.
  Scratch scratch() const;
  // Draws a world uniformly into `out`: every stone, what each side has
  // found, the chains and the player to move. The opponent's hits, in order,
  // are left in `scratch.hits` (padded cells of the viewer's stones).
  void sample(Rng& rng, Scratch& scratch, State<W>& out) const;

  // The hidden enemy stones of a world drawn uniformly (the first half of `sample`).
  Bitboard<W> draw_hidden(Rng& rng, Scratch& scratch) const;
  // Fills `out` with the world of hidden stones `hidden` and draws the
  // opponent's hits (the second half of `sample`).
  void complete(Rng& rng, Scratch& scratch, const Bitboard<W>& hidden, State<W>& out) const;
  // Hidden enemy stones drawn one by one in proportion to `weight` (per
  // padded cell; successive sampling, by Efraimidis and Spirakis' keys),
  // redrawn while the enemy holds a chain; false if `tries` draws all failed.
  // The opponent model's proposal, not a uniform draw.
  bool draw_weighted(Rng& rng, Scratch& scratch, const std::vector<double>& weight, int tries,
                     Bitboard<W>& hidden) const;
  // Fewest further enemy stones that would complete the enemy's chain in the
  // world with hidden stones `hidden` (the viewer's stones block): how close
  // a sensible opponent's stones would be to a connection. Gives up past
  // `cap` and returns more than it.
  int enemy_distance(const Bitboard<W>& hidden, int cap = kMaxBits) const;

  // Whether some consistent world has an enemy stone on padded cell `p`.
  bool may_hold_enemy(int p) const;
  // Number of consistent sets of hidden stones, by enumeration; throws
  // ConfigError when more than `limit` candidate sets would be visited.
  uint64_t count_exact(uint64_t limit) const;
  // Number of consistent sets of hidden stones from the exact table, as a
  // double (any board the table fits); negative if it does not fit.
  double count_table() const;
  // The full record of a game reaching the world last drawn with `scratch`
  // into `world` and seen by the viewer exactly as the view: the enemy's
  // placements in an order that puts each found stone before its hit.
  std::vector<Action> realize(const State<W>& world, const Scratch& scratch, Rng& rng) const;

  const Geometry& geometry() const { return geom_; }
  Color viewer() const { return me_; }
  // Hidden enemy stones in every world.
  int hidden() const { return hidden_; }
  // Cells the viewer does not know (padded).
  const Bitboard<W>& unknown() const { return unknown_; }
  // The method in use: Rejection, Exact or Chain.
  SampleMethod method() const { return method_; }

 private:
  // Whether the enemy's stones `enemy` hold a chain between the enemy's edges.
  bool enemy_chain(const Bitboard<W>& enemy) const;
  // Fewest unknown cells on a path of cells free of enemy stones joining the
  // viewer's edges, avoiding `blocked`; a large number if there is none. The
  // cells of one such path go to `path` when given.
  int open_crossing_cost(const Bitboard<W>& blocked, Bitboard<W>* path = nullptr) const;
  // Draws the hidden stones by rejection; false if `tries` draws all failed.
  bool draw_by_rejection(Rng& rng, Scratch& s, Bitboard<W>& hidden, uint64_t tries) const;
  // The next hidden stones of the thread's Markov chain.
  Bitboard<W> walk(Rng& rng, Scratch& s) const;

  Geometry geom_;
  Variant variant_;
  Color me_, them_;
  Bitboard<W> board_, own_, found_, unknown_;
  Bitboard<W> enemy_first_, enemy_second_;
  int hidden_ = 0;
  std::vector<int> unknown_cells_;
  // The viewer's placements in record order (padded), and for each opponent
  // hit how many of them came before it.
  std::vector<int> placements_;
  std::vector<int> hit_reach_;
  // Record positions: the index of each action, for `realize`.
  std::vector<Action> history_;
  State<W> base_;
  SampleMethod method_ = SampleMethod::Rejection;
  std::unique_ptr<CrossingTable> table_;
  // Rejection fallback when no table fits: worlds found by the probe.
  std::vector<Bitboard<W>> pool_;
};

// Boards of `n` worlds drawn from `view`, row by row (n * rows * cols values:
// 0 empty, 1 red, 2 blue).
std::vector<int8_t> sample_boards(const View& view, uint64_t n, uint64_t seed, SampleMethod method);
// Records of `n` games consistent with `view` (see Belief::realize).
std::vector<std::vector<Action>> sample_histories(const View& view, uint64_t n, uint64_t seed);
// Exact number of boards consistent with `view`, by enumeration (see Belief::count_exact).
uint64_t count_boards(const View& view, uint64_t limit);
// Number of consistent boards from the exact table; negative if it does not fit.
double count_boards_table(const View& view);

}  // namespace hexengine
