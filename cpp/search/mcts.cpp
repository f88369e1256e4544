#include "search/mcts.h"

#include <algorithm>
#include <array>
#include <bit>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstddef>
#include <thread>
#include <tuple>
#include <unordered_map>

#include "core/rng.h"
#include "core/state.h"
#include "search/arena.h"
#include "search/engine.h"
#include "search/patterns.h"
#include "search/playout.h"
#include "search/swindle.h"
#include "solver/knowledge.h"
#include "solver/solver.h"
#include "solver/vc.h"

#if defined(__SSE2__)
#include <emmintrin.h>
#include <xmmintrin.h>
#endif

namespace hexengine {

namespace {

// Random playouts behind each reply's value in a swindle (search/swindle.h): enough
// to rank the replies of a 7x7 Rex endgame; a fraction of a second in all.
constexpr uint64_t kSwindlePlayouts = 1000;
// With a simulation budget, the fewest playouts per reply a swindle is worth running with.
constexpr uint64_t kMinSwindlePlayouts = 16;

// With several threads, each claims this many simulations of the budget at a time.
constexpr uint64_t kClaimBatch = 8;

// A shadow (threads > 1) settles after 1 / kSettleShare of its node's visits
// at its last settle, and at least kSettleMin; a thread shadows at most
// kMaxShadowed children in all (32 bytes each: 16 MB). An eighth, not a
// sixteenth or a thirty-second: in a slow cache-line placement two threads
// ran 1.86x, 1.74x and 1.71x one thread (docs/search-notes.md, "Threads").
constexpr uint32_t kSettleShare = 8, kSettleMin = 16;
constexpr uint64_t kMaxShadowed = 1u << 19;

// The move prior (SearchParams::prior): a fresh child's AMAF value starts
// at 0.5 plus kPriorScale times its learned log-weight (search/patterns.h) above the
// mean of its siblings', kept within [kPriorLow, kPriorHigh].
// Chosen for Hex, in 11x11 self-play at 2,000 simulations against the guessed
// prior this replaced, 200 games each (--seed 1): scale 0.02, 0.035, 0.05,
// 0.07, 0.1, 0.2 and 0.35 won 53%, 50.5%, 63%, 50%, 51%, 41.5% and 34.5%; Rex
// uses the same scale with its own table.
constexpr float kPriorScale = 0.05f, kPriorLow = 0.1f, kPriorHigh = 0.9f;

// The H-search of the tree's knowledge (SearchParams::knowledge_visits):
// a large work budget, so that a build of an 11x11 middlegame reaches its
// closure (the solver's 60,000 combinations find nothing there), and lists of
// 12 full and 24 semi carriers a pair that keep, past that, the carriers that
// narrow the pair's intersection. Against 6 and 12 without the narrowing, the
// builds cost some 14% of the simulations and prove the losses of games
// against MoHex three moves sooner (docs/search-notes.md, "Connections the
// search did not see").
constexpr solver::VcSizes kTreeVcSizes{.max_full = 12, .max_semi = 24, .max_ors = 4, .max_nodes = 128,
                                       .budget = 2'000'000, .narrowing = true};

constexpr uint8_t kLeaf = 0, kExpanding = 1, kExpanded = 2, kTerminal = 3;
// What is proven about a node, for the colour that moved into it; kPruned marks
// a move that knowledge showed need not be searched (outside the must-play region).
constexpr uint8_t kUnproven = 0, kMoverWins = 1, kMoverLoses = 2, kPruned = 3;

// The statistics of one edge of the tree, from the point of view of the colour
// that made its move; every simulation through the edge's parent writes them.
struct Counts {
  std::atomic<uint32_t> visits{0};
  std::atomic<uint32_t> wins{0};
  std::atomic<uint32_t> rave_visits{0};
  std::atomic<uint32_t> rave_wins{0};
};

// The fields of Counts, to walk them in a loop.
constexpr std::atomic<uint32_t> Counts::*kCountFields[4] = {&Counts::visits, &Counts::wins, &Counts::rave_visits,
                                                            &Counts::rave_wins};

// The move into a node: a padded cell, or kSwapMove. Kept apart from the rest
// of the node so that the all-moves-as-first update, which reads every child's
// move, reads 32 of them per cache line.
struct Move {
  int16_t cell = kSwapMove;
};

// The progressive bias of the move into a node (SearchParams::prior_bias
// times the move prior's probability of the move among its siblings); the
// selection adds it divided by the square root of the node's visits + 1.
struct Bias {
  float value = 0.0f;
};

// One edge of the tree apart from its Counts and Move: what is known about it,
// written at expansion and when something is proven.
struct Node {
  uint32_t first_child = 0;
  // A child whose move wins at once, once one is known (the search then always takes it).
  std::atomic<uint32_t> winning_child{kNoNode};
  uint16_t child_count = 0;
  uint8_t mover = 0;
  // MCTS-solver: proven by a terminal position or by all (or one winning) children.
  std::atomic<uint8_t> proof{kUnproven};
  std::atomic<uint8_t> state{kLeaf};
  // Whether the virtual-connection analysis has run on this node (kAnalysed),
  // and which colours it knows to have no connection between their edges.
  std::atomic<uint8_t> analysed{0};
  // The fill-in the inferior-cell analysis found here (an index into the
  // engine's table, 0 for none): playouts below start with it on the board.
  std::atomic<uint16_t> fill{0};
};

constexpr uint8_t kAnalysed = 1;
// The `analysed` bit saying the inferior-cell analysis has run on this node.
constexpr uint8_t kInferiorChecked = 8;
// The `analysed` bit saying colour c has neither a full nor a semi connection
// between its edges here. It passes to a child when c is the colour to move
// there: the parent's mover added a stone, which only takes connections away.
constexpr uint8_t unconnected_bit(int c) { return static_cast<uint8_t>(2 << c); }

// The search tree's node pool (search/arena.h), the counts and moves in arrays of their own.
using Tree = Arena<Node, Counts, Move, Bias>;

// What a child's progressive bias adds to its RAVE value now.
HEXENGINE_ALWAYS_INLINE float progressive_bias(const Bias& bias, const Counts& counts) {
  return bias.value / std::sqrt(static_cast<float>(counts.visits.load(std::memory_order_relaxed)) + 1.0f);
}

// The first of children[0, count) with the highest RAVE fraction, plus, when
// `bias` is given, each child's progressive bias over the square root of its
// visits + 1 (added to the numerator times the denominator), compared by
// cross-multiplying (no division), skipping those proven lost or pruned unless
// `all`; kNoNode if every one is skipped. With SSE2 four children are scored
// at once, each lane keeping its first best, and the lanes' winners are then
// compared in the order of their indices. That path reads the counts as
// signed 32-bit numbers, so the caller keeps it for parents with under 2^31
// visits (`small`), which bound every count. Cross-multiplying also settles
// the many exact ties between children that won every simulation by how the
// products round, which spreads the search over them: dividing (which keeps
// the first) proved the empty 3x3 Rex board lost within 20,000 simulations
// for 175 of 200 seeds, the scalar cross-multiplying loop for 196 and this
// one (whose lane order differs from it only in such ties) for 195.
uint32_t best_rave_child(const Node* children, const Counts* counts, const Bias* bias, uint32_t count, float inv_k,
                         float inv_w, bool all, bool small) {
  float best_num = -1.0f, best_den = 1.0f;
  uint32_t best_k = kNoNode, k = 0;
  auto consider = [&](float num, float den, uint32_t i) {
    if (num * best_den > best_num * den) {  // rarely true after the first few children: predictable
      best_num = num;
      best_den = den;
      best_k = i;
    }
  };
#if defined(__SSE2__)
  static_assert(sizeof(Counts) == 16 && offsetof(Counts, wins) == 4 && offsetof(Counts, rave_wins) == 12);
  static_assert(sizeof(Bias) == 4);
  if (small && count >= 4) {
    // Lane j of kSkip[m] is all ones when bit j of m is set.
    alignas(16) static constexpr uint32_t kSkip[16][4] = {
        {0, 0, 0, 0}, {~0u, 0, 0, 0}, {0, ~0u, 0, 0}, {~0u, ~0u, 0, 0}, {0, 0, ~0u, 0}, {~0u, 0, ~0u, 0},
        {0, ~0u, ~0u, 0}, {~0u, ~0u, ~0u, 0}, {0, 0, 0, ~0u}, {~0u, 0, 0, ~0u}, {0, ~0u, 0, ~0u},
        {~0u, ~0u, 0, ~0u}, {0, 0, ~0u, ~0u}, {~0u, 0, ~0u, ~0u}, {0, ~0u, ~0u, ~0u}, {~0u, ~0u, ~0u, ~0u}};
    auto pick = [](__m128 mask, __m128 a, __m128 b) { return _mm_or_ps(_mm_and_ps(mask, a), _mm_andnot_ps(mask, b)); };
    const __m128 ik = _mm_set1_ps(inv_k), iw = _mm_set1_ps(inv_w), one = _mm_set1_ps(1.0f),
                 minus_one = _mm_set1_ps(-1.0f);
    __m128 top_num = minus_one, top_den = one;
    __m128i top_k = _mm_set1_epi32(-1), lane_k = _mm_setr_epi32(0, 1, 2, 3);
    const unsigned skip_from = all ? 4 : kMoverLoses;
    for (; k + 4 <= count; k += 4) {
      // The four counts of a child (visits, wins, rave visits, rave wins) are
      // 16 bytes: one load each, then a transpose to one vector per count.
      // Plain loads of relaxed counters: a count read mid-update is as good as
      // the one before or after it.
      const Node* c = children + k;
      const Counts* q = counts + k;
      __m128 n = _mm_cvtepi32_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q)));
      __m128 w = _mm_cvtepi32_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q + 1)));
      __m128 rn = _mm_cvtepi32_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q + 2)));
      __m128 rw = _mm_cvtepi32_ps(_mm_loadu_si128(reinterpret_cast<const __m128i*>(q + 3)));
      _MM_TRANSPOSE4_PS(n, w, rn, rw);
      // As rave_fraction: den = rn + n * iw + n * rn * ik, num = (iw + rn * ik) * w + rw,
      // 1 / 1 when fresh, and -1 / 1 (below every other) when skipped.
      __m128 den = _mm_add_ps(_mm_add_ps(rn, _mm_mul_ps(n, iw)), _mm_mul_ps(_mm_mul_ps(n, rn), ik));
      __m128 num = _mm_add_ps(_mm_mul_ps(_mm_add_ps(iw, _mm_mul_ps(rn, ik)), w), rw);
      const __m128 seen = _mm_cmpgt_ps(den, _mm_setzero_ps());
      const unsigned skip = (c[0].proof.load(std::memory_order_relaxed) >= skip_from) |
                            (c[1].proof.load(std::memory_order_relaxed) >= skip_from) << 1 |
                            (c[2].proof.load(std::memory_order_relaxed) >= skip_from) << 2 |
                            (c[3].proof.load(std::memory_order_relaxed) >= skip_from) << 3;
      const __m128 skipped = _mm_load_ps(reinterpret_cast<const float*>(kSkip[skip]));
      num = pick(seen, num, one);
      den = pick(seen, den, one);
      if (bias) {
        const __m128 b = _mm_loadu_ps(reinterpret_cast<const float*>(bias + k));
        num = _mm_add_ps(num, _mm_mul_ps(_mm_div_ps(b, _mm_sqrt_ps(_mm_add_ps(n, one))), den));
      }
      num = pick(skipped, minus_one, num);
      den = pick(skipped, one, den);
      const __m128 better = _mm_cmpgt_ps(_mm_mul_ps(num, top_den), _mm_mul_ps(top_num, den));
      top_num = pick(better, num, top_num);
      top_den = pick(better, den, top_den);
      const __m128i better_i = _mm_castps_si128(better);
      top_k = _mm_or_si128(_mm_and_si128(better_i, lane_k), _mm_andnot_si128(better_i, top_k));
      lane_k = _mm_add_epi32(lane_k, _mm_set1_epi32(4));
    }
    alignas(16) float nums[4], dens[4];
    alignas(16) int32_t ks[4];
    _mm_store_ps(nums, top_num);
    _mm_store_ps(dens, top_den);
    _mm_store_si128(reinterpret_cast<__m128i*>(ks), top_k);
    // The lanes' winners in the order of their indices (-1: the lane had none).
    int order[4] = {0, 1, 2, 3};
    std::sort(order, order + 4,
              [&](int a, int b) { return static_cast<uint32_t>(ks[a]) < static_cast<uint32_t>(ks[b]); });
    for (int j : order) {
      if (ks[j] >= 0) consider(nums[j], dens[j], static_cast<uint32_t>(ks[j]));
    }
  }
