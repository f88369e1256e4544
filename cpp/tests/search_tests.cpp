// Unit tests of the search layer (cpp/search/) without Python: the node pool,
// pattern keys, playouts and the swindle.
// Build and run: cmake -B build/cpp && cmake --build build/cpp && ctest --test-dir build/cpp
#include <algorithm>
#include <cstdio>
#include <cstdlib>
#include <random>
#include <thread>
#include <vector>

#include "core/errors.h"
#include "core/game.h"
#include "search/arena.h"
#include "search/patterns.h"
#include "search/playout.h"
#include "search/puct.h"
#include "search/puct_tree.h"
#include "search/search.h"
#include "search/swindle.h"
#include "search/vector_env.h"
#include "solver/solver.h"

#include "tests/check.h"

using namespace hexengine;

namespace {

Game make(Variant v, int rows, int cols, SwapForm s = SwapForm::Off) { return Game(make_rules(v, rows, cols, s)); }

Rules rules(Variant v, int rows, int cols) { return make_rules(v, rows, cols, SwapForm::Off); }

template <class F>
bool throws_solve_error(F&& f) {
  try {
    f();
  } catch (const SolveError&) {
    return true;
  }
  return false;
}

// The node pool hands out disjoint zeroed blocks, each inside one chunk, from
// one thread or several (whose spare chunks are made outside the lock), and
// hands out nothing beyond its budget.
void test_arena() {
  struct Tag {
    uint32_t owner = 0;
  };
  using Pool = Arena<Tag, int16_t>;
  constexpr uint32_t kThreads = 2, kBlocks = 6000;
  const uint64_t budget = 4 * Pool::kChunk;
  Pool pool(budget);
  std::vector<std::vector<std::pair<uint32_t, uint32_t>>> got(kThreads);
  auto work = [&](uint32_t t) {
    std::mt19937 rng(t);
    for (uint32_t b = 0; b < kBlocks; ++b) {
      const uint32_t count = 1 + rng() % 130, first = pool.allocate(count);
      if (first == kNoNode) break;
      got[t].push_back({first, count});
      for (uint32_t i = first; i < first + count; ++i) {
        CHECK(pool[i].owner == 0 && pool.get<int16_t>(i) == 0);
        pool[i].owner = t + 1;
        pool.get<int16_t>(i) = static_cast<int16_t>(t + 1);
      }
    }
  };
  std::vector<std::thread> threads;
  for (uint32_t t = 0; t < kThreads; ++t) threads.emplace_back(work, t);
  for (auto& th : threads) th.join();
  std::vector<std::pair<uint32_t, uint32_t>> all;
  uint64_t handed = 0;
  for (uint32_t t = 0; t < kThreads; ++t) {
    for (auto [first, count] : got[t]) {
      CHECK((first & (Pool::kChunk - 1)) + count <= Pool::kChunk);  // one chunk
      CHECK(pool.begin_of(first) + (count - 1) == &pool[first + count - 1]);
      CHECK(pool.begin_of<int16_t>(first) == &pool.get<int16_t>(first));
      for (uint32_t i = first; i < first + count; ++i) {
        CHECK(pool[i].owner == t + 1 && pool.get<int16_t>(i) == static_cast<int16_t>(t + 1));
      }
      all.push_back({first, count});
      handed += count;
    }
  }
  std::sort(all.begin(), all.end());
  for (size_t k = 1; k < all.size(); ++k) CHECK(all[k - 1].first + all[k - 1].second <= all[k].first);
  CHECK(handed == pool.used() && handed <= budget && handed > budget - 130 * kThreads - Pool::kChunk);
  CHECK(pool.allocate(1) == kNoNode);  // the budget is spent: it stays spent
}

// Pattern keys read the board as the player to move sees it: Blue's key of a
// cell is Red's key of the mirrored cell on the transposed board with the
// colours exchanged, a half turn of the board turns every key, and cells off
// the board read as kPatOff.
void test_patterns() {
  const int n = 7;
  const Geometry g = make_geometry(n, n);
  const PatternReader reader(g);
  std::mt19937 rng(5);
  for (int trial = 0; trial < 200; ++trial) {
    std::vector<uint8_t> cells(kMaxBits, 0), transposed(kMaxBits, 0), turned(kMaxBits, 0);
    for (int r = 0; r < n; ++r) {
      for (int c = 0; c < n; ++c) {
        const uint8_t x = static_cast<uint8_t>(rng() % 3);
        cells[g.padded(r, c)] = x;
        transposed[g.padded(c, r)] = static_cast<uint8_t>(x == 0 ? 0 : 3 - x);
        turned[g.padded(n - 1 - r, n - 1 - c)] = x;
      }
    }
    for (int r = 0; r < n; ++r) {
      for (int c = 0; c < n; ++c) {
        const int p = g.padded(r, c), t = g.padded(c, r), h = g.padded(n - 1 - r, n - 1 - c);
        for (Color mover : {Color::Red, Color::Blue}) {
          const uint32_t key = reader.key(cells.data(), p, mover);
          CHECK(key < (1u << kPatternBits));
          CHECK(reader.key(transposed.data(), t, opponent(mover)) == key);
          CHECK(reader.key(turned.data(), h, mover) == turned_key(key));
          CHECK(canonical_key(turned_key(key)) == canonical_key(key));
          CHECK(inner_key(turned_key(key)) == inner_key(key));
        }
      }
    }
  }
  // At a1 (the top-left corner) only the steps right, down and down-right stay on the board.
  std::vector<uint8_t> empty(kMaxBits, 0);
  uint32_t corner = 0;
  for (int i = 0; i < kPatternCells; ++i) corner |= (i == 0 || i == 1 || i == 3 ? kPatEmpty : kPatOff) << (2 * i);
  CHECK(reader.key(empty.data(), g.padded(0, 0), Color::Red) == corner);
  CHECK(reader.key(empty.data(), g.padded(0, 0), Color::Blue) == corner);
  CHECK(reader.key(empty.data(), g.padded(3, 3), Color::Blue) == 0);
  // Where the last move lies.
  auto last_move = [&](int p, int last) {
    std::vector<LastMove> near(kMaxBits, LastMove::Elsewhere);
    reader.mark_last(near.data(), last, true);
    const LastMove where = near[p];
    reader.mark_last(near.data(), last, false);
    CHECK(std::count(near.begin(), near.end(), LastMove::Elsewhere) == kMaxBits);  // put back
    return where;
  };
  CHECK(last_move(g.padded(3, 3), g.padded(3, 4)) == LastMove::Adjacent);
  CHECK(last_move(g.padded(3, 3), g.padded(4, 4)) == LastMove::Bridge);
  CHECK(last_move(g.padded(3, 3), g.padded(3, 5)) == LastMove::Elsewhere);
  CHECK(last_move(g.padded(3, 3), -1) == LastMove::Elsewhere);
}

// random_playouts refuses a thread count outside 1..kMaxThreads (it used to
// treat 0 as 1 silently) and counts every game on a valid one.
void test_playout_threads() {
  const Game game = make(Variant::Hex, 3, 3);
  for (int threads : {0, -1, kMaxThreads + 1}) {
    bool refused = false;
    try {
      random_playouts(game, 10, 1, threads);
    } catch (const ConfigError&) {
      refused = true;
    }
    CHECK(refused);
  }
  const PlayoutCounts counts = random_playouts(game, 100, 1, 2);
  CHECK(counts.wins[0] + counts.wins[1] == 100);
}

// The swindle refuses what the solver refuses, ranks every first move of the
// lost 3x3 Rex board (each proven lost), and returns a win when there is one.
void test_swindle() {
  const Geometry g = make_geometry(3, 3);
  SolveLimits l;
  const Rules rex = rules(Variant::Rex, 3, 3), hex = rules(Variant::Hex, 3, 3);
  CHECK(throws_solve_error(
      [&] { find_swindle(make_rules(Variant::Dark, 3, 3, SwapForm::Off), {}, {}, Color::Red, l, 0, 100, 1); }));
  CHECK(throws_solve_error([&] { find_swindle(rex, {}, {}, Color::Red, l, 0, 0, 1); }));
  Board col;
  for (int r = 0; r < 3; ++r) col.set(g.padded(r, 0));
  CHECK(throws_solve_error([&] { find_swindle(hex, col, {}, Color::Blue, l, 0, 100, 1); }));
  const Swindle s = find_swindle(rex, {}, {}, Color::Red, l, 0, 1000, 1);
  CHECK(s.move >= 0 && !s.wins && s.classified == 9);
  CHECK(std::all_of(s.proven.begin(), s.proven.end(), [](int8_t p) { return p == -1; }));
  CHECK(s.trap > -1.0 && s.winning_replies == 7);
  const Swindle w = find_swindle(hex, {}, {}, Color::Red, l, 0, 100, 1);  // the first player wins 3x3 Hex
  CHECK(w.wins && w.move >= 0 && w.proven[w.move] == 1);
  Board two;  // Red a1 a2: a3 completes the chain, a win in Hex, a loss in Rex
  two.set(g.padded(0, 0));
  two.set(g.padded(1, 0));
  Board blue;
  blue.set(g.padded(0, 1));
  blue.set(g.padded(1, 1));
  CHECK(find_swindle(hex, two, blue, Color::Red, l, 0, 100, 1).wins);
}

// The batched environment plays every game as the referee would, whatever the threads.
void test_vector_env() {
  const Rules r = rules(Variant::Dark, 4, 4);
  std::vector<std::vector<float>> rewards_by_threads;
  for (int threads : {1, 2}) {
    VectorEnv env(r, 7, threads, 5);
    std::vector<Game> games(7, Game(r));
    std::vector<int64_t> actions(7);
    std::vector<float> rewards(7), all;
    std::vector<uint8_t> ended(7);
    for (int step = 0; step < 60; ++step) {
      env.sample_actions(actions.data());
      env.step(actions.data(), rewards.data(), reinterpret_cast<bool*>(ended.data()), EnvOutputs{});
      for (int i = 0; i < 7; ++i) {
        const Color mover = *games[i].to_move();
        games[i].apply(actions[i]);
        CHECK(games[i].is_over() == static_cast<bool>(ended[i]));
        if (games[i].is_over()) {
          CHECK(rewards[i] == (*games[i].winner() == mover ? 1.0f : -1.0f));
          games[i] = Game(r);
        }
      }
      all.insert(all.end(), rewards.begin(), rewards.end());
    }
    rewards_by_threads.push_back(all);
  }
  CHECK(rewards_by_threads[0] == rewards_by_threads[1]);
}

// An evaluator whose prior sits on one action.
struct Favouring final : Evaluator {
  int action;
  explicit Favouring(int a) : action(a) {}
  void evaluate(const float*, const bool* masks, int batch, float* priors, float* values) override {
    for (int b = 0; b < batch; ++b) {
      for (int a = 0; a < 26; ++a) priors[b * 26 + a] = masks[b * 26 + a] && a == action ? 1.0f : 0.001f;
      values[b] = 0.0f;
    }
  }
};

// The evaluator search follows the priors, and finds a win in one with flat ones.
void test_puct() {
  PuctParams p;
  p.simulations = 300;
  p.batch_size = 8;
  Game game = make(Variant::Hex, 5, 5);
  game.play(12);
  Favouring favour(7);
  CHECK(PuctSearch(p).search(game.view(Color::Blue), favour).best == 7);
  Game win = make(Variant::Hex, 5, 5);
  for (int cell : {0, 4, 5, 9, 10, 14, 15, 19}) win.play(cell);  // Red a1-a4, Blue e1-e4
  Favouring flat(-1);
  const SearchResult r = PuctSearch(p).search(win.view(Color::Red), flat);
  CHECK(r.best == 20 && r.value > 0.5 && r.evaluator.batches > 0 && r.evaluator.evaluated <= r.simulations);
}

// Tree reuse: a search that continues the game starts from the kept subtree,
// laid out anew (children linked, waiting nodes new again, no virtual loss).
void test_puct_reuse() {
  PuctNodes tree;
  tree.nodes.resize(5);
  tree.edges = {{1, 5, 0.5f, 1.0f, 3, 0}, {2, 2, 0.5f, 0.0f, 7, 1}, {3, 3, 0.5f, 2.0f, 4, 2}, {-1, 1, 0.5f, 0.0f, 5, 0}};
  tree.nodes[0] = {0, 2, 7, -1, 0, PuctNode::kExpanded, Color::Red, 0.0f};
  tree.nodes[1] = {2, 2, 4, -1, 0, PuctNode::kExpanded, Color::Blue, 0.0f};
  tree.nodes[2] = {-1, 0, 0, -1, 0, PuctNode::kWaiting, Color::Blue, 0.0f};
  tree.nodes[3] = {-1, 0, 0, 4, 0, PuctNode::kTerminal, Color::Red, 1.0f};
  tree.nodes[4] = {-1, 0, 0, -1, 1, PuctNode::kNew, Color::Red, 0.0f};
  const PuctNodes under = subtree(tree, {3});
  CHECK(under.nodes.size() == 3 && under.edges.size() == 2);
  CHECK(under.nodes[0].first == 0 && under.nodes[0].count == 2 && under.nodes[0].visits == 4);
  CHECK(under.edges[0].action == 4 && under.edges[0].child == 1 && under.edges[0].virtual_loss == 0);
  CHECK(under.edges[1].action == 5 && under.edges[1].child == -1 && under.edges[1].visits == 1);
  CHECK(under.nodes[1].kind == PuctNode::kTerminal && under.nodes[1].sibling == 2 && under.nodes[1].value == 1.0f);
  CHECK(under.nodes[2].key == 1 && under.nodes[2].sibling == -1);
  const PuctNodes waiting = subtree(tree, {7});
  CHECK(waiting.nodes.size() == 1 && waiting.nodes[0].kind == PuctNode::kNew && waiting.edges.empty());
  CHECK(subtree(tree, {9}).nodes.empty() && subtree(tree, {3, 5}).nodes.empty());
  const PuctNodes whole = subtree(tree, {});
  CHECK(whole.nodes.size() == 5 && whole.edges.size() == 4 && whole.edges[1].virtual_loss == 0);

  PuctParams p;
  p.simulations = 200;
  Game game = make(Variant::Hex, 5, 5);  // Favouring fills 5x5's 26 actions
  Favouring flat(-1);
  PuctMemory memory;
  const SearchResult first = PuctSearch(p).search(game.view(Color::Red), flat, nullptr, &memory);
  CHECK(first.reused == 0);
  game.play(first.best);
  const SearchResult next = PuctSearch(p).search(game.view(Color::Blue), flat, nullptr, &memory);
  uint64_t sum = 0;
  for (uint32_t v : next.visits) sum += v;
  CHECK(next.reused == first.visits[first.best] - 1 && sum == next.simulations + next.reused);
  memory.clear();
  CHECK(PuctSearch(p).search(game.view(Color::Blue), flat, nullptr, &memory).reused == 0);
}

}  // namespace

int main() {
  test_arena();
  test_patterns();
  test_playout_threads();
  test_swindle();
  test_vector_env();
  test_puct();
  test_puct_reuse();
  return testing::finish("search tests");
}
