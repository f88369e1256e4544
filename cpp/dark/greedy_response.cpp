#include "dark/greedy_response.h"

#include <algorithm>
#include <array>
#include <bit>
#include <cmath>
#include <memory>
#include <optional>
#include <string>
#include <tuple>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/distance.h"
#include "core/errors.h"
#include "core/state.h"

namespace hexengine {

namespace {

using Word = Bitboard<1>;

// A hidden state: the greedy player's stones and the responder's stones it
// has found (padded cells, one word), with its probability weight.
struct Hidden {
  uint64_t own, found;
  double w;
};
using Belief = std::vector<Hidden>;

// A 128-bit digest; 96 bits of it are kept.
struct Digest {
  uint64_t a, b;
};

uint64_t mix(uint64_t x) {
  x ^= x >> 33;
  x *= 0xff51afd7ed558ccdULL;
  x ^= x >> 33;
  x *= 0xc4ceb9fe1a85ec53ULL;
  x ^= x >> 33;
  return x;
}

// What a memoised value says of the true one.
enum class Bound : uint32_t { AtMost = 0, Exact = 1, AtLeast = 2 };

// The responder's values by digest, each exact or (found while the caller
// only needed to know whether the value passed a bound) a bound:
// open addressing, 16 bytes an entry.
class Memo {
 public:
  // Whether `d` is known; its value, and what kind of value it is.
  bool find(const Digest& d, double& v, Bound& bound) const {
    const Slot* s = slot(d);
    if (s->k1 == 0) return false;
    v = s->v;
    bound = static_cast<Bound>(s->k2 >> 30);
    return true;
  }
  // Stores (or replaces) the value of `d`.
  void put(const Digest& d, double v, Bound bound) {
    if (10 * (size_ + 1) > 7 * slots_.size()) grow();
    Slot* s = slot(d);
    if (s->k1 == 0) ++size_;
    float f = static_cast<float>(v);
    if (bound == Bound::AtMost && f < v) f = std::nextafter(f, 2.0f);    // a bound stays a bound
    if (bound == Bound::AtLeast && f > v) f = std::nextafter(f, -1.0f);
    *s = {d.a | 1, key2(d) | static_cast<uint32_t>(bound) << 30, f};
  }
  uint64_t size() const { return size_; }

 private:
  struct Slot {
    uint64_t k1 = 0;  // 0: free
    uint32_t k2 = 0;  // 30 more bits of the digest; the top two bits: the Bound
    float v = 0;
  };
  static uint32_t key2(const Digest& d) { return static_cast<uint32_t>(d.b) & 0x3fffffffu; }
  // The slot holding `d`, or the free slot where it would go.
  Slot* slot(const Digest& d) const {
    const uint64_t k1 = d.a | 1;
    const uint32_t k2 = key2(d);
    for (size_t i = k1 & (slots_.size() - 1);; i = (i + 1) & (slots_.size() - 1)) {
      const Slot& s = slots_[i];
      if (s.k1 == 0 || (s.k1 == k1 && (s.k2 & 0x3fffffffu) == k2)) return const_cast<Slot*>(&s);
    }
  }
  void grow() {
    std::vector<Slot> old(slots_.size() * 2);
    old.swap(slots_);
    for (const Slot& s : old) {
      if (!s.k1) continue;
      for (size_t i = s.k1 & (slots_.size() - 1);; i = (i + 1) & (slots_.size() - 1)) {
        if (slots_[i].k1 == 0) {
          slots_[i] = s;
          break;
        }
      }
    }
  }
  std::vector<Slot> slots_ = std::vector<Slot>(1 << 12);
  uint64_t size_ = 0;
};

// Thrown to unwind the recursion when a limit is reached.
struct Stopped {};

// The rules greedy_best_response takes; throws ConfigError for others.
void check_rules(const Rules& rules) {
  if (!is_dark(rules.variant)) {
    throw ConfigError("a best response to the greedy player is for Dark Hex ('dark' or 'dark-abrupt'), not " +
                      variant_name(rules.variant));
  }
  if (words_for(rules.rows, rules.cols) != 1) {
    throw ConfigError("a best response to the greedy player takes boards whose padded layout fits 64 cells "
                      "(rows x (cols + 1)), not " +
                      std::to_string(rules.rows) + "x" + std::to_string(rules.cols));
  }
}

class Responder {
 public:
  Responder(const Rules& rules, Color me, uint64_t max_states, const std::atomic<bool>* stop, int reveal_after = -1)
      : g_(make_geometry(rules.rows, rules.cols)),
        variant_(rules.variant),
        classic_(rules.variant == Variant::Dark),
        me_(me),
        them_(opponent(me)),
        max_states_(max_states),
        stop_(stop),
        reveal_after_(reveal_after) {
    for (int r = 0; r < g_.rows; ++r) {
      for (int c = 0; c < g_.cols; ++c) {
        const int p = g_.padded(r, c);
        for (int x = 0; x < 256; ++x) {
          if (x >> (p % 8) & 1) turned_[p / 8][x] |= uint64_t{1} << g_.padded(g_.rows - 1 - r, g_.cols - 1 - c);
        }
      }
    }
  }