#else
  (void)small;
#endif
  for (; k < count; ++k) {
    if (!all && children[k].proof.load(std::memory_order_relaxed) >= kMoverLoses) continue;
    const RaveFraction f = rave_fraction(counts[k], inv_k, inv_w);
    consider(bias ? f.num + progressive_bias(bias[k], counts[k]) * f.den : f.num, f.den, k);
  }
  return best_k;
}

// The six neighbours of a padded cell in circular order (E, NE, NW, W, SW, SE).
// A neighbour beyond Red's edges (above or below the board) is the guard index
// `bits`, and one beyond Blue's edges `bits + 1`; a playout keeps the guards
// as a Red and a Blue stone, since an edge serves its colour as a stone would,
// so pattern tests need no branches.
using Ring = std::array<int16_t, 6>;

// What a playout keeps per cell for its pattern tests: kFree, 1 + the colour
// index of a stone (or of the edge at a guard), or kOffBoard (padding).
constexpr uint8_t kFree = 0, kOffBoard = 3;

// The rings of the padded cells [0, bits).
std::vector<Ring> make_rings(const Geometry& g, int bits) {
  std::vector<Ring> rings(bits);
  const int dr[6] = {0, -1, -1, 0, 1, 1}, dc[6] = {1, 1, 0, -1, -1, 0};
  for (int r = 0; r < g.rows; ++r) {
    for (int c = 0; c < g.cols; ++c) {
      Ring& ring = rings[g.padded(r, c)];
      for (int d = 0; d < 6; ++d) {
        const int nr = r + dr[d], nc = c + dc[d];
        const bool in_rows = nr >= 0 && nr < g.rows, in_cols = nc >= 0 && nc < g.cols;
        ring[d] = static_cast<int16_t>(!in_rows ? bits : !in_cols ? bits + 1 : g.padded(nr, nc));
      }
    }
  }
  return rings;
}

// Bridge and edge-template saves for every neighbourhood: entry (me << 12 |
// code), where code holds the six neighbours' playout values two bits each
// (neighbour d at bits 2d), is the set of neighbours d + 1 (bit d + 1 mod 6)
// that are free between two of me's, d and d + 2. Built at compile time.
constexpr std::array<uint8_t, (2 << 12)> make_bridge_replies() {
  std::array<uint8_t, (2 << 12)> table{};
  for (int me = 0; me < 2; ++me) {
    for (unsigned code = 0; code < (1u << 12); ++code) {
      unsigned mine = 0, empty = 0;
      for (int d = 0; d < 6; ++d) {
        const unsigned at = (code >> (2 * d)) & 3u;
        mine |= static_cast<unsigned>(at == 1u + me) << d;
        empty |= static_cast<unsigned>(at == kFree) << d;
      }
      const unsigned twice = mine | (mine << 6);
      table[me << 12 | code] = static_cast<uint8_t>(((twice >> 2) & twice & (empty >> 1 | empty << 5)) & 63u);
    }
  }
  return table;
}
constexpr std::array<uint8_t, (2 << 12)> kBridgeReplies = make_bridge_replies();

// One thread's copy of the counts of a well-visited node's children, when
// several threads share the tree. The thread reads and writes the copy and adds
// what it wrote to the tree's counts only now and then (settle), so the top of
// the tree, which every simulation passes, is not handed between the CPUs'
// caches on every simulation. The other threads see this thread's visits
// there only after a settle, which costs them little: such a node has
// thousands of visits and settles after a small fraction of them.
struct Shadow {
  uint32_t node = kNoNode;
  // Simulations through the node since the last settle, and how many to allow.
  uint32_t pending = 0;
  uint32_t settle_at = 0;
  // The tree's counts at the last settle (kCountFields' order), and this
  // thread's view: those plus what it added since.
  std::unique_ptr<std::array<uint32_t, 4>[]> base;
  std::unique_ptr<Counts[]> mine;
};

