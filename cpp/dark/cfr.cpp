#include "dark/cfr.h"

#include <algorithm>
#include <bit>
#include <cmath>
#include <cstdio>
#include <stdexcept>
#include <string>
#include <unordered_map>

#include "core/errors.h"
#include "core/game.h"
#include "core/state.h"

namespace hexengine {

namespace {

// Node encoding, one uint32_t per history in depth-first order (a decision
// node is followed by its children's subtrees, in ascending cell order):
//   terminal:  bit 31 set, bit 0 the winner (0 Red, 1 Blue);
//   decision:  bit 30 the player, bits 26-29 the number of actions minus one,
//              bits 0-25 the information set's index among the player's.
constexpr uint32_t kTerminalBit = 1u << 31;
constexpr int kPlayerShift = 30;
constexpr int kActionsShift = 26;
constexpr uint32_t kInfosetMask = (1u << kActionsShift) - 1;

constexpr bool node_terminal(uint32_t n) { return n & kTerminalBit; }
constexpr int node_winner(uint32_t n) { return static_cast<int>(n & 1); }
constexpr int node_player(uint32_t n) { return static_cast<int>((n >> kPlayerShift) & 1); }
constexpr int node_actions(uint32_t n) { return static_cast<int>((n >> kActionsShift) & 15) + 1; }
constexpr uint32_t node_infoset(uint32_t n) { return n & kInfosetMask; }
constexpr uint32_t decision_node(int player, int actions, uint32_t infoset) {
  return (static_cast<uint32_t>(player) << kPlayerShift) | (static_cast<uint32_t>(actions - 1) << kActionsShift) |
         infoset;
}
constexpr uint32_t terminal_node(int winner) { return kTerminalBit | static_cast<uint32_t>(winner); }

// What a colour has seen since its previous action: that action's sequence and
// result, then the opponent's hits and placement (classic: hits, then one
// placement; abrupt: one action). With silent hits the opponent's action is
// seen only as "acted".
struct Seen {
  int32_t last_seq = -1;
  uint8_t own_hit = 0;
  uint8_t opp_hits = 0;
  uint8_t opp_placed = 0;
};

// A nonzero 64-bit key for what a colour has seen (its information set).
constexpr uint64_t key_of(const Seen& s) {
  return (static_cast<uint64_t>(static_cast<uint32_t>(s.last_seq + 1)) << 16) |
         (static_cast<uint64_t>(s.own_hit) << 12) | (static_cast<uint64_t>(s.opp_hits) << 4) |
         static_cast<uint64_t>(s.opp_placed) << 1 | 1u;
}

// A 64-bit mixer for open addressing.
constexpr uint64_t mix(uint64_t x) {
  x ^= x >> 30;
  x *= 0xbf58476d1ce4e5b9ull;
  x ^= x >> 27;
  x *= 0x94d049bb133111ebull;
  return x ^ (x >> 31);
}

// Finds `key` in an open-addressing table; returns its slot (empty if absent).
size_t probe(const std::vector<uint64_t>& keys, uint64_t key) {
  const size_t mask = keys.size() - 1;
  size_t i = mix(key) & mask;
  while (keys[i] != 0 && keys[i] != key) i = (i + 1) & mask;
  return i;
}

// Doubles an open-addressing table.
void grow(std::vector<uint64_t>& keys, std::vector<uint32_t>& values) {
  std::vector<uint64_t> old_keys(keys.size() * 2, 0);
  std::vector<uint32_t> old_values(values.size() * 2, 0);
  old_keys.swap(keys);
  old_values.swap(values);
  for (size_t i = 0; i < old_keys.size(); ++i) {
    if (old_keys[i] == 0) continue;
    const size_t j = probe(keys, old_keys[i]);
    keys[j] = old_keys[i];
    values[j] = old_values[i];
  }
}

// Index of `cell` among the set bits of `mask`.
inline int rank_in(uint32_t mask, int cell) { return std::popcount(mask & ((1u << cell) - 1)); }

// "1.91e+10" style for messages.
std::string approx(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, x < 1e6 ? "%.0f" : "%.3g", x);
  return buf;
}

std::string board_name(const Rules& r) {
  return std::to_string(r.rows) + "x" + std::to_string(r.cols) + " " + variant_name(r.variant);
}

// --- positions and counting ---------------------------------------------------

// A position of a tiny board: the core's State on one 64-bit word (a board of
// at most 16 cells has at most 32 padded cells).
using Position = State<1>;

// Cells the player to move may choose, as a padded mask: not their own stones,
// not enemy stones they have found.
inline uint64_t legal_cells(const Geometry& g, const Position& s) {
  const int me = index_of(s.to_move);
  return g.on_board.w[0] & ~(s.stones[me].w[0] | s.found[me].w[0]);
}

// A padded mask as a mask of public cell indices.
uint32_t public_mask(const Geometry& g, uint64_t padded) {
  uint32_t out = 0;
  for (; padded; padded &= padded - 1) out |= 1u << g.unpadded(std::countr_zero(padded));
  return out;
}

// Plays padded cell `p` with the core's rules; Won when the mover's chain is complete.
enum class Outcome { Placed, Hit, Won };
inline Outcome play(Position& s, const Geometry& g, Variant v, int p) {
  const Step step = play_move(s, g, v, p);
  if (step.connected) return Outcome::Won;
  return step.result == MoveResult::Hit ? Outcome::Hit : Outcome::Placed;
}

// Packs a position's stones and found stones (16-bit public masks) into 64 bits.
uint64_t pack(const Geometry& g, const Position& s) {
  return static_cast<uint64_t>(public_mask(g, s.stones[0].w[0])) |
         static_cast<uint64_t>(public_mask(g, s.stones[1].w[0])) << 16 |
         static_cast<uint64_t>(public_mask(g, s.found[0].w[0])) << 32 |
         static_cast<uint64_t>(public_mask(g, s.found[1].w[0])) << 48;
}

// The position `pack` packed, with its chains rebuilt.
Position unpack(const Geometry& g, uint64_t x, int to_move) {
  Position s;
  for (int c = 0; c < 2; ++c) {
    for (uint32_t m = static_cast<uint32_t>((x >> (16 * c)) & 0xffff); m; m &= m - 1) {
      const int p = g.padded(std::countr_zero(m));
      s.stones[c].set(p);
      s.chains.add_stone(g, static_cast<Color>(c), p, s.stones[c]);
    }
    for (uint32_t m = static_cast<uint32_t>((x >> (32 + 16 * c)) & 0xffff); m; m &= m - 1) {
      s.found[c].set(g.padded(std::countr_zero(m)));
    }
  }
  s.to_move = static_cast<Color>(to_move);
  return s;
}

struct Mixer {
  size_t operator()(uint64_t x) const { return static_cast<size_t>(mix(x)); }
};

// Histories below a position, memoised on the position (the future of a
// history depends only on the referee's position).
struct HistoryCounter {
  const Geometry& g;
  Variant variant;
  double limit;
  std::unordered_map<uint64_t, std::pair<double, double>, Mixer> memo[2];
  double total = 0;  // histories counted so far, repeats included (for the early stop)
  bool over = false;

