// Information-set Monte Carlo tree search for Dark Hex (classic and abrupt).
//
// Contract: `DarkSearch::search` takes the View of the Dark Hex player to move,
// and nothing else, and returns a move with the statistics behind it (the
// caller, MctsBot in bot/mcts_bot.h, has checked that the view is running and
// the viewer's turn). It never sees a hidden stone: every world it searches is
// drawn from the view by a Belief (dark/belief.h), uniformly among the boards
// the view allows.
//
// The tree is the searcher's: one node per information set of the viewer
// (single-observer ISMCTS with partially observable moves, Cowling, Powley and
// Whitehouse 2012). Each simulation draws a world, then descends with the
// dark rules of core/state.h's `play_move` inside the tree:
//
//   - at the viewer's nodes, the edges are the cells the viewer does not know
//     to be occupied, the same in every world; a move leads to a child per
//     result the viewer observes: placed (the opponent moves next), or hit
//     (the stone is found; in `dark` the viewer moves again, in `dark-abrupt`
//     the turn passes). A placement that completes the viewer's chain wins.
//   - at the opponent's nodes, the edges are the cells not known by the viewer
//     to hold an opponent stone; in each world only those the opponent does
//     not know to be occupied are legal (its own stones, and the viewer's
//     stones it has found, vary with the world), so selection skips the
//     others and counts availability. The viewer only learns whether the
//     opponent placed or hit, so all opponent moves lead to one child per
//     observed result: the tree never lets the viewer act on a hidden move.
//
// What the model of the opponent assumes, and why: the opponent's choices in
// the tree are learned from results in worlds that all share the viewer's
// true stones, so the modelled opponent plays as if it knew where the
// viewer's stones are (a cautious, "paranoid" model: nested beliefs about
// what the opponent believes are far too costly). What the opponent has
// found is modelled exactly as the view allows: the record gives the number
// and times of the opponent's hits on the viewer's stones, not which stones;
// each world draws which ones (see dark/belief.h), and in that world the opponent
// may not play them again and knows them to be occupied.
//
// The opponent model (SearchParams::opponent_model = beta; 0 turns it off):
// a uniform draw treats every consistent board alike, but a sensible
// opponent's stones are not anywhere; they sit near the centre and on short
// paths between its edges. With the model on, each world is drawn thus: the
// hidden stones are drawn one by one in proportion to a prior that falls by
// a factor e per two steps of hex distance from the centre and per extra cell
// on the opponent's shortest path between its edges through the cell (found
// opponent stones cost nothing on it), redrawn while the opponent would have
// a chain (after 4 failures a uniform draw is used); of 16 such draws one is
// picked with weight exp(-beta * d), d being how many more stones the
// opponent would need to connect in that world (viewer's stones block); and
// the picked world serves 16 consecutive simulations of its thread. Every
// world is still consistent with the view; only their weights change. The
// README records what it is worth against the baselines.
//
// The greedy model (SearchParams::greedy_worlds, greedy_opponent and
// greedy_playouts; each 0 turns its part off; the medium level of
// python/hexengine/bots.py turns all three on). The uniform worlds, the
// paranoid opponent and random playouts above model an opponent that plays
// at random now and perfectly in the tree; a real opponent mostly builds a
// shortest connection of its own from what it sees and walks into stones it
// cannot see. A *greedy move* of a side in a world is a cell on a shortest
// path between its edges as its own knowledge in that world shows it (own
// stones free, the enemy stones it has found blocking, every other cell
// costing one; core/distance.h), uniformly among such cells:
//
//   - worlds: the view's record is replayed from the empty board; each hidden
//     opponent action is drawn from a model that plays a greedy move with
//     probability g (greedy_worlds) and any cell it does not know to be
//     occupied otherwise, restricted to the cells that give the recorded
//     result (a hit: the viewer's stones it has not found; a placement: empty
//     cells the viewer does not place on later, that complete no chain, and,
//     when as many stones the viewer hits later remain to be placed as the
//     opponent has placements left before those hits, those stones); the
//     viewer's actions are replayed as recorded and a contradiction discards
//     the replay. Each replay weighs the model's probability of the recorded
//     results (the product of the masses of the allowed cells); of 16 replays
//     one is picked with that weight and serves 16 simulations of its thread.
//     Only the view's record and board enter a replay, so every world is
//     consistent with the view (if all 16 replays fail, a uniform world is
//     drawn).
//   - tree: at the opponent's nodes, with probability greedy_opponent the
//     opponent plays its greedy move in the world instead of the edge the
//     tree's statistics pick (a blind opponent, which hits the viewer's
//     stones it does not know of, in place of the paranoid one).
//   - playouts: instead of the fill, the world is played out by the dark
//     rules, hits included, until a chain; each move is the mover's greedy
//     move with probability greedy_playouts, else a uniformly random cell it
//     does not know to be occupied.
//
// Selection blends tree and all-moves-as-first values as in the Hex search
// (RAVE, Silver's schedule), with an optional UCB term. Leaves are valued by
// random dark playouts done as a fill: in `dark` every turn ends with one
// placement on a uniformly random empty cell (a random player's hits only
// reveal), which is exactly an alternating random fill; in `dark-abrupt` a
// hit ends the turn, so the numbers of placements each side gets are drawn
// by playing out the hit chances (hidden stones over unknown cells) and the
// empty cells are then shared at random. The colour owning a chain on the
// full board wins (chains never break, so it completed the first one).
//
// Knowledge: at the viewer's nodes in `dark`, a cell that would complete the
// viewer's chain is tried first (a hit costs nothing there); at the root, a
// completing cell that no consistent world occupies is played at once
// ("win"). At the opponent's nodes, the opponent tries a cell completing its
// chain in the world when it has one.
//
// Budgets, threads, seeds, the node budget and tree reuse work as in the Hex
// search (search/mcts.h): threads share the tree with virtual losses, one
// thread and a fixed seed give the same results, and the subtree of the
// viewer's information set reached by the next view is kept.
#pragma once

#include <atomic>
#include <memory>

#include "core/view.h"
#include "search/search.h"

namespace hexengine {

// Keeps the engine for the rules searched (search/engine.h).
class EngineSlot;

// The Dark Hex search engine behind MctsBot for dark views.
class DarkSearch {
 public:
  explicit DarkSearch(const SearchParams& params);
  ~DarkSearch();
  DarkSearch(const DarkSearch&) = delete;
  DarkSearch& operator=(const DarkSearch&) = delete;

  // Searches `view`, a running Dark Hex game seen by the player to move,
  // within `budget` (validated by the caller); stops early once `interrupt`
  // (if given) is set.
  SearchResult search(const View& view, const Budget& budget, const std::atomic<bool>* interrupt = nullptr);
  // Forgets the tree.
  void clear();

 private:
  std::unique_ptr<EngineSlot> slot_;
};

}  // namespace hexengine