template <int W>
class Engine final : public EngineBase {
 public:
  Engine(const Rules& rules, const SearchParams& params)
      : rules_(rules),
        params_(params),
        geom_(make_geometry(rules.rows, rules.cols)),
        info_(geom_),
        board_(Bitboard<W>::from(geom_.on_board)),
        rings_(make_rings(geom_, W * 64)),
        patterns_(geom_),
        prior_weights_(&PriorWeights::shipped(rules.variant)),
        blank_cells_(W * 64 + 2, kOffBoard),
        inv_k_(static_cast<float>(1.0 / params.rave_equivalence)),
        inv_w_(static_cast<float>(1.0 / params.rave_initial_weight)) {
    board_.for_each([&](int p) { blank_cells_[p] = kFree; });
    blank_cells_[W * 64] = 1 + index_of(Color::Red);  // the guards (make_rings)
    blank_cells_[W * 64 + 1] = 1 + index_of(Color::Blue);
    for (int c = 0; c < 2; ++c) {
      first_edge_[c] = Bitboard<W>::from(geom_.first_edge[c]);
      second_edge_[c] = Bitboard<W>::from(geom_.second_edge[c]);
    }
    vc_knowledge_ = params.knowledge && params.knowledge_visits > 0 && !is_misere(rules.variant);
    inferior_knowledge_ = params.knowledge && params.inferior_visits > 0 && !is_misere(rules.variant);
    prior_ = params.knowledge ? static_cast<float>(params.prior) : 0.0f;
    bias_ = prior_ > 0 ? static_cast<float>(params.prior_bias) : 0.0f;
  }

  SearchResult search(const View& view, const std::atomic<bool>* interrupt) override;
  void set_budget(const Budget& budget) override { apply_budget(params_, budget); }

 private:
  // Stones the inferior-cell analysis filled in at a node (Node::fill), per
  // colour; entry 0 is unused. Written once per entry, before the node's
  // index is published; a new tree copies the entries its nodes still use
  // into the other of two tables, which then change places.
  struct FillIn {
    Bitboard<W> stones[2];
  };
  // Per-thread scratch.
  struct Ctx {
    explicit Ctx(uint64_t seed) : rng(seed) {}
    Rng rng;
    State<W> s;
    std::vector<uint32_t> path;
    std::vector<int> list;
    std::vector<int> pos = std::vector<int>(W * 64, -1);
    std::vector<uint8_t> cells;  // the playout's board for its patterns (kFree...)
    std::vector<int> moves;
    // set_priors' scratch: weights of the children, and where the last move
    // lies from each cell (LastMove; Elsewhere between calls).
    std::vector<float> weights = std::vector<float>(W * 64 + 1);
    std::vector<LastMove> near_last = std::vector<LastMove>(W * 64, LastMove::Elsewhere);
    int last = -1;
    std::unique_ptr<solver::VcBuilder<W>> vc;  // made on first use
    // The counts each node on `path` (but the last) chose its child from:
    // the tree's own, or this thread's shadow of them.
    std::vector<Counts*> chosen_from;
    // Shadows of the well-visited nodes' children (threads > 1), by node.
    std::unordered_map<uint32_t, Shadow> shadows;
    // The visits of each node on `path` when the simulation passed it.
    std::vector<uint32_t> visits;
    // The shadows on `path`, to settle after the simulation.
    std::vector<Shadow*> shadowed;
    // Children shadowed in all (bounded by kMaxShadowed).
    uint64_t shadowed_children = 0;
    // Simulations this thread has not yet added to the root's visits.
    uint32_t root_visits = 0;
  };

  // The root position built from the view.
  State<W> position_of(const View& view) const;
  // Reuses the subtree for `view` if the previous search's game continued into it.
  void prepare_tree(const View& view);
  // Copies the subtree at `old_root` of `from` into a new arena; returns its root there.
  uint32_t copy_subtree(Tree& from, uint32_t old_root, Tree& to, const FillIn* old_fills);
  // Empty cells where a stone of `c` would complete its chain.
  Bitboard<W> completing_cells(const State<W>& s, Color c, const Bitboard<W>& empty) const;
  // Cells worth searching in `s` (padded), and why if only one is.
  void candidates(const State<W>& s, std::vector<int>& out, std::string* why) const;
  // Whether the swap is a legal move after `actions` actions.
  bool swap_possible(int actions) const { return rules_.swap != SwapForm::Off && actions == 1; }
  // Expands leaf `index` at position `s`; false if another thread does or the budget is spent.
  bool expand(uint32_t index, Ctx& ctx);
  // Sets `cells` to the board as playout() keeps it, with `stones` on it.
  void fill_cells(std::vector<uint8_t>& cells, const Bitboard<W> stones[2]) const {
    cells = blank_cells_;
    for (int c = 0; c < 2; ++c) stones[c].for_each([&](int p) { cells[p] = static_cast<uint8_t>(1 + c); });
  }
  // Starts the AMAF counts of children [first, first + count) of the node
  // at ctx.s (reached by ctx.last) at the move prior, `prior_` virtual visits,
  // and sets their progressive bias (`bias_` times the prior's probability).
  void set_priors(Ctx& ctx, uint32_t first, uint32_t count);
  // The child of `index` (visited `visits` times) to descend into, by the
  // counts of its children in `counts` (the tree's or a shadow of them).
  uint32_t select(uint32_t index, uint32_t visits, const Counts* counts);
  // This thread's shadow of the children of `index`, made if the node is
  // well visited enough to have one; null if it is not (or one thread searches).
  Shadow* shadow_of(uint32_t index, uint32_t visits, Ctx& ctx);
  // Adds what this thread wrote to `sh` since its last settle to the tree's
  // counts; with `refresh`, starts it again from the tree's counts now.
  void settle(Shadow& sh, bool refresh);
  // One simulation from the root.
  void simulate(Ctx& ctx);
  // Carries the proof of the last node of `path` up the path (MCTS-solver).
  void prove(const std::vector<uint32_t>& path);
  // Hex: virtual connections (H-search) at node `index`, position ctx.s (filled
  // in, with the inferior-cell analysis on), on the path ctx.path: a win for
  // the player to move proves the key move; a full connection of the opponent
  // proves every move lost; otherwise moves outside the must-play region of
  // the opponent's semi connections are pruned.
  void analyse(uint32_t index, Ctx& ctx);
  // Hex: inferior-cell analysis at node `index`, position ctx.s: prunes the
  // moves into cells that the reduced position fills (dead, or captured by
  // either colour) and the moves dominated or vulnerable there
  // (solver/knowledge.h), unless that would leave no move.
  void prune_inferior(uint32_t index, Ctx& ctx);
  // Plays on from `final` (the stones of ctx.s) to a full board with the playout
  // policy; returns the winner.
  Color playout(Ctx& ctx, Bitboard<W> final[2]);
  // A reply saving a bridge or edge template that the opponent's move at `last`
  // intruded; `cells` holds the board as playout() keeps it.
  int bridge_reply(const uint8_t* cells, Color me, int last, Rng& rng) const;
  // What a first move worth `v` to Red is worth when Blue may swap: Blue takes
  // whichever side is better, so Red gets min(v, 1 - v). Identity elsewhere.
  double opening_value(double v) const { return opening_root_ ? std::min(v, 1.0 - v) : v; }
  // Fills in the statistics of the root's children.
  SearchResult collect(uint64_t sims, double seconds, uint64_t reused);