  // (histories, terminals) of the subtree at `s`, counting `s` itself.
  std::pair<double, double> count(const Position& s) {
    const int mover = index_of(s.to_move);
    const uint64_t key = pack(g, s);
    auto it = memo[mover].find(key);
    if (it != memo[mover].end()) {
      total += it->second.first;
      return it->second;
    }
    double nodes = 1, ends = 0;
    total += 1;
    for (uint64_t legal = legal_cells(g, s); legal && !over; legal &= legal - 1) {
      Position c = s;
      if (play(c, g, variant, std::countr_zero(legal)) == Outcome::Won) {
        nodes += 1;
        ends += 1;
        total += 1;
      } else {
        const auto [n, e] = count(c);
        nodes += n;
        ends += e;
      }
      if (total > limit) over = true;
    }
    if (!over) memo[mover].emplace(key, std::pair{nodes, ends});
    return {nodes, ends};
  }
};

struct BeliefHash {
  size_t operator()(const std::vector<uint64_t>& v) const {
    uint64_t h = v.size();
    for (uint64_t x : v) h = mix(h ^ x);
    return static_cast<size_t>(h);
  }
};

// Information sets and sequences of one colour, memoised on its belief: the
// set of referee positions consistent with everything it has seen. Two
// histories with the same belief have the same future observations, so the
// same number of information sets below them.
struct InfosetCounter {
  const Geometry& g;
  Variant variant;
  bool silent_hits;
  int me;
  double limit;
  std::unordered_map<std::vector<uint64_t>, std::pair<double, double>, BeliefHash> memo[2];
  bool over = false;

