#include "dark/belief.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <deque>
#include <string>
#include <unordered_map>

#include "core/errors.h"

namespace hexengine {

namespace {

// Largest number of table entries (doubles) the exact sampler may use (64 MiB).
constexpr uint64_t kTableBudget = uint64_t{1} << 23;
// Largest number of frontier states it may enumerate.
constexpr uint64_t kStateBudget = uint64_t{1} << 19;
// Probe of the rejection sampler: at most this many draws ...
constexpr int kProbeTries = 256;
// ... stopping once this many passed (an acceptance rate of at least 1/8).
constexpr int kProbeAccepts = 32;
// Draws per sample before rejection repeats an earlier exact draw.
constexpr uint64_t kRejectionTries = 1u << 12;
// Extra probe draws that fill the pool when no exact table fits.
constexpr int kPoolTries = 1 << 16;
// Proposals per sample of the Markov chain, the last resort.
constexpr int kChainSteps = 128;

// Binomial coefficients C(n, k) for n, k <= kMaxBits, as doubles.
const std::vector<double>& binomials() {
  static const std::vector<double> table = [] {
    constexpr int n = kMaxBits + 1;
    std::vector<double> t(static_cast<size_t>(n) * n, 0.0);
    for (int i = 0; i < n; ++i) {
      t[i * n] = 1.0;
      for (int k = 1; k <= i; ++k) t[i * n + k] = t[(i - 1) * n + k - 1] + t[(i - 1) * n + k];
    }
    return t;
  }();
  return table;
}

double binomial(int n, int k) {
  if (k < 0 || k > n) return 0.0;
  return binomials()[static_cast<size_t>(n) * (kMaxBits + 1) + k];
}

// A frontier of up to 19 labels of 4 bits: 0 closed, 1 joined to the first
// edge, 2.. other components of open cells.
struct Frontier {
  uint64_t a = 0, b = 0;
  int get(int j) const { return static_cast<int>(((j < 16 ? a >> (4 * j) : b >> (4 * (j - 16)))) & 15u); }
  void set(int j, int v) {
    if (j < 16) {
      a = (a & ~(uint64_t{15} << (4 * j))) | (uint64_t(v) << (4 * j));
    } else {
      b = (b & ~(uint64_t{15} << (4 * (j - 16)))) | (uint64_t(v) << (4 * (j - 16)));
    }
  }
  bool operator==(const Frontier& o) const { return a == o.a && b == o.b; }
};

struct FrontierHash {
  size_t operator()(const Frontier& f) const {
    uint64_t h = f.a * 0x9e3779b97f4a7c15ULL ^ (f.b + 0x632be59bd9b4e019ULL);
    return static_cast<size_t>(h ^ (h >> 29));
  }
};

}  // namespace

// The exact sampler's table: cells in rows from the viewer's first edge;
// per step, the reachable frontiers, their successors when the cell is open
// or closed, and the number of consistent completions for each count of
// hidden stones placed so far.
struct CrossingTable {
  static constexpr int32_t kFail = -1, kSuccess = -2;
  int steps = 0, rows = 0, cols = 0, hidden = 0, free_total = 0;
  std::vector<int> cell;          // padded cell of each step
  std::vector<uint8_t> kind;      // 0 open (own stone), 1 closed (found enemy stone), 2 free (unknown)
  std::vector<int> free_from;     // free cells at steps >= i (steps + 1 entries)
  std::vector<int> free_list;     // padded free cells in step order
  std::vector<uint32_t> begin;    // states of step i: [begin[i], begin[i + 1])
  std::vector<int32_t> next;      // per state: successor if the cell is open, if closed
  std::vector<int16_t> k_lo, k_hi;  // per state: stones placed before it that can still finish
  std::vector<uint32_t> offset;   // per state: first entry in `ways`
  std::vector<double> ways;       // completions per state and stones placed

  // Completions from `state` before step j with k stones placed.
  double completions(int32_t state, int j, int k) const {
    if (state == kFail) return 0.0;
    if (state == kSuccess) return binomial(free_from[j], hidden - k);
    if (k < k_lo[state] || k > k_hi[state]) return 0.0;
    return ways[offset[state] + (k - k_lo[state])];
  }

