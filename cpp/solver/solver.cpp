#include "solver/solver.h"

#include <algorithm>
#include <array>
#include <chrono>
#include <cmath>
#include <limits>
#include <memory>
#include <mutex>
#include <optional>
#include <thread>
#include <string>
#include <unordered_map>

#include "core/errors.h"
#include "core/notation.h"
#include "solver/knowledge.h"
#include "solver/vc.h"

namespace hexengine {

namespace solver {

namespace {

using Clock = std::chrono::steady_clock;

// Proof numbers: kInf marks a proven value; finite values stay below it.
constexpr uint32_t kInf = 0x3fffffff;
constexpr uint32_t kMaxFinite = kInf - 1;
constexpr double kEpsilon = 0.25;  // the 1+epsilon trick (Pawlewicz and Lew)
// H-search builds kept for the builds below them on the path to start from, and
// expansions whose children are kept for the returns to them (powers of
// two); each kind in at most 1/kKeptShare of `max_memory` (over the threads).
constexpr int kKeptBuilds = 4096;
constexpr uint64_t kBroods = 4096;
constexpr uint64_t kKeptShare = 8;

// The share of `max_memory` (one part in kWorkspaceShare) the tables leave
// for the threads' workspaces (H-search, the MID stack's children) to grow into.
constexpr uint64_t kWorkspaceShare = 16;

// Progressive widening (as in Benzene's df-pn): at a node, only the first
// kWidenBase + kWidenFactor * (live children) live children in move order count.
constexpr int kWidenBase = 2;
constexpr double kWidenFactor = 0.5;

// Move order: what one cell the fill-in after a move gives its player is
// worth next to the move's resistance score (see by_fill_gain).
constexpr float kFillWeight = 0.02f;

// A node's delta (what it takes to show that the player to move loses, who
// must lose after every move) from its children's: df-pn sums them, which
// counts a position reached by several moves more than once and makes a node
// with many moves look much harder than one with few; weak proof numbers
// (Ueda, Hashimoto, Hashimoto and Iida, 2008) take the largest plus one for
// each other child. In Hex, between the two: the largest, plus the others'
// sum over kOtherDeltaDivisor, and at least one for each other child not
// refuted; a child is searched until its own delta has grown by
// kOtherDeltaDivisor times what its parent's lacks of the threshold. Rex
// keeps the sum, which is the same rule with a divisor of 1 (there the blend
// multiplied the nodes of 6x6 a1 by five).
constexpr uint64_t kOtherDeltaDivisor = 2;

// VC decompositions filled in one expansion at most (each costs two H-search builds).
constexpr int kMaxDecompositions = 4;

uint32_t sat(uint64_t v) { return v >= kMaxFinite ? kMaxFinite : static_cast<uint32_t>(v); }

// A node's delta from its children's: their sum, the largest, and how many
// are not refuted, the others' sum counted over `divisor` (see
// kOtherDeltaDivisor; with 1 it is the sum, each live child's delta being at least 1).
uint64_t combined_delta(uint64_t sum, uint64_t largest, uint64_t live, uint64_t divisor) {
  return largest + std::max<uint64_t>(live > 0 ? live - 1 : 0, (sum - largest) / divisor);
}

// Hash table from 64-bit keys to values: open addressing with linear
// probing, growing by doubling while the search's memory budget allows; never
// evicts (a table full at the budget ends the search with MemoryLimit
// instead of losing work silently).
template <class V>
class HashTable {
 public:
  struct Entry {
    uint64_t key = 0;  // 0 marks an empty slot (keys are forced non-zero)
    V value{};
  };

  HashTable() { resize(1u << 10); }

  const V* find(uint64_t key) const {
    for (size_t i = key & mask_;; i = (i + 1) & mask_) {
      const Entry& e = slots_[i];
      if (e.key == key) return &e.value;
      if (e.key == 0) return nullptr;
    }
  }

  // Stores a value; false when the table is full and may not grow by
  // `room` more bytes.
  bool store(uint64_t key, const V& value, uint64_t room) {
    size_t i = key & mask_;
    for (;; i = (i + 1) & mask_) {
      Entry& e = slots_[i];
      if (e.key == key) {
        e.value = value;
        return true;
      }
      if (e.key == 0) break;
    }
    if ((size_ + 1) * 10 > slots_.size() * 7) {  // load above 0.7: grow if allowed
      if (bytes() <= room) {
        resize(slots_.size() * 2);
        return store(key, value, room - bytes() / 2);
      }
      if ((size_ + 1) * 10 > slots_.size() * 9) return false;  // full at the budget
    }
    slots_[i] = {key, value};
    ++size_;
    return true;
  }

  uint64_t bytes() const { return slots_.size() * sizeof(Entry); }
  uint64_t size() const { return size_; }

 private:
  void resize(size_t n) {
    std::vector<Entry> old;
    old.swap(slots_);
    slots_.assign(n, Entry{});
    mask_ = n - 1;
    size_ = 0;
    for (const Entry& e : old) {
      if (!e.key) continue;
      size_t i = e.key & mask_;
      while (slots_[i].key) i = (i + 1) & mask_;
      slots_[i] = e;
      ++size_;
    }
  }

  std::vector<Entry> slots_;
  size_t mask_ = 0;
  size_t size_ = 0;
};

// Proof and disproof numbers of a position for its player to move.
struct Value {
  uint32_t phi = 1, delta = 1;
  bool won() const { return phi == 0; }
  bool lost() const { return delta == 0; }
  bool proven() const { return phi == 0 || delta == 0; }
};

constexpr Value kWon{0, kInf};
constexpr Value kLost{kInf, 0};

// A canonical key and the symmetry that maps the position to it.
struct Key {
  uint64_t key = 0;
  int sym = 0;  // 0 none, 1 half turn, 2 transposition, 3 both
};

// Moves and must-play region of a position expanded with H-search, and the
// cells VC decompositions filled for the player to move and the other player
// (canonical frame).
template <int W>
struct Expansion {
  Bitboard<W> moves, region;
  Bitboard<W> fill[2];  // [0] the player to move's, [1] the other's
};

// The tables of a search: its own, or those all threads of a parallel search
// share (then every access holds `mutex`, and the first thread to finish
// the root sets `done`).
template <int W>
struct Tables {
  HashTable<Value> values;
  HashTable<Bitboard<W>> proofs;
  HashTable<Expansion<W>> expansions;
  std::unordered_map<uint64_t, int> busy;  // positions threads are searching, and how many threads
  bool shared = false;
  std::mutex mutex;
  std::atomic<bool> done{false};
  std::atomic<uint64_t> nodes{0};  // nodes of all threads together
  std::atomic<uint64_t> workspace{0};  // bytes of the threads' own workspaces (H-search, stacks)