  // Per padded cell, the value of each move at a decision (-1: not a move).
  std::vector<double> move_values(uint64_t mine, uint64_t seen, Belief belief) {
    normalise(belief);
    const double total = mass(belief);
    const State<1> base = state(mine, 0, 0, me_);
    std::vector<double> out(64, -1);
    Word open;
    open.w[0] = g_.on_board.w[0] & ~mine & ~seen;
    open.for_each([&](int p) {
      Belief parts[2];
      split(belief, p, parts);
      double value = 0;
      for (const Belief& part : parts) {
        if (!part.empty()) value += mass(part) / total * after(base, seen, p, part, -1, 2);
      }
      out[p] = value;
    });
    return out;
  }

  void set_stop(const std::atomic<bool>* stop) { stop_ = stop; }
  uint64_t decisions() const { return decisions_.size(); }
  Color me() const { return me_; }
  const Geometry& geometry() const { return g_; }

  GreedyResponse run(std::optional<double> target) {
    GreedyResponse out;
    const Belief start{{0, 0, 1.0}};
    try {
      // Without a target, the window holds every value; with one, it is only
      // as wide as it takes to tell "at most the target" from "above it".
      const double alpha = target.value_or(-1), beta = target ? *target + 1e-9 : 2;
      const double v = me_ == Color::Red ? decide(0, 0, start, alpha, beta) : greedy_value(0, 0, start, alpha, beta);
      out.complete = true;
      out.bound = v <= alpha + kEps  ? GreedyBound::AtMost
                  : v >= beta - kEps ? GreedyBound::AtLeast
                                     : GreedyBound::Exact;
      out.value = out.bound == GreedyBound::AtMost ? alpha : v;  // the search may have found less than the target
    } catch (const Stopped&) {
      // a limit was reached: the value stays unknown (complete is false)
    }
    out.decisions = decisions_.size();
    out.greedy_turns = turns_;
    out.informed = informed_.size();
    return out;
  }

 private:
  // A position with the responder's stones `mine` and the greedy player's
  // `own` and `found`, `mover` to play.
  State<1> state(uint64_t mine, uint64_t own, uint64_t found, Color mover) const {
    State<1> s;
    s.stones[index_of(me_)].w[0] = mine;
    s.stones[index_of(them_)].w[0] = own;
    s.found[index_of(them_)].w[0] = found;
    s.to_move = mover;
    rebuild_chains(s, g_);
    return s;
  }

