// Virtual connections by H-search (Anshelevich), for the Hex solver, and
// with `max_ors` 1 (every OR of exactly two semis) the join pairings of Rex
// (solver/knowledge.h). Internal to solver/solver.cpp.
//
// Contract: for one colour X, nodes are X's groups (the groups touching each
// of X's edges merged with that edge, nodes 0 and 1) and the empty cells. A
// full connection (x, y, C) says X joins x and y (owning them if they are
// cells) even if the opponent moves first, using only cells of the carrier C;
// a semi connection (x, y, C, k) says X joins them by playing the key k first,
// k in C. Rules, each sound:
//   base: adjacent nodes are fully connected with an empty carrier; with
//        `templates`, an edge template that fits (solver/templates.h) fully
//        connects its anchor to its edge with the template's empty cells;
//   AND: (x, z, A) and (z, y, B) full, A and B disjoint, x not in B, y not in
//        A: through a group z a full (x, y, A|B); through an empty cell z a
//        semi (x, y, A|B|{z}) with key z; a full and a semi through a group
//        give a semi with the semi's key;
//   OR: semis (x, y) whose carriers have an empty intersection give a full
//        with the union as carrier (searched by branching, at each step, on
//        the semis that miss the first cell of the intersection so far, each
//        set of semis once).
// Lists keep only minimal carriers, up to fixed capacities, and the closure
// stops after a work budget, so the result is sound but not complete. With
// `narrowing`, a list at its capacity still takes a carrier that narrows the
// intersection of the pair's carriers (up to kMostCarriers): what the OR rule
// and the must-play region need of a pair is lost last. Edge groups are never
// the middle of an AND.
//
// A builder may keep its builds by position (`VcSizes::kept`); a build of a
// position that grew from a kept one by stones alone then starts from the
// kept connections that still hold, and combines again only what changed.
//
// A VC decomposition's ring encloses a region; when no carrier of the
// closure lies inside it, a small region gets a local proof: a short search
// of the opponent's moves there (each limited to the must-play cells of the
// connection's semis), answered with H-search on the position where every
// other empty cell is the opponent's.
#pragma once

#include <algorithm>
#include <array>
#include <bit>
#include <cstdint>
#include <memory>
#include <tuple>
#include <vector>

#include "solver/kept_slots.h"
#include "solver/knowledge.h"
#include "solver/templates.h"

namespace hexengine::solver {

// What H-search found between the two edges of a colour.
template <int W>
struct EdgeConnection {
  bool full = false;         // a full connection: the colour has won
  Bitboard<W> full_carrier;  // its carrier
  int semis = 0;             // number of semi connections found
  Bitboard<W> intersection;  // intersection of their carriers (keys included)
  Bitboard<W> union_;        // union of their carriers
  Bitboard<W> smallest;      // the smallest semi carrier (key included)
  int key = -1;              // key of that semi connection (layout index: see BoardInfo)
  Bitboard<W> keys;          // keys of all the semi connections found
};

// Tunable sizes of the H-search.
struct VcSizes {
  int max_full = 12;     // full carriers kept per pair of nodes
  int max_semi = 24;     // semi carriers kept per pair of nodes
  int max_ors = 4;       // semis the OR rule adds to a new one
  int max_nodes = 128;   // boards with more nodes are not searched
  long budget = 60000;   // carrier combinations tried per build
  int local_cells = 20;  // decomposition regions up to this size get a local proof
  int local_plies = 2;   // opponent moves the local proof searches
  int local_builds = 32; // H-search builds one local proof may make
  bool narrowing = false; // past max_full/max_semi, keep carriers that narrow the intersection
  bool templates = false; // edge templates (solver/templates.h) as base connections
  int kept = 0;          // most builds kept for reuse, by position (a power of two; 0: none)
  uint64_t kept_bytes = 0;  // bytes the kept builds (their slots included) may hold
};

// Whether two sets are equal (word by word; faster than the defaulted ==).
template <int W>
inline bool same(const Bitboard<W>& a, const Bitboard<W>& b) {
  uint64_t d = 0;
  for (int k = 0; k < W; ++k) d |= a.w[k] ^ b.w[k];
  return d == 0;
}

// Whether a is a subset of b.
template <int W>
inline bool subset(const Bitboard<W>& a, const Bitboard<W>& b) {
  uint64_t d = 0;
  for (int k = 0; k < W; ++k) d |= a.w[k] & ~b.w[k];
  return d == 0;
}

// Whether a and b share a member.
template <int W>
inline bool meet(const Bitboard<W>& a, const Bitboard<W>& b) {
  uint64_t d = 0;
  for (int k = 0; k < W; ++k) d |= a.w[k] & b.w[k];
  return d != 0;
}

template <int W>
class VcBuilder {
 public:
  using BB = Bitboard<W>;