  std::pair<double, double> count(std::vector<uint64_t> belief, int mover) {
    std::sort(belief.begin(), belief.end());
    belief.erase(std::unique(belief.begin(), belief.end()), belief.end());
    auto it = memo[mover].find(belief);
    if (it != memo[mover].end()) return it->second;
    if (static_cast<double>(memo[0].size() + memo[1].size()) > limit) over = true;
    if (over) return {0, 0};
    const bool abrupt = variant == Variant::DarkAbrupt;
    double sets = 0, seqs = 0;
    auto add = [&](std::vector<uint64_t>& next, int next_mover) {
      if (next.empty()) return;
      const auto [s, q] = count(std::move(next), next_mover);
      sets += s;
      seqs += q;
    };
    std::vector<Position> positions;
    positions.reserve(belief.size());
    for (uint64_t x : belief) positions.push_back(unpack(g, x, mover));
    if (mover == me) {
      sets = 1;
      for (uint64_t legal = legal_cells(g, positions[0]); legal; legal &= legal - 1) {
        seqs += 1;
        std::vector<uint64_t> hit, placed;
        for (const Position& s : positions) {
          Position c = s;
          const Outcome r = play(c, g, variant, std::countr_zero(legal));
          if (r == Outcome::Hit) hit.push_back(pack(g, c));
          if (r == Outcome::Placed) placed.push_back(pack(g, c));
        }
        add(hit, abrupt ? 1 - mover : mover);
        add(placed, 1 - mover);
      }
    } else {
      std::vector<uint64_t> hit, placed;
      for (const Position& s : positions) {
        for (uint64_t legal = legal_cells(g, s); legal; legal &= legal - 1) {
          Position c = s;
          const Outcome r = play(c, g, variant, std::countr_zero(legal));
          if (r == Outcome::Hit) (silent_hits ? placed : hit).push_back(pack(g, c));
          if (r == Outcome::Placed) placed.push_back(pack(g, c));
        }
      }
      add(hit, abrupt ? 1 - mover : mover);
      add(placed, 1 - mover);
    }
    if (!over) memo[mover].emplace(std::move(belief), std::pair{sets, seqs});
    return {sets, seqs};
  }
};

// Checks that the solver can represent `rules` (a dark variant on at most
// kTinyMaxCells cells); throws ConfigError saying why not.
void require_tiny_dark(const Rules& rules, bool silent_hits) {
  if (!is_dark(rules.variant)) {
    throw ConfigError("the tiny-board Dark Hex solver plays only 'dark' and 'dark-abrupt', not '" +
                     variant_name(rules.variant) + "'");
  }
  if (silent_hits && rules.variant != Variant::DarkAbrupt) {
    throw ConfigError("silent hits (OpenSpiel's observation model) exist only for 'dark-abrupt'");
  }
  if (rules.rows * rules.cols > kTinyMaxCells) {
    throw ConfigError("Dark Hex " + board_name(rules) + " is too large to solve exactly: " +
                     std::to_string(rules.rows * rules.cols) + " cells, and the tiny-board solver handles at most " +
                     std::to_string(kTinyMaxCells) + "; even 3x3 (9 cells) has 1.9e+10 histories, and trees are "
                     "built only up to " + approx(kTinyMaxHistories) +
                     " histories (boards of up to 8 cells: 2x2, 2x3, 3x2, 2x4, 4x2)");
  }
}

}  // namespace