  uint64_t bytes() const { return values.bytes() + proofs.bytes() + expansions.bytes(); }
};

template <int W>
class Search {
 public:
  using BB = Bitboard<W>;

  Search(const Rules& rules, const SolveLimits& limits)
      : bi_(make_geometry(rules.rows, rules.cols)),
        misere_(is_misere(rules.variant)),
        delta_divisor_(misere_ ? 1 : kOtherDeltaDivisor),
        k_(limits.knowledge),
        limits_(limits),
        budget_(limits.max_memory),
        own_(std::make_unique<Tables<W>>()),
        t_(own_.get()),
        kept_room_(limits.max_memory / kKeptShare / std::max(1, limits.threads)),
        vc_(VcSizes{.kept = kKeptBuilds, .kept_bytes = kept_room_}),
        start_(Clock::now()) {
    if (!k_.vc) k_.mustplay = k_.decompositions = k_.edge_templates = false;
    if (misere_) {  // Rex is not monotone
      k_.vc = k_.mustplay = k_.proof_sets = k_.decompositions = k_.edge_templates = k_.strategy_stealing = false;
      k_.permanently_inferior = false;
    }
    if (!bi_.square) k_.strategy_stealing = false;  // no reflection swaps the edges
    if (!misere_) k_.rex_pairing = false;
    vc_.use_templates(k_.edge_templates);
  }

  SolveResult run(const Board& red, const Board& blue, Color to_move) {
    SolveResult res;
    res.to_move = to_move;
    Pos<W> root;
    root.stones[0] = bi_.from_board(red);
    root.stones[1] = bi_.from_board(blue);
    root.mover = index_of(to_move);

    // Helpers (threads > 1) search from the root meanwhile, steering away
    // from the move being proven first; one that solves the root stops this.
    const int first_win = prove_first(root);
    const Value v = first_win >= 0 ? kWon : solve_position(root);
    if (t_->shared) {
      t_->done.store(true);  // the helpers stop; the winning moves below are this thread's alone
      aborting_ = false;
      root_done_ = true;
    }
    if (!stopped()) {
      const bool mover_wins = v.won();
      res.winner = mover_wins ? to_move : opponent(to_move);
      if (mover_wins) {
        res.best_move = first_win;
        if (first_win < 0 || limits_.winning_moves) find_winning_moves(root, res);
      } else {
        res.winning_moves_known = limits_.winning_moves;  // none: every move loses
      }
    }
    finish(res);
    return res;
  }

  // Numbers of `pos` for its player to move (after the fill-in, which may
  // pass the move in Rex, they are turned back to that player's terms).
  Value solve_position(Pos<W> pos) {
    const int mover = pos.mover;
    reduce_pos(pos);
    Value v;
    if (!terminal(pos, v)) {
      const Key k = hash(pos);
      mover_seen_ = false;  // no parent build here
      mid(pos, k, v, kInf, kInf);
      if (aborting_) v = lookup(k.key);  // another thread solved it
    }
    return pos.mover == mover ? v : Value{v.delta, v.phi};
  }

  bool stopped() const { return status_ != SolveStatus::Proven; }

  // Joins a parallel search over shared tables: the main thread (which
  // reports the result) or a helper.
  void share(Tables<W>* tables, bool helper) {
    t_ = tables;
    helper_ = helper;
  }

  // Helper thread: df-pn from the root over the shared tables, steering
  // away from positions other threads are in, until a thread solves the root.
  void help(const Board& red, const Board& blue, Color to_move) {
    Pos<W> root;
    root.stones[0] = bi_.from_board(red);
    root.stones[1] = bi_.from_board(blue);
    root.mover = index_of(to_move);
    const Value v = solve_position(root);
    if (v.proven() && !stopped()) t_->done.store(true);
  }

  // The first of the moves to prove first (public cells) that wins the
  // root, or -1 when none does (each is then refuted in the table) or the
  // search stopped.
  int prove_first(const Pos<W>& root) {
    for (int cell : limits_.first_moves) {
      Pos<W> child = root;
      child.stones[root.mover].set(bi_.layout_cell(cell));
      child.mover ^= 1;
      ++depth_;
      const Value v = solve_position(child);
      --depth_;
      if (stopped() || aborting_) break;
      if (v.lost()) return cell;
    }
    return -1;
  }

  void finish(SolveResult& res) {
    res.status = status_;
    if (stopped()) {
      res.winner.reset();
      res.winning_moves.clear();
      res.winning_moves_known = false;
      res.best_move = -1;
    }
    res.stats.nodes = nodes_;
    res.stats.seconds = std::chrono::duration<double>(Clock::now() - start_).count();
    res.stats.memory_bytes = std::max(peak_memory_, memory());
    res.stats.tt_entries = t_->values.size();
    const SolveStats nodes = res.stats;
    res.stats = counts_;
    res.stats.nodes = nodes.nodes;
    res.stats.seconds = nodes.seconds;
    res.stats.memory_bytes = nodes.memory_bytes;
    res.stats.tt_entries = nodes.tt_entries;
  }

 private:
  // Memory the tables may still grow into: the budget less what is used and
  // the share kept for the workspaces to grow into.
  uint64_t room() const {
    const uint64_t used = memory() + budget_ / kWorkspaceShare;
    return used >= budget_ ? 0 : budget_ - used;
  }

  uint64_t memory() const {
    if (t_->shared) return t_->bytes() + t_->workspace.load(std::memory_order_relaxed);
    return t_->bytes() + workspace();
  }

  // Bytes this thread holds besides the tables: H-search, the MID stack's
  // children and the kept children.
  uint64_t workspace() const {
    return vc_.memory() + stack_bytes_ + broods_.memory();
  }

  // The fill-in of `pos`; the carriers of its permanently inferior cells
  // go to `carrier`.
  int reduce_pos(Pos<W>& pos, BB* carrier = nullptr) const {
    if (!k_.dead && !k_.captured && !k_.permanently_inferior) return 0;
    BB unused;
    BB* inferior = k_.permanently_inferior ? (carrier ? carrier : &unused) : nullptr;
    return reduce(bi_, pos, k_.dead, k_.captured, misere_, inferior);
  }

  // Whether `pos` is decided without search; sets its value.
  bool terminal(const Pos<W>& pos, Value& v) const {
    const int j = joined_colour(bi_, pos);
    if (j < 0) return false;
    const bool mover_wins = misere_ ? (j != pos.mover) : (j == pos.mover);
    v = mover_wins ? kWon : kLost;
    return true;
  }