  // Builds the table; false if it would exceed the budget.
  bool build(const Geometry& g, Color viewer, const std::vector<uint8_t>& kind_of, int hidden_stones) {
    hidden = hidden_stones;
    const bool transpose = viewer == Color::Blue;  // the viewer's edges become the first and last rows
    rows = transpose ? g.cols : g.rows;
    cols = transpose ? g.rows : g.cols;
    steps = rows * cols;
    cell.resize(steps);
    kind.resize(steps);
    for (int r = 0; r < rows; ++r) {
      for (int c = 0; c < cols; ++c) {
        const int p = transpose ? g.padded(c, r) : g.padded(r, c);
        cell[r * cols + c] = p;
        kind[r * cols + c] = kind_of[p];
      }
    }
    free_from.assign(steps + 1, 0);
    for (int i = steps - 1; i >= 0; --i) free_from[i] = free_from[i + 1] + (kind[i] == 2);
    free_total = free_from[0];
    for (int i = 0; i < steps; ++i) {
      if (kind[i] == 2) free_list.push_back(cell[i]);
    }
    // need[r][i]: least number of unknown cells below row r on a path from
    // cell i to the second edge, where found enemy stones block and rows up to
    // r cost nothing (some of their cells are decided already). Once row r
    // is being decided, the edge's component needs at least that many more
    // open cells from any of its frontier cells.
    constexpr int kFar = 1 << 20;
    std::vector<std::vector<int>> need(rows, std::vector<int>(steps, kFar));
    for (int row = 0; row < rows; ++row) {
      std::vector<int>& d = need[row];
      auto cost = [&](int i) { return i / cols > row && kind[i] == 2 ? 1 : 0; };
      std::deque<int> queue;
      for (int c = 0; c < cols; ++c) {
        const int i = (rows - 1) * cols + c;
        if (kind[i] == 1) continue;
        d[i] = cost(i);
        if (d[i]) {
          queue.push_back(i);
        } else {
          queue.push_front(i);
        }
      }
      constexpr int dr[6] = {0, 0, -1, -1, 1, 1}, dc[6] = {-1, 1, 0, 1, -1, 0};
      while (!queue.empty()) {
        const int i = queue.front();
        queue.pop_front();
        for (int k = 0; k < 6; ++k) {
          const int r = i / cols + dr[k], c = i % cols + dc[k];
          if (r < 0 || r >= rows || c < 0 || c >= cols) continue;
          const int j = r * cols + c;
          if (kind[j] == 1) continue;
          const int via = d[i] + cost(j);
          if (via < d[j]) {
            d[j] = via;
            if (cost(j)) {
              queue.push_back(j);
            } else {
              queue.push_front(j);
            }
          }
        }
      }
    }
    const int open_total = free_total - hidden;  // unknown cells left open
    // Stones placed before step i that leave a way to place exactly `hidden`.
    auto lo = [&](int i) { return std::max(0, hidden - free_from[i]); };
    auto hi = [&](int i) { return std::min(hidden, free_total - free_from[i]); };
    // Forward: the reachable frontiers of each step, each with the range of
    // stones placed on the way to it; a frontier no feasible count reaches is
    // dropped (it has no completion), which keeps the table small when few
    // unknown cells stay open.
    std::vector<Frontier> current(1), upcoming;
    for (int j = 0; j < cols; ++j) current[0].set(j, 1);  // the first edge itself
    std::vector<int> cur_lo{0}, cur_hi{0}, up_lo, up_hi, local;
    std::unordered_map<Frontier, int32_t, FrontierHash> index;
    uint64_t entries = 0;
    begin.push_back(0);
    for (int i = 0; i < steps; ++i) {
      const uint32_t after = begin.back() + static_cast<uint32_t>(current.size());
      begin.push_back(after);
      for (size_t s = 0; s < current.size(); ++s) {
        k_lo.push_back(static_cast<int16_t>(cur_lo[s]));
        k_hi.push_back(static_cast<int16_t>(cur_hi[s]));
        entries += static_cast<uint64_t>(cur_hi[s] - cur_lo[s] + 1);
      }
      if (entries > kTableBudget || after > kStateBudget) return false;
      index.clear();
      upcoming.clear();
      up_lo.clear();
      up_hi.clear();
      local.clear();
      const int r = i / cols, c = i % cols;
      for (size_t s = 0; s < current.size(); ++s) {
        for (int closed = 0; closed < 2; ++closed) {
          int32_t to = kFail;
          if (kind[i] == 2 || kind[i] == closed) {
            Frontier nf;
            const int outcome = step(current[s], r, c, closed, nf);
            if (outcome == 1) {
              to = kSuccess;
            } else if (outcome == 0 && i + 1 < steps) {
              auto [it, inserted] = index.try_emplace(nf, static_cast<int32_t>(upcoming.size()));
              if (inserted) {
                upcoming.push_back(nf);
                up_lo.push_back(1 << 20);
                up_hi.push_back(-1);
              }
              const int added = kind[i] == 2 && closed;
              up_lo[it->second] = std::min(up_lo[it->second], cur_lo[s] + added);
              up_hi[it->second] = std::max(up_hi[it->second], cur_hi[s] + added);
              to = it->second;  // local for now
            }
          }
          local.push_back(to);
        }
      }
      // Keep the frontiers some feasible count reaches; renumber them.
      std::vector<int32_t> renumber(upcoming.size(), kFail);
      current.clear();
      cur_lo.clear();
      cur_hi.clear();
      const int decided = free_total - free_from[i + 1];
      for (size_t j = 0; j < upcoming.size(); ++j) {
        // The edge's component must still reach the second edge with the open
        // cells left: decided - k are open already, so k >= needed + decided - open_total.
        int needed = kFar;
        for (int x = 0; x < cols; ++x) {
          if (upcoming[j].get(x) != 1) continue;
          needed = std::min(needed, need[r][x <= c || r == 0 ? r * cols + x : (r - 1) * cols + x]);
        }
        const int a = std::max({up_lo[j], lo(i + 1), needed + decided - open_total});
        const int b = std::min(up_hi[j], hi(i + 1));
        if (a > b) continue;
        renumber[j] = static_cast<int32_t>(after + current.size());
        current.push_back(upcoming[j]);
        cur_lo.push_back(a);
        cur_hi.push_back(b);
      }
      for (int32_t to : local) next.push_back(to >= 0 ? renumber[to] : to);
    }
    // Backward: completions of each state.
    offset.resize(begin.back());
    uint64_t total = 0;
    for (uint32_t s = 0; s < begin.back(); ++s) {
      offset[s] = static_cast<uint32_t>(total);
      total += static_cast<uint64_t>(k_hi[s] - k_lo[s] + 1);
    }
    ways.assign(total, 0.0);
    for (int i = steps - 1; i >= 0; --i) {
      for (uint32_t s = begin[i]; s < begin[i + 1]; ++s) {
        for (int k = k_lo[s]; k <= k_hi[s]; ++k) {
          double w = 0.0;
          if (kind[i] != 1) w += completions(next[2 * s], i + 1, k);
          if (kind[i] != 0) w += completions(next[2 * s + 1], i + 1, k + (kind[i] == 2));
          ways[offset[s] + (k - k_lo[s])] = w;
        }
      }
    }
    return true;
  }