// --- sizes, tree -------------------------------------------------------------------

DarkTreeSize count_dark_tree(const Rules& rules, double history_limit, double belief_limit, bool silent_hits) {
  require_tiny_dark(rules, silent_hits);
  const Geometry g = make_geometry(rules.rows, rules.cols);
  DarkTreeSize size;
  HistoryCounter hc{g, rules.variant, history_limit, {}, 0, false};
  const auto [nodes, ends] = hc.count(Position{});
  size.histories = hc.over ? hc.total : nodes;
  size.terminals = hc.over ? 0 : ends;
  size.histories_complete = !hc.over;
  for (int me = 0; me < 2; ++me) {
    InfosetCounter ic{g, rules.variant, silent_hits, me, belief_limit, {}, false};
    const auto [sets, seqs] = ic.count({pack(g, Position{})}, 0);
    size.infosets[me] = sets;
    size.sequences[me] = seqs;
    if (ic.over) size.infosets_complete = false;
  }
  return size;
}

DarkTree::DarkTree(const Rules& rules, bool silent_hits, const std::atomic<bool>* stop)
    : rules_(make_rules(rules.variant, rules.rows, rules.cols, rules.swap)), silent_hits_(silent_hits) {
  require_tiny_dark(rules_, silent_hits);
  geom_ = make_geometry(rules_.rows, rules_.cols);
  HistoryCounter hc{geom_, rules_.variant, kTinyMaxHistories, {}, 0, false};
  const double histories = hc.count(Position{}).first;
  if (hc.over) {
    throw ConfigError("Dark Hex " + board_name(rules_) +
                     " is too large to solve exactly: its game tree has more than " + approx(kTinyMaxHistories) +
                     " histories (3x3 has 1.9e+10), and the solver keeps every history in memory (4 bytes "
                     "each) and visits all of them in every CFR+ iteration. Boards of up to 8 cells fit (2x2, "
                     "2x3, 3x2, 2x4, 4x2), and so do boards of one row or one column");
  }
  nodes_.reserve(static_cast<size_t>(histories));
  build(stop);
}

void DarkTree::build(const std::atomic<bool>* stop) {
  for (int c = 0; c < 2; ++c) {
    keys_[c].assign(1024, 0);
    values_[c].assign(1024, 0);
  }
  const Geometry& g = geom_;
  uint32_t decisions = 0;  // decision nodes emitted; the stop flag is read every 65,536
  // Depth-first: emits a node, then its children's subtrees in ascending cell order.
  auto visit = [&](auto&& self, const Position& s, const Seen* seen) -> void {
    const int p = index_of(s.to_move);
    const uint64_t legal = legal_cells(g, s);
    const uint32_t moves = public_mask(g, legal);
    const int actions = std::popcount(moves);
    const uint64_t key = key_of(seen[p]);
    size_t slot = probe(keys_[p], key);
    uint32_t index;
    if (keys_[p][slot] == key) {
      index = values_[p][slot];
      if (infosets_[p][index].moves != moves) {
        throw std::logic_error("DarkTree: one information set with two different sets of legal cells");
      }
    } else {
      index = static_cast<uint32_t>(infosets_[p].size());
      if (index > kInfosetMask) throw ConfigError("Dark Hex " + board_name(rules_) + ": too many information sets");
      infosets_[p].push_back({sequences_[p], moves, seen[p].last_seq});
      sequences_[p] += static_cast<uint32_t>(actions);
      keys_[p][slot] = key;
      values_[p][slot] = index;
      if (2 * infosets_[p].size() > keys_[p].size()) grow(keys_[p], values_[p]);
    }
    const uint32_t first = infosets_[p][index].first_seq;
    if (stop && (decisions++ & 0xffff) == 0 && stop->load(std::memory_order_relaxed)) {
      throw Interrupted("DarkTree: stopped while building");
    }
    nodes_.push_back(decision_node(p, actions, index));
    int k = 0;
    for (uint64_t rest = legal; rest; rest &= rest - 1, ++k) {
      Position child = s;
      const Outcome r = play(child, g, rules_.variant, std::countr_zero(rest));
      if (r == Outcome::Won) {
        nodes_.push_back(terminal_node(index_of(winner_of_connection(rules_.variant, s.to_move))));
        ++terminals_;
        continue;
      }
      Seen next[2] = {seen[0], seen[1]};
      next[p] = Seen{static_cast<int32_t>(first + k), static_cast<uint8_t>(r == Outcome::Hit), 0, 0};
      Seen& other = next[1 - p];
      if (r == Outcome::Hit && !silent_hits_) {
        ++other.opp_hits;
      } else {
        other.opp_placed = 1;
      }
      self(self, child, next);
    }
  };
  const Seen start[2] = {};
  visit(visit, Position{}, start);
}