  // Whether a Hex position is its own image under a reflection of the
  // square board in a diagonal (the transposition, alone or with the half
  // turn) with the colours swapped. Its player to move then wins
  // (strategy stealing): if they lost, the other player would win it as the
  // player not to move, and so, by the symmetry, would they, and a stone of
  // theirs placed anywhere first never hurts them in Hex.
  bool self_mirrored(const Pos<W>& pos) const {
    if (pos.stones[0].count() != pos.stones[1].count()) return false;
    return same(image(pos.stones[0], 2), pos.stones[1]) || same(image(pos.stones[0], 3), pos.stones[1]);
  }

  // Image of layout index p under symmetry `sym` (each is its own inverse).
  int image(int p, int sym) const {
    if (sym & 1) p = bi_.rot[p];
    if (sym & 2) p = bi_.transp[p];
    return p;
  }

  BB image(const BB& set, int sym) const {
    if (!sym) return set;
    BB out;
    set.for_each([&](int p) { out.set(image(p, sym)); });
    return out;
  }

  uint64_t hash_image(const Pos<W>& pos, int sym) const {
    const bool swap = sym & 2;  // the transposition swaps the colours' roles
    uint64_t h = 0;
    for (int c = 0; c < 2; ++c) {
      const auto& z = bi_.zobrist[swap ? 1 - c : c];
      pos.stones[c].for_each([&](int p) { h ^= z[image(p, sym)]; });
    }
    if (swap ? !pos.mover : pos.mover) h ^= bi_.zobrist_blue_to_move;
    return h;
  }

  // Canonical key: the smallest key among the symmetric images of `pos`
  // (half turn; on square boards also the transposition with colours swapped).
  Key hash(const Pos<W>& pos) const {
    Key best{hash_image(pos, 0), 0};
    if (k_.symmetry) {
      for (int sym = 1; sym < (bi_.square ? 4 : 2); ++sym) {
        const uint64_t h = hash_image(pos, sym);
        if (h < best.key) best = {h, sym};
      }
    }
    if (!best.key) best.key = 1;
    return best;
  }

  bool check_limits() {
    if (stopped() || aborting_) return false;
    if (limits_.max_nodes && (t_->shared ? t_->nodes.load(std::memory_order_relaxed) : nodes_) >= limits_.max_nodes) {
      status_ = SolveStatus::NodeLimit;
      return false;
    }
    // The flags and the clock at every node: a node with H-search takes
    // milliseconds on 11x11, so 256 of them would overshoot a limit or an
    // interrupt by a large fraction of a second; reading them costs some 20 ns.
    if (t_->shared && !root_done_ && t_->done.load(std::memory_order_relaxed)) {
      aborting_ = !helper_;  // the main thread takes the result from the table
      if (helper_) status_ = SolveStatus::Stopped;
      return false;
    }
    if (limits_.stop && limits_.stop->load(std::memory_order_relaxed)) {
      status_ = SolveStatus::Stopped;
      return false;
    }
    if (limits_.max_seconds > 0 &&
        std::chrono::duration<double>(Clock::now() - start_).count() >= limits_.max_seconds) {
      status_ = SolveStatus::TimeLimit;
      return false;
    }
    // Memory at every node: the tables grow only into the room the
    // workspaces leave (see room()), and a workspace that grows past the
    // budget all the same ends the search.
    if (t_->shared) {  // tell the others what this thread's workspace holds now
      const uint64_t ws = workspace();
      if (ws != reported_ws_) t_->workspace.fetch_add(ws - reported_ws_);
      reported_ws_ = ws;
    }
    Lock lock(*t_);
    const uint64_t used = memory();
    peak_memory_ = std::max(peak_memory_, used);
    if (used > budget_) {
      status_ = SolveStatus::MemoryLimit;
      return false;
    }
    return true;
  }

  // Holds the tables' mutex when they are shared.
  struct Lock {
    explicit Lock(Tables<W>& t) : t_(t.shared ? &t : nullptr) {
      if (t_) t_->mutex.lock();
    }
    ~Lock() {
      if (t_) t_->mutex.unlock();
    }
    Tables<W>* t_;
  };

  // Marks a position as being searched by this thread while it lives.
  struct Busy {
    Busy(Search& s, uint64_t key) : s_(s.t_->shared ? &s : nullptr), key_(key) {
      if (!s_) return;
      Lock lock(*s_->t_);
      ++s_->t_->busy[key_];
    }
    ~Busy() {
      if (!s_) return;
      Lock lock(*s_->t_);
      auto it = s_->t_->busy.find(key_);
      if (--it->second == 0) s_->t_->busy.erase(it);
    }
    Search* s_;
    uint64_t key_;
  };

  // The numbers stored for a position, (1, 1) if none.
  Value lookup(uint64_t key) const {
    Lock lock(*t_);
    const Value* v = t_->values.find(key);
    return v ? *v : Value{};
  }

  // Whether the table holds numbers for a position.
  bool known(uint64_t key) const {
    Lock lock(*t_);
    return t_->values.find(key) != nullptr;
  }

  // Whether a thread is searching a position (asked of a child this thread
  // has not entered, so another thread).
  bool busy_elsewhere(uint64_t key) const {
    Lock lock(*t_);
    auto it = t_->busy.find(key);
    return it != t_->busy.end() && it->second > 0;
  }

  // The proof set stored for a position (canonical frame), if any.
  bool find_proof(uint64_t key, BB& out) const {
    Lock lock(*t_);
    const BB* p = t_->proofs.find(key);
    if (p) out = *p;
    return p != nullptr;
  }

  // The moves and region stored for a position expanded before, if any.
  bool find_expansion(uint64_t key, Expansion<W>& out) const {
    Lock lock(*t_);
    const Expansion<W>* e = t_->expansions.find(key);
    if (e) out = *e;
    return e != nullptr;
  }

  // Stores an expansion; false when the tables are full at the memory limit.
  bool store_expansion(uint64_t key, const Expansion<W>& e) {
    Lock lock(*t_);
    return t_->expansions.store(key, e, room());
  }

  void store(const Key& k, const Value& v) {
    Lock lock(*t_);
    if (t_->shared && !v.proven()) {  // never hide another thread's proof
      const Value* old = t_->values.find(k.key);
      if (old && old->proven()) return;
    }
    if (!t_->values.store(k.key, v, room()) && !stopped()) status_ = SolveStatus::MemoryLimit;
  }

  // Records the proof set of a proven position (in the canonical frame).
  void store_proof(const Key& k, const BB& proof) {
    if (!k_.proof_sets) return;
    const BB canonical = image(proof, k.sym);
    Lock lock(*t_);
    if (!t_->proofs.store(k.key, canonical, room()) && !stopped()) status_ = SolveStatus::MemoryLimit;
  }

