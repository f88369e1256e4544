// Tests of the dark layer (cpp/dark/) without Python: the tiny-board Dark Hex
// solver (dark/cfr.h) and the best response to the greedy player
// (dark/greedy_response.h).
// Build and run: cmake -B build/cpp && cmake --build build/cpp && ctest --test-dir build/cpp
#include <atomic>
#include <bit>
#include <cmath>
#include <cstdio>
#include <map>
#include <random>
#include <string>

#include "core/errors.h"
#include "core/game.h"
#include "core/distance.h"
#include "dark/cfr.h"
#include "dark/greedy_response.h"

#include "tests/check.h"

using namespace hexengine;

namespace {

struct Board {
  Variant variant;
  int rows, cols;
};

const Board kSmall[] = {{Variant::Dark, 1, 3},       {Variant::Dark, 3, 1},       {Variant::Dark, 2, 2},
                        {Variant::DarkAbrupt, 2, 2}, {Variant::Dark, 2, 3},       {Variant::DarkAbrupt, 2, 3},
                        {Variant::Dark, 3, 2},       {Variant::DarkAbrupt, 3, 2}, {Variant::DarkAbrupt, 1, 3}};

Rules rules_of(const Board& b) { return make_rules(b.variant, b.rows, b.cols, SwapForm::Off); }

// Everything a view says, as one string (two views are equal iff these are).
std::string view_key(const View& v) {
  std::string s;
  for (int8_t x : v.board) s += static_cast<char>('0' + x);
  s += '|' + std::to_string(v.hidden_stones) + '|' + std::to_string(v.to_move ? index_of(*v.to_move) : -1) + '|';
  for (const Action& a : v.history) {
    s += std::to_string(index_of(a.color)) + ':' + std::to_string(a.cell) + ':' +
         std::to_string(static_cast<int>(a.result)) + ' ';
  }
  return s;
}

// Walks every history with the referee (Game) in the tree's depth-first
// order and calls `at_decision(game, node)` at each decision: the tree has a
// node per history, ends where the game ends with the same winner, and its
// player and legal cells are the referee's.
template <class F>
void walk_with_game(const DarkTree& tree, const Game& game, size_t& pos, F&& at_decision) {
  const uint32_t node = tree.nodes()[pos++];
  CHECK(game.is_over() == static_cast<bool>(node >> 31));
  if (game.is_over()) {
    CHECK(static_cast<int>(node & 1) == index_of(*game.winner()));
    return;
  }
  const int p = static_cast<int>((node >> 30) & 1);
  const uint32_t index = node & ((1u << 26) - 1);
  CHECK(p == index_of(*game.to_move()));
  uint32_t legal = 0;
  for (int cell : game.legal_moves()) legal |= 1u << cell;
  CHECK(legal == tree.infosets(p)[index].moves);
  CHECK(static_cast<int>(((node >> 26) & 15) + 1) == std::popcount(legal));
  at_decision(game, p, index);
  for (uint32_t rest = legal; rest; rest &= rest - 1) {
    Game g = game;
    g.play(std::countr_zero(rest));
    walk_with_game(tree, g, pos, at_decision);
  }
}

// The tree follows the referee on every history of the small boards, and its
// information sets are exactly the core's views: two decision nodes share an
// information set if and only if the player to move has the same View there;
// `infoset_of` finds the set from the view, and `infoset_view` rebuilds it.
void test_tree_matches_game_and_views() {
  for (const Board& b : kSmall) {
    const DarkTree tree(rules_of(b));
    std::map<std::pair<int, uint32_t>, std::string> key_of_set;
    std::map<std::string, std::pair<int, uint32_t>> set_of_key;
    size_t pos = 0;
    walk_with_game(tree, Game(tree.rules()), pos, [&](const Game& g, int p, uint32_t index) {
      const View v = g.view(*g.to_move());
      const std::string key = view_key(v);
      const auto set = std::pair{p, index};
      auto [it, fresh] = key_of_set.emplace(set, key);
      CHECK(it->second == key);
      auto [jt, fresh_key] = set_of_key.emplace(key, set);
      CHECK(jt->second == set);
      CHECK(fresh == fresh_key);
      CHECK(tree.infoset_of(v) == static_cast<int>(index));
    });
    CHECK(pos == tree.histories());
    for (int c = 0; c < 2; ++c) {
      for (size_t i = 0; i < tree.infosets(c).size(); ++i) {
        const std::pair<int, uint32_t> set{c, static_cast<uint32_t>(i)};
        CHECK(view_key(tree.infoset_view(c, static_cast<int>(i))) == key_of_set[set]);
      }
    }
    CHECK(key_of_set.size() == tree.infosets(0).size() + tree.infosets(1).size());
  }
}

// The built tree has the sizes the counting dynamic programmes predict, and
// classic Dark Hex has OpenSpiel's dark_hex (obstype reveal-numturns) sizes.
void test_counts() {
  for (const Board& b : kSmall) {
    const DarkTree tree(rules_of(b));
    const DarkTreeSize size = count_dark_tree(tree.rules(), 1e12, 1e7);
    CHECK(size.histories_complete && size.infosets_complete);
    CHECK(size.histories == static_cast<double>(tree.histories()));
    CHECK(size.terminals == static_cast<double>(tree.terminals()));
    for (int c = 0; c < 2; ++c) {
      CHECK(size.infosets[c] == static_cast<double>(tree.infosets(c).size()));
      CHECK(size.sequences[c] == static_cast<double>(tree.sequences(c)));
    }
  }
  const DarkTree d22(make_rules(Variant::Dark, 2, 2, SwapForm::Off));
  CHECK(d22.histories() == 441 && d22.infosets(0).size() == 33 && d22.infosets(1).size() == 101);
  const DarkTree d32(make_rules(Variant::Dark, 3, 2, SwapForm::Off));
  CHECK(d32.histories() == 196357 && d32.infosets(0).size() == 3823 && d32.infosets(1).size() == 16019);
  // OpenSpiel's adh does not tell the player whose stone is hit: 59 and 35 sets on 2x2.
  const DarkTree silent(make_rules(Variant::DarkAbrupt, 2, 2, SwapForm::Off), true);
  CHECK(silent.histories() == 471 && silent.infosets(0).size() == 59 && silent.infosets(1).size() == 35);
  const DarkTreeSize s = count_dark_tree(silent.rules(), 1e12, 1e7, true);
  CHECK(s.infosets[0] == 59 && s.infosets[1] == 35);
}

// Best responses are exact: the pure strategy it returns earns its stated
// value, and no random pure strategy earns more.
void test_best_response() {
  std::mt19937 rng(3);
  for (const Board& b : kSmall) {
    const DarkTree tree(rules_of(b));
    const DarkPolicy uniform = uniform_policy(tree);
    const DarkEvaluation e = evaluate(tree, uniform);
    CHECK(e.nash_conv() >= 0);
    CHECK(e.best_response[0] >= e.value - 1e-12 && e.best_response[1] >= -e.value - 1e-12);
    for (int c = 0; c < 2; ++c) {
      const DarkPolicy br = best_response_policy(tree, uniform, c);
      const double got = evaluate(tree, br).value * (c == 0 ? 1 : -1);
      CHECK(std::abs(got - e.best_response[c]) < 1e-12);
      for (int trial = 0; trial < 50; ++trial) {
        DarkPolicy pure = uniform;
        for (const DarkInfoSet& set : tree.infosets(c)) {
          const int n = std::popcount(set.moves);
          const int pick = static_cast<int>(rng() % n);
          for (int k = 0; k < n; ++k) pure.prob[c][set.first_seq + k] = k == pick ? 1.0 : 0.0;
        }
        CHECK(evaluate(tree, pure).value * (c == 0 ? 1 : -1) <= e.best_response[c] + 1e-12);
      }
    }
  }
}

// CFR+ drives the average strategy's exploitability towards zero, and the
// value bounds [-BR(Blue), BR(Red)] close around the game value.
void test_cfr_converges() {
  for (const Board& b : kSmall) {
    if (b.rows * b.cols > 4) continue;
    const DarkTree tree(rules_of(b));
    DarkCfr cfr(tree);
    double previous = evaluate(tree, uniform_policy(tree)).exploitability();
    for (int step : {10, 90, 900}) {
      cfr.run(step);
      const DarkEvaluation e = evaluate(tree, cfr.average_policy());
      CHECK(e.exploitability() < previous + 1e-12);
      previous = e.exploitability();
      CHECK(-e.best_response[1] <= e.value + 1e-12 && e.value <= e.best_response[0] + 1e-12);
    }
    CHECK(previous < 1e-3);
  }
  // Red wins classic 2x2 for sure; abrupt 2x2 is worth 0.5 to Red (Red wins 3 in 4).
  const DarkTree classic(make_rules(Variant::Dark, 2, 2, SwapForm::Off));
  DarkCfr c1(classic);
  c1.run(1000);
  CHECK(std::abs(evaluate(classic, c1.average_policy()).value - 1.0) < 1e-3);
}

// Only dark variants, and only trees that fit, are accepted, with a reason.
void test_refusals() {
  auto message = [](auto&& f) -> std::string {
    try {
      f();
    } catch (const ConfigError& e) {
      return e.what();
    }
    return "";
  };
  CHECK(message([] { DarkTree t(make_rules(Variant::Hex, 2, 2, SwapForm::Off)); }).find("only 'dark'") !=
        std::string::npos);
  CHECK(message([] { DarkTree t(make_rules(Variant::Dark, 3, 3, SwapForm::Off)); }).find("too large") !=
        std::string::npos);
  CHECK(message([] { DarkTree t(make_rules(Variant::Dark, 5, 5, SwapForm::Off)); }).find("too large") !=
        std::string::npos);
  CHECK(message([] { DarkTree t(make_rules(Variant::Dark, 2, 2, SwapForm::Off), true); }).find("abrupt") !=
        std::string::npos);
  const DarkTree tree(make_rules(Variant::Dark, 2, 2, SwapForm::Off));
  DarkPolicy bad = uniform_policy(tree);
  bad.prob[0][0] += 0.5;
  CHECK(message([&] { evaluate(tree, bad); }).find("sum to") != std::string::npos);
  Game other(make_rules(Variant::Dark, 2, 3, SwapForm::Off));
  CHECK(message([&] { tree.infoset_of(other.view(Color::Red)); }).find("not of") != std::string::npos);
  Game g(tree.rules());
  CHECK(message([&] { tree.infoset_of(g.view(Color::Blue)); }).find("player to move") != std::string::npos);
}

// A set stop flag: the tree build throws Interrupted at once, and a CFR+ run
// returns before its next iteration (the iterations done so far are kept).
void test_stop_flag() {
  const Rules rules = make_rules(Variant::Dark, 2, 2, SwapForm::Off);
  std::atomic<bool> stop{true};
  bool thrown = false;
  try {
    DarkTree tree(rules, false, &stop);
  } catch (const Interrupted&) {
    thrown = true;
  }
  CHECK(thrown);
  const DarkTree tree(rules);
  DarkCfr cfr(tree);
  std::atomic<bool> go{false};
  cfr.run(3, &go);
  CHECK(cfr.iterations() == 3);
  cfr.run(1000, &stop);
  CHECK(cfr.iterations() == 3);
}

// The best response to the greedy player equals the full tree's best
// response to the greedy policy (its tied cells equally likely), for both
// colours on the small boards; bad rules are refused with a reason, and a
// state limit or the stop flag ends it incomplete.
void test_greedy_best_response() {
  for (const Board& b : kSmall) {
    const DarkTree tree(rules_of(b));
    DarkPolicy greedy = uniform_policy(tree);
    for (int c = 0; c < 2; ++c) {
      for (size_t i = 0; i < tree.infosets(c).size(); ++i) {
        const DarkInfoSet& set = tree.infosets(c)[i];
        const std::vector<int> d = move_distances(tree.infoset_view(c, static_cast<int>(i)));
        int best = kFar + 1, ties = 0;
        for (uint32_t m = set.moves; m; m &= m - 1) best = std::min(best, d[std::countr_zero(m)]);
        for (uint32_t m = set.moves; m; m &= m - 1) ties += d[std::countr_zero(m)] == best;
        int k = 0;
        for (uint32_t m = set.moves; m; m &= m - 1, ++k) {
          greedy.prob[c][set.first_seq + k] = d[std::countr_zero(m)] == best ? 1.0 / ties : 0.0;
        }
      }
    }
    const DarkEvaluation e = evaluate(tree, greedy);
    for (int c = 0; c < 2; ++c) {
      const GreedyResponse r = greedy_best_response(tree.rules(), static_cast<Color>(c), 0);
      CHECK(r.complete && r.bound == GreedyBound::Exact);
      CHECK(std::abs(r.value - (e.best_response[c] + 1) / 2) < 1e-6);
      // Asked about a target: a value above it, at most the value, or the target as a bound.
      if (r.value >= 0.01) {
        const GreedyResponse below =
            greedy_best_response(tree.rules(), static_cast<Color>(c), 0, nullptr, r.value - 0.01);
        CHECK(below.complete && below.bound == GreedyBound::AtLeast);
        CHECK(below.value > r.value - 0.01 && below.value <= r.value + 1e-6);
      }
      if (r.value < 0.99) {
        const GreedyResponse above =
            greedy_best_response(tree.rules(), static_cast<Color>(c), 0, nullptr, r.value + 0.01);
        CHECK(above.complete && above.bound == GreedyBound::AtMost && above.value == r.value + 0.01);
      }
    }
  }
  auto message = [](const Rules& rules) -> std::string {
    try {
      greedy_best_response(rules, Color::Red, 0);
    } catch (const ConfigError& e) {
      return e.what();
    }
    return "";
  };
  CHECK(message(make_rules(Variant::Hex, 3, 3, SwapForm::Off)).find("for Dark Hex") != std::string::npos);
  CHECK(message(make_rules(Variant::Dark, 8, 8, SwapForm::Off)).find("fits 64 cells") != std::string::npos);
  bool refused = false;
  try {
    greedy_best_response(make_rules(Variant::Dark, 3, 3, SwapForm::Off), Color::Red, 0, nullptr, 1.0);
  } catch (const ConfigError& e) {
    refused = std::string(e.what()).find("target win rate") != std::string::npos;
  }
  CHECK(refused);
  refused = false;
  try {
    greedy_best_response(make_rules(Variant::Dark, 3, 3, SwapForm::Off), Color::Red, 0, nullptr, {}, -1);
  } catch (const ConfigError& e) {
    refused = std::string(e.what()).find("reveal_after") != std::string::npos;
  }
  CHECK(refused);
  // Told every hidden stone once it has k stones, the responder can only do
  // better, and the later it is told, the less: a bound that falls to the value.
  for (Variant v : {Variant::Dark, Variant::DarkAbrupt}) {
    for (Color c : {Color::Red, Color::Blue}) {
      const Rules rules = make_rules(v, 3, 3, SwapForm::Off);
      const double exact = greedy_best_response(rules, c, 0).value;
      double last = 1;
      for (int k = 0; k <= 5; ++k) {
        const GreedyResponse told = greedy_best_response(rules, c, 0, nullptr, {}, k);
        CHECK(told.complete && told.value >= exact - 1e-9 && told.value <= last + 1e-9);
        CHECK(k > 0 || told.informed > 0);
        last = told.value;
      }
      CHECK(std::abs(last - exact) < 1e-3);
    }
  }
  const Rules four = make_rules(Variant::Dark, 4, 4, SwapForm::Off);
  const GreedyResponse capped = greedy_best_response(four, Color::Blue, 500);
  CHECK(!capped.complete && capped.decisions > 500 && capped.decisions <= 516);  // past it by at most one a ply
  std::atomic<bool> stop{true};
  CHECK(!greedy_best_response(four, Color::Blue, 0, &stop).complete);
  // Red's first decision: the best move's value is the game's.
  for (Variant v : {Variant::Dark, Variant::DarkAbrupt}) {
    const Rules rules = make_rules(v, 3, 3, SwapForm::Off);
    GreedyResponder responder(rules, Color::Red);
    const std::vector<double> values = responder.move_values(0, 0, {{0, 0, 1.0}});
    CHECK(values.size() == 9);
    double best = -1;
    for (double x : values) best = std::max(best, x);
    CHECK(std::abs(best - greedy_best_response(rules, Color::Red, 0).value) < 1e-6);
    CHECK(responder.decisions() > 0);
  }
}

}  // namespace

int main() {
  test_tree_matches_game_and_views();
  test_counts();
  test_best_response();
  test_cfr_converges();
  test_refusals();
  test_stop_flag();
  test_greedy_best_response();
  return testing::finish("dark tests");
}