  // The most carriers a list holds: the OR rule marks a pair's semis in 64 bits.
  static constexpr int kMostCarriers = 64;

  explicit VcBuilder(VcSizes sizes = {}) : sz_(sizes), kept_(sizes.kept, sizes.kept_bytes) {
    sz_.max_semi = std::min(sz_.max_semi, kMostCarriers);
  }

  // H-search for colour c in `pos`, whose edges must not be joined yet.
  // Stops early once the edges are fully connected. With `from`, a position
  // `pos` grew from by stones alone whose build for c is kept, the build
  // starts from that one's connections (see `seed`) instead of nothing.
  EdgeConnection<W> build(const BoardInfo<W>& bi, const Pos<W>& pos, int c, const Pos<W>* from = nullptr) {
    EdgeConnection<W> out;
    const BB empty = bi.on_board.andnot(pos.stones[0] | pos.stones[1]);
    groups_ = find_groups(bi, pos.stones[c], empty, c);
    const Groups<W>& groups = groups_;
    built_ = false;
    ngroups_ = static_cast<int>(groups.members.size());
    n_ = ngroups_ + empty.count();
    node_cell_.assign(n_, -1);
    cell_node_.assign(64 * W, -1);
    for (int g = 0; g < ngroups_; ++g) {
      groups.members[g].for_each([&](int p) { cell_node_[p] = g; });
    }
    int id = ngroups_;
    empty.for_each([&](int p) {
      node_cell_[id] = p;
      cell_node_[p] = id++;
    });
    if (n_ > sz_.max_nodes) return out;  // too large: nothing found, still sound
    const size_t pairs = static_cast<size_t>(n_) * (n_ - 1) / 2;
    if (pairs_.size() < pairs) pairs_.resize(pairs);
    std::fill(pairs_.begin(), pairs_.begin() + pairs, Lists{});
    full_top_ = semi_top_ = 0;
    if (full_pool_.empty()) {
      full_pool_.resize(4096);
      semi_pool_.resize(8192);
      key_pool_.resize(8192);
    }
    partners_.assign(n_, {});
    full_partners_.assign(n_, {});
    queue_full_.clear();
    queue_semi_.clear();
    won_ = false;
    budget_ = sz_.budget;
    started_ = false;
    if (from && subset(from->stones[0], pos.stones[0]) && subset(from->stones[1], pos.stones[1])) {
      if (const std::vector<Item>* kept = find_kept(*from, c)) {
        seed(pos, c, *from, *kept);
        started_ = true;
      }
    }

    // Base connections: groups with their adjacent empty cells, adjacent empty
    // cells (after a seed, only those it did not bring are new).
    for (int g = 0; g < ngroups_; ++g) {
      groups.adjacent_empty[g].for_each([&](int p) { add_full(g, cell_node_[p], BB{}); });
    }
    empty.for_each([&](int p) {
      for (int d : {0, 4, 5}) {
        const int q = bi.nbr[p][d];
        if (q >= 0 && empty.test(q)) add_full(cell_node_[p], cell_node_[q], BB{});
      }
    });
    if (sz_.templates) add_templates(bi, pos, c, empty);
    closure();
    built_ = true;
    if (sz_.kept > 0 && !won_ && budget_ >= 0) keep(pos, c);

    const size_t e = index(0, 1);
    if (won_) {
      out.full = true;
      out.full_carrier = won_carrier_;
      return out;
    }
    const List& l = pairs_[e].semi;
    const BB* s = &semi_pool_[l.at];
    out.semis = l.n;
    BB inter = empty;
    int best = -1;
    for (int i = 0; i < l.n; ++i) {
      inter &= s[i];
      out.union_ |= s[i];
      out.keys.set(key_pool_[l.at + i]);
      if (best < 0 || s[i].count() < s[best].count()) best = i;
    }
    out.intersection = inter;
    if (best >= 0) {
      out.smallest = s[best];
      out.key = key_pool_[l.at + best];
    }
    return out;
  }