  struct Child {
    int move;       // layout index (see BoardInfo)
    Pos<W> pos;     // after the move and the fill-in
    BB fills;       // cells the fill-in took (empty at the parent)
    Key key;
    bool same_mover;  // Rex fill-in passed the move back
    bool decided;
    bool mirrored = false;     // decided by strategy stealing (see self_mirrored)
    bool pruned = false;       // outside a sibling's proof set: loses
    bool proof_known = false;  // `proof` is set
    Value fixed;    // value when decided
    BB proof;       // cells the child's proof needs, fills included (parent frame)
  };

  // The moves worth trying at `start`, or a decided value with its proof set.
  // `region` is the union of the carriers that cut the moves down; `fill`
  // the cells VC decompositions give the player to move ([0]) and the other
  // player ([1]): the moves are those of `start` with them filled.
  bool expand(const Pos<W>& start, Value& decided, BB& proof, BB& moves, BB& region, BB fill[2]) {
    const int me = start.mover;
    Pos<W> pos = start;
    fill[0] = fill[1] = BB{};
    for (int round = 0;; ++round) {
      BB carrier;
      int owner = 0;
      if (expand_once(pos, decided, proof, moves, region, carrier, owner)) {
        proof |= fill[0] | fill[1];
        return true;
      }
      if (!carrier.any() || round == kMaxDecompositions) break;
      ++counts_.decomposed;
      pos.stones[owner] |= carrier;
      fill[owner == me ? 0 : 1] |= carrier;
      if (terminal(pos, decided)) {  // not expected (the region keeps off c's other edge), but final if so
        proof = fill[0] | fill[1];
        return true;
      }
    }
    region |= fill[0] | fill[1];
    return false;
  }

  // One expansion of `pos` without filling; when it finds a decomposition,
  // its carrier and owner come back in `carrier` and `owner`, and the moves
  // are left unpruned.
  bool expand_once(const Pos<W>& pos, Value& decided, BB& proof, BB& moves, BB& region, BB& carrier, int& owner) {
    const int me = pos.mover, you = 1 - me;
    const BB empty = bi_.on_board.andnot(pos.stones[0] | pos.stones[1]);
    // Counts describe first expansions only, as `expanded` does.
    const uint64_t first = counting_ ? 1 : 0;
    moves = empty;
    region = BB{};
    if (k_.rex_pairing) {
      // The player to move fills the last cell ("is last") when the number
      // of empty cells is odd. A join pairing loses for its owner whoever
      // moves; a pre-join pairing (a semi, with its key) loses for its owner
      // when that owner is last, and its key always loses for its owner.
      const bool last = (empty.count() % 2) == 1;
      const EdgeConnection<W> theirs = pairing_.build(bi_, pos, you);
      if (theirs.full || (!last && theirs.semis)) {
        counts_.rex_paired += first;
        decided = kWon;
        return true;
      }
      const EdgeConnection<W> mine = pairing_.build(bi_, pos, me);
      if (mine.full || (last && mine.semis)) {
        counts_.rex_paired += first;
        decided = kLost;
        return true;
      }
      moves = moves.andnot(mine.keys);
      if (!moves.any()) {
        counts_.rex_paired += first;
        decided = kLost;
        return true;
      }
    }
    if (k_.vc && !mover_seen_) {
      const EdgeConnection<W> mine = vc_.build(bi_, pos, me, kept_ancestor(me, 1));
      counts_.vc_budget_out += vc_.ran_out();
      if (mine.full || mine.semis) {
        counts_.vc_won += first;
        decided = kWon;
        proof = mine.full ? mine.full_carrier : mine.smallest;
        return true;
      }
      if (k_.decompositions) {
        carrier = vc_.decomposition(bi_, pos, me);
        owner = me;
        if (carrier.any()) return false;
      }
    }
    if (k_.vc) {
      const EdgeConnection<W> theirs = vc_.build(bi_, pos, you, kept_ancestor(you, 2));
      counts_.vc_budget_out += vc_.ran_out();
      if (theirs.full) {
        counts_.vc_lost += first;
        decided = kLost;
        proof = theirs.full_carrier;
        return true;
      }
      if (k_.mustplay && theirs.semis) {
        moves &= theirs.intersection;
        region = theirs.union_;
        if (!moves.any()) {
          counts_.mustplay_lost += first;
          decided = kLost;
          proof = theirs.union_;
          return true;
        }
      }
      if (k_.decompositions) {
        carrier = vc_.decomposition(bi_, pos, you);
        owner = you;
        if (carrier.any()) return false;
      }
    }
    counts_.no_mustplay += first * !(k_.mustplay && region.any());
    counts_.empty_cells += first * empty.count();
    counts_.mustplay_moves += first * moves.count();
    if (!misere_) {
      moves = prune_inferior(bi_, pos, moves, k_.dominated, k_.vulnerable, region);
    } else if (k_.dominated || k_.vulnerable) {
      moves = rex_prune_inferior(bi_, pos, moves, k_.dominated, k_.vulnerable);
      if (!moves.any()) {  // every move is at most as good as a losing one
        decided = kLost;
        return true;
      }
    }
    counts_.moves += first * moves.count();
    return false;
  }

  // The child of `pos` after a move at p and the fill-in; `extra` are cells
  // the parent's expansion filled before the move (they join the fills).
  void make_child(const Pos<W>& pos, int p, Child& ch, const BB& extra = {}) {
    ch.move = p;
    ch.pos = pos;
    ch.pos.stones[pos.mover].set(p);
    ch.pos.mover ^= 1;
    BB carrier;  // cells the permanently inferior fills need empty
    counts_.filled += reduce_pos(ch.pos, &carrier);
    ch.fills = (ch.pos.stones[0] | ch.pos.stones[1]).andnot(pos.stones[0] | pos.stones[1]);
    ch.fills.reset(p);
    ch.fills |= extra | carrier;
    ch.same_mover = ch.pos.mover == pos.mover;
    ch.decided = terminal(ch.pos, ch.fixed);
    // At the root only: the argument needs every cell in the proof set, and
    // deeper that proof would stop the proof sets above it pruning anything.
    ch.mirrored = !ch.decided && k_.strategy_stealing && depth_ == 0 && self_mirrored(ch.pos);
    if (ch.mirrored) {
      ch.decided = true;
      ch.fixed = kWon;  // for the child's player to move
    }
    if (!ch.decided) ch.key = hash(ch.pos);
  }

  // The children of `base` (with `filled` from the expansion) and `moves`,
  // in order, as made on an earlier visit: df-pn comes back to a node many
  // times, and each child costs a fill-in and the node a move order. Below
  // the root only (strategy stealing marks children there alone).
  bool recall_children(const Pos<W>& base, const BB& moves, const BB& filled, std::vector<Child>& children) const {
    if (depth_ == 0) return false;
    const std::vector<Child>* kept = broods_.find(stones_hash(base, base.mover), BroodKey{base, moves, filled});
    if (kept) children = *kept;
    return kept != nullptr;
  }