size_t DarkTree::memory_bytes() const {
  size_t bytes = nodes_.capacity() * sizeof(uint32_t);
  for (int c = 0; c < 2; ++c) {
    bytes += infosets_[c].capacity() * sizeof(DarkInfoSet);
    bytes += keys_[c].capacity() * sizeof(uint64_t) + values_[c].capacity() * sizeof(uint32_t);
    bytes += rep_offset_[c].capacity() * sizeof(uint32_t) + rep_cells_[c].capacity();
  }
  return bytes;
}

void DarkTree::find_representatives() const {
  std::call_once(representatives_once_, [this] {
    for (int c = 0; c < 2; ++c) {
      rep_offset_[c].assign(1, 0);
      rep_cells_[c].clear();
    }
    std::vector<uint8_t> path;
    size_t pos = 0;
    // Sets are discovered in the order the builder numbered them, so each
    // colour's paths are appended in index order.
    auto walk = [&](auto&& self) -> void {
      const uint32_t n = nodes_[pos++];
      if (node_terminal(n)) return;
      const int p = node_player(n);
      const uint32_t index = node_infoset(n);
      if (index + 1 == rep_offset_[p].size()) {
        rep_cells_[p].insert(rep_cells_[p].end(), path.begin(), path.end());
        rep_offset_[p].push_back(static_cast<uint32_t>(rep_cells_[p].size()));
      }
      for (uint32_t rest = infosets_[p][index].moves; rest; rest &= rest - 1) {
        path.push_back(static_cast<uint8_t>(std::countr_zero(rest)));
        self(self);
        path.pop_back();
      }
    };
    walk(walk);
  });
}

View DarkTree::infoset_view(int color, int index) const {
  if (color < 0 || color > 1 || index < 0 || index >= static_cast<int>(infosets_[color].size())) {
    throw ConfigError("no information set " + std::to_string(index) + " for colour " + std::to_string(color));
  }
  find_representatives();
  Game game(rules_);
  for (uint32_t i = rep_offset_[color][index]; i < rep_offset_[color][index + 1]; ++i) game.play(rep_cells_[color][i]);
  if (!game.to_move() || index_of(*game.to_move()) != color) {
    throw std::logic_error("DarkTree: a representative history does not end at its player's turn");
  }
  return game.view(*game.to_move());
}