  Rules rules_;
  SearchParams params_;
  Geometry geom_;
  solver::BoardInfo<W> info_;
  Bitboard<W> board_;
  Bitboard<W> first_edge_[2];
  Bitboard<W> second_edge_[2];
  // Virtual AMAF visits of the move prior at expansion (0: none).
  float prior_ = 0.0f;
  // The progressive bias of a move the prior gives probability 1 (0: none).
  float bias_ = 0.0f;
  std::vector<Ring> rings_;
  // The prior's local patterns on this board, and their learned weights.
  PatternReader patterns_;
  const PriorWeights* prior_weights_;
  // The empty board as playout() keeps it: kFree on the board, the edges at
  // the two guards, kOffBoard elsewhere.
  std::vector<uint8_t> blank_cells_;
  // 1 / params_.rave_equivalence and 1 / params_.rave_initial_weight, for select().
  float inv_k_;
  float inv_w_;
  std::unique_ptr<Tree> arena_;
  static constexpr uint32_t kMaxFills = 1u << 15;
  // With `inferior_fill`: the table of this tree and the previous one's.
  std::unique_ptr<FillIn[]> fills_, old_fills_;
  std::atomic<uint32_t> fill_count_{1};
  uint32_t root_ = kNoNode;
  std::vector<Action> root_history_;
  // The board of the view searched last (with root_history_, what tree reuse checks).
  std::vector<int8_t> root_board_;
  State<W> root_state_;
  int root_last_ = -1;
  // The player to move may swap (the swap is valued at the root, not searched).
  bool swap_root_ = false;
  // The opponent may swap after this move.
  bool opening_root_ = false;
  // Hex with knowledge on: well-visited nodes get the virtual-connection analysis.
  bool vc_knowledge_ = false;
  // Inferior-cell pruning at nodes of `inferior_visits` visits (Hex, knowledge on).
  bool inferior_knowledge_ = false;
  // Every move at the root is proven lost: the search then ignores proofs
  // (terminal positions aside) and values moves as if the opponent were not
  // perfect, so the bot plays the loss its opponent is likeliest to fumble
  // instead of whichever lost move comes first.
  std::atomic<bool> root_lost_{false};
  uint64_t searches_ = 0;
};

template <int W>
State<W> Engine<W>::position_of(const View& view) const {
  State<W> s;
  const auto shown = shown_stones(view, geom_);
  for (int c = 0; c < 2; ++c) s.stones[c] = Bitboard<W>::from(shown[c]);
  for (Color c : {Color::Red, Color::Blue}) {
    s.stones[index_of(c)].for_each([&](int p) { s.chains.add_stone(geom_, c, p, s.stones[index_of(c)]); });
  }
  s.to_move = *view.to_move;
  return s;
}

template <int W>
uint32_t Engine<W>::copy_subtree(Tree& from, uint32_t old_root, Tree& to, const FillIn* old_fills) {
  const uint32_t fresh = to.allocate(1);
  std::vector<std::pair<uint32_t, uint32_t>> queue{{old_root, fresh}};
  for (size_t head = 0; head < queue.size(); ++head) {
    auto [o, n] = queue[head];
    Node& a = from[o];
    Node& b = to[n];
    const Counts& ac = from.get<Counts>(o);
    Counts& bc = to.get<Counts>(n);
    bc.visits.store(ac.visits.load());
    bc.wins.store(ac.wins.load());
    bc.rave_visits.store(ac.rave_visits.load());
    bc.rave_wins.store(ac.rave_wins.load());
    to.get<Move>(n) = from.get<Move>(o);
    if (bias_ > 0) to.get<Bias>(n) = from.get<Bias>(o);
    b.mover = a.mover;
    b.proof.store(a.proof.load());
    b.analysed.store(a.analysed.load());
    if (const uint16_t f = a.fill.load(); f && old_fills) {
      const uint32_t k = fill_count_++;
      fills_[k] = old_fills[f];
      b.fill.store(static_cast<uint16_t>(k));
    }
    const uint8_t st = a.state.load();
    if (st != kExpanded) {
      b.state.store(st == kTerminal ? kTerminal : kLeaf);
      continue;
    }
    const uint32_t block = to.allocate(a.child_count);
    if (block == kNoNode) {
      b.state.store(kLeaf);
      continue;
    }
    b.first_child = block;
    b.child_count = a.child_count;
    const uint32_t winning = a.winning_child.load();
    if (winning != kNoNode) b.winning_child.store(block + (winning - a.first_child));
    b.state.store(kExpanded);
    for (uint32_t i = 0; i < a.child_count; ++i) queue.push_back({a.first_child + i, block + i});
  }
  return fresh;
}

template <int W>
void Engine<W>::prepare_tree(const View& view) {
  const auto& h = view.history;
  bool reuse = params_.reuse_tree && arena_ && root_ != kNoNode && continues(h, root_history_) &&
               board_follows(root_board_, view, root_history_.size());
  uint32_t node = root_;
  for (size_t i = root_history_.size(); reuse && i < h.size(); ++i) {
    Node& n = (*arena_)[node];
    if (n.state.load() != kExpanded) {
      reuse = false;
      break;
    }
    const int move = h[i].result == MoveResult::Swapped ? kSwapMove : geom_.padded(h[i].cell);
    uint32_t next = kNoNode;
    for (uint32_t c = 0; c < n.child_count; ++c) {
      if (arena_->get<Move>(n.first_child + c).cell == move) next = n.first_child + c;
    }
    if (next == kNoNode) reuse = false;
    node = next;
  }
  auto fresh = std::make_unique<Tree>(params_.max_nodes, Tree::ColumnsUsed{true, true, bias_ > 0});
  std::swap(fills_, old_fills_);
  if (inferior_knowledge_ && params_.inferior_fill && !fills_) {
    fills_ = std::make_unique_for_overwrite<FillIn[]>(kMaxFills);
  }
  fill_count_ = 1;
  if (reuse && (*arena_)[node].state.load() != kTerminal) {
    root_ = copy_subtree(*arena_, node, *fresh, fills_ ? old_fills_.get() : nullptr);
  } else {
    root_ = fresh->allocate(1);
  }
  arena_ = std::move(fresh);
  root_history_ = h;
  root_board_ = view.board;
}

template <int W>
Bitboard<W> Engine<W>::completing_cells(const State<W>& s, Color c, const Bitboard<W>& empty) const {
  const int ci = index_of(c);
  const Bitboard<W>& own = s.stones[ci];
  const Bitboard<W> reach_a = flood(own & first_edge_[ci], own, geom_.stride);
  const Bitboard<W> reach_b = flood(own & second_edge_[ci], own, geom_.stride);
  const Bitboard<W> near_a = first_edge_[ci] | dilate(reach_a, geom_.stride);
  const Bitboard<W> near_b = second_edge_[ci] | dilate(reach_b, geom_.stride);
  return near_a & near_b & empty;
}

template <int W>
void Engine<W>::candidates(const State<W>& s, std::vector<int>& out, std::string* why) const {
  out.clear();
  const Bitboard<W> empty = board_.andnot(s.occupied());
  Bitboard<W> chosen = empty;
  const char* reason = "";
  if (params_.knowledge) {
    const Color me = s.to_move;
    const Bitboard<W> mine = completing_cells(s, me, empty);
    if (is_misere(rules_.variant)) {
      const Bitboard<W> safe = empty.andnot(mine);
      if (safe.any()) chosen = safe;
      reason = "only-move";
    } else if (mine.any()) {
      chosen = Bitboard<W>();
      chosen.set(mine.first());
      reason = "win";
    } else {
      const Bitboard<W> theirs = completing_cells(s, opponent(me), empty);
      if (theirs.any()) {
        chosen = theirs;
        reason = "block";
      }
    }
  }
  if (params_.knowledge && chosen.count() > 1) {
    // Dead cells (no completion of the board depends on their colour): never
    // needed in Hex, and in Rex always a best move (see solver/knowledge.h).
    const Bitboard<W> dead = chosen & solver::dead_cells(info_, solver::Pos<W>{{s.stones[0], s.stones[1]}, 0});
    if (dead.any() && is_misere(rules_.variant)) {
      chosen = Bitboard<W>();
      chosen.set(dead.first());
      reason = "dead-cell";
    } else if (dead.any() && chosen.andnot(dead).any()) {
      chosen = chosen.andnot(dead);
    }
  }
  chosen.for_each([&](int p) { out.push_back(p); });
  if (out.size() == 1 && why) *why = *reason ? reason : "only-move";
}