  // A VC decomposition after a build for colour c that did not join c's
  // edges (Henderson, Arneson and Hayward, "Solving 8x8 Hex", 2009): two
  // groups of c that both touch the same two opponent groups (or lie a
  // bridge away from them; an opponent's edge counts as a group, and c's
  // edges touch both of them at the corners) and are fully connected inside
  // the region they enclose (the empty cells c cannot reach from its other
  // edges without passing next to one of the two). Inside that ring the
  // opponent can only hope to join its two groups, which the connection
  // rules out, so filling the connection's carrier with c keeps the value of
  // the position. The connection is one of the build's full carriers, or,
  // for a small region, one that `joins_inside` proves with the whole region
  // as carrier. Returns the carrier, or an empty set.
  BB decomposition(const BoardInfo<W>& bi, const Pos<W>& pos, int c) {
    if (!built_ || won_ || ngroups_ < 3) return {};
    const BB empty = bi.on_board.andnot(pos.stones[0] | pos.stones[1]);
    const Groups<W> theirs = find_groups(bi, pos.stones[1 - c], empty, 1 - c);
    const int nt = std::min<int>(static_cast<int>(theirs.members.size()), 64);
    // Opponent groups each of our groups touches, as bits.
    std::vector<uint64_t> touch(ngroups_, 0);
    for (int g = 0; g < ngroups_; ++g) {
      // Touching, or a bridge away across two empty cells (as Benzene counts them).
      const BB around = (bi.grow(groups_.members[g]) & bi.on_board) | bridged(bi, groups_.members[g], empty);
      for (int h = 0; h < nt; ++h) {
        if (meet(around, theirs.members[h])) touch[g] |= uint64_t{1} << h;
      }
      if (meet(groups_.members[g], bi.edge1[1 - c])) touch[g] |= 1;  // on the opponent's edge lines
      if (meet(groups_.members[g], bi.edge2[1 - c])) touch[g] |= 2;
    }
    touch[0] |= 3;
    touch[1] |= 3;
    // Rings (their ends and region) small enough for a local proof, tried after the carriers.
    std::vector<std::tuple<int, int, BB>> local;
    for (int a = 0; a < ngroups_; ++a) {
      for (int b = std::max(a + 1, 2); b < ngroups_; ++b) {
        if (std::popcount(touch[a] & touch[b]) < 2) continue;
        const List& l = pairs_[index(a, b)].full;
        if (l.n == 0 && pairs_[index(a, b)].semi.n == 0) continue;
        const BB region = enclosed(bi, pos, c, a, b);
        for (int i = 0; i < l.n; ++i) {
          const BB& carrier = full_pool_[l.at + i];
          if (subset(carrier, region)) return carrier;
        }
        if (region.count() <= sz_.local_cells) local.emplace_back(a, b, region);
      }
    }
    for (const auto& [a, b, region] : local) {
      if (joins_inside(bi, pos, c, end_of(a), end_of(b), region)) return region;
    }
    return {};
  }

  // Whether colour c joins two ends (an edge, -1 or -2, or the group holding
  // a cell of c) using only the cells of `region`, even if the opponent moves
  // first there: a search of up to `sizes.local_plies` opponent moves, each
  // limited to the must-play region of c's semi connections between the ends
  // and answered by c's semi connection or a move of c's, with H-search on
  // the position where every empty cell outside `region` is the opponent's.
  // Sound, not complete; it stops after `sizes.local_builds` builds.
  bool joins_inside(const BoardInfo<W>& bi, const Pos<W>& pos, int c, int ea, int eb, const BB& region) {
    if (!local_) {
      VcSizes sizes = sz_;
      sizes.kept = 0;  // positions filled by the opponent: nothing to start from
      local_ = std::make_unique<VcBuilder>(sizes);
    }
    Pos<W> p = pos;
    const BB empty = bi.on_board.andnot(pos.stones[0] | pos.stones[1]);
    p.stones[1 - c] |= empty.andnot(region);
    int builds = 0;
    return local_->defends(bi, p, c, ea, eb, sz_.local_plies, builds);
  }

  // Cells a bridge away from `stones` across two empty cells.
  static BB bridged(const BoardInfo<W>& bi, const BB& stones, const BB& empty) {
    BB out;
    stones.for_each([&](int p) {
      for (int d = 0; d < 6; ++d) {
        const int x = bi.nbr[p][d], y = bi.nbr[p][(d + 1) % 6];
        if (x < 0 || y < 0 || !empty.test(x) || !empty.test(y)) continue;
        const int t = bi.nbr[x][(d + 1) % 6];
        if (t >= 0) out.set(t);
      }
    });
    return out;
  }

  // Turns the edge templates on or off for the next builds.
  void use_templates(bool on) { sz_.templates = on; }

  // Whether a build of colour c at `pos` is kept.
  bool has_kept(const Pos<W>& pos, int c) const { return find_kept(pos, c) != nullptr; }

  // Whether the last build started from a kept build.
  bool started() const { return started_; }

  // Whether the last build stopped on its work budget.
  bool ran_out() const { return budget_ < 0; }

  // Bytes held by the workspace, the kept builds and the local proofs' builder included.
  uint64_t memory() const {
    return pairs_.capacity() * sizeof(Lists) +
           (full_pool_.capacity() + semi_pool_.capacity()) * sizeof(BB) + key_pool_.capacity() * sizeof(int16_t) +
           kept_.memory() + (local_ ? local_->memory() : 0);
  }