int DarkTree::infoset_of(const View& view) const {
  validate_view(view);
  if (view.rules.variant != rules_.variant || view.rules.rows != rules_.rows || view.rules.cols != rules_.cols) {
    throw ConfigError("this view is of " + board_name(view.rules) + ", not of " + board_name(rules_));
  }
  if (silent_hits_) throw ConfigError("a silent-hits tree has no views: hexengine's views announce hits");
  if (!view.viewer || !view.to_move || *view.viewer != *view.to_move) {
    throw ConfigError("a policy is asked only for the view of the player to move");
  }
  const int me = index_of(*view.viewer);
  auto lookup = [&](const Seen& seen) -> uint32_t {
    const uint64_t key = key_of(seen);
    const size_t slot = probe(keys_[me], key);
    if (keys_[me][slot] != key) throw ConfigError("this view does not occur in Dark Hex " + board_name(rules_));
    return values_[me][slot];
  };
  Seen seen;
  for (const Action& a : view.history) {
    if (index_of(a.color) == me) {
      const DarkInfoSet& set = infosets_[me][lookup(seen)];
      if (a.cell < 0 || !((set.moves >> a.cell) & 1) || a.result == MoveResult::Swapped) {
        throw ConfigError("this view does not occur in Dark Hex " + board_name(rules_));
      }
      seen = Seen{static_cast<int32_t>(set.first_seq + rank_in(set.moves, a.cell)),
                  static_cast<uint8_t>(a.result == MoveResult::Hit), 0, 0};
    } else if (a.result == MoveResult::Hit) {
      ++seen.opp_hits;
    } else {
      seen.opp_placed = 1;
    }
  }
  const uint32_t index = lookup(seen);
  uint32_t legal = 0;
  for (int cell : view.legal_moves()) legal |= 1u << cell;
  if (infosets_[me][index].moves != legal) {
    throw ConfigError("this view does not occur in Dark Hex " + board_name(rules_));
  }
  return static_cast<int>(index);
}

// --- policies and best responses -------------------------------------------

DarkPolicy uniform_policy(const DarkTree& tree) {
  DarkPolicy policy;
  for (int c = 0; c < 2; ++c) {
    policy.prob[c].assign(tree.sequences(c), 0.0);
    for (const DarkInfoSet& set : tree.infosets(c)) {
      const int n = std::popcount(set.moves);
      for (int k = 0; k < n; ++k) policy.prob[c][set.first_seq + k] = 1.0 / n;
    }
  }
  return policy;
}

void check_policy(const DarkTree& tree, const DarkPolicy& policy) {
  for (int c = 0; c < 2; ++c) {
    const char* name = c == 0 ? "Red" : "Blue";
    if (policy.prob[c].size() != tree.sequences(c)) {
      throw ConfigError(std::string("a policy for ") + name + " needs " + std::to_string(tree.sequences(c)) +
                       " probabilities, not " + std::to_string(policy.prob[c].size()));
    }
    const auto& sets = tree.infosets(c);
    for (size_t i = 0; i < sets.size(); ++i) {
      const int n = std::popcount(sets[i].moves);
      double sum = 0;
      for (int k = 0; k < n; ++k) {
        const double p = policy.prob[c][sets[i].first_seq + k];
        if (!std::isfinite(p) || p < 0) {
          throw ConfigError(std::string("policy of ") + name + ", information set " + std::to_string(i) +
                           ": probabilities must be finite and not negative");
        }
        sum += p;
      }
      if (std::abs(sum - 1.0) > 1e-6) {
        throw ConfigError(std::string("policy of ") + name + ", information set " + std::to_string(i) +
                         ": probabilities sum to " + std::to_string(sum) + ", not 1");
      }
    }
  }
}

namespace {

// Skips the subtree at `pos`.
void skip(const std::vector<uint32_t>& nodes, size_t& pos) {
  const uint32_t n = nodes[pos++];
  if (node_terminal(n)) return;
  for (int k = node_actions(n); k > 0; --k) skip(nodes, pos);
}

// One pass over the tree with both colours' reach probabilities. At each
// terminal it adds the profile's payoff, and for each colour the payoff
// weighted by the opponent's reach to the colour's last sequence ("leaf"
// values, index shifted by one so that -1, no sequence yet, is slot 0).
struct ProfilePass {
  const DarkTree& tree;
  const DarkPolicy& policy;
  std::vector<double> leaf[2];
  double value = 0;