  // Keeps the children just made (see recall_children).
  void keep_children(const Pos<W>& base, const BB& moves, const BB& filled, const std::vector<Child>& children) {
    if (depth_ == 0) return;
    const uint64_t hash = stones_hash(base, base.mover);
    std::vector<Child>* kept = broods_.store(hash, BroodKey{base, moves, filled}, children.size());
    if (kept) kept->assign(children.begin(), children.end());
  }

  // Value of a child in its own terms.
  Value own_value(const Child& ch) const {
    if (ch.decided) return ch.fixed;
    return lookup(ch.key.key);
  }

  // Value of a child for the player to move at the parent: (phi, delta) of
  // "the parent's mover wins through this child".
  Value child_value(const Child& ch) const {
    if (ch.pruned) return kLost;
    const Value v = own_value(ch);
    return ch.same_mover ? v : Value{v.delta, v.phi};
  }

  // The proof set of a proven child, in the parent's frame, fills included;
  // all cells when unknown (then it prunes nothing).
  BB child_proof(const Child& ch) const {
    if (ch.mirrored) return bi_.on_board;  // the argument needs every cell
    if (ch.decided) return ch.fills;
    BB p;
    if (find_proof(ch.key.key, p)) return image(p, ch.key.sym) | ch.fills;
    return bi_.on_board;
  }

  // Order of moves for ties: nearer the centre first.
  int centrality(int p) const {
    const int r = p / bi_.stride, c = p % bi_.stride;
    const int dr = 2 * r - (bi_.rows - 1), dc = 2 * c - (bi_.cols - 1);
    return std::abs(dr) + std::abs(dc) + std::abs(dr + dc);
  }

  // The nearest position of the current path, `up` plies above this one or
  // a multiple of two more, whose build for colour c is kept (a build here
  // starts from it), or null.
  const Pos<W>* kept_ancestor(int c, size_t up) const {
    for (; up <= depth_ && depth_ - up < path_.size(); up += 2) {
      if (vc_.has_kept(path_[depth_ - up], c)) return &path_[depth_ - up];
    }
    return nullptr;
  }

  // Moves in the order to try them: by resistance, then centrality.
  std::vector<int> ordered(const Pos<W>& pos, const BB& moves) {
    std::vector<int> order;
    moves.for_each([&](int p) { order.push_back(p); });
    std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return centrality(a) < centrality(b); });
    if (order.size() > 1 && k_.vc) {  // worth its cost only next to H-search
      resistance_scores(bi_, pos, score_);
      std::stable_sort(order.begin(), order.end(), [&](int a, int b) { return score_[a] > score_[b]; });
    }
    return order;
  }

  // Hex: children whose fill-in gives the mover cells (captured cells, dead
  // cells joined to the mover's groups) move up the order: each cell the
  // mover gains, less each the opponent gains, adds kFillWeight to the
  // move's resistance score (which `ordered` has just computed).
  void by_fill_gain(std::vector<Child>& children, int me) const {
    if (misere_ || !k_.vc || children.size() < 2) return;
    auto key = [&](const Child& ch) {
      const int gain = (ch.fills & ch.pos.stones[me]).count() - (ch.fills & ch.pos.stones[1 - me]).count();
      return score_[ch.move] + kFillWeight * static_cast<float>(gain);
    };
    std::stable_sort(children.begin(), children.end(), [&](const Child& a, const Child& b) { return key(a) > key(b); });
  }