  // Cells of `open` with colour c's least greedy score (own stones `own`).
  uint64_t best_cells(uint64_t own, uint64_t open, Color c, std::vector<int>* order) const {
    Word o, free;
    o.w[0] = own;
    free.w[0] = open;
    DistanceMap<1> after;
    distances_after(g_, o, free, c, after);
    int best = kFar + 1;
    uint64_t cells = 0;
    std::vector<std::pair<int, int>> scored;
    free.for_each([&](int p) {
      if (order) scored.push_back({after[p], p});
      if (after[p] < best) {
        best = after[p];
        cells = 0;
      }
      if (after[p] == best) cells |= uint64_t{1} << p;
    });
    if (order) {
      std::sort(scored.begin(), scored.end());
      for (const auto& [d, p] : scored) order->push_back(p);
    }
    return cells;
  }

  // Sorts by hidden state and adds up equal ones.
  static void normalise(Belief& b) {
    std::sort(b.begin(), b.end(),
              [](const Hidden& x, const Hidden& y) { return x.own != y.own ? x.own < y.own : x.found < y.found; });
    size_t k = 0;
    for (size_t i = 0; i < b.size(); ++i) {
      if (k && b[k - 1].own == b[i].own && b[k - 1].found == b[i].found) {
        b[k - 1].w += b[i].w;
      } else {
        b[k++] = b[i];
      }
    }
    b.resize(k);
  }

  // The hidden states of `belief` where a move at p hits ([0]) and where it
  // places a stone ([1]).
  static void split(const Belief& belief, int p, Belief parts[2]) {
    for (const Hidden& h : belief) parts[h.own >> p & 1 ? 0 : 1].push_back(h);
  }

  // The total weight of a belief.
  static double mass(const Belief& b) {
    double m = 0;
    for (const Hidden& h : b) m += h.w;
    return m;
  }

  // Cells turned 180 degrees.
  uint64_t turn(uint64_t x) const {
    uint64_t out = 0;
    for (int k = 0; k < 8; ++k) out |= turned_[k][x >> (8 * k) & 0xff];
    return out;
  }

  // The digest of a view and a normalised belief (weights relative to its total).
  static Digest plain_digest(uint64_t mine, uint64_t seen, const Belief& b) {
    const double total = mass(b);
    uint64_t a = mix(mine * 31 + 1), c = mix(seen + 0x1234567 + 77);
    for (const Hidden& h : b) {
      const uint64_t q = static_cast<uint64_t>(std::llround(h.w / total * 1e12));
      a = mix(a ^ h.own) + q;
      c = mix(c + h.found * 0x9E3779B97F4A7C15ull) ^ mix(q + h.own);
    }
    return {a, c};
  }

  // The digest of a state or of its half-turn, whichever is smaller.
  Digest digest(uint64_t mine, uint64_t seen, const Belief& b) const {
    const Digest d = plain_digest(mine, seen, b);
    Belief t;
    t.reserve(b.size());
    for (const Hidden& h : b) t.push_back({turn(h.own), turn(h.found), h.w});
    normalise(t);
    const Digest u = plain_digest(turn(mine), turn(seen), t);
    return (u.a < d.a || (u.a == d.a && u.b < d.b)) ? u : d;
  }

  void check_limits() const {
    if (max_states_ && decisions_.size() + informed_.size() > max_states_) throw Stopped{};
    if (stop_ && stop_->load(std::memory_order_relaxed)) throw Stopped{};
  }

  // The greedy player's tied best cells with its stones `own` and the
  // responder's stones it has found `found` (they depend on nothing else),
  // memoised; the memo (about 60 bytes an entry) is emptied past 2^22 entries.
  uint64_t greedy_cells(uint64_t own, uint64_t found) {
    if (greedy_cells_.size() > (1u << 22)) greedy_cells_.clear();
    auto [it, fresh] = greedy_cells_.try_emplace(Key{own, found}, 0);
    if (fresh) it->second = best_cells(own, g_.on_board.w[0] & ~own & ~found, them_, nullptr);
    return it->second;
  }

