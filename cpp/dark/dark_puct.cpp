#include "dark/dark_puct.h"

#include <algorithm>

#include "core/errors.h"
#include "dark/belief.h"
#include "search/position.h"
#include "search/puct_tree.h"

namespace hexengine {

namespace {

// How a simulation moves in Dark Hex: in a world drawn from the searcher's
// view, a move of the searcher and then the opponent's random moves until the
// searcher is to move again (the search holds its tree's lock while it walks,
// so one set of sampling buffers serves every thread).
template <int W>
class DarkWalk {
 public:
  struct Position {
    State<W> state;
    Shadow<W> shadow;
  };

  explicit DarkWalk(const View& view, uint64_t seed)
      : rules_(view.rules),
        g_(make_geometry(view.rules.rows, view.rules.cols)),
        board_(dense_cells<W>(g_.cells)),
        me_(*view.viewer),
        plies_(static_cast<int>(view.history.size())),
        belief_(view, SampleMethod::Auto, seed),
        scratch_(belief_.scratch()) {}

  int cells() const { return g_.cells; }
  Color to_move(const Position& pos) const { return pos.shadow.to_move; }

  Position start(Rng& rng) {
    Position pos;
    belief_.sample(rng, scratch_, pos.state);
    pos.shadow = shadow_of(pos.state, g_, plies_);
    return pos;
  }

  Outcome play(Position& pos, int action, Rng& rng) const {
    Outcome out;
    const bool hit = pos.shadow.stones[index_of(opponent(me_))].test(action);
    if (step(pos, action)) return ended(me_);
    int taken = 0;
    while (pos.shadow.to_move != me_) {
      const Color them = pos.shadow.to_move;
      const int reply = random_action(pos.shadow, rules_, board_, g_.cells, rng);
      taken += pos.shadow.stones[index_of(me_)].test(reply) ? 1 : 0;
      if (step(pos, reply)) return ended(them);
    }
    out.key = (hit ? 1 : 0) + 2 * std::min(taken, 1000);
    return out;
  }

  void observe(const Position& pos, float* planes, bool* mask) const {
    write_planes(perspective_of(pos.shadow, rules_, me_, EndReason::None), g_.cells, planes);
    put_bits<false>(legal_cells(pos.shadow, rules_.variant, board_), g_.cells, mask);
    mask[g_.cells] = false;
  }

 private:
  // Plays a cell for the player to move; returns whether it completed a chain.
  bool step(Position& pos, int cell) const {
    return play_action(pos.state, pos.shadow, g_, rules_, cell, g_.padded(cell));
  }

  // The end of a game whose chain `connector` completed, for the searcher.
  Outcome ended(Color connector) const {
    Outcome out;
    out.ended = true;
    out.value = winner_of_connection(rules_.variant, connector) == me_ ? 1.0f : -1.0f;
    out.key = out.value > 0 ? -1 : -2;  // one terminal node per result
    return out;
  }

  Rules rules_;
  Geometry g_;
  Bitboard<W> board_;
  Color me_;
  int plies_;
  Belief<W> belief_;
  typename Belief<W>::Scratch scratch_;
};

}  // namespace

DarkPuct::DarkPuct(const PuctParams& params) : params_(params) { validate_puct_params(params); }

SearchResult DarkPuct::search(const View& view, Evaluator& evaluator, const std::atomic<bool>* interrupt) {
  check_searchable(view);
  if (!is_dark(view.rules.variant)) throw ConfigError("DarkPuct searches Dark Hex; Hex and Rex go to PuctSearch");
  const Geometry g = make_geometry(view.rules.rows, view.rules.cols);
  return with_width(g.words, [&](auto w) {
    DarkWalk<w.value> walk(view, params_.seed);
    PuctNodes tree;  // a new tree each search: the worlds drawn from the next view differ
    return PuctTree<DarkWalk<w.value>>(params_, walk, evaluator, interrupt, tree).run();
  });
}

}  // namespace hexengine