 private:
  struct Item {
    int16_t a, b;
    int16_t key;  // -1 for a full connection
    BB carrier;
  };

  // The carriers of one pair of nodes: `n` of them from `at` in a pool, with
  // room for `cap` there. Lists start empty and move to a bigger slot at the
  // pool's top when full, so the carriers in use lie close together.
  struct List {
    uint32_t at = 0;
    uint8_t n = 0, cap = 0;
  };
  // The full and the semi carriers of one pair, side by side.
  struct Lists {
    List full, semi;
  };

  // Gives `l` room for one more carrier (its pool must hold at least `max`).
  void grow(List& l, std::vector<BB>& pool, size_t& top, int max, std::vector<int16_t>* keys) {
    const int cap = std::min(max, std::max(2, 2 * l.cap));
    if (top + cap > pool.size()) {
      pool.resize(std::max(2 * pool.size(), top + cap + 1024));
      if (keys) keys->resize(pool.size());
    }
    std::copy_n(pool.begin() + l.at, l.n, pool.begin() + top);
    if (keys) std::copy_n(keys->begin() + l.at, l.n, keys->begin() + top);
    l.at = static_cast<uint32_t>(top);
    l.cap = static_cast<uint8_t>(cap);
    top += cap;
  }

  bool is_group(int x) const { return x < ngroups_; }
  bool is_edge(int x) const { return x < 2; }
  // Triangular index of the unordered pair {a, b}, a != b.
  size_t index(int a, int b) const {
    if (a > b) std::swap(a, b);
    return static_cast<size_t>(b) * (b - 1) / 2 + a;
  }
  // Whether endpoint x may join a carrier C (a cell endpoint must stay out of it).
  bool outside(int x, const BB& c) const { return is_group(x) || !c.test(node_cell_[x]); }

  // The most carriers a list of capacity `max` may hold (more with `narrowing`).
  int most(int max) const { return sz_.narrowing ? std::max(max, kMostCarriers) : max; }
  // Whether list `l` (its carriers at `c0`, minimal, none a subset of c) takes c:
  // below its capacity always; at it, with `narrowing`, when c leaves out a
  // cell that every carrier of the list holds.
  bool room(const List& l, const BB* c0, const BB& c, int max) const {
    if (l.n < max) return true;
    if (!sz_.narrowing || l.n >= most(max)) return false;
    BB common = c0[0];
    for (int i = 1; i < l.n && common.any(); ++i) common &= c0[i];
    return !subset(common, c);
  }

  // Adds a full connection unless a subset is known; `queue` it for the closure.
  void add_full(int a, int b, const BB& c, bool queue = true) {
    const size_t e = index(a, b);
    List& l = pairs_[e].full;
    BB* f = &full_pool_[l.at];
    for (int i = 0; i < l.n; ++i) {
      if (subset(f[i], c)) return;  // an existing carrier is a subset
    }
    int k = 0;
    for (int i = 0; i < l.n; ++i) {
      if (!subset(c, f[i])) f[k++] = f[i];  // drop supersets of c
    }
    l.n = static_cast<uint8_t>(k);
    if (!room(l, f, c, sz_.max_full)) return;
    if (l.n == l.cap) grow(l, full_pool_, full_top_, most(sz_.max_full), nullptr);
    full_pool_[l.at + l.n++] = c;
    // Semis whose carrier contains c add nothing.
    List& ls = pairs_[e].semi;
    BB* s = &semi_pool_[ls.at];
    int16_t* ks = &key_pool_[ls.at];
    int m = 0;
    for (int i = 0; i < ls.n; ++i) {
      if (!subset(c, s[i])) {
        s[m] = s[i];
        ks[m++] = ks[i];
      }
    }
    ls.n = static_cast<uint8_t>(m);
    partners_[a].set(b);
    partners_[b].set(a);
    full_partners_[a].set(b);
    full_partners_[b].set(a);
    if ((a == 0 && b == 1) || (a == 1 && b == 0)) {
      if (!won_) won_carrier_ = c;
      won_ = true;
    }
    if (queue) queue_full_.push_back({static_cast<int16_t>(a), static_cast<int16_t>(b), -1, c});
  }