  // df-pn MID: searches `pos` until its numbers reach the thresholds.
  void mid(const Pos<W>& pos, const Key& key, Value& out, uint32_t th_phi, uint32_t th_delta) {
    ++nodes_;
    if (path_.size() <= depth_) path_.resize(depth_ + 1);
    path_[depth_] = pos;
    if (t_->shared) t_->nodes.fetch_add(1, std::memory_order_relaxed);
    if (counts_.nodes_by_depth.size() <= depth_) counts_.nodes_by_depth.resize(depth_ + 1);
    ++counts_.nodes_by_depth[depth_];
    counts_.max_depth = std::max<uint64_t>(counts_.max_depth, depth_);
    if (!check_limits()) {
      out = lookup(key.key);
      return;
    }
    Value decided;
    BB proof, moves, region, fill[2];
    Expansion<W> e;
    if (find_expansion(key.key, e)) {  // searched before: skip H-search
      counting_ = false;
      moves = image(e.moves, key.sym);
      region = image(e.region, key.sym);
      fill[0] = image(e.fill[0], key.sym);
      fill[1] = image(e.fill[1], key.sym);
    } else if (counting_ = !known(key.key), counts_.expanded += counting_,
               expand(pos, decided, proof, moves, region, fill)) {
      out = decided;
      store(key, out);
      store_proof(key, proof);
      return;
    } else if ((k_.vc || misere_) && !store_expansion(key.key, {image(moves, key.sym),
                                                   image(region, key.sym),
                                                   {image(fill[0], key.sym), image(fill[1], key.sym)}}) &&
               !stopped()) {
      status_ = SolveStatus::MemoryLimit;
    }
    // The position the moves are made in: `pos` with the decompositions filled.
    Pos<W> base = pos;
    base.stones[pos.mover] |= fill[0];
    base.stones[1 - pos.mover] |= fill[1];
    const BB filled = fill[0] | fill[1];
    const Busy busy(*this, key.key);
    std::vector<Child> children;
    if (!recall_children(base, moves, filled, children)) {
      const std::vector<int> order = ordered(base, moves);
      children.resize(order.size());
      for (size_t i = 0; i < order.size(); ++i) make_child(base, order[i], children[i], filled);
      by_fill_gain(children, pos.mover);
      if (counting_) {  // counts describe first expansions
        for (const Child& ch : children) counts_.mirrored += ch.mirrored;
      }
      keep_children(base, moves, filled, children);
    }
    stack_bytes_ += children.size() * sizeof(Child);
    BB candidates = moves;    // moves not yet shown to lose by a sibling's proof
    BB lost_proof = region;   // what the proof of a loss here needs
    int best = -1;
    for (;;) {
      // Proof sets of children lost for the mover cut the other moves down.
      if (k_.proof_sets) {
        bool cut = false;
        for (Child& ch : children) {
          if (ch.pruned || ch.proof_known) continue;
          const Value v = child_value(ch);
          if (v.phi < kInf) continue;  // not a proven loss for the mover
          ch.proof = child_proof(ch);
          ch.proof_known = true;
          lost_proof |= ch.proof;
          if (!subset(candidates, ch.proof)) {
            candidates &= ch.proof;
            cut = true;
          }
        }
        if (cut) {
          for (Child& ch : children) {
            if (!ch.pruned && !ch.proof_known && !candidates.test(ch.move)) ch.pruned = true;
          }
        }
      }
      // Progressive widening: only the first live children, in move order,
      // count; more come in as those are refuted.
      size_t limit = children.size();
      {
        int live = 0;
        for (const Child& ch : children) live += child_value(ch).phi < kInf;
        if (live >= 2 && k_.vc) {  // needs the resistance order
          const int look = kWidenBase + static_cast<int>(std::ceil(live * kWidenFactor));
          int seen = 0;
          for (size_t i = 0; i < children.size(); ++i) {
            if (child_value(children[i]).phi < kInf && ++seen == look) {
              limit = i + 1;
              break;
            }
          }
        }
      }
      // Numbers of this node from its children.
      uint64_t delta_sum = 0, delta_max = 0, live = 0;
      uint32_t phi_min = kInf, phi_second = kInf;
      uint32_t best_delta = 0;
      best = -1;
      for (size_t i = 0; i < limit; ++i) {
        const Value v = child_value(children[i]);
        delta_sum += v.delta;
        delta_max = std::max<uint64_t>(delta_max, v.delta);
        live += v.delta > 0;
        if (v.phi < phi_min) {
          phi_second = phi_min;
          phi_min = v.phi;
          best = static_cast<int>(i);
          best_delta = v.delta;
        } else if (v.phi < phi_second) {
          phi_second = v.phi;
        }
      }
      if (phi_min == 0) {
        out = kWon;
      } else if (phi_min >= kInf) {
        out = kLost;
      } else {
        out.phi = phi_min;
        out.delta = sat(combined_delta(delta_sum, delta_max, live, delta_divisor_));
      }
      if (out.proven() || out.phi >= th_phi || out.delta >= th_delta || stopped() || aborting_) break;
      // Thresholds for the most proving child, in its parent's terms.
      const uint64_t delta_room = delta_divisor_ * (th_delta - out.delta);
      uint64_t child_th_delta = best_delta + delta_room;
      uint64_t child_th_phi =
          phi_second >= kInf
              ? kInf
              : std::max<uint64_t>(phi_second + 1, static_cast<uint64_t>(phi_second * (1 + kEpsilon)));
      child_th_phi = std::min<uint64_t>(child_th_phi, th_phi);
      // In a parallel search, a child another thread is in gives way to the
      // next most proving one, searched with a little room past its numbers.
      if (t_->shared && busy_elsewhere(children[best].key.key)) {
        int alt = -1;
        uint32_t alt_phi = kInf;
        for (size_t i = 0; i < limit; ++i) {
          if (static_cast<int>(i) == best || children[i].decided || children[i].pruned) continue;
          const Value v = child_value(children[i]);
          if (v.phi > 0 && v.phi < alt_phi && v.phi < th_phi && !busy_elsewhere(children[i].key.key)) {
            alt = static_cast<int>(i);
            alt_phi = v.phi;
          }
        }
        if (alt >= 0) {
          const Value v = child_value(children[alt]);
          best = alt;
          child_th_delta = v.delta + delta_room;
          child_th_phi = std::min<uint64_t>(th_phi, std::max<uint64_t>(v.phi + 1, v.phi * (1 + kEpsilon)));
        }
      }
      const uint32_t tphi = static_cast<uint32_t>(std::min<uint64_t>(child_th_phi, kInf));
      const uint32_t tdelta = static_cast<uint32_t>(std::min<uint64_t>(child_th_delta, kInf));
      Child& ch = children[best];
      Value cv;
      // The child's own numbers: its phi is our delta unless it kept the move.
      ++depth_;
      // The parent's build for the child's mover saw that colour's
      // connections; the move lies in the intersection of their semis
      // between the edges (or they had none), so none survives it, and a
      // new one would most often need a stone the fill-in gave them.
      mover_seen_ = k_.mustplay && !ch.same_mover &&
                    !(ch.fills.andnot(filled) & ch.pos.stones[ch.pos.mover]).any();
      if (ch.same_mover) {
        mid(ch.pos, ch.key, cv, tphi, tdelta);
      } else {
        mid(ch.pos, ch.key, cv, tdelta, tphi);
      }
      --depth_;
    }
    stack_bytes_ -= children.size() * sizeof(Child);
    store(key, out);
    if (out.won()) {
      BB p = child_proof(children[best]);
      p.set(children[best].move);
      store_proof(key, p);
    } else if (out.lost()) {
      for (const Child& ch : children) {
        if (!ch.pruned) lost_proof |= ch.proof_known ? ch.proof : child_proof(ch);
      }
      store_proof(key, lost_proof);
    }
  }

  // After the root is won: the winning moves (all, or one) of the root position.
  void find_winning_moves(const Pos<W>& root, SolveResult& res) {
    const BB empty = bi_.on_board.andnot(root.stones[0] | root.stones[1]);
    std::vector<int> order = ordered(root, empty);
    // Try first the cells the search already knows to win (cheap table hits),
    // each looked up once: helper threads may still be writing the shared
    // table, and a comparison that changes its answer mid-sort breaks the sort.
    // Next the keys of the mover's semi connections between their edges,
    // which win by the connection (the root was most often decided by one).
    std::array<int, 64 * W> known{};
    const BB keys = semi_keys(root);
    for (int p : order) known[p] = known_win(root, p) ? 2 : keys.test(p) ? 1 : 0;
    // The moves to prove first go first, in their order, so that the first of
    // them that wins is the best move also when a helper solved the root
    // before prove_first was through with them.
    std::array<size_t, 64 * W> rank;
    rank.fill(limits_.first_moves.size());
    for (size_t i = limits_.first_moves.size(); i-- > 0;) rank[bi_.layout_cell(limits_.first_moves[i])] = i;
    std::stable_sort(order.begin(), order.end(),
                     [&](int a, int b) { return rank[a] != rank[b] ? rank[a] < rank[b] : known[a] > known[b]; });
    for (int p : order) {
      Pos<W> child = root;
      child.stones[root.mover].set(p);
      child.mover ^= 1;
      const Value v = solve_position(child);
      if (stopped()) return;
      if (v.lost()) {
        if (res.best_move < 0) res.best_move = bi_.public_cell(p);
        if (!limits_.winning_moves) return;
        res.winning_moves.push_back(bi_.public_cell(p));
      }
    }
    std::sort(res.winning_moves.begin(), res.winning_moves.end());
    res.winning_moves_known = limits_.winning_moves;
  }

  // The keys of the semi connections H-search finds between the edges of
  // the player to move at `pos` (after its fill-in); none in Rex or without
  // `vc`, or when that player's edges are fully connected or joined.
  BB semi_keys(const Pos<W>& pos) {
    if (!k_.vc) return {};
    Pos<W> p = pos;
    reduce_pos(p);
    Value v;
    if (terminal(p, v)) return {};
    return vc_.build(bi_, p, p.mover).keys;
  }