  // The greedy player's turn: the beliefs after it by what the responder is
  // told (classic: [k] after k hits and a placement; abrupt: [0] a
  // placement, [1] a hit). Weight of its wins is dropped. Its moves follow
  // play_move on the bits: a cell holding one of the responder's stones
  // `mine` is a hit (found; in classic it moves again), any other a
  // placement, which wins when its stones join its edges.
  std::vector<Belief> greedy_turn(uint64_t mine, const Belief& belief) {
    std::vector<Belief> out(classic_ ? g_.cells + 1 : 2);
    struct Item {
      uint64_t own, found;
      double w;
      int hits;
    };
    std::vector<Item> todo;
    for (const Hidden& h : belief) todo.push_back({h.own, h.found, h.w, 0});
    while (!todo.empty()) {
      const Item it = todo.back();
      todo.pop_back();
      const uint64_t cells = greedy_cells(it.own, it.found);
      const double share = it.w / std::popcount(cells);
      for (uint64_t m = cells; m; m &= m - 1) {
        const uint64_t bit = m & (~m + 1);
        if (mine & bit) {
          if (classic_) {
            todo.push_back({it.own, it.found | bit, share, it.hits + 1});
          } else {
            out[1].push_back({it.own, it.found | bit, share});
          }
          continue;
        }
        Word stones;
        stones.w[0] = it.own | bit;
        if (!joins_edges(g_, stones, them_)) out[classic_ ? it.hits : 0].push_back({it.own | bit, it.found, share});
      }
    }
    for (Belief& b : out) normalise(b);
    return out;
  }

  // The responder's value with the greedy player to move, or a bound on it:
  // a result at most `alpha` is an upper bound, one at least `beta` a lower
  // bound, one between them exact (callers that ask about a window only
  // need to know which). Bounds are as tight as the search found them, so
  // that a memoised one answers more later questions. Not memoised: the
  // decisions after it are (a table of turns was tried: a third of the
  // turns in classic, no faster).
  double greedy_value(uint64_t mine, uint64_t seen, const Belief& belief, double alpha, double beta) {
    ++turns_;
    const double total = mass(belief);
    const std::vector<Belief> parts = greedy_turn(mine, belief);
    double kept = 0;  // the weight left after the greedy player's wins
    for (const Belief& part : parts) kept += mass(part) / total;
    return expectation(
        parts.size(), kept, [&](size_t i) { return mass(parts[i]) / total; },
        [&](size_t i, double low, double high) { return decide(mine, seen, parts[i], low, high); }, alpha, beta);
  }

  // The expectation of outcomes 0 to n - 1, outcome i with probability
  // share(i) (0: skipped), together `kept`, the rest worth nothing, or a bound on
  // it as in greedy_value: value(i, low, high) is asked only whether outcome
  // i passes what the others leave it to reach (Ballard's Star1).
  template <class Share, class Value>
  static double expectation(size_t n, double kept, Share share, Value value, double alpha, double beta) {
    double rest = kept;  // the most the outcomes not yet valued can add
    if (rest <= alpha + kEps) return rest;
    double sum = 0;  // the outcomes valued so far
    for (size_t i = 0; i < n; ++i) {
      const double s = share(i);
      if (s <= 0) continue;
      rest -= s;
      const double low = (alpha - sum - rest) / s;  // at most this: the whole is at most alpha
      const double high = (beta - sum) / s;         // at least this: the whole is at least beta
      if (low >= 1 - kEps) return sum + s + rest;  // even a sure win here would not pass alpha
      const double v = value(i, low, high);
      sum += s * v;
      if (v >= high - kEps) return sum;                   // at least beta, whatever the rest are
      if (sum + rest <= alpha + kEps) return sum + rest;  // at most alpha, even if the rest are won
    }
    return sum;
  }