  void walk(size_t& pos, double reach_red, double reach_blue, int32_t last_red, int32_t last_blue) {
    const std::vector<uint32_t>& nodes = tree.nodes();
    const uint32_t n = nodes[pos];
    if (node_terminal(n)) {
      ++pos;
      const double u = node_winner(n) == 0 ? 1.0 : -1.0;
      value += reach_red * reach_blue * u;
      leaf[0][last_red + 1] += reach_blue * u;
      leaf[1][last_blue + 1] -= reach_red * u;
      return;
    }
    if (reach_red == 0 && reach_blue == 0) {
      skip(nodes, pos);
      return;
    }
    ++pos;
    const int p = node_player(n);
    const uint32_t first = tree.infosets(p)[node_infoset(n)].first_seq;
    const int actions = node_actions(n);
    for (int k = 0; k < actions; ++k) {
      const int32_t seq = static_cast<int32_t>(first) + k;
      const double s = policy.prob[p][seq];
      if (p == 0) {
        walk(pos, reach_red * s, reach_blue, seq, last_blue);
      } else {
        walk(pos, reach_red, reach_blue * s, last_red, seq);
      }
    }
  }

  // Backward induction over `color`'s information sets (children before
  // parents): the best response's value, and its choice per set.
  double best_response(int color, std::vector<int>* choice) {
    std::vector<double>& acc = leaf[color];
    const auto& sets = tree.infosets(color);
    if (choice) choice->assign(sets.size(), 0);
    for (size_t i = sets.size(); i-- > 0;) {
      const DarkInfoSet& set = sets[i];
      const int n = std::popcount(set.moves);
      int best = 0;
      for (int k = 1; k < n; ++k) {
        if (acc[set.first_seq + k + 1] > acc[set.first_seq + best + 1]) best = k;
      }
      acc[set.parent_seq + 1] += acc[set.first_seq + best + 1];
      if (choice) (*choice)[i] = best;
    }
    return acc[0];
  }
};

ProfilePass run_profile_pass(const DarkTree& tree, const DarkPolicy& policy) {
  check_policy(tree, policy);
  ProfilePass pass{tree, policy, {}, 0};
  for (int c = 0; c < 2; ++c) pass.leaf[c].assign(tree.sequences(c) + 1, 0.0);
  size_t pos = 0;
  pass.walk(pos, 1.0, 1.0, -1, -1);
  return pass;
}

}  // namespace

DarkEvaluation evaluate(const DarkTree& tree, const DarkPolicy& policy) {
  ProfilePass pass = run_profile_pass(tree, policy);
  DarkEvaluation e;
  e.value = pass.value;
  for (int c = 0; c < 2; ++c) e.best_response[c] = pass.best_response(c, nullptr);
  return e;
}

DarkPolicy best_response_policy(const DarkTree& tree, const DarkPolicy& policy, int color) {
  if (color < 0 || color > 1) throw ConfigError("a colour is 0 (Red) or 1 (Blue)");
  ProfilePass pass = run_profile_pass(tree, policy);
  std::vector<int> choice;
  pass.best_response(color, &choice);
  DarkPolicy out = policy;
  const auto& sets = tree.infosets(color);
  for (size_t i = 0; i < sets.size(); ++i) {
    const int n = std::popcount(sets[i].moves);
    for (int k = 0; k < n; ++k) out.prob[color][sets[i].first_seq + k] = k == choice[i] ? 1.0 : 0.0;
  }
  return out;
}

DarkPolicy purified(const DarkTree& tree, const DarkPolicy& policy) {
  check_policy(tree, policy);
  DarkPolicy out = policy;
  for (int c = 0; c < 2; ++c) {
    for (const DarkInfoSet& set : tree.infosets(c)) {
      const int n = std::popcount(set.moves);
      double* p = out.prob[c].data() + set.first_seq;
      const int best = static_cast<int>(std::max_element(p, p + n) - p);
      for (int k = 0; k < n; ++k) p[k] = k == best ? 1.0 : 0.0;
    }
  }
  return out;
}

// --- CFR+ ---------------------------------------------------------------------

DarkCfr::DarkCfr(const DarkTree& tree) : tree_(tree) {
  const DarkPolicy uniform = uniform_policy(tree);
  for (int c = 0; c < 2; ++c) {
    regret_[c].assign(tree.sequences(c), 0.0);
    average_[c].assign(tree.sequences(c), 0.0);
    current_[c] = uniform.prob[c];
  }
  realization_.assign(std::max(tree.sequences(0), tree.sequences(1)), 0.0);
}