template <int W>
bool Engine<W>::expand(uint32_t index, Ctx& ctx) {
  Node& n = (*arena_)[index];
  uint8_t expected = kLeaf;
  if (!n.state.compare_exchange_strong(expected, kExpanding, std::memory_order_acquire)) return false;
  candidates(ctx.s, ctx.moves, nullptr);
  const uint32_t block = arena_->allocate(static_cast<uint32_t>(ctx.moves.size()));
  if (block == kNoNode) {
    n.state.store(kLeaf, std::memory_order_release);
    return false;
  }
  const uint8_t mover = static_cast<uint8_t>(index_of(ctx.s.to_move));
  for (size_t i = 0; i < ctx.moves.size(); ++i) {
    (*arena_)[block + static_cast<uint32_t>(i)].mover = mover;
    arena_->get<Move>(block + static_cast<uint32_t>(i)).cell = static_cast<int16_t>(ctx.moves[i]);
  }
  if (prior_ > 0) set_priors(ctx, block, static_cast<uint32_t>(ctx.moves.size()));
  n.first_child = block;
  n.child_count = static_cast<uint16_t>(ctx.moves.size());
  n.state.store(kExpanded, std::memory_order_release);
  return true;
}

template <int W>
void Engine<W>::set_priors(Ctx& ctx, uint32_t first, uint32_t count) {
  std::vector<uint8_t>& cells = ctx.cells;  // the playout refills it
  fill_cells(cells, ctx.s.stones);
  patterns_.mark_last(ctx.near_last.data(), ctx.last, true);
  float* weights = ctx.weights.data();
  float sum = 0.0f, top = -1e30f;
  int scored = 0;
  for (uint32_t i = first; i < first + count; ++i) {
    const int move = arena_->get<Move>(i).cell;
    if (move < 0) continue;  // the swap
    const uint32_t key = canonical_key(patterns_.key(cells.data(), move, ctx.s.to_move));
    weights[i - first] = prior_weights_->weight(key, ctx.near_last[move]);
    sum += weights[i - first];
    top = std::max(top, weights[i - first]);
    ++scored;
  }
  patterns_.mark_last(ctx.near_last.data(), ctx.last, false);
  const float mean = scored > 0 ? sum / static_cast<float>(scored) : 0.0f;
  float total = 0.0f;  // the softmax's denominator, shifted by the top weight
  for (uint32_t i = first; i < first + count; ++i) {
    if (arena_->get<Move>(i).cell < 0) continue;
    const float q = std::clamp(0.5f + kPriorScale * (weights[i - first] - mean), kPriorLow, kPriorHigh);
    Counts& counts = arena_->get<Counts>(i);
    counts.rave_visits.store(static_cast<uint32_t>(prior_), std::memory_order_relaxed);
    counts.rave_wins.store(static_cast<uint32_t>(prior_ * q + 0.5f), std::memory_order_relaxed);
    if (bias_ > 0) {
      weights[i - first] = std::exp(weights[i - first] - top);  // from here on, the softmax's numerator
      total += weights[i - first];
    }
  }
  if (bias_ == 0) return;
  for (uint32_t i = first; i < first + count; ++i) {
    if (arena_->get<Move>(i).cell >= 0) arena_->get<Bias>(i).value = bias_ * weights[i - first] / total;
  }
}

template <int W>
uint32_t Engine<W>::select(uint32_t index, uint32_t parent_visits, const Counts* const counts) {
  Node& parent = (*arena_)[index];
  const bool lost = root_lost_.load(std::memory_order_relaxed);
  const uint32_t winning = parent.winning_child.load(std::memory_order_relaxed);
  if (winning != kNoNode && !lost) return winning;
  const float c_ucb = static_cast<float>(params_.exploration);
  const float log_n = c_ucb > 0 ? std::log(static_cast<float>(parent_visits) + 1.0f) : 0.0f;
  const bool opening = index == root_ && opening_root_;
  const Node* const children = arena_->begin_of(parent.first_child);
  const Bias* const bias = bias_ > 0 ? arena_->begin_of<Bias>(parent.first_child) : nullptr;
  uint32_t best_k = kNoNode;
  if (!opening && c_ucb == 0) {
    const bool small = parent_visits < (1u << 31) - (1u << 20);
    best_k = best_rave_child(children, counts, bias, parent.child_count, inv_k_, inv_w_, lost, small);
  } else {
    // At a swap-opening root or with UCB the RAVE score is adjusted.
    float best = -1.0f;
    for (uint32_t k = 0; k < parent.child_count; ++k) {
      if (children[k].proof.load(std::memory_order_relaxed) >= kMoverLoses && !lost) continue;
      const RaveFraction f = rave_fraction(counts[k], inv_k_, inv_w_);
      float score = f.num / f.den;  // 1 when fresh, then not adjusted
      if (opening && !f.fresh) score = std::min(score, 1.0f - score);
      if (bias) score += progressive_bias(bias[k], counts[k]);
      if (c_ucb > 0 && !f.fresh) {
        const float n = static_cast<float>(counts[k].visits.load(std::memory_order_relaxed));
        score += c_ucb * std::sqrt(log_n / (n + 1.0f));
      }
      if (score > best) {
        best = score;
        best_k = k;
      }
    }
  }
  if (best_k != kNoNode) return parent.first_child + best_k;
  if (index == root_ && !lost) {  // every move is proven lost
    root_lost_.store(true, std::memory_order_relaxed);
    return select(index, parent_visits, counts);
  }
  return parent.first_child;
}

template <int W>
int Engine<W>::bridge_reply(const uint8_t* cells, Color me, int last, Rng& rng) const {
  const Ring& ring = rings_[last];
  unsigned code = 0;
  for (int d = 0; d < 6; ++d) code |= static_cast<unsigned>(cells[ring[d]]) << (2 * d);
  const unsigned replies = kBridgeReplies[index_of(me) << 12 | code];
  if (!replies) return -1;
  unsigned pick = replies;
  if (pick & (pick - 1)) {
    for (int k = static_cast<int>(rng.below(std::popcount(replies))); k > 0; --k) pick &= pick - 1;
  }
  return ring[(std::countr_zero(pick) + 1) % 6];
}

template <int W>
Color Engine<W>::playout(Ctx& ctx, Bitboard<W> final[2]) {
  auto& list = ctx.list;
  auto& pos = ctx.pos;
  list.clear();
  board_.andnot(final[0] | final[1]).for_each([&](int p) {
    pos[p] = static_cast<int>(list.size());
    list.push_back(p);
  });
  const bool hex = !is_misere(rules_.variant);
  const bool patterns = params_.patterns;
  auto take = [&](size_t at) {
    const int p = list[at];
    list[at] = list.back();
    pos[list[at]] = static_cast<int>(at);
    list.pop_back();
    return p;
  };
  if (!hex && params_.rex_endgame > 0) {
    // Rex endgame policy: once few cells are empty, each side avoids completing
    // its own chain while it can, and the game ends when one side cannot
    // (play_move keeps the chains).
    State<W>& s = ctx.s;
    const size_t endgame = static_cast<size_t>(params_.rex_endgame * geom_.cells);
    while (!list.empty()) {
      const Color turn = s.to_move;
      const Bitboard<W>& own = s.stones[index_of(turn)];
      const size_t n = list.size(), start = ctx.rng.below(static_cast<uint32_t>(n));
      size_t at = start;
      for (size_t k = 0; n <= endgame && k < n && s.chains.would_connect(geom_, turn, list[at], own); ++k) {
        at = (start + k + 1) % n;
      }
      if (play_move(s, geom_, rules_.variant, take(at)).connected) {
        final[0] = s.stones[0];
        final[1] = s.stones[1];
        return opponent(turn);
      }
    }
  }
  Color turn = ctx.s.to_move;
  if (patterns && hex) {
    // A byte per cell, so that the pattern test of a move is one table lookup (bridge_reply).
    std::vector<uint8_t>& cells = ctx.cells;
    fill_cells(cells, final);
    int last = ctx.last;
    while (!list.empty()) {
      const int reply = last >= 0 ? bridge_reply(cells.data(), turn, last, ctx.rng) : -1;
      const int p = take(reply < 0 ? ctx.rng.below(static_cast<uint32_t>(list.size())) : pos[reply]);
      final[index_of(turn)].set(p);
      cells[p] = static_cast<uint8_t>(1 + index_of(turn));
      last = p;
      turn = opponent(turn);
    }
  } else {
    while (!list.empty()) {
      final[index_of(turn)].set(take(ctx.rng.below(static_cast<uint32_t>(list.size()))));
      turn = opponent(turn);
    }
  }
  return winner_of_connection(rules_.variant, full_board_chain_owner(geom_, final[0]));
}