  int known_win(const Pos<W>& pos, int p) {
    Child ch;
    make_child(pos, p, ch);
    return child_value(ch).won() ? 1 : 0;
  }

  BoardInfo<W> bi_;
  bool misere_;
  uint64_t delta_divisor_;  // the others' deltas count over this (see kOtherDeltaDivisor)
  SolveKnowledge k_;
  SolveLimits limits_;
  uint64_t budget_;
  std::unique_ptr<Tables<W>> own_;  // the tables of a search on its own
  Tables<W>* t_;                     // the tables in use: own_, or those of a parallel search
  uint64_t kept_room_;  // bytes for each kind of kept work (see kKeptShare)
  VcBuilder<W> vc_;
  std::vector<Pos<W>> path_;  // the positions of the current MID calls, by depth
  // What names an expansion's kept children: the position and the expansion.
  struct BroodKey {
    Pos<W> pos;
    BB moves, filled;
    bool operator==(const BroodKey& o) const {
      return pos.mover == o.pos.mover && same(pos.stones[0], o.pos.stones[0]) && same(pos.stones[1], o.pos.stones[1]) &&
             same(moves, o.moves) && same(filled, o.filled);
    }
  };
  KeptSlots<BroodKey, Child> broods_{kBroods, kept_room_};  // the children of recent expansions
  VcBuilder<W> pairing_{VcSizes{.max_ors = 1}};  // Rex: ORs of two semis only, so fulls are pairings
  Clock::time_point start_;
  SolveStatus status_ = SolveStatus::Proven;
  uint64_t nodes_ = 0;
  uint64_t peak_memory_ = 0;
  uint64_t stack_bytes_ = 0;
  std::array<float, 64 * W> score_{};
  size_t depth_ = 0;     // plies below the root of the current MID call
  bool helper_ = false;    // a helper thread of a parallel search
  bool aborting_ = false;  // another thread solved the root: unwind, the table has the answer
  bool root_done_ = false;    // the main thread has the root's value (and searches on alone)
  uint64_t reported_ws_ = 0;  // this thread's workspace bytes as last added to the shared count
  SolveStats counts_;    // where the nodes went
  bool counting_ = true;  // the position expanded last is seen for the first time (false on a revisit)
  // The position about to be expanded is a child whose mover gained no stone
  // since its parent's H-search for that colour: its own build is skipped.
  bool mover_seen_ = false;
};

// Words of the solver's bitboards for a board: as many as its cells need
// (BoardInfo drops the guard column where the padded layout needs more).
int solver_words(int rows, int cols) { return (rows * cols + 63) / 64; }

// Runs `f` with a Search<W> of the smallest width that fits the board.
template <class F>
auto with_search(const Rules& rules, const SolveLimits& limits, F&& f) {
  switch (solver_words(rules.rows, rules.cols)) {
    case 1: { Search<1> s(rules, limits); return f(s); }
    case 2: { Search<2> s(rules, limits); return f(s); }
    case 3: { Search<3> s(rules, limits); return f(s); }
    case 4: { Search<4> s(rules, limits); return f(s); }
    case 5: { Search<5> s(rules, limits); return f(s); }
    default: { Search<6> s(rules, limits); return f(s); }
  }
}

// A parallel search: every thread runs df-pn from the root over one set of
// shared tables (bounded together by max_memory), each steering away from
// positions the others are in; this thread reports the result.
template <int W>
SolveResult solve_parallel(const Rules& rules, const Board& red, const Board& blue, Color to_move,
                           const SolveLimits& limits) {
  const int n = limits.threads;
  Tables<W> tables;
  tables.shared = true;
  std::vector<std::unique_ptr<Search<W>>> searches;
  for (int i = 0; i < n; ++i) {
    searches.push_back(std::make_unique<Search<W>>(rules, limits));
    searches.back()->share(&tables, i > 0);
  }
  std::vector<std::thread> helpers;
  for (int i = 1; i < n; ++i) {
    helpers.emplace_back([&, i] { searches[i]->help(red, blue, to_move); });
  }
  SolveResult res = searches[0]->run(red, blue, to_move);
  tables.done.store(true);
  for (std::thread& t : helpers) t.join();
  for (int i = 1; i < n; ++i) {
    SolveResult h;
    searches[i]->finish(h);
    res.stats.nodes += h.stats.nodes;
    res.stats.helper_nodes += h.stats.nodes;
    res.stats.memory_bytes = std::max(res.stats.memory_bytes, h.stats.memory_bytes);  // all threads' memory
  }
  return res;
}

void check_limits_valid(const SolveLimits& limits) {
  if (limits.threads < 1 || limits.threads > 64) {
    throw SolveError("threads must be from 1 to 64, not " + std::to_string(limits.threads));
  }
  if (!(limits.max_seconds >= 0) || !std::isfinite(limits.max_seconds)) {
    throw SolveError("max_seconds must be a finite number of seconds >= 0 (0 means no limit), not " +
                     std::to_string(limits.max_seconds));
  }
  if (limits.max_memory < (1ull << 20)) {
    throw SolveError("max_memory must be at least 1 MiB (1048576 bytes), not " +
                     std::to_string(limits.max_memory));
  }
}

}  // namespace

void check_position(const Rules& rules, const Board& red, const Board& blue) {
  if (is_dark(rules.variant)) {
    throw SolveError("cannot solve " + variant_name(rules.variant) +
                     ": Dark Hex hides stones, so it has no perfect-information solution; the solver "
                     "handles 'hex' and 'rex'");
  }
  const Geometry g = make_geometry(rules.rows, rules.cols);
  if ((red & blue).any()) throw SolveError("a cell holds both a red and a blue stone");
  if (red.andnot(g.on_board).any() || blue.andnot(g.on_board).any()) {
    throw SolveError("a stone lies off the " + std::to_string(g.rows) + "x" + std::to_string(g.cols) + " board");
  }
  for (Color c : {Color::Red, Color::Blue}) {
    if (joins_edges(g, c == Color::Red ? red : blue, c)) {
      throw SolveError(std::string("the position is finished: ") + color_name(c) + " has joined their edges");
    }
  }
}

}  // namespace solver

const char* status_name(SolveStatus s) {
  switch (s) {
    case SolveStatus::Proven: return "proven";
    case SolveStatus::NodeLimit: return "nodes";
    case SolveStatus::TimeLimit: return "time";
    case SolveStatus::MemoryLimit: return "memory";
    case SolveStatus::Stopped: return "stopped";
  }
  return "?";
}