  // The responder's value after its move at p, which hit (or was placed) in
  // every hidden state of `part`, or a bound, as in greedy_value; `base`
  // holds the responder's stones and chains, the responder to move.
  double after(const State<1>& base, uint64_t seen, int p, const Belief& part, double alpha, double beta) {
    State<1> s = base;
    s.stones[index_of(them_)].w[0] = part[0].own;  // a hit or not is all the move asks of them
    const Step step = play_move(s, g_, variant_, p);
    const uint64_t mine2 = s.stones[index_of(me_)].w[0];
    const uint64_t seen2 = step.result == MoveResult::Hit ? seen | uint64_t{1} << p : seen;
    if (step.connected) return 1.0;
    return s.to_move == me_ ? decide(mine2, seen2, part, alpha, beta) : greedy_value(mine2, seen2, part, alpha, beta);
  }

  // The responder's best value on its move, or a bound, as in greedy_value
  // (memoised with what it is). A move is dropped as soon as its outcomes
  // valued so far, plus a sure win for the rest, cannot pass the larger of
  // `alpha` and the best move found; the search stops at the first move
  // that reaches `beta`; each outcome is asked only what the move needs of it.
  double decide(uint64_t mine, uint64_t seen, const Belief& belief, double alpha, double beta) {
    if (reveal_after_ >= 0 && std::popcount(mine) >= reveal_after_) return told(mine, belief, alpha, beta);
    const Digest d = digest(mine, seen, belief);
    double v;
    Bound bound;
    const bool known = decisions_.find(d, v, bound);
    if (known && answers(v, bound, alpha, beta)) return v;
    if (!known) check_limits();
    const double total = mass(belief);
    std::vector<int> order;
    best_cells(mine, g_.on_board.w[0] & ~mine & ~seen, me_, &order);
    const State<1> base = state(mine, 0, 0, me_);
    double best = -1;
    double most = -1;  // the most any dropped move can be worth
    for (int p : order) {
      const double floor = std::max(alpha, best);
      Belief parts[2];
      split(belief, p, parts);
      const double shares[2] = {mass(parts[0]) / total, mass(parts[1]) / total};
      const int first = shares[0] >= shares[1] ? 0 : 1;
      double value = 0, rest = 1;
      bool dropped = false;
      for (int i : {first, 1 - first}) {
        if (parts[i].empty()) continue;
        rest -= shares[i];
        const double low = (floor - value - rest) / shares[i];
        const double high = (beta - value) / shares[i];
        if (low >= 1 - kEps) {  // even a sure win here would not pass the floor
          most = std::max(most, value + shares[i] + rest);
          dropped = true;
          break;
        }
        const double w = after(base, seen, p, parts[i], low, high);
        value += shares[i] * w;
        if (w >= high - kEps) {  // this move reaches beta: so does the decision
          decisions_.put(d, value, Bound::AtLeast);
          return value;
        }
        if (value + rest <= floor + kEps) {
          most = std::max(most, value + rest);
          dropped = true;
          break;
        }
      }
      if (!dropped && value > best + kEps) {
        best = value;
        if (best >= 1 - kEps) break;
      }
    }
    if (best > alpha + kEps) {
      decisions_.put(d, best, Bound::Exact);
      return best;
    }
    const double upper = std::max(best, most);  // at most alpha: every move was dropped or at most alpha
    decisions_.put(d, upper, Bound::AtMost);
    return upper;
  }