  // Adds a semi connection unless a subset is known; `queue` it for the closure.
  void add_semi(int a, int b, const BB& c, int key, bool queue = true) {
    const size_t e = index(a, b);
    const List& lf = pairs_[e].full;
    const BB* f = &full_pool_[lf.at];
    for (int i = 0; i < lf.n; ++i) {
      if (subset(f[i], c)) return;
    }
    List& l = pairs_[e].semi;
    BB* s = &semi_pool_[l.at];
    int16_t* ks = &key_pool_[l.at];
    for (int i = 0; i < l.n; ++i) {
      if (subset(s[i], c)) return;
    }
    int k = 0;
    for (int i = 0; i < l.n; ++i) {
      if (!subset(c, s[i])) {
        s[k] = s[i];
        ks[k++] = ks[i];
      }
    }
    l.n = static_cast<uint8_t>(k);
    if (!room(l, s, c, sz_.max_semi)) return;
    if (l.n == l.cap) grow(l, semi_pool_, semi_top_, most(sz_.max_semi), &key_pool_);
    semi_pool_[l.at + l.n] = c;
    key_pool_[l.at + l.n++] = static_cast<int16_t>(key);
    partners_[a].set(b);
    partners_[b].set(a);
    if (queue) queue_semi_.push_back({static_cast<int16_t>(a), static_cast<int16_t>(b), static_cast<int16_t>(key), c});
  }

  // Whether an item is still in its list (it may have been dropped as a superset).
  bool present(const Item& it) const {
    const size_t e = index(it.a, it.b);
    const List& l = it.key < 0 ? pairs_[e].full : pairs_[e].semi;
    const BB* c = it.key < 0 ? &full_pool_[l.at] : &semi_pool_[l.at];
    for (int i = 0; i < l.n; ++i)
      if (same(c[i], it.carrier)) return true;
    return false;
  }

  void closure() {
    size_t hf = 0, hs = 0;
    while (!won_ && budget_ > 0 && (hf < queue_full_.size() || hs < queue_semi_.size())) {
      if (hf < queue_full_.size()) {
        const Item it = queue_full_[hf++];
        if (present(it)) process_full(it);
      } else {
        const Item it = queue_semi_[hs++];
        if (present(it)) process_semi(it);
      }
    }
  }

  // AND of a new full (x, z, A) with every full and semi at its endpoints.
  void process_full(const Item& it) {
    for (int side = 0; side < 2 && !won_; ++side) {
      const int z = side ? it.b : it.a;  // middle
      const int o = side ? it.a : it.b;  // other endpoint
      if (is_edge(z)) continue;
      const BB& A = it.carrier;
      const BB zcell = is_group(z) ? BB{} : single(node_cell_[z]);
      // Through a cell only fulls combine; through a group semis too.
      (is_group(z) ? partners_ : full_partners_)[z].for_each([&](int w) {
        if (w == o || won_) return;
        // Carriers are read by index each time: the adds below may move the pools.
        const size_t e = index(z, w);
        const uint8_t nf = pairs_[e].full.n;
        if (!outside(w, A)) {  // no combination through w: count them as tried
          budget_ -= nf + (is_group(z) ? pairs_[e].semi.n : 0);
          return;
        }
        for (int i = 0; i < nf && !won_; ++i) {
          const BB B = full_pool_[pairs_[e].full.at + i];
          if (--budget_ < 0) return;
          if (meet(A, B) || !outside(o, B)) continue;
          if (is_group(z)) {
            add_full(o, w, A | B);
          } else {
            add_semi(o, w, A | B | zcell, node_cell_[z]);
          }
        }
        if (!is_group(z)) return;
        const uint8_t ns = pairs_[e].semi.n;
        for (int i = 0; i < ns && !won_; ++i) {
          const BB B = semi_pool_[pairs_[e].semi.at + i];
          const int k = key_pool_[pairs_[e].semi.at + i];
          if (--budget_ < 0) return;
          if (meet(A, B) || !outside(o, B)) continue;
          add_semi(o, w, A | B, k);
        }
      });
    }
  }

  // OR of a new semi with the other semis of its pair, and AND with fulls
  // through group endpoints.
  void process_semi(const Item& it) {
    const size_t e = index(it.a, it.b);
    // OR rule.
    or_rule(e, it.a, it.b, it.carrier);
    if (won_) return;
    for (int side = 0; side < 2 && !won_; ++side) {
      const int z = side ? it.b : it.a;
      const int o = side ? it.a : it.b;
      if (!is_group(z) || is_edge(z)) continue;
      const BB& A = it.carrier;
      full_partners_[z].for_each([&](int w) {
        if (w == o || won_) return;
        const size_t f = index(z, w);
        const uint8_t nf = pairs_[f].full.n;
        for (int i = 0; i < nf && !won_; ++i) {
          const BB B = full_pool_[pairs_[f].full.at + i];
          if (--budget_ < 0) return;
          if (meet(A, B) || !outside(o, B) || !outside(w, A)) continue;
          add_semi(o, w, A | B, it.key);
        }
      });
    }
  }

