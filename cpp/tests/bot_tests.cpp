// Unit tests of the bot layer (cpp/bot/) without Python: MctsBot checks its
// parameters and views at its boundary and sends each view to the search of
// its variant.
// Build and run: cmake -B build/cpp && cmake --build build/cpp && ctest --test-dir build/cpp
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <initializer_list>
#include <string>

#include "bot/mcts_bot.h"
#include "core/errors.h"
#include "core/game.h"
#include "core/notation.h"

#include "tests/check.h"

using namespace hexengine;

namespace {

// The message of the ConfigError `f` throws, or "" if it throws none.
template <class F>
std::string config_error(F&& f) {
  try {
    f();
  } catch (const ConfigError& e) {
    return e.what();
  }
  return "";
}

// A quick one-thread search with a fixed seed.
SearchParams quick(uint64_t seed) {
  SearchParams p;
  p.simulations = 400;
  p.seed = seed;
  return p;
}

// A running game of `v` on 7x7 after `cells` (too many empty cells for the
// endgame solver, so the searches search).
Game played(Variant v, std::initializer_list<const char*> cells) {
  Game g(make_rules(v, 7, 7, SwapForm::Off));
  for (const char* c : cells) g.play(parse_cell(g.geometry(), c));
  return g;
}

// Bad parameters are refused when the bot is built; a finished game and a view
// of the player not to move are refused when it searches, with the messages
// the Python layer shows.
void test_boundary() {
  SearchParams none = quick(1);
  none.simulations = 0;
  CHECK(config_error([&] { MctsBot bot(none); }) == "a search needs a budget: give simulations > 0 or seconds > 0");
  MctsBot bot(quick(1));
  CHECK(bot.params().simulations == 400 && bot.params().seed == 1);
  Game g(make_rules(Variant::Hex, 3, 3, SwapForm::Off));
  CHECK(config_error([&] { bot.search(g.view(Color::Blue)); }) ==
        "this view is not the view of the player to move; give the bot the view of Red");
  for (const char* c : {"a1", "b1", "a2", "b2", "a3"}) g.play(parse_cell(g.geometry(), c));
  CHECK(g.is_over());
  CHECK(config_error([&] { bot.search(g.view(Color::Blue)); }) == "the game is over: there is no move to choose");
}

// The same answer, statistics and all.
bool same(const SearchResult& a, const SearchResult& b) {
  return a.best == b.best && a.value == b.value && a.visits == b.visits && a.values == b.values &&
         a.proven == b.proven && a.pv == b.pv && a.simulations == b.simulations && a.reused == b.reused &&
         a.forced == b.forced && a.occupied == b.occupied;
}

// One bot searches every variant: Dark Hex views get the information-set
// search (the one that reports hit chances), Hex and Rex views the Hex and Rex
// search, in any order, and each answer is the one a fresh bot with the same
// seed gives.
void test_dispatch() {
  MctsBot bot(quick(3));
  for (Variant v : {Variant::Hex, Variant::Dark, Variant::Rex, Variant::DarkAbrupt, Variant::Hex}) {
    const View view = played(v, {"d4"}).view(Color::Blue);
    const SearchResult r = bot.search(view);
    MctsBot fresh(quick(3));
    CHECK(same(r, fresh.search(view)));
    CHECK(r.occupied.size() == (is_dark(v) ? 49u : 0u));
    CHECK(r.forced.empty() && r.visits.size() == 49 && r.best >= 0 && r.best < 49);
  }
}

// A Dark Hex search between two moves of a Hex game leaves the Hex tree alone:
// the second Hex search reuses the first one's tree exactly as without it; and
// clear() forgets the trees, so the next search is a fresh bot's.
void test_trees() {
  Game hex = played(Variant::Hex, {"d4"});
  const View first = hex.view(Color::Blue);
  const View dark = played(Variant::Dark, {"d4"}).view(Color::Blue);
  MctsBot a(quick(5)), b(quick(5));
  const SearchResult ra = a.search(first);
  CHECK(same(ra, b.search(first)));
  a.search(dark);
  hex.play(ra.best);
  const View second = hex.view(Color::Red);
  const SearchResult with_dark = a.search(second);
  CHECK(with_dark.reused > 0);
  CHECK(same(with_dark, b.search(second)));
  a.clear();
  MctsBot fresh(quick(5));
  const SearchResult cleared = a.search(second);
  CHECK(cleared.reused == 0);
  CHECK(same(cleared, fresh.search(second)));
}

// A search with a budget of its own runs exactly that budget and keeps the
// tree, in Hex and in Dark Hex; the next search without one has the bot's
// budget again; a bad budget is refused before anything is searched.
void test_budgets() {
  for (Variant v : {Variant::Hex, Variant::Dark}) {
    Game g = played(v, {"d4"});
    MctsBot bot(quick(7));
    const SearchResult small = bot.search(g.view(Color::Blue), Budget{150, 0.0});
    CHECK(small.simulations == 150);
    const SearchResult again = bot.search(g.view(Color::Blue));
    CHECK(again.simulations == 400 && again.reused > 0);
    const SearchResult timed = bot.search(g.view(Color::Blue), Budget{0, 0.02});
    CHECK(timed.simulations > 0 && timed.reused > 0);
    CHECK(config_error([&] { bot.search(g.view(Color::Blue), Budget{0, 0.0}); }) ==
          "a search needs a budget: give simulations > 0 or seconds > 0");
    CHECK(config_error([&] { bot.search(g.view(Color::Blue), Budget{10, -1.0}); }) ==
          "seconds must be between 0 and 1e6");
  }
}

}  // namespace

int main() {
  test_boundary();
  test_dispatch();
  test_trees();
  test_budgets();
  return testing::finish("bot tests");
}