SolveResult solve(const Rules& rules, const Board& red, const Board& blue, Color to_move, const SolveLimits& limits) {
  check_solve_request(rules, red, blue, limits);
  if (limits.threads > 1) {
    switch (solver::solver_words(rules.rows, rules.cols)) {
      case 1: return solver::solve_parallel<1>(rules, red, blue, to_move, limits);
      case 2: return solver::solve_parallel<2>(rules, red, blue, to_move, limits);
      case 3: return solver::solve_parallel<3>(rules, red, blue, to_move, limits);
      case 4: return solver::solve_parallel<4>(rules, red, blue, to_move, limits);
      case 5: return solver::solve_parallel<5>(rules, red, blue, to_move, limits);
      default: return solver::solve_parallel<6>(rules, red, blue, to_move, limits);
    }
  }
  return solver::with_search(rules, limits, [&](auto& s) { return s.run(red, blue, to_move); });
}

void check_solve_request(const Rules& rules, const Board& red, const Board& blue, const SolveLimits& limits) {
  solver::check_limits_valid(limits);
  solver::check_position(rules, red, blue);
  const Geometry g = make_geometry(rules.rows, rules.cols);
  for (int cell : limits.first_moves) {
    if (cell < 0 || cell >= g.cells) {
      throw SolveError("a move to prove first, " + std::to_string(cell) + ", is not a cell of the " +
                       std::to_string(g.rows) + "x" + std::to_string(g.cols) + " board (0 to " +
                       std::to_string(g.cells - 1) + ")");
    }
    if ((red | blue).test(g.padded(cell))) {
      throw SolveError("a move to prove first, " + cell_name(g, cell) + ", is on a " +
                       (red.test(g.padded(cell)) ? "red" : "blue") + " stone");
    }
  }
}

void check_game_request(const Game& game, const SolveLimits& limits) {
  const Rules& rules = game.rules();
  solver::check_limits_valid(limits);
  if (is_dark(rules.variant)) solver::check_position(rules, Board{}, Board{});  // throws
  if (game.is_over()) {
    throw SolveError("the game is over (" + std::string(color_name(*game.winner())) + " won): nothing to solve");
  }
  if (rules.swap != SwapForm::Off && game.history().empty()) {
    throw SolveError("the swap rule is still to come: who ends up with which colour is undecided before the "
                     "first move, so solve after Red's first stone, or play with swap='off'");
  }
  check_solve_request(rules, game.stones(Color::Red), game.stones(Color::Blue), limits);
}

SolveResult solve_game(const Game& game, const SolveLimits& limits) {
  check_game_request(game, limits);
  const Rules& rules = game.rules();
  const Color me = *game.to_move();
  if (!game.swap_available()) {
    return solve(rules, game.stones(Color::Red), game.stones(Color::Blue), me, limits);
  }
  // Swap available now: one more move for the player to move (Blue).
  SolveResult plain = solve(rules, game.stones(Color::Red), game.stones(Color::Blue), me, limits);
  if (plain.status != SolveStatus::Proven) return plain;
  if (rules.swap == SwapForm::Sides) {
    // Same board, Blue to move, but the mover now plays Red: swapping wins
    // exactly when Red wins the position.
    plain.swap_wins = plain.winner == Color::Red;
    if (plain.swap_wins) plain.best_move = -2;
    return plain;
  }
  Game swapped = game;
  swapped.swap();
  SolveLimits rest = limits;
  rest.first_moves.clear();  // the guesses were for the player who swapped, not for the one to move after
  if (limits.max_nodes) {
    rest.max_nodes = limits.max_nodes > plain.stats.nodes ? limits.max_nodes - plain.stats.nodes : 1;
  }
  if (limits.max_seconds > 0) {
    rest.max_seconds = std::max(1e-9, limits.max_seconds - plain.stats.seconds);
  }
  SolveResult after = solve(rules, swapped.stones(Color::Red), swapped.stones(Color::Blue), *swapped.to_move(), rest);
  SolveResult out = plain;
  out.stats.nodes += after.stats.nodes;
  out.stats.seconds += after.stats.seconds;
  out.stats.memory_bytes = std::max(out.stats.memory_bytes, after.stats.memory_bytes);
  out.stats.tt_entries += after.stats.tt_entries;
  if (after.status != SolveStatus::Proven) {
    out.status = after.status;
    out.winner.reset();
    out.winning_moves.clear();
    out.winning_moves_known = false;
    out.best_move = -1;
    return out;
  }
  out.swap_wins = after.winner == me;  // the mover keeps their colour in the pieces form
  if (out.swap_wins) {
    out.winner = me;
    if (out.best_move < 0) out.best_move = -2;
  }
  return out;
}

namespace {

// The game a view's record leads to, when it leads to the board the view
// shows; else the view's stones, after the checks `solve` makes of them.
std::optional<Game> view_request(const View& view, const SolveLimits& limits, std::array<Board, 2>& stones) {
  if (is_dark(view.rules.variant)) solver::check_position(view.rules, Board{}, Board{});  // throws
  Game game = replay(view.rules, view.history, view.history.size());
  if (game.board() == view.board) {
    check_game_request(game, limits);
    return game;
  }
  if (view.rules.swap != SwapForm::Off) {
    throw SolveError("the view's record does not lead to the board it shows, and with the swap rule on the "
                     "solver needs the record");
  }
  if (!view.to_move) throw SolveError("the game is over: nothing to solve");
  stones = shown_stones(view, game.geometry());
  check_solve_request(view.rules, stones[0], stones[1], limits);
  return std::nullopt;
}

}  // namespace

void check_view_request(const View& view, const SolveLimits& limits) {
  std::array<Board, 2> stones;
  view_request(view, limits, stones);
}

SolveResult solve_view(const View& view, const SolveLimits& limits) {
  std::array<Board, 2> stones;
  const std::optional<Game> game = view_request(view, limits, stones);
  if (game) return solve_game(*game, limits);
  return solve(view.rules, stones[0], stones[1], *view.to_move, limits);
}

SolveKnowledge knowledge_from_names(const std::vector<std::string>& names) {
  SolveKnowledge k;
  for (const KnowledgeName& piece : kKnowledgeNames) k.*piece.on = false;
  for (const std::string& n : names) {
    const auto* piece = std::find_if(std::begin(kKnowledgeNames), std::end(kKnowledgeNames),
                                     [&](const KnowledgeName& p) { return n == p.name; });
    if (piece == std::end(kKnowledgeNames)) {
      std::string expected;
      for (const KnowledgeName& p : kKnowledgeNames) {
        expected += (expected.empty() ? "'" : ", '") + std::string(p.name) + "'";
      }
      throw SolveError("unknown solver knowledge '" + n + "': expected some of " + expected);
    }
    k.*piece->on = true;
  }
  if (k.mustplay && !k.vc) throw SolveError("knowledge 'mustplay' needs 'vc' (the must-play region comes from it)");
  return k;
}

}  // namespace hexengine
