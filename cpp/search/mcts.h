// Monte Carlo tree search for Hex and Rex.
//
// Contract: `HexSearch::search` takes a Hex or Rex View whose viewer is to
// move, and nothing else, and returns a move with the statistics behind it (the
// caller, MctsBot in bot/mcts_bot.h, has checked the view with
// check_searchable, search/search.h). The search is UCT with RAVE
// (all-moves-as-first values blended in by Silver's schedule), pattern playouts
// in Hex (bridge and edge-template saves; Rex fills the board at random,
// optionally avoiding suicide in the endgame), and knowledge at every
// expansion: in Hex and Rex each new child's AMAF value starts at a move prior
// (learned weights of its local pattern and its distance from the last move,
// one table per variant, search/patterns.h), which also gives it a progressive
// bias (MoHex's kind: the prior's probability of the move, over the square root
// of its visits + 1, added to its selection value), an immediate win is the
// only child, a single opponent threat must be blocked, and in Rex a move
// completing your own chain is pruned while any other move exists. At the root,
// a win in one, a forced block or a single non-losing move is returned without
// search, and with few empty cells the exact solver (solver/solver.h) plays a
// proven win; when it proves the position lost, the swindle (search/swindle.h)
// picks the move that sets the opponent the best trap, also without search.
// Dead cells are pruned at expansion in Hex, and in Rex one dead cell stands
// for all moves (it is always a best move). In Hex, a well-visited node gets
// the solver's virtual-connection analysis (H-search): a win of the player to
// move proves its key move, a full connection of the opponent proves every move
// lost, and moves outside the must-play region are pruned; and the solver's
// inferior-cell analysis (solver/knowledge.h): dead cells and captured pairs
// are filled in (the playouts below start from the filled board), and moves
// into them, dominated moves and vulnerable moves are pruned, a winning move
// always being kept.
//
// Proofs (MCTS-solver): a terminal position proves its node; a node with a
// winning reply is lost for the side that moved into it, and one whose every
// reply loses is won. Proven losses are never selected while another move
// exists, and a proven win is always played.
//
// The swap is valued, not searched: swapping takes over the position the
// opponent just left, so it is worth 1 - v where v is the value of the best
// cell (exactly so for `sides`; for `pieces` by the board's symmetry), and the
// bot swaps when 1 - v > v. When the opponent may swap after this move, a
// first move worth v is worth min(v, 1 - v), and the root's selection and
// values use that.
//
// Threads share one tree (tree parallelism); a visit is counted when a thread
// enters a node, which acts as a virtual loss for the others. At the
// well-visited nodes (SearchParams::shadow_visits) each thread keeps its own
// copy of the children's counts and adds to the tree's now and then, so there
// the others see its visits late, after a small share of the node's visits.
// Memory is bounded by `max_nodes`: once the budget is spent, leaves stop
// expanding and the search goes on with playouts. With one thread and a fixed
// seed, the same sequence of calls gives the same results. The tree of the
// previous search is reused when the next view continues the same game; a
// view of other rules starts a new engine for them.
#pragma once

#include <atomic>
#include <memory>

#include "core/view.h"
#include "search/search.h"

namespace hexengine {

// Keeps the engine for the rules searched (search/engine.h).
class EngineSlot;

// The Hex and Rex search engine behind MctsBot, with a tree that lives across
// the moves of a game.
class HexSearch {
 public:
  explicit HexSearch(const SearchParams& params);
  ~HexSearch();
  HexSearch(const HexSearch&) = delete;
  HexSearch& operator=(const HexSearch&) = delete;

  // Searches `view`, a running Hex or Rex game seen by the player to move,
  // within `budget` (validated by the caller). When `interrupt` is given and
  // becomes true, the search ends early (as if its budget were spent) and
  // returns what it has; the bindings set it on Ctrl-C.
  SearchResult search(const View& view, const Budget& budget, const std::atomic<bool>* interrupt = nullptr);
  // Forgets the tree.
  void clear();

 private:
  std::unique_ptr<EngineSlot> slot_;
};

}  // namespace hexengine