  // OR rule for a new semi of pair e: the sets of at most max_ors + 1 of the
  // pair's semis, the new one among them, whose carriers share no cell. For
  // each cell of the new carrier it first marks the semis that miss it.
  void or_rule(size_t e, int a, int b, const BB& carrier) {
    const int n = pairs_[e].semi.n;
    const BB* s = &semi_pool_[pairs_[e].semi.at];
    budget_ -= n;
    // A cell in every carrier is in every set's intersection: nothing to find.
    BB common = carrier;
    for (int i = 0; i < n; ++i) common &= s[i];
    if (common.any()) return;
    carrier.for_each([&](int x) {
      uint64_t m = 0;
      for (int i = 0; i < n; ++i) m |= uint64_t{!s[i].test(x)} << i;
      missing_[x] = m;
    });
    or_step(e, a, b, carrier, carrier, 1, 0);
  }

  // One step of the OR rule with `depth` semis taken; `inter` (not empty) and
  // `uni` are the intersection and union of their carriers. The semis that
  // miss all of `inter` finish a set; otherwise some semi without its first
  // cell must join, so only those are branched on. A branch leaves out the
  // semis its earlier siblings took and those that finished a set (every set
  // holding one of them was searched, or holds a set found), so each set is
  // tried once.
  void or_step(size_t e, int a, int b, const BB& inter, const BB& uni, int depth, uint64_t skip) {
    const int n = pairs_[e].semi.n;
    const uint64_t all = n == 64 ? ~uint64_t{0} : (uint64_t{1} << n) - 1;
    uint64_t done = all & ~skip;
    inter.for_each([&](int x) { done &= missing_[x]; });
    for (uint64_t d = done; d && !won_; d &= d - 1) {
      const BB& s = semi_pool_[pairs_[e].semi.at + std::countr_zero(d)];
      if (!meet(s, inter)) add_full(a, b, uni | s);  // checked again: a new full may have dropped semis
    }
    if (depth >= sz_.max_ors) return;
    skip |= done;
    for (uint64_t c = missing_[inter.first()] & all & ~skip; c && !won_; c &= c - 1) {
      if (--budget_ < 0) return;
      const int i = std::countr_zero(c);
      const BB s = semi_pool_[pairs_[e].semi.at + i];
      const BB i2 = inter & s;
      if (i2.any()) {
        or_step(e, a, b, i2, uni | s, depth + 1, skip);
      } else {
        add_full(a, b, uni | s);
      }
      skip |= uint64_t{1} << i;
    }
  }

  // Base connections of the edge templates that fit the position: an anchor
  // that is c's stone (its group) or empty (the cell), c's other stones of
  // the template in place and its carrier empty or c's (a stone of c there,
  // say one the fill-in gave c, only helps), fully connected to the edge.
  void add_templates(const BoardInfo<W>& bi, const Pos<W>& pos, int c, const BB& empty) {
    if (templates_rows_ != bi.rows || templates_cols_ != bi.cols) {
      for (int x = 0; x < 2; ++x) {
        for (int e = 0; e < 2; ++e) placed_[x][e] = placements(bi, x, e);
      }
      templates_rows_ = bi.rows;
      templates_cols_ = bi.cols;
    }
    const BB& own = pos.stones[c];
    const BB& opp = pos.stones[1 - c];
    for (int e = 0; e < 2; ++e) {
      const Placements<W>& pl = placed_[c][e];
      // Only a placement whose first other stone is one of c's can fit; the
      // fits are taken in the table's order, whatever the stones' order.
      fits_.clear();
      const auto test = [&](uint32_t i) {
        uint64_t bad = 0;  // one test per word, no branch: most placements fail
        for (int k = 0; k < W; ++k) bad |= (pl.open[i].w[k] & opp.w[k]) | (pl.stones[i].w[k] & ~own.w[k]);
        if (!bad) fits_.push_back(i);
      };
      for (uint32_t i : pl.lone) test(i);
      own.for_each([&](int p) {
        for (uint32_t i : pl.by_stone[p]) test(i);
      });
      std::sort(fits_.begin(), fits_.end());
      for (uint32_t i : fits_) {
        const int anchor = pl.anchor[i];
        const int node = cell_node_[anchor];  // the cell, or c's group holding it
        BB carrier = pl.open[i] & empty;
        carrier.reset(anchor);
        if (node >= 0 && node != e) add_full(node, e, carrier);
      }
    }
  }

  static BB single(int p) {
    BB b;
    b.set(p);
    return b;
  }

  // What names a kept build: its colour and position. Its items are its
  // carriers, with their ends named by a cell (the first stone of a group,
  // the cell itself) or -1 and -2 for the edges.
  struct KeptKey {
    int c = -1;
    BB stones[2];
    bool operator==(const KeptKey& o) const {
      return c == o.c && same(stones[0], o.stones[0]) && same(stones[1], o.stones[1]);
    }
  };

  // The kept build of colour c at `pos`, or null.
  const std::vector<Item>* find_kept(const Pos<W>& pos, int c) const {
    return kept_.find(stones_hash(pos, c), KeptKey{c, {pos.stones[0], pos.stones[1]}});
  }