double DarkCfr::traverse(size_t& pos, int player, double reach_opp) {
  const std::vector<uint32_t>& nodes = tree_.nodes();
  const uint32_t n = nodes[pos++];
  if (node_terminal(n)) return node_winner(n) == player ? 1.0 : -1.0;
  const int p = node_player(n);
  const uint32_t first = tree_.infosets(p)[node_infoset(n)].first_seq;
  const int actions = node_actions(n);
  const double* sigma = current_[p].data() + first;
  if (p == player) {
    double values[kTinyMaxCells];
    double v = 0;
    for (int k = 0; k < actions; ++k) {
      values[k] = traverse(pos, player, reach_opp);
      v += sigma[k] * values[k];
    }
    double* regret = regret_[p].data() + first;
    for (int k = 0; k < actions; ++k) regret[k] += reach_opp * (values[k] - v);
    return v;
  }
  double v = 0;
  for (int k = 0; k < actions; ++k) {
    if (sigma[k] == 0) {
      skip(nodes, pos);  // the player's regrets there would be weighted by zero
    } else {
      v += sigma[k] * traverse(pos, player, reach_opp * sigma[k]);
    }
  }
  return v;
}

void DarkCfr::accumulate_average(int color) {
  const double weight = t_;
  for (const DarkInfoSet& set : tree_.infosets(color)) {
    const double reach = set.parent_seq < 0 ? 1.0 : realization_[set.parent_seq];
    const int n = std::popcount(set.moves);
    for (int k = 0; k < n; ++k) {
      const uint32_t seq = set.first_seq + k;
      realization_[seq] = reach * current_[color][seq];
      average_[color][seq] += weight * realization_[seq];
    }
  }
}

void DarkCfr::update_current(int color) {
  for (const DarkInfoSet& set : tree_.infosets(color)) {
    const int n = std::popcount(set.moves);
    double* regret = regret_[color].data() + set.first_seq;
    double* sigma = current_[color].data() + set.first_seq;
    double sum = 0;
    for (int k = 0; k < n; ++k) {
      regret[k] = std::max(regret[k], 0.0);
      sum += regret[k];
    }
    for (int k = 0; k < n; ++k) sigma[k] = sum > 0 ? regret[k] / sum : 1.0 / n;
  }
}

void DarkCfr::run(int iterations, const std::atomic<bool>* stop) {
  if (iterations < 0) throw ConfigError("iterations must not be negative");
  if (iterations > kCfrMaxIterations - t_) {
    throw ConfigError("CFR+ runs at most " + std::to_string(kCfrMaxIterations) + " iterations in all; " +
                      std::to_string(t_) + " are done");
  }
  for (int i = 0; i < iterations; ++i) {
    if (stop && stop->load(std::memory_order_relaxed)) return;
    ++t_;
    for (int player = 0; player < 2; ++player) {
      accumulate_average(player);
      size_t pos = 0;
      traverse(pos, player, 1.0);
      update_current(player);
    }
  }
}

DarkPolicy DarkCfr::average_policy() const {
  DarkPolicy policy;
  for (int c = 0; c < 2; ++c) {
    policy.prob[c].assign(tree_.sequences(c), 0.0);
    for (const DarkInfoSet& set : tree_.infosets(c)) {
      const int n = std::popcount(set.moves);
      double sum = 0;
      for (int k = 0; k < n; ++k) sum += average_[c][set.first_seq + k];
      for (int k = 0; k < n; ++k) {
        policy.prob[c][set.first_seq + k] = sum > 0 ? average_[c][set.first_seq + k] / sum : 1.0 / n;
      }
    }
  }
  return policy;
}

DarkPolicy DarkCfr::current_policy() const {
  DarkPolicy policy;
  for (int c = 0; c < 2; ++c) policy.prob[c] = current_[c];
  return policy;
}

}  // namespace hexengine