  // The value of a responder that sees every stone (the greedy player's
  // `own`, and which of its own stones the greedy player has `found`), or a
  // bound on it as in greedy_value. Seeing all, it never needs to play onto
  // a stone (the greedy player plays on its own stones and those it found,
  // whatever it is told of hits), except to pass in abrupt, where a hit ends
  // the turn. Memoised by the three sets (half-turns counted as the same)
  // with what the value is.
  double informed(uint64_t mine, uint64_t own, uint64_t found, double alpha, double beta) {
    uint64_t a = mine, b = own, c = found;
    const uint64_t ta = turn(a), tb = turn(b), tc = turn(c);
    if (std::tie(ta, tb, tc) < std::tie(a, b, c)) a = ta, b = tb, c = tc;
    const Digest d{mix(mix(a * 31 + 7) + b * 0x9E3779B97F4A7C15ull) ^ c, mix(mix(c + 0x1234567) ^ mix(b + a * 131))};
    double v;
    Bound bound;
    if (informed_.find(d, v, bound) && answers(v, bound, alpha, beta)) return v;
    check_limits();
    const uint64_t open = g_.on_board.w[0] & ~mine & ~own;
    std::vector<int> order;
    best_cells(mine, open, me_, &order);
    if (!classic_ && own) order.push_back(-1);  // in abrupt a hit ends the turn: a pass it may choose
    double best = 0;
    for (int p : order) {
      const uint64_t bit = p < 0 ? 0 : uint64_t{1} << p;
      Word stones;
      stones.w[0] = mine | bit;
      const double floor = std::max(alpha, best);
      const double w = bit && joins_edges(g_, stones, me_) ? 1.0 : informed_turn(mine | bit, own, found, floor, beta);
      if (w >= beta - kEps) {
        informed_.put(d, w, Bound::AtLeast);
        return w;
      }
      best = std::max(best, w);
    }
    informed_.put(d, best, best > alpha + kEps ? Bound::Exact : Bound::AtMost);
    return best;
  }

  // The greedy player's turn against the responder that sees every stone,
  // or a bound, as in greedy_value; its winning moves count as lost weight.
  double informed_turn(uint64_t mine, uint64_t own, uint64_t found, double alpha, double beta) {
    std::array<uint64_t, 64> going;  // the greedy player's moves that do not win: hits and placements
    size_t n = 0, wins = 0;
    for (uint64_t m = greedy_cells(own, found); m; m &= m - 1) {
      const uint64_t bit = m & (~m + 1);
      Word stones;
      stones.w[0] = own | bit;
      if ((mine & bit) || !joins_edges(g_, stones, them_)) {
        going[n++] = bit;
      } else {
        ++wins;
      }
    }
    const double share = 1.0 / static_cast<double>(n + wins);
    return expectation(
        n, share * static_cast<double>(n), [&](size_t) { return share; },
        [&](size_t i, double low, double high) {
          const uint64_t bit = going[i];
          if (!(mine & bit)) return informed(mine, own | bit, found, low, high);
          if (classic_) return informed_turn(mine, own, found | bit, low, high);  // a hit: it moves again
          return informed(mine, own, found | bit, low, high);
        },
        alpha, beta);
  }

  // The responder's value at a decision if from there on it were told every
  // hidden stone (the greedy player's, and which of its own were found): at
  // least its true value. A bound, as in greedy_value.
  double told(uint64_t mine, const Belief& belief, double alpha, double beta) {
    const double total = mass(belief);
    return expectation(
        belief.size(), 1, [&](size_t i) { return belief[i].w / total; },
        [&](size_t i, double low, double high) { return informed(mine, belief[i].own, belief[i].found, low, high); },
        alpha, beta);
  }

  static constexpr double kEps = 1e-12;  // values this close count as equal

  // Whether a memoised value (or bound) answers a question with window
  // (alpha, beta): exact, or a bound on the side the question is about.
  static bool answers(double v, Bound bound, double alpha, double beta) {
    return bound == Bound::Exact || (bound == Bound::AtMost && v <= alpha + kEps) ||
           (bound == Bound::AtLeast && v >= beta - kEps);
  }