  // The cell that names node x in a kept build.
  int16_t name_of(int x) const {
    if (x < 2) return static_cast<int16_t>(-1 - x);
    return static_cast<int16_t>(is_group(x) ? groups_.members[x].first() : node_cell_[x]);
  }

  // Keeps the build just made (its closure ran out neither of work nor of
  // news) in the slot of its position.
  void keep(const Pos<W>& pos, int c) {
    size_t count = 0;
    for (size_t e = 0; e < static_cast<size_t>(n_) * (n_ - 1) / 2; ++e) count += pairs_[e].full.n + pairs_[e].semi.n;
    std::vector<Item>* items = kept_.store(stones_hash(pos, c), KeptKey{c, {pos.stones[0], pos.stones[1]}}, count);
    if (!items) return;
    for (int b = 1; b < n_; ++b) {
      for (int a = 0; a < b; ++a) {
        const Lists& l = pairs_[index(a, b)];
        if (l.full.n + l.semi.n == 0) continue;
        const int16_t na = name_of(a), nb = name_of(b);
        for (int i = 0; i < l.full.n; ++i) items->push_back({na, nb, -1, full_pool_[l.full.at + i]});
        for (int i = 0; i < l.semi.n; ++i) {
          items->push_back({na, nb, key_pool_[l.semi.at + i], semi_pool_[l.semi.at + i]});
        }
      }
    }
  }

  // Starts a build of c at `pos` from the kept build (its `items`) of
  // `from`, a position `pos` grew from by stones alone. Each kept connection still holds unless the
  // opponent's new stones meet its carrier, key or ends: c's new stones only
  // help, leave its carrier, and make a semi whose key they took full. Ends
  // map to the nodes holding their cells. The closure needs to combine again
  // only what changed: connections whose carrier shrank, semis made full,
  // and those whose end is now part of a group holding a new stone of c,
  // except those of one old group (or the edge) that stands for it, whose
  // combinations with the rest come when the others are combined.
  void seed(const Pos<W>& pos, int c, const Pos<W>& from, const std::vector<Item>& items) {
    const BB own_new = pos.stones[c].andnot(from.stones[c]);
    const BB opp_new = pos.stones[1 - c].andnot(from.stones[1 - c]);
    // Per group: -3 when it holds no new stone, else the name that stands for it (-4: none yet).
    stands_.assign(ngroups_, -3);
    for (int g = 0; g < ngroups_; ++g) {
      if (meet(groups_.members[g], own_new)) stands_[g] = static_cast<int16_t>(g < 2 ? -1 - g : -4);
    }
    // The node of a name (-1 when gone) and whether it moved to a changed group.
    const auto node = [&](int16_t name, bool& moved) {
      moved = false;
      if (name < 0) return -1 - name;
      const int g = cell_node_[name];  // -1 for an opponent's stone
      if (g < 0 || g >= ngroups_ || stands_[g] == -3) return g;
      if (stands_[g] == -4 && from.stones[c].test(name)) stands_[g] = name;
      moved = stands_[g] != name;
      return g;
    };
    for (const Item& it : items) {
      if (meet(it.carrier, opp_new) || (it.key >= 0 && opp_new.test(it.key))) continue;
      bool moved_a, moved_b;
      const int a = node(it.a, moved_a), b = node(it.b, moved_b);
      if (a < 0 || b < 0 || a == b) continue;
      const bool shrunk = meet(it.carrier, own_new);
      const BB carrier = it.carrier.andnot(own_new);
      const bool queue = shrunk || moved_a || moved_b;
      if (it.key < 0 || own_new.test(it.key)) {
        add_full(a, b, carrier, queue);
      } else {
        add_semi(a, b, carrier, it.key, queue);
      }
    }
  }

  // A set of node ids (at most 128 used; bits beyond are never set).
  struct NodeSet {
    uint64_t w[4] = {0, 0, 0, 0};
    void set(int i) { w[i >> 6] |= uint64_t{1} << (i & 63); }
    template <class F>
    void for_each(F&& f) const {
      for (int k = 0; k < 4; ++k) {
        uint64_t b = w[k];
        while (b) {
          f(k * 64 + std::countr_zero(b));
          b &= b - 1;
        }
      }
    }
  };

  // The end of node x of the last build as `joins_inside` takes it.
  int end_of(int x) const { return x < 2 ? -1 - x : groups_.members[x].first(); }