  // Applies step (r, c) to frontier `f`, open or closed: -1 no crossing is
  // possible any more, 1 the crossing is complete, 0 go on with `out`.
  int step(const Frontier& f, int r, int c, int closed, Frontier& out) const {
    std::array<int, kMaxSide> l{};
    for (int j = 0; j < cols; ++j) l[j] = f.get(j);
    if (closed) {
      l[c] = 0;
    } else {
      const int w = c > 0 ? l[c - 1] : 0, n = l[c], ne = c + 1 < cols ? l[c + 1] : 0;
      int target = 0;
      for (int x : {w, n, ne}) {
        if (x == 1) target = 1;
      }
      if (!target) {
        for (int x : {w, n, ne}) {
          if (x && (!target || x < target)) target = x;
        }
      }
      if (!target) {
        target = 15;  // a new component, renamed below
      } else {
        for (int j = 0; j < cols; ++j) {
          if (l[j] && (l[j] == w || l[j] == n || l[j] == ne)) l[j] = target;
        }
      }
      l[c] = target;
      if (target == 1 && r == rows - 1) return 1;
    }
    std::array<int, 16> rename{};
    rename[1] = 1;
    int fresh = 2;
    bool edge = false;
    for (int j = 0; j < cols; ++j) {
      if (l[j] == 1) edge = true;
      if (l[j] > 1 && !rename[l[j]]) rename[l[j]] = fresh++;
    }
    if (!edge) return -1;
    out = Frontier();
    for (int j = 0; j < cols; ++j) out.set(j, rename[l[j]]);
    return 0;
  }

  double total() const { return completions(0, 0, 0); }