  Geometry g_;
  Variant variant_;
  bool classic_;
  Color me_, them_;
  uint64_t max_states_;
  const std::atomic<bool>* stop_;
  std::array<std::array<uint64_t, 256>, 8> turned_{};  // byte k of a set -> its cells after a half-turn
  int reveal_after_;   // told every hidden stone from this many stones of its own on (-1: never)
  Memo decisions_;     // the responder's values by information state
  Memo informed_;      // the values of the responder that sees every stone, by position
  struct Key {
    uint64_t own, found;
    bool operator==(const Key&) const = default;
  };
  struct KeyHash {
    size_t operator()(const Key& k) const { return mix(k.own * 0x9E3779B97F4A7C15ull ^ k.found); }
  };
  std::unordered_map<Key, uint64_t, KeyHash> greedy_cells_;  // greedy_cells by (own, found)
  uint64_t turns_ = 0;  // greedy turns valued
};

}  // namespace

GreedyResponse greedy_best_response(const Rules& rules, Color responder, uint64_t max_states,
                                    const std::atomic<bool>* stop, std::optional<double> target,
                                    std::optional<int> reveal_after) {
  check_rules(rules);
  if (target && !(*target >= 0 && *target < 1)) {
    throw ConfigError("the target win rate must be at least 0 and below 1, not " + std::to_string(*target));
  }
  if (reveal_after && *reveal_after < 0) {
    throw ConfigError("reveal_after counts the responder's stones: at least 0, not " + std::to_string(*reveal_after));
  }
  return Responder(rules, responder, max_states, stop, reveal_after.value_or(-1)).run(target);
}

struct GreedyResponderImpl : Responder {
  using Responder::Responder;
};

GreedyResponder::GreedyResponder(const Rules& rules, Color responder, uint64_t max_states) {
  check_rules(rules);
  impl_ = std::make_unique<GreedyResponderImpl>(rules, responder, max_states, nullptr);
}

GreedyResponder::~GreedyResponder() = default;

uint64_t GreedyResponder::decisions() const { return impl_->decisions(); }

std::vector<double> GreedyResponder::move_values(uint64_t mine, uint64_t seen, const std::vector<GreedyHidden>& belief,
                                                 const std::atomic<bool>* stop) {
  const Geometry& g = impl_->geometry();
  const uint64_t all = (g.cells == 64 ? ~uint64_t{0} : (uint64_t{1} << g.cells) - 1);
  auto padded = [&](uint64_t cells) {
    uint64_t out = 0;
    for (uint64_t m = cells & all; m; m &= m - 1) out |= uint64_t{1} << g.padded(std::countr_zero(m));
    return out;
  };
  if (belief.empty()) throw ConfigError("the belief is empty: no hidden state is possible");
  if ((mine | seen) & ~all) throw ConfigError("a cell of mine or seen is off the board");
  if (mine & seen) throw ConfigError("mine and seen share a cell");
  auto joined = [&](uint64_t cells, Color c) {
    Board stones;
    stones.w[0] = padded(cells);
    return joins_edges(g, stones, c);
  };
  if (joined(mine, impl_->me())) throw ConfigError("the responder's stones already join its edges: the game is over");
  Belief b;
  for (const GreedyHidden& h : belief) {
    if ((h.own | h.found) & ~all) throw ConfigError("a hidden state has a cell off the board");
    if (joined(h.own, opponent(impl_->me()))) {
      throw ConfigError("a hidden state has the greedy player's stones joining its edges: the game would be over");
    }
    if ((h.own & seen) != seen || (h.own & mine) || (h.found & ~mine)) {
      throw ConfigError("a hidden state clashes with the view: its stones must hold every found stone and none "
                        "of the responder's, and it can only have found the responder's stones");
    }
    if (!(h.weight > 0)) throw ConfigError("a hidden state's weight must be positive");
    b.push_back({padded(h.own), padded(h.found), h.weight});
  }
  impl_->set_stop(stop);
  std::vector<double> by_padded;
  try {
    by_padded = impl_->move_values(padded(mine), padded(seen), b);
  } catch (const Stopped&) {
    impl_->set_stop(nullptr);
    throw Interrupted("the best response stopped (max_states passed, or stopped)");
  }
  impl_->set_stop(nullptr);
  std::vector<double> out(g.cells);
  for (int cell = 0; cell < g.cells; ++cell) out[cell] = by_padded[g.padded(cell)];
  return out;
}

}  // namespace hexengine