  // The empty cells enclosed by c's groups a and b: those c cannot reach
  // from its edges other than a without passing next to a or b.
  BB enclosed(const BoardInfo<W>& bi, const Pos<W>& pos, int c, int a, int b) const {
    const BB empty = bi.on_board.andnot(pos.stones[0] | pos.stones[1]);
    const BB pass = (empty | pos.stones[c]).andnot(groups_.members[a] | groups_.members[b]);
    const BB stop = groups_.adjacent_empty[a] | groups_.adjacent_empty[b];
    BB seeds;
    for (int e = 0; e < 2; ++e) {
      if (e != a) seeds |= groups_.adjacent_empty[e] | groups_.members[e];
    }
    const BB inner = bi.flood(seeds.andnot(stop), pass.andnot(stop));
    const BB reached = seeds | inner | (bi.grow(inner) & pass);
    return empty.andnot(reached);
  }

  // The node of an end (see joins_inside) in the last build, or -1.
  int node_at(int end) const {
    if (end < 0) return -1 - end;
    return cell_node_[end] < ngroups_ ? cell_node_[end] : -1;
  }

  // How c's two ends stand after a build of p: kJoined (one node, or a
  // full connection), kSemi (only semi connections, in `semis`) or kApart.
  enum Link { kApart, kSemi, kJoined };
  Link link(const BoardInfo<W>& bi, const Pos<W>& p, int c, int ea, int eb, int& builds, List& semis) {
    ++builds;
    build(bi, p, c);
    const int a = node_at(ea), b = node_at(eb);
    if (a < 0 || b < 0) return kApart;
    if (a == b) return kJoined;
    const Lists& l = pairs_[index(a, b)];
    semis = l.semi;
    return l.full.n ? kJoined : l.semi.n ? kSemi : kApart;
  }

  // The opponent of c to move in p: whether c keeps its two ends joined
  // (see joins_inside); `plies` opponent moves are searched at most.
  bool defends(const BoardInfo<W>& bi, const Pos<W>& p, int c, int ea, int eb, int plies, int& builds) {
    List semis;
    const Link now = link(bi, p, c, ea, eb, builds, semis);
    if (now != kSemi) return now == kJoined;
    if (plies == 0 || builds >= sz_.local_builds) return false;
    BB must = bi.on_board.andnot(p.stones[0] | p.stones[1]);
    for (int i = 0; i < semis.n; ++i) must &= semi_pool_[semis.at + i];
    bool held = true;
    must.for_each([&](int k) {
      if (!held) return;
      Pos<W> q = p;
      q.stones[1 - c].set(k);
      held = answers(bi, q, c, ea, eb, k, plies - 1, builds);
    });
    return held;
  }

  // c to move in p after the opponent's move at k: whether c has a move
  // that keeps its ends joined (the cells next to k are tried first).
  bool answers(const BoardInfo<W>& bi, const Pos<W>& p, int c, int ea, int eb, int k, int plies, int& builds) {
    List semis;
    if (link(bi, p, c, ea, eb, builds, semis) != kApart) return true;  // a semi's key joins them
    if (plies == 0 || builds >= sz_.local_builds) return false;
    const BB empty = bi.on_board.andnot(p.stones[0] | p.stones[1]);
    const BB near = bi.grow(single(k)) & empty;
    bool found = false;
    auto attempt = [&](int r) {
      if (found || builds >= sz_.local_builds) return;
      Pos<W> q = p;
      q.stones[c].set(r);
      found = defends(bi, q, c, ea, eb, plies, builds);
    };
    near.for_each(attempt);
    empty.andnot(near).for_each(attempt);
    return found;
  }

  VcSizes sz_;
  Groups<W> groups_;    // the groups of the last build
  bool built_ = false;  // the last build ran its closure
  int n_ = 0, ngroups_ = 0;
  std::vector<int> node_cell_, cell_node_;
  std::vector<Lists> pairs_;  // per pair of nodes (see index)
  std::vector<BB> full_pool_, semi_pool_;
  std::vector<int16_t> key_pool_;  // the keys of semi_pool_
  size_t full_top_ = 0, semi_top_ = 0;
  std::vector<NodeSet> partners_;       // per node: the nodes it has a connection with
  std::vector<NodeSet> full_partners_;  // per node: those it has a full connection with
  std::vector<Item> queue_full_, queue_semi_;
  bool won_ = false;
  BB won_carrier_;
  long budget_ = 0;
  std::unique_ptr<VcBuilder> local_;  // builds of joins_inside
  Placements<W> placed_[2][2];  // per colour and edge: the templates' placements
  std::vector<uint32_t> fits_;  // placements that fit, in one scan
  int templates_rows_ = 0, templates_cols_ = 0;  // the board they were placed on
  std::array<uint64_t, 64 * W> missing_{};  // per cell: the OR rule pair's semis without it
  KeptSlots<KeptKey, Item> kept_;   // builds kept for reuse, by position (see keep)
  bool started_ = false;            // the last build started from a kept one
  std::vector<int16_t> stands_;     // seed: per group, the name standing for it
};

}  // namespace hexengine::solver