  // Draws the hidden stones (padded cells) into `out`.
  void sample(Rng& rng, std::vector<int>& buffer, std::vector<int>& out) const {
    out.clear();
    int32_t s = 0;
    int k = 0;
    for (int i = 0; i < steps; ++i) {
      int32_t to;
      if (kind[i] == 2) {
        const double open = completions(next[2 * s], i + 1, k);
        const double shut = completions(next[2 * s + 1], i + 1, k + 1);
        const bool closed = rng.uniform() * (open + shut) < shut;
        if (closed) {
          out.push_back(cell[i]);
          ++k;
        }
        to = next[2 * s + closed];
      } else {
        to = next[2 * s + kind[i]];
      }
      if (to == kSuccess) {
        // The crossing is complete: the rest is any choice of the remaining stones.
        const int rest = free_from[i + 1], need = hidden - k;
        buffer.assign(free_list.end() - rest, free_list.end());
        for (int m = 0; m < need; ++m) {
          const int j = m + static_cast<int>(rng.below(static_cast<uint32_t>(rest - m)));
          std::swap(buffer[m], buffer[j]);
          out.push_back(buffer[m]);
        }
        return;
      }
      s = to;
    }
  }
};

template <int W>
Belief<W>::Belief(const View& view, SampleMethod method, uint64_t seed)
    : geom_(make_geometry(view.rules.rows, view.rules.cols)), variant_(view.rules.variant) {
  validate_view(view);
  if (!is_dark(view.rules.variant)) {
    throw ConfigError("only Dark Hex hides stones: a " + variant_name(view.rules.variant) +
                      " view has exactly one board");
  }
  if (!view.viewer) throw ConfigError("worlds are drawn from a player's view, not a spectator's");
  if (view.end_reason == EndReason::Connection) {
    throw ConfigError("the game ended by connection: every stone is visible, there is nothing to sample");
  }
  me_ = *view.viewer;
  them_ = opponent(me_);
  board_ = Bitboard<W>::from(geom_.on_board);
  enemy_first_ = Bitboard<W>::from(geom_.first_edge[index_of(them_)]);
  enemy_second_ = Bitboard<W>::from(geom_.second_edge[index_of(them_)]);
  const int8_t mine = static_cast<int8_t>(index_of(me_) + 1);
  for (int cell = 0; cell < geom_.cells; ++cell) {
    if (view.board[cell] == 0) continue;
    (view.board[cell] == mine ? own_ : found_).set(geom_.padded(cell));
  }
  unknown_ = board_.andnot(own_ | found_);
  hidden_ = view.hidden_stones;
  history_ = view.history;
  // The record must match the board: each own placement is an own stone, each
  // own hit a found stone, and the enemy's placements are its stones.
  Bitboard<W> placed, hit;
  int enemy_placements = 0;
  for (const Action& a : view.history) {
    if (a.result == MoveResult::Swapped) throw ConfigError("the view's record has a swap; Dark Hex has none");
    if (a.color == me_) {
      if (a.cell < 0) throw ConfigError("the view's record hides one of the viewer's own moves");
      const int p = geom_.padded(a.cell);
      if (placed.test(p) || hit.test(p)) throw ConfigError("the view's record plays one cell twice");
      if (a.result == MoveResult::Placed) {
        placed.set(p);
        placements_.push_back(p);
      } else {
        hit.set(p);
      }
    } else if (a.result == MoveResult::Placed) {
      ++enemy_placements;
    } else {
      if (static_cast<int>(placements_.size()) <= static_cast<int>(hit_reach_.size())) {
        throw ConfigError("the view's record has more opponent hits than stones they could have hit");
      }
      hit_reach_.push_back(static_cast<int>(placements_.size()));
    }
  }
  if (!(placed == own_) || !(hit == found_)) {
    throw ConfigError("the view's board does not match its record of the viewer's moves");
  }
  if (enemy_placements - found_.count() != hidden_) {
    throw ConfigError("the view's hidden stone count does not match its record of the opponent's placements");
  }
  if (hidden_ > unknown_.count()) throw ConfigError("the view hides more stones than there are unknown cells");
  unknown_.for_each([&](int p) { unknown_cells_.push_back(p); });
  // The viewer's chain: with own stones open and nothing else, the "enemy"
  // of the viewer's enemy is the viewer; reuse the crossing test.
  {
    const int mi = index_of(me_);
    const auto first = Bitboard<W>::from(geom_.first_edge[mi]);
    const auto second = Bitboard<W>::from(geom_.second_edge[mi]);
    if ((flood(own_ & first, own_, geom_.stride) & second).any()) {
      throw ConfigError("the viewer's stones already join the viewer's edges: the game would be over");
    }
  }
  if (open_crossing_cost(Bitboard<W>()) > unknown_.count() - hidden_) {
    throw ConfigError("no board is consistent with this view: every placement of the hidden stones gives the "
                      "opponent a finished chain");
  }
  base_.stones[index_of(me_)] = own_;
  base_.stones[index_of(them_)] = found_;
  base_.found[index_of(me_)] = found_;
  base_.to_move = view.to_move.value_or(me_);
  for (Color c : {Color::Red, Color::Blue}) {
    base_.stones[index_of(c)].for_each([&](int p) { base_.chains.add_stone(geom_, c, p, base_.stones[index_of(c)]); });
  }
  // Pick the method. The probe also keeps a few valid worlds for the
  // rejection sampler's last resort.
  method_ = method == SampleMethod::Exact ? SampleMethod::Exact : SampleMethod::Rejection;
  int accepted = 0;
  if (hidden_ > 0 && method != SampleMethod::Exact) {
    Rng rng(derive_seed(seed, 0x5eed));
    Scratch s = scratch();
    Bitboard<W> hidden;
    for (int tries = 0; tries < kProbeTries && accepted < kProbeAccepts; ++tries) {
      if (draw_by_rejection(rng, s, hidden, 1)) {
        ++accepted;
        if (pool_.size() < 64) pool_.push_back(hidden);
      }
    }
  }
  if (method == SampleMethod::Exact || (method == SampleMethod::Auto && hidden_ > 0 && accepted < kProbeAccepts)) {
    std::vector<uint8_t> kind(kMaxBits, 1);
    own_.for_each([&](int p) { kind[p] = 0; });
    unknown_.for_each([&](int p) { kind[p] = 2; });
    auto table = std::make_unique<CrossingTable>();
    if (table->build(geom_, me_, kind, hidden_)) {
      table_ = std::move(table);
      method_ = SampleMethod::Exact;
    } else if (method == SampleMethod::Exact) {
      throw ConfigError("the exact sampler's table for this view exceeds its memory budget");
    }
  }
  if (method_ == SampleMethod::Rejection && hidden_ > 0 && accepted < kProbeAccepts) {
    // Rejection is slow here and no table fits: gather exact draws to start
    // from, and measure how slow.
    Rng rng(derive_seed(seed, 0x9001));
    Scratch s = scratch();
    Bitboard<W> hidden;
    int tries = 0, passed = 0;
    for (; tries < kPoolTries && passed < 64; ++tries) {
      if (draw_by_rejection(rng, s, hidden, 1)) {
        ++passed;
        pool_.push_back(hidden);
      }
    }
    if (passed * static_cast<int64_t>(kRejectionTries) < tries) method_ = SampleMethod::Chain;
    if (method == SampleMethod::Rejection) method_ = SampleMethod::Rejection;
  }
  if (hidden_ > 0 && pool_.empty()) {
    // Not one valid draw in 2^16: start from a world built to be valid,
    // keeping a cheapest open crossing free.
    Bitboard<W> path;
    open_crossing_cost(Bitboard<W>(), &path);
    Bitboard<W> hidden;
    int left = hidden_;
    for (int p : unknown_cells_) {
      if (left > 0 && !path.test(p)) {
        hidden.set(p);
        --left;
      }
    }
    pool_.push_back(hidden);
  }
}

template <int W>
Belief<W>::~Belief() = default;

template <int W>
typename Belief<W>::Scratch Belief<W>::scratch() const {
  Scratch s;
  s.cells = unknown_cells_;
  return s;
}

template <int W>
bool Belief<W>::enemy_chain(const Bitboard<W>& enemy) const {
  return (flood(enemy & enemy_first_, enemy, geom_.stride) & enemy_second_).any();
}

template <int W>
bool Belief<W>::draw_by_rejection(Rng& rng, Scratch& s, Bitboard<W>& hidden, uint64_t tries) const {
  const int n = static_cast<int>(s.cells.size());
  for (uint64_t t = 0; t < tries; ++t) {
    // A partial Fisher-Yates shuffle; the array stays a permutation between draws.
    hidden = Bitboard<W>();
    for (int k = 0; k < hidden_; ++k) {
      const int j = k + static_cast<int>(rng.below(static_cast<uint32_t>(n - k)));
      std::swap(s.cells[k], s.cells[j]);
      hidden.set(s.cells[k]);
    }
    if (!enemy_chain(found_ | hidden)) return true;
  }
  return false;
}

template <int W>
Bitboard<W> Belief<W>::draw_hidden(Rng& rng, Scratch& s) const {
  Bitboard<W> hidden;
  if (method_ == SampleMethod::Exact) {
    table_->sample(rng, s.pool, s.drawn);
    for (int p : s.drawn) hidden.set(p);
  } else if (method_ == SampleMethod::Chain) {
    hidden = walk(rng, s);
  } else if (hidden_ > 0) {
    if (draw_by_rejection(rng, s, hidden, kRejectionTries)) {
      s.last = hidden;
      s.has_last = true;
    } else {
      // Repeat an earlier exact draw: whether the draws failed does not depend
      // on it, so each sample stays uniform on its own (samples correlate).
      hidden = s.has_last ? s.last : pool_[rng.below(static_cast<uint32_t>(pool_.size()))];
    }
  }
  return hidden;
}

template <int W>
void Belief<W>::complete(Rng& rng, Scratch& s, const Bitboard<W>& hidden, State<W>& out) const {
  out = base_;
  const int ti = index_of(them_);
  out.stones[ti] |= hidden;
  hidden.for_each([&](int p) { out.chains.add_stone(geom_, them_, p, out.stones[ti]); });
  // The opponent's hits: each on a distinct own stone placed before it.
  s.pool.clear();
  s.hits.clear();
  size_t next = 0;
  for (int reach : hit_reach_) {
    while (next < static_cast<size_t>(reach)) s.pool.push_back(placements_[next++]);
    const uint32_t j = rng.below(static_cast<uint32_t>(s.pool.size()));
    s.hits.push_back(s.pool[j]);
    out.found[ti].set(s.pool[j]);
    s.pool[j] = s.pool.back();
    s.pool.pop_back();
  }
}

template <int W>
void Belief<W>::sample(Rng& rng, Scratch& s, State<W>& out) const {
  const Bitboard<W> hidden = draw_hidden(rng, s);
  complete(rng, s, hidden, out);
}

template <int W>
bool Belief<W>::draw_weighted(Rng& rng, Scratch& s, const std::vector<double>& weight, int tries,
                              Bitboard<W>& hidden) const {
  const int n = static_cast<int>(unknown_cells_.size());
  std::vector<std::pair<double, int>>& keys = s.keys;
  keys.resize(n);
  for (int t = 0; t < tries; ++t) {
    // The hidden_ largest keys log(u) / w give successive sampling by weight.
    for (int i = 0; i < n; ++i) {
      const int p = unknown_cells_[i];
      keys[i] = {std::log(rng.uniform() + 1e-300) / weight[p], p};
    }
    std::nth_element(keys.begin(), keys.begin() + hidden_, keys.end(),
                     [](const auto& a, const auto& b) { return a.first > b.first; });
    hidden = Bitboard<W>();
    for (int i = 0; i < hidden_; ++i) hidden.set(keys[i].second);
    if (!enemy_chain(found_ | hidden)) return true;
  }
  return false;
}

template <int W>
int Belief<W>::enemy_distance(const Bitboard<W>& hidden, int cap) const {
  // Layers of a 0-1 search on bitboards: enemy stones cost nothing, empty
  // cells one, the viewer's stones block.
  const Bitboard<W> enemy = found_ | hidden;
  const Bitboard<W> open = board_.andnot(own_);
  Bitboard<W> reach = flood(enemy & enemy_first_, enemy, geom_.stride);
  for (int k = 0; k <= std::min(cap, geom_.cells); ++k) {
    if ((reach & enemy_second_).any()) return k;
    const Bitboard<W> grown = (dilate(reach, geom_.stride) | enemy_first_) & open;
    const Bitboard<W> next = flood(reach | grown, enemy | reach | grown, geom_.stride);
    if (next == reach) break;
    reach = next;
  }
  return geom_.cells + 1;
}

template <int W>
Bitboard<W> Belief<W>::walk(Rng& rng, Scratch& s) const {
  // Metropolis on the consistent sets: move a random hidden stone to a random
  // open unknown cell, and keep the move when the enemy still has no chain.
  // The proposal is symmetric, so the uniform distribution is stationary.
  Bitboard<W> current = s.has_last ? s.last : pool_[rng.below(static_cast<uint32_t>(pool_.size()))];
  s.pool.clear();
  s.drawn.clear();
  for (int p : unknown_cells_) (current.test(p) ? s.pool : s.drawn).push_back(p);
  if (!s.drawn.empty()) {
    for (int step = 0; step < kChainSteps; ++step) {
      const uint32_t i = rng.below(static_cast<uint32_t>(s.pool.size()));
      const uint32_t j = rng.below(static_cast<uint32_t>(s.drawn.size()));
      Bitboard<W> moved = current;
      moved.reset(s.pool[i]);
      moved.set(s.drawn[j]);
      if (enemy_chain(found_ | moved)) continue;
      current = moved;
      std::swap(s.pool[i], s.drawn[j]);
    }
  }
  s.last = current;
  s.has_last = true;
  return current;
}

template <int W>
int Belief<W>::open_crossing_cost(const Bitboard<W>& blocked, Bitboard<W>* path) const {
  // 0-1 breadth-first search: own stones cost 0, unknown cells 1.
  constexpr int kFar = 1 << 20;
  const int mi = index_of(me_);
  const auto first = Bitboard<W>::from(geom_.first_edge[mi]);
  const auto second = Bitboard<W>::from(geom_.second_edge[mi]);
  const Bitboard<W> open = (own_ | unknown_).andnot(blocked);
  std::vector<int> dist(W * 64, kFar), parent(W * 64, -1);
  std::deque<int> queue;
  (open & first).for_each([&](int p) {
    dist[p] = unknown_.test(p) ? 1 : 0;
    if (dist[p] == 0) {
      queue.push_front(p);
    } else {
      queue.push_back(p);
    }
  });
  while (!queue.empty()) {
    const int p = queue.front();
    queue.pop_front();
    if (second.test(p)) {
      if (path) {
        for (int q = p; q >= 0; q = parent[q]) path->set(q);
      }
      return dist[p];
    }
    for (int off : neighbour_offsets(geom_.stride)) {
      const int q = p + off;
      if (q < 0 || q >= W * 64 || !open.test(q)) continue;
      const int d = dist[p] + (unknown_.test(q) ? 1 : 0);
      if (d < dist[q]) {
        dist[q] = d;
        parent[q] = p;
        if (d == dist[p]) {
          queue.push_front(q);
        } else {
          queue.push_back(q);
        }
      }
    }
  }
  return kFar;
}

template <int W>
bool Belief<W>::may_hold_enemy(int p) const {
  if (!unknown_.test(p) || hidden_ == 0) return false;
  Bitboard<W> blocked;
  blocked.set(p);
  // The stone at p plus hidden - 1 others, leaving a crossing of open cells.
  return open_crossing_cost(blocked) <= unknown_.count() - hidden_;
}

template <int W>
uint64_t Belief<W>::count_exact(uint64_t limit) const {
  const int n = static_cast<int>(unknown_cells_.size());
  if (binomial(n, hidden_) > static_cast<double>(limit)) {
    throw ConfigError("too many boards to enumerate: C(" + std::to_string(n) + ", " + std::to_string(hidden_) +
                      ") candidate sets exceed the limit of " + std::to_string(limit));
  }
  // Depth-first over the cells in order; a set that already gives the enemy
  // a chain is pruned with every superset.
  uint64_t count = 0;
  auto visit = [&](auto&& self, int from, int left, const Bitboard<W>& enemy) -> void {
    if (enemy_chain(enemy)) return;
    if (left == 0) {
      ++count;
      return;
    }
    for (int i = from; i <= n - left; ++i) {
      Bitboard<W> more = enemy;
      more.set(unknown_cells_[i]);
      self(self, i + 1, left - 1, more);
    }
  };
  visit(visit, 0, hidden_, found_);
  return count;
}

template <int W>
double Belief<W>::count_table() const {
  if (table_) return table_->total();
  if (hidden_ == 0) return 1.0;
  std::vector<uint8_t> kind(kMaxBits, 1);
  own_.for_each([&](int p) { kind[p] = 0; });
  unknown_.for_each([&](int p) { kind[p] = 2; });
  CrossingTable table;
  return table.build(geom_, me_, kind, hidden_) ? table.total() : -1.0;
}

template <int W>
std::vector<Action> Belief<W>::realize(const State<W>& world, const Scratch& s, Rng& rng) const {
  // The enemy's stones: found ones must be placed before the viewer's hit on
  // them (their deadline); hidden ones have none.
  constexpr int kNoDeadline = 1 << 30;
  const int ti = index_of(them_);
  std::vector<std::pair<int, int>> stones;  // (deadline, public cell)
  for (size_t t = 0; t < history_.size(); ++t) {
    const Action& a = history_[t];
    if (a.color == me_ && a.result == MoveResult::Hit) stones.push_back({static_cast<int>(t), a.cell});
  }
  world.stones[ti].andnot(found_).for_each([&](int p) { stones.push_back({kNoDeadline, geom_.unpadded(p)}); });
  // Enemy placement slots in record order.
  std::vector<int> slots;
  for (size_t t = 0; t < history_.size(); ++t) {
    if (history_[t].color == them_ && history_[t].result == MoveResult::Placed) slots.push_back(static_cast<int>(t));
  }
  // Whether the stones left can still meet their deadlines from slot `from` on.
  auto feasible = [&](const std::vector<std::pair<int, int>>& left, size_t from) {
    std::vector<int> deadlines;
    for (const auto& [d, cell] : left) {
      if (d != kNoDeadline) deadlines.push_back(d);
    }
    std::sort(deadlines.begin(), deadlines.end());
    size_t slot = from;
    for (int d : deadlines) {
      if (slot >= slots.size() || slots[slot] >= d) return false;
      ++slot;
    }
    return true;
  };
  std::vector<Action> out = history_;
  size_t slot = 0, hit = 0;
  for (size_t t = 0; t < out.size(); ++t) {
    Action& a = out[t];
    if (a.color == me_) continue;
    if (a.result == MoveResult::Hit) {
      a.cell = geom_.unpadded(s.hits[hit++]);
      continue;
    }
    // A random stone if the rest stays feasible, else the earliest deadline.
    size_t pick = rng.below(static_cast<uint32_t>(stones.size()));
    std::vector<std::pair<int, int>> rest = stones;
    rest.erase(rest.begin() + static_cast<std::ptrdiff_t>(pick));
    if (!feasible(rest, slot + 1)) {
      pick = static_cast<size_t>(std::min_element(stones.begin(), stones.end()) - stones.begin());
    }
    a.cell = stones[pick].second;
    stones.erase(stones.begin() + static_cast<std::ptrdiff_t>(pick));
    ++slot;
  }
  return out;
}

template class Belief<1>;
template class Belief<2>;
template class Belief<3>;
template class Belief<4>;
template class Belief<5>;
template class Belief<6>;

namespace {

template <class F>
decltype(auto) with_belief_width(const View& view, F&& f) {
  validate_view(view);
  return with_width(words_for(view.rules.rows, view.rules.cols), std::forward<F>(f));
}

}  // namespace

std::vector<int8_t> sample_boards(const View& view, uint64_t n, uint64_t seed, SampleMethod method) {
  return with_belief_width(view, [&](auto w) {
    constexpr int W = decltype(w)::value;
    const Belief<W> belief(view, method, seed);
    const Geometry& g = belief.geometry();
    std::vector<int8_t> out(n * static_cast<uint64_t>(g.cells), 0);
    Rng rng(seed);
    auto scratch = belief.scratch();
    State<W> world;
    for (uint64_t i = 0; i < n; ++i) {
      belief.sample(rng, scratch, world);
      int8_t* board = out.data() + i * g.cells;
      for (int c = 0; c < 2; ++c) world.stones[c].for_each([&](int p) { board[g.unpadded(p)] = static_cast<int8_t>(c + 1); });
    }
    return out;
  });
}

std::vector<std::vector<Action>> sample_histories(const View& view, uint64_t n, uint64_t seed) {
  return with_belief_width(view, [&](auto w) {
    constexpr int W = decltype(w)::value;
    const Belief<W> belief(view, SampleMethod::Auto, seed);
    std::vector<std::vector<Action>> out;
    Rng rng(seed);
    auto scratch = belief.scratch();
    State<W> world;
    for (uint64_t i = 0; i < n; ++i) {
      belief.sample(rng, scratch, world);
      out.push_back(belief.realize(world, scratch, rng));
    }
    return out;
  });
}

uint64_t count_boards(const View& view, uint64_t limit) {
  return with_belief_width(view, [&](auto w) {
    constexpr int W = decltype(w)::value;
    return Belief<W>(view, SampleMethod::Rejection).count_exact(limit);
  });
}

double count_boards_table(const View& view) {
  return with_belief_width(view, [&](auto w) {
    constexpr int W = decltype(w)::value;
    return Belief<W>(view, SampleMethod::Rejection).count_table();
  });
}

}  // namespace hexengine