template <int W>
void Engine<W>::prove(const std::vector<uint32_t>& path) {
  Tree& arena = *arena_;
  for (size_t k = path.size() - 1; k > 0; --k) {
    const uint8_t proof = arena[path[k]].proof.load(std::memory_order_relaxed);
    Node& parent = arena[path[k - 1]];
    if (proof == kMoverWins) {
      // The player to move at the parent wins: the parent's mover loses.
      parent.winning_child.store(path[k], std::memory_order_relaxed);
    } else if (proof == kMoverLoses) {
      // The parent's mover wins only if every reply loses.
      for (uint32_t i = parent.first_child; i < parent.first_child + parent.child_count; ++i) {
        if (arena[i].proof.load(std::memory_order_relaxed) != kMoverLoses) return;
      }
    } else {
      return;
    }
    if (k - 1 == 0) return;  // the root has no mover
    parent.proof.store(proof == kMoverWins ? kMoverLoses : kMoverWins, std::memory_order_relaxed);
  }
}

template <int W>
void Engine<W>::analyse(uint32_t index, Ctx& ctx) {
  Tree& arena = *arena_;
  Node& n = arena[index];
  if (n.analysed.fetch_or(kAnalysed) & kAnalysed) return;
  if (!ctx.vc) ctx.vc = std::make_unique<solver::VcBuilder<W>>(kTreeVcSizes);
  solver::Pos<W> pos{{ctx.s.stones[0], ctx.s.stones[1]}, index_of(ctx.s.to_move)};
  const uint32_t first = n.first_child, end = first + n.child_count;
  auto settle = [&](uint32_t child, uint8_t proof) {
    arena[child].proof.store(proof, std::memory_order_relaxed);
    ctx.path.push_back(child);
    prove(ctx.path);
    ctx.path.pop_back();
  };
  // With the inferior-cell analysis on, the connections are built on the
  // filled-in board, as MoHex builds them: its value is the position's, and a
  // captured pair or a dead cell no longer breaks a chain of connections. The
  // node's fill-in (prune_inferior ran first) saves reducing it again.
  bool filled = false;
  if (const uint16_t f = n.fill.load(std::memory_order_acquire)) {
    for (int c = 0; c < 2; ++c) pos.stones[c] |= fills_[f].stones[c];
    filled = true;
  } else if (inferior_knowledge_) {
    filled = solver::reduce(info_, pos, true, true, false) > 0;
  }
  if (filled) {
    const int joined = solver::joined_colour(info_, pos);
    if (joined == pos.mover) return settle(first, kMoverWins);  // any move keeps the win
    if (joined >= 0) {
      for (uint32_t i = first; i < end; ++i) arena[i].proof.store(kMoverLoses, std::memory_order_relaxed);
      return settle(first, kMoverLoses);
    }
  }
  // The mover's connections: none if the parent knew of none (ctx.path ends
  // here) and the move into this node added a stone (a swap does not).
  const size_t depth = ctx.path.size();
  uint8_t unconnected = 0;
  if (depth >= 2 && arena.get<Move>(index).cell != kSwapMove) {
    unconnected = arena[ctx.path[depth - 2]].analysed.load(std::memory_order_relaxed) & unconnected_bit(pos.mover);
  }
  if (!unconnected) {
    const auto mine = ctx.vc->build(info_, pos, pos.mover);
    if (mine.full || mine.semis) {
      // A full connection wins whatever is played; a semi one by its key.
      for (uint32_t i = first; i < end; ++i) {
        if (mine.full || arena.get<Move>(i).cell == mine.key) return settle(i, kMoverWins);
      }
      return;
    }
    unconnected = unconnected_bit(pos.mover);
  }
  const auto theirs = ctx.vc->build(info_, pos, 1 - pos.mover);
  if (!theirs.full && !theirs.semis) unconnected |= unconnected_bit(1 - pos.mover);
  n.analysed.fetch_or(unconnected, std::memory_order_relaxed);
  if (theirs.full) {
    for (uint32_t i = first; i < end; ++i) arena[i].proof.store(kMoverLoses, std::memory_order_relaxed);
    return settle(first, kMoverLoses);
  }
  if (theirs.semis) {
    bool any = false;
    for (uint32_t i = first; i < end; ++i) {
      Node& c = arena[i];
      if (!theirs.intersection.test(arena.get<Move>(i).cell) && c.proof.load(std::memory_order_relaxed) == kUnproven) {
        c.proof.store(kPruned, std::memory_order_relaxed);
      }
      any |= c.proof.load(std::memory_order_relaxed) != kPruned;
    }
    if (!any) {  // no move can stop the opponent: all lose
      for (uint32_t i = first; i < end; ++i) arena[i].proof.store(kMoverLoses, std::memory_order_relaxed);
      settle(first, kMoverLoses);
    }
  }
}

template <int W>
void Engine<W>::prune_inferior(uint32_t index, Ctx& ctx) {
  Tree& arena = *arena_;
  Node& n = arena[index];
  if (n.analysed.fetch_or(kInferiorChecked) & kInferiorChecked) return;
  const uint32_t first = n.first_child, end = first + n.child_count;
  solver::Pos<W> pos{{ctx.s.stones[0], ctx.s.stones[1]}, index_of(ctx.s.to_move)};
  if (solver::reduce(info_, pos, true, true, false) > 0 && fills_) {
    const uint32_t k = fill_count_.fetch_add(1, std::memory_order_relaxed);
    if (k < kMaxFills) {
      for (int c = 0; c < 2; ++c) fills_[k].stones[c] = pos.stones[c].andnot(ctx.s.stones[c]);
      n.fill.store(static_cast<uint16_t>(k), std::memory_order_release);
    }
  }
  if (solver::joined_colour(info_, pos) >= 0) return;
  const Bitboard<W> empty = info_.on_board.andnot(pos.stones[0] | pos.stones[1]);
  // The moves that may still win: those neither pruned nor proven lost.
  Bitboard<W> moves;
  for (uint32_t i = first; i < end; ++i) {
    const uint8_t proof = arena[i].proof.load(std::memory_order_relaxed);
    if (proof == kMoverWins) return;  // the node is won: nothing to prune
    const int cell = arena.get<Move>(i).cell;
    if (cell != kSwapMove && proof == kUnproven && empty.test(cell)) moves.set(cell);
  }
  Bitboard<W> region;
  const Bitboard<W> kept = solver::prune_inferior(info_, pos, moves, true, true, region);
  if (!kept.any()) return;
  for (uint32_t i = first; i < end; ++i) {
    const int cell = arena.get<Move>(i).cell;
    if (cell == kSwapMove || kept.test(cell)) continue;
    uint8_t unproven = kUnproven;
    arena[i].proof.compare_exchange_strong(unproven, kPruned, std::memory_order_relaxed);
  }
}

template <int W>
Shadow* Engine<W>::shadow_of(uint32_t index, uint32_t visits, Ctx& ctx) {
  if (params_.threads < 2 || params_.shadow_visits == 0) return nullptr;
  if (index != root_ && visits < params_.shadow_visits) return nullptr;
  if (auto found = ctx.shadows.find(index); found != ctx.shadows.end()) return &found->second;
  const uint32_t count = (*arena_)[index].child_count;
  if (ctx.shadowed_children + count > kMaxShadowed) return nullptr;
  ctx.shadowed_children += count;
  Shadow& sh = ctx.shadows[index];
  sh.node = index;
  sh.base = std::make_unique<std::array<uint32_t, 4>[]>(count);
  sh.mine = std::make_unique<Counts[]>(count);
  settle(sh, true);
  return &sh;
}

