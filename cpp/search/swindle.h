// Swindles: how a player who has lost against perfect play still gives a
// fallible opponent the best chance to go wrong.
//
// Contract: `find_swindle` takes a Hex or Rex position (stones of each colour,
// the player to move, swap off) that the solver has proven lost for the player
// to move, and ranks that player's moves by the trap each one sets. Like the
// solver it reads only the stones, never a record. For a move m it proves which
// replies of the opponent still win (solver/solver.h, `winning_moves`), then values
// every reply r by `playouts` random fill-the-board games from the position
// after r (search/playout.h; all with the same seed, so the replies are compared on
// the same random fills). A reply that ends the game is worth exactly 1 or 0.
// The trap of m is
//     best value of a losing reply - best value of a winning reply
// for the opponent: the more a reply that throws the win away looks better to
// an opponent who judges by random games than every reply that keeps it, the
// likelier such an opponent is to play it. The move with the largest trap is
// chosen; ties go to fewer winning replies, then the lower cell. Only moves
// whose replies the solver classified within its limits are candidates (a
// move completing the mover's own chain in Rex, an immediate loss, never is);
// with none, no move is chosen. Should a move turn out to win after all,
// it is returned at once as a win. Without a time limit the result depends
// only on the position, the node limits, the work limit, `playouts` and `seed`.
//
// Work: every solver node and every playout counts one unit. With `max_work`
// set, a move is classified only while its solve and its replies' playouts
// fit in what is left, so the swindle never spends more than `max_work` units
// (a solve's own node count may pass its limit by the few nodes df-pn expands
// before it checks). This is what keeps a bot given only simulations in time.
#pragma once

#include <cstdint>
#include <vector>

#include "core/geometry.h"
#include "core/rules.h"
#include "solver/solver.h"

namespace hexengine {

// The swindle's choice and what it learnt about each move.
struct Swindle {
  // Public index of the chosen move; -1 if no move could be classified.
  int move = -1;
  // The chosen move wins (the position was not lost after all).
  bool wins = false;
  // Trap of the chosen move (see above) and the opponent's winning replies to it.
  double trap = 0.0;
  int winning_replies = 0;
  // Per public cell: -1 the move is proven lost, +1 proven won, 0 not known.
  std::vector<int8_t> proven;
  // Moves whose replies were classified.
  int classified = 0;
  // Work done: solver nodes expanded and random playouts run.
  uint64_t nodes = 0;
  uint64_t playouts = 0;
};

// Ranks the moves of `to_move` in the position with stones `red` and `blue`
// (padded bitboards of the rules' geometry) as described above. Each solve
// gets `limits` (its `winning_moves` is set here); the whole swindle stops
// when `limits.stop` is set, `max_seconds` (0: no limit) have passed or
// `max_work` units (0: no limit) would be exceeded, and then ranks the moves
// classified so far. `playouts` is per reply. Throws SolveError as `solve`
// does (Dark Hex, a finished position, stones off the board or on both
// colours, bad limits) and for `playouts` 0.
Swindle find_swindle(const Rules& rules, const Board& red, const Board& blue, Color to_move,
                     const SolveLimits& limits, double max_seconds, uint64_t playouts, uint64_t seed,
                     uint64_t max_work = 0);

}  // namespace hexengine