template <int W>
void Engine<W>::settle(Shadow& sh, bool refresh) {
  const Node& n = (*arena_)[sh.node];
  Counts* const tree = arena_->begin_of<Counts>(n.first_child);
  uint64_t visits = 0;
  for (uint32_t k = 0; k < n.child_count; ++k) {
    for (int j = 0; j < 4; ++j) {
      std::atomic<uint32_t>& shared = tree[k].*kCountFields[j];
      std::atomic<uint32_t>& mine = sh.mine[k].*kCountFields[j];
      const uint32_t added = mine.load(std::memory_order_relaxed) - sh.base[k][j];
      if (added) shared.fetch_add(added, std::memory_order_relaxed);
      if (refresh) {
        sh.base[k][j] = shared.load(std::memory_order_relaxed);
        mine.store(sh.base[k][j], std::memory_order_relaxed);
      }
    }
    visits += sh.base[k][0];
  }
  sh.pending = 0;
  const uint64_t share = std::min<uint64_t>(visits / kSettleShare, ~0u);
  sh.settle_at = std::max(kSettleMin, static_cast<uint32_t>(share));
}

template <int W>
void Engine<W>::simulate(Ctx& ctx) {
  Tree& arena = *arena_;
  ctx.s = root_state_;
  ctx.last = root_last_;
  ctx.path.clear();
  ctx.path.push_back(root_);
  ctx.chosen_from.clear();
  ctx.shadowed.clear();
  ctx.visits.clear();
  uint32_t current = root_;
  uint16_t fill = 0;  // the deepest fill-in on the path
  // The visits of `current` as this thread sees them (its shadow's, if its parent has one).
  uint32_t visits = arena.get<Counts>(root_).visits.load(std::memory_order_relaxed) + ctx.root_visits;
  int winner = -1;
  for (;;) {
    Node& n = arena[current];
    ctx.visits.push_back(visits);
    if (n.state.load(std::memory_order_acquire) != kExpanded) {
      const bool ready = current == root_ || visits >= params_.expand_threshold;
      if (!ready || !expand(current, ctx)) break;
    }
    const bool lost = root_lost_.load(std::memory_order_relaxed);
    if (inferior_knowledge_ && visits >= params_.inferior_visits &&
        !(n.analysed.load(std::memory_order_relaxed) & kInferiorChecked)) {
      prune_inferior(current, ctx);
    }
    if (const uint16_t f = n.fill.load(std::memory_order_acquire)) fill = f;
    if (vc_knowledge_ && !(n.analysed.load(std::memory_order_relaxed) & kAnalysed) &&
        visits >= params_.knowledge_visits) {
      analyse(current, ctx);
      const uint8_t proof = n.proof.load(std::memory_order_relaxed);
      if ((proof == kMoverWins || proof == kMoverLoses) && !lost) {
        winner = proof == kMoverWins ? n.mover : 1 - n.mover;
        break;
      }
    }
    Shadow* const sh = shadow_of(current, visits, ctx);
    Counts* const counts = sh ? sh->mine.get() : arena.begin_of<Counts>(n.first_child);
    const uint32_t child = select(current, visits, counts);
    Node& c = arena[child];
    if (sh) {
      bump(counts[child - n.first_child].visits);
      visits = counts[child - n.first_child].visits.load(std::memory_order_relaxed);
      ctx.shadowed.push_back(sh);
    } else {
      visits = counts[child - n.first_child].visits.fetch_add(1, std::memory_order_relaxed) + 1;
    }
    ctx.chosen_from.push_back(counts);
    ctx.path.push_back(child);
    const uint8_t proof = c.proof.load(std::memory_order_relaxed);
    if (proof != kUnproven && (!lost || c.state.load(std::memory_order_acquire) == kTerminal)) {
      winner = proof == kMoverWins ? c.mover : 1 - c.mover;
      break;
    }
    const Color mover = ctx.s.to_move;
    const int move = arena.get<Move>(child).cell;
    if (play_move(ctx.s, geom_, rules_.variant, move).connected) {
      winner = index_of(winner_of_connection(rules_.variant, mover));
      c.proof.store(winner == index_of(mover) ? kMoverWins : kMoverLoses, std::memory_order_relaxed);
      c.state.store(kTerminal, std::memory_order_release);
      prove(ctx.path);
      break;
    }
    ctx.last = move;
    current = child;
  }
  Bitboard<W> final[2] = {ctx.s.stones[0], ctx.s.stones[1]};
  if (fill) {
    const Bitboard<W> empty = board_.andnot(final[0] | final[1]);
    for (int c = 0; c < 2; ++c) final[c] |= fills_[fill].stones[c] & empty;
  }
  if (winner < 0) winner = index_of(playout(ctx, final));
  ++ctx.visits[0];  // the root's visit is counted now (what the AMAF sampling below reads)
  if (params_.threads > 1) {
    ++ctx.root_visits;
  } else {
    arena.get<Counts>(root_).visits.fetch_add(1, std::memory_order_relaxed);
  }
  // Edge i of the path (its node path[i]) has its counts in chosen_from[i - 1].
  auto edge = [&](size_t i) -> Counts& {
    return ctx.chosen_from[i - 1][ctx.path[i] - arena[ctx.path[i - 1]].first_child];
  };
  for (size_t i = 1; i < ctx.path.size(); ++i) {
    if (arena[ctx.path[i]].mover == winner) bump(edge(i).wins);
  }
  // All-moves-as-first: every child of a node on the path whose cell its mover
  // ended up owning shares the simulation's result (at a well-visited node,
  // one simulation in kAmafSampleRate: SearchParams::amaf_sample_visits).
  const uint32_t sample_from = params_.amaf_sample_visits;
  for (size_t i = 0; i + 1 < ctx.path.size(); ++i) {
    const Node& n = arena[ctx.path[i]];
    if (sample_from && ctx.visits[i] >= sample_from && ctx.rng.below(kAmafSampleRate) != 0) {
      continue;
    }
    const Move* const moves = arena.begin_of<Move>(n.first_child);
    Counts* const counts = ctx.chosen_from[i];
    const int mover = arena[n.first_child].mover;
    const Bitboard<W>& owned = final[mover];
    const uint32_t win = mover == winner, count = n.child_count;
    for (uint32_t k = 0; k < count; ++k) {
      const uint32_t hit = owned.test(moves[k].cell);  // branch-free: the test is a coin toss
      bump(counts[k].rave_visits, hit);
      bump(counts[k].rave_wins, hit & win);
    }
  }
  for (Shadow* sh : ctx.shadowed) {
    if (++sh->pending >= sh->settle_at) settle(*sh, true);
  }
}

template <int W>
SearchResult Engine<W>::collect(uint64_t sims, double seconds, uint64_t reused) {
  Tree& arena = *arena_;
  SearchResult r;
  r.visits.assign(geom_.cells, 0);
  r.values.assign(geom_.cells, -1.0);
  r.proven.assign(geom_.cells, 0);
  r.simulations = sims;
  r.seconds = seconds;
  r.nodes = arena.used();
  r.reused = reused;
  // A proven win, else the most visited move not proven lost (any if all are).
  auto choice = [&](const Node& n) {
    const uint32_t winning = n.winning_child.load();
    if (winning != kNoNode) return winning;
    uint32_t best = kNoNode;
    auto rank = [&](uint32_t i) {
      const Counts& c = arena.get<Counts>(i);
      return std::tuple(arena[i].proof.load() != kMoverLoses, c.visits.load(), c.wins.load());
    };
    for (uint32_t i = n.first_child; i < n.first_child + n.child_count; ++i) {
      if (best == kNoNode || rank(i) > rank(best)) best = i;
    }
    return best;
  };
  Node& root = arena[root_];
  for (uint32_t i = root.first_child; i < root.first_child + root.child_count; ++i) {
    const Node& c = arena[i];
    const Counts& counts = arena.get<Counts>(i);
    const uint32_t v = counts.visits.load();
    const int cell = geom_.unpadded(arena.get<Move>(i).cell);
    r.visits[cell] = v;
    r.values[cell] = v ? opening_value(double(counts.wins.load()) / v) : -1.0;
    const uint8_t proof = c.proof.load();
    r.proven[cell] = proof == kMoverWins ? 1 : proof == kMoverLoses ? -1 : 0;
  }
  for (uint32_t node = choice(root); node != kNoNode && r.pv.size() < 32;) {
    Node& n = arena[node];
    r.pv.push_back(geom_.unpadded(arena.get<Move>(node).cell));
    if (n.state.load() != kExpanded) break;
    node = choice(n);
    if (node != kNoNode && arena.get<Counts>(node).visits.load() == 0) break;
  }
  r.best = r.pv.front();
  double v = r.values[r.best];
  if (r.proven[r.best] != 0) v = r.proven[r.best] > 0 ? 1.0 : 0.0;
  r.value = v;
  // Swapping takes over the position the opponent just left: worth 1 - v.
  if (swap_root_ && v >= 0) {
    r.swap_value = 1.0 - v;
    if (r.swap_value > v) {
      // After the swap the opponent faces this position (mirrored by `pieces`).
      if (rules_.swap == SwapForm::Pieces) {
        for (int& cell : r.pv) cell = (cell % geom_.cols) * geom_.cols + cell / geom_.cols;
      }
      r.value = r.swap_value;
      r.best = kSwapMove;
      r.pv.insert(r.pv.begin(), kSwapMove);
    }
  }
  return r;
}

template <int W>
SearchResult Engine<W>::search(const View& view, const std::atomic<bool>* interrupt) {
  const auto start = std::chrono::steady_clock::now();
  const int actions = static_cast<int>(view.history.size());
  root_state_ = position_of(view);
  root_last_ = last_placed(view, geom_);
  swap_root_ = swap_possible(actions) && params_.allow_swap;
  opening_root_ = swap_possible(actions + 1);
  auto decided = [&](int padded, const std::string& why, bool proven_win) {
    SearchResult r;
    r.visits.assign(geom_.cells, 0);
    r.values.assign(geom_.cells, -1.0);
    r.proven.assign(geom_.cells, 0);
    r.best = geom_.unpadded(padded);
    r.pv = {r.best};
    r.forced = why;
    if (proven_win) {
      r.proven[r.best] = 1;
      r.value = 1.0;
    }
    r.seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    arena_.reset();
    root_ = kNoNode;
    return r;
  };
  // Decisions that need no search.
  std::vector<int> moves;
  std::string why;
  candidates(root_state_, moves, &why);
  if (moves.size() == 1 && !swap_root_) return decided(moves[0], why, why == "win");
  // Endgames: the exact solver, within its budget, plays a proven win.
  const int empty = board_.andnot(root_state_.occupied()).count();
  uint64_t endgame_nodes = 0, endgame_playouts = 0;
  auto with_work = [&](SearchResult r) {
    r.endgame_nodes = endgame_nodes;
    r.endgame_playouts = endgame_playouts;
    return r;
  };
  if (params_.solver_nodes > 0 && !swap_root_ && empty <= params_.solver_empties) {
    // With a simulation budget, the solver's nodes and the swindle's playouts
    // together stay within kEndgameWorkPerSimulation units a simulation.
    const uint64_t work = params_.simulations > 0 ? kEndgameWorkPerSimulation * params_.simulations : 0;
    SolveLimits limits;
    limits.max_nodes = work > 0 ? std::min<uint64_t>(params_.solver_nodes, work) : params_.solver_nodes;
    limits.max_memory = 64ull << 20;
    limits.stop = interrupt;
    if (params_.seconds > 0) limits.max_seconds = params_.seconds / 2;
    const Board red = Board::from(root_state_.stones[0]), blue = Board::from(root_state_.stones[1]);
    const SolveResult solved = solve(rules_, red, blue, root_state_.to_move, limits);
    endgame_nodes = solved.stats.nodes;
    if (solved.winner == root_state_.to_move && solved.best_move >= 0) {
      return with_work(decided(geom_.padded(solved.best_move), "solved", true));
    }
    const uint64_t work_left = work > endgame_nodes ? work - endgame_nodes : 0;
    if (solved.winner && *solved.winner != root_state_.to_move && params_.swindle && (work == 0 || work_left > 0)) {
      // The rest of the solver's half of `seconds`; 0 (no limit) without `seconds`.
      const double budget = params_.seconds > 0 ? params_.seconds / 2 - solved.stats.seconds : 0.0;
      if (params_.seconds <= 0 || budget > 0) {
        limits.max_seconds = 0;  // the swindle shares `budget` among its solves
        limits.max_nodes = params_.solver_nodes;
        // Playouts per reply: half the work left valuing every reply of every move.
        uint64_t playouts = kSwindlePlayouts;
        if (work > 0) {
          const uint64_t pairs = static_cast<uint64_t>(empty) * static_cast<uint64_t>(std::max(1, empty - 1));
          playouts = std::clamp<uint64_t>(work_left / 2 / pairs, kMinSwindlePlayouts, kSwindlePlayouts);
        }
        const Swindle sw = find_swindle(rules_, red, blue, root_state_.to_move, limits, budget, playouts,
                                        params_.seed, work_left);
        endgame_nodes += sw.nodes;
        endgame_playouts = sw.playouts;
        if (sw.move >= 0) {
          SearchResult r = with_work(decided(geom_.padded(sw.move), sw.wins ? "solved" : "swindle", sw.wins));
          r.proven = sw.proven;
          if (!sw.wins) r.value = 0.0;
          return r;
        }
      }
    }
  }
  prepare_tree(view);
  root_lost_.store(false);
  Ctx probe(0);
  probe.s = root_state_;
  probe.last = root_last_;
  expand(root_, probe);
  Node& root = (*arena_)[root_];
  uint64_t reused = 0;
  for (uint32_t i = root.first_child; i < root.first_child + root.child_count; ++i) {
    reused += arena_->get<Counts>(i).visits.load();
  }
  std::atomic<uint64_t> started{0}, done{0};
  std::atomic<bool> stop{false};
  const uint64_t limit = params_.simulations;
  const double seconds = params_.seconds;
  const uint64_t base_seed = derive_seed(params_.seed, searches_++);
  auto worker = [&](int t) {
    Ctx ctx(derive_seed(base_seed, t));
    uint64_t local = 0;  // this thread's simulations, added to `done` at its end (no shared write each time)
    // Simulations claimed from the budget and not yet run: with several
    // threads they are claimed a few at a time, not one by one.
    uint64_t claimed = 0;
    const uint64_t batch = params_.threads > 1 ? kClaimBatch : 1;
    while (!stop.load(std::memory_order_relaxed)) {
      if (limit && claimed == 0) {
        const uint64_t first = started.fetch_add(batch, std::memory_order_relaxed);
        if (first >= limit) break;
        claimed = std::min(batch, limit - first);
      }
      if (limit) --claimed;
      if (interrupt && interrupt->load(std::memory_order_relaxed)) break;
      simulate(ctx);
      ++local;
      if (seconds > 0 && (local & 15) == 0 &&
          std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count() >= seconds) {
        stop.store(true);
      }
    }
    for (auto& [node, sh] : ctx.shadows) settle(sh, false);
    arena_->get<Counts>(root_).visits.fetch_add(ctx.root_visits, std::memory_order_relaxed);
    done.fetch_add(local, std::memory_order_relaxed);
  };
  std::vector<std::thread> pool;
  for (int t = 1; t < params_.threads; ++t) pool.emplace_back(worker, t);
  worker(0);
  for (auto& th : pool) th.join();
  const double spent = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  return with_work(collect(done.load(), spent, reused));
}

// The engine for the width the board of `rules` needs.
std::unique_ptr<EngineBase> make_engine(const Rules& rules, const SearchParams& params) {
  return with_width(words_for(rules.rows, rules.cols), [&](auto w) -> std::unique_ptr<EngineBase> {
    return std::make_unique<Engine<w.value>>(rules, params);
  });
}

}  // namespace

HexSearch::HexSearch(const SearchParams& params) : slot_(std::make_unique<EngineSlot>(params, &make_engine)) {}

HexSearch::~HexSearch() = default;

void HexSearch::clear() { slot_->clear(); }

SearchResult HexSearch::search(const View& view, const Budget& budget, const std::atomic<bool>* interrupt) {
  return slot_->search(view, interrupt, budget);
}

}  // namespace hexengine
